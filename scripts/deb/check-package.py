#!/usr/bin/env python3
"""Check the library packages of one make deb build, as a packager
would before uploading them: for each libc6 package of the build (libc6
and the multilib flavours, libc6-i386, libc6-x32, ...) that the .changes
lists, its libc.so.6 exports every symbol that the series adds to the
libc.abilist files of the source tree, each at its version node
(readelf --dyn-syms of the packaged library: SYMBOL@@NODE); its symbols
file (what dpkg-shlibdeps reads to give a program its dependencies)
lists each of them with the dependency template of its node, and has
those templates for libc.so.6; and the Provides of that package and of
its -dev package name the virtual packages of scripts/deb/add-series.py.

Prints one line per package; exits 1 on the first package that lacks
a symbol or a virtual package, 2 on a build it cannot read.  GNU
readelf reads the ELF files of every architecture, so the check runs
on this machine for each of them.

Usage: scripts/deb/check-package.py CHANGES SOURCE-DIR
"""

import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "add_series", os.path.join(HERE, "add-series.py"))
add_series = importlib.util.module_from_spec(spec)
spec.loader.exec_module(add_series)
NODES = (add_series.SPAWN_NODE, add_series.FORK_NODE)
VIRTUALS = ((add_series.SPAWN_VIRTUAL, add_series.SPAWN_VERSION),
            (add_series.FORK_VIRTUAL, add_series.FORK_VERSION))
# The templates add-series.py adds to symbols.wildcards, as
# dpkg-gensymbols writes them for PKG: the number of each node's.
TEMPLATES = {
    add_series.SPAWN_NODE: (2, "| {pkg} (>= %s) | {pkg}-%s (>= %s)" % (
        add_series.SPAWN_VERSION, add_series.SPAWN_VIRTUAL,
        add_series.SPAWN_VERSION)),
    add_series.FORK_NODE: (3, "| {pkg}-%s (>= %s)" % (
        add_series.FORK_VIRTUAL, add_series.FORK_VERSION)),
}


def library(pkg):
    """A shared-library package of add-series.py's, not a -dev one."""
    return (add_series.LIBRARY.match(pkg) and "-dev" not in pkg
            and not pkg.startswith("@"))


def die(status, message):
    print(f"check-package: {message}", file=sys.stderr)
    sys.exit(status)


def expected(src):
    """NODE SYMBOL pairs the series adds, from every Linux libc.abilist."""
    pairs = set()
    pattern = os.path.join(src, "sysdeps/unix/sysv/linux/**/libc.abilist")
    for path in glob.glob(pattern, recursive=True):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 2 and fields[0] in NODES:
                    pairs.add((fields[0], fields[1]))
    if not {node for node, _ in pairs} == set(NODES):
        die(2, f"{src}: no libc.abilist with {' and '.join(NODES)}")
    return pairs


def debs(changes):
    """The .deb files the .changes lists, by package name."""
    files = {}
    with open(changes) as f:
        text = f.read()
    section = re.search(r"^Files:\n((?:[ \t].*\n?)*)", text, re.M)
    if not section:
        die(2, f"{changes}: no Files field")
    for line in section.group(1).splitlines():
        name = line.split()[-1]
        if name.endswith(".deb"):
            files[name.split("_")[0]] = os.path.join(
                os.path.dirname(changes), name)
    return files


def run(*command, stdin=None):
    """The output of COMMAND; exit 2 if it fails."""
    result = subprocess.run(command, input=stdin, capture_output=True)
    if result.returncode != 0:
        die(2, f"{' '.join(command)}: "
            f"{result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def field(deb, name):
    return run("dpkg-deb", "-f", deb, name).decode().strip()


def member(deb, part, path):
    """The file PATH of the .deb's data (part "fsys") or control
    ("ctrl") archive."""
    return run("tar", "-xO", path,
               stdin=run("dpkg-deb", f"--{part}-tarfile", deb))


def exported(deb):
    """SYMBOL@@NODE of each symbol that the packaged libc.so.6 defines."""
    listing = run("dpkg-deb", "-c", deb).decode()
    paths = [line.split()[5] for line in listing.splitlines()
             if line.split()[5].endswith("/libc.so.6")]
    if len(paths) != 1:
        die(2, f"{deb}: {len(paths)} libc.so.6 files")
    # readelf reads a regular file only.
    with tempfile.NamedTemporaryFile() as f:
        f.write(member(deb, "fsys", paths[0]))
        f.flush()
        out = run("readelf", "--dyn-syms", "-W", f.name).decode()
    symbols = set()
    for line in out.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name, with "[<localentry>:
        # 8]" after Vis on powerpc64: Ndx and Name are the last two.
        # Ndx is UND where the library only refers to the symbol.
        if len(fields) >= 8 and fields[0].endswith(":") \
           and fields[-2] != "UND":
            symbols.add(fields[-1])
    return paths[0], symbols


def symbols_file(deb, pkg, pairs):
    """What the symbols file of PKG lacks for libc.so.6: the templates
    of the two nodes, and each symbol with its node's template."""
    lines = member(deb, "ctrl", "./symbols").decode().splitlines()
    header = f"libc.so.6 {pkg} #MINVER#"
    if header not in lines:
        return [header]
    section = []
    for line in lines[lines.index(header) + 1:]:
        if not line.startswith((" ", "|", "*")):
            break
        section.append(line)
    templates = [line for line in section if line.startswith("|")]
    missing = []
    for node, (number, template) in TEMPLATES.items():
        if (len(templates) < number
                or templates[number - 1] != template.format(pkg=pkg)):
            missing.append(f"template {number}: {template.format(pkg=pkg)}")
    for node, sym in sorted(pairs):
        number = TEMPLATES[node][0]
        if not any(re.fullmatch(rf" {re.escape(sym)}@{node} \S+ {number}",
                                line) for line in section):
            missing.append(f"{sym}@{node} with template {number}")
    return missing


def main():
    if len(sys.argv) != 3:
        die(2, "usage: scripts/deb/check-package.py CHANGES SOURCE-DIR")
    changes, src = sys.argv[1:]
    pairs = expected(src)
    files = debs(changes)
    libraries = sorted(p for p in files if library(p))
    if "libc6" not in libraries and "libc6.1" not in libraries:
        die(2, f"{changes}: no libc6 package")
    for pkg in libraries:
        path, symbols = exported(files[pkg])
        missing = sorted(f"{sym}@@{node}" for node, sym in pairs
                         if f"{sym}@@{node}" not in symbols)
        if missing:
            die(1, f"{pkg}: {path} lacks {', '.join(missing)}")
        missing = symbols_file(files[pkg], pkg, pairs)
        if missing:
            die(1, f"{pkg}: its symbols file lacks {'; '.join(missing)}")
        dev = pkg.replace("libc6", "libc6-dev", 1) if "-" in pkg \
            else f"{pkg}-dev"
        for p in (pkg, dev):
            if p not in files:
                die(1, f"{changes}: {pkg} without {p}")
            provides = field(files[p], "Provides")
            names = [v.strip() for v in provides.split(",")]
            for virtual, version in VIRTUALS:
                want = f"{p}-{virtual} (= {version})"
                if want not in names:
                    die(1, f"{p}: Provides lacks {want}: {provides}")
        print(f"{pkg}: {path} has the {len(pairs)} symbols at "
              f"{' and '.join(NODES)}, and its symbols file their "
              f"templates; {pkg} and {dev} provide "
              f"{', '.join(v for v, _ in VIRTUALS)}")


main()
