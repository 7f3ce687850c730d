#!/bin/sh
# Copy what a test loads from the system, as on any machine with a
# compiler's runtime installed, into ROOT, a root directory for the
# programs of ABI's built libc: the compiler's own libgcc_s
# (pthread_cancel unwinds with it) and libstdc++ (the C++ tests), in
# every directory of the built ld.so's search path.
#
# Usage: [ABI=...] scripts/target/copy-compiler-runtime.sh ROOT
set -u
root=${1:?usage: scripts/target/copy-compiler-runtime.sh ROOT}
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load

dirs=$(strings -n 4 "$obj/elf/ld.so" \
       | grep -E '^/(usr/)?lib[^/]*/([^/]+/)?$' | sort -u)
[ -n "$dirs" ] || die "cannot read the search path of $obj/elf/ld.so"
for lib in libgcc_s.so.1 libstdc++.so.6; do
  # shellcheck disable=SC2086
  path=$(${compiler}gcc $cflags -print-file-name=$lib)
  [ -f "$path" ] || die "the compiler has no $lib"
  for d in $dirs; do
    mkdir -p "$root$d" && cp -L "$path" "$root$d" || exit 1
  done
done
