#!/bin/sh
# A soak of process creation on the built libc (make soak): build
# scripts/soak/soak.c against it, and the program its children run
# (scripts/soak/exit-status.c, statically), run the soak for DURATION
# through the build tree's testrun.sh, and write its row of
# results/soak.md: the ABI, the duration, the children created by each
# method, descriptors, maps, RSS and children first and last after
# warm-up, and the verdict.  soak.c says what it does and when it
# fails.  DURATION is seconds, or minutes or hours with the suffix m or
# h (10m when unset; at least 15 s).  The programs are built under the
# lock of the object directory (scripts/lib/lock-obj.sh); the run, which
# needs nothing of it once started, does not hold it.  The output goes
# to build/soak$suffix/soak.log too.  Exits 1 if the soak failed.
#
# Usage: [ABI=i686] [DURATION=N[s|m|h]] scripts/soak/run-soak.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/series.sh

duration=${DURATION:-10m}
case $duration in
  *[!0-9smh]* | [!0-9]* | *[smh]?* | 0?*)
    # A leading 0 would make the shell read an octal number.
    die "DURATION=$duration: seconds, or a number with the suffix s, m or h" ;;
  *h) seconds=$((${duration%h} * 3600)) ;;
  *m) seconds=$((${duration%m} * 60)) ;;
  *) seconds=${duration%s} duration=${duration%s}s ;;
esac
[ "$seconds" -ge 15 ] || die "DURATION=${DURATION-}: at least 15 seconds"
[ -f "$obj/libc.so" ] \
  || die "no libc built in $obj: make libc${suffix} first"

dir=build/soak$suffix
mkdir -p "$dir"
(
  . scripts/lib/lock-obj.sh
  scripts/build/cc-built-libc.sh -o "$dir/soak" scripts/soak/soak.c \
    && STATIC=1 scripts/build/cc-built-libc.sh -o "$dir/exit-status" \
      scripts/soak/exit-status.c
) || exit 1

# The row says what the checkout was when the run began.
provenance=$(results_provenance)
log=$dir/soak.log
printf '==> soak%s: %s (%s s)\n' "$suffix" "$duration" "$seconds"
{
  "$obj/testrun.sh" "$dir/soak" "$seconds" "$dir/exit-status" 2>&1
  echo $? > "$dir/status"
} | tee "$log"
status=$(cat "$dir/status")

# The summary lines of soak.c: "ops METHOD N", "metric NAME first N
# last N min N max N", "verdict ...".  ops METHOD...: their sum, "-"
# where the run gave none.
ops ()
{
  awk -v methods="$*" '
    BEGIN { n = split (methods, m, " ") }
    $1 == "ops" { for (i = 1; i <= n; i++) if ($2 == m[i]) { sum += $3; found++ } }
    END { print found == n ? sum : "-" }' "$log"
}
first_last ()
{
  awk -v m="$1" '$1 == "metric" && $2 == m { print $4 " → " $6; found = 1 }
		 END { if (!found) print "-" }' "$log"
}
verdict=$(sed -n 's/^verdict //p' "$log")
[ -n "$verdict" ] || verdict="FAIL: no verdict (exit status $status)"

results_update soak.md \
  "make soak: process creation over time, from threads and signal handlers" \
  "ABI | duration | posix_spawn | pidfd_spawn | pidfd_fork: 0, ASYNCSAFE, NOSIGCHLD, both | fork | spawns in forked children, handlers, short threads | fds | maps | mapped KiB | RSS KiB | threads | children | verdict" \
  "$abi_abi" "$abi_abi | $duration | $(ops posix_spawn) | $(ops pidfd_spawn) | \
$(ops pidfd_fork), $(ops pidfd_fork_ASYNCSAFE), $(ops pidfd_fork_NOSIGCHLD), \
$(ops pidfd_fork_ASYNCSAFE+NOSIGCHLD) | $(ops fork) | \
$(ops spawn_in_forked_child), \
$(ops handler_posix_spawn handler_pidfd_spawn), \
$(ops short_thread_posix_spawn short_thread_pidfd_spawn) | \
$(first_last fds) | $(first_last maps) | $(first_last mapped_kib) | \
$(first_last rss_kib) | $(first_last threads) | $(first_last children) | \
$verdict"
[ "$status" = 0 ]
