// The process's arguments for the Swift runtime, captured as the C library hands them over (see
// CArguments.c). Nothing to call: linking the target is what it takes. The two functions below let a
// test compare what was captured with `CommandLine.arguments`.
#pragma once

/// The number of arguments captured before `main` (argc); -1 where nothing is captured (not glibc).
int oceq_captured_argument_count(void);

/// Captured argument `index` (argv[index]), or NULL outside 0..<count.
const char *_Nullable oceq_captured_argument(int index);
