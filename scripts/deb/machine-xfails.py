#!/usr/bin/env python3
"""Add the failures that check/xfail-debian lists, each with its reason,
to debian/testsuite-xfail-debian.mk of the tree make deb builds, in a
section of its own at the end.  They are the build machines' failures
(the stock package fails them there too), not the series': they go to
the tree that is built here, after dpkg-source has made the source
package, so that the source package a packager takes has none of them.

Usage: scripts/deb/machine-xfails.py SOURCE-DIR
"""

import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
XFAIL = os.path.join(TOP, "check", "xfail-debian")
RULE = "#" * 70
TITLE = ("# This build machine's failures, which the stock package has\n"
         "# there too (check/xfail-debian of the pidfd series)\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.rsplit("\n\n", 1)[-1].strip())
    entries = []
    with open(XFAIL) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, _, reason = line.strip().partition(" ")
            if not reason:
                sys.exit(f"machine-xfails: {XFAIL}: no reason for {name}")
            entries.append(f"# {name}: {reason}\n"
                           f"test-xfail-{os.path.basename(name)} = yes\n")
    path = os.path.join(sys.argv[1], "debian/testsuite-xfail-debian.mk")
    with open(path) as f:
        text = f.read()
    if TITLE in text:
        sys.exit(f"machine-xfails: {path} has the section already")
    if not entries:
        return
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n\n" + RULE + "\n"
                + TITLE + RULE + "\n" + "".join(entries))


main()
