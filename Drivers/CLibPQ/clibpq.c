// libpq's functions that the platform uses, defined here under their own names and forwarded to
// the library loaded with dlopen: linking libpq would load it, and with it Kerberos, LDAP, GnuTLS
// and the rest (about 22 shared libraries, ~10 ms), into every process, SQLite ones included.
#include "clibpq.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// X(return type, name, parameters, arguments) for each function; VOID_X for those returning nothing.
#define CLIBPQ_FUNCTIONS(X, VOID_X) \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    VOID_X(PQfinish, (PGconn *conn), (conn)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
      const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQdescribePrepared, (PGconn *conn, const char *stmt), (conn, stmt)) \
    X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query)) \
    X(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
      const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(int, PQisBusy, (PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    X(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQnparams, (const PGresult *res), (res)) \
    X(Oid, PQparamtype, (const PGresult *res, int param_num), (res, param_num)) \
    VOID_X(PQclear, (PGresult *res), (res)) \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn)) \
    VOID_X(PQfreemem, (void *ptr), (ptr))

#define CLIBPQ_POINTER(type, name, parameters, arguments) static type (*loaded_##name) parameters;
#define CLIBPQ_VOID_POINTER(name, parameters, arguments) static void (*loaded_##name) parameters;
CLIBPQ_FUNCTIONS(CLIBPQ_POINTER, CLIBPQ_VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    // The run-time library's names: Debian's libpq5, then macOS (Homebrew's keg is not on the path).
    static const char *const candidates[] = {
        "libpq.so.5", "libpq.so", "libpq.5.dylib",
        "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
    };
    void *library = NULL;
    for (size_t index = 0; index < sizeof candidates / sizeof candidates[0] && library == NULL; index++) {
        library = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libpq.so.5: %s", why != NULL ? why : "not found");
        return;
    }
#define CLIBPQ_RESOLVE(name) \
    *(void **)(&loaded_##name) = dlsym(library, #name); \
    if (loaded_##name == NULL) { snprintf(failure, sizeof failure, "libpq has no %s (too old)", #name); return; }
#define CLIBPQ_RESOLVE_TYPED(type, name, parameters, arguments) CLIBPQ_RESOLVE(name)
#define CLIBPQ_RESOLVE_VOID(name, parameters, arguments) CLIBPQ_RESOLVE(name)
    CLIBPQ_FUNCTIONS(CLIBPQ_RESOLVE_TYPED, CLIBPQ_RESOLVE_VOID)
}

int clibpq_load(const char **error) {
    pthread_once(&once, load);
    if (failure[0] == '\0') return 0;
    if (error != NULL) *error = failure;
    return -1;
}

// A PQ function called without a successful clibpq_load is a programming error: say so and stop,
// rather than jump through a null pointer.
static void require_loaded(const char *name) {
    if (clibpq_load(NULL) == 0) return;
    fprintf(stderr, "hogwarts: %s called but libpq could not be loaded: %s\n", name, failure);
    abort();
}

#define CLIBPQ_DEFINE(type, name, parameters, arguments) \
    type name parameters { require_loaded(#name); return loaded_##name arguments; }
#define CLIBPQ_DEFINE_VOID(name, parameters, arguments) \
    void name parameters { require_loaded(#name); loaded_##name arguments; }
CLIBPQ_FUNCTIONS(CLIBPQ_DEFINE, CLIBPQ_DEFINE_VOID)
