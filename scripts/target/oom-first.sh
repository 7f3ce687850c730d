#!/bin/sh
# Run PROGRAM as the process the kernel's OOM killer ends first, before
# any other process of this machine: the test-wrapper of
# scripts/target/check-qemu-user.sh.  qemu-user accepts a program's setrlimit
# (RLIMIT_AS) but does not apply it, so a test that counts on that
# limit to stop it (tst-create-detached) grows until memory runs out.  The programs PROGRAM starts inherit the setting.  Where
# /proc cannot be written (a container), PROGRAM runs as it is.
#
# Usage: scripts/target/oom-first.sh PROGRAM [ARG...]
[ $# -gt 0 ] \
  || { echo 'usage: scripts/target/oom-first.sh PROGRAM [ARG...]' >&2; exit 2; }
{ echo 1000 > /proc/self/oom_score_adj; } 2> /dev/null
exec "$@"
