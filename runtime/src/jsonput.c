/* SPDX-License-Identifier: MIT */
/*
** jsonput.c: the canonical JSON writer's appenders on the growable buffer,
** and a parsed value written back in canonical form (see json.h). The
** spelling itself is jsonwrite.c's, shared with toolgov-gen.
*/
#include "json.h"

#include "jsonwrite.h"

void toolgov__json_put_str(toolgov__jbuf *b, const char *s, size_t len)
{
    size_t n = toolgov__json_str_size(s, len);

    if (toolgov__jbuf_room(b, n))
        b->len += toolgov__json_str_write(b->ptr + b->len, s, len);
}

void toolgov__json_put_int(toolgov__jbuf *b, int64_t v)
{
    if (toolgov__jbuf_room(b, TOOLGOV__JSON_NUMBER_MAX))
        b->len += toolgov__json_int_text(b->ptr + b->len, v);
}

void toolgov__json_put_double(toolgov__jbuf *b, double v)
{
    if (toolgov__jbuf_room(b, TOOLGOV__JSON_NUMBER_MAX))
        b->len += toolgov__json_double_text(b->ptr + b->len, v);
}

void toolgov__json_put_value(toolgov__jbuf *b, const toolgov__json_doc *doc, size_t i)
{
    const toolgov__json *n = &doc->nodes[i];
    size_t k;

    switch (n->type) {
    case TOOLGOV__JSON_NULL: toolgov__jbuf_put(b, "null", 4); break;
    case TOOLGOV__JSON_FALSE: toolgov__jbuf_put(b, "false", 5); break;
    case TOOLGOV__JSON_TRUE: toolgov__jbuf_put(b, "true", 4); break;
    case TOOLGOV__JSON_NUMBER: toolgov__jbuf_put(b, n->u.str, n->len); break;
    case TOOLGOV__JSON_STRING: toolgov__json_put_str(b, n->u.str, n->len); break;
    case TOOLGOV__JSON_ARRAY:
        toolgov__jbuf_putc(b, '[');
        for (k = i + 1; k < n->end; k = doc->nodes[k].end) {
            if (k != i + 1)
                toolgov__jbuf_putc(b, ',');
            toolgov__json_put_value(b, doc, k);
        }
        toolgov__jbuf_putc(b, ']');
        break;
    case TOOLGOV__JSON_OBJECT:
        toolgov__jbuf_putc(b, '{');
        for (k = 0; k < n->len; k++) {
            uint32_t key = n->u.sorted[k];

            if (k)
                toolgov__jbuf_putc(b, ',');
            toolgov__json_put_str(b, doc->nodes[key].u.str, doc->nodes[key].len);
            toolgov__jbuf_putc(b, ':');
            toolgov__json_put_value(b, doc, key + 1);
        }
        toolgov__jbuf_putc(b, '}');
        break;
    default:
        break;
    }
}
