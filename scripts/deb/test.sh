#!/bin/sh
# make deb-test: the packages of make repo's apt repository (build/repo),
# end to end in a throwaway Debian 12 root of this machine's
# architecture (scripts/deb/root.sh, in build/deb-test-root), installed
# as a user installs them: the repository mounted at its own path,
# its pidfd-series.sources and pidfd-series.pref copied into /etc/apt
# (no trusted=yes: apt checks its signature), then apt-get install.
# Where the repository has i386 packages too, the root is a multiarch
# one (dpkg --add-architecture i386), and libc6:amd64 and libc6:i386
# of the series are installed side by side, with libc6-dev.
#
# Then it compiles each program of examples/ with plain cc (no flags,
# no paths) and runs it, and packages two of them as a Debian
# maintainer would (dpkg-shlibdeps, dpkg-gencontrol), prints the
# dependencies they get, and whether each is satisfied by this libc6,
# by the stock Debian 12 libc6 (the archive's, and the next update,
# which will have the same Provides), and by Debian 13's libc6
# (scripts/deb/dependency-check.sh).  The same for each other flavour
# the repository has: libc6-i386 with cc -m32 and libc6-x32 with cc
# -mx32 (gcc-multilib), and libc6:i386 with Debian's i686-linux-gnu-gcc
# (its programs run through /lib/ld-linux.so.2 on the i386 libc6, which
# is checked): built, packaged, checked, and run where the kernel can
# run them.  Each flavour's row of results/deb-test.md has the
# dependencies its programs got.  Last, with the native example
# packages installed, what apt would do to go back to the stock libc6,
# and what apt upgrade and apt full-upgrade would do when the next stock
# update appears, without and with the repository's pin
# (scripts/deb/upgrade-path.sh).
#
# ARCH=<another architecture> does the same in a Debian 12 root of
# that architecture (build/deb-test-root-ARCH), whose programs this
# machine's kernel hands to qemu-user-static (but i386's, which it runs
# itself): apt, cc and the packaging tools run there under emulation.
# The examples are built there and run on the architecture's own kernel
# under qemu-system (scripts/target/boot-root.sh), where pidfd_spawn
# gets its pidfd from clone3; under qemu-user it could not (ENOSYS, as
# docs/using.md says).
#
# Usage: [ARCH=ARCH] scripts/deb/test.sh
set -u
. scripts/lib/common.sh
. ./base.conf
# The packages of build/repo, whatever DEB_SERIES says, in a root of
# this script's own.
DEB_SERIES=yes
. scripts/deb/vars.sh
deb_arch_check
. scripts/lib/series.sh
root=build/deb-test-root
# emulated: the root's programs run under qemu-user (not i386 on amd64,
# which this machine's kernel runs itself).
emulated=
if [ "$arch" != "$build_arch" ]; then
  root=$root-$arch
  export ROOT_ARCH=$arch
  kernel_arch=$(. scripts/lib/abi.sh && ABI=$arch && abi_load \
		  && echo "$kernel_arch") || exit 1
  [ "$kernel_arch" = "$build_arch" ] || emulated=yes
fi


[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount)"
# Not while make deb or make repo runs: they may replace the packages.
deb_lock
provenance=$(results_provenance)
release=$repo/dists/$suite/Release
[ -f "$release" ] || die "no repository: make deb, then make repo"
repo_arches=$(sed -n 's/^Architectures: //p' "$release")
case " $repo_arches " in
  *" $arch "*) ;;
  *) die "$repo has no $arch packages ($repo_arches): make deb, make repo" ;;
esac
# The version of the series' libc6, as the repository has it.
version=$(awk '/^Package: / { p = $2 } /^Version: / && p == "libc6" { print $2; exit }' \
	    "$repo/dists/$suite/main/binary-$arch/Packages")
[ -n "$version" ] || die "no libc6 in $repo for $arch"
mkdir -p build/logs

# The flavours, NAME:PACKAGE:ARCH:COMPILER:TOOLS (the words of COMPILER
# separated by commas; TOOLS the packages that have it): the native one,
# the multilib ones and the multiarch one the repository has.  flavour F
# sets name, pkg, pkg_arch, compiler and tools from one, and s: the
# suffix of
# its example packages and programs (none for the native one, -NAME for
# the others), and host: the command that runs a packaging tool for its
# architecture.
flavour ()
{
  name=${1%%:*} rest=${1#*:}
  pkg=${rest%%:*} rest=${rest#*:}
  pkg_arch=${rest%%:*} rest=${rest#*:}
  compiler=$(echo "${rest%%:*}" | tr , ' ')
  tools=$(echo "${rest#*:}" | tr , ' ')
  s=-$name host=
  [ "$name" != native ] || s=
  [ "$pkg_arch" = "$arch" ] \
    || host="env CC=$compiler dpkg-architecture -a$pkg_arch -c"
}
packages="libc6 libc-bin libc6-dev libc-dev-bin gcc"
flavours="native:libc6:$arch:cc:"
for f in i386:-m32 x32:-mx32; do
  grep -q "^Package: libc6-${f%%:*}\$" \
    "$repo/dists/$suite/main/binary-$arch/Packages" || continue
  packages="$packages libc6-${f%%:*} libc6-dev-${f%%:*}"
  flavours="$flavours ${f%%:*}:libc6-${f%%:*}:$arch:cc,${f#*:}:gcc-multilib"
done
foreign=
if [ "$arch" = amd64 ]; then
  case " $repo_arches " in
    *" i386 "*)
      foreign=i386
      flavours="$flavours multiarch-i386:libc6:i386:i686-linux-gnu-gcc:libc6:i386,libc6-dev:i386,gcc-i686-linux-gnu" ;;
  esac
fi

# series_only: every package of glibc's in the root is the series'
# (printed with PRINT=yes), and no C library of a cross toolchain's
# (libc6-dev-i386-cross...) is there to take the place of one.
series_only ()
{
  in_root "dpkg-query -W -f '\${source:Package} \${binary:Package} \${Version}\n'" \
    | awk -v v="$version" -v show="${PRINT-}" '
	$1 == "glibc" && (show || $3 != v) { print "  " $2 " " $3 }
	$1 == "glibc" && $3 != v { bad = 1 }
	$2 ~ /^libc6-dev-.*-cross$/ { print "  " $2 " " $3 " (a cross toolchain'"'"'s)"; bad = 1 }
	END { exit bad }'
}

# package: the two examples of the flavour flavour set, as packages
# that a maintainer would build (pidfd-spawn-example,
# pidfd-spawn-example-i386, ...), of the flavour's architecture, their
# dependencies from dpkg-shlibdeps.  Each flavour's right after it is
# built: once libc6:i386 is installed, dpkg-shlibdeps finds its
# /lib/i386-linux-gnu/libc.so.6 for an amd64 package's -m32 program
# before libc6-i386's /lib32 one, and names libc6.
package ()
{
  in_root "
set -e
cd /tmp/work
for p in pidfd-spawn pidfd-fork; do
  printf '\nPackage: %s\nArchitecture: any\nDepends: %s\nDescription: %s example\n' \
    \$p-example$s '\${shlibs:Depends}' \$p >> debian/control
done
for p in pidfd-spawn pidfd-fork; do
  d=debian/\$p-example$s
  mkdir -p \$d/usr/bin \$d/DEBIAN
  cp \$p$s \$d/usr/bin/
  $host dpkg-shlibdeps -T\$d.substvars \$d/usr/bin/\$p$s
  $host dpkg-gencontrol -p\$p-example$s -P\$d -T\$d.substvars
  dpkg-deb -Zgzip --build \$d /tmp/\$p-example$s.deb > /dev/null
  echo \"==> \$p-example$s (\$(dpkg-deb -f /tmp/\$p-example$s.deb Architecture)): Depends: \$(dpkg-deb -f /tmp/\$p-example$s.deb Depends)\"
done" || die "packaging the $name examples failed"
}

trap 'scripts/deb/root.sh remove "$root"' EXIT
trap 'exit 1' INT TERM HUP QUIT
scripts/deb/root.sh make "$root" || exit 1
# The repository at its own path, read-only; its .sources with that
# path for URIs (it may name where other machines reach it: REPO_URI),
# its key block as it is.
top=$(pwd -P)
mkdir -p "$root$top/$repo" \
  && mount --bind "$top/$repo" "$root$top/$repo" \
  && mount -o remount,ro,bind "$root$top/$repo" \
  || die "cannot mount $repo in the root"
sed "s|^URIs: .*|URIs: file:$top/$repo|" "$repo/pidfd-series.sources" \
  > "$root/etc/apt/sources.list.d/pidfd-series.sources" \
  && cp "$repo/pidfd-series.pref" "$root/etc/apt/preferences.d/" \
  || die "cannot copy the repository's files into the root"
mkdir -p "$root/tmp/work/debian"
cp examples/*.c "$root/tmp/work/"
printf 'Source: pidfd-examples\nMaintainer: nobody <nobody@localhost>\n' \
  > "$root/tmp/work/debian/control"
printf 'pidfd-examples (1) bookworm; urgency=low\n\n  * Test.\n\n -- nobody <nobody@localhost>  %s\n' \
  "$(date -R)" > "$root/tmp/work/debian/changelog"

echo "==> stock: $(in_root "dpkg-query -W libc6")"
[ -z "$foreign" ] || in_root "dpkg --add-architecture $foreign" \
  || die "dpkg --add-architecture $foreign failed"
in_root "apt-get update" > build/logs/deb-test-update.log 2>&1 \
  || die "apt-get update failed: build/logs/deb-test-update.log"
# Signed as apt wants it: no error, and no warning (a weak digest, a
# key about to expire...).
! grep -E '^(W|E):' build/logs/deb-test-update.log \
  || die "apt-get update warned (above): build/logs/deb-test-update.log"
echo "==> apt-get install $packages"
in_root "apt-get install -y $packages" > build/logs/deb-test-install.log 2>&1 \
  || die "apt-get install failed: build/logs/deb-test-install.log"
echo "==> installed:"
PRINT=yes series_only \
  || die "a package of glibc's in the root is not the series' $version"
for f in $flavours; do
  flavour "$f"
  [ "$pkg_arch" != "$arch" ] || in_root "dpkg-query -W -f '  \${binary:Package} Provides: \${Provides}
' $pkg:$pkg_arch"
done

# Each example built with plain cc and run: here, or for another
# architecture, on its own kernel (last, below).
run=
[ -n "$emulated" ] || run='"./$p"'
in_root "
set -e
cd /tmp/work
for c in *.c; do
  p=\${c%.c}
  echo \"==> cc -o \$p \$c\"
  cc -o \"\$p\" \"\$c\"
  $run
done" || die "an example failed"
flavour "$(echo "$flavours" | cut -d' ' -f1)"
package

# The other flavours: gcc -m32 and -mx32 (gcc-multilib, whose
# libc6-dev-i386 and libc6-dev-x32 are the series'), Debian's
# i686-linux-gnu-gcc for libc6-dev:i386 (which conflicts with
# gcc-multilib: apt removes that one; without its Recommends, the stock
# libc6-dev-i386-cross, whose headers and libraries it would read
# first); the two examples built with each and run where this kernel
# can (exit status 126: it cannot execute the file, as an x32 program
# on a kernel without CONFIG_X86_X32_ABI).
installed=
for f in $flavours; do
  flavour "$f"
  [ "$name" != native ] || continue
  if [ "$tools" != "$installed" ]; then
    echo "==> apt-get install --no-install-recommends $tools"
    in_root "apt-get install -y --no-install-recommends $tools" \
      >> build/logs/deb-test-compilers.log 2>&1 \
      || die "cannot install $tools: build/logs/deb-test-compilers.log"
    series_only || die "$tools brought another C library (above)"
    installed=$tools
    [ "$pkg_arch" = "$arch" ] || in_root "dpkg-query -W -f '  \${binary:Package} \${Version} Provides: \${Provides}
' $pkg:$pkg_arch"
  fi
  if [ "$pkg_arch" != "$arch" ]; then
    in_root "owners=\$(dpkg -S \"\$(readlink -f \"\$($compiler -print-file-name=libc.so)\")\")
	     echo \"    $compiler links libc.so of \$owners\"
	     case \"\$owners\" in libc6-dev:$pkg_arch:*) ;; *) exit 1 ;; esac" \
      || die "$compiler does not link against libc6-dev:$pkg_arch"
  fi
  in_root "
cd /tmp/work
for p in pidfd-spawn pidfd-fork; do
  echo \"==> $compiler -o \$p$s \$p.c && ./\$p$s\"
  $compiler -o \$p$s \$p.c || exit 1
  ./\$p$s
  rc=\$?
  if [ \$rc = 126 ]; then
    echo '    (this kernel cannot run $name programs: not run)'
  elif [ \$rc != 0 ]; then
    exit 1
  fi
done" || die "a $name example failed"
  package
  [ "$pkg_arch" != "$arch" ] || continue
  # A program of another architecture: the dynamic linker it names,
  # and the libc that one loads (where this kernel runs it), which must
  # be the series' package of that architecture.
  in_root "
cd /tmp/work
interp=\$(readelf -l pidfd-spawn$s | sed -n 's/.*interpreter: \\(.*\\)]/\\1/p')
owners=\$(dpkg -S \"\$interp\" | sed 's/: [^:]*\$//')
echo \"    pidfd-spawn$s: interpreter \$interp (\$owners)\"
case \", \$owners, \" in *\", $pkg:$pkg_arch, \"*) ;; *) exit 1 ;; esac
LD_TRACE_LOADED_OBJECTS=1 ./pidfd-spawn$s > objects
[ \$? != 126 ] || exit 0
libc=\$(awk '\$1 == \"libc.so.6\" { print \$3 }' objects)
owner=\$(dpkg -S \"\$libc\" | cut -d: -f1-2)
echo \"    pidfd-spawn$s: libc \$libc (\$owner \$(dpkg-query -W -f '\${Version}' \$owner))\"
[ \"\$owner\" = $pkg:$pkg_arch ]" \
    || die "pidfd-spawn$s does not run on the series' $pkg:$pkg_arch"
done

# Each Depends against the packages of its flavour a user may have: the
# results' rows, once everything passed (rows).
# stock Debian 12 one (its Provides, from the archive), the next stock
# update (which will have the same Provides), Debian 13's.
provides_of ()
{
  scripts/lib/debian-apt.sh "$1" "$4" apt-cache show "$2${3:+=$3}" \
    | awk '/^Version: / { v = $2 } /^Provides: / { p = substr($0, 11) }
	   /^$/ && v { print v "|" p; exit }'
}
next_stock=$(scripts/deb/next-stable-update.sh "$GLIBC_SOURCE_VERSION") || exit 1
rows=
for f in $flavours; do
  flavour "$f"
  stock=$(provides_of bookworm "$pkg" "$GLIBC_SOURCE_VERSION" "$pkg_arch")
  [ -n "$stock" ] || die "no $pkg:$pkg_arch $GLIBC_SOURCE_VERSION in Debian 12's" \
    "archive $snapshot_hint"
  stock=${stock#*|}
  trixie=$(provides_of trixie "$pkg" "" "$pkg_arch")
  [ -n "$trixie" ] || die "no $pkg:$pkg_arch in Debian 13's archive"
  ours=$(in_root "dpkg-query -W -f '\${Version}|\${Provides}' $pkg:$pkg_arch")
  # What each should give: pidfd_spawn is GLIBC_2.39, which Debian 13
  # has; pidfd_fork is the series' alone.
  cells=
  for e in pidfd-spawn:yes pidfd-fork:no; do
    trixie_ok=${e#*:} e=${e%:*}-example$s
    depends=$(in_root "dpkg-deb -f /tmp/$e.deb Depends")
    echo "==> $e ($depends) installs with:"
    scripts/deb/dependency-check.sh "$pkg" "$depends" \
      "this series' $pkg|$ours|yes" \
      "stock Debian 12 $pkg|$GLIBC_SOURCE_VERSION|$stock|no" \
      "the next stock Debian 12 update|$next_stock|$stock|no" \
      "Debian 13's $pkg|$trixie|$trixie_ok" || exit 1
    cells="$cells | $(echo "$depends" | sed 's/|/\\|/g')"
  done
  rows="$rows$arch | $name | $pkg:$pkg_arch | $compiler$cells
"
done

# What apt does with the native example packages installed: going back
# to the stock libc, and a stock update appearing.
in_root "dpkg -i /tmp/pidfd-spawn-example.deb /tmp/pidfd-fork-example.deb" \
  > /dev/null || die "cannot install the example packages"
scripts/deb/upgrade-path.sh "$root" || exit 1

# The examples of another architecture, on its own kernel: the root
# shared with the guest, with nothing mounted in it.
if [ -n "$emulated" ]; then
  echo "==> on Linux of $arch under qemu-system (scripts/target/boot-root.sh):"
  {
    printf 'cd /tmp/work || exit 1\nuname -srm\n'
    for c in examples/*.c; do
      p=$(basename "$c" .c)
      printf 'echo "==> ./%s" && ./%s || exit 1\n' "$p" "$p"
    done
  } > "$root/tmp/work/boot.sh"
  scripts/deb/root.sh unmount "$root" || exit 1
  scripts/target/boot-root.sh "$arch" "$root" /tmp/work/boot.sh \
    || die "an example failed on the kernel of $arch"
fi
echo "$rows" | while IFS= read -r row; do
  [ -n "$row" ] || continue
  results_update deb-test.md \
    "make deb-test: what programs built against the series' packages depend on" \
    "root | flavour | package | built with | pidfd-spawn's Depends | pidfd-fork's Depends" \
    "$(echo "$row" | cut -d'|' -f1-2 | sed 's/ $//')" "$row"
done
exit 0
