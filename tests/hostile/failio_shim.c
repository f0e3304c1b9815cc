/* SPDX-License-Identifier: MIT */
/*
** failio_shim.c: an LD_PRELOAD library that makes one file-system call of
** toolgov-gen fail, or kills the process at that call, so the atomic-output
** tests can interrupt a generation between writing and renaming.
**
** TOOLGOV_FAILIO=ACTION:CALL:N picks the N-th call (1-based, counted per
** function) of CALL, one of open, write, close, rename, fsync, link, and:
**   fail    the call fails (EIO; ENOSPC for write) without doing anything
**           (for close: the descriptor is closed, then EIO is reported, as
**           NFS does when a deferred write fails);
**   short   write only: half the bytes are written, then the next write
**           fails with ENOSPC (a full disk);
**   kill    the process sends itself SIGKILL just before the call (for
**           write: after writing half the bytes), the harshest interruption;
**   pause   rename only: wait 600 ms, then do the call (a window for a
**           concurrent run).
** Only open() calls that create a file count, so reading the manifest and
** the previous output does not shift the numbering.
** TOOLGOV_FAILIO_MARK=PATH: create PATH when the fault fires.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum { C_OPEN, C_WRITE, C_CLOSE, C_RENAME, C_FSYNC, C_LINK, C_COUNT };
static const char *const call_names[C_COUNT] = {"open", "write", "close", "rename", "fsync",
                                                "link"};

/* dlsym() returns an object pointer; ISO C has no conversion to a function
** pointer, so copy the bytes (the POSIX-sanctioned way round it). */
#define LOAD(var, name)                                                        \
    do {                                                                       \
        void *sym_ = dlsym(RTLD_NEXT, name);                                   \
        memcpy(&(var), &sym_, sizeof(var));                                    \
    } while (0)

static int parsed;
static char action[16];
static int target = -1;
static unsigned long target_n;
static unsigned long counts[C_COUNT];
static int write_failing; /* after a short write: fail every later write */

static void parse(void)
{
    const char *s = getenv("TOOLGOV_FAILIO");
    char call[16];
    int i;
    parsed = 1;
    if (s == NULL || sscanf(s, "%15[^:]:%15[^:]:%lu", action, call, &target_n) != 3)
        return;
    for (i = 0; i < C_COUNT; i++) {
        if (strcmp(call, call_names[i]) == 0)
            target = i;
    }
}

/* 1 when this call is the chosen one. Leaves the file named by
** TOOLGOV_FAILIO_MARK behind when it fires, so a test can tell a run the
** fault reached from one that finished before the N-th call. */
static int hit(int which)
{
    const char *mark;
    if (!parsed)
        parse();
    if (which != target || ++counts[which] != target_n)
        return 0;
    mark = getenv("TOOLGOV_FAILIO_MARK");
    if (mark != NULL) {
        static int (*real_open)(const char *, int, ...);
        static int (*real_close)(int);
        int fd;
        if (real_open == NULL)
            LOAD(real_open, "open");
        if (real_close == NULL)
            LOAD(real_close, "close");
        fd = real_open(mark, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0)
            real_close(fd);
    }
    return 1;
}

static void die_now(void)
{
    raise(SIGKILL);
    _exit(137);
}

int open(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    mode_t mode = 0;
    if (real == NULL)
        LOAD(real, "open");
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
        if (hit(C_OPEN)) {
            if (strcmp(action, "kill") == 0)
                die_now();
            errno = EIO;
            return -1;
        }
    }
    return real(path, flags, mode);
}

/* The same entry under its large-file name, which some builds call. */
int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return open(path, flags, mode);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (real == NULL)
        LOAD(real, "write");
    if (fd > 2 && write_failing) {
        errno = ENOSPC;
        return -1;
    }
    if (fd > 2 && hit(C_WRITE)) {
        if (strcmp(action, "fail") == 0) {
            errno = ENOSPC;
            return -1;
        }
        if (len > 1) {
            ssize_t w = real(fd, buf, len / 2);
            if (strcmp(action, "kill") == 0)
                die_now();
            write_failing = 1;
            return w;
        }
        if (strcmp(action, "kill") == 0)
            die_now();
        write_failing = 1;
        errno = ENOSPC;
        return -1;
    }
    return real(fd, buf, len);
}

int close(int fd)
{
    static int (*real)(int);
    if (real == NULL)
        LOAD(real, "close");
    if (fd > 2 && hit(C_CLOSE)) {
        if (strcmp(action, "kill") == 0)
            die_now();
        real(fd);
        errno = EIO;
        return -1;
    }
    return real(fd);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (real == NULL)
        LOAD(real, "fsync");
    if (hit(C_FSYNC)) {
        if (strcmp(action, "kill") == 0)
            die_now();
        errno = EIO;
        return -1;
    }
    return real(fd);
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (real == NULL)
        LOAD(real, "rename");
    if (hit(C_RENAME)) {
        if (strcmp(action, "kill") == 0)
            die_now();
        if (strcmp(action, "pause") == 0) {
            usleep(600000);
            return real(from, to);
        }
        errno = EIO;
        return -1;
    }
    return real(from, to);
}

int link(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (real == NULL)
        LOAD(real, "link");
    if (hit(C_LINK)) {
        if (strcmp(action, "kill") == 0)
            die_now();
        errno = EPERM; /* a file system without hard links */
        return -1;
    }
    return real(from, to);
}
