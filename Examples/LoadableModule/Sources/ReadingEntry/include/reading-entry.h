/* ReadingEntry exports only hogwarts_module_magic, declared in <hogwarts_module_abi.h>. */
