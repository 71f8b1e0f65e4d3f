// A shim for Scripts/bench-download-command (BENCH_THREADS): loaded into a command with LD_PRELOAD, it
// writes, when the process leaves, one line per thread to $THREAD_TIMES_DIR/PID:
//   TID COMM RUN_NS WAIT_NS TURNS
// from the thread's /proc schedstat: the nanoseconds it ran, the nanoseconds it waited in a run queue
// (runnable, but not yet on a CPU) and how many times it was given a CPU. It catches both ways out:
// `exit` (its destructors run: curl) and `_exit` (which oceq calls, skipping them). A thread that ends
// before the process (its start routine returns) is read as it ends: `pthread_create` is wrapped.
// Built by the benchmark with `cc -shared -fPIC`; not part of oceq.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Lines of the threads that ended before the process, written with the others.
static pthread_mutex_t ended_lock = PTHREAD_MUTEX_INITIALIZER;
static char ended[64 * 1024];
static size_t ended_length;
static int written;

/// Reads the comm and schedstat of the thread whose /proc folder is `task` into `line`
/// ("TID COMM RUN WAIT TURNS\n"), or leaves it empty.
static void read_thread(const char *task, const char *tid, char *line, size_t size) {
    char file[4096], comm[64] = "?", stats[256] = "";
    snprintf(file, sizeof file, "%s/comm", task);
    FILE *in = fopen(file, "r");
    if (in) {
        if (fgets(comm, sizeof comm, in) == NULL) strcpy(comm, "?");
        fclose(in);
    }
    comm[strcspn(comm, "\n")] = 0;
    for (char *c = comm; *c; c++)
        if (*c == ' ') *c = '_';
    snprintf(file, sizeof file, "%s/schedstat", task);
    in = fopen(file, "r");
    if (in) {
        if (fgets(stats, sizeof stats, in) == NULL) stats[0] = 0;
        fclose(in);
    }
    line[0] = 0;
    if (stats[0]) snprintf(line, size, "%s %s %s", tid, comm, stats);
}

static void write_times(void) {
    const char *folder = getenv("THREAD_TIMES_DIR");
    if (written++ || folder == NULL) return;
    char path[4096], task[4096], line[512];
    snprintf(path, sizeof path, "%s/%d", folder, (int)getpid());
    FILE *out = fopen(path, "w");
    DIR *tasks = opendir("/proc/self/task");
    if (out && tasks) {
        struct dirent *entry;
        while ((entry = readdir(tasks)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            snprintf(task, sizeof task, "/proc/self/task/%s", entry->d_name);
            read_thread(task, entry->d_name, line, sizeof line);
            fputs(line, out);
        }
        pthread_mutex_lock(&ended_lock);
        fwrite(ended, 1, ended_length, out);
        pthread_mutex_unlock(&ended_lock);
    }
    if (tasks) closedir(tasks);
    if (out) fclose(out);
}

struct start {
    void *(*routine)(void *);
    void *argument;
};

static void *run_thread(void *context) {
    struct start start = *(struct start *)context;
    free(context);
    void *result = start.routine(start.argument);
    char tid[32], line[512];
    snprintf(tid, sizeof tid, "%d", (int)gettid());
    read_thread("/proc/thread-self", tid, line, sizeof line);
    size_t length = strlen(line);
    pthread_mutex_lock(&ended_lock);
    if (ended_length + length < sizeof ended) {
        memcpy(ended + ended_length, line, length);
        ended_length += length;
    }
    pthread_mutex_unlock(&ended_lock);
    return result;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument) {
    typedef int (*create_function)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    static create_function real;
    if (real == NULL) real = (create_function)dlsym(RTLD_NEXT, "pthread_create");
    struct start *context = malloc(sizeof *context);
    if (context == NULL) return real(thread, attributes, routine, argument);
    context->routine = routine;
    context->argument = argument;
    int status = real(thread, attributes, run_thread, context);
    if (status != 0) free(context);
    return status;
}

__attribute__((destructor)) static void at_exit(void) { write_times(); }

void _exit(int code) {
    write_times();
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "_exit");
    real(code);
    for (;;) {
    }
}
