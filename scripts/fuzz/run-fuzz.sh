#!/bin/sh
# Differential fuzzing of posix_spawn, long (make fuzz): build
# tests/spawn-fuzz.c against the built libc of $ABI, and copy that libc
# and its dynamic loader to build/fuzz$suffix/lib, both under the lock
# of the object directory (scripts/lib/lock-obj.sh); the run then needs
# nothing of the object directory, so a rebuild there does not change
# the libc under it.  Run CASES cases of SEED (without SEED, a new one
# from the clock) on that copy, its output in build/fuzz$suffix/fuzz.log
# too, and write results/fuzz.md: the seed, the cases run per method,
# the run time, each kind of difference the fuzzer found with its count,
# and the first failures with the command that reproduces each, under
# the day, the checkout and the series.  tests/spawn-fuzz.c says what a
# case is and when it fails.  A fuzzer that a signal or its hang timer
# ended leaves its cgroup and scratch directory, which its log names:
# they are removed.  Exits 1 if the fuzzer failed, 0 if it passed or
# could run only some of its cases (UNSUPPORTED: no cgroup v2 to write,
# say).
#
# Usage: [ABI=i686] scripts/fuzz/run-fuzz.sh CASES [SEED]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/series.sh

cases=${1-}
seed=${2-}
case $cases in
  '' | *[!0-9]* | 0) die "usage: make fuzz N=CASES [SEED=N]" ;;
esac
[ -n "$seed" ] || seed=$(date +%s)
case $seed in
  *[!0-9]*) die "SEED=$seed: a number" ;;
esac
[ -f "$obj/libc.so" ] \
  || die "no libc built in $obj: make libc${suffix} first"

dir=build/fuzz$suffix
mkdir -p "$dir/lib"
(
  . scripts/lib/lock-obj.sh
  scripts/build/cc-built-libc.sh -o "$dir/spawn-fuzz" tests/spawn-fuzz.c \
    && cp "$obj/libc.so" "$dir/lib/libc.so.6" \
    && cp "$obj/elf/ld.so" "$dir/lib/ld.so"
) || exit 1

# The results say what the checkout was when the run began.
provenance=$(results_provenance)
began=$(date +%s)
log=$dir/fuzz.log
: > "$log"

# What a fuzzer that did not reach its end left behind, as its log
# names it.
leftovers_remove ()
{
  grep -q '^spawn-fuzz: seed ' "$log" && return 0
  scratch=$(sed -n 's/^info: scratch directory //p' "$log")
  [ -z "$scratch" ] || rm -rf -- "$scratch"
  cgroup=$(sed -n 's|^info: cgroup: cases spawn into \(.*\)/a (.*|\1|p' \
    "$log")
  [ -n "$cgroup" ] && [ -d "$cgroup" ] || return 0
  # Its children may still be there: cgroup.kill (Linux 5.14) kills
  # the whole subtree, and then the directories go, the deepest first.
  [ ! -e "$cgroup/cgroup.kill" ] \
    || echo 1 > "$cgroup/cgroup.kill" 2>/dev/null || :
  sleep 1
  find "$cgroup" -depth -type d -exec rmdir {} + \
    || printf 'run-fuzz: cannot remove %s\n' "$cgroup" >&2
}
trap 'leftovers_remove; exit 130' INT TERM
printf '==> fuzz%s: %s cases of seed %s\n' "$suffix" "$cases" "$seed"
{
  "$dir/lib/ld.so" --library-path "$(pwd -P)/$dir/lib" "$dir/spawn-fuzz" \
    --seed "$seed" --cases "$cases" 2>&1
  echo $? > "$dir/status"
} | tee "$log"
status=$(cat "$dir/status")
took=$(minutes $(($(date +%s) - began)))
trap - INT TERM
leftovers_remove

mkdir -p results
{
  printf '# make fuzz\n\nWritten by scripts/fuzz/run-fuzz.sh: the differential'
  printf ' fuzzer of posix_spawn (tests/spawn-fuzz.c) on the %s libc, run' \
    "$abi_abi"
  printf ' %s, in %s of wall time on %s CPUs (Linux %s); exit status %s.\n\n' \
    "$(printf '%s\n' "$provenance" \
       | sed 's/^\([^|]*\) | \([^|]*\) | /on \1 from checkout \2, series /')" \
    "$took" "$(nproc)" "$(uname -r)" "$status"
  printf 'Each case runs through every method below; the reference forks'
  printf ' and takes\nglibc'"'"'s steps by hand.  Case K of the seed runs'
  printf ' again, on the\nsame copy of the libc, with\n\n'
  printf '    %s/lib/ld.so --library-path %s/lib %s/spawn-fuzz --seed %s --case K\n\n' \
    "$dir" "$dir" "$dir" "$seed"
  printf '```\n'
  grep -E '^(spawn-fuzz:|difference:|unsupported:)' "$log"
  printf '```\n'
  if grep -q -E '^FAIL:' "$log"; then
    printf '\nThe first failures:\n\n```\n'
    grep -E '^FAIL:' "$log" | head -n 40
    printf '```\n'
  fi
} > results/fuzz.md
case $status in
  0 | 77) exit 0 ;;
  *) exit 1 ;;
esac
