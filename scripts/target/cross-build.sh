#!/bin/sh
# Cross-build the libc for the cross ABIs of Debian architecture ARCH
# (abis.table) with Debian 12's cross compiler and Debian's
# configuration, run check-abi, build every test make check runs (not
# run: see scripts/test/test-run-blocker.sh), and write the ABI's row
# of results/cross.md: build time, check-abi, tests built, failures,
# the series patch that adds the clone3 wrapper the libc uses (Debian's
# 2.36 when its tree has it), and, with CHECK_WRAPPER=yes, the result
# of scripts/target/check-wrapper.sh, run after the build (make
# cross-all).  Exits 1 if anything failed.
#
# Usage: [ABI=NAME] [CHECK_WRAPPER=yes] scripts/target/cross-build.sh ARCH
#   (the cross ABIs of ARCH: its release ABIs, or its port where it has
#   no other; or the one ABI names)
set -u
arch=${1-}
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_one cross "$arch" "$0" "$@"
abi_load
. scripts/lib/series.sh

# row CELLS: write the ABI's row of results/cross.md.
provenance=$(results_provenance)
row ()
{
  results_update cross.md \
    "make cross: the libc of each ABI cross-built, its tests built" \
    "ABI | build | check-abi | tests built | failed | clone3 wrapper | check-wrapper" \
    "$ABI" "$ABI | $*"
}

start=$(date +%s)
if ! scripts/build/install-deps.sh || ! scripts/build/configure-glibc.sh \
   || ! scripts/build/build-glibc.sh; then
  row "FAIL ($(minutes $(($(date +%s) - start)))) | - | - | - | - | -"
  exit 1
fi
seconds=$(($(date +%s) - start))

scripts/test/run-checks.sh
status=$?
results=build/check-results$suffix
[ -f "$results" ] || {
  row "$(minutes "$seconds") | - | - | - | - | -"
  die "run-checks wrote no $results"
}
abi=PASS
grep -q '^XFAIL: .*check-abi' "$results" && abi=XFAIL
grep -q '^FAIL: .*check-abi' "$results" && abi=FAIL
grep -q 'check-abi' "$results" || abi=none
built=$(grep -c '^UNSUPPORTED: .*(cross-compiled for' "$results")
failed=$(grep -c '^FAIL:' "$results")

# The clone3 wrapper that went into libc, from its dependency file.
wrapper=none
# It names the source relative to build/src/misc: ../sysdeps/...
source=$(tr ' \\' '\n\n' < "$obj/misc/clone3.os.d" 2> /dev/null \
	 | grep '/clone3\.S$' | head -n 1)
if [ -n "$source" ]; then
  path=sysdeps/${source#*/sysdeps/}
  wrapper="Debian's 2.36"
  k=0
  for commit in $(git -C build/src rev-list --reverse base..HEAD); do
    k=$((k + 1))
    if git -C build/src diff --name-only --diff-filter=A "$commit^" \
	 "$commit" -- "$path" | grep -q .; then
      wrapper="patch $k"
    fi
  done
fi

run=-
if [ "${CHECK_WRAPPER-}" = yes ]; then
  log=build/logs/check-wrapper-$ABI.log
  if scripts/target/check-wrapper.sh "$abi_arch" > "$log" 2>&1; then
    run="pass on $(sed -n 's/^ *==> [^:]*: \([^ ]*\) under.*/\1/p' "$log")"
  else
    run="FAIL ($log)" status=1
  fi
  printf 'check-wrapper: %s\n' "$run"
fi
row "$(minutes "$seconds") | $abi | $built | $failed | $wrapper | $run"
exit $status
