/* SPDX-License-Identifier: MIT */
/*
** toolgov.h: the core public interface of the toolgov runtime.
**
** A plugin declares each of its tools in a YAML manifest; toolgov-gen turns
** the manifest into a const table of toolgov_tool_spec rows and a register
** function. Mounting the plugin into a registry runs that register function
** against a toolgov_plugin_api bound to the plugin's own table, so every tool
** in the pool carries exactly the effect its manifest declares, and a tool the
** manifest does not declare never enters the pool.
**
** This header holds the types shared by generated code and the runtime: the
** ABI version, error codes, effect and confirm enums, the tool spec, the
** handler type, the plugin descriptor, the registration calls a plugin makes,
** the allocator hook and the registry. The per-run policy (gate, prompt,
** shortlist, drift panel) lives in the other headers of this directory.
**
** Ownership: every pointer a function here returns is borrowed from the
** object it came from and stays valid until that object is freed, unless the
** comment of the function says otherwise. Strings passed in are copied when
** the runtime keeps them, except the const tables of a plugin descriptor,
** which must outlive every registry the plugin is mounted into (generated
** tables are static, so they do).
**
** Threads: a registry is read-only once mounting is done and may then be
** shared between threads; mounting itself is not thread-safe.
**
** Renderers. Every function that writes text into a caller's buffer
** (toolgov_prompt_render, toolgov_tools_render, toolgov_drift_render_text
** and _json, toolgov_run_save, toolgov_audit_event_render) takes
** (char *out, size_t size, size_t *needed) and follows one convention, the
** one of snprintf:
**   - *needed (when `needed` is not NULL) gets the length of the whole text,
**     without the NUL, whatever `size` is;
**   - size 0 is a sizing call: nothing is written (out may be NULL) and the
**     call returns 0, so "ask for the size, allocate needed + 1, render" is
**     two calls that both return 0;
**   - size > 0: at most size - 1 bytes of the text and a NUL go to `out`;
**     the call returns 0 when the whole text fit and TOOLGOV_ENOSPC when it
**     was cut short (out then holds a NUL-terminated prefix of the text);
**   - out NULL with size > 0 is TOOLGOV_EINVAL.
** A renderer's other failures (TOOLGOV_EINVAL, TOOLGOV_ENOENT, ...) leave ""
** in `out` when size > 0, never a partial text, and are the same for a
** sizing call.
*/
#ifndef TOOLGOV_TOOLGOV_H
#define TOOLGOV_TOOLGOV_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout of a type below, or what generated code
** expects of the runtime, changes. Generated headers refuse to compile
** against another value, so a stale generated file is a build error that
** says "regenerate", never a silent mismatch. */
#define TOOLGOV_ABI_VERSION 2

#define TOOLGOV_VERSION_MAJOR 0
#define TOOLGOV_VERSION_MINOR 1
#define TOOLGOV_VERSION_PATCH 0
#define TOOLGOV_VERSION_STRING "0.1.0"

/* The version of the runtime library the program runs against, as
** "MAJOR.MINOR.PATCH" (TOOLGOV_VERSION_STRING is the version of the header
** it was compiled against; with a shared libtoolgov the two may differ).
** Static storage: the caller never frees it. Never fails. */
TOOLGOV_EXTERN const char *toolgov_version(void);

/* Error codes: 0 is success, every failure is one of these negative values.
** X(NAME, value, message) yields TOOLGOV_E<NAME> and toolgov_strerror(). */
#define TOOLGOV_ERRNO_MAP(X)                                                   \
    X(EINVAL, -1, "invalid argument")                                          \
    X(ENOMEM, -2, "out of memory")                                             \
    X(ENOENT, -3, "no such tool in the pool (is its plugin mounted?)")                                              \
    X(EEXIST, -4, "a tool of that name is already in the pool")                \
    X(EUNDECLARED, -5, "tool is not declared in the plugin's manifest")        \
    X(EABI, -6, "plugin was generated for another toolgov ABI version")        \
    X(ENOSPC, -7, "buffer too small")                                          \
    X(EREFUSED, -8, "refused by the effect policy")                            \
    X(ECONFIRM, -9, "waiting for the user's one confirmation of this run")     \
    X(EAPPROVAL, -10, "waiting for the user's approval of this call")          \
    X(ESTATE, -11, "run state text is malformed or belongs to another run")    \
    X(EUSAGE, -12, "malformed tool arguments")                                 \
    X(EHANDLER, -13, "the tool's handler failed")                              \
    X(EENDED, -14, "the run has already ended")                                \
    X(ENOHANDLER, -15, "tool has no handler bound")                            \
    X(EFAIL, -16, "unspecified failure")                                       \
    X(EARGS, -17, "the call's arguments do not match the tool's parameters") \
    X(ENEVER, -18, "refused: the user's standing grant says never to this call")

typedef enum toolgov_errno {
#define TOOLGOV_ERRNO_ENUM_(name, value, msg) TOOLGOV_##name = (value),
    TOOLGOV_ERRNO_MAP(TOOLGOV_ERRNO_ENUM_)
#undef TOOLGOV_ERRNO_ENUM_
    TOOLGOV_OK = 0
} toolgov_errno;

/* Text as a person should be shown it: `len` bytes of `s` (a call's tool
** and arguments, a handler's output) with every character a reader cannot
** see or that changes what they see escaped: C0 controls, DEL and bytes
** that are not UTF-8 as \xNN; C1 controls, the line and paragraph
** separators (U+2028, U+2029) and every format character (Unicode's Cf:
** the bidi controls U+202A..U+202E and U+2066..U+2069, the zero widths
** U+200B..U+200D and U+2060, U+FEFF, the tags, ...) as \uXXXX or
** \UXXXXXXXX; a backslash as \\. What the user reads in a question is
** then what runs. Every place toolgov shows a call to a person (toolgov-mcp's
** questions, the demo, the loop's questions) uses it. Renderer convention
** (above). TOOLGOV_EINVAL. */
TOOLGOV_EXTERN int toolgov_text_shown(char *out, size_t size, size_t *needed, const char *s,
                                      size_t len);

/* Flags of toolgov_text_shown_write(). */
#define TOOLGOV_SHOWN_LINES 1u /* a line break stays one: each line shown */

/* toolgov_text_shown() straight to a stream: `len` bytes of `s` written to
** `f` as a person should be shown them, the same bytes toolgov_text_shown
** gives; with TOOLGOV_SHOWN_LINES each "\n" is written as a line break and
** the text of each line between them shown (a model's answer, a tool's
** output, shown line by line), else a line break is shown as \x0a too (a
** name, an argument text, on one line). Through a buffer on the stack, cut
** only where a character starts: no allocation, any length. 0, or
** TOOLGOV_EINVAL (f NULL, s NULL with len > 0); a write error is the
** stream's (ferror). */
TOOLGOV_EXTERN int toolgov_text_shown_write(FILE *f, const char *s, size_t len, unsigned flags);

/* Message for an error code; "unknown error" for a value not in the map.
** The string is static; never NULL. */
TOOLGOV_EXTERN const char *toolgov_strerror(int err);

/* What a tool does to the user's things. */
typedef enum toolgov_effect {
    TOOLGOV_EFFECT_READ = 0,       /* only reads */
    TOOLGOV_EFFECT_WRITE = 1,      /* creates or changes something */
    TOOLGOV_EFFECT_DESTRUCTIVE = 2 /* destroys something: approved per call */
} toolgov_effect;

/* When a write asks first. Meaningful for TOOLGOV_EFFECT_WRITE only; the
** generator writes TOOLGOV_CONFIRM_NEVER for read and destructive tools (a
** destructive tool is gated by per-call approval, not by confirmation). */
typedef enum toolgov_confirm {
    TOOLGOV_CONFIRM_ONCE = 0,  /* ask once per run before the first write */
    TOOLGOV_CONFIRM_NEVER = 1  /* the user's own sentence authorises it */
} toolgov_confirm;

struct toolgov_arg_schema; /* args.h */
struct toolgov_run;        /* run.h */

/* One declared tool: a row of a plugin's generated const table, or one of the
** core's built-ins. All strings are NUL-terminated UTF-8 and never NULL in a
** generated row (guidance is "" when the manifest has none). A row built by
** hand: start from TOOLGOV_TOOL_SPEC_INIT (below); a NULL guidance reads as
** "", a size of 0 as this header's size (every member read, parameters
** included), and mount re-checks the rest (effect, confirm, names, the
** argument tables and the schema text against them), refusing a bad row
** with a drift row rather than guessing. */
typedef struct toolgov_tool_spec {
    size_t size;              /* sizeof(toolgov_tool_spec) where the row was
                              ** compiled: members added after ABI 2 are read
                              ** only when size says the row has them */
    const char *name;
    const char *description;
    toolgov_effect effect;
    toolgov_confirm confirm;
    const char *guidance;
    int pinned;            /* 0 or 1: the shortlist never drops it */
    int answers_directly;  /* 0 or 1: its output is the user's answer */
    unsigned manifest_line;   /* line of the tool's key in the manifest; 0 for built-ins */
    unsigned manifest_column; /* column of the tool's key; 0 for built-ins */
    /* The tool's arguments: the root OBJECT node of its descriptor tables
    ** (args.h), or NULL when it takes none (its handler then gets a
    ** toolgov_no_args). Static data of the plugin. */
    const struct toolgov_arg_schema *params;
    /* The parameters as a canonical JSON Schema text, for exports; the
    ** no-arguments schema
    ** {"type":"object","properties":{},"additionalProperties":false} when
    ** params is NULL. Never NULL in generated rows (a row built by hand
    ** that leaves it NULL is rendered with the no-arguments schema). */
    const char *schema_json;
} toolgov_tool_spec;

/* An initializer for a hand-built spec row with the seed's defaults: read,
** confirm once (meaningful only if the effect is changed to write), no
** guidance, not pinned, not answering directly, no parameters (the
** no-arguments schema text). Change members after it, e.g.
**   toolgov_tool_spec s = TOOLGOV_TOOL_SPEC_INIT("lookup", "Find a note.");
**   s.effect = TOOLGOV_EFFECT_WRITE;
** Works in C and C++ (positional, in member order). */
#define TOOLGOV_TOOL_SPEC_INIT(name, description)                                          \
    { sizeof(toolgov_tool_spec), (name), (description), TOOLGOV_EFFECT_READ,               \
      TOOLGOV_CONFIRM_ONCE, "", 0, 0, 0u, 0u, NULL,                                        \
      "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}" }

/* One invocation of a tool, as its handler sees it. Every pointer is
** borrowed for the duration of the call. */
typedef struct toolgov_call {
    const char *tool;     /* the tool's name */
    const char *args;     /* the call's canonical arguments as JSON text
                          ** (SPEC §9), NUL-terminated; "{}" when none */
    size_t args_len;      /* strlen(args) */
    void *plugin_ctx;     /* the pointer given when the plugin was mounted */
    void *run_ctx;        /* the pointer given when the run was created, or NULL */
    /* The run the call is made in. A plugin's own loop makes its child run
    ** from it (toolgov_run_child_new, run.h), so its own tools pass the
    ** same gate. Only the runtime fills a toolgov_call, and members are only
    ** ever added here at the end, so handlers built before this member
    ** existed are unaffected. */
    struct toolgov_run *run;
} toolgov_call;

/* A growable text buffer the handler fills with its output. Opaque; owned by
** the runtime, which passes it to the handler empty. */
typedef struct toolgov_result toolgov_result;

struct toolgov_allocator;

/* A result buffer of the caller's own, for calling a handler outside a run
** (a unit test of one handler: toolgov_test_invoke in testing.h, or the
** handler called directly). `alloc` NULL means the C library's allocator;
** the hook is copied. *out is owned by the caller (toolgov_result_free).
** TOOLGOV_EINVAL or TOOLGOV_ENOMEM, *out untouched. */
TOOLGOV_EXTERN int toolgov_result_new(toolgov_result **out, const struct toolgov_allocator *alloc);
/* Free a buffer made by toolgov_result_new. NULL is a no-op; never pass
** the buffer a run handed to a handler. */
TOOLGOV_EXTERN void toolgov_result_free(toolgov_result *r);

/* Replace the output with len bytes of text (which need not be
** NUL-terminated). 0, or TOOLGOV_ENOMEM leaving the previous output. */
TOOLGOV_EXTERN int toolgov_result_set(toolgov_result *out, const char *text, size_t len);
/* Append len bytes. 0, or TOOLGOV_ENOMEM leaving the previous output. */
TOOLGOV_EXTERN int toolgov_result_append(toolgov_result *out, const char *text, size_t len);
/* Append printf-formatted text. 0, TOOLGOV_ENOMEM or TOOLGOV_EINVAL (a bad
** format); on failure the previous output is kept. */
TOOLGOV_EXTERN int toolgov_result_printf(toolgov_result *out, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
TOOLGOV_EXTERN int toolgov_result_vprintf(toolgov_result *out, const char *fmt, va_list ap);
/* The output so far, NUL-terminated; borrowed until the next change. */
TOOLGOV_EXTERN const char *toolgov_result_text(const toolgov_result *out);
TOOLGOV_EXTERN size_t toolgov_result_len(const toolgov_result *out);

/* A tool's handler. `args` is the call's decoded arguments: the tool's
** generated argument struct (args.h), or a toolgov_no_args when it takes
** none; borrowed for the call. Generated code registers a small wrapper per
** tool that converts `args` to the typed struct pointer, so no function
** pointer is ever cast. Returns 0 when `out` holds a usable result, or a
** negative TOOLGOV_E* code when it does not (TOOLGOV_EUSAGE for arguments
** the handler itself rejects, with a usage message in `out`;
** TOOLGOV_EHANDLER or another code for other failures, with a message in
** `out`). */
typedef int (*toolgov_handler_fn)(const toolgov_call *call, const void *args,
                                  toolgov_result *out);

/* The registration interface a plugin's register function receives. Opaque;
** bound by the registry to one plugin's manifest table for the duration of
** one mount. */
typedef struct toolgov_plugin_api toolgov_plugin_api;

/* A plugin as toolgov-gen describes it. Generated code defines one as a
** const object named <plugin>_toolgov_plugin; a host may also build one by
** hand around a generated table (its tables must outlive the registry). */
typedef struct toolgov_plugin {
    unsigned abi_version;                  /* TOOLGOV_ABI_VERSION when generated */
    const char *name;                      /* the manifest's name */
    const char *manifest_file;             /* the manifest's file name, no directory */
    const char *const *provides;           /* the manifest's provides list */
    size_t provides_count;
    const toolgov_tool_spec *tools;        /* the manifest's tools, in manifest order */
    size_t tool_count;
    int (*register_fn)(toolgov_plugin_api *api); /* registers the plugin's tools */
} toolgov_plugin;

/* Register a tool of the plugin being mounted. The name is looked up in the
** plugin's own manifest table: a declared tool enters the pool with the
** declared spec (the description given here is ignored in favour of the
** manifest's, which is the one the build checked); an undeclared one is
** refused with TOOLGOV_EUNDECLARED and a drift row ("tool X is registered by
** plugin P but not declared in its manifest"); a name already in the pool is
** refused with TOOLGOV_EEXIST and a drift row naming the owner. `name` and
** `description` are borrowed for the call only. */
TOOLGOV_EXTERN int toolgov_register_tool(toolgov_plugin_api *api, const char *name,
                                         const char *description, toolgov_handler_fn handler);

/* Give a plugin's own loop the manifest-checked spec of one of its tools
** without adding it to the pool. *out is borrowed from the plugin's table.
** The registry remembers the declaration, so the plugin's own loop can run
** the tool through a child of the current run (toolgov_run_child_new,
** toolgov_run_invoke_declared in run.h) under the same gate as the pool.
** Declaring a name twice gives the same spec, and a tool the plugin also
** registered (in both loops) is that one tool. Names are one namespace with
** the pool's, since approvals and the audit trail name tools: a name in
** the pool or declared by another plugin is refused with TOOLGOV_EEXIST
** and a drift row naming the owner, as registration refuses a name another
** plugin declared. TOOLGOV_EUNDECLARED (and a drift row) when the manifest
** lacks it; TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_declare_tool(toolgov_plugin_api *api, const char *name,
                                        const toolgov_tool_spec **out);

/* The one allocator hook (Lua's lua_Alloc): with nsize 0 it frees ptr and
** returns NULL; otherwise it behaves like realloc(ptr, nsize) (ptr NULL:
** malloc). osize is the old size of ptr (0 when ptr is NULL). A failing
** allocation returns NULL and leaves ptr untouched. */
typedef void *(*toolgov_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct toolgov_allocator {
    toolgov_alloc_fn fn;
    void *ud;
} toolgov_allocator;

/* The tool pool. Opaque. */
typedef struct toolgov_registry toolgov_registry;

/* Create a registry holding the core's built-in tools. `alloc` NULL means the
** C library's allocator; the hook is copied and used for every allocation the
** registry and the runs made from it perform. On success *out is owned by the
** caller (free with toolgov_registry_free). TOOLGOV_ENOMEM on failure, *out
** untouched. */
TOOLGOV_EXTERN int toolgov_registry_new(toolgov_registry **out, const toolgov_allocator *alloc);

/* Free a registry and everything it owns. NULL is a no-op. Runs made from it
** must be freed first. */
TOOLGOV_EXTERN void toolgov_registry_free(toolgov_registry *reg);

/* Mount a plugin: run its register function against an API bound to its
** manifest table. `plugin` must outlive the registry. Refused registrations
** do not fail the mount (they leave drift rows); the mount fails only with
** TOOLGOV_EABI (wrong ABI version, nothing registered), TOOLGOV_EEXIST (a
** plugin of that name is already mounted, even one whose every tool was
** refused: one drift row, nothing registered), TOOLGOV_EINVAL (a malformed descriptor; or a tool spec the
** runtime will not trust, re-validated here whoever built the table: effect
** or confirm out of range, answers_directly where the gate can ask, a name
** that breaks the name rules, a NULL string; nothing registered, one
** mount_failed row naming the tool), or
** TOOLGOV_ENOMEM (the registry is then left as it was before the call). The
** register function's own negative return is passed through, also after
** rolling the registry back. */
TOOLGOV_EXTERN int toolgov_registry_mount(toolgov_registry *reg, const toolgov_plugin *plugin,
                                          void *plugin_ctx);

/* Bind a handler to one of the core's built-in tools (memory_search,
** ask_user, ...), which are declared by the runtime but implemented by the
** host. A built-in is offered to the model only once it is bound (see
** toolgov_registry_offers); binding NULL withdraws it again. TOOLGOV_ENOENT
** when `name` is not a built-in. */
TOOLGOV_EXTERN int toolgov_registry_bind_builtin(toolgov_registry *reg, const char *name,
                                                 toolgov_handler_fn handler, void *ctx);

/* 1 when `name` is a pooled tool that is offered to the model, 0 otherwise.
** A tool is offered when a handler is bound to it: every tool a plugin
** registers with its generated handler, and a core built-in once the host
** has bound it (toolgov_registry_bind_builtin). A tool that is not offered
** keeps its name in the pool but is left out of every list a model sees:
** the shortlist (also its always-kept memory_search and ask_user),
** toolgov_prompt_render, toolgov_tools_render and toolgov-mcp's tools/list;
** calling it anyway ends in TOOLGOV_ENOHANDLER. Allocates nothing. */
TOOLGOV_EXTERN int toolgov_registry_offers(const toolgov_registry *reg, const char *name);

/* Find a tool in the pool by name in O(1); NULL when absent. The spec is
** borrowed from the registry (or the plugin's table). Allocates nothing. */
TOOLGOV_EXTERN const toolgov_tool_spec *toolgov_registry_find(const toolgov_registry *reg,
                                                              const char *name);

/* The plugin a pooled tool came from (its manifest name), "core" for a
** built-in (the owner drift rows name too), or NULL for an unknown name.
** Borrowed. */
TOOLGOV_EXTERN const char *toolgov_registry_owner(const toolgov_registry *reg, const char *name);

/* What became of one tool a mounted plugin's manifest declares. */
typedef enum toolgov_tool_status {
    TOOLGOV_TOOL_POOLED = 0,           /* registered: in the pool */
    TOOLGOV_TOOL_OWN_LOOP = 1,         /* declared for the plugin's own loop
                                       ** (toolgov_declare_tool): not in the pool */
    TOOLGOV_TOOL_DUPLICATE = 2,        /* refused: the name was already in the pool */
    TOOLGOV_TOOL_NEVER_REGISTERED = 3  /* the plugin never registered or declared it */
} toolgov_tool_status;

/* One row of toolgov_registry_plugin_tool_at(). */
typedef struct toolgov_plugin_tool {
    const toolgov_tool_spec *spec; /* the manifest's row; borrowed from the plugin */
    toolgov_tool_status status;
    const char *owner;             /* DUPLICATE: who holds the name ("core" for a
                                   ** built-in), else NULL; borrowed */
} toolgov_plugin_tool;

/* Static lowercase name of a status ("pooled", "own_loop", "duplicate",
** "never_registered"); "unknown" outside the enum. */
TOOLGOV_EXTERN const char *toolgov_tool_status_name(toolgov_tool_status status);

/* Which of a mounted plugin's declared tools made it into the pool, and
** why the others did not: the number of tools its manifest declares (0 when
** no plugin of that name is mounted; a mount that failed as a whole leaves
** nothing to list), and the i-th in manifest order in *out. 0, or
** TOOLGOV_ENOENT (no such plugin mounted, or i out of range), or
** TOOLGOV_EINVAL. Allocates nothing. */
TOOLGOV_EXTERN size_t toolgov_registry_plugin_tool_count(const toolgov_registry *reg,
                                                         const char *plugin);
TOOLGOV_EXTERN int toolgov_registry_plugin_tool_at(toolgov_plugin_tool *out,
                                                   const toolgov_registry *reg,
                                                   const char *plugin, size_t i);

/* Number of tools in the pool, and the i-th in registration order (built-ins
** first), NULL when i is out of range. Borrowed. */
TOOLGOV_EXTERN size_t toolgov_registry_count(const toolgov_registry *reg);
TOOLGOV_EXTERN const toolgov_tool_spec *toolgov_registry_at(const toolgov_registry *reg, size_t i);

#ifdef __cplusplus
}
#endif

/* The argument descriptors and decoder every tool spec refers to. */
#include "args.h"

#endif /* TOOLGOV_TOOLGOV_H */
