// The loader behind every library opened at first use (see include/CSystem.h), the wrappers of
// pipe2, the _np spawn file actions and the thread affinity calls, which glibc declares only under
// _GNU_SOURCE, and the executable's `.bss` made present at start (`oceq_populate_static_zero_data`).
#define _GNU_SOURCE
#include "CSystem.h"
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>


int oceq_library_open(const char *soname, int flags, const char *const *names, void **slots, size_t count, char *error,
                      size_t error_size) {
    void *library = dlopen(soname, flags);
    if (!library) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : soname);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        slots[i] = dlsym(library, names[i]);
        if (!slots[i]) {
            snprintf(error, error_size, "%s has no %s", soname, names[i]);
            dlclose(library);
            return -1;
        }
    }
    return 0;
}

int oceq_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int oceq_open_tmpfile(const char *folder, int extra) { return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC | extra, 0644); }

int oceq_link_open_file(int fd, const char *path) {
    if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0) return 0;
    if (errno != ENOENT && errno != EPERM && errno != EINVAL) return -1;
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

int oceq_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int oceq_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int oceq_thread_attr_elsewhere(pthread_attr_t *attributes) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
    int current = sched_getcpu();
    if (current < 0 || current >= CPU_SETSIZE || !CPU_ISSET(current, &allowed) || CPU_COUNT(&allowed) < 2) return 0;
    CPU_CLR(current, &allowed);
    return pthread_attr_setaffinity_np(attributes, sizeof allowed, &allowed) == 0;
}

void oceq_thread_run_anywhere(void) {
    cpu_set_t allowed;
    if (sched_getaffinity(getpid(), sizeof allowed, &allowed) == 0) (void)sched_setaffinity(0, sizeof allowed, &allowed);
}

int oceq_thread_cpu_count(void) {
    cpu_set_t allowed;
    return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
}

int oceq_accept_cloexec(int fd, void *address, socklen_t *length) {
    return accept4(fd, (struct sockaddr *)address, length, SOCK_CLOEXEC);
}

// The executable's zero-initialised data: from `__bss_start` to `_end`, symbols every GNU-compatible linker
// (ld.bfd, gold, lld) defines for an executable.
extern char __bss_start[], _end[];

void oceq_static_zero_data(void **start, size_t *length) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)__bss_start & ~(page - 1);
    uintptr_t end = ((uintptr_t)_end + page - 1) & ~(page - 1);
    *start = (void *)first;
    *length = end > first ? end - first : 0;
}

int oceq_populate_static_zero_data(void) {
    void *start;
    size_t length;
    oceq_static_zero_data(&start, &length);
    if (length == 0) return 0;
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    return madvise(start, length, MADV_POPULATE_WRITE);
}
