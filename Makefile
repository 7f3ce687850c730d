# Entry points.  The work is done by the scripts in scripts/, one job
# each; this file only orders them.  See README.md.

# make check T=posix/tst-spawn runs one test (also check-abi, app/NAME).
T ?=
# make cross ARCH=arm64: the Debian architecture to cross-build.
ARCH ?=
# make check-target KERNEL=trixie: the Debian suite whose kernel to boot.
KERNEL ?=
# make check-target EMU=user: qemu-user on this kernel instead.
EMU ?=

.PHONY: all deps source configure libc example check pq-import pq-export \
	libc-i686 check-i686 check-each-patch bench cross cross-all \
	check-wrapper check-target check-target-all deb deb-test clean

all: example

deps:
	@scripts/install-deps

source: deps
	@scripts/check-base
	@scripts/apply-series

configure: source
	@scripts/configure-glibc

libc: configure
	@scripts/build-glibc

example: libc
	@scripts/run-example

check: libc
	@scripts/run-checks $(T)

# The i686 libc (gcc -m32, Debian's libc6-i386 flavour), in build/obj-i686.
libc-i686: source
	@ABI=i686 scripts/configure-glibc
	@ABI=i686 scripts/build-glibc

check-i686: libc-i686
	@ABI=i686 scripts/run-checks $(T)

# Cross builds, outside CI: the libc of another Debian ABI built with
# Debian 12's cross compiler, check-abi, its tests built but not run.
cross: source
	@scripts/cross-build $(ARCH)

cross-all: source
	@scripts/cross-all

# tests/clone3-paths on Debian's kernel for ARCH (ppc64, hppa, m68k,
# sparc64: one built from Debian's kernel source, scripts/build-kernel)
# under qemu-system, linked statically against the libc of make cross
# ARCH=...: the clone3 wrapper run for real.
check-wrapper: source
	@ABI=$(ARCH) scripts/install-deps
	@ABI=$(ARCH) scripts/configure-glibc
	@ABI=$(ARCH) scripts/build-glibc
	@scripts/check-wrapper $(ARCH)

# The tests of make check (T=... for one) on a real kernel: Debian's
# own for ARCH and KERNEL (bookworm by default; trixie for riscv64) under
# qemu-system, with the libc of ARCH built as make cross (or make) does;
# ARCH=amd64 runs the x86_64 and i686 libcs.  EMU=user: under qemu-user
# on this machine's kernel instead (a foreign ARCH).
check-target: source
	@[ -n "$(ARCH)" ] || { echo "make check-target: say ARCH=..." >&2; exit 2; }
	@abis=$$(scripts/target-libcs "$(ARCH)") || exit 2; \
	status=0; for abi in $$abis; do \
	  case "$(EMU)" in \
	    user) scripts/check-qemu-user $$abi $(T) || status=1 ;; \
	    "") scripts/check-target $$abi "$(KERNEL)" $(T) || status=1 ;; \
	    *) echo "make check-target: EMU is user or nothing" >&2; exit 2 ;; \
	  esac; \
	done; exit $$status

# The table of make check-target: each Debian ABI on its kernel, and the
# amd64 libcs on Debian 11, 12 and 13's kernels (hours: not in CI).
check-target-all: source
	@scripts/check-target-all

# Bisectability: build and test every prefix of the series (slow);
# FROM=K starts at prefix K, TO=K stops after prefix K.
check-each-patch: libc
	@FROM=$(FROM) TO=$(TO) scripts/check-each-patch

# Benchmarks, not tests: ratios measured in one interleaved run.
bench: libc
	@scripts/run-bench

# Debian 12's glibc packages with the series (build/deb/), and an
# application built and packaged against them in a Debian 12 chroot
# (hours with Debian's test run: not in CI).
deb:
	@scripts/deb-build

deb-test:
	@scripts/deb-test

pq-import: source
	@echo "build/src: branch 'series', one commit per patch on top of tag 'base'."
	@echo "Edit, commit, rebase there (git -C build/src rebase -i base), then make pq-export."

pq-export:
	@scripts/pq-export

clean:
	@scripts/remove-build
