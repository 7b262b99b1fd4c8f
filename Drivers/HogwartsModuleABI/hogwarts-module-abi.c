#include "hogwarts_module_abi.h"

const hogwarts_module_block *hogwarts_host_magic(void) {
    static const hogwarts_module_block block = {
        HOGWARTS_MODULE_MAGIC, HOGWARTS_MODULE_CONTRACT, HOGWARTS_SDK_VERSION,
        HOGWARTS_TOOLCHAIN, HOGWARTS_BUILD_CONFIGURATION, HOGWARTS_BUILD_ARCHITECTURE, ""
    };
    return &block;
}
