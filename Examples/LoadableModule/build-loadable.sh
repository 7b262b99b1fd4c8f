#!/bin/sh
# Builds the Reading module as a shared object for the host's modules folder.
#
# SwiftPM compiles the module against the SDK (this package depends on Hogwarts by path). The
# shared object is then linked from this package's own objects only: the kernel's symbols stay
# unresolved and bind to the host's one copy when it loads the file, the way a PostgreSQL
# extension binds to postgres. The host exports them (-Xlinker --export-dynamic).
#
# Usage: ./build-loadable.sh OUTPUT.so [swift build options, e.g. --scratch-path DIR]
set -eu
output=$(realpath -m "${1:?usage: build-loadable.sh OUTPUT.so [swift build options]}")
shift
mkdir -p "$(dirname "$output")"
cd "$(dirname "$0")"
swift build --target ReadingEntry "$@"
swift build --target Reading "$@"
bin=$(swift build --show-bin-path "$@")
swiftc -emit-library -o "$output" "$bin"/Reading.build/*.o "$bin"/ReadingEntry.build/*.o
