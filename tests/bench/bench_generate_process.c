/* SPDX-License-Identifier: MIT */
/*
** bench_generate_process.c: `toolgov-gen generate` as a whole process
** against a bare libyaml event parse of the same manifest as a process
** (SPEC section 8: at most 1.3 times), paired, medians.
**
**   bench_generate_process [--params|--distinct-params] TOOLGOV_GEN [RUNS]   (default 21)
**   bench_generate_process --bare FILE             (the bare parse itself)
**   bench_generate_process --floor FILE DIR HBYTES CBYTES
**                                                  (the bare parse, then write
**                                                  two files of those sizes into
**                                                  a new DIR: the floor)
**   bench_generate_process --examples TOOLGOV_GEN RUNS MANIFEST...
**                                                  (SPEC section 14: each manifest's
**                                                  generate against `toolgov-gen
**                                                  --version`, the same program
**                                                  doing nothing; target 1.5x)
**   bench_generate_process --linear TOOLGOV_GEN RUNS
**                                                  (SPEC section 14: 1,000 and
**                                                  10,000 tools with parameters
**                                                  no two alike; growth linear)
**   bench_generate_process --dump [--params|--distinct-params]
**                                                  (print the manifest, to profile with)
**
** With --params every tool also declares parameters (bench_manifest.h's
** BENCH_PARAMETERS: the schema compiler, argument structs and descriptor
** tables are then part of the measure); every tool's parameters are the
** same text, which the loader compiles once. With --distinct-params each
** tool's text differs (its title's description names the tool), so every
** tool's parameters are compiled and rendered on their own.
** The 10,000-tool manifest of bench_generate is written to a scratch
** directory. Each round runs, back to back: this program with --bare (read
** the file, parse every event, exit), `toolgov-gen generate` into a new
** output directory (both files written), `toolgov-gen generate` into the
** directory of the previous round (content unchanged: read back and
** compared, nothing written) and `toolgov-gen validate`. Each is timed as
** a process from fork to exit, by the wall clock and by its CPU time
** (user + system, from wait4); the ratio to the bare parse is taken per
** round and the median ratio printed, with the sizes of the files written.
** A fifth process per round is the floor any generator of this output
** has: the bare parse, then two files of the sizes `generate` wrote (round
** 0's) written into a new directory, each to a temporary name renamed into
** place, as generate does. On a machine where fresh page-cache pages are
** slow to get (a VM whose host takes back free memory), that write is a
** large part of the budget; the floor shows how large, measured in the
** same run.
** Every mode writes under $TMPDIR (default /tmp). On ext4 without a
** journal (this project's VM) a new inode skips those freed in the last
** minutes, reading the inode table to find them, so a run right after many
** deletions (another bench's clean-up, a test run) pays for them in every
** mkdir and create: TMPDIR=/dev/shm measures the generator without its
** file system.
** Benchmarks print; nothing asserts.
*/
#define _DEFAULT_SOURCE /* wait4, mkdtemp */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>

#include "bench_manifest.h"

static int bare(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    yaml_parser_t p;
    yaml_event_t ev;
    int done = 0;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return 1;
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        return 1;
    fclose(f);
    if (!yaml_parser_initialize(&p))
        return 1;
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, (size_t)n);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev))
            return 1;
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    free(buf);
    return 0;
}

/* The floor: the bare parse, then `hb` and `cb` bytes into DIR/f.h and
** DIR/f.c, each written to a temporary name and renamed. */
static int floor_run(const char *path, const char *dir, size_t hb, size_t cb)
{
    const size_t size[2] = {hb, cb};
    static const char *const ext[2] = {"h", "c"};
    char tmp[512], dst[512];
    char *fill;
    size_t k;
    if (bare(path) != 0 || mkdir(dir, 0777) != 0)
        return 1;
    fill = malloc((hb > cb ? hb : cb) + 1);
    if (!fill)
        return 1;
    memset(fill, 'x', hb > cb ? hb : cb);
    for (k = 0; k < 2; k++) {
        FILE *f;
        snprintf(tmp, sizeof tmp, "%s/.f.%s.tmp", dir, ext[k]);
        snprintf(dst, sizeof dst, "%s/f.%s", dir, ext[k]);
        f = fopen(tmp, "wb");
        if (!f || fwrite(fill, 1, size[k], f) != size[k] || fclose(f) != 0 ||
            rename(tmp, dst) != 0)
            return 1;
    }
    free(fill);
    return 0;
}

/* A new scratch directory under $TMPDIR (default /tmp), for the manifest
** and every output directory a mode writes: TMPDIR=/dev/shm measures the
** generator without the disk file system's cost of new inodes. */
static int scratch_dir(char *dir, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, cap, "%s/toolgov-bench-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    printf("files under %s ($TMPDIR)\n", t && *t ? t : "/tmp");
    fflush(stdout); /* before any fork */
    return 0;
}

typedef struct sample {
    double wall_ms, cpu_ms;
} sample;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static sample run(char *const argv[])
{
    sample s = {-1, -1};
    struct rusage ru;
    int status;
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0)
        return s;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout)) /* --version prints */
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench: %s failed\n", argv[0]);
        exit(1);
    }
    s.wall_ms = now_ms() - t0;
    s.cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { BARE, COLD, WARM, VALIDATE, FLOOR, KINDS };

/* --examples: per round, `--version` then `generate` of every manifest
** into a new directory; the ratio of each to that round's --version, by
** wall time and by CPU time (user + system). */
static int examples(char *gen, size_t runs, int n, char **manifests)
{
    char dir[200], out[300];
    double *base[2], *ms[2], *ratio[2];
    char cmd[400];
    size_t r;
    int i, c;
    if (scratch_dir(dir, sizeof dir) != 0)
        return 1;
    for (c = 0; c < 2; c++) {
        base[c] = calloc(runs, sizeof(double));
        ms[c] = calloc(runs * (size_t)n, sizeof(double));
        ratio[c] = calloc(runs * (size_t)n, sizeof(double));
        if (!base[c] || !ms[c] || !ratio[c])
            return 1;
    }
    for (r = 0; r <= runs; r++) {
        char *ver_argv[] = {gen, (char *)"--version", NULL};
        sample v = run(ver_argv);
        for (i = 0; i < n; i++) {
            char *gen_argv[] = {gen, (char *)"generate", (char *)"--manifest", manifests[i],
                                (char *)"--out-dir", out, NULL};
            sample g;
            size_t at = (size_t)i * runs + r - 1;
            snprintf(out, sizeof out, "%s/r%zu_%d", dir, r, i);
            g = run(gen_argv);
            if (r == 0)
                continue;
            ms[0][at] = g.wall_ms;
            ratio[0][at] = g.wall_ms / v.wall_ms;
            ms[1][at] = g.cpu_ms;
            ratio[1][at] = v.cpu_ms > 0 ? g.cpu_ms / v.cpu_ms : 0;
        }
        if (r > 0) {
            base[0][r - 1] = v.wall_ms;
            base[1][r - 1] = v.cpu_ms;
        }
    }
    printf("%zu paired runs, each a process into a new output directory (medians; ratio = "
           "median of per-round ratios to `toolgov-gen --version`)\n", runs);
    printf("%-40s %9s %7s %9s %7s\n", "", "wall ms", "ratio", "cpu ms", "ratio");
    printf("%-40s %9.3f %7s %9.3f %7s\n", "toolgov-gen --version", median(base[0], runs), "",
           median(base[1], runs), "");
    for (i = 0; i < n; i++) {
        const char *name = strrchr(manifests[i], '/');
        double *w = ms[0] + (size_t)i * runs, *u = ms[1] + (size_t)i * runs;
        printf("generate %-31s %9.3f %6.2fx %9.3f %6.2fx\n", name ? name + 1 : manifests[i],
               median(w, runs), median(ratio[0] + (size_t)i * runs, runs), median(u, runs),
               median(ratio[1] + (size_t)i * runs, runs));
    }
    printf("target: generate <= 1.50x toolgov-gen --version\n");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    for (c = 0; c < 2; c++) {
        free(base[c]);
        free(ms[c]);
        free(ratio[c]);
    }
    return 0;
}

/* --linear: `generate` of 1,000 and of 10,000 tools whose parameters are
** no two alike, each into a new directory, beside `--version`, per
** round. Linear growth: the 10,000-tool run costs ten times the 1,000-tool
** one once the process's fixed cost (`--version`) is taken off both. */
static int linear(char *gen, size_t runs)
{
    static const size_t sizes[2] = {1000, 10000};
    char dir[200], path[2][300], out[300], cmd[400];
    double *t[3][2], *per[2];
    size_t r, k;
    int c;
    if (scratch_dir(dir, sizeof dir) != 0)
        return 1;
    for (k = 0; k < 2; k++) {
        size_t len;
        char *y = build_manifest_n(&len, 2, sizes[k]);
        FILE *f;
        snprintf(path[k], sizeof path[k], "%s/bench%zu.yaml", dir, sizes[k]);
        f = fopen(path[k], "wb");
        if (!y || !f || fwrite(y, 1, len, f) != len || fclose(f) != 0)
            return 1;
        free(y);
    }
    for (k = 0; k < 3; k++)
        for (c = 0; c < 2; c++)
            if (!(t[k][c] = calloc(runs, sizeof(double))))
                return 1;
    for (c = 0; c < 2; c++)
        if (!(per[c] = calloc(runs, sizeof(double))))
            return 1;
    for (r = 0; r <= runs; r++) {
        char *ver_argv[] = {gen, (char *)"--version", NULL};
        sample s[3];
        s[0] = run(ver_argv);
        for (k = 0; k < 2; k++) {
            char *gen_argv[] = {gen, (char *)"generate", (char *)"--manifest", path[k],
                                (char *)"--out-dir", out, NULL};
            snprintf(out, sizeof out, "%s/r%zu_%zu", dir, r, sizes[k]);
            s[k + 1] = run(gen_argv);
        }
        if (r == 0)
            continue;
        for (k = 0; k < 3; k++) {
            t[k][0][r - 1] = s[k].wall_ms;
            t[k][1][r - 1] = s[k].cpu_ms;
        }
        /* Per-round growth, the fixed cost taken off both sizes. */
        per[0][r - 1] = (s[2].wall_ms - s[0].wall_ms) / (s[1].wall_ms - s[0].wall_ms);
        per[1][r - 1] = (s[2].cpu_ms - s[0].cpu_ms) / (s[1].cpu_ms - s[0].cpu_ms);
    }
    printf("tools with parameters no two alike; %zu paired runs, each a process into a new "
           "output directory (medians)\n", runs);
    printf("%-40s %9s %9s\n", "", "wall ms", "cpu ms");
    printf("%-40s %9.2f %9.2f\n", "toolgov-gen --version", median(t[0][0], runs),
           median(t[0][1], runs));
    for (k = 0; k < 2; k++) {
        char what[64];
        snprintf(what, sizeof what, "generate, %zu tools", sizes[k]);
        printf("%-40s %9.2f %9.2f\n", what, median(t[k + 1][0], runs), median(t[k + 1][1], runs));
    }
    printf("%-40s %8.2fx %8.2fx\n", "10,000 / 1,000 tools, less --version", median(per[0], runs),
           median(per[1], runs));
    printf("target: linear growth (10.00x)\n");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    for (k = 0; k < 3; k++)
        for (c = 0; c < 2; c++)
            free(t[k][c]);
    free(per[0]);
    free(per[1]);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const what[KINDS] = {
        "bare libyaml parse (process)", "generate, new output dir",
        "generate, output unchanged", "validate", "floor: bare parse + write"};
    char dir[200], path[256], out[256], prev[256], fdir[256];
    char hbytes[32] = "0", cbytes[32] = "0";
    size_t runs, len, r, k, j;
    char *y;
    double *ms[KINDS][2], *ratio[KINDS][2];
    FILE *f;
    int params = 0;
    char *self = argv[0];

    if (argc == 3 && strcmp(argv[1], "--bare") == 0)
        return bare(argv[2]);
    if (argc == 6 && strcmp(argv[1], "--floor") == 0)
        return floor_run(argv[2], argv[3], (size_t)strtoull(argv[4], NULL, 10),
                         (size_t)strtoull(argv[5], NULL, 10));
    if (argc >= 5 && strcmp(argv[1], "--examples") == 0)
        return examples(argv[2], (size_t)strtoul(argv[3], NULL, 10), argc - 4, argv + 4);
    if (argc == 4 && strcmp(argv[1], "--linear") == 0)
        return linear(argv[2], (size_t)strtoul(argv[3], NULL, 10));
    if (argc >= 2 && strcmp(argv[1], "--dump") == 0) {
        int kind = argc < 3 ? 0 : strcmp(argv[2], "--params") == 0 ? 1
                           : strcmp(argv[2], "--distinct-params") == 0 ? 2 : -1;
        if (kind < 0 || argc > 3) {
            fprintf(stderr, "usage: bench_generate_process --dump [--params|--distinct-params]\n");
            return 2;
        }
        y = build_manifest_ex(&len, kind);
        if (!y || fwrite(y, 1, len, stdout) != len || fflush(stdout) != 0)
            return 1;
        free(y);
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--params") == 0 ||
                     strcmp(argv[1], "--distinct-params") == 0)) {
        params = argv[1][2] == 'p' ? 1 : 2;
        argv++;
        argc--;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: bench_generate_process [--params|--distinct-params] "
                        "TOOLGOV_GEN [RUNS]\n");
        return 2;
    }
    runs = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 21;
    y = build_manifest_ex(&len, params);
    if (!y || runs == 0 || scratch_dir(dir, sizeof dir) != 0)
        return 1;
    snprintf(path, sizeof path, "%s/bench.yaml", dir);
    f = fopen(path, "wb");
    if (!f || fwrite(y, 1, len, f) != len || fclose(f) != 0)
        return 1;
    for (k = 0; k < KINDS; k++)
        for (int c = 0; c < 2; c++) {
            ms[k][c] = calloc(runs, sizeof(double));
            ratio[k][c] = calloc(runs, sizeof(double));
            if (!ms[k][c] || !ratio[k][c])
                return 1;
        }
    prev[0] = '\0';
    /* Round 0 warms the page cache and is not counted. */
    for (r = 0; r <= runs; r++) {
        char *bare_argv[] = {self, (char *)"--bare", path, NULL};
        char *cold_argv[] = {argv[1], (char *)"generate", (char *)"--manifest", path,
                             (char *)"--out-dir", out, NULL};
        char *warm_argv[] = {argv[1], (char *)"generate", (char *)"--manifest", path,
                             (char *)"--out-dir", prev, NULL};
        char *val_argv[] = {argv[1], (char *)"validate", path, NULL};
        char *floor_argv[] = {self, (char *)"--floor", path, fdir, hbytes, cbytes, NULL};
        sample s[KINDS];
        snprintf(out, sizeof out, "%s/out%zu", dir, r);
        snprintf(fdir, sizeof fdir, "%s/floor%zu", dir, r);
        /* The five in turn, each round starting one further on, so every
        ** kind follows every other equally often: what the previous
        ** process left (pages freed to warm, page cache filled) is then
        ** no one kind's luck. Round 0 runs them in the order of the enum. */
        for (j = 0; j < KINDS; j++) {
            switch ((r + j) % KINDS) {
            case BARE:
                s[BARE] = run(bare_argv);
                break;
            case COLD:
                s[COLD] = run(cold_argv);
                if (r == 0) {
                    /* The sizes the floor writes: what generate wrote. */
                    struct stat st;
                    char file[300];
                    snprintf(file, sizeof file, "%s/bench.toolgov.h", out);
                    if (stat(file, &st) == 0)
                        snprintf(hbytes, sizeof hbytes, "%llu", (unsigned long long)st.st_size);
                    snprintf(file, sizeof file, "%s/bench.toolgov.c", out);
                    if (stat(file, &st) == 0)
                        snprintf(cbytes, sizeof cbytes, "%llu", (unsigned long long)st.st_size);
                }
                break;
            case WARM:
                s[WARM] = prev[0] ? run(warm_argv) : run(cold_argv);
                break;
            case VALIDATE:
                s[VALIDATE] = run(val_argv);
                break;
            default:
                s[FLOOR] = run(floor_argv);
                break;
            }
        }
        snprintf(prev, sizeof prev, "%s", out);
        if (r == 0)
            continue;
        for (k = 0; k < KINDS; k++) {
            ms[k][0][r - 1] = s[k].wall_ms;
            ms[k][1][r - 1] = s[k].cpu_ms;
            ratio[k][0][r - 1] = s[k].wall_ms / s[BARE].wall_ms;
            ratio[k][1][r - 1] = s[k].cpu_ms > 0 && s[BARE].cpu_ms > 0
                                     ? s[k].cpu_ms / s[BARE].cpu_ms
                                     : 0;
        }
    }
    printf("manifest: %d tools%s, %zu bytes; %zu paired runs, each a process "
           "(medians; ratio = median of per-round ratios to the bare parse)\n",
           TOOLS, params == 2 ? " with parameters, no two alike" : params ? " with parameters" : "",
           len, runs);
    printf("%-32s %10s %8s %10s %8s\n", "", "wall ms", "ratio", "cpu ms", "ratio");
    for (k = 0; k < KINDS; k++)
        printf("%-32s %10.2f %7.2fx %10.2f %7.2fx\n", what[k], median(ms[k][0], runs),
               median(ratio[k][0], runs), median(ms[k][1], runs), median(ratio[k][1], runs));
    printf("target: generate <= 1.30x the bare parse\n");
    {
        /* What generate wrote: the sizes of the pair (round 0's). */
        struct stat st;
        unsigned long long hb = 0, cb = 0;
        snprintf(out, sizeof out, "%s/out0/bench.toolgov.h", dir);
        if (stat(out, &st) == 0)
            hb = (unsigned long long)st.st_size;
        snprintf(out, sizeof out, "%s/out0/bench.toolgov.c", dir);
        if (stat(out, &st) == 0)
            cb = (unsigned long long)st.st_size;
        printf("output: header %llu bytes, C file %llu bytes\n", hb, cb);
    }
    /* Remove what the rounds wrote: two files per output directory. */
    for (r = 0; r <= runs; r++) {
        static const char *const ext[] = {"h", "c"};
        for (k = 0; k < 2; k++) {
            snprintf(out, sizeof out, "%s/out%zu/bench.toolgov.%s", dir, r, ext[k]);
            unlink(out);
        }
        snprintf(out, sizeof out, "%s/out%zu", dir, r);
        rmdir(out);
        for (k = 0; k < 2; k++) {
            snprintf(out, sizeof out, "%s/floor%zu/f.%s", dir, r, ext[k]);
            unlink(out);
        }
        snprintf(out, sizeof out, "%s/floor%zu", dir, r);
        rmdir(out);
    }
    unlink(path);
    if (rmdir(dir) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    for (k = 0; k < KINDS; k++)
        for (int c = 0; c < 2; c++) {
            free(ms[k][c]);
            free(ratio[k][c]);
        }
    free(y);
    return 0;
}
