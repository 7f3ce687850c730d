# Sourced after scripts/lib/abi.sh by the scripts that configure, build
# or test in the object directory $obj: hold its lock, build/obj...lock,
# until the script ends, or say who has it and exit 1.  Two runs in one
# object directory (make check-target for two kernels of an ABI, or make
# check beside it) would build over each other and mix the results of
# their tests, which glibc writes there.  A script started under the
# lock (CHECK_OBJ_LOCK names $obj) has it already.  The lock is an open
# descriptor, 9, which the scripts hold, and not the long runs they
# start: glibc's make and its tests run through scripts/lib/fresh-process.py,
# which closes it, and a guest is started with 9>&-.  So the scripts
# stop what they started when they are interrupted (INT, TERM); a
# script killed outright leaves its make running without the lock.
# shellcheck shell=sh
# $obj: abi_load's (scripts/lib/abi.sh).
# shellcheck disable=SC2154
if [ "${CHECK_OBJ_LOCK-}" != "$obj" ]; then
  mkdir -p "$(dirname "$obj")"
  exec 9> "$obj.lock"
  if ! flock -n 9; then
    printf '%s: %s is in use by another build or test run (%s.lock);' \
      "$(basename "$0")" "$obj" "$obj" >&2
    printf ' run one at a time\n' >&2
    exit 1
  fi
  CHECK_OBJ_LOCK=$obj
  export CHECK_OBJ_LOCK
fi
