/* SPDX-License-Identifier: MIT */
/*
** toolcalls.c: tools rendered for model APIs, and model tool calls read
** back (see toolcalls.h).
**
** Parsing keeps every string an entry points to in one growable buffer and
** records offsets while it works (the buffer may move as it grows); the
** entries' pointers are set once at the end. The answer is read with the
** runtime's strict JSON reader; each call's arguments go through the
** argument decoder, which yields the canonical text the gate compares.
*/
#include "toolgov/toolcalls.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "json.h"
#include "tooljson.h"

/* ---- rendering ------------------------------------------------------------ */

/* The tools named, as the list shows them: each with the mark of its
** effect and policy, a name given twice listed once. */
typedef struct named {
    const toolgov_policy *pol;
    const char *const *tools;
} named;

static int named_view(void *ud, size_t i, toolgov__tool_view *out)
{
    const named *nm = ud;
    const toolgov_registry *reg = nm->pol->reg;
    long idx = toolgov__registry_index(reg, nm->tools[i], strlen(nm->tools[i]));
    const toolgov_tool_spec *s = reg->tools[idx].spec;
    size_t j;

    if (!toolgov__offered(&reg->tools[idx])) /* never listed: nothing runs it */
        return 0;
    for (j = 0; j < i; j++)
        if (strcmp(nm->tools[j], nm->tools[i]) == 0)
            return 0;
    out->name = s->name;
    out->name_len = strlen(s->name);
    out->mark = toolgov__effect_mark(s->effect, toolgov__policy_confirm_once(nm->pol, (size_t)idx));
    out->description = s->description;
    out->description_len = strlen(s->description);
    out->schema = s->schema_json; /* a hand-built row may leave it NULL */
    out->effect = s->effect;
    return 1;
}

int toolgov_tools_render(char *out, size_t size, size_t *needed, const toolgov_policy *pol,
                         toolgov_tools_format fmt, const char *const *tools, size_t n)
{
    return toolgov_tools_render_with(out, size, needed, pol, fmt, tools, n, NULL);
}

int toolgov_tools_render_with(char *out, size_t size, size_t *needed, const toolgov_policy *pol,
                              toolgov_tools_format fmt, const char *const *tools, size_t n,
                              const toolgov_tools_options *opt)
{
    int strict = opt && opt->strict, openai = fmt == TOOLGOV_TOOLS_OPENAI ||
                                              fmt == TOOLGOV_TOOLS_OPENAI_RESPONSES;
    toolgov__jbuf chat, shaped;
    toolgov__out o;
    named nm;
    size_t i;
    int rc;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    if (!pol || (n && !tools) || (!out && size) ||
        (unsigned)fmt > TOOLGOV_TOOLS_OPENAI_RESPONSES || (strict && !openai))
        return TOOLGOV_EINVAL;
    for (i = 0; i < n; i++)
        if (!tools[i] || toolgov__registry_index(pol->reg, tools[i], strlen(tools[i])) < 0)
            return TOOLGOV_ENOENT;

    nm.pol = pol;
    nm.tools = tools;
    if (!strict && fmt != TOOLGOV_TOOLS_OPENAI_RESPONSES) {
        toolgov__out_init(&o, out, size);
        toolgov__tools_write(&o, fmt, n, named_view, &nm);
        return toolgov__out_finish(&o, needed);
    }
    /* OpenAI's other shapes: the chat list, rewritten (tooljson.h). */
    toolgov__jbuf_init(&chat, &pol->reg->alloc);
    toolgov__jbuf_init(&shaped, &pol->reg->alloc);
    toolgov__out_init(&o, NULL, 0);
    toolgov__tools_write(&o, TOOLGOV_TOOLS_OPENAI, n, named_view, &nm);
    rc = TOOLGOV_ENOMEM;
    if (toolgov__jbuf_room(&chat, o.len)) {
        chat.len = o.len;
        toolgov__out_init(&o, chat.ptr, chat.len + 1);
        toolgov__tools_write(&o, TOOLGOV_TOOLS_OPENAI, n, named_view, &nm);
        rc = toolgov__tools_openai(&shaped, chat.ptr, chat.len,
                                   (strict ? TOOLGOV__TOOLS_STRICT : 0u) |
                                       (fmt == TOOLGOV_TOOLS_OPENAI_RESPONSES ? TOOLGOV__TOOLS_FLAT
                                                                              : 0u),
                                   &pol->reg->alloc);
    }
    if (rc == 0) {
        toolgov__out_init(&o, out, size);
        toolgov__out_put(&o, shaped.ptr, shaped.len);
        rc = toolgov__out_finish(&o, needed);
    }
    toolgov__jbuf_free(&chat);
    toolgov__jbuf_free(&shaped);
    return rc;
}

/* ---- parsing --------------------------------------------------------------- */

/* An entry while parsing: offsets into mc->text. */
typedef struct pcall {
    size_t id, tool, error, args;
    size_t args_len;
    int status;
} pcall;

struct toolgov_model_calls {
    const toolgov_registry *reg;
    toolgov_allocator alloc;
    toolgov__scratch arena;       /* the parsed answer */
    toolgov__jbuf text;          /* every string of the entries, NUL-separated */
    toolgov__jbuf scratch;       /* an input object's text for the decoder */
    toolgov_args_decoder *dec;
    pcall *pc;
    toolgov_model_call *calls;
    size_t count, pc_cap, calls_cap;
    char error[256];
};

/* Append a string and its NUL; returns its offset. */
static size_t keep(toolgov_model_calls *mc, const char *s, size_t n)
{
    size_t at = mc->text.len;
    toolgov__jbuf_put(&mc->text, s, n);
    toolgov__jbuf_putc(&mc->text, '\0');
    return at;
}

static size_t keep_str(toolgov_model_calls *mc, const char *s)
{
    return keep(mc, s, strlen(s));
}

static int add_call(toolgov_model_calls *mc)
{
    void *pc = mc->pc, *calls = mc->calls;
    if (toolgov__reserve(&mc->alloc, &pc, &mc->pc_cap, mc->count + 1, sizeof(pcall)) != 0)
        return TOOLGOV_ENOMEM;
    mc->pc = pc;
    if (toolgov__reserve(&mc->alloc, &calls, &mc->calls_cap, mc->count + 1,
                         sizeof(toolgov_model_call)) != 0)
        return TOOLGOV_ENOMEM;
    mc->calls = calls;
    memset(&mc->pc[mc->count], 0, sizeof(pcall));
    mc->count++;
    return 0;
}

static const toolgov__json *nd(const toolgov__json_doc *d, long i)
{
    return i >= 0 ? &d->nodes[i] : NULL;
}

/* Refuse the current entry with `status` and a message. */
static void refuse(toolgov_model_calls *mc, int status, const char *fmt, const char *a,
                   const char *b)
{
    char msg[512];
    pcall *p = &mc->pc[mc->count - 1];
    snprintf(msg, sizeof msg, fmt, a, b);
    p->status = status;
    p->error = keep_str(mc, msg);
}

/* A name as the model wrote it, kept for the entry (a NUL inside is kept
** too; it can never match a tool). */
static size_t keep_node_str(toolgov_model_calls *mc, const toolgov__json_doc *d, long i)
{
    if (!toolgov__json_is(d, i, TOOLGOV__JSON_STRING))
        return keep(mc, "", 0);
    return keep(mc, nd(d, i)->u.str, nd(d, i)->len);
}

static int offered_has(const char *const *offered, size_t n, const char *name)
{
    size_t i;
    if (!offered)
        return 1;
    for (i = 0; i < n; i++)
        if (offered[i] && strcmp(offered[i], name) == 0)
            return 1;
    return 0;
}

/* Fill the current entry from a call: `name_i` the tool name node, `args`
** the argument text (len bytes) or NULL when the call's form was already
** refused. */
static int one_call(toolgov_model_calls *mc, const toolgov__json_doc *d, long id_i, long name_i,
                    const char *args, size_t args_len, const char *const *offered,
                    size_t n_offered)
{
    pcall *p = &mc->pc[mc->count - 1];
    const toolgov_tool_spec *spec = NULL;
    const char *name = toolgov__json_str_at(d, name_i, NULL);
    toolgov_decoded_args dec;
    int rc;

    p->id = keep_node_str(mc, d, id_i);
    p->tool = keep_node_str(mc, d, name_i);
    p->args = keep(mc, "", 0);
    if (p->status)
        return 0; /* refused for its form already, with its message */
    p->error = p->args;
    if (!name || !*name) {
        refuse(mc, TOOLGOV_EINVAL, "a tool call without a tool name%s%s; name the tool to call",
               "", "");
        return 0;
    }
    if (strlen(name) == nd(d, name_i)->len)
        spec = toolgov_registry_find(mc->reg, name);
    if (!spec || !offered_has(offered, n_offered, name)) {
        /* The name as the model wrote it, escaped as a call shown to a
        ** person is (a host may print this text): cut at 200 bytes. */
        char shown[201];

        (void)toolgov_text_shown(shown, sizeof shown, NULL, name, nd(d, name_i)->len);
        refuse(mc, TOOLGOV_ENOENT, "there is no tool '%s'%s; call one of the tools offered",
               shown, "");
        return 0;
    }
    if (!args) {
        refuse(mc, TOOLGOV_EINVAL, "%s: the call has no arguments%s", name, "");
        return 0;
    }
    rc = toolgov_args_decode(&dec, mc->dec, spec->params, name, args, args_len);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc == TOOLGOV_EARGS) {
        p->status = TOOLGOV_EARGS;
        p->error = keep(mc, dec.message, dec.message_len);
        return 0;
    }
    if (rc) {
        refuse(mc, TOOLGOV_EINVAL, "%s: the arguments cannot be decoded (%s)", name,
               toolgov_strerror(rc));
        return 0;
    }
    p->args = keep(mc, dec.canonical, dec.canonical_len);
    p->args_len = dec.canonical_len;
    return 0;
}

static int openai_call(toolgov_model_calls *mc, const toolgov__json_doc *d, long c,
                       const char *const *offered, size_t n_offered)
{
    long fn = toolgov__json_member(d, c, "function"),
         type = toolgov__json_member(d, c, "type");
    long name = toolgov__json_member(d, fn, "name"),
         args = toolgov__json_member(d, fn, "arguments");
    int rc = add_call(mc);
    if (rc)
        return rc;
    if (!toolgov__json_is(d, c, TOOLGOV__JSON_OBJECT))
        refuse(mc, TOOLGOV_EINVAL, "a tool call must be an object%s%s", "", "");
    else if (type >= 0 && !(toolgov__json_is(d, type, TOOLGOV__JSON_STRING) &&
                            toolgov__json_str_eq(nd(d, type), "function", 8)))
        refuse(mc, TOOLGOV_EINVAL, "a tool call of a type other than \"function\"%s%s", "", "");
    else if (!toolgov__json_is(d, fn, TOOLGOV__JSON_OBJECT))
        refuse(mc, TOOLGOV_EINVAL, "a tool call without its \"function\" object%s%s", "", "");
    else if (toolgov__json_is(d, name, TOOLGOV__JSON_STRING) &&
             !toolgov__json_is(d, args, TOOLGOV__JSON_STRING))
        refuse(mc, TOOLGOV_EINVAL,
               "%s: \"arguments\" must be a JSON string holding the arguments object%s",
               nd(d, name)->u.str, "");
    return one_call(mc, d, toolgov__json_member(d, c, "id"), name,
                    toolgov__json_str_at(d, args, NULL),
                    toolgov__json_is(d, args, TOOLGOV__JSON_STRING) ? nd(d, args)->len : 0,
                    offered, n_offered);
}

static int anthropic_call(toolgov_model_calls *mc, const toolgov__json_doc *d, long b,
                          const char *const *offered, size_t n_offered)
{
    long name = toolgov__json_member(d, b, "name"),
         input = toolgov__json_member(d, b, "input");
    int rc = add_call(mc);
    if (rc)
        return rc;
    if (!toolgov__json_is(d, input, TOOLGOV__JSON_OBJECT)) {
        refuse(mc, TOOLGOV_EINVAL,
               "%s: \"input\" must be an object holding the arguments%s",
               toolgov__json_is(d, name, TOOLGOV__JSON_STRING) ? nd(d, name)->u.str
                                                               : "a tool_use block",
               "");
        return one_call(mc, d, toolgov__json_member(d, b, "id"), name, NULL, 0, offered,
                        n_offered);
    }
    /* The input object as JSON text for the decoder: the canonical writer
    ** keeps every value (numbers as sent), so nothing is lost. */
    toolgov__jbuf_clear(&mc->scratch);
    toolgov__json_put_value(&mc->scratch, d, (size_t)input);
    if (toolgov__jbuf_finish(&mc->scratch))
        return TOOLGOV_ENOMEM;
    return one_call(mc, d, toolgov__json_member(d, b, "id"), name, mc->scratch.ptr,
                    mc->scratch.len, offered, n_offered);
}

/* Walk the array `arr` of calls (OpenAI) or content blocks (Anthropic). */
static int walk(toolgov_model_calls *mc, const toolgov__json_doc *d, long arr,
                toolgov_tools_format fmt, const char *const *offered, size_t n_offered)
{
    size_t i = (size_t)arr + 1, k;
    int rc = 0;
    for (k = 0; k < d->nodes[arr].len && rc == 0; k++) {
        if (fmt == TOOLGOV_TOOLS_OPENAI) {
            rc = openai_call(mc, d, (long)i, offered, n_offered);
        } else {
            long type = toolgov__json_member(d, (long)i, "type");
            if (toolgov__json_is(d, type, TOOLGOV__JSON_STRING) &&
                toolgov__json_str_eq(nd(d, type), "tool_use", 8))
                rc = anthropic_call(mc, d, (long)i, offered, n_offered);
        }
        i = d->nodes[i].end;
    }
    return rc;
}

/* An object given as an OpenAI answer without "choices" must be an
** assistant message: an error body, a Responses API body or an object of
** neither kind (`{}`) is refused with what it is, never read as "no
** calls". */
static int openai_not_message(toolgov_model_calls *mc, const toolgov__json_doc *d)
{
    long err = toolgov__json_member(d, 0, "error");
    if (err >= 0 && !toolgov__json_is(d, err, TOOLGOV__JSON_NULL)) {
        long m = toolgov__json_is(d, err, TOOLGOV__JSON_STRING)
                     ? err
                     : toolgov__json_member(d, err, "message");
        snprintf(mc->error, sizeof mc->error, "the answer is an OpenAI API error: %.200s",
                 toolgov__json_is(d, m, TOOLGOV__JSON_STRING) ? nd(d, m)->u.str
                                                              : "(no message)");
        return TOOLGOV_EINVAL;
    }
    if (toolgov__json_is(d, toolgov__json_member(d, 0, "output"), TOOLGOV__JSON_ARRAY) ||
        (toolgov__json_is(d, toolgov__json_member(d, 0, "object"), TOOLGOV__JSON_STRING) &&
         toolgov__json_str_eq(nd(d, toolgov__json_member(d, 0, "object")), "response",
                              8))) {
        snprintf(mc->error, sizeof mc->error,
                 "the answer is an OpenAI Responses API body, not a chat completion or message");
        return TOOLGOV_EINVAL;
    }
    if (toolgov__json_member(d, 0, "tool_calls") < 0 &&
        toolgov__json_member(d, 0, "role") < 0 &&
        toolgov__json_member(d, 0, "content") < 0) {
        snprintf(mc->error, sizeof mc->error,
                 "the answer is not an OpenAI chat completion, message or tool_calls array "
                 "(no \"choices\", \"role\", \"content\" or \"tool_calls\")");
        return TOOLGOV_EINVAL;
    }
    return 0;
}

static void reset(toolgov_model_calls *mc)
{
    mc->count = 0;
    mc->error[0] = '\0';
    toolgov__jbuf_clear(&mc->text);
    toolgov__scratch_reset(&mc->arena);
}

int toolgov_model_calls_parse(toolgov_model_calls *mc, toolgov_tools_format fmt, const char *text,
                              size_t len, const char *const *offered, size_t n_offered)
{
    toolgov__json_doc d;
    toolgov__json_error jerr;
    long root, arr = -1;
    size_t i;
    int rc;

    if (!mc)
        return TOOLGOV_EINVAL;
    reset(mc);
    if ((!text && len) || (fmt != TOOLGOV_TOOLS_OPENAI && fmt != TOOLGOV_TOOLS_ANTHROPIC) ||
        (n_offered && !offered)) {
        snprintf(mc->error, sizeof mc->error, "invalid argument");
        return TOOLGOV_EINVAL;
    }
    rc = toolgov__json_parse(&d, &jerr, &mc->arena, text ? text : "", len,
                             TOOLGOV__JSON_MAX_DEPTH, TOOLGOV__JSON_MAX_LEN, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc) {
        snprintf(mc->error, sizeof mc->error, "the model's answer is not JSON: %s at byte %zu",
                 jerr.msg, jerr.pos);
        return TOOLGOV_EINVAL;
    }
    root = 0;
    if (fmt == TOOLGOV_TOOLS_OPENAI) {
        long choices = toolgov__json_member(&d, root, "choices");
        long msg = root;
        if (toolgov__json_is(&d, choices, TOOLGOV__JSON_ARRAY)) {
            msg = d.nodes[choices].len ? toolgov__json_member(&d, choices + 1, "message")
                                       : -1;
            if (msg < 0) {
                snprintf(mc->error, sizeof mc->error,
                         "the model's answer has no message in choices[0]");
                return TOOLGOV_EINVAL;
            }
        }
        if (msg == root && toolgov__json_is(&d, root, TOOLGOV__JSON_OBJECT) &&
            (rc = openai_not_message(mc, &d)) != 0)
            return rc;
        if (toolgov__json_is(&d, msg, TOOLGOV__JSON_ARRAY))
            arr = msg;
        else if (toolgov__json_is(&d, msg, TOOLGOV__JSON_OBJECT)) {
            arr = toolgov__json_member(&d, msg, "tool_calls");
            if (arr < 0 || toolgov__json_is(&d, arr, TOOLGOV__JSON_NULL))
                return 0; /* a message without tool calls: the answer is text */
        }
    } else {
        arr = toolgov__json_is(&d, root, TOOLGOV__JSON_ARRAY)
                  ? root
                  : toolgov__json_member(&d, root, "content");
    }
    if (!toolgov__json_is(&d, arr, TOOLGOV__JSON_ARRAY)) {
        snprintf(mc->error, sizeof mc->error, "the model's answer is not %s",
                 fmt == TOOLGOV_TOOLS_OPENAI
                     ? "an OpenAI chat completion, message or tool_calls array"
                     : "an Anthropic message or content array");
        return TOOLGOV_EINVAL;
    }
    rc = walk(mc, &d, arr, fmt, offered, n_offered);
    if (rc == 0 && toolgov__jbuf_finish(&mc->text))
        rc = TOOLGOV_ENOMEM;
    if (rc) {
        reset(mc);
        snprintf(mc->error, sizeof mc->error, "%s", toolgov_strerror(rc));
        return rc;
    }
    for (i = 0; i < mc->count; i++) {
        const pcall *p = &mc->pc[i];
        toolgov_model_call *c = &mc->calls[i];
        const char *base = mc->text.ptr;
        c->id = base + p->id;
        c->tool = base + p->tool;
        c->status = p->status;
        c->error = base + p->error;
        c->call.tool = p->status ? base + p->args : c->tool;
        c->call.args = base + p->args;
        c->args_len = p->args_len;
    }
    return 0;
}

int toolgov_model_calls_new(toolgov_model_calls **out, const toolgov_registry *reg)
{
    toolgov_model_calls *mc;
    if (!out || !reg)
        return TOOLGOV_EINVAL;
    mc = toolgov__alloc(&reg->alloc, sizeof *mc);
    if (!mc)
        return TOOLGOV_ENOMEM;
    memset(mc, 0, sizeof *mc);
    mc->reg = reg;
    mc->alloc = reg->alloc;
    toolgov__scratch_init(&mc->arena, &mc->alloc);
    toolgov__jbuf_init(&mc->text, &mc->alloc);
    toolgov__jbuf_init(&mc->scratch, &mc->alloc);
    if (toolgov_args_decoder_new(&mc->dec, &mc->alloc) != 0) {
        toolgov__free(&mc->alloc, mc, sizeof *mc);
        return TOOLGOV_ENOMEM;
    }
    *out = mc;
    return 0;
}

void toolgov_model_calls_free(toolgov_model_calls *mc)
{
    toolgov_allocator a;
    if (!mc)
        return;
    a = mc->alloc;
    toolgov_args_decoder_free(mc->dec);
    toolgov__scratch_free(&mc->arena);
    toolgov__jbuf_free(&mc->text);
    toolgov__jbuf_free(&mc->scratch);
    toolgov__free(&a, mc->pc, mc->pc_cap * sizeof(pcall));
    toolgov__free(&a, mc->calls, mc->calls_cap * sizeof(toolgov_model_call));
    toolgov__free(&a, mc, sizeof *mc);
}

size_t toolgov_model_calls_count(const toolgov_model_calls *mc)
{
    return mc ? mc->count : 0;
}

const toolgov_model_call *toolgov_model_calls_at(const toolgov_model_calls *mc, size_t i)
{
    return mc && i < mc->count ? &mc->calls[i] : NULL;
}

const char *toolgov_model_calls_error(const toolgov_model_calls *mc)
{
    return mc ? mc->error : "invalid argument";
}
