#!/bin/sh
# Run make check-target for each cell, one at a time: each ABI of
# abis.table but the ports on the kernel of each of its suites (x86_64
# and i686 on Debian 11, 12 and 13's; x32 on Debian 12's, with its x32
# system calls turned on), each cell's row of results/check-target.md
# written as it ends; then print that table.  A cell is ABI:SUITE.
# Each cell's output is in build/logs/check-target-ABI-SUITE.log.  A
# cell that takes more than CELL_LIMIT seconds (3600 by default: a cell
# must finish well within an hour) is stopped and counts as failed.
# Exits 1 if anything failed.
#
# Usage: [CELL_LIMIT=SECONDS] scripts/target/check-target-all.sh [CELL...]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
. scripts/lib/series.sh
if [ $# -eq 0 ]; then
  # shellcheck disable=SC2046
  set -- $(abi_rows | awk -F '|' '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["kind"] != "port" && $c["suites"] != "-" {
      n = split ($c["suites"], s, ",")
      for (j = 1; j <= n; j++) print $1 ":" s[j]
    }')
fi

mkdir -p build/logs
status=0
for cell in "$@"; do
  abi=${cell%%:*} suite=
  case $cell in *:*) suite=${cell#*:} ;; esac
  log=build/logs/check-target-$abi-${suite:-default}.log
  printf '=== %s on %s\n' "$abi" "${suite:-its default kernel}"
  # timeout runs the cell in a process group of its own, which an
  # interrupt here does not reach: it is passed on.
  ABI=$abi timeout --kill-after=60 "${CELL_LIMIT:-3600}" \
    scripts/target/check-target.sh "" "$suite" > "$log" 2>&1 &
  cell_pid=$!
  trap 'kill -TERM $cell_pid 2> /dev/null; wait $cell_pid; exit 130' \
    INT TERM HUP
  wait $cell_pid
  rc=$?
  trap - INT TERM HUP
  case $rc in
    0) ;;
    124|137) status=1
	     echo "check-target-all: stopped after ${CELL_LIMIT:-3600} s" \
	       >> "$log" ;;
    *) status=1 ;;
  esac
  tail -n 2 "$log"
done
echo
# The table's keys are "ABI | SUITE".
keys=
for cell in "$@"; do
  keys="$keys${keys:+
}$(printf '%s\n' "$cell" | sed 's/:/ | /')"
done
(IFS='
'
# shellcheck disable=SC2086
results_rows check-target.md $keys)
exit $status
