#!/bin/sh
# Run apt-get or apt-cache on Debian's archive for one SUITE and one
# ARCH (a Debian architecture), with a state directory of the project's
# own, build/debian/SUITE-ARCH: the machine's apt configuration and
# architectures are left alone, and signatures and checksums are
# checked as for any install.  ARCH "source" reads the archive's source
# packages instead (apt-get source).  The package lists are brought up to date
# when they are missing, a day old, or from another mirror.  The archive is DEBIAN_MIRROR, or
# the Debian mirror of the machine's apt sources, or deb.debian.org
# where that one lacks the suite or the architecture.  apt-get download
# leaves its .deb files in the current directory.
#
# Usage: [DEBIAN_MIRROR=URL] scripts/lib/debian-apt.sh SUITE ARCH apt-get|apt-cache
#          ARG...
set -u
. "$(dirname "$0")/common.sh"
suite=${1:?usage: scripts/lib/debian-apt.sh SUITE ARCH apt-get|apt-cache ARG...}
arch=${2:?usage: scripts/lib/debian-apt.sh SUITE ARCH apt-get|apt-cache ARG...}
command=${3:?usage: scripts/lib/debian-apt.sh SUITE ARCH apt-get|apt-cache ARG...}
shift 3
case $command in
  apt-get|apt-cache) ;;
  *) echo "debian-apt: $command is neither apt-get nor apt-cache" >&2
     exit 2 ;;
esac


top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$arch" = source ]; then
  apt_arch=$(dpkg --print-architecture) kind=deb-src options=
  lists=_source_Sources
else
  apt_arch=$arch kind=deb options="arch=$arch "
  lists=_binary-${arch}_Packages
fi
dir=$top/build/debian/$suite-$arch
log=$dir/apt.log
mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
[ -f "$dir/state/status" ] || : > "$dir/state/status"
cat > "$dir/apt.conf" <<EOF
Dir::State "$dir/state";
Dir::State::status "$dir/state/status";
Dir::Cache "$dir/cache";
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
APT::Architecture "$apt_arch";
APT::Architectures { "$apt_arch"; };
Debug::NoLocking "1";
APT::Sandbox::User "root";
EOF
export APT_CONFIG="$dir/apt.conf"

# The Debian mirror this machine's apt uses: the first URI that ends in
# /debian, in a one-line source or an enabled deb822 stanza.
machine_mirror ()
{
  {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2> /dev/null \
      | grep -E '^[[:space:]]*deb[[:space:]]'
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      awk 'BEGIN { RS = "" } !/(^|\n)Enabled:[ \t]*no/' "$f" \
	| grep -E '^URIs:'
    done
  } | tr -s '[:blank:]' '\n' | grep -E '^[a-z+]+://.*/debian/?$' \
    | head -n 1
}

# update MIRROR: fetch the package lists of MIRROR; fails unless they
# have packages for the architecture (or source packages).
update ()
{
  printf '%s [%ssigned-by=%s] %s %s main\n' "$kind" "$options" \
    /usr/share/keyrings/debian-archive-keyring.gpg "${1%/}" \
    "$suite" > "$dir/sources.list"
  echo "==> update from $1" >> "$log"
  apt-get update >> "$log" 2>&1 \
    && ls "$dir/state/lists/"*"$lists"* > /dev/null 2>&1
}

# apt dates the lists as the archive does: a stamp of ours says when,
# and for which mirror (another DEBIAN_MIRROR updates them at once).
default=http://deb.debian.org/debian
mirror=${DEBIAN_MIRROR:-$(machine_mirror)}
: "${mirror:=$default}"
if [ -z "$(find "$dir" -maxdepth 1 -name updated -mtime -1)" ] \
   || [ "$(cat "$dir/updated")" != "$mirror" ]; then
  rm -f "$dir/updated"
  update "$mirror" \
    || { [ -z "${DEBIAN_MIRROR-}" ] && [ "$mirror" != "$default" ] \
	   && update "$default"; } \
    || die "no $suite packages for $arch at $mirror: $log"
  echo "$mirror" > "$dir/updated"
fi
exec "$command" "$@"
