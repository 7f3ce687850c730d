#!/bin/sh
# Cross-build each ABI in turn (scripts/target/cross-build.sh, one at a
# time: each uses all cores) and run its clone3 paths on its kernel
# under qemu-system (scripts/target/check-wrapper.sh), each ABI's row of
# results/cross.md written as it ends; then print that table.  Each
# ABI's output is in build/logs/cross-ABI.log.  Exits 1 if anything
# failed.
#
# Usage: scripts/target/cross-all.sh [ABI...]
#   (default: the release ABIs of abis.table)
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
. scripts/lib/series.sh
# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(abi_list kind=release)

mkdir -p build/logs
status=0
for abi in "$@"; do
  printf '=== %s\n' "$abi"
  ABI=$abi CHECK_WRAPPER=yes scripts/target/cross-build.sh "" \
    > "build/logs/cross-$abi.log" 2>&1 || status=1
  tail -n 2 "build/logs/cross-$abi.log"
done
echo
results_rows cross.md "$@"
exit $status
