# Sourced by every shell script of scripts/ (run from the checkout's top
# directory): what they all need.
#
#   die MESSAGE...    print "NAME: MESSAGE" on standard error, NAME being
#                     the script's, and exit 1
#   minutes SECONDS   print SECONDS as 12m05s
# shellcheck shell=sh

die ()
{
  printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2
  exit 1
}

minutes ()
{
  printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}
