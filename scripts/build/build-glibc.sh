#!/bin/sh
# Build the configured libc (all cores) and install its headers into
# build/sysroot, where the examples and application tests find them.
# glibc's own make makes both steps incremental.
#
# Usage: [ABI=i686] [JOBS=N] scripts/build/build-glibc.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/lock-obj.sh

top=$(pwd)
jobs=${JOBS:-$(($(nproc) + 1))}

# glibc's make only ever adds members to the libc archives (ar cru): the
# object of a source that is gone (check-each-patch going back in the
# series, a patch dropped or edited) stays in libc_pic.a and in
# linkobj/libc_pic.a (made from it the same way), and so in libc.so,
# where it may not even link.  True if libc_pic.a holds an object that
# no stamp.os of the tree lists.
stale_archive_members ()
{
  [ -f "$obj/libc_pic.a" ] || return 1
  cat "$obj"/stamp.os "$obj"/*/stamp.os 2> /dev/null | tr ' ' '\n' \
    | sed -e 's|.*/||' -e '/^$/d' | sort -u > "$obj/libc-objects.list"
  ar t "$obj/libc_pic.a" | sort -u | comm -23 - "$obj/libc-objects.list" \
    | grep -q .
}

scripts/lib/run-stage.sh "build$suffix" make -C "$obj" -j"$jobs"
status=$?
if stale_archive_members; then
  echo "    build$suffix: libc_pic.a holds objects of removed sources;" \
       "making the libc archives again"
  rm -f "$obj/libc.a" "$obj/libc_pic.a" "$obj/linkobj/libc_pic.a"
  scripts/lib/run-stage.sh "build$suffix" make -C "$obj" -j"$jobs"
  status=$?
fi
[ "$status" -eq 0 ] || exit 1
scripts/lib/run-stage.sh "headers$suffix" make -C "$obj" -j"$jobs" \
  install-headers install_root="$top/$sysroot"
