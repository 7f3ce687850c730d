#!/bin/sh
# Run the tests against the built tree and print one line per test,
# then "N passed, N failed, N skipped"; exit 1 if anything failed.
#
#   - glibc's tests in the subdirectories listed in check/glibc-subdirs
#     (posix/ and every subdirectory that holds a test of the series);
#     each test the series adds must be among them;
#   - the single glibc tests listed in check/glibc-tests (fork's tests);
#   - check-abi of every library of the libc;
#   - the application tests in tests/, built against the built libc;
#   - the manual pages in man/, which must format without warnings.
#
# A failure listed in check/xfail (it fails on the unpatched Debian tree
# too, on every ABI or on the one named) is reported as XFAIL and
# counted as skipped, as is one listed in a list of check/ that
# XFAIL_LISTS names (make check-target names xfail-target: failures of
# its emulated machines); nothing else is ignored.  Where the entry's
# reason quotes a text ("..."), the failure is XFAIL only if the test's
# output holds every text it quotes: another failure of the same test
# still counts.  A test of
# check/glibc-tests that glibc's Makefiles leave out of this ABI's tests,
# as check/left-out says, is UNSUPPORTED.  A glibc test listed in
# check/racy (a race of the test's own, shown and explained there) that
# fails runs once more, and its second result counts, printed with the
# reason and the output of the first run.
#
# Where the test programs cannot run (a cross-compiled ABI, or the i686
# libc on a kernel that cannot run i386 programs:
# scripts/test/test-run-blocker.sh says why, once), every test is built as usual and reported
# UNSUPPORTED with that reason; check-abi, the manual pages and the
# tests glibc runs on the build machine itself (header and constant
# checks) still run and can fail.
#
# With TEST_WRAPPER set (make check-target), the test programs run
# through it, glibc's test-wrapper, on another machine that shares the
# build tree: they run whatever the ABI, and results go to RESULTS.
#
# RESULTS_NOTES, lines that say where the results come from, end the
# results file, each after '# ' (which counts as no result).  Until the
# run ends, the results grow in FILE.partial: a run that was stopped
# leaves no FILE that looks whole.
#
# GLIBC_SUBDIRS, if set, replaces check/glibc-subdirs and the single
# tests of check/glibc-tests: a list of glibc subdirectories, or "all"
# for every one (glibc's whole test suite, make check-full); a run of a
# few subdirectories does not ask for the tests the series adds
# elsewhere.  DEBIAN_XFAILS=FILE adds Debian's list of expected
# failures, debian/testsuite-xfail-debian.mk, to the glibc run the way
# debian/rules does (an include in the build tree's configparms, for
# this run only): the tests it lists are XFAIL in tests.sum.
#
# Usage: [ABI=...] [TEST_WRAPPER=... RESULTS=FILE [RESULTS_NOTES=...]]
#          [XFAIL_LISTS=LIST...] [GLIBC_SUBDIRS=DIRS|all]
#          [DEBIAN_XFAILS=FILE] scripts/test/run-checks.sh [TEST]
#   TEST is a glibc test (posix/tst-spawn), check-abi, an application
#   test (app/NAME, from tests/NAME.c or .cc), man/ (the manual pages)
#   or glibc (glibc's tests and check-abi, no application test or
#   manual page); without it, everything runs.  With TEST, the results
#   go to FILE-TEST (its slashes as dashes), not to FILE.
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/lock-obj.sh
. scripts/lib/xfail.sh
. scripts/lib/series.sh

top=$(pwd)
jobs=${JOBS:-$(($(nproc) + 1))}
# With DEBIAN_XFAILS (make check-full), configparms includes Debian's
# list of expected failures for that run alone, and configparms as it
# was waits beside it, in $saved.  A run killed outright (SIGKILL, a
# reboot) leaves both: put it back before any test runs, so that no
# later run counts Debian's XFAILs unasked.
saved=$obj/configparms.run-checks
[ ! -f "$saved" ] || mv "$saved" "$obj/configparms" \
  || die "cannot restore $obj/configparms from $saved"
only=${1-}
results=${RESULTS:-$top/build/check-results$suffix}
case $only in
  ""|glibc|man/*|check-abi|app/*|*/*) ;;
  *) printf 'run-checks: unknown test %s\n' "$only" >&2; exit 2 ;;
esac
# A run of one test leaves the whole run's results alone: its own file.
[ -z "$only" ] || results=$results-$(echo "$only" | tr / -)
final=$results
results=$final.partial
rm -f "$final"
: > "$results"
# The output of each test that did not pass is kept beside the results:
# the next run overwrites the build tree's.
outputs=$final.outputs
rm -rf "$outputs"

# Why the test programs are built but not run here, or empty.
blocker=
[ -n "${TEST_WRAPPER-}" ] || blocker=$(scripts/test/test-run-blocker.sh) || exit 1
run_built_tests=
if [ -n "$blocker" ]; then
  printf '==> %s tests: %s (check-abi, the manual pages and the checks' \
    "$ABI" "$blocker"
  printf ' glibc makes on the build machine still run)\n'
  run_built_tests=run-built-tests=no
fi

# output_of NAME: the file that holds what test NAME printed.
output_of ()
{
  case $1 in
    app/*) echo "build/tests$suffix/${1#app/}.out" ;;
    *) echo "$obj/$1.out" ;;
  esac
}

# record RESULT NAME [REASON [exact]]: print and keep one result, with
# the xfail lists applied (check/xfail, and the lists XFAIL_LISTS names:
# scripts/target/check-target.sh's machines add check/xfail-target), unless
# "exact": a test that did not build or did not run is no failure those
# lists expect.
record ()
{
  result=$1
  name=$2
  reason=${3-}
  # shellcheck disable=SC2086
  [ "${4-}" = exact ] || xfail_apply "$(output_of "$name")" xfail ${XFAIL_LISTS-}
  printf '%s: %s%s\n' "$result" "$name" "${reason:+ ($reason)}" \
    | tee -a "$results"
}

# Standard input's lines, each cut to 240 characters, a cut one ending
# in "...".
shorten ()
{
  awk '{ if (length($0) > 240) $0 = substr($0, 1, 237) "..."; print }'
}

# The last line a test printed: why it was UNSUPPORTED.  Warnings come
# after the reason when the test's files are removed at exit.
last_line ()
{
  [ -f "$1" ] || return 0
  said=$(sed -e '/^[[:space:]]*$/d' -e '/^warning: /d' "$1" | tail -n 1)
  [ -n "$said" ] || said=$(sed -e '/^[[:space:]]*$/d' "$1" | tail -n 1)
  printf '%s\n' "$said" | sed -e 's/^error: [^ ]*:[0-9]*: //' | shorten
}

# Why an application test was UNSUPPORTED: its "unsupported: " lines,
# or its last line.
unsupported_lines ()
{
  why=$(sed -n 's/^unsupported: //p' "$1" | paste -s -d ';' - | shorten)
  if [ -n "$why" ]; then
    echo "$why"
  else
    last_line "$1"
  fi
}

# record_glibc: record the results of glibc tests, read as the lines
# of glibc's tests.sum ("PASS: posix/tst-spawn") from standard input.
record_glibc ()
{
  while read -r line; do
    result=${line%%: *}
    name=${line#*: }
    case $result in
      UNSUPPORTED)
	reason=$(last_line "$obj/$name.out")
	# No output: glibc's Makefile lists it in tests-unsupported.
	[ -n "$reason" ] || reason="left out by glibc's Makefile\
 (tests-unsupported): a tool it needs is missing, such as a C++\
 compiler that links for this ABI" ;;
      # No result: make ran nothing that gave one.  It counts.
      UNRESOLVED) result=FAIL
	reason="UNRESOLVED: glibc's make check gave it no result" ;;
      XFAIL) reason="marked as failing by glibc's own Makefile"
	[ -z "${DEBIAN_XFAILS-}" ] \
	  || reason="$reason or Debian's testsuite-xfail-debian.mk" ;;
      *) reason= ;;
    esac
    racy=
    [ "$result" = FAIL ] && racy=$(xfail_reason racy "$name")
    if [ -n "$racy" ]; then
      rerun_racy "$name" "$racy"
    else
      record "$result" "$name" "$reason"
    fi
  done
}

# rerun_racy NAME REASON: glibc test NAME, listed in check/racy for
# REASON, failed: keep the output of that run, run it once more and
# record the second result.
rerun_racy ()
{
  first=$obj/$1.first-run.out
  cp "$obj/$1.out" "$first" 2>/dev/null
  run_glibc_test "$1" "check-$(echo "$1" | tr / -)-rerun$suffix"
  second=$(sed -n -e '1s/:.*//p' "$obj/$1.test-result" 2>/dev/null)
  case $second in
    PASS) record PASS "$1" "passed when run again; the first run failed \
($first), a race of the test (check/racy): $2" ;;
    "") record FAIL "$1" "failed, and did not run again" exact ;;
    *) record FAIL "$1" "failed (first run: $first), then $second when \
run again; check/racy: $2" ;;
  esac
}

# The test programs make check builds in glibc subdirectory $1 (those
# it runs when it can), asked of glibc's make in that subdirectory the
# way its top-level make enters it.
subdir_test_programs ()
{
  make -r -s -C "build/src/$1" objdir="$top/$obj" subdir="$1" ..=../ \
    --eval='print-tests: ; @echo $(filter-out $(tests-unsupported), \
$(tests) $(tests-internal) $(tests-container))' print-tests
}

# record_built NAME: a test program that make has built (make succeeded,
# so it is up to date) and that cannot run here.
record_built ()
{
  if [ -x "$obj/$1" ]; then
    record UNSUPPORTED "$1" "$blocker"
  else
    record FAIL "$1" "not built" exact
  fi
}

glibc_subdir_tests ()
{
  subdirs=${GLIBC_SUBDIRS:-$(sed -e 's/#.*//' check/glibc-subdirs | xargs)}
  # glibc's own list of subdirectories for the whole suite.
  subdirs_arg="subdirs=$subdirs" dirs=$subdirs
  [ "$subdirs" != all ] || subdirs_arg='' dirs=.
  # Forget earlier results, so that every test runs again.  A test of
  # tests-special that makes a file of its own, not an .out
  # (conform/symlist-ISO, timezone/testdata/posixrules), runs only when
  # make makes that file again: it goes too, or the test is UNRESOLVED.
  # shellcheck disable=SC2086
  (cd "$obj" \
     && { find . -maxdepth 1 -name '*.test-result'
	  find $dirs -name '*.test-result'; } | while read -r result; do
	  test=${result%.test-result}
	  [ -e "$test.out" ] || [ ! -f "$test" ] || rm -f "$test"
	done \
     && rm -f ./*.out ./*.test-result tests.sum \
     && find $dirs \( -name '*.out' -o -name '*.test-result' \) \
	     -exec rm -f {} +)
  if [ -n "${DEBIAN_XFAILS-}" ]; then
    [ -f "$DEBIAN_XFAILS" ] || die "DEBIAN_XFAILS=$DEBIAN_XFAILS: no such file"
    # configparms as it was waits beside it, its time kept, so that
    # nothing is rebuilt for the include.
    if ! { cp -p "$obj/configparms" "$saved.new" \
	     && mv "$saved.new" "$saved"; }; then
      die "cannot save $obj/configparms"
    fi
    trap 'mv "$saved" "$obj/configparms"' EXIT
    trap 'exit 1' INT TERM HUP
    printf 'include %s\n' "$(realpath "$DEBIAN_XFAILS")" >> "$obj/configparms"
  fi
  # shellcheck disable=SC2086
  scripts/lib/run-stage.sh "check-glibc$suffix" \
    make -C "$obj" -j"$jobs" ${subdirs_arg:+"$subdirs_arg"} $run_built_tests \
      ${TEST_WRAPPER:+"test-wrapper=$TEST_WRAPPER"} check
  make_rc=$?
  if [ -n "${DEBIAN_XFAILS-}" ]; then
    mv "$saved" "$obj/configparms"
    trap - EXIT INT TERM HUP
  fi
  [ -f "$obj/tests.sum" ] && sort "$obj/tests.sum" | record_glibc
  # glibc's make check fails when a test failed (one that passed when
  # run again included); anything else is make stopping early.
  [ $make_rc -eq 0 ] || grep -q '^FAIL' "$obj/tests.sum" 2>/dev/null \
    || record FAIL "glibc make check" "it stopped before running the tests"

  if [ -n "$blocker" ]; then
    [ "$subdirs" != all ] \
      || die "GLIBC_SUBDIRS=all: the tests cannot run here: $blocker"
    for dir in $subdirs; do
      if ! programs=$(subdir_test_programs "$dir"); then
	record FAIL "$dir" "make cannot list the test programs of $dir"
	continue
      fi
      for t in $programs; do
	record_built "$dir/$t"
      done
    done
  fi

  # Every test the series adds must have run (or been built): each
  # tst-*.c or tst-*.cc it adds, the variants that include another
  # test's source too, but for the modules a test loads (a shared
  # object its directory's Makefile builds from it).  Not where
  # GLIBC_SUBDIRS chooses a few subdirectories: they hold what they hold.
  case ${GLIBC_SUBDIRS:-all} in
    all) ;;
    *) return 0 ;;
  esac
  added=$(git -C build/src diff --name-only --diff-filter=A base HEAD \
	  -- '*tst-*.c' '*tst-*.cc')
  for f in $added; do
    t=$(basename "$f"); t=${t%.*}
    ! grep -q "$t\.so\b" "build/src/$(dirname "$f")/Makefile" || continue
    grep -q "^[A-Z]*: [^ ]*/$t\( \|\$\)" "$results" \
      || record FAIL "$t" "added by the series but not run: is its \
subdirectory in check/glibc-subdirs?"
  done
}

# run_glibc_test NAME STAGE: run glibc test NAME (again), as stage
# STAGE; its result is then the first line of $obj/NAME.test-result.
run_glibc_test ()
{
  rm -f "$obj/$1.test-result"
  scripts/lib/run-stage.sh "$2" make -C "$obj" \
    ${TEST_WRAPPER:+"test-wrapper=$TEST_WRAPPER"} test t="$1"
}

# left_out NAME: print why glibc test NAME is not a test of this ABI,
# as check/left-out gives it, and succeed, when that list names NAME for
# the ABI and glibc's make, asked, leaves NAME out of its subdirectory's
# test programs (sysdeps/arm/nptl/Makefile and nptl/tst-cleanupx4).
# Any other name is a test: it runs, or fails.
left_out ()
{
  why=$(xfail_reason left-out "$1")
  [ -n "$why" ] || return 1
  programs=$(subdir_test_programs "${1%/*}" 2> /dev/null) || return 1
  # shellcheck disable=SC2086
  case " $(printf '%s ' $programs)" in
    *" ${1##*/} "*) return 1 ;;
  esac
  printf '%s\n' "$why"
}

one_glibc_test ()
{
  stage=check-$(echo "$1" | tr / -)$suffix
  if why=$(left_out "$1"); then
    # No output of an earlier run goes with this result.
    rm -f "$obj/$1.out" "$obj/$1.test-result"
    record UNSUPPORTED "$1" "not a test on $ABI: $why" exact
    return
  fi
  if [ -n "$blocker" ]; then
    if scripts/lib/run-stage.sh "$stage" make -r -C "build/src/${1%/*}" \
	 objdir="$top/$obj" subdir="${1%/*}" ..=../ "$top/$obj/$1"; then
      record_built "$1"
    else
      record FAIL "$1" "does not build" exact
    fi
    return
  fi
  run_glibc_test "$1" "$stage"
  if [ -f "$obj/$1.test-result" ]; then
    head -n 1 "$obj/$1.test-result" | record_glibc
  else
    record FAIL "$1" "no such test, or it does not build" exact
  fi
}

glibc_listed_tests ()
{
  # GLIBC_SUBDIRS asks for its subdirectories alone (all of them: the
  # whole suite has run these tests already).
  [ -z "${GLIBC_SUBDIRS-}" ] || return 0
  # Test names are single words; make must not read a list on stdin.
  # shellcheck disable=SC2013
  for t in $(sed -e 's/#.*//' check/glibc-tests); do
    one_glibc_test "$t"
  done
}

check_abi ()
{
  find "$obj" \( -name 'check-abi*.test-result' -o -name 'check-abi*.out' \) \
    -exec rm -f {} +
  scripts/lib/run-stage.sh "check-abi$suffix" make -C "$obj" -j"$jobs" check-abi
  make_rc=$?
  results_abi=$(find "$obj" -name 'check-abi*.test-result' | sort)
  if [ -n "$results_abi" ]; then
    # shellcheck disable=SC2086
    head -q -n 1 $results_abi | record_glibc
    # A library whose check stopped before its result counts too.
    # shellcheck disable=SC2086
    [ $make_rc -eq 0 ] || head -q -n 1 $results_abi | grep -q '^FAIL' \
      || record FAIL check-abi \
		"make check-abi failed: ${LOGDIR:-build/logs}/check-abi$suffix.log"
  else
    record FAIL check-abi "it produced no results"
  fi
}

# app_test NAME: build tests/NAME.c (or the C++ tests/NAME.cc) against
# the built libc and run it.
app_test ()
{
  out=build/tests$suffix/$1
  mkdir -p "build/tests$suffix"
  file=tests/$1.c cxx=
  [ -f "tests/$1.cc" ] && file=tests/$1.cc cxx=1
  if ! CXX=$cxx scripts/build/cc-built-libc.sh -o "$out" "$file" > "$out.out" 2>&1
  then
    record FAIL "app/$1" "does not build: $out.out" exact
    return
  fi
  if [ -n "$blocker" ]; then
    record UNSUPPORTED "app/$1" "$blocker"
    return
  fi
  # On an emulated machine (TEST_WRAPPER), it runs several times slower.
  limit=120
  [ -n "${TEST_WRAPPER-}" ] && limit=600
  # shellcheck disable=SC2086
  timeout "$limit" ${TEST_WRAPPER-} "$obj/testrun.sh" "$out" > "$out.out" 2>&1
  case $? in
    0) record PASS "app/$1" ;;
    77) record UNSUPPORTED "app/$1" "$(unsupported_lines "$out.out")" ;;
    *) record FAIL "app/$1" "output: $out.out" ;;
  esac
}

app_tests ()
{
  for c in tests/*.c tests/*.cc; do
    [ -f "$c" ] && app_test "$(basename "${c%.c*}")"
  done
}

# man_pages: each page in man/ must format without a warning.
man_pages ()
{
  for page in man/man*/*.[0-9]; do
    [ -f "$page" ] || continue
    name=man/$(basename "$page")
    # From man/, where the .so requests of the pages are relative to.
    if warnings=$(cd man && groff -man -ww -z "${page#man/}" 2>&1) \
       && [ -z "$warnings" ]; then
      record PASS "$name"
    else
      record FAIL "$name" "$(echo "$warnings" | head -n 1)"
    fi
  done
}

start=$(date +%s)
case $only in
  "") glibc_subdir_tests; glibc_listed_tests; check_abi; app_tests
      man_pages ;;
  glibc) glibc_subdir_tests; glibc_listed_tests; check_abi ;;
  man/*) man_pages ;;
  check-abi) check_abi ;;
  app/*) app_test "${only#app/}" ;;
  *) one_glibc_test "$only" ;;
esac

# keep_outputs: copy the output of each test that did not pass.
keep_outputs ()
{
  sed -n 's/^\(FAIL\|XFAIL\|XPASS\|UNSUPPORTED\): \([^ ]*\).*/\2/p' "$results" |
  while read -r name; do
    case $name in */*) ;; *) continue ;; esac
    out=$(output_of "$name")
    [ -f "$out" ] || continue
    mkdir -p "$outputs/$(dirname "$name")" && cp "$out" "$outputs/$name.out"
  done
}
keep_outputs
[ -z "${RESULTS_NOTES-}" ] \
  || printf '%s\n' "$RESULTS_NOTES" | sed 's/^/# /' >> "$results"

# shellcheck disable=SC2046
set -- $(results_counts "$results" | tr -d '|')
mv "$results" "$final"
s=$(($(date +%s) - start))
printf 'checks took %s; results in %s%s\n' "$(minutes "$s")" \
  "$final" "$([ -d "$outputs" ] && echo ", outputs of the others in $outputs")"
printf '%d passed, %d failed, %d skipped\n' "$1" "$2" "$3"
[ "$2" -eq 0 ]
