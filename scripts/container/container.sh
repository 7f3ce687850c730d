#!/bin/sh
# The long-running container of RUNTIME that the tests run in
# (scripts/container/exec-wrapper.sh runs each command there):
#
#   start   start it (one left by an earlier run is removed first) from
#           the image of scripts/container/image.sh, with the
#           runtime's default seccomp profile and capabilities, no
#           network, the checkout mounted at the same path, an init
#           that reaps the orphans of the tests as PID 1, and a cgroup
#           namespace of its own; then give it its cgroup v2 subtree
#           (below).  Prints the OCI runtime that runs it.
#   stop    remove the cgroups the tests left in its subtree, then the
#           container.
#
# The delegated subtree: a runtime on a hybrid host (cgroup v1
# controllers, cgroup2 at /sys/fs/cgroup/unified) mounts only the v1
# hierarchies in a container; the container's processes are in a cgroup
# v2 of their own all the same (/docker/ID, /libpod_parent/libpod-ID),
# which their cgroup namespace shows as its root.  start mounts cgroup2
# there (at /sys/fs/cgroup/unified; at /sys/fs/cgroup where the host
# has cgroup2 alone), from this machine through nsenter, as the
# container cannot (no CAP_SYS_ADMIN): the container then sees its own
# cgroup as the root of a cgroup2 hierarchy that it can write, as a
# cgroup v2 host's runtime with a delegated subtree gives it, and
# nothing above it.  A bind mount of a directory of the host's
# hierarchy cannot do that: its path shows above the namespace's root.
#
# podman: Debian 12's default OCI runtime, crun 1.8, refuses a hybrid
# host whose cgroup2 has a controller ("cgroups in hybrid mode not
# supported, drop all controllers from cgroupv2": hugetlb here, which no
# v1 hierarchy holds); start then runs the container with runc
# (Debian's, which docker.io needs), with podman's same seccomp
# profile.  Unless told, podman gives a container's RLIMIT_NOFILE and
# RLIMIT_NPROC more than this machine's hard limits, and it starts the
# OCI runtime with RLIMIT_NPROC lowered to 32768 (what --ulimit host
# gives); where root cannot raise a limit (no CAP_SYS_RESOURCE, as on
# this kind of machine), the container does not start ("setrlimit
# RLIMIT_NOFILE: Operation not permitted"): it gets this machine's hard
# limits, RLIMIT_NPROC no more than 32768.
#
# Usage: scripts/container/container.sh podman|docker start|stop
set -u
. scripts/lib/common.sh
rt=${1-}
action=${2-}
. scripts/container/runtime.sh
top=$(pwd -P)

# The container's cgroup2 mount point: where the host has it.
if [ "$(stat -f -c %T /sys/fs/cgroup/unified 2> /dev/null)" = cgroup2fs ]; then
  point=/sys/fs/cgroup/unified
  unified=$point
elif [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
  point=/sys/fs/cgroup
  unified=$point
else
  point='' unified=''
fi

case $action in
  start)
    "$cli" rm -f "$box" > /dev/null 2>&1
    set -- --name "$box" --init --network=none --cgroupns=private \
      -v "$top:$top" -w "$top"
    oci=
    if [ "$rt" = podman ]; then
      oci=$("$cli" info --format '{{.Host.OCIRuntime.Name}}') \
	|| die "podman info failed"
      if [ "$oci" = crun ] && [ "$unified" = /sys/fs/cgroup/unified ] \
	   && [ -n "$(cat "$unified/cgroup.controllers")" ]; then
	command -v runc > /dev/null \
	  || die "crun refuses this hybrid host (cgroup2 has" \
		 "$(cat "$unified/cgroup.controllers")), and runc is missing"
	oci=runc
	set -- "$@" --runtime runc
      fi
      # The hard limits of this process.
      nofile=$(awk '/^Max open files / { print $5 }' /proc/self/limits)
      nproc=$(awk '/^Max processes / { print $4 }' /proc/self/limits)
      [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
      [ "$nofile" = unlimited ] && nofile=1048576
      set -- "$@" --ulimit "nofile=$nofile:$nofile" \
	--ulimit "nproc=$nproc:$nproc"
    else
      oci=$("$cli" info --format '{{.DefaultRuntime}}') \
	|| die "docker info failed"
    fi
    "$cli" run -d "$@" "$image" sleep infinity > /dev/null \
      || die "$rt run failed"
    if [ -n "$point" ]; then
      pid=$("$cli" inspect --format '{{.State.Pid}}' "$box") \
	|| die "$rt inspect failed"
      nsenter -t "$pid" -m -C sh -c \
	'mkdir -p "$1" && mount -t cgroup2 cgroup2 "$1"' sh "$point" \
	|| die "cannot mount cgroup2 at $point in $box"
    fi
    echo "$oci" ;;
  stop)
    [ -z "$point" ] \
      || "$cli" exec "$box" find "$point" -mindepth 1 -depth -type d \
	   -exec rmdir {} + > /dev/null 2>&1
    "$cli" rm -f "$box" > /dev/null || die "$rt rm $box failed" ;;
  *)
    die "usage: scripts/container/container.sh podman|docker start|stop" ;;
esac
