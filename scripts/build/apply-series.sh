#!/bin/sh
# Make build/src the pinned glibc source with patches/series applied as
# git commits on the branch "series", on top of the tag "base".
#
# The first run unpacks the tarball and commits it as "base".  Later
# runs apply the series in a scratch worktree and then check out the
# result, so only the files whose contents changed get a new time stamp
# and the next build is incremental.  Commits are made with a fixed
# committer and date, so the same series always gives the same commits.
#
# Work in build/src that is not in patches/ (uncommitted edits, or
# commits not exported with "make pq-export") is never thrown away: the
# script stops and says what to do.
#
# Usage: scripts/build/apply-series.sh
set -u
. scripts/lib/common.sh
. scripts/lib/series.sh
. ./base.conf

src=build/src
top=$(pwd)
stamp=$src/.git/series-applied


export GIT_COMMITTER_NAME="glibc patch series"
export GIT_COMMITTER_EMAIL="series@invalid"

if [ ! -d "$src/.git" ]; then
  printf '==> unpacking %s into %s\n' "$GLIBC_TARBALL" "$src"
  rm -rf "$src.tmp"
  mkdir -p "$src.tmp"
  tar -xJf "$GLIBC_TARBALL" -C "$src.tmp" --strip-components=1 \
    || die "cannot unpack $GLIBC_TARBALL"
  date=$(stat -c '@%Y +0000' "$GLIBC_TARBALL")
  (
    cd "$src.tmp" \
      && git init -q -b series \
      && git add -A -f . \
      && GIT_AUTHOR_NAME="Debian glibc-source" \
	 GIT_AUTHOR_EMAIL="glibc-source@invalid" \
	 GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
	 git commit -q -m "Debian glibc-source $GLIBC_SOURCE_VERSION" \
      && git tag base
  ) || die "cannot make $src.tmp a git repository"
  mv "$src.tmp" "$src"
fi
# build/src keeps the base it was unpacked from: after a re-pin of
# base.conf, the series must not be built on the old one.
unpacked=$(git -C "$src" log -1 --format=%s base)
[ "$unpacked" = "Debian glibc-source $GLIBC_SOURCE_VERSION" ] \
  || die "$src holds '$unpacked', not glibc-source $GLIBC_SOURCE_VERSION" \
	 "(base.conf): export any work (make pq-export), then make clean"

git -C "$src" config user.email > /dev/null \
  || git -C "$src" config user.email "$GIT_COMMITTER_EMAIL"
git -C "$src" config user.name > /dev/null \
  || git -C "$src" config user.name "$GIT_COMMITTER_NAME"

# The patches, in order, from patches/series (comments and blank lines
# skipped).
wanted=$(series_hash) || exit 1
patches=$(series_patches)

head=$(git -C "$src" rev-parse HEAD)
previous=$(cut -d ' ' -f 2 "$stamp" 2> /dev/null)
if [ -f "$stamp" ] && [ "$(cut -d ' ' -f 1 "$stamp")" = "$wanted" ]; then
  # patches/ has not changed since it was applied: build whatever the
  # patch queue holds now, edits in progress included.
  if [ "$head" != "$previous" ] \
     || [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
    printf '==> %s has work not in patches/ (make pq-export saves it)\n' "$src"
  fi
  exit 0
fi

if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  die "$src has uncommitted changes: commit them and run make pq-export" \
      "(or discard them: git -C $src reset --hard)"
fi

scratch=$top/build/series-apply
rm -rf "$scratch"
git -C "$src" worktree prune
git -C "$src" worktree add -q --detach "$scratch" base \
  || die "cannot make a scratch worktree"
n=0
for p in $patches; do
  n=$((n + 1))
  if ! git -C "$scratch" am -q --committer-date-is-author-date \
       "$top/patches/$p" > "$top/build/series-apply.log" 2>&1; then
    cat "$top/build/series-apply.log" >&2
    git -C "$scratch" am --abort > /dev/null 2>&1
    git -C "$src" worktree remove --force "$scratch"
    die "patch $n, patches/$p, does not apply to the result of the" \
	"patches before it"
  fi
done
new=$(git -C "$scratch" rev-parse HEAD)
git -C "$src" worktree remove --force "$scratch"

# HEAD is what an earlier run applied, or what the patch queue holds.
# Moving it to the new series is safe only if nothing in it would be
# lost: it is the commit we recorded, or it has the same tree as the
# new series (it was just exported).
if [ "$head" != "$previous" ] && [ "$head" != "$(git -C "$src" rev-parse base)" ] \
   && [ "$(git -C "$src" rev-parse "$head^{tree}")" \
	!= "$(git -C "$src" rev-parse "$new^{tree}")" ]; then
  die "$src has commits that are not in patches/: run make pq-export," \
      "or drop them with: git -C $src reset --hard $new"
fi

git -C "$src" checkout -q -B series "$new" || die "cannot check out $new"
printf '%s %s\n' "$wanted" "$new" > "$stamp"
printf '==> %s: base + %d patches from patches/series\n' "$src" $n
