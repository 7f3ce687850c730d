#!/bin/sh
# The container engine of RUNTIME (podman or docker, Debian 12's):
#
#   start   install its packages where they are missing
#           (scripts/build/install-deps.sh); for
#           docker, start dockerd where no engine answers: as root,
#           without the iptables rules and the bridge it would make
#           (containers run with --network=none), its log in
#           build/logs/dockerd.log, its PID in build/container/
#           dockerd.pid.  podman has no engine to start.
#   stop    stop the dockerd that start started, if any; an engine
#           that ran before is left running.
#
# Usage: scripts/container/engine.sh podman|docker start|stop
set -u
. scripts/lib/common.sh
rt=${1-}
action=${2-}
. scripts/container/runtime.sh
pidfile=build/container/dockerd.pid

# ours: the PID of the dockerd that start started, if it still runs
# (its ID not taken by another process since: its command line names
# dockerd, as it does from setsid on).
ours ()
{
  pid=$(cat "$pidfile" 2> /dev/null) || return 1
  tr '\0' '\n' < "/proc/$pid/cmdline" 2> /dev/null \
    | grep -q -x -F /usr/sbin/dockerd || return 1
  echo "$pid"
}

case $action in
  start)
    # shellcheck disable=SC2086
    scripts/build/install-deps.sh $packages || exit 1
    [ "$rt" = docker ] || exit 0
    "$cli" info > /dev/null 2>&1 && exit 0
    [ "$(id -u)" = 0 ] || die "no Docker engine runs, and only root can start one"
    mkdir -p build/container build/logs
    echo "==> starting dockerd (log: build/logs/dockerd.log)"
    # A fresh process (every signal at its default action, no
    # descriptor but 0, 1 and 2: not the lock of the object directory),
    # in a session of its own: an interrupt of make stops it through
    # stop, not at once.
    setsid scripts/lib/fresh-process.py /usr/sbin/dockerd \
      --iptables=false --ip6tables=false --ip-forward=false \
      --ip-masq=false --bridge=none \
      > build/logs/dockerd.log 2>&1 < /dev/null &
    echo $! > "$pidfile"
    i=0
    until "$cli" info > /dev/null 2>&1; do
      ours > /dev/null \
	|| die "dockerd stopped: $(tail -n 1 build/logs/dockerd.log)"
      i=$((i + 1))
      [ $i -lt 60 ] || die "dockerd does not answer after 60 s:" \
			   "build/logs/dockerd.log"
      sleep 1
    done ;;
  stop)
    pid=$(ours) || { rm -f "$pidfile"; exit 0; }
    echo "==> stopping dockerd"
    kill "$pid"
    i=0
    while [ -d "/proc/$pid" ] && [ $i -lt 30 ]; do
      sleep 1
      i=$((i + 1))
    done
    [ ! -d "/proc/$pid" ] || die "dockerd ($pid) still runs after 30 s"
    rm -f "$pidfile" ;;
  *)
    die "usage: scripts/container/engine.sh podman|docker start|stop" ;;
esac
