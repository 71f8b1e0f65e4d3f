// Tests never read or write the real HOME: before main runs (a constructor, while the process has one
// thread, so setenv is safe), every test process makes a fresh folder under $TMPDIR (else /tmp) and points
// HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and XDG_DATA_HOME into it; the oceq processes and
// scripts the tests start inherit them. The folder is removed when the process exits. Scripts/test also
// runs the suite with HOME a fresh folder and fails if the real ~/.cache/oceq, ~/.config/oceq or
// ~/.local/state/oceq changed.
#define _GNU_SOURCE
#include "OCEQTestHome.h"

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char home[PATH_MAX];

const char *oceq_test_home(void) { return home; }

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *walk) {
    (void)info;
    (void)flag;
    (void)walk;
    return remove(path);
}

static void remove_home(void) {
    if (home[0]) nftw(home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void set_under_home(const char *name, const char *relative) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", home, relative);
    setenv(name, path, 1);
}

__attribute__((constructor)) static void oceq_make_test_home(void) {
    const char *temporary = getenv("TMPDIR");
    if (!temporary || !temporary[0]) temporary = "/tmp";
    snprintf(home, sizeof home, "%s/oceq-test-home.XXXXXX", temporary);
    if (!mkdtemp(home)) {
        perror("oceq tests: cannot make a home folder");
        _exit(70);
    }
    setenv("HOME", home, 1);
    set_under_home("XDG_CONFIG_HOME", ".config");
    set_under_home("XDG_CACHE_HOME", ".cache");
    set_under_home("XDG_STATE_HOME", ".local/state");
    set_under_home("XDG_DATA_HOME", ".local/share");
    atexit(remove_home);
}
