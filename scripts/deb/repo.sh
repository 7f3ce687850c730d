#!/bin/sh
# make repo: an apt repository of the packages of every architecture
# that make deb built (build/deb/ and build/deb-ARCH/), in build/repo/,
# made with Debian's own apt-ftparchive and signed with a key that is
# made once and kept, outside the checkout (REPO_KEY_DIR,
# /var/lib/pidfd-series/repo-key by default, readable by root alone):
# make clean, a new clone or git clean leave it, so that a machine that
# trusts the repository keeps trusting it.
#
# It takes the packages of each architecture's last build that
# succeeded: the .deb files its .changes lists (debug symbols and udebs
# left out, as Debian's archive keeps them elsewhere), each checked
# against the checksum there; and the source package, which must be the
# same (the same .dsc) for every architecture: a build of another
# checkout or series is refused, since apt would take packages of one
# version with different contents.  The repository is made anew each
# time, then put in place of the old one.
#
# Beside dists/ and pool/ it writes what a machine copies into
# /etc/apt: pidfd-series.sources (deb822, the key inline in Signed-By,
# the repository's URI REPO_URI, by default file: and this directory)
# and pidfd-series.pref (the pin that keeps the series' packages over
# a later stock update, without downgrading a newer stock libc6).  The
# row of results/repo.md says what it holds and its size.
#
# Usage: [REPO_URI=URI] [REPO_KEY_DIR=DIR] scripts/deb/repo.sh
set -u
. scripts/lib/common.sh
. ./base.conf
. scripts/lib/series.sh
DEB_SERIES=yes
. scripts/deb/vars.sh
keydir=${REPO_KEY_DIR:-/var/lib/pidfd-series/repo-key}
origin=pidfd-series


mkdir -p build/logs
log=build/logs/repo.log
: > "$log"
{ command -v apt-ftparchive && command -v gpg; } > /dev/null \
  || DEBIAN_FRONTEND=noninteractive apt-get install -y apt-utils gnupg \
       >> "$log" 2>&1 \
  || die "cannot install apt-utils and gnupg (as root): $log"
deb_lock
provenance=$(results_provenance)

# The builds: each directory of make deb with a .changes of the
# series' version.
version=
dsc_sum=
arches=
new=$(mktemp -d "build/repo.XXXXXX") && chmod 755 "$new" \
  || die "cannot make a directory in build/"
# The gpg-agent that gpg starts must not outlive the run, whatever its
# end (it is stopped before its directory goes).
GNUPGHOME=
trap '[ -z "$GNUPGHOME" ] || gpgconf --kill gpg-agent
      rm -rf "$new"; [ -z "${made-}" ] || rm -rf "$keydir/gnupg.new"' EXIT
trap 'exit 1' INT TERM HUP QUIT
pool=$new/pool/main/g/glibc
mkdir -p "$pool"
# files FILE: "SHA256 NAME" of each file the Checksums-Sha256 field
# of FILE (a .dsc or .changes) lists.
files ()
{
  awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
       on { print $1 " " $3 }' "$1"
}

for dir in build/deb build/deb-*; do
  case $dir in build/deb-stock*|build/deb-root*|build/deb-test*) continue ;; esac
  [ -f "$dir/glibc-2.36/debian/changelog" ] || continue
  v=$(dpkg-parsechangelog -l "$dir/glibc-2.36/debian/changelog" -S Version) \
    || die "cannot read $dir/glibc-2.36/debian/changelog"
  a=$(basename "$dir" | sed -n 's/^deb-//p')
  [ -n "$a" ] || a=$build_arch
  changes=$dir/glibc_$(without_epoch "$v")_$a.changes
  if [ ! -f "$changes" ]; then
    echo "  $a: no $changes (its last build failed?): left out"
    continue
  fi
  dsc=$dir/glibc_$(without_epoch "$v").dsc
  [ -f "$dsc" ] || die "no $dsc beside $changes"
  sum=$(sha256sum < "$dsc" | cut -d' ' -f1)
  if [ -z "$version" ]; then
    version=$v dsc_sum=$sum
    # The source package: the .dsc and the files it names.
    cp "$dsc" "$pool/" || die "cannot copy $dsc"
    for f in $(files "$dsc" | cut -d' ' -f2); do
      cp "$dir/$f" "$pool/" || die "cannot copy $dir/$f"
    done
  elif [ "$v" != "$version" ] || [ "$sum" != "$dsc_sum" ]; then
    die "$dir holds another source package ($v) than the builds before it" \
	"($version): make deb ARCH=$a again, from this checkout"
  fi
  n=0
  for f in $(files "$changes" \
	       | awk '$2 ~ /\.deb$/ && $2 !~ /-dbgsym_/ { print $1 ":" $2 }'); do
    [ "$(sha256sum < "$dir/${f#*:}" | cut -d' ' -f1)" = "${f%%:*}" ] \
      || die "$dir/${f#*:} is not the one $changes lists"
    cp "$dir/${f#*:}" "$pool/" || die "cannot copy $dir/${f#*:}"
    n=$((n + 1))
  done
  echo "  $a: $n packages of $v"
  arches="$arches $a"
done
arches=${arches# }
[ -n "$arches" ] || die "no packages: make deb [ARCH=...] first"

# The signing key, made once, readable by its owner alone, with the
# revocation certificate gpg writes beside it (openpgp-revocs.d/).
export GNUPGHOME
case $keydir in /*) ;; *) keydir=$(pwd -P)/$keydir ;; esac
# One make repo at a time uses the key, whichever checkout it runs in.
(umask 077 && mkdir -p "$keydir") && exec 7> "$keydir/.lock" \
  || die "cannot make $keydir"
flock 7 || die "cannot lock $keydir"
if [ ! -d "$keydir/gnupg" ]; then
  made=yes
  (umask 077 && rm -rf "$keydir/gnupg.new" && mkdir "$keydir/gnupg.new") \
    || die "cannot make $keydir/gnupg.new"
  GNUPGHOME=$keydir/gnupg.new
  gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
    --quick-gen-key "pidfd series repository (this machine's)" \
    rsa3072 sign never >> "$log" 2>&1 || die "cannot make a signing key: $log"
  gpgconf --kill gpg-agent
  mv "$keydir/gnupg.new" "$keydir/gnupg" || die "cannot keep the key"
  made=
  echo "  a signing key, made once: $keydir/gnupg (keep a copy)"
fi
GNUPGHOME=$keydir/gnupg
fingerprint=$(gpg --batch --with-colons --list-secret-keys 2>> "$log" \
		| awk -F: '/^fpr:/ { print $10; exit }')
[ -n "$fingerprint" ] || die "no key in $keydir/gnupg"

dists=$new/dists/$suite
for a in $arches; do
  mkdir -p "$dists/main/binary-$a"
  (cd "$new" && apt-ftparchive --arch "$a" packages pool/main) \
    > "$dists/main/binary-$a/Packages" 2>> "$log" \
    && xz -k9 "$dists/main/binary-$a/Packages" \
    || die "apt-ftparchive packages failed for $a"
done
mkdir -p "$dists/main/source"
(cd "$new" && apt-ftparchive sources pool/main) 2>> "$log" \
  > "$dists/main/source/Sources" \
  && xz -k9 "$dists/main/source/Sources" || die "apt-ftparchive sources failed"
apt-ftparchive -o APT::FTPArchive::Release::Origin=$origin \
  -o APT::FTPArchive::Release::Label=$origin \
  -o APT::FTPArchive::Release::Suite=$suite \
  -o APT::FTPArchive::Release::Codename=$suite \
  -o "APT::FTPArchive::Release::Architectures=$arches" \
  -o APT::FTPArchive::Release::Components=main \
  -o "APT::FTPArchive::Release::Description=Debian 12's glibc $version with the pidfd series" \
  release "$dists" 2>> "$log" > "$new/Release" && mv "$new/Release" "$dists/Release" \
  || die "apt-ftparchive release failed"
# The key is the one it made: no web of trust to check.
sign="gpg --batch --yes --trust-model always --local-user $fingerprint"
$sign --clearsign -o "$dists/InRelease" "$dists/Release" 2>> "$log" \
  && $sign --armor --detach-sign -o "$dists/Release.gpg" "$dists/Release" \
	   2>> "$log" \
  || die "cannot sign $dists/Release: $log"
gpg --batch --armor --export "$fingerprint" > "$new/pidfd-series.asc" \
  || die "cannot export the key"

# What a machine copies into /etc/apt/sources.list.d and preferences.d.
uri=${REPO_URI:-file:$(pwd -P)/$repo}
{
  printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By:\n' \
    "$uri" "$suite"
  sed 's/^$/./; s/^/ /' "$new/pidfd-series.asc"
} > "$new/pidfd-series.sources"
# 990: above the archive's 500, so that a later stock update does not
# replace the series' packages, and below 1000, so that a stock libc6
# newer than the series' is never downgraded (apt_preferences(5)).
printf '%s\n' 'Package: src:glibc:any' 'Pin: version /\+pidfd/' \
  'Pin-Priority: 990' > "$new/pidfd-series.pref"

rm -rf "$repo.old"
[ ! -d "$repo" ] || mv "$repo" "$repo.old" || die "cannot move $repo away"
mv "$new" "$repo" && rm -rf "$repo.old" || die "cannot put $repo in place"
size=$(du -sh "$repo" | cut -f1)
echo "  $repo: $arches, $size, signed by $fingerprint"
results_update repo.md "make repo: the apt repository of make deb's packages" \
  "version | architectures | packages | size | signed by" "$version" \
  "$version | $arches | $(find "$repo/pool" -name '*.deb' | wc -l) | $size | $fingerprint"
