#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <postgresql/libpq-fe.h>

static struct {
    PGconn *(*connectdb)(const char *);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*get_value)(const PGresult *, int, int);
    int (*get_is_null)(const PGresult *, int, int);
    void (*clear)(PGresult *);
} pq;

static const char *load_error = "libpq has not been loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define LOAD(handle, field, name) \
    do { \
        *(void **)(&pq.field) = dlsym(handle, name); \
        if (pq.field == NULL) { load_error = "libpq.so.5 lacks " name; return; } \
    } while (0)

static void load(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_error = "libpq.so.5 is not installed (Debian: apt-get install libpq5)";
        return;
    }
    LOAD(handle, connectdb, "PQconnectdb");
    LOAD(handle, status, "PQstatus");
    LOAD(handle, error_message, "PQerrorMessage");
    LOAD(handle, finish, "PQfinish");
    LOAD(handle, exec_params, "PQexecParams");
    LOAD(handle, result_status, "PQresultStatus");
    LOAD(handle, result_error_field, "PQresultErrorField");
    LOAD(handle, result_error_message, "PQresultErrorMessage");
    LOAD(handle, ntuples, "PQntuples");
    LOAD(handle, nfields, "PQnfields");
    LOAD(handle, get_value, "PQgetvalue");
    LOAD(handle, get_is_null, "PQgetisnull");
    LOAD(handle, clear, "PQclear");
    load_error = NULL;
}

const char *signup_pq_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

struct signup_pq_connection {
    PGconn *connection;
};

static void copy_message(char *destination, size_t size, const char *message) {
    if (size == 0) return;
    strncpy(destination, message ? message : "", size - 1);
    destination[size - 1] = '\0';
    /* libpq's messages end with a newline; the callers add their own context. */
    size_t length = strlen(destination);
    while (length > 0 && (destination[length - 1] == '\n' || destination[length - 1] == '\r')) destination[--length] = '\0';
}

signup_pq_connection *signup_pq_connect(const char *conninfo, char *error, size_t error_size) {
    const char *failure = signup_pq_load();
    if (failure != NULL) {
        copy_message(error, error_size, failure);
        return NULL;
    }
    PGconn *connection = pq.connectdb(conninfo);
    if (connection == NULL) {
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    if (pq.status(connection) != CONNECTION_OK) {
        copy_message(error, error_size, pq.error_message(connection));
        pq.finish(connection);
        return NULL;
    }
    signup_pq_connection *wrapper = malloc(sizeof *wrapper);
    if (wrapper == NULL) {
        pq.finish(connection);
        copy_message(error, error_size, "out of memory");
        return NULL;
    }
    wrapper->connection = connection;
    return wrapper;
}

void signup_pq_finish(signup_pq_connection *connection) {
    if (connection == NULL) return;
    pq.finish(connection->connection);
    free(connection);
}

int signup_pq_is_ok(const signup_pq_connection *connection) {
    return connection != NULL && pq.status(connection->connection) == CONNECTION_OK;
}

void signup_pq_exec(signup_pq_connection *connection, const char *sql, int parameter_count,
                    const char *const *parameters, signup_pq_result *result) {
    memset(result, 0, sizeof *result);
    PGresult *answer = pq.exec_params(connection->connection, sql, parameter_count, NULL, parameters, NULL, NULL, 0);
    ExecStatusType status = answer ? pq.result_status(answer) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
        int rows = pq.ntuples(answer), columns = pq.nfields(answer);
        result->rows = rows;
        result->columns = columns;
        if (rows > 0 && columns > 0) {
            result->values = calloc((size_t)rows * (size_t)columns, sizeof(char *));
            for (int row = 0; row < rows && result->values != NULL; row++) {
                for (int column = 0; column < columns; column++) {
                    if (!pq.get_is_null(answer, row, column)) {
                        result->values[row * columns + column] = strdup(pq.get_value(answer, row, column));
                    }
                }
            }
        }
        pq.clear(answer);
        return;
    }
    const char *state = answer ? pq.result_error_field(answer, PG_DIAG_SQLSTATE) : NULL;
    if (state != NULL) {
        strncpy(result->sqlstate, state, 5);
        result->sqlstate[5] = '\0';
    }
    /* A statement error leaves the connection usable; a lost connection does not. */
    result->outcome = pq.status(connection->connection) == CONNECTION_OK && state != NULL ? 1 : 2;
    copy_message(result->error, sizeof result->error,
                 answer ? pq.result_error_message(answer) : pq.error_message(connection->connection));
    if (answer) pq.clear(answer);
}

void signup_pq_result_free(signup_pq_result *result) {
    if (result->values != NULL) {
        for (int index = 0; index < result->rows * result->columns; index++) free(result->values[index]);
        free(result->values);
    }
    result->values = NULL;
}
