// PostgreSQL's own C client (Debian: libpq-dev), as ../../Drivers/CLibPQ gives it to Core.
#include <libpq-fe.h>
