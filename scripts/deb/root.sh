#!/bin/sh
# A throwaway Debian 12 root, as a Debian build daemon's chroot has it:
# debootstrap's minbase with build-essential, fakeroot and
# ca-certificates, and no package of this machine's.  It is made once,
# as a tarball (build/debian-root/bookworm.tar, about a minute, again
# when the packages it must include or DEBIAN_MIRROR change), and
# unpacked anew for each use; a root carries a mark (.debian-root, which
# names its architecture) without which nothing here touches a
# directory.  ROOT_ARCH=<Debian architecture>
# makes a root of another architecture (build/debian-root/bookworm-ARCH.tar),
# whose programs this machine's kernel runs itself (i386 on amd64) or
# hands to qemu-user-static (scripts/lib/binfmt.sh registers it):
# debootstrap runs its second stage there, under emulation for most
# (several minutes), as later apt-get and the programs built there do.
#
#   make DIR      unpack it at DIR (a root already there is removed
#                 first, as by remove), copy this machine's resolv.conf
#                 and hosts (as schroot does for a build daemon), and
#                 mount what programs expect: /proc, /sys, this
#                 machine's /dev (a slave: nothing unmounted in the root
#                 reaches this machine) with a /dev/shm of its own
#   mount DIR     mount those again in a root made earlier
#   unmount DIR   kill the processes running in the root, then unmount
#                 everything mounted under DIR, deepest first
#   remove DIR    unmount, then remove DIR, which must then hold no
#                 mount point (rm never crosses into another mount)
#
# Usage: [DEBIAN_MIRROR=URL] [ROOT_ARCH=ARCH] scripts/deb/root.sh
#          make|mount|unmount|remove DIR
set -u
. "$(dirname "$0")/../lib/common.sh"
usage="usage: scripts/deb/root.sh make|mount|unmount|remove DIR"
action=${1:?$usage}
root=${2:?$usage}
top=$(cd "$(dirname "$0")/../.." && pwd -P)
root_arch=${ROOT_ARCH:-$(dpkg --print-architecture)}
tarball=$top/build/debian-root/bookworm.tar
[ "$root_arch" = "$(dpkg --print-architecture)" ] \
  || tarball=$top/build/debian-root/bookworm-$root_arch.tar
# ca-certificates: for an https DEBIAN_MIRROR (snapshot.debian.org).
includes=build-essential,fakeroot,ca-certificates
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
mark=.debian-root


[ ! -L "$root" ] || die "$root is a symbolic link"
# No root: nothing to mount, unmount or remove.
[ -d "$root" ] || [ "$action" = make ] || exit 0
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount)"
if [ -d "$root" ]; then
  abs=$(cd "$root" && pwd -P) || die "cannot enter $root"
else
  mkdir -p "$root" && abs=$(cd "$root" && pwd -P) || die "cannot make $root"
  : > "$abs/$mark"
fi
case $abs in
  /|"$top"|"$top/build") die "refusing to work on $abs" ;;
esac
[ -f "$abs/$mark" ] || die "$abs is not a root made by scripts/deb/root.sh"
# The mark of a root made names its architecture: mount checks that its
# programs run, whatever ROOT_ARCH says now.
if [ "$action" = mount ] && [ -s "$abs/$mark" ]; then
  root_arch=$(cat "$abs/$mark")
fi

# mounts: the mount points under the root, deepest first, as
# /proc/self/mountinfo has them (its octal escapes undone); fails rather
# than say "none" when it cannot tell.
mounts ()
{
  awk -v root="$abs/" '
    function unescape (s,    out, i, c)
    {
      out = ""
      for (i = 1; i <= length (s); i++)
	{
	  c = substr (s, i, 1)
	  if (c == "\\" && substr (s, i + 1, 3) ~ /^[0-7][0-7][0-7]$/)
	    {
	      out = out sprintf ("%c", (substr (s, i + 1, 1) * 64 \
					+ substr (s, i + 2, 1) * 8 \
					+ substr (s, i + 3, 1)))
	      i += 3
	    }
	  else
	    out = out c
	}
      return out
    }
    { p = unescape($5); if (index (p, root) == 1) print p }
  ' /proc/self/mountinfo | sort -r
}

# kill_processes: kill whatever runs with the root as its root (a test
# left running, a daemon a package started), as schroot does at the end
# of a session.
kill_processes ()
{
  for _ in 1 2 3 4 5; do
    found=
    for p in /proc/[0-9]*; do
      [ "$(readlink "$p/root" 2> /dev/null)" = "$abs" ] || continue
      kill -KILL "${p#/proc/}" 2> /dev/null && found=1
    done
    [ -n "$found" ] || return 0
    sleep 1
  done
  die "processes still run in $abs"
}

unmount ()
{
  list=$(mounts) || die "cannot read the mounts under $abs"
  [ -n "$list" ] || return 0
  kill_processes
  # A /dev left as a shared mount by an interrupted make: a slave first,
  # so that unmounting its /dev/pts cannot reach this machine's.
  ! mountpoint -q "$abs/dev" || mount --make-rslave "$abs/dev" \
    || die "cannot make $abs/dev a slave"
  old_ifs=$IFS
  IFS='
'
  set -f
  for m in $list; do
    umount "$m" || die "cannot unmount $m"
  done
  set +f
  IFS=$old_ifs
  list=$(mounts) || die "cannot read the mounts under $abs"
  [ -z "$list" ] || die "still mounted under $abs: $list"
}

# The directories mounted on must be directories of the root, not links
# that a package's script may have left.
mount_point ()
{
  [ -d "$abs/$1" ] && [ ! -L "$abs/$1" ] || die "$abs/$1 is not a directory"
}

mount_all ()
{
  for d in proc sys dev; do mount_point $d; done
  mountpoint -q "$abs/proc" || mount -t proc proc "$abs/proc" \
    || die "cannot mount /proc in $abs"
  mountpoint -q "$abs/sys" || mount -t sysfs sysfs "$abs/sys" \
    || die "cannot mount /sys in $abs"
  if mountpoint -q "$abs/dev"; then
    mount --make-rslave "$abs/dev" || die "cannot make $abs/dev a slave"
  else
    { mount --rbind /dev "$abs/dev" && mount --make-rslave "$abs/dev"; } \
      || die "cannot bind /dev in $abs"
    # /dev/shm of its own: POSIX shared memory and semaphores of its
    # programs must not meet this machine's.
    mount_point dev/shm
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$abs/dev/shm" \
      || die "cannot mount a tmpfs on $abs/dev/shm"
  fi
}

# runnable: make sure this machine runs the root's programs: qemu-user
# through binfmt_misc for another architecture, unless this machine's
# kernel runs them itself (i386 on amd64).  Each time: a reboot forgets
# what binfmt_misc was told.
runnable ()
{
  [ "$root_arch" != "$(dpkg --print-architecture)" ] || return 0
  (cd "$top" && . scripts/lib/abi.sh && . scripts/lib/binfmt.sh \
     && ABI=$root_arch && abi_load \
     && { [ "$kernel_arch" = "$(dpkg --print-architecture)" ] \
	    || binfmt_enable "$abi_user_cpu"; }) \
    || die "programs of $root_arch cannot run here"
}

remove ()
{
  unmount
  rm -rf --one-file-system "$abs" || die "cannot remove $abs"
}

case $action in
  make)
    runnable
    # Made again when what it must include or the mirror its apt uses
    # (DEBIAN_MIRROR: a snapshot, say) changes.
    if [ ! -f "$tarball" ] || [ "$(cat "$tarball.made" 2> /dev/null)" \
				  != "$includes $mirror" ]; then
      command -v debootstrap > /dev/null \
	|| DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap \
	     > /dev/null || die "cannot install debootstrap"
      mkdir -p "$top/build/debian-root" "$top/build/logs"
      # mktemp's 0700 would be the root's / once unpacked: only root
      # could use it, not the builder.
      tmp=$(mktemp -d "$top/build/debian-root/tmp.XXXXXX") \
	&& chmod 755 "$tmp" || die "cannot make a directory for debootstrap"
      : > "$tmp/$mark"
      # debootstrap mounts /proc and /sys in it: an interrupt must not
      # leave them there.
      t=
      trap '"$0" remove "$tmp"; rm -f "$t"; exit 1' INT TERM HUP QUIT
      echo "root: debootstrap bookworm $root_arch (once)"
      debootstrap --arch="$root_arch" --variant=minbase --include="$includes" \
	bookworm "$tmp" "$mirror" \
	> "$top/build/logs/debootstrap-$root_arch.log" 2>&1 \
	|| { "$0" remove "$tmp"; die "debootstrap failed:" \
				      "build/logs/debootstrap-$root_arch.log"; }
      t=$(mktemp "$tarball.XXXXXX") && tar -C "$tmp" -cf "$t" . \
	&& mv "$t" "$tarball" && echo "$includes $mirror" > "$tarball.made" \
	|| { rm -f "$t"; "$0" remove "$tmp"; die "cannot write $tarball"; }
      "$0" remove "$tmp" || exit 1
      trap - INT TERM HUP QUIT
    fi
    remove
    # The tarball has a mark of its own, empty: the architecture after.
    mkdir -p "$abs" && : > "$abs/$mark" && tar -C "$abs" -xf "$tarball" \
      && echo "$root_arch" > "$abs/$mark" || die "cannot unpack $tarball"
    # What schroot copies into a build daemon's chroot.
    cp /etc/resolv.conf /etc/hosts "$abs/etc/" \
      || die "cannot copy resolv.conf and hosts to $abs/etc"
    mount_all ;;
  mount)
    runnable
    mount_all ;;
  unmount)
    unmount ;;
  remove)
    remove ;;
  *)
    die "unknown action $action" ;;
esac
