#!/bin/sh
# glibc's test-wrapper for make check-target (scripts/target/check-target.sh):
# run COMMAND in the guest that scripts/target/guest-init.sh serves, in the same
# directory (the checkout is shared with the guest at the same path),
# with standard input, output and error passed through and its exit
# status as ours, as glibc's cross-test-ssh.sh would on a machine
# where the same user has the same home.  The command is written, quoted
# as cross-test-ssh.sh quotes it, to a file in SPOOL whose name goes to
# the guest through the pipe SPOOL/channel.in (a virtio serial port
# there); TIMEOUTFACTOR is passed on.  Fails with status 125 if the
# guest is gone, or gives no exit status in TARGET_WRAPPER_LIMIT seconds
# (3600 by default); then, or when it is stopped by a signal (make's
# or timeout's), it has the guest kill what the command still runs.
#
# Usage: make test-wrapper='ABSPATH/scripts/target/guest-test-wrapper.sh SPOOL' ...
set -u
spool=${1:?usage: guest-test-wrapper.sh SPOOL COMMAND...}
shift

# quote ARG...: each ARG in single quotes, for sh.
quote ()
{
  for arg; do
    printf "'%s' " "$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")"
  done
}

base=$(mktemp "$spool/cmd.XXXXXXXX") || exit 125
qemu=$(cat "$spool/qemu.pid")

# guest_alive: whether qemu still runs (its ID, not yet taken by another
# process: a guest that panicked must not look alive).
guest_alive ()
{
  case $(cat "/proc/$qemu/comm" 2> /dev/null) in
    qemu-system-*) return 0 ;;
    *) return 1 ;;
  esac
}

# fail MESSAGE: the command cannot run; forget it.
fail ()
{
  echo "guest-test-wrapper: $*" >&2
  rm -f "$base" "$base".*
  exit 125
}

# stop MESSAGE: the command runs, but we give up on it: the guest kills
# what still runs of it.  Its files stay in the spool (the guest reads
# its .sid after this), which the next make check-target removes.
stop ()
{
  trap '' INT TERM HUP
  echo "guest-test-wrapper: $*" >&2
  timeout 10 sh -c 'printf "%s\n" "$1" > "$2"' sh \
    "kill $(basename "$base")" "$spool/channel.in" 2> /dev/null
  exit 125
}

# The guest reads the file only once it has its name: no rename needed.
{
  # The physical path: the guest mounts the checkout at that one.
  printf 'cd %s || exit 125\n' "$(quote "$(pwd -P)")"
  # What a login over ssh, as the same user, would set.
  for v in HOME USER LOGNAME; do
    eval "value=\${$v-}"
    [ -n "$value" ] && printf 'export %s=%s\n' "$v" "$(quote "$value")"
  done
  [ -n "${TIMEOUTFACTOR-}" ] \
    && printf 'export TIMEOUTFACTOR=%s\n' "$(quote "$TIMEOUTFACTOR")"
  printf 'exec %s\n' "$(quote "$@")"
} > "$base.cmd"
if [ -t 0 ]; then
  : > "$base.in"
else
  cat > "$base.in"
fi
# One short line: the write is atomic, whoever else writes.  Opening
# the pipe waits for a reader: qemu, unless it is gone.
guest_alive || fail "the guest is gone (qemu exited)"
timeout 60 sh -c 'printf "%s\n" "$1" > "$2"' sh "$(basename "$base")" \
  "$spool/channel.in" || fail "the guest does not take commands"
trap 'stop "stopped by a signal"' INT TERM HUP

# A test bounds its own time (glibc's test driver kills it after its
# timeout); this bounds a guest that stopped answering while qemu runs.
limit=${TARGET_WRAPPER_LIMIT:-3600}
deadline=$(($(date +%s) + limit))
i=0
while [ ! -s "$base.rc" ]; do
  guest_alive || fail "the guest is gone (qemu exited)"
  i=$((i + 1))
  [ $((i % 100)) -ne 0 ] || [ "$(date +%s)" -lt "$deadline" ] \
    || stop "no exit status from the guest after $limit s"
  sleep 0.05
done
cat "$base.out"
cat "$base.err" >&2
status=$(cat "$base.rc")
rm -f "$base" "$base".*
exit "${status:-125}"
