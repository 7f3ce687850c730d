#!/bin/sh
# Configure the libc out of tree, in build/obj (build/obj-$ABI for the
# other ABIs of scripts/lib/abi.sh), the way Debian 12 configures that
# libc (debian/rules.d/build.mk, debian/sysdeps/linux.mk, <arch>.mk),
# with ccache when it is installed.  Debian's source has no manual, so
# MAKEINFO=: keeps the build from trying to make one.  Does nothing
# when the directory is configured already with the same arguments.
#
# Usage: [ABI=...] scripts/build/configure-glibc.sh
set -u
. ./base.conf
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/lock-obj.sh

top=$(pwd)
for tool in "${compiler}gcc" "${compiler}g++"; do
  command -v "$tool" > /dev/null \
    || die "$tool is missing (scripts/build/install-deps.sh)"
done
flags="${cflags:+ $cflags}${ldflags:+ $ldflags}"
cc="${compiler}gcc$flags"
cxx="${compiler}g++$flags"
# g++ -m32 finds the kernel's <asm/...> only through the /usr/include/asm
# link of gcc-multilib, which conflicts with every cross compiler; the C++
# library's headers include <asm/errno.h>, so configure would find no
# usable C++ compiler and leave the C++ tests out.  The kernel headers'
# directory made below has that link.
[ -z "$cross" ] && [ -n "$cflags" ] && cxx="$cxx -isystem $top/$headers"
if command -v ccache > /dev/null; then
  cc="ccache $cc"
  cxx="ccache $cxx"
fi

# The kernel headers of the target, as links in a directory of their
# own (--with-headers), as Debian does.
mkdir -p "$headers"
for h in asm asm-generic linux; do
  from=${headers_from%/asm}/$h
  [ "$h" = asm ] || [ -d "$from" ] || from=/usr/include/$h
  ln -sfn "$from" "$headers/$h"
done

# A native build says --build=HOST, so that its tests run; a cross
# build says which machine it runs on, so that they are built only.
build=$host
[ -n "$cross" ] && build=$(gcc -dumpmachine)

set -- --host="$host" --build="$build" --prefix=/usr \
  --without-selinux --disable-crypt \
  --enable-stackguard-randomization --enable-stack-protector=strong \
  --with-pkgversion="Debian GLIBC $GLIBC_SOURCE_VERSION + pidfd series" \
  --with-bugurl="http://www.debian.org/Bugs/" \
  --with-headers="$top/$headers" --enable-kernel=3.2 $options

# Debian's flags, and the build directory mapped to "." in the debugging
# information (as Debian does), which also lets ccache share objects
# between checkouts in different directories.
parms="CFLAGS = -pipe -O2 -g -fdebug-prefix-map=$top=.
ASFLAGS = -pipe -O2 -g -fdebug-prefix-map=$top=.
BUILD_CFLAGS = -O2 -g -fdebug-prefix-map=$top=.
BASH := /bin/bash
KSH := /bin/bash
SHELL := /bin/bash
libdir = $libdir
slibdir = $slibdir
rtlddir = $rtlddir
# ccache (CCACHE_BASEDIR) names the source in each .d file relative to
# the subdirectory, not as the rule that makes it does; make deletes a
# generated test source as intermediate, and the next make then has no
# rule for the .d file's name of it.  Keep those sources.
.PRECIOUS: \$(objpfx)test-as-const-%.c \$(objpfx)tst-ibm128-%.c \
  \$(objpfx)tst-ieee128-%.c"

args="CC=$cc CXX=$cxx $* $parms"
if [ -f "$obj/config.status" ] && [ -f "$obj/configure.args" ] \
   && [ "$(cat "$obj/configure.args")" = "$args" ]; then
  exit 0
fi

rm -rf "$obj"
mkdir -p "$obj"
printf '%s\n' "$parms" > "$obj/configparms"
cd "$obj" || exit 1
CC=$cc CXX=$cxx AUTOCONF=false MAKEINFO=: LOGDIR=$top/build/logs \
  "$top/scripts/lib/run-stage.sh" "configure$suffix" "$top/build/src/configure" "$@" \
  || exit 1
printf '%s\n' "$args" > configure.args
