// The loader behind every library opened at first use (see include/CSystem.h).
#include "CSystem.h"


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
