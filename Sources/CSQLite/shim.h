// Wrappers over sqlite3 for Swift: SQLITE_TRANSIENT is a macro that casts -1 to a function pointer.
#pragma once
#include <sqlite3.h>

/// Binds text that SQLite copies (SQLITE_TRANSIENT).
static inline int oceq_sqlite3_bind_text(sqlite3_stmt *s, int i, const char *t, int n) {
    return sqlite3_bind_text(s, i, t, n, SQLITE_TRANSIENT);
}

/// Returns text that SQLite copies (SQLITE_TRANSIENT) from a user function.
static inline void oceq_sqlite3_result_text(sqlite3_context *c, const char *t, int n) {
    sqlite3_result_text(c, t, n, SQLITE_TRANSIENT);
}
