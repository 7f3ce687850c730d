#!/bin/sh
# Check that the series is bisectable: build and run glibc's tests and
# check-abi with each prefix of the series (patches 1..k) in turn, then
# return build/src to the whole series.  The application tests and
# manual pages describe the whole series, so they are left out.  Prints
# one closing line per prefix; exits 1 if any prefix fails to build or
# fails a test.
#
# A patch that only changes the files of architectures the built ABI
# does not use (a clone3 wrapper for another architecture) leaves its
# prefix the same build as the one before: it is named, not rebuilt
# (make cross ARCH=... builds it).
#
# FROM=K starts at prefix K: the prefixes before it are named, not
# rebuilt (for a series whose first K-1 patches an earlier run checked
# and that has not changed since).  TO=K stops after prefix K: those
# after it are named, not rebuilt (the whole series is what make check
# tests).
#
# Usage: [FROM=K] [TO=K] scripts/test/check-each-patch.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load

src=build/src
sysdirs=" $(sed -n 's/^config-sysdirs *= *//p' "$obj/config.make") "

# Whether COMMIT changes a file the build of this ABI may read: any file
# but those in the directory of an architecture (one with an Implies,
# configure or sysdep.h of its own) that is not among the sysdeps
# directories the build was configured with.
changes_this_abi ()
{
  for f in $(git -C "$src" diff --name-only "$1^" "$1"); do
    case $f in
      sysdeps/unix/sysv/linux/*/*) base=sysdeps/unix/sysv/linux ;;
      sysdeps/*/*) base=sysdeps ;;
      *) return 0 ;;
    esac
    rest=${f#"$base"/}
    dir=$base/${rest%%/*}
    [ -e "$src/$dir/Implies" ] || [ -e "$src/$dir/configure" ] \
      || [ -e "$src/$dir/sysdep.h" ] || return 0
    case $sysdirs in
      *" $dir "*|*" $dir/"*) return 0 ;;
    esac
  done
  return 1
}
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] \
  || die "$src has uncommitted changes"
head=$(git -C "$src" rev-parse HEAD)
branch=$(git -C "$src" symbolic-ref -q --short HEAD)
status=0
k=0
for commit in $(git -C "$src" rev-list --reverse base..HEAD); do
  k=$((k + 1))
  subject=$(git -C "$src" log -1 --format=%s "$commit")
  printf '=== patches 1-%d (%s)\n' "$k" "$subject"
  if [ $k -lt "${FROM:-1}" ]; then
    printf 'not rebuilt: FROM=%s\n' "$FROM"
    continue
  fi
  if [ -n "${TO:-}" ] && [ $k -gt "$TO" ]; then
    printf 'not rebuilt: TO=%s\n' "$TO"
    continue
  fi
  if [ $k -gt 1 ] && ! changes_this_abi "$commit"; then
    printf 'the same %s build as patches 1-%d: only files of other' \
      "$ABI" $((k - 1))
    printf ' architectures\n'
    continue
  fi
  git -C "$src" checkout -q --detach "$commit"
  rm -f "build/logs/prefix-$k-check.log"
  if scripts/build/build-glibc.sh > "build/logs/prefix-$k.log" 2>&1 \
     && scripts/test/run-checks.sh glibc > "build/logs/prefix-$k-check.log" 2>&1; then
    tail -n 1 "build/logs/prefix-$k-check.log"
  else
    grep -E '^FAIL|FAILED' "build/logs/prefix-$k.log" \
      "build/logs/prefix-$k-check.log" 2> /dev/null | head -n 10
    [ -f "build/logs/prefix-$k-check.log" ] \
      && tail -n 1 "build/logs/prefix-$k-check.log"
    status=1
  fi
done
git -C "$src" checkout -q "${branch:-$head}"
exit $status
