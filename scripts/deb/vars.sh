# Sourced by the scripts of make deb and make deb-test (build.sh,
# tree-test.sh, test.sh): where the packages are built and how they get at the
# Debian 12 root they are built in (scripts/deb/root.sh).
#
# Sets arch (ARCH, the Debian architecture of the packages, by default
# this machine's), build_arch (this machine's), deb (build/deb, or
# build/deb-stock for the stock package with DEB_SERIES=no; -ARCH added
# for another architecture than this machine's), src (the unpacked
# source in it), root (its root, build/deb-root or build/deb-stock-root,
# -ARCH added likewise), uid (the builder's) and inside (where deb is
# mounted in the root), snapshot_hint (what to say when the archive no
# longer has base.conf's version), repo and suite (make repo's apt
# repository and its suite), and defines:
#
#   deb_arch_check    die unless arch is a Debian architecture of
#                     abis.table (not a port, nor the name of a libc of
#                     another architecture's)
#   deb_arch_archived die unless Debian 12's archive has libc6 of
#                     base.conf's version for arch (riscv64, say, is no
#                     Debian 12 architecture); reads the archive's
#                     lists (scripts/lib/debian-apt.sh)
#   deb_lock          lock the checkout (a lock on its directory, which
#                     make clean takes too: build/ may go), or die: one
#                     of these scripts at a time, as each may replace
#                     what another uses
#   builder_owns_src  die unless the tree was given to the builder of
#                     this uid (DEB_BUILDER_UID the same as for its build)
#   in_root COMMAND   run COMMAND with sh in $root, as root (with this
#                     machine's proxy settings, for apt)
#   without_epoch VERSION
#                     VERSION as package file names have it
#   mount_deb         mount $deb at $inside in $root
#   as_builder COMMAND
#                     run COMMAND with sh in $root as the builder, as a
#                     build daemon runs the build: with every signal but
#                     SIGHUP at its default action and no descriptor
#                     but 0, 1 and 2 (scripts/lib/fresh-process.py), a HOME
#                     that does not exist, as sbuild gives, and
#                     DEB_BUILD_OPTIONS and DEB_BUILD_PROFILES passed on
#
# They call die (scripts/lib/common.sh).
# shellcheck shell=sh

build_arch=$(dpkg --print-architecture)
arch=${ARCH:-$build_arch}
deb=build/deb root=build/deb-root
if [ "${DEB_SERIES-yes}" = no ]; then
  deb=build/deb-stock root=build/deb-stock-root
fi
if [ "$arch" != "$build_arch" ]; then
  deb=$deb-$arch root=$root-$arch
fi
src=$deb/glibc-2.36
# The builder's uid: one that is nobody's on this machine, which owns
# build/deb while it builds (deb-build refuses a uid this machine knows).
uid=${DEB_BUILDER_UID:-2000}
case $uid in
  ''|*[!0-9]*) echo "DEB_BUILDER_UID=$uid: not a number" >&2; exit 2 ;;
esac
inside=/build
# shellcheck disable=SC2034
repo=build/repo suite=bookworm-pidfd

deb_arch_check ()
{
  case $arch in
    ''|*[!a-z0-9]*) die "ARCH=$arch: not a Debian architecture" ;;
  esac
  . scripts/lib/abi.sh
  known=$(abi_rows | awk -F '|' -v arch="$arch" '
    NR == 1 { for (i = 1; i <= NF; i++) column[$i] = i; next }
    $column["kind"] == "port" { next }
    $column["arch"] == arch { print "arch"; exit }
    $1 == arch { print "abi " $column["arch"]; exit }')
  case $known in
    arch) ;;
    abi*) die "ARCH=$arch: $arch is a libc of ARCH=${known#abi }, which" \
	      "builds its package" ;;
    *) die "ARCH=$arch: no Debian architecture of abis.table" ;;
  esac
}

deb_arch_archived ()
{
  found=$(scripts/lib/debian-apt.sh bookworm "$arch" apt-cache show \
	    "libc6=$GLIBC_SOURCE_VERSION" 2>&1) \
    || die "ARCH=$arch: Debian 12's archive has no libc6" \
	   "$GLIBC_SOURCE_VERSION for $arch (not an architecture of" \
	   "Debian 12's, or a later update replaced that version:" \
	   "DEBIAN_MIRROR=https://snapshot.debian.org/archive/debian/<date>/):" \
	   "$(echo "$found" | tail -n 1)"
  [ -n "$found" ] || die "ARCH=$arch: Debian 12's archive has no libc6" \
    "$GLIBC_SOURCE_VERSION for $arch $snapshot_hint"
}

deb_lock ()
{
  exec 9< .
  flock -n 9 || die "make deb, make deb-test or deb-tree-test runs" \
		    "(a lock on $(pwd))"
}

builder_owns_src ()
{
  owner=$(stat -c %u "$src") || die "no $src"
  [ "$owner" = "$uid" ] || die "$src is uid $owner's, not $uid's:" \
    "DEB_BUILDER_UID=$owner, as for its build"
}

in_root ()
{
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    ${http_proxy:+"http_proxy=$http_proxy"} \
    ${https_proxy:+"https_proxy=$https_proxy"} \
    ${no_proxy:+"no_proxy=$no_proxy"} /bin/sh -c "$1"
}

# without_epoch VERSION: VERSION as the names of the package files have
# it.
without_epoch ()
{
  echo "$1" | sed 's/^[0-9]*://'
}

# Said when the archive no longer has the source version of base.conf.
# shellcheck disable=SC2034
snapshot_hint="(a later Debian 12 update replaced it?  DEBIAN_MIRROR=\
https://snapshot.debian.org/archive/debian/<date>/)"

mount_deb ()
{
  mkdir -p "$root$inside" || die "cannot make $root$inside"
  mountpoint -q "$root$inside" || mount --bind "$deb" "$root$inside" \
    || die "cannot mount $deb at $root$inside"
}

as_builder ()
{
  scripts/lib/fresh-process.py chroot --userspec=$uid:$uid "$root" \
    /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/nonexistent \
    USER=builder LOGNAME=builder LC_ALL=C.UTF-8 \
    DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS-}" \
    DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES-}" \
    /bin/sh -c "$1"
}
