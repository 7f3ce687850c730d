#!/bin/sh
# Run a script inside a Debian root of another architecture on that
# architecture's own kernel: Debian's kernel of the ABI
# (scripts/target/fetch-kernel.sh) booted under qemu-system, with the
# root's directory shared over 9p.  The guest's /init
# (scripts/target/boot-root-init.sh, with busybox, in an initramfs of
# its own) mounts the share, mounts /proc, /sys, /dev, /run and cgroup2
# in it, and runs SCRIPT there with chroot, as root.  qemu-user cannot
# stand in for the kernel: it answers clone3 with ENOSYS and clone's
# CLONE_PIDFD with EINVAL.  Prints the script's output, and exits with
# its exit status (125 if the guest gave none in LIMIT seconds, 600 by
# default: qemu emulates the CPU).  The guest's console is in
# build/logs/boot-root-ABI.log.
#
# Usage: [LIMIT=SECONDS] scripts/target/boot-root.sh ABI ROOT SCRIPT
#   (SCRIPT: a path inside ROOT)
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
usage="usage: scripts/target/boot-root.sh ABI ROOT SCRIPT"
ABI=${1:?$usage}
root=${2:?$usage}
script=${3:?$usage}
abi_load
. scripts/lib/qemu.sh


[ -f "$root$script" ] || die "no $script in $root"
qemu_install || exit 1
kernel=$(scripts/target/fetch-kernel.sh "$ABI") || exit 1
release=$(basename "$kernel" | sed 's/^vmlinu[xz]-//')
kdir=$(dirname "$(dirname "$kernel")")
busybox=$(dirname "$kdir")/busybox
[ -x "$busybox" ] || die "no busybox for the kernel of $ABI ($busybox)"
work=$(mktemp -d "build/boot-root-$ABI.XXXXXX") || die "cannot make a directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$work/initramfs/bin" "$work/initramfs/lib/modules" build/logs
cp "$busybox" "$work/initramfs/bin/busybox"
cp scripts/target/boot-root-init.sh "$work/initramfs/init"
[ -d "$kdir/lib/modules/$release" ] \
  && cp -R "$kdir/lib/modules/$release" "$work/initramfs/lib/modules/"
qemu_initramfs "$work/initramfs" "$work/initramfs.cpio"
log=build/logs/boot-root-$ABI.log
qemu_limit=${LIMIT:-600}
# no_file_caps: see scripts/target/check-target.sh (exec over 9p).
(qemu_boot "$kernel" "$work/initramfs.cpio" "$log" "$abi_smp" \
   "quiet no_file_caps boot_root_script=$script" \
   -virtfs "local,path=$(cd "$root" && pwd -P),mount_tag=root,security_model=none")
rc=$?
# The script's output, between the init's marks (and the empty line
# before the second), and its status; none without both marks.
tr -d '\r' < "$log" \
  | sed -n '/^boot-root: begin$/,/^boot-root: exit status [0-9]*$/p' \
  | sed '1d; $d' | sed '$ { /^$/d; }'
status=$(tr -d '\r' < "$log" | sed -n '/^boot-root: begin$/,$ s/^boot-root: exit status \([0-9]*\)$/\1/p')
if [ -z "$status" ]; then
  grep '^boot-root-init: ' "$log" >&2
  echo "boot-root: no exit status from the guest (qemu: $rc): $log" >&2
  exit 125
fi
exit "$status"
