#!/usr/bin/env python3
"""Add the series to an unpacked Debian glibc source package, as its
maintainers would: each patch of patches/ goes to debian/patches/DIR/
as local-pidfd-<subject>.patch, after Debian's own (DIR is Debian's
directory for the architecture a patch is for, any/ for the others),
with DEP-3 fields (Bug, Forwarded, Last-Update; its From: is the
Author, which DEP-3 takes in place of Origin) added to its message; the
symbols files and the library packages get the new version nodes and
the virtual packages that programs using them depend on, the -dev
packages the virtual packages that a Build-Depends can name; the
changelog gets an entry with a local version suffix, dated by the last
change to patches/ (so that a rebuild is reproducible).  patches/ stays
the one source of truth: nothing here is kept in a second copy.

Dependencies (debian/symbols.wildcards, included by every libc6*
symbols file; fixed templates: dpkg-gensymbols lowers a minimal version
above the package's own to it, so #MINVER# could not say 2.39):
  GLIBC_2.39           -> PKG (>= 2.39) | PKG-pidfd-spawn (>= 2.39)
  DEBIAN_PIDFD_FORK_1  -> PKG-pidfd-fork (>= 1)
where PKG is the library package (libc6, libc6-i386, libc6-x32, ...),
each of which Provides PKG-pidfd-spawn (= 2.39) and PKG-pidfd-fork
(= 1) on Linux, as each -dev package (libc6-dev, libc6-dev-i386, ...)
provides DEV-pidfd-spawn and DEV-pidfd-fork.  A later Debian 12 update
without the series satisfies neither; Debian 13's libc6 (2.41)
satisfies the first only.  A revision of the series that adds a symbol
to one of the nodes must add a new node instead (DEBIAN_PIDFD_FORK_2,
Provides PKG-pidfd-fork (= 2)), so that what was built against it
cannot take an older libc; one that adds a flag or any other behaviour
a program can ask for to pidfd_fork raises the Provides to (= 2) and
the node's template to (>= 2), as a symbols file raises a symbol's
minimal version.

The failures of Debian's test run that are the build machine's
(check/xfail-debian) are not added here: they are no part of the source
package (scripts/deb/build.sh adds them to the tree it builds).

Usage: scripts/deb/add-series.py SOURCE-DIR VERSION-SUFFIX
"""

import email.utils
import os
import re
import subprocess
import sys
import time

SPAWN_NODE, SPAWN_VIRTUAL, SPAWN_VERSION = "GLIBC_2.39", "pidfd-spawn", "2.39"
FORK_NODE, FORK_VIRTUAL, FORK_VERSION = "DEBIAN_PIDFD_FORK_1", "pidfd-fork", "1"


TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PATCHES = os.path.join(TOP, "patches")


def git(*args):
    """What git says in this repository, or "" (no git, no checkout)."""
    try:
        return subprocess.run(["git", "-C", TOP, *args],
                              capture_output=True, text=True).stdout.strip()
    except FileNotFoundError:
        return ""


def die(message):
    sys.exit(f"add-series: {message}")


def last_update(path):
    """The day the patch last changed in this repository (the Date: of
    git format-patch is the author date, which a rebase keeps)."""
    out = git("log", "-1", "--format=%cs", "--", os.path.abspath(path))
    if out:
        return out
    with open(path) as f:
        for line in f:
            if line.startswith("Date: "):
                date = email.utils.parsedate_to_datetime(line[6:].strip())
                return date.strftime("%Y-%m-%d")
    die(f"{path}: no Date: header")


def subject(path):
    with open(path) as f:
        m = re.search(r"^Subject: (?:\[PATCH[^]]*\] )?(.*(?:\n .*)*)",
                      f.read(), re.M)
    return m.group(1).replace("\n", "")


def with_dep3(path):
    """The patch with DEP-3 fields as the last paragraph of its
    message (git format-patch's From: and Subject: are its Author and
    Description)."""
    with open(path) as f:
        text = f.read()
    head, sep, rest = text.partition("\n---\n")
    if not sep or "\nSubject: " not in head:
        die(f"{path}: not a git format-patch file")
    fields = []
    # The bug a patch is for is in its subject, glibc's manner; a BZ
    # in the message may be history only.
    for number in dict.fromkeys(re.findall(r"\bBZ\s+#?(\d+)", subject(path))):
        fields.append("Bug: https://sourceware.org/bugzilla/"
                      f"show_bug.cgi?id={number}")
    # Nothing here goes upstream (debian/patches/README: local-): the
    # interfaces the series shares with glibc are upstream's since 2.39
    # (its own code, the same ABI), and what went upstream would be
    # written for its master, not taken from this 2.36 branch; the rest
    # (pidfd_fork, the EPERM fallback...) is Debian's alone.
    fields.append("Forwarded: not-needed")
    fields.append(f"Last-Update: {last_update(path)}")
    return head.rstrip("\n") + "\n\n" + "\n".join(fields) + "\n" + sep + rest


def arch_dirs():
    """glibc's component in a subject -> Debian's directory of patches
    for that architecture (debian/patches/arm64/ and so on), from the
    patches column of abis.table, read as every script reads it
    (scripts/lib/abi.sh); other patches go to any/."""
    rows = subprocess.run(
        ["sh", "-c", ". scripts/lib/common.sh; . scripts/lib/abi.sh; abi_rows"],
        cwd=TOP, check=True, capture_output=True, text=True).stdout
    rows = [line.split("|") for line in rows.splitlines()]
    column = rows[0].index("patches")
    return dict(row[column].split(":") for row in rows[1:]
                if row[column] != "-")


ARCH_DIRS = arch_dirs()


def debian_name(path):
    """The name under debian/patches/: Debian's directory for the
    patch's architecture, local-pidfd- and the subject in Debian's
    manner (lower case, words joined by '-'), whole: git format-patch
    cuts its names short."""
    component = subject(path).split(":", 1)[0]
    slug = re.sub(r"[^a-z0-9]+", "-", subject(path).lower()).strip("-")
    return f"{ARCH_DIRS.get(component, 'any')}/local-pidfd-{slug}.patch"


def add_patches(src, patches):
    with open(os.path.join(patches, "series")) as f:
        names = [line.strip() for line in f
                 if line.strip() and not line.startswith("#")]
    series = os.path.join(src, "debian/patches/series")
    with open(series) as f:
        old = f.read()
    if "local-pidfd-" in old:
        die(f"{series} has the series already")
    entries = []
    for name in names:
        target = debian_name(os.path.join(patches, name))
        os.makedirs(os.path.dirname(os.path.join(src, "debian/patches",
                                                 target)), exist_ok=True)
        with open(os.path.join(src, "debian/patches", target), "w") as f:
            f.write(with_dep3(os.path.join(patches, name)))
        entries.append(target)
    with open(series, "a") as f:
        if old and not old.endswith("\n"):
            f.write("\n")
        f.write("".join(f"{e}\n" for e in entries))
    return names


def edit(path, function, required=True):
    with open(path) as f:
        text = f.read()
    new = function(text)
    if new == text and required:
        die(f"{path}: nothing changed")
    with open(path, "w") as f:
        f.write(new)


def wildcards(text, version):
    """Two dependency templates (2 and 3, after GLIBC_PRIVATE's 1), and
    the two nodes, at VERSION, the package's own version."""
    lines = text.split("\n")
    if not lines[0].startswith("| ") or lines[1].startswith("| "):
        die("symbols.wildcards: expected one dependency template first")
    last = " (symver|optional)GLIBC_2.36 2.36"
    if last not in lines:
        die(f"symbols.wildcards: no line '{last}'")
    at = lines.index(last) + 1
    lines[at:at] = [
        f" (symver|optional){SPAWN_NODE} {version} 2",
        f" (symver|optional){FORK_NODE} {version} 3",
    ]
    lines[1:1] = [
        f"| #PACKAGE# (>= {SPAWN_VERSION})"
        f" | #PACKAGE#-{SPAWN_VIRTUAL} (>= {SPAWN_VERSION})",
        f"| #PACKAGE#-{FORK_VIRTUAL} (>= {FORK_VERSION})",
    ]
    return "\n".join(lines)


# The shared-library packages whose symbols files include
# symbols.wildcards: libc6 (@libc@ in control.in/libc; libc6.1 on alpha)
# and the multilib flavours (libc6-i386, libc6-x32, libc6-amd64, ...);
# and their -dev packages (@libc@-dev, libc6-dev-i386, ...).
LIBRARY = re.compile(r"^(@libc@|libc6|libc6\.1|libc6-(?!dev|dbg|udeb)[a-z0-9]+"
                     r"|@libc@-dev|libc6-dev|libc6\.1-dev|libc6-dev-[a-z0-9]+)$")


def provides(text):
    """Add the virtual packages to each library and -dev package's
    stanza, at the end of its Provides field (which may be folded)."""
    stanzas = text.split("\n\n")
    for i, stanza in enumerate(stanzas):
        m = re.search(r"^Package: (\S+)$", stanza, re.M)
        if not m or not LIBRARY.match(m.group(1)):
            continue
        pkg = m.group(1)
        new = (f"{pkg}-{SPAWN_VIRTUAL} (= {SPAWN_VERSION}) [linux-any], "
               f"{pkg}-{FORK_VIRTUAL} (= {FORK_VERSION}) [linux-any]")
        if re.search(r"^Provides:", stanza, re.M):
            stanza = re.sub(r"^(Provides:.*(?:\n[ \t].*)*)",
                            lambda p: f"{p.group(1).rstrip(', ')}, {new}",
                            stanza, count=1, flags=re.M)
        else:
            stanza = re.sub(r"^(?=Depends: |Description: )",
                            f"Provides: {new}\n", stanza, count=1, flags=re.M)
        stanzas[i] = stanza
    return "\n\n".join(stanzas)


def changelog(src, suffix, subjects):
    path = os.path.join(src, "debian/changelog")
    with open(path) as f:
        old = f.read()
    m = re.match(r"glibc \(([^)]+)\) (\S+); urgency=\S+", old)
    if not m:
        die(f"{path}: no first entry")
    # The suffix must sort above the stock version and below its next
    # update (+debNNu<M+1>), or apt would keep this libc over that update,
    # or not take it over the stock one.
    stock = m.group(1)
    following = subprocess.run(
        [os.path.join(TOP, "scripts/deb/next-stable-update.sh"), stock],
        stdout=subprocess.PIPE, text=True).stdout.strip()
    if not following:
        die(f"{stock}: where this version sorts against the next update"
            " is not known")
    for op, other in (("gt", stock), ("lt", following)):
        if subprocess.run(["dpkg", "--compare-versions", stock + suffix,
                           op, other]).returncode != 0:
            die(f"{stock}{suffix} does not sort {op} {other}")
    who = (os.environ.get("DEBFULLNAME") or git("config", "user.name")
           or "pidfd series")
    mail = (os.environ.get("DEBEMAIL") or git("config", "user.email")
            or "root@localhost")
    items = [f"    - {s}" for s in subjects]
    # The date of the last change to patches/, not of this run: the
    # changelog's date is the build's SOURCE_DATE_EPOCH.
    when = int(git("log", "-1", "--format=%ct", "--", PATCHES)
               or time.time())
    entry = (f"glibc ({m.group(1)}{suffix}) {m.group(2)}; urgency=medium\n\n"
             "  * Race-free process creation (the pidfd series), in\n"
             "    debian/patches/*/local-pidfd-*.patch:\n"
             + "\n".join(items) + "\n"
             "  * debian/symbols.wildcards: GLIBC_2.39 and DEBIAN_PIDFD_FORK_1,\n"
             f"    with dependencies on #PACKAGE#-{SPAWN_VIRTUAL} and"
             f" #PACKAGE#-{FORK_VIRTUAL},\n"
             "    which the library packages provide.\n\n"
             f" -- {who} <{mail}>  "
             f"{time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(when))}"
             "\n\n")
    with open(path, "w") as f:
        f.write(entry + old)
    return m.group(1) + suffix


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.rsplit("\n\n", 1)[-1].strip())
    src, suffix = sys.argv[1], sys.argv[2]
    # '+' and what dpkg sorts after it: above the stock version, below
    # its next update (a '~' would sort below the stock version).
    if not re.fullmatch(r"\+[a-z][a-z0-9.+]*", suffix):
        die(f"version suffix '{suffix}': it must be '+' and a lower-case"
            " word (like +pidfd1)")
    names = add_patches(src, PATCHES)
    version = changelog(src, suffix, [subject(os.path.join(PATCHES, n))
                                      for n in names])
    edit(os.path.join(src, "debian/symbols.wildcards"),
         lambda text: wildcards(text, version))
    # debian/control is made from control.in/ (debian/rules.d/control.mk);
    # both change, so that either is right.
    control_in = os.path.join(src, "debian/control.in")
    for name in sorted(os.listdir(control_in)):
        edit(os.path.join(control_in, name), provides,
             required=name in ("libc", "i386", "x32", "amd64"))
    edit(os.path.join(src, "debian/control"), provides)


if __name__ == "__main__":
    main()
