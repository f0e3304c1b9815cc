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
