/* SPDX-License-Identifier: MIT */
/*
** testing.c: one handler called from a unit test (testing.h).
**
** The plugin is mounted into a registry made for the call, so the test
** calls the handler its own register function binds, with the spec the
** mount re-validated; the arguments go through the decoder every call goes
** through. Nothing of the gate: there is no run.
*/
#include <string.h>

#include <toolgov/testing.h>

#include "internal.h"

int toolgov_test_invoke(toolgov_result *out, const toolgov_plugin *plugin, const char *tool,
                        const char *args, size_t len, void *plugin_ctx)
{
    toolgov_registry *reg = NULL;
    toolgov_args_decoder *dec = NULL;
    toolgov_decoded_args d;
    const toolgov__tool *t;
    toolgov_call call;
    long k;
    int rc;

    if (!out || !plugin || !tool)
        return TOOLGOV_EINVAL;
    toolgov__result_clear(out);
    if (args && len == (size_t)-1)
        len = strlen(args);
    if (!args)
        len = 0;
    if ((rc = toolgov_registry_new(&reg, out->b.alloc)) < 0)
        goto out;
    if ((rc = toolgov_registry_mount(reg, plugin, plugin_ctx)) < 0)
        goto out;
    k = toolgov__registry_index(reg, tool, strlen(tool));
    t = k >= 0 ? &reg->tools[k] : NULL;
    if (!t || t->plugin != plugin || !t->handler) {
        rc = TOOLGOV_ENOENT;
        (void)toolgov_result_printf(out, "plugin '%s' registers no handler for a tool named '%s'",
                                    plugin->name ? plugin->name : "?", tool);
        goto out;
    }
    if ((rc = toolgov_args_decoder_new(&dec, out->b.alloc)) < 0)
        goto out;
    rc = toolgov_args_decode(&d, dec, toolgov__spec_params(t->spec), t->name, args, len);
    if (rc == TOOLGOV_EARGS) {
        /* The message the model would get for these arguments. */
        if (toolgov_result_set(out, d.message, d.message_len) < 0)
            rc = TOOLGOV_ENOMEM;
        goto out;
    }
    if (rc < 0)
        goto out;
    memset(&call, 0, sizeof call);
    call.tool = t->name;
    call.args = d.canonical;
    call.args_len = d.canonical_len;
    call.plugin_ctx = t->ctx;
    rc = t->handler(&call, d.args, out);
    if (rc > 0)
        rc = TOOLGOV_EHANDLER; /* a handler returns 0 or a negative code, as in a run */
out:
    toolgov_args_decoder_free(dec);
    toolgov_registry_free(reg);
    return rc;
}
