// SQLite for Swift, opened with dlopen at first use instead of linked (as libcurl is: see
// Sources/CCurl/shim.h). Only `oceq serve`'s index uses SQLite; linking it cost every start of oceq
// about 0.7 ms (1,600 symbol bindings). The prototypes of the functions oceq calls are renamed while
// <sqlite3.h> is read, and functions of the same names call through a table filled by dlsym once per
// process, so the Swift code calls sqlite3_step() and the rest as before.
#pragma once
#define sqlite3_open_v2 oceq_prototype_sqlite3_open_v2
#define sqlite3_close_v2 oceq_prototype_sqlite3_close_v2
#define sqlite3_errmsg oceq_prototype_sqlite3_errmsg
#define sqlite3_extended_result_codes oceq_prototype_sqlite3_extended_result_codes
#define sqlite3_exec oceq_prototype_sqlite3_exec
#define sqlite3_free oceq_prototype_sqlite3_free
#define sqlite3_prepare_v3 oceq_prototype_sqlite3_prepare_v3
#define sqlite3_sql oceq_prototype_sqlite3_sql
#define sqlite3_step oceq_prototype_sqlite3_step
#define sqlite3_reset oceq_prototype_sqlite3_reset
#define sqlite3_finalize oceq_prototype_sqlite3_finalize
#define sqlite3_clear_bindings oceq_prototype_sqlite3_clear_bindings
#define sqlite3_bind_double oceq_prototype_sqlite3_bind_double
#define sqlite3_bind_int64 oceq_prototype_sqlite3_bind_int64
#define sqlite3_bind_null oceq_prototype_sqlite3_bind_null
#define sqlite3_bind_text oceq_prototype_sqlite3_bind_text
#define sqlite3_bind_pointer oceq_prototype_sqlite3_bind_pointer
#define sqlite3_column_type oceq_prototype_sqlite3_column_type
#define sqlite3_column_bytes oceq_prototype_sqlite3_column_bytes
#define sqlite3_column_double oceq_prototype_sqlite3_column_double
#define sqlite3_column_int64 oceq_prototype_sqlite3_column_int64
#define sqlite3_column_text oceq_prototype_sqlite3_column_text
#define sqlite3_create_function_v2 oceq_prototype_sqlite3_create_function_v2
#define sqlite3_result_int oceq_prototype_sqlite3_result_int
#define sqlite3_result_text oceq_prototype_sqlite3_result_text
#define sqlite3_value_bytes oceq_prototype_sqlite3_value_bytes
#define sqlite3_value_int oceq_prototype_sqlite3_value_int
#define sqlite3_value_text oceq_prototype_sqlite3_value_text
#include <sqlite3.h>
#undef sqlite3_open_v2
#undef sqlite3_close_v2
#undef sqlite3_errmsg
#undef sqlite3_extended_result_codes
#undef sqlite3_exec
#undef sqlite3_free
#undef sqlite3_prepare_v3
#undef sqlite3_sql
#undef sqlite3_step
#undef sqlite3_reset
#undef sqlite3_finalize
#undef sqlite3_clear_bindings
#undef sqlite3_bind_double
#undef sqlite3_bind_int64
#undef sqlite3_bind_null
#undef sqlite3_bind_text
#undef sqlite3_bind_pointer
#undef sqlite3_column_type
#undef sqlite3_column_bytes
#undef sqlite3_column_double
#undef sqlite3_column_int64
#undef sqlite3_column_text
#undef sqlite3_create_function_v2
#undef sqlite3_result_int
#undef sqlite3_result_text
#undef sqlite3_value_bytes
#undef sqlite3_value_int
#undef sqlite3_value_text
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// The SQLite functions oceq calls, looked up once.
struct oceq_sqlite3_api {
    int (*open_v2)(const char *filename, sqlite3 **db, int flags, const char *vfs);
    int (*close_v2)(sqlite3 *db);
    const char *(*errmsg)(sqlite3 *db);
    int (*extended_result_codes)(sqlite3 *db, int onoff);
    int (*exec)(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error);
    void (*free)(void *memory);
    int (*prepare_v3)(sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail);
    const char *(*sql)(sqlite3_stmt *statement);
    int (*step)(sqlite3_stmt *statement);
    int (*reset)(sqlite3_stmt *statement);
    int (*finalize)(sqlite3_stmt *statement);
    int (*clear_bindings)(sqlite3_stmt *statement);
    int (*bind_double)(sqlite3_stmt *statement, int index, double value);
    int (*bind_int64)(sqlite3_stmt *statement, int index, sqlite3_int64 value);
    int (*bind_null)(sqlite3_stmt *statement, int index);
    int (*bind_text)(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *));
    int (*bind_pointer)(sqlite3_stmt *statement, int index, void *pointer, const char *type, void (*destructor)(void *));
    int (*column_type)(sqlite3_stmt *statement, int column);
    int (*column_bytes)(sqlite3_stmt *statement, int column);
    double (*column_double)(sqlite3_stmt *statement, int column);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *statement, int column);
    const unsigned char *(*column_text)(sqlite3_stmt *statement, int column);
    int (*create_function_v2)(sqlite3 *db, const char *name, int arguments, int encoding, void *context, void (*function)(sqlite3_context *, int, sqlite3_value **), void (*step)(sqlite3_context *, int, sqlite3_value **), void (*final)(sqlite3_context *), void (*destroy)(void *));
    void (*result_int)(sqlite3_context *context, int value);
    void (*result_text)(sqlite3_context *context, const char *text, int bytes, void (*destructor)(void *));
    int (*value_bytes)(sqlite3_value *value);
    int (*value_int)(sqlite3_value *value);
    const unsigned char *(*value_text)(sqlite3_value *value);
};

static inline struct oceq_sqlite3_api *oceq_sqlite3_table(void) {
    static struct oceq_sqlite3_api table;
    return &table;
}

/// Looks `name` up in `library`; a missing function is an installation fault oceq cannot work around.
static inline void *oceq_sqlite3_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol) {
        fprintf(stderr, "oceq: libsqlite3.so.0 has no %s; reinstall libsqlite3-0\n", name);
        exit(127);
    }
    return symbol;
}

static void oceq_sqlite3_load(void) {
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "oceq: cannot open SQLite: %s (apt-get install libsqlite3-0)\n", dlerror());
        exit(127);
    }
    struct oceq_sqlite3_api *api = oceq_sqlite3_table();
    *(void **)&api->open_v2 = oceq_sqlite3_symbol(library, "sqlite3_open_v2");
    *(void **)&api->close_v2 = oceq_sqlite3_symbol(library, "sqlite3_close_v2");
    *(void **)&api->errmsg = oceq_sqlite3_symbol(library, "sqlite3_errmsg");
    *(void **)&api->extended_result_codes = oceq_sqlite3_symbol(library, "sqlite3_extended_result_codes");
    *(void **)&api->exec = oceq_sqlite3_symbol(library, "sqlite3_exec");
    *(void **)&api->free = oceq_sqlite3_symbol(library, "sqlite3_free");
    *(void **)&api->prepare_v3 = oceq_sqlite3_symbol(library, "sqlite3_prepare_v3");
    *(void **)&api->sql = oceq_sqlite3_symbol(library, "sqlite3_sql");
    *(void **)&api->step = oceq_sqlite3_symbol(library, "sqlite3_step");
    *(void **)&api->reset = oceq_sqlite3_symbol(library, "sqlite3_reset");
    *(void **)&api->finalize = oceq_sqlite3_symbol(library, "sqlite3_finalize");
    *(void **)&api->clear_bindings = oceq_sqlite3_symbol(library, "sqlite3_clear_bindings");
    *(void **)&api->bind_double = oceq_sqlite3_symbol(library, "sqlite3_bind_double");
    *(void **)&api->bind_int64 = oceq_sqlite3_symbol(library, "sqlite3_bind_int64");
    *(void **)&api->bind_null = oceq_sqlite3_symbol(library, "sqlite3_bind_null");
    *(void **)&api->bind_text = oceq_sqlite3_symbol(library, "sqlite3_bind_text");
    *(void **)&api->bind_pointer = oceq_sqlite3_symbol(library, "sqlite3_bind_pointer");
    *(void **)&api->column_type = oceq_sqlite3_symbol(library, "sqlite3_column_type");
    *(void **)&api->column_bytes = oceq_sqlite3_symbol(library, "sqlite3_column_bytes");
    *(void **)&api->column_double = oceq_sqlite3_symbol(library, "sqlite3_column_double");
    *(void **)&api->column_int64 = oceq_sqlite3_symbol(library, "sqlite3_column_int64");
    *(void **)&api->column_text = oceq_sqlite3_symbol(library, "sqlite3_column_text");
    *(void **)&api->create_function_v2 = oceq_sqlite3_symbol(library, "sqlite3_create_function_v2");
    *(void **)&api->result_int = oceq_sqlite3_symbol(library, "sqlite3_result_int");
    *(void **)&api->result_text = oceq_sqlite3_symbol(library, "sqlite3_result_text");
    *(void **)&api->value_bytes = oceq_sqlite3_symbol(library, "sqlite3_value_bytes");
    *(void **)&api->value_int = oceq_sqlite3_symbol(library, "sqlite3_value_int");
    *(void **)&api->value_text = oceq_sqlite3_symbol(library, "sqlite3_value_text");
}

/// The table, filled on the first call from any thread (SQLite is opened then).
static inline const struct oceq_sqlite3_api *oceq_sqlite3(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_sqlite3_load);
    return oceq_sqlite3_table();
}

static inline int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    return oceq_sqlite3()->open_v2(filename, db, flags, vfs);
}
static inline int sqlite3_close_v2(sqlite3 *db) { return oceq_sqlite3()->close_v2(db); }
static inline const char *sqlite3_errmsg(sqlite3 *db) { return oceq_sqlite3()->errmsg(db); }
static inline int sqlite3_extended_result_codes(sqlite3 *db, int onoff) {
    return oceq_sqlite3()->extended_result_codes(db, onoff);
}
static inline int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error) {
    return oceq_sqlite3()->exec(db, sql, callback, context, error);
}
static inline void sqlite3_free(void *memory) { oceq_sqlite3()->free(memory); }
static inline int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail) {
    return oceq_sqlite3()->prepare_v3(db, sql, bytes, flags, statement, tail);
}
static inline const char *sqlite3_sql(sqlite3_stmt *statement) { return oceq_sqlite3()->sql(statement); }
static inline int sqlite3_step(sqlite3_stmt *statement) { return oceq_sqlite3()->step(statement); }
static inline int sqlite3_reset(sqlite3_stmt *statement) { return oceq_sqlite3()->reset(statement); }
static inline int sqlite3_finalize(sqlite3_stmt *statement) { return oceq_sqlite3()->finalize(statement); }
static inline int sqlite3_clear_bindings(sqlite3_stmt *statement) { return oceq_sqlite3()->clear_bindings(statement); }
static inline int sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) {
    return oceq_sqlite3()->bind_double(statement, index, value);
}
static inline int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return oceq_sqlite3()->bind_int64(statement, index, value);
}
static inline int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return oceq_sqlite3()->bind_null(statement, index);
}
static inline int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)) {
    return oceq_sqlite3()->bind_text(statement, index, text, bytes, destructor);
}
static inline int sqlite3_bind_pointer(sqlite3_stmt *statement, int index, void *pointer, const char *type, void (*destructor)(void *)) {
    return oceq_sqlite3()->bind_pointer(statement, index, pointer, type, destructor);
}
static inline int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return oceq_sqlite3()->column_type(statement, column);
}
static inline int sqlite3_column_bytes(sqlite3_stmt *statement, int column) {
    return oceq_sqlite3()->column_bytes(statement, column);
}
static inline double sqlite3_column_double(sqlite3_stmt *statement, int column) {
    return oceq_sqlite3()->column_double(statement, column);
}
static inline sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return oceq_sqlite3()->column_int64(statement, column);
}
static inline const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return oceq_sqlite3()->column_text(statement, column);
}
static inline int sqlite3_create_function_v2(sqlite3 *db, const char *name, int arguments, int encoding, void *context, void (*function)(sqlite3_context *, int, sqlite3_value **), void (*step)(sqlite3_context *, int, sqlite3_value **), void (*final)(sqlite3_context *), void (*destroy)(void *)) {
    return oceq_sqlite3()->create_function_v2(db, name, arguments, encoding, context, function, step, final, destroy);
}
static inline void sqlite3_result_int(sqlite3_context *context, int value) {
    oceq_sqlite3()->result_int(context, value);
}
static inline void sqlite3_result_text(sqlite3_context *context, const char *text, int bytes, void (*destructor)(void *)) {
    oceq_sqlite3()->result_text(context, text, bytes, destructor);
}
static inline int sqlite3_value_bytes(sqlite3_value *value) { return oceq_sqlite3()->value_bytes(value); }
static inline int sqlite3_value_int(sqlite3_value *value) { return oceq_sqlite3()->value_int(value); }
static inline const unsigned char *sqlite3_value_text(sqlite3_value *value) {
    return oceq_sqlite3()->value_text(value);
}

/// Binds text that SQLite copies (SQLITE_TRANSIENT, a macro that casts -1 to a function pointer).
static inline int oceq_sqlite3_bind_text(sqlite3_stmt *s, int i, const char *t, int n) {
    return sqlite3_bind_text(s, i, t, n, SQLITE_TRANSIENT);
}

/// Returns text that SQLite copies (SQLITE_TRANSIENT) from a user function.
static inline void oceq_sqlite3_result_text(sqlite3_context *c, const char *t, int n) {
    sqlite3_result_text(c, t, n, SQLITE_TRANSIENT);
}
