#!/bin/sh
# make deb-test: the packages of make deb, end to end in a throwaway
# Debian 12 root (scripts/deb/root.sh, in build/deb-test-root).  It
# installs the built libc6, libc-bin, libc6-dev and libc-dev-bin over
# the root's stock ones (only packages of make deb's last build, with
# the checksums its .changes lists), compiles each program of examples/
# with plain cc (no flags, no paths) and runs it, then packages two of
# them as a Debian maintainer would (dpkg-shlibdeps, dpkg-gencontrol)
# and prints the dependencies they get, and whether each is satisfied
# by this libc6, by the stock Debian 12 libc6 (the archive's, and the
# next update, which will have the same Provides), and by Debian 13's
# libc6 (scripts/deb/dependency-check.sh).  The same for each multilib
# flavour the build made (libc6-i386 with cc -m32, libc6-x32 with
# cc -mx32, gcc-multilib from the archive): built, packaged, checked,
# and run where the kernel can run it.  Last, with the native example
# packages installed, what apt would do to go back to the stock libc6,
# and what apt upgrade and apt full-upgrade would do when the next
# stock update appears (an apt repository of the root's own, with the
# archive's entries of the stock version at the next version), without
# and with the pin of docs/packaging.md.
#
# The root is scripts/deb/root.sh's, unpacked anew for each run.
#
# Usage: scripts/deb/test.sh
set -u
. scripts/lib/common.sh
. ./base.conf
# The packages of build/deb, whatever DEB_SERIES says, in a root of
# this script's own.
DEB_SERIES=yes
. scripts/deb/vars.sh
root=build/deb-test-root


[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount)"
# Not while make deb runs: it may replace the packages.
deb_lock
[ -f "$src/debian/changelog" ] || die "no packages: make deb"
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
changes=$deb/glibc_$(without_epoch "$version")_$arch.changes
[ -f "$changes" ] || die "no $changes: make deb (did its last build fail?)"
mkdir -p build/logs

# Whether a package is one of the last build's: its name and checksum
# are in the .changes (an older build's package is not).
built ()
{
  [ -f "$1" ] || return 1
  grep -q "^ $(sha256sum < "$1" | cut -d' ' -f1) [0-9]* $(basename "$1")\$" \
    "$changes"
}

debs=
for p in libc6 libc-bin libc6-dev libc-dev-bin; do
  f=$deb/${p}_${version}_$arch.deb
  built "$f" || die "$f is not from the last build ($changes): make deb"
  debs="$debs $f"
done
# The flavours, NAME:PACKAGE:CC-FLAG: the native one, and the multilib
# ones the build made (none with the nobiarch profile).  flavour F sets
# name, pkg and flag from one, and s: the suffix of its example
# packages and programs (none for the native one, -NAME for the others).
flavour ()
{
  name=${1%%:*} pkg=${1#*:} flag=${1##*:}
  pkg=${pkg%%:*} s=-$name
  [ "$name" != native ] || s=
}
flavours="native:libc6:"
for f in i386:-m32 x32:-mx32; do
  name=${f%%:*}
  grep -q " libc6-${name}_${version}_$arch.deb\$" "$changes" || continue
  for p in libc6 libc6-dev; do
    built "$deb/$p-${name}_${version}_$arch.deb" \
      || die "$deb/$p-${name}_${version}_$arch.deb is not the one" \
	     "$changes lists"
  done
  debs="$debs $deb/libc6-${name}_${version}_$arch.deb"
  debs="$debs $deb/libc6-dev-${name}_${version}_$arch.deb"
  flavours="$flavours $name:libc6-$name:${f#*:}"
done

trap 'scripts/deb/root.sh remove "$root"' EXIT
trap 'exit 1' INT TERM HUP QUIT
scripts/deb/root.sh make "$root" || exit 1
mkdir -p "$root/tmp/debs" "$root/tmp/work"
# shellcheck disable=SC2086
cp $debs "$root/tmp/debs/"
cp examples/*.c "$root/tmp/work/"

echo "==> stock: $(in_root "dpkg-query -W libc6")"
in_root "dpkg -i /tmp/debs/*.deb" > build/logs/deb-test-install.log 2>&1 \
  || die "dpkg -i failed: build/logs/deb-test-install.log"
echo "==> installed:"
for f in $flavours; do
  flavour "$f"
  in_root "dpkg-query -W -f '  \${Package} \${Version}
    Provides: \${Provides}
' $pkg"
done
in_root "apt-get update -qq" > /dev/null 2>&1 || die "apt-get update failed"

in_root '
set -e
cd /tmp/work
for c in *.c; do
  p=${c%.c}
  echo "==> cc -o $p $c && ./$p"
  cc -o "$p" "$c"
  "./$p"
done' || die "an example failed"

# The multilib flavours: gcc -m32 and -mx32 (gcc-multilib, whose
# libc6-dev-i386 and libc6-dev-x32 are ours), the two examples built
# with each and run where this kernel can (exit status 126: it cannot
# execute the file, as an x32 program on a kernel without
# CONFIG_X86_X32_ABI).
if [ "$flavours" != "native:libc6:" ]; then
  in_root "apt-get install -y gcc-multilib" \
    > build/logs/deb-test-multilib.log 2>&1 \
    || die "cannot install gcc-multilib: build/logs/deb-test-multilib.log"
fi
for f in $flavours; do
  flavour "$f"
  [ -n "$flag" ] || continue
  in_root "
cd /tmp/work
for p in pidfd-spawn pidfd-fork; do
  echo \"==> cc $flag -o \$p-$name \$p.c && ./\$p-$name\"
  cc $flag -o \$p-$name \$p.c || exit 1
  ./\$p-$name
  rc=\$?
  if [ \$rc = 126 ]; then
    echo '    (this kernel cannot run $name programs: not run)'
  elif [ \$rc != 0 ]; then
    exit 1
  fi
done" || die "a $name example failed"
done

# The examples as packages, as a maintainer would build them: for each
# flavour, one with pidfd-spawn and one with pidfd-fork
# (pidfd-spawn-example, pidfd-spawn-example-i386, ...).
suffixes=
for f in $flavours; do
  flavour "$f"
  suffixes="$suffixes '$s'"
done
in_root "
set -e
cd /tmp/work
mkdir -p debian
printf 'Source: pidfd-examples\nMaintainer: nobody <nobody@localhost>\n' \
  > debian/control
for s in $suffixes; do
  for p in pidfd-spawn pidfd-fork; do
    printf '\nPackage: %s\nArchitecture: any\nDepends: %s\nDescription: %s example\n' \
      \$p-example\$s '\${shlibs:Depends}' \$p >> debian/control
  done
done
printf 'pidfd-examples (1) bookworm; urgency=low\n\n  * Test.\n\n -- nobody <nobody@localhost>  %s\n' \
  \"\$(date -R)\" > debian/changelog
for s in $suffixes; do
  for p in pidfd-spawn pidfd-fork; do
    d=debian/\$p-example\$s
    mkdir -p \$d/usr/bin \$d/DEBIAN
    cp \$p\$s \$d/usr/bin/
    dpkg-shlibdeps -T\$d.substvars \$d/usr/bin/\$p\$s
    dpkg-gencontrol -p\$p-example\$s -P\$d -T\$d.substvars
    dpkg-deb -Zgzip --build \$d /tmp/\$p-example\$s.deb > /dev/null
    echo \"==> \$p-example\$s: Depends: \$(dpkg-deb -f /tmp/\$p-example\$s.deb Depends)\"
  done
done" || die "packaging the examples failed"

# Each Depends against the packages of its flavour a user may have: the
# stock Debian 12 one (its Provides, from the archive), the next stock
# update (which will have the same Provides), Debian 13's.
provides_of ()
{
  scripts/lib/debian-apt.sh "$1" "$arch" apt-cache show "$2${3:+=$3}" \
    | awk '/^Version: / { v = $2 } /^Provides: / { p = substr($0, 11) }
	   /^$/ && v { print v "|" p; exit }'
}
next_stock=$(scripts/deb/next-stable-update.sh "$GLIBC_SOURCE_VERSION") || exit 1
for f in $flavours; do
  flavour "$f"
  stock=$(provides_of bookworm "$pkg" "$GLIBC_SOURCE_VERSION")
  [ -n "$stock" ] || die "no $pkg $GLIBC_SOURCE_VERSION in Debian 12's archive" \
    "$snapshot_hint"
  stock=${stock#*|}
  trixie=$(provides_of trixie "$pkg")
  [ -n "$trixie" ] || die "no $pkg in Debian 13's archive"
  ours=$(in_root "dpkg-query -W -f '\${Version}|\${Provides}' $pkg")
  # What each should give: pidfd_spawn is GLIBC_2.39, which Debian 13
  # has; pidfd_fork is the series' alone.
  for e in pidfd-spawn:yes pidfd-fork:no; do
    trixie_ok=${e#*:} e=${e%:*}-example$s
    depends=$(in_root "dpkg-deb -f /tmp/$e.deb Depends")
    echo "==> $e ($depends) installs with:"
    scripts/deb/dependency-check.sh "$pkg" "$depends" \
      "this series' $pkg|$ours|yes" \
      "stock Debian 12 $pkg|$GLIBC_SOURCE_VERSION|$stock|no" \
      "the next stock Debian 12 update|$next_stock|$stock|no" \
      "Debian 13's $pkg|$trixie|$trixie_ok" || exit 1
  done
done

echo "==> with the native example packages installed, going back to the stock libc6"
echo "    (apt-get -s; the whole answer in build/logs/deb-test-apt.log):"
in_root "dpkg -i /tmp/pidfd-spawn-example.deb /tmp/pidfd-fork-example.deb" \
  > /dev/null || die "cannot install the example packages"
in_root "apt-get -s install libc6=$GLIBC_SOURCE_VERSION \
  libc-bin=$GLIBC_SOURCE_VERSION libc6-dev=$GLIBC_SOURCE_VERSION \
  libc-dev-bin=$GLIBC_SOURCE_VERSION 2>&1" > build/logs/deb-test-apt.log
# The example packages removed and the libc packages replaced (the
# multilib packages go too: they need libc6 of their own version).
grep -E '^(Remv pidfd|Inst libc[^ ]* |E:)' build/logs/deb-test-apt.log \
  | sed 's/^/  /; s/) \[.*\]$/)/'
! grep -q '^E:' build/logs/deb-test-apt.log \
  || die "apt-get -s failed: build/logs/deb-test-apt.log"

# The next stock update, as apt will see it: an apt repository in the
# root that has each installed package of glibc's at $next_stock (the
# archive's entries of the stock version, the version changed; apt -s
# fetches nothing).  What apt upgrade and apt full-upgrade would do,
# then the same with the pin of docs/packaging.md; each must do what
# that page says it does.
echo "==> a stock update $next_stock appears (apt-get -s; build/logs/deb-test-upgrade.log):"
mkdir -p "$root/tmp/next"
glibc_packages=$(in_root "dpkg-query -W -f '\${source:Package} \${Package}\n'") \
  || die "dpkg-query failed in the root"
for p in $(echo "$glibc_packages" | awk '$1 == "glibc" { print $2 }'); do
  entry=$(scripts/lib/debian-apt.sh bookworm "$arch" apt-cache show \
	    "$p=$GLIBC_SOURCE_VERSION") && [ -n "$entry" ] \
    || die "no $p $GLIBC_SOURCE_VERSION in Debian 12's archive $snapshot_hint"
  printf '%s\n\n' "$entry" | sed "s/$GLIBC_SOURCE_VERSION/$next_stock/g"
done > "$root/tmp/next/Packages"
grep -q '^Package: libc6$' "$root/tmp/next/Packages" \
  || die "no libc6 in the update's repository"
in_root "echo 'deb [trusted=yes] file:/tmp/next ./' \
	   > /etc/apt/sources.list.d/next.list && apt-get update -qq" \
  > /dev/null 2>&1 || die "cannot add the update's repository to the root"
: > build/logs/deb-test-upgrade.log
# simulate TITLE COMMAND: prints what apt-get -s says it would install,
# remove or keep back; its whole answer in $root/tmp/apt.out.
simulate ()
{
  echo "==> $1" >> build/logs/deb-test-upgrade.log
  in_root "$2" > "$root/tmp/apt.out" 2>&1
  rc=$?
  cat "$root/tmp/apt.out" >> build/logs/deb-test-upgrade.log
  [ $rc = 0 ] || die "$1 failed: build/logs/deb-test-upgrade.log"
  echo "  $1:"
  awk '/^(Inst|Remv) |^[0-9]+ upgraded/ { print; kept = 0; next }
       /kept back:$/ { kept = 1; print; next }
       kept && /^ / { print; next } { kept = 0 }' "$root/tmp/apt.out" \
    | sed 's/^/    /; s/ \[\]$//; s/) \[.*\]$/)/'
}
simulate "apt-get -s upgrade" "apt-get -s upgrade"
awk '/kept back:$/ { kept = 1; next }
     kept && /^ / { for (i = 1; i <= NF; i++) if ($i == "libc6") found = 1; next }
     { kept = 0 } END { exit !found }' "$root/tmp/apt.out" \
  || die "apt upgrade would not keep the series' libc6 back"
simulate "apt-get -s full-upgrade" "apt-get -s full-upgrade"
grep -q "^Inst libc6 .*($next_stock " "$root/tmp/apt.out" \
  || die "apt full-upgrade would not install the update's libc6"
grep -q '^Remv pidfd-fork-example ' "$root/tmp/apt.out" \
  || die "apt full-upgrade would not remove pidfd-fork-example"
in_root "printf '%s\n' 'Package: src:glibc:any' 'Pin: version /\\+pidfd/' \
	   'Pin-Priority: 1001' > /etc/apt/preferences.d/pidfd" \
  || die "cannot write the pin in the root"
for how in upgrade full-upgrade; do
  simulate "apt-get -s $how, with the pin of docs/packaging.md" "apt-get -s $how"
  ! grep -Eq '^(Remv|Inst) ' "$root/tmp/apt.out" \
    || die "with the pin, apt $how would still change the series' libc"
done
exit 0
