#!/bin/busybox sh
# shellcheck shell=dash
# /init of the guest that make check-target boots (scripts/target/check-target.sh),
# with busybox as its userland: mount what a glibc test expects (proc,
# sysfs, devtmpfs, devpts, /dev/shm, /tmp, cgroup2 at /sys/fs/cgroup),
# mount the checkout, shared by qemu over 9p as "top", at its path on
# the build machine, then run the commands scripts/target/guest-test-wrapper.sh
# leaves in the spool directory, several at a time, as the host names
# them on a virtio serial port, until it says "stop"; "kill NAME" kills
# what the command NAME still runs (every process of its session), for
# a wrapper that gave up on it.  The kernel passes
# check_top, check_spool and check_tmpfs (the paths) from its command
# line.
# check_top and check_spool come from the kernel's command line:
# shellcheck disable=SC2154
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
# glibc's testrun.sh, which runs the application tests, is a bash script
# that ash runs as well.  busybox has no applet named bash.
printf '#!/bin/sh\nexec /bin/sh "$@"\n' > /bin/bash
chmod +x /bin/bash

fail ()
{
  echo "guest-init: $*"
  poweroff -f
}

mount -t proc proc /proc || fail "cannot mount /proc"
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
# The links a Debian system has in /dev (udev makes them): Linux 5.10
# fails execveat with a directory descriptor or AT_EMPTY_PATH (ENOENT)
# without /dev/fd, and so glibc's tst-execveat and tst-fexecve.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup || fail "cannot mount cgroup2"
# 9p and its virtio transport, the virtio transport of the machine and
# virtio's serial ports, where the kernel has them as modules.
depmod
for m in virtio_pci virtio_mmio virtio_ccw virtio_console 9pnet_virtio 9p; do
  modprobe -q "$m"
done
mkdir -p "$check_top"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=mmap top \
  "$check_top" || fail "cannot mount the checkout over 9p"
# Directories of the checkout that must be the guest's own (check_tmpfs,
# separated by commas): see scripts/target/check-target.sh.
for d in $(echo "${check_tmpfs-}" | tr , ' '); do
  mkdir -p "$d" && mount -t tmpfs tmpfs "$d" || fail "cannot mount $d"
done
# The command channel: the serial port named check.commands, on which
# the host writes the name of each command file in the spool, then
# "stop".  Reading it blocks: no polling, which costs much under
# emulation (a readdir over 9p took 0.3 s).
# The driver names its ports a moment after it loads: look for 10 s.
port=
i=0
while [ -z "$port" ] && [ $i -lt 100 ]; do
  for name in /sys/class/virtio-ports/*/name; do
    [ "$(cat "$name" 2> /dev/null)" = check.commands ] \
      && [ -e "/dev/$(basename "$(dirname "$name")")" ] \
      && port=/dev/$(basename "$(dirname "$name")")
  done
  [ -n "$port" ] || sleep 0.1
  i=$((i + 1))
done
[ -n "$port" ] || fail "no virtio serial port named check.commands"
exec 3< "$port" || fail "cannot open $port"
cd "$check_spool" || fail "no spool directory $check_spool"
uname -r > ready.tmp && mv ready.tmp ready
echo "guest-init: serving $check_spool"

# Each command runs in a subshell of its own, which sources its file
# (it ends in exec), without the port's descriptor; its exit status is
# written in one write, so the host reads it whole once the file is not
# empty.  Not as an asynchronous list (&): a shell without job control
# starts those with SIGINT and SIGQUIT ignored, which a test would
# inherit.  setsid, run by setsid, is a process group leader, so it
# forks and its parent returns at once (busybox's setsid does so); the
# command then runs in a session of its own, whose ID its shell writes
# to NAME.sid for "kill NAME".
# glibc's test driver puts each test in a process group of its own, but
# not in a session of its own: "kill NAME" kills the session.
kill_command ()
{
  name=$1
  # The command may not have started yet: its .sid comes first.
  i=0
  while [ ! -s "$name.sid" ] && [ ! -f "$name.rc" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  sid=$(cat "$name.sid" 2> /dev/null)
  # Ended (and its session ID free for another): nothing to kill.
  if [ -f "$name.rc" ] || [ -z "$sid" ]; then
    echo "guest-init: $name is not running"
    return
  fi
  # Again, for what forked meanwhile; the killed stay until reaped.
  killed=
  for _ in 1 2 3; do
    for stat in /proc/[0-9]*/stat; do
      line=$(cat "$stat" 2> /dev/null) || continue
      # The fields after the command name: state ppid pgrp session.
      set -- ${line##*) }
      [ "${4-}" = "$sid" ] && [ "$1" != Z ] || continue
      pid=${stat#/proc/}
      pid=${pid%/stat}
      kill -KILL "$pid" 2> /dev/null && killed="$killed $pid"
    done
  done
  echo "guest-init: killed the session $sid of $name (PIDs$killed)"
}
while read -r id <&3 && [ "$id" != stop ]; do
  case $id in
    cmd.*/*|"kill cmd."*/*)
      echo "guest-init: ignored a bad command name: $id"; continue ;;
    cmd.*) ;;
    "kill cmd."*) kill_command "${id#kill }"; continue ;;
    *) echo "guest-init: ignored a bad command name: $id"; continue ;;
  esac
  setsid setsid sh -c 'read -r l < /proc/$$/stat; set -- "$1" ${l##*) }
                       echo "$5" > "$1.sid"
                       ( . "./$1.cmd" ) < "$1.in" > "$1.out" 2> "$1.err"
                       echo $? > "$1.rc"' sh "$id" 3<&-
  # Collect the commands that ended, and whatever else was left to init.
  jobs > /dev/null
done
echo "guest-init: stopping"
poweroff -f
