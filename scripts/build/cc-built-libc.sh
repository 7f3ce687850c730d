#!/bin/sh
# Compile and link a C program (C++ with CXX=1) against the built libc,
# as an application would against an installed one: its headers from
# build/sysroot, its symbols from build/obj/libc.so (build/sysroot-$ABI
# and build/obj-$ABI for the other ABIs, with their compiler), the
# kernel's headers from the directory the libc was configured with.  Run the
# result through the build tree's testrun.sh so it loads the built libc.
# With STATIC=1, link it statically against the built libc.a and start
# files instead: a program that needs no other file (an initramfs's
# /init).  Programs get unwind tables on every ABI, as most have by
# default (ARM does not): tests/clone3-paths walks its call chain.
#
# Usage: [ABI=...] [CXX=1] [STATIC=1] scripts/build/cc-built-libc.sh -o OUTPUT
#          SOURCE... [OPTION...]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load

if [ "${CXX:-}" = 1 ]; then
  cc="${compiler}g++${cflags:+ $cflags} -std=gnu++17"
else
  cc="${compiler}gcc${cflags:+ $cflags} -std=gnu11"
fi
flags="-isystem $sysroot/usr/include -isystem $headers -O2 -g
       -funwind-tables -Wall -Wextra -Werror"
if [ "${STATIC:-}" = 1 ]; then
  file ()
  {
    # shellcheck disable=SC2086
    $cc -print-file-name="$1"
  }
  # shellcheck disable=SC2086
  exec $cc $flags -static -no-pie -nostartfiles -nodefaultlibs \
    "$obj/csu/crt1.o" "$obj/csu/crti.o" "$(file crtbeginT.o)" "$@" \
    -Wl,--start-group "$obj/libc.a" -lgcc -lgcc_eh -Wl,--end-group \
    "$(file crtend.o)" "$obj/csu/crtn.o"
fi
# shellcheck disable=SC2086
exec $cc $flags "$@" "$obj/libc.so"
