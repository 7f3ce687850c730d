#!/bin/sh
# make pq-import: build/src is the patch queue once make source has
# applied the series (scripts/build/apply-series.sh); say how to use it.
#
# Usage: scripts/pq/import.sh
set -u
echo "build/src: branch 'series', one commit per patch on top of tag 'base'."
echo "Edit, commit, rebase there (git -C build/src rebase -i base), then" \
     "make pq-export."
