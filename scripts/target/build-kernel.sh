#!/bin/sh
# Build a kernel for an ABI whose Debian kernel image is not in the
# archive apt reaches here, from Debian 12's kernel source
# (linux-source-6.1: the source of Debian's kernel images, Debian's
# patches applied), and print the path of the image, kept in
# build/kernels/.  The ABIs that need it are those whose Debian kernels
# are built on debian-ports: ppc64 (big-endian), and hppa, m68k and
# sparc64, three ports whose libc has no clone3 wrapper.  The
# configuration is not Debian's but the kernel's own defconfig for the
# machine check-wrapper boots (ppc64: pseries_defconfig, big-endian),
# with cgroups and initramfs support, and modules off: the initramfs
# carries no modules, so what the configuration has as a module is built
# in instead.  That makes a big kernel: 26 minutes on 2 cores here for
# ppc64, done once.
#
# Usage: scripts/target/build-kernel.sh ABI
set -u
ABI=${1:?usage: scripts/target/build-kernel.sh ABI}
export ABI
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
# The kernel column: source:ARCH:DEFCONFIG, ARCH the kernel's name of
# the architecture.
case $abi_kernel in
  source:*:*) ;;
  *) die "abis.table: $ABI's kernel is not one built from source" ;;
esac
arch=${abi_kernel#source:} defconfig=${abi_kernel##*:} image=vmlinux
arch=${arch%%:*}
source_package=linux-source-6.1


# The cross compiler (install-deps) and what the kernel build needs.
# Its messages go to stderr: standard output is the image's path.
scripts/build/install-deps.sh "$source_package" flex bison bc libssl-dev libelf-dev \
  >&2 || exit 1
tarball=$(dpkg -L "$source_package" 2> /dev/null \
	  | grep "^/usr/src/$source_package\.tar\.xz$")
[ -n "$tarball" ] || die "$source_package has no source tarball"

version=$(dpkg-query -W -f='${Version}' "$source_package")
# The name says the recipe: a change of it must not reuse an image.
name=$image-$version-${defconfig%_defconfig}-nomodules-cgroups-initrd
dir=$(pwd)/build/kernels/$name-$ABI
if [ ! -f "$dir/$name" ]; then
  mkdir -p build/logs
  log=$(pwd)/build/logs/build-kernel-$ABI.log
  : > "$log"
  rm -rf "$dir" "$dir.tmp"
  mkdir -p "$dir.tmp/src"
  printf '==> building %s %s for %s, %s (log: %s)\n' "$source_package" \
    "$version" "$ABI" "$defconfig" "$log" >&2
  start=$(date +%s)
  set -- -C "$dir.tmp/src" ARCH=$arch CROSS_COMPILE=$compiler \
    "-j$(nproc)"
  if ! { tar -xJf "$tarball" -C "$dir.tmp/src" --strip-components=1 \
	   && make "$@" "$defconfig" \
	   && "$dir.tmp/src/scripts/config" --file "$dir.tmp/src/.config" \
		--disable MODULES --enable CGROUPS --enable BLK_DEV_INITRD \
	   && make "$@" olddefconfig \
	   && make "$@" "$image" \
	   && cp "$dir.tmp/src/$image" "$dir.tmp/$name" \
	   && cp "$dir.tmp/src/.config" "$dir.tmp/$name.config"; } \
	 >> "$log" 2>&1; then
    rm -rf "$dir.tmp"
    die "the kernel did not build: $log"
  fi
  rm -rf "$dir.tmp/src"
  mv "$dir.tmp" "$dir" || die "cannot move $dir.tmp to $dir"
  printf '    built in %ds\n' $(($(date +%s) - start)) >&2
fi
echo "$dir/$name"
