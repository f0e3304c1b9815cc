/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include <toolgov/testing.h>
#include <toolgov/toolgov.h>

extern const toolgov_plugin echo_toolgov_plugin;
int prelude_value(void);

int main(void)
{
    toolgov_result *out = NULL;
    int rc = toolgov_result_new(&out, NULL);
    if (rc == 0)
        rc = toolgov_test_invoke(out, &echo_toolgov_plugin, "echo_back", "{}", 2, NULL);
    printf("echo_back rc=%d output=%s prelude=%d\n", rc, rc == 0 ? toolgov_result_text(out) : "",
           prelude_value());
    toolgov_result_free(out);
    return rc == 0 ? 0 : 1;
}
