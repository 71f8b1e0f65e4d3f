// A shim for Scripts/bench-download-command (BENCH_THREADS): loaded into a command with LD_PRELOAD, it
// writes, when the process leaves, one line per thread still there to $THREAD_TIMES_DIR/PID:
//   TID COMM RUN_NS WAIT_NS SLICES
// from /proc/self/task/TID/schedstat: the nanoseconds the thread ran, the nanoseconds it waited in a
// run queue (runnable, no CPU free for it) and how many times it was given a CPU. It catches both
// ways out: `exit` (its destructors run: curl) and `_exit` (which oceq calls, skipping them).
// Built by the benchmark with `cc -shared -fPIC`; not part of oceq.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int written;

static void write_times(void) {
    const char *folder = getenv("THREAD_TIMES_DIR");
    if (written++ || folder == NULL) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", folder, (int)getpid());
    FILE *out = fopen(path, "w");
    DIR *tasks = opendir("/proc/self/task");
    if (out == NULL || tasks == NULL) {
        if (out) fclose(out);
        if (tasks) closedir(tasks);
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char file[256], comm[64] = "?", stats[256] = "";
        snprintf(file, sizeof file, "/proc/self/task/%s/comm", entry->d_name);
        FILE *in = fopen(file, "r");
        if (in) {
            if (fgets(comm, sizeof comm, in) == NULL) strcpy(comm, "?");
            fclose(in);
        }
        comm[strcspn(comm, "\n")] = 0;
        for (char *c = comm; *c; c++)
            if (*c == ' ') *c = '_';
        snprintf(file, sizeof file, "/proc/self/task/%s/schedstat", entry->d_name);
        in = fopen(file, "r");
        if (in) {
            if (fgets(stats, sizeof stats, in) == NULL) stats[0] = 0;
            fclose(in);
        }
        if (stats[0]) fprintf(out, "%s %s %s", entry->d_name, comm, stats);
    }
    closedir(tasks);
    fclose(out);
}

__attribute__((destructor)) static void at_exit(void) { write_times(); }

void _exit(int code) {
    write_times();
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "_exit");
    real(code);
    for (;;) {}
}
