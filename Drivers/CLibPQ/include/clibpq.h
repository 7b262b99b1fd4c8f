// PostgreSQL's own C client, for Core/Storage/PostgreSQL: its declarations (Debian: libpq-dev at
// build time). The library itself (libpq5) is not linked but loaded on the first PostgreSQL
// connection (clibpq.c), so a process on SQLite maps none of libpq's twenty-odd libraries.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

/// Loads libpq once per process. 0 when it is ready; otherwise -1, with *error (when given) saying
/// why (the loader's message). Call it before any PQ function: they assume it returned 0.
int clibpq_load(const char *_Nullable *_Nullable error);
