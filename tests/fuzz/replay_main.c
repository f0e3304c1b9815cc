/* SPDX-License-Identifier: MIT */
/*
** replay_main.c: runs a fuzz target over files and directories of inputs
** without libFuzzer, so the normal (gcc) build and valgrind replay every
** seed and every regression input as an ordinary CTest test.
**
**   replay_<target> PATH...   each PATH a file, or a directory whose files
**                             (recursively) are inputs
*/
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_check.h"

static unsigned long replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, n;
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    do {
        if (cap - len < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            if (buf == NULL)
                abort();
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    replayed++;
}

static void replay_path(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    if (stat(path, &st) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    d = opendir(path);
    if (d == NULL) {
        perror(path);
        exit(2);
    }
    while ((e = readdir(d)) != NULL) {
        char *sub;
        size_t n;
        if (e->d_name[0] == '.')
            continue;
        n = strlen(path) + strlen(e->d_name) + 2;
        sub = malloc(n);
        if (sub == NULL)
            abort();
        snprintf(sub, n, "%s/%s", path, e->d_name);
        replay_path(sub);
        free(sub);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        replay_path(argv[i]);
    printf("replayed %lu inputs\n", replayed);
    return replayed > 0 ? 0 : 1;
}
