# Sourced by the scripts that report test results against the lists of
# check/ (make check, make check-target, make check-wrapper):
#
#   xfail_reason LIST NAME
#                 the reason check/LIST (xfail, racy, left-out, ...)
#                 gives for test NAME, listed as NAME for every ABI or as
#                 ABI:NAME for the ABI in $ABI; nothing if it does not
#                 list it
#   xfail_apply OUTPUT LIST...
#                 apply the lists to the result in $result of test
#                 $name, whose reason is $reason: a FAIL that a LIST
#                 expects becomes XFAIL, a PASS it expects XPASS, each
#                 with the list's reason.  Where the entry's reason
#                 quotes a text ("..."), the failure is XFAIL only if
#                 OUTPUT, the file of what the test printed, holds every
#                 text it quotes: another failure of the same test still
#                 counts, and its reason says so.
# shellcheck shell=sh
# $name, $result and $reason are the caller's:
# shellcheck disable=SC2154

xfail_reason ()
{
  awk -v n="$2" -v q="$ABI:$2" \
    '$1 == n || $1 == q { sub (/^[^ \t]+[ \t]+/, ""); print; exit }' \
    "check/$1"
}

# missing_line WHY FILE: say which text that WHY, an xfail entry's
# reason, quotes ("...") FILE does not hold, or that WHY's quotes do
# not pair.  Nothing if FILE holds every quoted text.
missing_line ()
{
  rest=$1
  while :; do
    case $rest in
      *\"*\"*) ;;
      *\"*) echo "has an odd number of quotes"; return ;;
      *) return ;;
    esac
    rest=${rest#*\"}
    line=${rest%%\"*}
    rest=${rest#*\"}
    grep -q -F -e "$line" "$2" 2> /dev/null \
      || { printf 'expects "%s" in its output\n' "$line"; return; }
  done
}

xfail_apply ()
{
  output=$1
  shift
  why=
  for xlist; do
    why=$(xfail_reason "$xlist" "$name")
    [ -z "$why" ] || break
  done
  # A failure the entry quotes ("...") must be the one the test shows.
  if [ -n "$why" ] && [ "$result" = FAIL ]; then
    missing=$(missing_line "$why" "$output")
    if [ -n "$missing" ]; then
      reason="${reason:+$reason; }check/$xlist lists it, but $missing"
      why=
    fi
  fi
  if [ -n "$why" ]; then
    case $result in
      FAIL) result=XFAIL reason="check/$xlist: $why" ;;
      PASS) result=XPASS reason="listed in check/$xlist: $why" ;;
    esac
  fi
}
