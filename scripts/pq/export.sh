#!/bin/sh
# Write the commits of build/src (base..HEAD) to patches/ as
# git format-patch files and list them in patches/series.  The output
# depends only on the commits' contents: no commit hashes, no numbering
# in the subjects, no git version, fixed abbreviations.  So an import
# followed by an export with no edits changes nothing.
#
# Usage: scripts/pq/export.sh
set -u
. scripts/lib/common.sh
. scripts/lib/series.sh

src=build/src

[ -d "$src/.git" ] || die "no $src: run make pq-import first"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] \
  || die "$src has uncommitted changes: commit them first"

rm -rf build/pq-export
mkdir -p build/pq-export
git -C "$src" -c core.abbrev=12 -c diff.noprefix=false -c format.signoff=false \
  format-patch -q --zero-commit --no-signature --no-numbered \
  --output-directory "$(pwd)/build/pq-export" base..HEAD \
  || die "git format-patch failed"

rm -f patches/*.patch
{
  printf '# The series, in the order it applies (make pq-export writes this).\n'
  for p in build/pq-export/*.patch; do
    [ -f "$p" ] || continue
    mv "$p" patches/
    basename "$p"
  done
} > patches/series
rm -rf build/pq-export
# build/src holds what patches/ now says: later runs of make build it
# as it is, edits in progress included, instead of applying it again.
printf '%s %s\n' "$(series_hash)" "$(git -C "$src" rev-parse HEAD)" \
  > "$src/.git/series-applied"
printf '==> patches/: %d patches\n' \
  "$(series_patches | wc -l)"
