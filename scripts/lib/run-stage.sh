#!/bin/sh
# Run one stage of the build with its output in build/logs/STAGE.log.
# The terminal gets the stage's name, a progress line every 30 seconds
# (elapsed time and the glibc subdirectory being worked on) and the
# total time; on failure, the log's last relevant lines and its path.
#
# Usage: scripts/lib/run-stage.sh STAGE COMMAND [ARGUMENT...]
set -u

stage=$1
shift
logdir=${LOGDIR:-build/logs}
mkdir -p "$logdir"
log=$logdir/$stage.log
start=$(date +%s)

elapsed ()
{
  s=$(($(date +%s) - start))
  printf '%dm%02ds' $((s / 60)) $((s % 60))
}

printf '==> %s (log: %s)\n' "$stage" "$log"
# In the background, but as a fresh process (scripts/lib/fresh-process.py): a
# shell without job control would start it with SIGINT and SIGQUIT
# ignored, and with whatever descriptors we were given, which glibc's
# tests would inherit.
"$(dirname "$0")/fresh-process.py" "$@" > "$log" 2>&1 < /dev/null &
job=$!

# The ticker does not hold descriptor 9 (the lock of the object
# directory, scripts/lib/lock-obj.sh), and its sleeps do not hold our stdout,
# so a ticker left behind keeps no stage out of the lock; once this
# script is gone, killed or not, it stops within 30 s without a word.
(
  while sleep 30 > /dev/null 2>&1 && kill -0 $$ 2> /dev/null; do
    dir=$(sed -n "s/.*Entering directory '.*\/\([^/']*\)'.*/\1/p" "$log" \
	  | tail -n 1)
    printf '    %s: %s%s\n' "$stage" "$(elapsed)" "${dir:+, in $dir/}"
  done
) 9>&- &
ticker=$!
trap 'kill $job $ticker 2> /dev/null; exit 130' INT TERM

wait $job
rc=$?
kill $ticker 2> /dev/null
wait $ticker 2> /dev/null

if [ $rc -eq 0 ]; then
  printf '    %s: done in %s\n' "$stage" "$(elapsed)"
  exit 0
fi

printf '    %s: FAILED after %s (exit status %d); last relevant lines:\n' \
  "$stage" "$(elapsed)" $rc
relevant=': (fatal )?error|Error [0-9]|\*\*\*|^FAIL'
if grep -q -E "$relevant" "$log"; then
  grep -E "$relevant" "$log" | tail -n 15
else
  tail -n 20 "$log"
fi | sed 's/^/    | /'
printf '    full log: %s\n' "$log"
exit $rc
