#!/bin/busybox sh
# shellcheck shell=dash
# /init of the guest that scripts/target/boot-root.sh boots, with busybox
# as its userland: mount the Debian root that qemu shares over 9p as
# "root", mount what its programs expect in it (proc, sysfs, devtmpfs,
# devpts, /dev/shm, /run, cgroup2 at /sys/fs/cgroup), run the script
# the kernel's command line names (boot_root_script) there with chroot,
# print its exit status between marks the host looks for, and power
# off.
# boot_root_script comes from the kernel's command line:
# shellcheck disable=SC2154
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/
/bin/busybox mkdir -p /proc /sys /dev /sbin /usr/bin /usr/sbin /newroot
/bin/busybox --install -s

fail ()
{
  echo "boot-root-init: $*"
  poweroff -f
}

mount -t proc proc /proc || fail "cannot mount /proc"
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# 9p and its virtio transport, where the kernel has them as modules.
depmod
for m in virtio_pci virtio_mmio virtio_ccw 9pnet_virtio 9p; do
  modprobe -q "$m"
done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=mmap root \
  /newroot || fail "cannot mount the root over 9p"
r=/newroot
mount -t proc proc $r/proc && mount -t sysfs sysfs $r/sys \
  && mount -t devtmpfs devtmpfs $r/dev && mkdir -p $r/dev/pts $r/dev/shm \
  && mount -t devpts devpts $r/dev/pts && mount -t tmpfs tmpfs $r/dev/shm \
  && mount -t tmpfs tmpfs $r/run \
  && mount -t cgroup2 cgroup2 $r/sys/fs/cgroup \
  || fail "cannot mount /proc, /sys, /dev, /run and cgroup2 in the root"
# The marks on lines of their own: the kernel may have left half a line
# on the console, the script may leave one.
printf '\nboot-root: begin\n'
chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LC_ALL=C.UTF-8 /bin/sh "$boot_root_script" 2>&1
printf '\nboot-root: exit status %d\n' $?
umount $r/sys/fs/cgroup $r/run $r/dev/shm $r/dev/pts $r/dev $r/sys $r/proc
umount $r
poweroff -f
