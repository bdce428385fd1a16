#ifndef SIGNUP_CSQLITE_H
#define SIGNUP_CSQLITE_H

// SQLite's C API as sqlite3.h declares it (Debian's libsqlite3-dev, needed to build). The
// library itself, libsqlite3.so.0, is loaded on first use (SQLite.c defines the functions the
// store calls, each forwarding to the library's), so a process that never opens an SQLite store
// starts without it.
#include <sqlite3.h>

/// Why SQLite cannot be loaded, naming what to install; NULL when it can (or was not asked yet).
const char *signup_sqlite_problem(void);

#endif
