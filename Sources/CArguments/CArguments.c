// Where `CommandLine.arguments` comes from in the `oceq` executable: argv as glibc hands it to the
// executable's initialisers, instead of the Swift runtime's own way on Linux, which read all of
// /proc/self/maps at every start (about 180 lines with libcurl's 30 libraries: 0.18-0.23 ms, before
// `main`, on the path of every command) to find the stack, then walked back from `environ` to argv.
//
// The Swift runtime's static library defines the two functions below in one object file
// (CommandLine.cpp.o of libswiftCore.a, Swift 6.3); the executable defining them first, the linker never
// takes that object, so its static initialiser never runs. A toolchain that moves either function
// into another object of the library fails the release link with a duplicate symbol, loudly; a build
// against the shared runtime (debug, the tests) keeps the runtime's own, bound inside the library.
// Outside glibc (which passes argc, argv and envp to initialisers) nothing here is compiled.
#include "CArguments.h"
#include <stdlib.h>

#if defined(__GLIBC__)

static char **captured_argv;
static int captured_argc;
static char **override_argv;
static int override_argc;

/// Runs before `main` with the arguments the kernel laid out (a glibc guarantee for ELF initialisers).
__attribute__((constructor)) static void oceq_capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    captured_argc = argc;
    captured_argv = argv;
}

/// The runtime's accessor for `CommandLine.unsafeArgv` and `argc` (Swift calling convention).
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (override_argv) {
        *outArgLen = override_argc;
        return override_argv;
    }
    *outArgLen = captured_argc;
    return captured_argv;
}

/// The runtime's hook for a host that runs Swift code in-process (the REPL, a JIT) to set the arguments.
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}

int oceq_captured_argument_count(void) { return captured_argc; }

const char *oceq_captured_argument(int index) {
    return index >= 0 && index < captured_argc ? captured_argv[index] : NULL;
}

#else

int oceq_captured_argument_count(void) { return -1; }

const char *oceq_captured_argument(int index) {
    (void)index;
    return NULL;
}

#endif
