# Sourced by every script that knows about ABIs: reads abis.table, the
# one table of the ABIs this tree builds (what each column means is
# written at its top), and defines
#
#   abi_load          set the variables below for $ABI (default: the
#                     table's first row, x86_64)
#   abi_list COLUMN=VALUE...
#                     the ABIs whose row has every VALUE in COLUMN
#   abi_select JOB[:SUITE] ARCH
#                     the ABIs of Debian architecture ARCH that JOB
#                     (cross, target, user, wrapper) works on, those
#                     with a kernel of SUITE where it is given, narrowed
#                     to $ABI where that is set (ARCH may then be empty);
#                     an error naming what JOB accepts when there is none
#   abi_one JOB[:SUITE] ARCH COMMAND...
#                     abi_select's ABIs one at a time: COMMAND for each
#                     where there are several, else ABI set to the one
#   abi_rows          the table's rows, checked, fields separated by '|'
#   abi_default [COLUMN]
#                     the first row's ABI (or its COLUMN)
#
# abi_load sets, from the row and Debian 12's glibc packaging that it
# records (debian/rules, debian/sysdeps/<arch>.mk): suffix obj sysroot
# headers (the build directories), host cross (the triplet where
# cross-compiled, else empty) compiler (the prefix of the compiler's
# name) cflags ldflags options rtlddir slibdir libdir headers_from,
# kernel_arch (the architecture of the ABI's kernel, Debian's name for
# a Debian kernel, the kernel's own, such as powerpc, for one built from
# source: where it is this machine's Debian architecture, this
# machine's kernel runs the ABI's programs itself),
# abi_COLUMN for every column of the row, and exports the ccache
# settings.
# shellcheck shell=sh
# The variables it sets are for the scripts that source it:
# shellcheck disable=SC2034

abi_table=abis.table

# The table's rows without comments, each field trimmed, separated by
# '|': the column names first.  A row with another number of fields
# than the header, or an ABI named twice, is an error.
abi_rows ()
{
  awk -F '|' -v table="$abi_table" '
    /^[[:space:]]*(#|$)/ { next }
    {
      if (!columns)
        columns = NF
      else if (NF != columns) {
        printf "%s:%d: %d fields, not %d\n", table, NR, NF, columns \
          > "/dev/stderr"
        exit 2
      }
      line = ""
      for (i = 1; i <= NF; i++) {
        f = $i
        gsub (/^[[:space:]]+|[[:space:]]+$/, "", f)
        if (i == 1 && seen[f]++) {
          printf "%s:%d: %s again\n", table, NR, f > "/dev/stderr"
          exit 2
        }
        line = line (i > 1 ? "|" : "") f
      }
      print line
    }' "$abi_table"
}

# shellcheck disable=SC2120
abi_list ()
{
  abi_rows | awk -F '|' -v conditions="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) column[$i] = i; next }
    {
      n = split (conditions, c, " ")
      for (j = 1; j <= n; j++) {
        split (c[j], kv, "=")
        if (!(kv[1] in column)) { print "no column " kv[1] > "/dev/stderr"; exit 2 }
        if ($column[kv[1]] != kv[2]) next
      }
      printf "%s ", $1
    }
    END { print "" }'
}

abi_select ()
{
  rows=$(abi_rows) || exit 2
  printf '%s\n' "$rows" | awk -F '|' -v job="${1%%:*}" -v arch="$2" \
    -v suite="$(echo "$1" | sed -n 's/^[^:]*://p')" -v only="${ABI-}" '
    NR == 1 { for (i = 1; i <= NF; i++) column[$i] = i; next }
    function field (name) { return $column[name] }
    {
      archof[$1] = field("arch")
      ok = 0
      if (job == "cross")
        ok = field("kind") != "native"
      else if (job == "target")
        ok = field("suites") != "-"
      else if (job == "user")
        ok = field("kind") != "native" && field("user_cpu") != "-"
      else if (job == "wrapper")
        ok = 1
      if (!ok)
        next
      if (!(field("arch") in accepted))
        arches[++n] = field("arch")
      accepted[field("arch")] = accepted[field("arch")] " " $1
      # No ARCH: the one of the ABI named.
      if ((arch != "" && field("arch") != arch) || (only != "" && $1 != only))
        next
      if (arch == "" && only == "")
        next
      # A KERNEL=SUITE runs the ABIs of ARCH that the table runs there,
      # or the one ABI names.
      if (suite != "" && only == "" && index ("," field("suites") ",", "," suite ",") == 0)
        next
      # ARCH means its ABIs but the ports; a port only where ARCH has no
      # other ABI, or where ABI= names it.
      if (field("kind") == "port" && only == "") {
        ports = ports " " $1
        next
      }
      chosen = chosen " " $1
    }
    END {
      if (chosen == "")
        chosen = ports
      if (chosen == "" && arch in archof && archof[arch] != arch) {
        printf "%s is an ABI of ARCH=%s: say ARCH=%s ABI=%s\n", arch, \
          archof[arch], archof[arch], arch > "/dev/stderr"
        exit 2
      }
      if (chosen == "") {
        printf "no ABI %sof ARCH=%s%s for this target; ARCH (ABI) is one of:", \
          (only != "" ? only " " : ""), arch, \
          (suite != "" ? " with a kernel of " suite : "") > "/dev/stderr"
        for (i = 1; i <= n; i++)
          printf " %s (%s)", arches[i], substr (accepted[arches[i]], 2) \
            > "/dev/stderr"
        print "" > "/dev/stderr"
        exit 2
      }
      print substr (chosen, 2)
    }'
}

# abi_default [COLUMN]: the table's first row, the ABI of this machine,
# built in build/obj, or its COLUMN.
abi_default ()
{
  abi_rows | awk -F '|' -v name="${1:-abi}" '
    NR == 1 { for (i = 1; i <= NF; i++) column[$i] = i }
    NR == 2 { print $column[name] }'
}

abi_load ()
{
  : "${ABI:=$(abi_default)}"
  settings=$(abi_rows | awk -F '|' -v abi="$ABI" '
    NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
    $1 == abi {
      for (i = 1; i <= NF; i++) {
        v = ($i == "-") ? "" : $i
        if (v ~ /'"'"'/) { print "quote in " name[i] > "/dev/stderr"; exit 2 }
        printf "abi_%s='"'"'%s'"'"'\n", name[i], v
      }
      found = 1
    }
    END { if (!found) exit 1 }') || {
    printf '%s: unknown ABI %s (%s has: %s)\n' "${0##*/}" "$ABI" \
      "$abi_table" "$(abi_list)" >&2
    exit 1
  }
  # The columns of abis.table, each abi_COLUMN; a column of the table
  # that this list lacks is an error.
  abi_abi='' abi_arch='' abi_kind='' abi_triplet='' abi_compiler=''
  abi_cflags='' abi_ldflags='' abi_configure='' abi_rtlddir=''
  abi_slibdir='' abi_cross='' abi_kernel='' abi_suites=''
  abi_qemu_package='' abi_qemu='' abi_machine='' abi_cpu='' abi_console=''
  abi_mem='' abi_smp='' abi_append='' abi_user_cpu='' abi_clone3=''
  abi_patches=''
  for column in $(abi_rows | awk -F '|' 'NR == 1 { $1 = $1; print }'); do
    eval "[ \"\${abi_$column+set}\" = set ]" \
      || die "$abi_table has a column that scripts/lib/abi.sh does not know: $column"
  done
  eval "$settings"
  host=$abi_triplet
  cflags=$abi_cflags
  ldflags=$abi_ldflags
  options=$abi_configure
  rtlddir=$abi_rtlddir
  slibdir=$abi_slibdir
  libdir=/usr$abi_slibdir
  if [ "$abi_kind" = native ]; then
    # The kernel headers of this machine, whose ABI is the first row.
    cross='' compiler=''
    headers_from=/usr/include/$(abi_default triplet)/asm
  else
    cross=$host compiler=$abi_compiler-
    headers_from=/usr/$abi_compiler/include/asm
  fi
  # The table's first ABI is built in build/obj, the others in
  # build/obj-ABI.
  kernel_arch=$(echo "$abi_kernel" | cut -d: -f2)
  suffix=-$ABI
  [ "$ABI" != "$(abi_default)" ] || suffix=
  obj=build/obj$suffix
  sysroot=build/sysroot$suffix
  headers=build/kernel-headers$suffix

  # ccache: paths below the checkout are hashed relative to it (the
  # build also maps them to "." in the debugging information), so a
  # clone of the repository in another directory hits the objects
  # another clone made.  The cross builds get a cache of their own, so
  # that they do not push the native ones out of it.
  CCACHE_BASEDIR=$(pwd)
  export CCACHE_BASEDIR
  if [ -n "$cross" ] && [ -z "${CCACHE_DIR-}" ]; then
    CCACHE_DIR=${XDG_CACHE_HOME:-${HOME:?}/.cache}/ccache-cross
    export CCACHE_DIR
  fi
}

# abi_one JOB ARCH COMMAND...: where JOB (as abi_select) works on
# several ABIs of ARCH, run COMMAND once for each, with ABI set to it,
# and exit: 0 if each run succeeded, else 1.  Where it works on one,
# set and export ABI to it and return.
abi_one ()
{
  abis=$(abi_select "$1" "$2") || exit 2
  shift 2
  if [ "$abis" = "${abis%% *}" ]; then
    ABI=$abis
    export ABI
    return 0
  fi
  [ -z "${ABI-}" ] || die "abi_select gave several ABIs for ABI=$ABI"
  status=0
  for abi in $abis; do
    ABI=$abi "$@" || status=1
  done
  exit $status
}
