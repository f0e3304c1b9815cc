/* SPDX-License-Identifier: MIT */
/*
** chat.c: the demo's model behind the API the loop speaks (see chat.h).
*/
#include "chat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/loop.h>

typedef struct jout {
    char *p;
    size_t len, cap;
    int failed;
} jout;

static void jput(jout *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        char *p;
        while (cap < b->len + n + 1)
            cap *= 2;
        if (!(p = realloc(b->p, cap))) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void jlit(jout *b, const char *s)
{
    jput(b, s, strlen(s));
}

/* A JSON string: the bytes as they are (a model may write anything; the
** loop judges it), with what JSON must escape escaped. */
static void jstring(jout *b, const char *s)
{
    jlit(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            jput(b, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            jput(b, esc, 6);
        } else {
            jput(b, s, 1);
        }
    }
    jlit(b, "\"");
}

void demo_chat_call_id(char *out, size_t size, unsigned step, size_t i)
{
    snprintf(out, size, "call_%u_%lu", step, (unsigned long)i + 1);
}

int demo_chat_completion(char **out, size_t *out_len, const demo_proposal *p, unsigned step)
{
    jout b = {NULL, 0, 0, 0};
    size_t i;
    jlit(&b, "{\"id\":\"chatcmpl-demo\",\"object\":\"chat.completion\",\"model\":\"scripted\","
             "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":");
    if (p->call_count == 0) {
        jstring(&b, p->answer);
    } else {
        jlit(&b, "null,\"tool_calls\":[");
        for (i = 0; i < p->call_count && i < DEMO_MAX_BATCH; i++) {
            char id[DEMO_CHAT_ID_MAX];
            demo_chat_call_id(id, sizeof id, step, i);
            jlit(&b, i ? ",{\"id\":" : "{\"id\":");
            jstring(&b, id);
            jlit(&b, ",\"type\":\"function\",\"function\":{\"name\":");
            jstring(&b, p->calls[i].tool);
            jlit(&b, ",\"arguments\":");
            jstring(&b, p->calls[i].args);
            jlit(&b, "}}");
        }
        jlit(&b, "]");
    }
    jlit(&b, p->call_count ? "},\"finish_reason\":\"tool_calls\"}]}"
                           : "},\"finish_reason\":\"stop\"}]}");
    if (b.failed) {
        free(b.p);
        return TOOLGOV_ENOMEM;
    }
    *out = b.p;
    *out_len = b.len;
    return 0;
}

static size_t put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static long hex4(const char *s)
{
    long v = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

/* The JSON string at s (its opening quote) decoded into a new string; NULL
** when it is not one or out of memory. */
static char *json_string_at(const char *s, const char *end)
{
    char *out, *o;
    if (s >= end || *s != '"' || !(out = malloc((size_t)(end - s) + 1)))
        return NULL;
    for (o = out, s++; s < end && *s != '"'; s++) {
        long cp, lo;
        if (*s != '\\') {
            *o++ = *s;
            continue;
        }
        if (++s >= end)
            break;
        switch (*s) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u':
            if (end - s < 5 || (cp = hex4(s + 1)) < 0)
                goto bad;
            s += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && end - s >= 7 && s[1] == '\\' && s[2] == 'u' &&
                (lo = hex4(s + 3)) >= 0xdc00 && lo < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                s += 6;
            }
            o += put_utf8(o, (unsigned long)cp);
            break;
        default: *o++ = *s; break; /* \" \\ \/ */
        }
    }
    if (s >= end)
        goto bad;
    *o = '\0';
    return out;
bad:
    free(out);
    return NULL;
}

char *demo_chat_result(const char *req, size_t len, const char *id)
{
    char shape[128];
    size_t n = 0;
    const char *at, *end = req + len;
    if (toolgov_loop_tool_result_render(shape, sizeof shape, &n, TOOLGOV_LOOP_OPENAI_CHAT, id,
                                        "", 0, 0) ||
        n < 3 || strcmp(shape + n - 3, "\"\"}") != 0)
        return NULL;
    shape[n - 3] = '\0'; /* the prefix, up to the content's opening quote */
    at = strstr(req, shape);
    return at ? json_string_at(at + (n - 3), end) : NULL;
}
