#!/bin/sh
# The apt side of make deb-test (scripts/deb/test.sh), in its root ROOT,
# where the series' packages are installed from the repository (its
# pin in /etc/apt/preferences.d/pidfd-series.pref) with the two native
# example packages, pidfd-spawn-example and pidfd-fork-example: what
# apt would do to go back to the stock packages (apt-get -s), and what
# apt-get upgrade and apt-get full-upgrade would do when the next stock
# update appears (an apt repository in the root that has each installed
# package of glibc's, of each architecture, at the next version: the
# archive's entries of the stock version, the version changed; apt -s
# fetches nothing), without the repository's pin, then with it.  Each
# must do what docs/packaging.md says it does, or this fails.  The
# whole answers are in build/logs/deb-test-apt.log and
# build/logs/deb-test-upgrade.log.
#
# Usage: scripts/deb/upgrade-path.sh ROOT
set -u
. scripts/lib/common.sh
. ./base.conf
. scripts/deb/vars.sh
root=${1:?usage: scripts/deb/upgrade-path.sh ROOT}


next_stock=$(scripts/deb/next-stable-update.sh "$GLIBC_SOURCE_VERSION") || exit 1
glibc_packages=$(in_root "dpkg-query -W -f '\${source:Package} \${Package} \${Architecture}\n'" \
		   | awk '$1 == "glibc" { print $2 ":" $3 }') \
  || die "dpkg-query failed in the root"
[ -n "$glibc_packages" ] || die "no package of glibc's in $root"

# Every package of glibc's at the stock version, of each architecture:
# those of one package name go together (Multi-Arch: same).
echo "==> going back to the stock libc (apt-get -s; build/logs/deb-test-apt.log):"
in_root "apt-get -s install $(for p in $glibc_packages; do
			       printf ' %s=%s' "$p" "$GLIBC_SOURCE_VERSION"
			     done) 2>&1" > build/logs/deb-test-apt.log
# The example packages removed and the libc packages replaced (the
# multilib packages go too: they need libc6 of their own version).
grep -E '^(Remv pidfd|Inst libc[^ ]* |E:)' build/logs/deb-test-apt.log \
  | sed 's/^/  /; s/) \[.*\]$/)/'
! grep -q '^E:' build/logs/deb-test-apt.log \
  || die "apt-get -s failed: build/logs/deb-test-apt.log"

echo "==> a stock update $next_stock appears (apt-get -s; build/logs/deb-test-upgrade.log):"
mkdir -p "$root/tmp/next"
for p in $glibc_packages; do
  entry=$(scripts/lib/debian-apt.sh bookworm "${p#*:}" apt-cache show \
	    "${p%:*}=$GLIBC_SOURCE_VERSION") && [ -n "$entry" ] \
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
mv "$root/etc/apt/preferences.d/pidfd-series.pref" "$root/tmp/" \
  || die "cannot take the pin away"
simulate "apt-get -s upgrade, without the pin" "apt-get -s upgrade"
awk '/kept back:$/ { kept = 1; next }
     kept && /^ / { for (i = 1; i <= NF; i++) if ($i == "libc6") found = 1; next }
     { kept = 0 } END { exit !found }' "$root/tmp/apt.out" \
  || die "apt upgrade would not keep the series' libc6 back"
simulate "apt-get -s full-upgrade, without the pin" "apt-get -s full-upgrade"
grep -q "^Inst libc6 .*($next_stock " "$root/tmp/apt.out" \
  || die "apt full-upgrade would not install the update's libc6"
grep -q '^Remv pidfd-fork-example ' "$root/tmp/apt.out" \
  || die "apt full-upgrade would not remove pidfd-fork-example"
mv "$root/tmp/pidfd-series.pref" "$root/etc/apt/preferences.d/" \
  || die "cannot put the pin back"
# With the pin, no package of glibc's and no example package changes
# (a package of the root's own may have an update of its own).
for how in upgrade full-upgrade; do
  simulate "apt-get -s $how, with the repository's pin" "apt-get -s $how"
  awk -v glibc=" $(echo "$glibc_packages" | sed 's/:[^:]*$//' | tr '\n' ' ') " '
    /^(Remv|Inst) / {
      name = $2; sub (/:.*/, "", name)
      if (index (glibc, " " name " ") || name ~ /^pidfd-.*-example$/) {
        print "    changed: " $0; changed = 1
      }
    }
    END { exit changed }' "$root/tmp/apt.out" \
    || die "with the pin, apt $how would still change the series' libc"
done
