/* SPDX-License-Identifier: MIT */
/*
** spawn.c: see spawn.h. The child's output goes through one pipe that the
** parent drains with poll() while it waits, so a child that prints a lot
** cannot block on a full pipe, and a child that hangs is killed (with its
** whole process group) when the bound passes.
*/
#define _GNU_SOURCE
#include "spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_MAX (64u * 1024u * 1024u)

static void die(const char *what)
{
    fprintf(stderr, "test setup failed: %s: %s\n", what, strerror(errno));
    abort();
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double spawn_timeout(void)
{
    const char *s = getenv("TOOLGOV_TEST_TIMEOUT");
    double t = s != NULL ? strtod(s, NULL) : 0.0;
    return t > 0.0 ? t : 20.0;
}

const char *spawn_gen_path(void)
{
    const char *p = getenv("TOOLGOV_GEN");
    if (p == NULL || *p == '\0') {
        fprintf(stderr, "TOOLGOV_GEN is not set: run this test through ctest\n");
        abort();
    }
    return p;
}

int spawn_run(spawn_result *out, char *const argv[], char *const env[],
              double timeout_seconds)
{
    int fds[2];
    pid_t pid;
    double start, deadline;
    size_t cap = 4096;
    int status = 0, done = 0, eof = 0;

    memset(out, 0, sizeof *out);
    out->output = malloc(cap);
    if (out->output == NULL)
        return -1;
    out->output[0] = '\0';
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    start = now_seconds();
    deadline = start + timeout_seconds;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        size_t i;
        setpgid(0, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        for (i = 0; env != NULL && env[i] != NULL; i++)
            putenv(env[i]);
        execvp(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    while (!done || !eof) {
        double left = deadline - now_seconds();
        struct pollfd p = {fds[0], POLLIN, 0};
        if (left <= 0.0) {
            if (!done) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                out->timed_out = 1;
            }
            break;
        }
        if (!eof) {
            int ms = left > 0.05 ? 50 : 1;
            if (poll(&p, 1, ms) > 0) {
                char buf[65536];
                ssize_t n = read(fds[0], buf, sizeof buf);
                if (n == 0) {
                    eof = 1;
                } else if (n > 0) {
                    if (out->output_len + (size_t)n + 1 > cap &&
                        out->output_len < OUTPUT_MAX) {
                        while (out->output_len + (size_t)n + 1 > cap)
                            cap *= 2;
                        out->output = realloc(out->output, cap);
                        if (out->output == NULL)
                            die("realloc");
                    }
                    if (out->output_len + (size_t)n + 1 <= cap) {
                        memcpy(out->output + out->output_len, buf, (size_t)n);
                        out->output_len += (size_t)n;
                        out->output[out->output_len] = '\0';
                    }
                } else if (errno != EAGAIN && errno != EINTR) {
                    eof = 1;
                }
            }
        } else {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        if (!done) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid)
                done = 1;
        }
    }
    close(fds[0]);
    out->seconds = now_seconds() - start;
    if (WIFEXITED(status))
        out->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        out->exit_code = 128 + WTERMSIG(status);
    else
        out->exit_code = -1;
    return 0;
}

void spawn_result_free(spawn_result *r)
{
    free(r->output);
    r->output = NULL;
}

char *path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p == NULL)
        die("malloc");
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

char *tmpdir_make(const char *tag)
{
    const char *base = getenv("TMPDIR");
    char *tmpl;
    size_t n;
    if (base == NULL || *base == '\0')
        base = "/tmp";
    n = strlen(base) + strlen(tag) + 32;
    tmpl = malloc(n);
    if (tmpl == NULL)
        die("malloc");
    snprintf(tmpl, n, "%s/toolgov-%s-XXXXXX", base, tag);
    if (mkdtemp(tmpl) == NULL)
        die("mkdtemp");
    return tmpl;
}

void tmpdir_remove(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    if (d == NULL) {
        unlink(path);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        char *sub;
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        sub = path_join(path, e->d_name);
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
            chmod(sub, 0700);
            tmpdir_remove(sub);
        } else {
            unlink(sub);
        }
        free(sub);
    }
    closedir(d);
    rmdir(path);
}

long dir_count(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    long n = 0;
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    }
    closedir(d);
    return n;
}

char *file_write(const char *dir, const char *name, const char *data, size_t len)
{
    char *p = path_join(dir, name);
    FILE *f = fopen(p, "wb");
    if (f == NULL)
        die(p);
    if (len > 0 && fwrite(data, 1, len, f) != len)
        die(p);
    if (fclose(f) != 0)
        die(p);
    return p;
}

char *file_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (f == NULL)
        return NULL;
    for (;;) {
        size_t got;
        if (cap - n < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap + 1);
            if (buf == NULL)
                die("realloc");
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

void sbuf_add(sbuf *b, const char *data, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + len + 1 > cap)
            cap *= 2;
        b->data = realloc(b->data, cap);
        if (b->data == NULL)
            die("realloc");
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void sbuf_puts(sbuf *b, const char *s)
{
    sbuf_add(b, s, strlen(s));
}

void sbuf_printf(sbuf *b, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        die("vsnprintf");
    if ((size_t)n < sizeof small) {
        sbuf_add(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (big == NULL)
            die("malloc");
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        sbuf_add(b, big, (size_t)n);
        free(big);
    }
}

void sbuf_repeat(sbuf *b, const char *s, size_t times)
{
    size_t n = strlen(s), i;
    for (i = 0; i < times; i++)
        sbuf_add(b, s, n);
}

void sbuf_free(sbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
