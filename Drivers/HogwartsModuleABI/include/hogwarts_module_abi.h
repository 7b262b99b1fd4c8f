#ifndef HOGWARTS_MODULE_ABI_H
#define HOGWARTS_MODULE_ABI_H

/*
 * The handshake between the hogwarts host and a loadable module (a shared object in the host's
 * --modules-dir). Like PostgreSQL's PG_MODULE_MAGIC and nginx's module signature, the host reads
 * this plain C block before it touches any Swift type in the file, and refuses the file unless
 * every field matches its own. Swift has no stable ABI for this on Linux: the promise is only
 * "built with the same SDK release, module contract, toolchain and configuration".
 */

#include <stdint.h>

/* "HWMM": this is a Hogwarts module's block at all. */
#define HOGWARTS_MODULE_MAGIC 0x48574D4Du
/* The SDK release this header belongs to. */
#define HOGWARTS_SDK_VERSION "1.0.0"
/* Bumped whenever AppModule's requirements or the entry points change. */
#define HOGWARTS_MODULE_CONTRACT 1u

#if defined(DEBUG)
#define HOGWARTS_BUILD_CONFIGURATION "debug"
#else
#define HOGWARTS_BUILD_CONFIGURATION "release"
#endif

#if defined(__x86_64__)
#define HOGWARTS_BUILD_ARCHITECTURE "x86_64"
#elif defined(__aarch64__)
#define HOGWARTS_BUILD_ARCHITECTURE "aarch64"
#else
#define HOGWARTS_BUILD_ARCHITECTURE "other"
#endif

#if defined(__clang_version__)
#define HOGWARTS_TOOLCHAIN __clang_version__
#else
#define HOGWARTS_TOOLCHAIN "not the Swift toolchain's clang"
#endif

typedef struct hogwarts_module_block {
    uint32_t magic;
    uint32_t contract;
    const char *sdk_version;
    /* The toolchain's own identification (Swift's bundled clang names its exact build). */
    const char *toolchain;
    const char *configuration;
    const char *architecture;
    /* The id of the module the file provides, e.g. "reading". */
    const char *module_id;
} hogwarts_module_block;

/* The two entry points a loadable exports. */
#define HOGWARTS_MODULE_MAGIC_SYMBOL "hogwarts_module_magic"
#define HOGWARTS_MODULE_CREATE_SYMBOL "hogwarts_module_create"
typedef const hogwarts_module_block *(*hogwarts_module_magic_function)(void);
/* Returns a retained Core.LoadedModule (Unmanaged), called only after the block matched. */
typedef void *(*hogwarts_module_create_function)(void);

/* In one C file of a loadable module: defines hogwarts_module_magic with this header's values. */
#define HOGWARTS_DECLARE_MODULE(id)                                                             \
    __attribute__((visibility("default"))) const hogwarts_module_block *hogwarts_module_magic(void) { \
        static const hogwarts_module_block block = {                                            \
            HOGWARTS_MODULE_MAGIC, HOGWARTS_MODULE_CONTRACT, HOGWARTS_SDK_VERSION,              \
            HOGWARTS_TOOLCHAIN, HOGWARTS_BUILD_CONFIGURATION, HOGWARTS_BUILD_ARCHITECTURE, (id)  \
        };                                                                                      \
        return &block;                                                                          \
    }

/* The host's own block, compiled into the host from this same header: what a loadable must match. */
const hogwarts_module_block *hogwarts_host_magic(void);

#endif
