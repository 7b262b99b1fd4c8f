// PostgreSQL's own C client (Debian: libpq-dev), for Core/Storage/PostgreSQL.
#include <libpq-fe.h>
