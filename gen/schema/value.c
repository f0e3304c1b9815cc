/* SPDX-License-Identifier: MIT */
/*
** value.c: the JSON value tree (value.h): its builders, a big object's
** index of keys, number texts read with the runtime's conversions, and the
** compact text of a value.
*/
#include "schema/value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void toolgov__jv_oom(toolgov__schema_ctx *cx)
{
    if (!cx->oom) {
        cx->oom = 1;
        /* Past the error cap the sink only counts (schema.c's err_at). */
        if (cx->d->max_errors && cx->d->errors >= cx->d->max_errors)
            toolgov__diag_error(cx->d, cx->path, 0, 0, "%s", "");
        else
            toolgov__diag_error(cx->d, cx->path, 0, 0, "%s",
                                "out of memory while compiling parameters");
    }
}

static void *alloc(toolgov__schema_ctx *cx, size_t n)
{
    void *p = toolgov__arena_alloc(cx->arena, n);
    if (!p)
        toolgov__jv_oom(cx);
    return p;
}

/* The key of member i of the object `arr` (the jval, which stays put while
** its members array moves as it grows). */
static void member_key(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__jmember *m = &((const toolgov__jval *)arr)->members[i];
    *s = m->key;
    *len = m->key_len;
}

/* ---- the value tree ------------------------------------------------------ */

toolgov__jval *toolgov__jv_new(toolgov__schema_ctx *cx, toolgov__jkind kind, toolgov__mark at)
{
    toolgov__jval *v = alloc(cx, sizeof *v);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->at = at;
    v->text = "";
    return v;
}

toolgov__jval *toolgov__jv_text(toolgov__schema_ctx *cx, toolgov__jkind kind, const char *s,
                                size_t len, toolgov__mark at)
{
    toolgov__jval *v = toolgov__jv_new(cx, kind, at);
    char *t;
    if (!v)
        return NULL;
    t = toolgov__arena_strndup(cx->arena, s, len);
    if (!t) {
        toolgov__jv_oom(cx);
        return NULL;
    }
    v->text = t;
    v->len = len;
    return v;
}

static int grow(toolgov__schema_ctx *cx, void **arr, size_t *cap, size_t count, size_t elem)
{
    size_t ncap;
    void *p;
    if (count < *cap)
        return 0;
    ncap = *cap ? *cap * 2 : 4;
    if (ncap > (size_t)-1 / elem) {
        toolgov__jv_oom(cx);
        return -1;
    }
    p = alloc(cx, ncap * elem);
    if (!p)
        return -1;
    if (count)
        memcpy(p, *arr, count * elem);
    *arr = p;
    *cap = ncap;
    return 0;
}

int toolgov__jv_push(toolgov__schema_ctx *cx, toolgov__jval *array, toolgov__jval *item)
{
    void *p = array->items;
    if (grow(cx, &p, &array->cap_, array->count, sizeof(toolgov__jval *)))
        return -1;
    array->items = p;
    array->items[array->count++] = item;
    return 0;
}

int toolgov__jv_put(toolgov__schema_ctx *cx, toolgov__jval *object, const char *key,
                    size_t key_len, toolgov__mark at, toolgov__jval *val)
{
    void *p = object->members;
    toolgov__jmember *m;
    char *k;
    if (grow(cx, &p, &object->cap_, object->count, sizeof *object->members))
        return -1;
    object->members = p;
    k = toolgov__arena_strndup(cx->arena, key, key_len);
    if (!k) {
        toolgov__jv_oom(cx);
        return -1;
    }
    m = &object->members[object->count++];
    m->key = k;
    m->key_len = key_len;
    m->at = at;
    m->val = val;
    if (object->count > TOOLGOV__SCAN_MAX) {
        /* A big object: its keys indexed, the first of equal ones kept. */
        size_t i = object->count - 1;
        if (!object->ix_) {
            if (!(object->ix_ = alloc(cx, sizeof *object->ix_)))
                return -1;
            toolgov__index_init(object->ix_, cx->arena, object, member_key);
            i = 0;
        }
        for (; i < object->count; i++)
            if (toolgov__index_add(object->ix_, i, object->members[i].key,
                                   object->members[i].key_len, NULL) < 0) {
                toolgov__jv_oom(cx);
                return -1;
            }
    }
    return 0;
}

const toolgov__jmember *toolgov__jv_find(const toolgov__jval *object, const char *key,
                                         size_t len)
{
    size_t i;
    if (!object || object->kind != TOOLGOV_J_OBJECT)
        return NULL;
    if (object->ix_) {
        size_t at = toolgov__index_find(object->ix_, key, len);
        return at == SIZE_MAX ? NULL : &object->members[at];
    }
    for (i = 0; i < object->count; i++)
        if (object->members[i].key_len == len && memcmp(object->members[i].key, key, len) == 0)
            return &object->members[i];
    return NULL;
}

/* ---- numbers ------------------------------------------------------------- */

int toolgov__jtext_number_ok(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && s[i] == '-')
        i++;
    if (i >= len)
        return 0;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        return 0;
    }
    if (i < len && s[i] == '.') {
        size_t start = ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t start;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    return i == len;
}

/* A number text as the runtime's reader leaves it (a number node of its
** tape), so the generator reads numbers with the runtime's conversions:
** one meaning for a bound, an enum value or a default in both products. */
static toolgov__json number_node(const char *s, size_t len)
{
    toolgov__json n;
    memset(&n, 0, sizeof n);
    n.type = TOOLGOV__JSON_NUMBER;
    n.u.str = s;
    n.len = (uint32_t)len;
    return n;
}

/* Exact: "2.50e1" is 25, "2.5" is not an integer, "9223372036854775808"
** does not fit (toolgov__json_int64). */
int toolgov__jtext_int64(const char *s, size_t len, int64_t *out)
{
    toolgov__json n;
    if (len > UINT32_MAX || !toolgov__jtext_number_ok(s, len))
        return 0;
    n = number_node(s, len);
    return toolgov__json_int64(&n, out) == 0;
}

int toolgov__jtext_integral(const char *s, size_t len)
{
    toolgov__json n;
    if (len > UINT32_MAX || !toolgov__jtext_number_ok(s, len))
        return 0;
    n = number_node(s, len);
    return toolgov__json_is_integral(&n);
}

/* The double nearest to a number text, correctly rounded whatever the
** locale (toolgov__json_double); beyond the double range, an infinity of
** its sign. */
double toolgov__jtext_double(const char *s, size_t len)
{
    toolgov__json n;
    double d;
    if (len > UINT32_MAX)
        return 0;
    n = number_node(s, len);
    if (toolgov__json_double(&n, &d) != 0)
        return len && s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    return d;
}

/* ---- compact text -------------------------------------------------------- */

static void put_json(toolgov__buf *b, const toolgov__jval *v)
{
    size_t i;
    switch (v->kind) {
    case TOOLGOV_J_NULL:
        toolgov__buf_put(b, "null", 4);
        break;
    case TOOLGOV_J_BOOL:
        if (v->boolean)
            toolgov__buf_put(b, "true", 4);
        else
            toolgov__buf_put(b, "false", 5);
        break;
    case TOOLGOV_J_NUMBER:
        toolgov__buf_put(b, v->text, v->len);
        break;
    case TOOLGOV_J_STRING:
        toolgov__buf_json_str(b, v->text, v->len);
        break;
    case TOOLGOV_J_ARRAY:
        toolgov__buf_put(b, "[", 1);
        for (i = 0; i < v->count; i++) {
            if (i)
                toolgov__buf_put(b, ",", 1);
            put_json(b, v->items[i]);
        }
        toolgov__buf_put(b, "]", 1);
        break;
    default:
        toolgov__buf_put(b, "{", 1);
        for (i = 0; i < v->count; i++) {
            if (i)
                toolgov__buf_put(b, ",", 1);
            toolgov__buf_json_str(b, v->members[i].key, v->members[i].key_len);
            toolgov__buf_put(b, ":", 1);
            put_json(b, v->members[i].val);
        }
        toolgov__buf_put(b, "}", 1);
        break;
    }
}

int toolgov__jtext_write(toolgov__buf *b, const toolgov__jval *v)
{
    put_json(b, v);
    return b->oom ? -1 : 0;
}

const char *toolgov__buf_to_arena(toolgov__schema_ctx *cx, toolgov__buf *b, size_t *len)
{
    const char *s = NULL;
    if (!b->oom)
        s = toolgov__arena_strndup(cx->arena, b->data ? b->data : "", b->len);
    if (!s)
        toolgov__jv_oom(cx);
    else if (len)
        *len = b->len;
    toolgov__buf_free(b);
    return s;
}

