#!/bin/sh
# Download the newest Debian kernel that runs the programs of ABI from
# Debian's archive (scripts/lib/debian-apt.sh): the kernel column of
# abis.table names its architecture and flavour.  For SUITE (the ABI's
# first suite of the table by default), print the path of its kernel
# image, kept in build/kernels/SUITE-ARCH/ with the few modules make
# check-target loads (beside it, in ../lib/modules) and a static busybox
# of the same architecture (SUITE-ARCH/busybox).  The ports whose Debian
# kernels are not in that archive (kernel source:...) get one that
# scripts/target/build-kernel.sh builds from Debian's source, whatever
# the SUITE.
#
# Usage: [DEBIAN_MIRROR=URL] scripts/target/fetch-kernel.sh ABI [SUITE]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
ABI=${1:?usage: scripts/target/fetch-kernel.sh ABI [SUITE]}
abi_load
case $abi_kernel in
  debian:*:*) ;;
  source:*) exec scripts/target/build-kernel.sh "$ABI" ;;
  *) die "abis.table: $ABI has no kernel" ;;
esac
arch=${abi_kernel#debian:} flavour=${abi_kernel##*:}
arch=${arch%%:*}
suite=${2:-${abi_suites%%,*}}
[ -n "$suite" ] || die "abis.table names no Debian suite for $ABI"

apt ()
{
  "$top/scripts/lib/debian-apt.sh" "$suite" "$arch" "$@"
}

top=$(pwd)
dir=$top/build/kernels/$suite-$arch
mkdir -p "$dir"
# ABIs that share a kernel (armel and armhf; amd64, i686 and x32) fetch
# it into the same directory: one run at a time.
exec 8> "$dir.lock"
flock 8 || die "cannot lock $dir.lock"
# The newest versioned image of the flavour: its metapackage depends on
# it.
package=$(apt apt-cache depends "linux-image-$flavour" \
	  | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' \
	  | head -n 1)
[ -n "$package" ] \
  || die "no linux-image-$flavour in $suite for $arch (see build/debian/)"
image=$dir/$package
# The kernel image, and the modules make check-target loads: 9p, which
# mounts the build tree, with its transport; the virtio transports of
# the machines (PCI, MMIO, s390's channel I/O); virtio's serial ports,
# its command channel; and the list of what is built in, for depmod.
# Decompressed: busybox's modprobe reads plain modules.  The file
# "extracted" lists what was taken: another list takes it again.
# Debian 13's later kernel packages have them in /usr/lib/modules: taken
# from either, and kept in lib/modules.
modules='modules.builtin kernel/fs/9p kernel/net/9p kernel/fs/netfs
	 kernel/fs/fscache kernel/drivers/virtio kernel/drivers/s390/virtio
	 kernel/drivers/char/virtio_console.ko*'
files='./boot/vmlinu*'
set -f
for m in $modules; do
  files="$files ./lib/modules/*/$m ./usr/lib/modules/*/$m"
done
set +f
if [ "$(cat "$image/extracted" 2> /dev/null)" != "$files" ]; then
  rm -rf "$image.tmp"
  mkdir -p "$image.tmp"
  (cd "$dir" && rm -f ./*.deb && apt apt-get download "$package") \
    > "$dir/download.log" 2>&1 \
    || die "cannot download $package: $dir/download.log"
  # Not every architecture has every directory: tar's complaints about
  # those are not errors; the image must be there.
  deb=$(ls "$dir/$package"_*.deb) || die "apt downloaded no $package"
  set -f
  # shellcheck disable=SC2086
  dpkg-deb --fsys-tarfile "$deb" \
    | tar -x -C "$image.tmp" --wildcards --no-wildcards-match-slash \
	  $files 2> /dev/null
  set +f
  ls "$image.tmp"/boot/vmlinu[xz]-* > /dev/null 2>&1 \
    || die "cannot unpack a kernel image from $package"
  if [ -d "$image.tmp/usr/lib/modules" ]; then
    [ ! -d "$image.tmp/lib/modules" ] \
      || die "$package has modules in both /lib and /usr/lib"
    mkdir -p "$image.tmp/lib"
    mv "$image.tmp/usr/lib/modules" "$image.tmp/lib/" \
      || die "cannot move the modules of $package"
    rm -rf "$image.tmp/usr"
  fi
  find "$image.tmp/lib" -name '*.ko.xz' -exec xz -d {} + \
    || die "cannot decompress the modules of $package"
  # A truncated package must not pass for one without these: each is a
  # module or built in.
  for m in 9p 9pnet_virtio virtio_console; do
    find "$image.tmp/lib" -name "$m.ko" | grep -q . \
      || grep -q "/$m\.ko" "$image.tmp"/lib/modules/*/modules.builtin \
      || die "$package has no $m, neither a module nor built in"
  done
  rm -f "$deb"
  printf '%s\n' "$files" > "$image.tmp/extracted"
  # The kernel taken before stays until this one is complete.
  rm -rf "$image"
  mv "$image.tmp" "$image"
fi
# The userland make check-target boots it with: busybox-static of the
# same architecture and suite.
if [ ! -x "$dir/busybox" ]; then
  rm -rf "$dir/busybox.tmp"
  mkdir -p "$dir/busybox.tmp"
  (cd "$dir/busybox.tmp" && apt apt-get download busybox-static) \
    > "$dir/download.log" 2>&1 \
    || die "cannot download busybox-static: $dir/download.log"
  # /bin/busybox, or /usr/bin/busybox in Debian 13's later packages.
  dpkg-deb -x "$(ls "$dir"/busybox.tmp/busybox-static_*.deb)" \
    "$dir/busybox.tmp" \
    && mv "$(ls "$dir"/busybox.tmp/bin/busybox \
		"$dir"/busybox.tmp/usr/bin/busybox 2> /dev/null | head -n 1)" \
	  "$dir/busybox" \
    || die "cannot unpack busybox-static"
  rm -rf "$dir/busybox.tmp"
fi
kernel=$(ls "$image"/boot/vmlinu[xz]-* 2> /dev/null | head -n 1)
[ -n "$kernel" ] || die "$package has no kernel image in /boot"
echo "$kernel"
