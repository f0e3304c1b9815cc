/* SPDX-License-Identifier: MIT */
/*
** module.h: the entry points of a plugin built as a MODULE library, loaded
** at run time by a host (toolgov-mcp --plugin).
**
** toolgov_add_plugin(NAME ... MODULE) makes the module and exports its one
** required entry, toolgov_module_plugin(), which returns the generated
** descriptor. A plugin that keeps its state behind the plugin context
** (toolgov_call.plugin_ctx) also defines the two optional entries below in
** one of its sources, and the loader then:
**
**   1. calls TOOLGOV_MODULE_INIT with the configuration text the operator
**      gave for this plugin (toolgov-mcp --plugin-config TEXT or
**      --plugin-config-file FILE; NULL and 0 when none was given). It sets
**      *ctx to the plugin's context and returns 0; or it writes why it
**      cannot start into msg (msg_size bytes, NUL-terminated; it may leave
**      it empty) and returns non-zero, and the loader reports that message
**      and stops without mounting the plugin: a plugin that fails to start
**      is a message to the operator, never a handler running on a missing
**      context;
**   2. mounts the plugin with that context;
**   3. after the registry is freed (no handler can run any more), calls
**      TOOLGOV_MODULE_FINI with the same context (NULL for a module without
**      TOOLGOV_MODULE_INIT), and only then unloads the library. A plugin
**      whose mount failed gets its FINI at once; one whose INIT failed gets
**      none.
**
** A configuration given for a module that defines no TOOLGOV_MODULE_INIT is
** the operator's mistake, and the loader refuses it.
**
**   #include <toolgov/module.h>
**   #include "notes.toolgov.h"
**
**   TOOLGOV_MODULE_INIT(ctx, config, config_len, msg, msg_size)
**   {
**       notes_state *s = notes_state_new(config, config_len);
**       if (!s) {
**           snprintf(msg, msg_size, "cannot read the configuration");
**           return -1;
**       }
**       *ctx = s;
**       return 0;
**   }
**
**   TOOLGOV_MODULE_FINI(ctx)
**   {
**       notes_state_free(ctx);
**   }
**
** The macros declare and define the functions with default visibility and C
** linkage (so they also work in a C++ source); the loader finds them with
** dlsym under the names below. Nothing here is part of libtoolgov: the
** plugin defines these functions, the host calls them.
**
** Ownership: the configuration text is borrowed for the call to INIT (copy
** what the plugin keeps); the context is the plugin's, from INIT to FINI.
*/
#ifndef TOOLGOV_MODULE_H
#define TOOLGOV_MODULE_H

#include <stddef.h>

#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The names a loader looks up with dlsym. */
#define TOOLGOV_MODULE_ENTRY_SYMBOL "toolgov_module_plugin"
#define TOOLGOV_MODULE_INIT_SYMBOL "toolgov_module_init"
#define TOOLGOV_MODULE_FINI_SYMBOL "toolgov_module_fini"

/* Their types. */
typedef const toolgov_plugin *toolgov_module_entry_fn(void);
typedef int toolgov_module_init_fn(void **ctx, const char *config, size_t config_len, char *msg,
                                   size_t msg_size);
typedef void toolgov_module_fini_fn(void *ctx);

/* Default visibility and C linkage for a module's entry points. */
#ifdef __cplusplus
#define TOOLGOV_MODULE_LINKAGE_ extern "C"
#else
#define TOOLGOV_MODULE_LINKAGE_
#endif
#if defined(_WIN32) || defined(__CYGWIN__)
#define TOOLGOV_MODULE_EXPORT TOOLGOV_MODULE_LINKAGE_ __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define TOOLGOV_MODULE_EXPORT TOOLGOV_MODULE_LINKAGE_ __attribute__((visibility("default")))
#else
#define TOOLGOV_MODULE_EXPORT TOOLGOV_MODULE_LINKAGE_
#endif

/* The head of the module's start function; the parameters are named by the
** arguments: void **ctx, const char *config, size_t config_len, char *msg,
** size_t msg_size. `config` is NUL-terminated after config_len bytes. */
#define TOOLGOV_MODULE_INIT(ctx, config, config_len, msg, msg_size)                          \
    TOOLGOV_MODULE_EXPORT int toolgov_module_init(void **ctx, const char *config,               \
                                                  size_t config_len, char *msg, size_t msg_size); \
    TOOLGOV_MODULE_EXPORT int toolgov_module_init(void **ctx, const char *config,               \
                                                  size_t config_len, char *msg, size_t msg_size)

/* The head of the module's stop function: void *ctx, named by the argument. */
#define TOOLGOV_MODULE_FINI(ctx)                                 \
    TOOLGOV_MODULE_EXPORT void toolgov_module_fini(void *ctx); \
    TOOLGOV_MODULE_EXPORT void toolgov_module_fini(void *ctx)

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_MODULE_H */
