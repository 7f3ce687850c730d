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
# ARCH=<Debian architecture> (one of the nine Debian 12 builds glibc for)
# cross-builds that architecture's packages in the same kind of root,
# as Debian bootstraps glibc for an architecture: the root gets ARCH
# as a foreign architecture (dpkg --add-architecture) and the build
# dependencies of ARCH (apt-get build-dep -a ARCH: Debian's cross
# compilers, and ARCH's libraries), and dpkg-buildpackage -a ARCH runs
# with the profiles cross (the build dependencies of a cross build),
# nocheck (DEB_BUILD_OPTIONS must have nocheck: see below) and nobiarch
# (DEB_BUILD_PROFILES, when set, in place of the last).  nobiarch:
# the multilib flavours of i386, mips64el, mipsel and s390x need the
# multilib cross compilers, which Debian's build dependencies do not
# name for a cross build (g++-12-multilib of ARCH cannot be installed
# on amd64); Debian's own bootstrap builds without them too.  Its
# packages, source and build land in build/deb-ARCH/, its root in
# build/deb-root-ARCH/, which is removed once the build has succeeded
# (more than a GB each).  The source package is the same for every
# architecture: each clone3 wrapper patch is in Debian's directory of
# its architecture.
#
# Once built, whatever the architecture: each flavour's check-abi
# (glibc's comparison of the libraries' symbols with the abilist files,
# a part of the tests that nocheck leaves out), run in the build tree as
# the builder; then scripts/deb/check-package.py on the packages
# (the series' symbols at their nodes in each packaged libc.so.6, the
# Provides).  Either failing fails the build.  The row of ARCH in
# results/deb.md says what was built, in what time, and both checks.
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
# Usage: [ARCH=ARCH] [DEB_VERSION_SUFFIX=+pidfd1] [DEB_BUILD_OPTIONS=...]
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
deb_arch_check
began=$(date +%s)
provenance=$(results_provenance)
log=build/logs/deb-build
[ "${DEB_SERIES-yes}" != no ] || log=$log-stock
[ "$arch" = "$build_arch" ] || log=$log-$arch
log=$log.log
# The profiles, separated by spaces as dpkg-buildpackage reads them
# from the environment (-P takes commas).  A cross build: its -a, and
# the profiles cross and nocheck with the others (nobiarch by default).
# The nocheck profile goes with the nocheck option (BuildProfileSpec):
# a cross build without the option would run Debian's test run only
# where binfmt_misc hands the architecture's programs to qemu-user,
# and then only the tests that run no program (glibc's cross-compiling
# mode), which says nothing; it is refused.
DEB_BUILD_PROFILES=$(echo "$DEB_BUILD_PROFILES" | tr , ' ')
host_option=
if [ "$arch" != "$build_arch" ]; then
  host_option=-a$arch
  case " $DEB_BUILD_OPTIONS " in
    *" nocheck "*) ;;
    *) die "ARCH=$arch is cross-built: DEB_BUILD_OPTIONS must have nocheck" \
	   "(Debian's test run of a cross build runs no test program)" ;;
  esac
  [ -n "$DEB_BUILD_PROFILES" ] || DEB_BUILD_PROFILES=nobiarch
  for p in nocheck cross; do
    case " $DEB_BUILD_PROFILES " in
      *" $p "*) ;;
      *) DEB_BUILD_PROFILES="$p $DEB_BUILD_PROFILES" ;;
    esac
  done
fi


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
  as_builder "cd $inside/glibc-2.36 && dpkg-buildpackage -B -us -uc $host_option $*" \
    >> "$log" 2>&1 &
  wait $!
}

# after_build TIME: the test summaries, then the checks of a build
# that succeeded (check-abi of each flavour, scripts/deb/check-package.py),
# and for the series' packages, the row of results/deb.md; TIME is the
# build's.  Fails, and takes the .changes away, if a check fails.
after_build ()
{
  summaries
  no_failures
  changes=$deb/glibc_${v}_$arch.changes
  [ -f "$changes" ] || die "the build made no $changes: $log"
  ls "$deb"/*_"$v"_*.deb | sed 's|.*/|  |'
  t=$(date +%s)
  flavours=
  for f in "$src"/build-tree/*/config.make; do
    [ -f "$f" ] || continue
    f=$(basename "$(dirname "$f")")
    echo "build: make check-abi in build-tree/$f" >> "$log"
    as_builder "make -C $inside/glibc-2.36/build-tree/$f check-abi" \
      >> "$log" 2>&1 \
      || { rm -f "$changes"; die "check-abi failed in build-tree/$f: $log"; }
    flavours="$flavours${flavours:+, }$f"
  done
  [ -n "$flavours" ] || die "no flavour in $src/build-tree"
  step "check-abi: $flavours" "$t"
  # The stock packages have none of the series' symbols to check.
  [ "${DEB_SERIES-yes}" != no ] || return 0
  checked=$(scripts/deb/check-package.py "$changes" "$src") \
    || { rm -f "$changes"; die "the packages fail their check (above)"; }
  echo "$checked" | sed 's/^/  /'
  # Each flavour's test run, in a few words.
  tests=$(summaries | sed 's/^ *//
      s/^Tests have been disabled via DEB_BUILD_OPTIONS\.$/disabled (nocheck)/
      s/^Flavour cross-compiled, tests have been skipped$/skipped (cross-compiled)/' \
    | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2, \1 flavours/
					 s/, 1 flavours$//' \
    | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  results_update deb.md \
    "make deb: Debian 12's glibc packages with the series, per architecture" \
    "architecture | version | built in | DEB_BUILD_OPTIONS | DEB_BUILD_PROFILES | Debian's test run | check-abi | symbols and Provides | packages" \
    "$arch" \
    "$arch | $version | $1 | $DEB_BUILD_OPTIONS | ${DEB_BUILD_PROFILES:--} | ${tests:--} | PASS: $flavours | $(echo "$checked" | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//; s/ /, /g'): each has the series' symbols and Provides | $(sed -n '/^Files:/,/^[^ ]/p' "$changes" | grep -c '\.deb$')"
}

deb_lock
# The root stays (DEB_CONTINUE goes on in it; a cross build removes
# its root once it succeeded), unmounted: nothing may stay mounted in
# build/, which make clean removes.
trap 'scripts/deb/root.sh unmount "$root"' EXIT
trap 'exit 1' INT TERM HUP QUIT

mkdir -p "$deb" build/logs
if [ "${DEB_CONTINUE-}" = yes ]; then
  [ -d "$src/stamp-dir" ] || die "DEB_CONTINUE=yes: no build in $src to go on with"
  [ -d "$root/etc" ] && chroot "$root" id builder > /dev/null 2>&1 \
    || die "DEB_CONTINUE=yes: no root with its builder in $root to go on in"
  builder_owns_src
  version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
  v=$(without_epoch "$version")
  echo "build: going on with the build of $version" >> "$log"
  scripts/deb/root.sh mount "$root" || exit 1
  mount_deb
  t=$(date +%s)
  build -nc \
    || { tail -n 30 "$log" >&2; summaries; die "dpkg-buildpackage failed: $log"; }
  step "dpkg-buildpackage (continued)" "$t"
  after_build "$(minutes $(($(date +%s) - t))) (continued)"
  [ -z "$host_option" ] || scripts/deb/root.sh remove "$root"
  exit 0
fi
: > "$log"
[ "$arch" = "$build_arch" ] || deb_arch_archived
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
# apt-get takes the profiles separated by commas.
profiles=
[ -z "$DEB_BUILD_PROFILES" ] \
  || profiles="-P$(echo "$DEB_BUILD_PROFILES" | tr ' ' ,)"
foreign=true
[ -z "$host_option" ] || foreign="dpkg --add-architecture $arch"
in_root "useradd --uid $uid --user-group --home-dir $inside --no-create-home \
	   builder && $foreign && apt-get update -q \
	   && apt-get dist-upgrade -y && apt-get build-dep -y --arch-only \
	   --no-install-recommends $host_option $profiles \
	   $inside/glibc-2.36" >> "$log" 2>&1 \
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
after_build "$(minutes $(($(date +%s) - began)))"
# A cross build's root: more than a GB, and of no use once it succeeded.
[ -z "$host_option" ] || scripts/deb/root.sh remove "$root"
