#!/bin/sh
# make help: list the targets of MAKEFILE (its '## TARGET: WHAT' lines)
# and its knobs (its '#: KNOB=VALUE  WHAT' lines).
#
# Usage: scripts/help.sh MAKEFILE
set -u
makefile=${1:?usage: scripts/help.sh MAKEFILE}
echo 'make TARGET [KNOB=VALUE...]; the targets:'
sed -n 's/^## \([^:]*\): */  \1\t/p' "$makefile" | expand -t 20
echo
echo 'The knobs:'
sed -n 's/^#: /  /p' "$makefile"
echo
echo 'docs/testing.md says what each target needs and how long it takes.'
