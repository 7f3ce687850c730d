#!/bin/sh
# glibc's test-wrapper for make check-container (scripts/container/
# check-container.sh): run COMMAND in the long-running container of
# RUNTIME (scripts/container/container.sh) with "podman exec" or
# "docker exec", in the same directory (the checkout is mounted there
# at the same path), with standard input, output and error passed
# through and its exit status as ours, as glibc's cross-test-ssh.sh
# would on a machine where the same user has the same home: HOME, USER,
# LOGNAME and TIMEOUTFACTOR are passed on, the rest of the environment
# is the container's (glibc passes a test's own on the command line,
# through env).  When it is stopped by a signal (make's, or timeout's),
# it kills what the command still runs in the container (its process
# group: the exec makes it a session leader), and exits with status
# 125, as it does when the container does not take the command.
#
# Usage: make test-wrapper='ABSPATH/scripts/container/exec-wrapper.sh RUNTIME' ...
#        scripts/container/exec-wrapper.sh RUNTIME COMMAND...
set -u
# Not the lock of the object directory (scripts/lib/lock-obj.sh): a
# client of the engine may leave a process behind that would hold it.
exec 9>&-
rt=${1-}
shift
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=scripts/lib/common.sh
. "$top/scripts/lib/common.sh"
# shellcheck source=scripts/container/runtime.sh
. "$top/scripts/container/runtime.sh"

# The command's PID in the container, written there by the shell that
# then becomes the command.
pidfile=$(mktemp "$spool/pid.XXXXXXXX") || exit 125

# kill_command: kill the command's process group, then the command.
kill_command ()
{
  trap '' INT TERM HUP
  "$cli" exec "$box" sh -c \
    'pid=$(cat "$1") && { kill -s KILL -- "-$pid"; kill -s KILL "$pid"; }' \
    sh "$pidfile" > /dev/null 2>&1
  rm -f "$pidfile"
  printf 'exec-wrapper: stopped by a signal; killed in %s: %s\n' "$box" \
    "$command" >&2
  exit 125
}

command=$*

set -- "$box" sh -c 'echo $$ > "$1" && shift && exec "$@"' sh "$pidfile" "$@"
for v in HOME USER LOGNAME TIMEOUTFACTOR; do
  eval "[ -z \"\${$v-}\" ]" || set -- -e "$v" "$@"
done
set -- exec -i -w "$(pwd -P)" "$@"
# In the background, to take signals while it runs; standard input is
# ours, not /dev/null.
exec 3<&0
"$cli" "$@" <&3 3<&- &
client=$!
exec 3<&-
trap kill_command INT TERM HUP
wait "$client"
status=$?
rm -f "$pidfile"
exit "$status"
