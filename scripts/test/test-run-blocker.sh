#!/bin/sh
# Print why the test programs of $ABI's libc cannot run on this machine,
# or nothing when they can: a cross-compiled ABI never runs here, and
# the i686 libc needs a kernel that runs 32-bit x86 programs, which some
# amd64 kernels cannot do (built without IA32 emulation, or booted with
# ia32_emulation=0).  Only that answer of the kernel counts: if the
# probe fails in any other way, the tests run and show what is wrong.
#
# Usage: [ABI=...] scripts/test/test-run-blocker.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load

if [ -n "$cross" ]; then
  echo "cross-compiled for $ABI: built, not run"
  exit 0
fi
# The other native ABIs: those built with gcc -m32 (i686).
[ "$cflags" = -m32 ] || exit 0

# The smallest static i386 program: exit (0) through int $0x80.  It
# needs no C library, so a broken build cannot make it fail.
probe=build/probe-i686
mkdir -p build
if [ ! -x "$probe" ]; then
  printf '%s\n' 'void _start (void) { __asm__ volatile ("movl $1, %eax;'\
' xorl %ebx, %ebx; int $0x80"); }' > "$probe.c"
  gcc -m32 -static -nostdlib -ffreestanding -fno-pie -no-pie -O2 \
    -o "$probe" "$probe.c" || exit 1
fi
if ! answer=$(LC_ALL=C "$probe" 2>&1); then
  case $answer in
    *"Exec format error"*)
      echo "this kernel cannot run i386 programs (Exec format error):" \
	   "built, not run" ;;
  esac
fi
exit 0
