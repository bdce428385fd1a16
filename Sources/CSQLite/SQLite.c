#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// The functions the store calls, looked up once in libsqlite3.so.0.
static struct {
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close)(sqlite3 *);
    int (*close_v2)(sqlite3 *);
    const char *(*errmsg)(sqlite3 *);
    int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    void (*free)(void *);
    int (*extended_result_codes)(sqlite3 *, int);
    int (*busy_timeout)(sqlite3 *, int);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*step)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
    int (*bind_null)(sqlite3_stmt *, int);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*column_count)(sqlite3_stmt *);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    int (*column_type)(sqlite3_stmt *, int);
} library;

static const char *problem = NULL;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define FIND(member, symbol) \
    if ((*(void **)&library.member = dlsym(handle, #symbol)) == NULL) { \
        problem = "libsqlite3.so.0 lacks " #symbol " (Debian: apt-get install libsqlite3-0)"; \
        return; \
    }

static void load(void) {
    void *handle = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        problem = "SQLite is not installed (Debian: apt-get install libsqlite3-0)";
        return;
    }
    FIND(open_v2, sqlite3_open_v2) FIND(close, sqlite3_close) FIND(close_v2, sqlite3_close_v2) FIND(errmsg, sqlite3_errmsg)
    FIND(exec, sqlite3_exec) FIND(free, sqlite3_free) FIND(extended_result_codes, sqlite3_extended_result_codes)
    FIND(busy_timeout, sqlite3_busy_timeout) FIND(prepare_v2, sqlite3_prepare_v2) FIND(step, sqlite3_step)
    FIND(finalize, sqlite3_finalize) FIND(bind_int64, sqlite3_bind_int64) FIND(bind_null, sqlite3_bind_null)
    FIND(bind_text, sqlite3_bind_text) FIND(column_count, sqlite3_column_count) FIND(column_int64, sqlite3_column_int64)
    FIND(column_text, sqlite3_column_text) FIND(column_type, sqlite3_column_type)
}

const char *signup_sqlite_problem(void) {
    pthread_once(&load_once, load);
    return problem;
}

// Opening loads the library; without it there is no connection, so the other calls are only
// ever made once it is loaded.
int sqlite3_open_v2(const char *filename, sqlite3 **database, int flags, const char *vfs) {
    if (signup_sqlite_problem() != NULL) {
        *database = NULL;
        return SQLITE_CANTOPEN;
    }
    return library.open_v2(filename, database, flags, vfs);
}

int sqlite3_close(sqlite3 *database) { return database == NULL ? SQLITE_OK : library.close(database); }
int sqlite3_close_v2(sqlite3 *database) { return database == NULL ? SQLITE_OK : library.close_v2(database); }
const char *sqlite3_errmsg(sqlite3 *database) {
    if (signup_sqlite_problem() != NULL) return signup_sqlite_problem();
    return library.errmsg(database);
}
int sqlite3_exec(sqlite3 *database, const char *sql, int (*callback)(void *, int, char **, char **), void *argument, char **error) {
    return library.exec(database, sql, callback, argument, error);
}
void sqlite3_free(void *pointer) { if (pointer != NULL) library.free(pointer); }
int sqlite3_extended_result_codes(sqlite3 *database, int on) { return library.extended_result_codes(database, on); }
int sqlite3_busy_timeout(sqlite3 *database, int milliseconds) { return library.busy_timeout(database, milliseconds); }
int sqlite3_prepare_v2(sqlite3 *database, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail) {
    return library.prepare_v2(database, sql, bytes, statement, tail);
}
int sqlite3_step(sqlite3_stmt *statement) { return library.step(statement); }
int sqlite3_finalize(sqlite3_stmt *statement) { return statement == NULL ? SQLITE_OK : library.finalize(statement); }
int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) { return library.bind_int64(statement, index, value); }
int sqlite3_bind_null(sqlite3_stmt *statement, int index) { return library.bind_null(statement, index); }
int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)) {
    return library.bind_text(statement, index, text, bytes, destructor);
}
int sqlite3_column_count(sqlite3_stmt *statement) { return library.column_count(statement); }
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) { return library.column_int64(statement, column); }
const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) { return library.column_text(statement, column); }
int sqlite3_column_type(sqlite3_stmt *statement, int column) { return library.column_type(statement, column); }
