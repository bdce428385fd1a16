#ifndef SIGNUP_CPOSTGRES_H
#define SIGNUP_CPOSTGRES_H

#include <stddef.h>

/// The few libpq calls the PostgreSQL directory makes. libpq is loaded with dlopen on first use,
/// as libcurl is (CCurl.h): linking it would make every start of signup-rpc load libpq and the
/// TLS, Kerberos and LDAP libraries it links, which only `--store postgresql://…` needs.

/// Loads libpq.so.5 once; NULL when it is there, otherwise why not (a static string).
const char *signup_pq_load(void);

typedef struct signup_pq_connection signup_pq_connection;

/// Connects with a libpq connection string (a URI or key=value pairs; PG* environment variables
/// fill in what it leaves out). NULL on failure, with the reason in `error`.
signup_pq_connection *signup_pq_connect(const char *conninfo, char *error, size_t error_size);
void signup_pq_finish(signup_pq_connection *connection);
/// Whether the connection is still up, as far as libpq knows.
int signup_pq_is_ok(const signup_pq_connection *connection);

typedef struct {
    /// 0: done (rows, if any, below); 1: the statement failed (see sqlstate and error);
    /// 2: the connection failed or was lost.
    int outcome;
    int rows;
    int columns;
    /// rows × columns values, row by row, each a malloc'ed string or NULL for SQL NULL.
    char **values;
    /// The SQLSTATE of a failed statement, such as "23505" for a unique violation.
    char sqlstate[6];
    char error[256];
} signup_pq_result;

/// Runs one statement with text parameters ($1, $2, …) on the calling thread.
void signup_pq_exec(signup_pq_connection *connection, const char *sql, int parameter_count,
                    const char *const *parameters, signup_pq_result *result);
void signup_pq_result_free(signup_pq_result *result);

#endif
