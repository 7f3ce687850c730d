#!/bin/sh
# Build each program in examples/ against the built libc and run it on
# that libc.
#
# Usage: scripts/build/run-example.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load

mkdir -p build/examples
for c in examples/*.c; do
  name=$(basename "$c" .c)
  printf '==> example %s\n' "$name"
  scripts/build/cc-built-libc.sh -o "build/examples/$name" "$c" || exit 1
  "$obj/testrun.sh" "build/examples/$name" || exit 1
done
