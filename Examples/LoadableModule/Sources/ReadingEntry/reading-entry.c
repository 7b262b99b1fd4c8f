#include <hogwarts_module_abi.h>

/* The handshake block, with the SDK header's values as this file was compiled. */
HOGWARTS_DECLARE_MODULE("reading")
