// SQLite for Swift, opened at first use (only `oceq serve`'s index uses it; linking it cost every start
// of oceq about 0.7 ms, 1,600 symbol bindings) through CSystem's loader: `oceq_sqlite3()` is the table
// of the functions below, typed by <sqlite3.h>, or NULL with `oceq_sqlite3_error()` saying why.
#pragma once
// The table fields are _Nonnull (Swift calls them without unwrapping); the rest of the header is not annotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-completeness-on-arrays"
#include <sqlite3.h>
#include "CSystem.h"

#define OCEQ_SQLITE3_FUNCTIONS(F) \
    F(sqlite3_open_v2) F(sqlite3_close_v2) F(sqlite3_errmsg) F(sqlite3_extended_result_codes) F(sqlite3_exec) \
    F(sqlite3_free) F(sqlite3_prepare_v3) F(sqlite3_sql) F(sqlite3_step) F(sqlite3_reset) F(sqlite3_finalize) \
    F(sqlite3_clear_bindings) F(sqlite3_bind_double) F(sqlite3_bind_int64) F(sqlite3_bind_null) \
    F(sqlite3_bind_text) F(sqlite3_column_type) F(sqlite3_column_bytes) F(sqlite3_column_double) \
    F(sqlite3_column_int64) F(sqlite3_column_text) F(sqlite3_create_function_v2) F(sqlite3_result_int) \
    F(sqlite3_result_text) F(sqlite3_value_bytes) F(sqlite3_value_int) F(sqlite3_value_text) F(sqlite3_bind_pointer) \
    F(sqlite3_bind_blob) F(sqlite3_column_blob)

OCEQ_LIBRARY_DECLARE(sqlite3, OCEQ_SQLITE3_FUNCTIONS)

/// SQLITE_TRANSIENT (a macro that casts -1 to a function pointer, which Swift does not import): text
/// passed with it is copied by SQLite.
static inline sqlite3_destructor_type _Nonnull oceq_sqlite3_transient(void) { return SQLITE_TRANSIENT; }

#pragma clang diagnostic pop
