#!/bin/sh
# make deb: Debian 12's glibc source package, the version of base.conf,
# from Debian's archive (apt-get source, checked against the archive's
# signed index), with the series added as its maintainers would add it
# (scripts/deb/add-series.py), built as a source package with dpkg-source
# (which refuses a patch that needs fuzz) and as binary packages with
# dpkg-buildpackage, in build/deb/.  Prints the time of each step; the
# build's output goes to build/logs/deb-build.log.
#
# The binary packages are built as a Debian build daemon builds them:
# in a Debian 12 root of their own (scripts/deb/root.sh, in
# build/deb-root/) that has build-essential and the build dependencies
# (apt-get build-dep there) and nothing else of this machine's, by a
# user who is not root (uid DEB_BUILDER_UID, 2000 by default, which
# must be nobody's here), with every signal but SIGHUP at its default
# action and no descriptor but 0, 1 and 2 (scripts/lib/fresh-process.py).
# glibc's tests notice what the machine has (gdb, for the pretty
# printers' tests) and who runs them.  The failures of Debian's test run
# that are this machine's (check/xfail-debian) are added to the tree
# that is built (scripts/deb/machine-xfails.py), not to the source package.
#
# DEB_BUILD_OPTIONS defaults to "nocheck parallel=<cores + 1>": without
# nocheck, debian/rules runs glibc's make check for every flavour and
# fails on any FAIL not in debian/testsuite-xfail-debian.mk (hours).
# DEB_BUILD_PROFILES=nobiarch builds the amd64 flavour alone (no i386 and
# x32 libraries).  Once the build is done, prints each flavour's test
# summary (glibc's tests.sum) when Debian's test run took place, and
# fails if a flavour has a FAIL (whatever debian/rules decides: it means
# to let a stable update's failures through, with a test on DEB_VERSION
# that cannot match today).  Packages of this version from an earlier
# build are removed first: the packages in build/deb are the last
# build's, and only when it succeeded.
#
# DEB_CONTINUE=yes goes on with the build already in build/deb (after an
# interruption, for one): no fresh source or root, and dpkg-buildpackage
# -nc, so that debian/rules skips the steps whose stamps it has (a
# flavour's test run interrupted starts again).
#
# DEB_SERIES=no builds the stock package, without the series, in
# build/deb-stock/ (root build/deb-stock-root/): what a failure of the
# test run is compared with (scripts/deb/tree-test.sh).
#
# Usage: [DEB_VERSION_SUFFIX=+pidfd1] [DEB_BUILD_OPTIONS=...]
#          [DEB_BUILD_PROFILES=...] [DEB_CONTINUE=yes] [DEB_SERIES=no]
#          [DEB_BUILDER_UID=UID] scripts/deb/build.sh
set -u
. scripts/lib/common.sh
. ./base.conf
suffix=${DEB_VERSION_SUFFIX:-+pidfd1}
: "${DEB_BUILD_OPTIONS=nocheck parallel=$(($(nproc) + 1))}"
: "${DEB_BUILD_PROFILES=}"
. scripts/deb/vars.sh
. scripts/lib/series.sh
began=$(date +%s)
log=build/logs/deb-build.log
[ "${DEB_SERIES-yes}" != no ] || log=build/logs/deb-build-stock.log


step ()
{
  printf '  %-34s %s\n' "$1" "$(($(date +%s) - $2))s"
}

[ "$(id -u)" = 0 ] || die "needs root (a chroot, apt-get there)"
getent passwd "$uid" > /dev/null || getent group "$uid" > /dev/null \
  && die "uid $uid is a user or group of this machine's, which could" \
	 "write the packages: DEB_BUILDER_UID=<a uid nobody has>"

# Each flavour's test summary, from the tests.sum of glibc's make check
# and the lines debian/rules printed when it skipped the test run.
summaries ()
{
  grep -E '^(check for [^ ]* (passed|failed)|.*[Tt]ests have been (skipped|disabled).*|Testsuite disabled.*)$' \
    "$log" | sed 's/^/  /'
  for sum in "$src"/build-tree/*/tests.sum; do
    [ -f "$sum" ] || continue
    printf '  %s:' "$(basename "$(dirname "$sum")")"
    for result in PASS FAIL XPASS XFAIL UNSUPPORTED; do
      printf ' %s %d' "$result" "$(grep -c "^$result:" "$sum")"
    done
    echo
    grep -E '^(FAIL|XPASS):' "$sum" | sed 's/^/    /'
  done
}

# no_failures: fail if a flavour's test run has a FAIL, and take away
# the .changes that make deb-test trusts.
no_failures ()
{
  if grep -l '^FAIL:' "$src"/build-tree/*/tests.sum > /dev/null 2>&1; then
    rm -f "$deb"/glibc_"$(without_epoch "$version")"_*.changes
    die "a test failed (the FAIL lines above): $log"
  fi
}

# build [DPKG-BUILDPACKAGE-OPTION...]: dpkg-buildpackage -B in the root,
# as the builder, in build/deb/glibc-2.36 (mounted there at /build),
# its output to the log.  In the background: the shell runs a trap
# only once the command it waits for is done, and a wait is cut short
# by the signal (the EXIT trap then stops what runs in the root).
build ()
{
  as_builder "cd $inside/glibc-2.36 && dpkg-buildpackage -B -us -uc $*" \
    >> "$log" 2>&1 &
  wait $!
}

deb_lock
# The root stays (DEB_CONTINUE goes on in it), unmounted: nothing may
# stay mounted in build/, which make clean removes.
trap 'scripts/deb/root.sh unmount "$root"' EXIT
trap 'exit 1' INT TERM HUP QUIT

mkdir -p "$deb" build/logs
if [ "${DEB_CONTINUE-}" = yes ]; then
  [ -d "$src/stamp-dir" ] || die "DEB_CONTINUE=yes: no build in $src to go on with"
  [ -d "$root/etc" ] && chroot "$root" id builder > /dev/null 2>&1 \
    || die "DEB_CONTINUE=yes: no root with its builder in $root to go on in"
  builder_owns_src
  version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
  echo "build: going on with the build of $version" >> "$log"
  scripts/deb/root.sh mount "$root" || exit 1
  mount_deb
  t=$(date +%s)
  build -nc \
    || { tail -n 30 "$log" >&2; summaries; die "dpkg-buildpackage failed: $log"; }
  step "dpkg-buildpackage (continued)" "$t"
  summaries
  no_failures
  exit 0
fi
: > "$log"
t=$(date +%s)
command -v dpkg-source > /dev/null \
  || DEBIAN_FRONTEND=noninteractive apt-get install -y dpkg-dev >> "$log" 2>&1 \
  || die "cannot install dpkg-dev: $log"
dsc=$(scripts/deb/fetch-source.sh "$deb" "$log") || exit 1
rm -rf "$src"
dpkg-source -x "$dsc" "$src" >> "$log" 2>&1 \
  || die "dpkg-source -x $dsc failed: $log"
step "source $GLIBC_SOURCE_VERSION" "$t"

t=$(date +%s)
if [ "${DEB_SERIES-yes}" != no ]; then
  scripts/deb/add-series.py "$src" "$suffix" || exit 1
fi
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
# The packages of an earlier build of this version: gone, so that what
# build/deb holds is this build's, or nothing.
v=$(without_epoch "$version")
rm -f "$deb"/*_"$v"_*.deb "$deb"/*_"$v"_*.udeb "$deb"/glibc_"$v"_*.changes \
  "$deb"/glibc_"$v"_*.buildinfo
(cd "$deb" && dpkg-source -b glibc-2.36) >> "$log" 2>&1 \
  || die "dpkg-source -b failed (a patch that does not apply?): $log"
# dpkg-source -b applied the series' patches and marked them to be
# unapplied at the end of the build, Debian's with them: the tree stays
# patched, as the stock one does, so that its tests can run again there
# (scripts/deb/tree-test.sh) on the libc that was built and tested.
rm -f "$src/.pc/.dpkg-source-unapply"
if [ "${DEB_SERIES-yes}" != no ]; then
  scripts/deb/machine-xfails.py "$src" || exit 1
fi
step "source package $version" "$t"

t=$(date +%s)
scripts/deb/root.sh make "$root" >> "$log" 2>&1 \
  || die "cannot make the root: $log"
mount_deb
profiles=
[ -n "$DEB_BUILD_PROFILES" ] && profiles="-P$DEB_BUILD_PROFILES"
in_root "useradd --uid $uid --user-group --home-dir $inside --no-create-home \
	   builder && apt-get update -q && apt-get dist-upgrade -y \
	   && apt-get build-dep -y --arch-only \
	   --no-install-recommends $profiles $inside/glibc-2.36" >> "$log" 2>&1 \
  || die "the build dependencies cannot be installed in $root: $log"
# The builder writes the tree and the packages beside it.
chown -R "$uid:$uid" "$src" && chown "$uid:$uid" "$deb" \
  || die "cannot give $src to the builder"
step "root with the build dependencies" "$t"

t=$(date +%s)
echo "build: DEB_BUILD_OPTIONS='$DEB_BUILD_OPTIONS'" \
  "DEB_BUILD_PROFILES='$DEB_BUILD_PROFILES'" >> "$log"
# -B: the architecture's packages (libc6, libc6-dev, libc-bin, the
# multilib flavours...), not locales, glibc-doc and glibc-source.
build \
  || { tail -n 30 "$log" >&2; summaries; die "dpkg-buildpackage failed: $log"; }
step "dpkg-buildpackage" "$t"
summaries
no_failures
ls "$deb"/*_"$v"_*.deb | sed 's|.*/|  |'
# The summary, into results/deb.md (the series' packages only).
if [ "${DEB_SERIES-yes}" != no ]; then
  mkdir -p results
  {
    printf '# make deb\n\nWritten by scripts/deb/build.sh: the packages %s, built %s,' \
      "$version" "$(results_provenance \
		    | sed 's/^\([^|]*\) | \([^|]*\) | /on \1 from checkout \2, series /')"
    printf ' with DEB_BUILD_OPTIONS=%s DEB_BUILD_PROFILES=%s in %s.\n\n' \
      "'$DEB_BUILD_OPTIONS'" "'$DEB_BUILD_PROFILES'" \
      "$(minutes $(($(date +%s) - began)))"
    printf 'Each flavour'"'"'s test run (none with nocheck):\n\n```\n'
    summaries
    printf '```\n\nThe packages:\n\n```\n'
    ls "$deb"/*_"$v"_*.deb | sed 's|.*/||'
    printf '```\n'
  } > results/deb.md
fi
