# Sourced by the scripts that need to say which series and which
# checkout they work on:
#
#   series_patches   the patches patches/series lists, in order (its
#                    comments and blank lines left out)
#   series_hash      one hash of patches/series and the patches it lists,
#                    in order: what build/src records as applied
#                    (build/src/.git/series-applied); fails, naming it,
#                    if the series lists a patch that is missing
#   checkout_notes   the line that says which checkout and which series
#                    built the libc a run tests: the commits of the
#                    checkout and of build/src, whether either has
#                    uncommitted changes, and how many patches of the
#                    series build/src has
#   results_update FILE TITLE HEADER KEY ROW
#                    write the measured table results/FILE, a Markdown
#                    file: TITLE, then the table of HEADER (its cells
#                    separated by '|'), one row per KEY (its first
#                    cells); ROW replaces the row of the same KEY or is
#                    added, and ends with the date, the checkout and the
#                    series it was measured with; the other rows keep
#                    their cells by column name
#   results_rows FILE KEY...
#                    results/FILE with the rows of the KEYs alone
#   results_counts FILE
#                    "PASSED | FAILED | SKIPPED" of the results FILE
#                    that scripts/test/run-checks.sh wrote, "- | - | -"
#                    where there is none
# shellcheck shell=sh

series_patches ()
{
  sed -e 's/#.*//' -e '/^[[:space:]]*$/d' patches/series
}

series_hash ()
{
  patches=$(series_patches)
  for p in $patches; do
    if [ ! -f "patches/$p" ]; then
      printf 'patches/series names %s, which is missing\n' "$p" >&2
      return 1
    fi
  done
  # The list and the patches: a comment of patches/series changes nothing.
  # shellcheck disable=SC2086
  (echo "$patches"; cd patches && cat $patches /dev/null) | sha256sum \
    | cut -d ' ' -f 1
}

# changes DIR: say so when the git tree DIR has uncommitted changes,
# but for those of results/, which the tools write themselves.
changes ()
{
  [ -z "$(git -C "$1" status --porcelain --untracked-files=no -- . \
	    ':!results')" ] \
    || echo ' with uncommitted changes'
}

checkout_notes ()
{
  printf 'checkout %s%s; build/src %s%s, %d patches of the series\n' \
    "$(git rev-parse --short=12 HEAD)" "$(changes .)" \
    "$(git -C build/src rev-parse --short=12 HEAD)" "$(changes build/src)" \
    "$(git -C build/src rev-list --count base..HEAD)"
}

# The cells that say when and on what a row was measured: a script
# whose run is long takes them at its start, into $provenance, which
# results_update then uses.
results_provenance ()
{
  printf '%s | %s%s | %s, %d patches' "$(date -u +%Y-%m-%d)" \
    "$(git rev-parse --short=12 HEAD)" "$(changes .)" \
    "$(series_hash | cut -c 1-12)" \
    "$(series_patches | wc -l)"
}

results_update ()
{
  file=results/$1
  header="$3 | date | checkout | series"
  rule=$(printf '%s\n' "$header" \
	 | awk -F '|' '{ s = "|"; for (i = 1; i <= NF; i++) s = s " --- |"
			 print s }')
  mkdir -p results
  # One writer at a time: runs of several ABIs may end together.
  (
    flock 8 || exit 1
    tmp=$(mktemp "$file.XXXXXX") && chmod 644 "$tmp" || exit 1
    {
      printf '# %s\n\n' "$2"
      printf 'Written by the tool that measured it.  Each row names the day,\n'
      printf 'the checkout, and the series (the start of its series_hash and\n'
      printf 'its number of patches) it was measured with; "-" is a count\n'
      printf 'that a run which stopped early did not give, or a column added\n'
      printf 'after the row was measured.\n\n'
      printf '| %s |\n%s\n' "$header" "$rule"
      # The rows of the file as it was, each cell under the column of
      # its name (a column that a row of an older table lacks is "-"),
      # the one of KEY replaced in its place, or added last.
      { [ ! -f "$file" ] || HEADER=$header awk '
	  # A "|" inside a cell is written "\|", as Markdown has it.
	  function cells (line, out,   n, i) {
	    gsub (/\\\|/, "\034", line)
	    n = split (line, out, "|")
	    for (i = 2; i < n; i++) {
	      out[i - 1] = out[i]
	      gsub (/^ +| +$/, "", out[i - 1])
	      gsub (/\034/, "\\|", out[i - 1])
	    }
	    return n - 2
	  }
	  BEGIN { columns = cells("| " ENVIRON["HEADER"] " |", name) }
	  !/^\| / { next }
	  ++rows == 1 {
	    n = cells($0, old)
	    for (i = 1; i <= n; i++) at[old[i]] = i
	    next
	  }
	  rows == 2 { next }
	  {
	    cells($0, cell)
	    row = "|"
	    for (i = 1; i <= columns; i++)
	      row = row " " (name[i] in at ? cell[at[name[i]]] : "-") " |"
	    print row
	  }' "$file"; } \
	| KEY="| $4 |" ROW="| $5 | ${provenance:-$(results_provenance)} |" awk '
	    index ($0, ENVIRON["KEY"]) == 1 {
	      if (!done) print ENVIRON["ROW"]
	      done = 1
	      next
	    }
	    { print }
	    END { if (!done) print ENVIRON["ROW"] }'
    } > "$tmp" && mv "$tmp" "$file"
  ) 8> results/.lock
}

# results_rows FILE KEY...: the table of results/FILE with the rows of
# the KEYs alone (a driver's own run, not the rows of earlier runs).
results_rows ()
{
  file=results/$1
  shift
  KEYS=$(printf '%s\n' "$@") awk '
    BEGIN { n = split (ENVIRON["KEYS"], k, "\n") }
    !/^\| / { next }
    ++rows <= 2 { print; next }
    { for (i = 1; i <= n; i++) if (index ($0, "| " k[i] " |") == 1) print }' \
    "$file"
}

results_counts ()
{
  if [ -f "$1" ]; then
    printf '%d | %d | %d' "$(grep -c -E '^(PASS|XPASS):' "$1")" \
      "$(grep -c -E '^FAIL:' "$1")" "$(grep -c -E '^(UNSUPPORTED|XFAIL):' "$1")"
  else
    printf '%s' '- | - | -'
  fi
}
