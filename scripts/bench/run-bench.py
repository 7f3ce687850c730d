#!/usr/bin/env python3
"""Run the benchmarks of benchmarks/ against the built libc (and, for
process creation, against Debian's unpatched 2.36, the series' base) and
print the results and their ratios, and write them to results/bench.md
with the day, the checkout and the series they were measured with.
Benchmarks are not tests.

Each round runs every variant of a benchmark once, in a rotating order,
so that drifts of the machine hit them alike; each run prints the median
of its own iterations, and a variant's result is the median over the
rounds: one interleaved run.

Usage: scripts/bench/run-bench.py [ROUNDS]
"""

import os
import statistics
import subprocess
import sys

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
TESTRUN = "build/obj/testrun.sh"


class Tee:
    """Standard output, kept too, for results/bench.md."""

    def __init__(self, stream):
        self.stream = stream
        self.kept = []

    def write(self, text):
        self.kept.append(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


def write_results(text):
    """results/bench.md: the day, checkout and series (as
    scripts/lib/series.sh says them), then what was printed."""
    day, checkout, series = subprocess.run(
        ["sh", "-c", ". scripts/lib/series.sh; results_provenance"],
        check=True, capture_output=True, text=True).stdout.split(" | ")
    os.makedirs("results", exist_ok=True)
    with open("results/bench.md", "w") as f:
        f.write("# make bench\n\n"
                "Written by scripts/bench/run-bench.py: measured on "
                f"{day}, checkout {checkout}, series {series}, on "
                f"{os.cpu_count()} CPUs (Linux {os.uname().release}).\n\n"
                "```\n" + text + "```\n")


sys.stdout = Tee(sys.stdout)


def build(name):
    os.makedirs("build/bench", exist_ok=True)
    binary = f"build/bench/{name}"
    subprocess.run(["scripts/build/cc-built-libc.sh", "-o", binary,
                    f"benchmarks/{name}.c"], check=True)
    return binary


def rounds(variants):
    """variants: name -> command; run each once a round, in a rotating
    order; return name -> the numbers each run printed, a list a round."""
    names = list(variants)
    runs = {name: [] for name in names}
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            out = subprocess.run(variants[name], check=True,
                                 capture_output=True, text=True).stdout
            runs[name].append([float(x) for x in out.split()])
    return runs


def interleave(variants):
    """variants: name -> command printing one number; return name ->
    median over rounds."""
    return {name: statistics.median(r[0] for r in runs)
            for name, runs in rounds(variants).items()}


def report(title, unit, result, ratios):
    print(f"{title} (median of {ROUNDS} interleaved rounds):")
    for name, value in result.items():
        print(f"  {name:40} {value / unit[1]:10.1f} {unit[0]}")
    for label, top, bottom in ratios:
        print(f"  ratio {label:34} {result[top] / result[bottom]:10.2f}")


def host_libc():
    """The version of this machine's libc6 package, which the figures
    marked as Debian 12's run on."""
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libc6"],
                             check=True, capture_output=True,
                             text=True).stdout
    if not version.startswith("2.36-"):
        sys.exit(f"run-bench: this machine's libc6 is {version}, not "
                 "Debian 12's 2.36, the series' base")
    return version


def debian13_loader():
    """Debian 13's libc6 (glibc 2.41), binaries only, downloaded with apt
    into build/bench/trixie: the version of the package, and the command
    prefix that runs a program on it with its own loader."""
    arch = subprocess.run(["dpkg", "--print-architecture"], check=True,
                          capture_output=True, text=True).stdout.strip()
    top = os.path.abspath("build/bench/trixie")
    root = os.path.join(top, "root")
    if not os.path.isdir(root):
        os.makedirs(top, exist_ok=True)
        subprocess.run([os.path.abspath("scripts/lib/debian-apt.sh"), "trixie", arch,
                        "apt-get", "download", "libc6"], cwd=top, check=True,
                       stdout=subprocess.DEVNULL)
    deb = [f for f in os.listdir(top) if f.endswith(".deb")][0]
    if not os.path.isdir(root):
        subprocess.run(["dpkg-deb", "-x", os.path.join(top, deb), root],
                       check=True)
    version = subprocess.run(["dpkg-deb", "-f", os.path.join(top, deb),
                              "Version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    loaders = [os.path.join(d, f) for d, _, files in os.walk(root)
               for f in files if f.startswith("ld-linux")]
    libc = [d for d, _, files in os.walk(root) if "libc.so.6" in files]
    if not loaders or not libc:
        sys.exit("run-bench: no loader or libc.so.6 in Debian 13's libc6")
    return version, [loaders[0], "--library-path", libc[0]]


def spawn_table(rss_list, iterations):
    """Every way to create a child that runs the same static no-op, at
    each parent RSS, in one interleaved run; each figure also as a
    ratio to the floor's at the same RSS: the floor with CLONE_PIDFD
    for the methods that give a pidfd, the floor without it for those
    that give none."""
    spawn = build("spawn-latency")
    noop = "build/bench/noop"
    subprocess.run(["cc", "-static", "-O2", "-o", noop, "-x", "c", "-"],
                   input="int main (void) { return 0; }\n", text=True,
                   check=True)
    stock = host_libc()
    trixie_version, trixie = debian13_loader()
    # label, command prefix, method, the method of its floor
    methods = [
        ("floor: clone on a touched stack", [TESTRUN], "floor", "floor"),
        ("floor without CLONE_PIDFD", [TESTRUN], "floor-nopidfd",
         "floor-nopidfd"),
        ("floor on a fresh 36 KiB stack", [TESTRUN], "floor-mmap", "floor"),
        ("the same with a guard page", [TESTRUN], "floor-guard", "floor"),
        ("vfork + execve + pidfd_open", [TESTRUN], "vfork", "floor"),
        ("fork + execve + pidfd_open", [TESTRUN], "fork", "floor"),
        ("posix_spawn, the series", [TESTRUN], "posix_spawn",
         "floor-nopidfd"),
        ("pidfd_spawn, the series", [TESTRUN], "pidfd_spawn", "floor"),
        (f"posix_spawn, Debian {stock}", [], "posix_spawn", "floor-nopidfd"),
        (f"posix_spawn, Debian {trixie_version}", trixie, "posix_spawn",
         "floor-nopidfd"),
        (f"pidfd_spawn, Debian {trixie_version}", trixie, "pidfd_spawn",
         "floor"),
    ]
    variants = {}
    for rss in rss_list:
        for label, prefix, method, _ in methods:
            variants[(method, label, rss)] = prefix + [
                spawn, method, str(iterations), noop, str(rss)]
    runs = rounds(variants)
    print(f"process creation: {ROUNDS} interleaved rounds of {iterations} "
          "children each; us until the call returns / until the child is "
          "reaped (min over rounds, median of the rounds' medians), page "
          "faults per child before it runs the program; (x) = ratio to the "
          "floor at the same RSS, with CLONE_PIDFD for the methods that "
          "give a pidfd, without it for posix_spawn (* marks those)")
    header = ("method", "RSS", "min ret", "med ret", "min reaped",
              "med reaped", "faults")
    width = max(len(label) for label, _, _, _ in methods) + 2
    print(f"  %-{width}s %5s %17s %17s %17s %17s %6s" % header)
    for rss in rss_list:
        figures = {}
        for label, _, method, _ in methods:
            rows = runs[(method, label, rss)]
            figures[label] = [
                min(r[0] for r in rows), statistics.median(r[1] for r in rows),
                min(r[2] for r in rows), statistics.median(r[3] for r in rows),
                statistics.median(r[4] for r in rows)]
        floors = {method: figures[label] for label, _, method, _ in methods
                  if method in ("floor", "floor-nopidfd")}
        for label, _, method, floor_method in methods:
            fig, floor = figures[label], floors[floor_method]
            cells = [f"{v / 1000:8.1f} ({v / f:5.2f})"
                     for v, f in zip(fig[:4], floor[:4])]
            mark = "*" if floor_method == "floor-nopidfd" else " "
            print(f"  %-{width}s %5s %s %6.2f" % (
                label + mark, f"{rss}M", " ".join(cells), fig[4]))


spawn_table([0, 1024], 200)

getpid = build("pidfd-getpid")
result = interleave({
    "pidfd_getpid, fstatfs + PIDFD_GET_INFO": [TESTRUN, getpid, "ioctl",
                                               "2000", "9"],
    "pidfd_getpid, /proc/self/fdinfo": [TESTRUN, getpid, "fdinfo", "2000",
                                        "9"],
})
i, d = list(result)
report("pidfd_getpid on a running child", ("ns/call", 1), result,
       [("fdinfo/ioctl", d, i)])

kept = build("kept-stack-memory")
result = interleave({
    label: [TESTRUN, kept, "64", what]
    for label, what in (("address space, KiB", "size"),
                        ("resident, KiB", "rss"),
                        ("memory map entries", "maps"))})
print("the stack a thread keeps for its next spawn, per thread that has "
      f"spawned once, of 64 (median of {ROUNDS} interleaved rounds):")
for name, value in result.items():
    print(f"  {name:40} {value:10.2f}")

forks = build("fork-latency")
result = interleave({
    f"fork, Debian {host_libc()} (before)": [forks, "fork", "200"],
    "fork, patched (after)": [TESTRUN, forks, "fork", "200"],
    "fork + pidfd_open, patched": [TESTRUN, forks, "fork+pidfd_open", "200"],
    "pidfd_fork, patched": [TESTRUN, forks, "pidfd_fork", "200"],
    "pidfd_fork ASYNCSAFE, patched": [TESTRUN, forks, "pidfd_fork-asyncsafe",
                                      "200"],
})
fb, fa, fo, pf, pa = list(result)
report("fork-like creation, parent time in the call", ("us", 1000), result,
       [("fork after/before", fa, fb),
        ("pidfd_fork/(fork + pidfd_open)", pf, fo),
        ("pidfd_fork/fork", pf, fa),
        ("pidfd_fork ASYNCSAFE/pidfd_fork", pa, pf)])

write_results("".join(sys.stdout.kept))
