# Entry points.  Each target calls the scripts of scripts/ that do its
# work (scripts/README.md is their map); this file only orders them.
# make help lists the targets ('## ' lines) and the knobs ('#: ' lines).
# docs/testing.md says what each target needs and how long it takes.

#: T=TEST          one test: posix/tst-spawn, check-abi, app/NAME, man/, glibc
T ?=
#: ARCH=ARCH       a Debian architecture (amd64, arm64, armhf, ...: abis.table)
ARCH ?=
#: ABI=NAME        one libc of ARCH (amd64: x86_64, i686 or x32; abis.table)
ABI ?=
#: KERNEL=SUITE    the Debian suite whose kernel check-target, check-full ARCH boot
KERNEL ?=
#: EMU=user        check-target under qemu-user on this kernel instead
EMU ?=
#: FROM=K TO=K     check-each-patch: start at prefix K, stop after prefix K
FROM ?=
TO ?=
#: CELL_LIMIT=S    check-target-all: seconds a cell may take (3600)
CELL_LIMIT ?=
#: TARGET_WRAPPER_LIMIT=S  check-target, check-full ARCH: seconds a test may take (3600)
TARGET_WRAPPER_LIMIT ?=
#: TIMEOUTFACTOR=N check-target, check-full ARCH: glibc's time-outs times N (10)
TIMEOUTFACTOR ?=
#: DEBIAN_MIRROR=URL  the Debian archive for kernels, packages, roots
DEBIAN_MIRROR ?=
#: DEB_SERIES=no   deb: build the stock package instead (build/deb-stock)
DEB_SERIES ?=
#: DEB_CONTINUE=yes  deb: go on with an interrupted build
DEB_CONTINUE ?=
#: DEB_VERSION_SUFFIX=+pidfdN  deb: the version suffix (+pidfd1)
DEB_VERSION_SUFFIX ?=
#: DEB_BUILDER_UID=N  deb: the uid the packages are built as (2000)
DEB_BUILDER_UID ?=
#: DEB_BUILD_OPTIONS, DEB_BUILD_PROFILES  deb: as dpkg-buildpackage takes
DEB_BUILD_OPTIONS ?=
DEB_BUILD_PROFILES ?=
#: REPO_URI=URI    repo: where machines reach build/repo (file: and its path)
REPO_URI ?=
#: REPO_KEY_DIR=DIR  repo: its signing key (/var/lib/pidfd-series/repo-key)
REPO_KEY_DIR ?=
#: JOBS=N          parallel jobs of glibc's make (cores + 1)
JOBS ?=
#: RUNTIME=podman|docker  check-container: one runtime (default: both)
RUNTIME ?=
#: DURATION=N[s|m|h]  soak: how long it runs, in seconds, m or h (10m)
DURATION ?=
#: N=CASES SEED=N  fuzz: the cases to run, their seed (default: the clock)
N ?=
SEED ?=
#: GLIBC_SUBDIRS=DIRS  check, check-i686, check-target, check-full: glibc subdirs, or all
GLIBC_SUBDIRS ?=

# make passes the knobs set on its command line or in its environment
# on to the scripts' environment, where they read them.

ifneq ($(filter-out user,$(EMU)),)
$(error EMU=$(EMU): EMU is user, or not set)
endif
ifneq ($(filter-out podman docker,$(RUNTIME)),)
$(error RUNTIME=$(RUNTIME): RUNTIME is podman or docker, or not set)
endif

# The target that builds the native libc of ABI: x86_64's, or i686's.
native_libc = $(if $(filter i686,$(ABI)),libc-i686,libc)

.PHONY: all help deps source configure libc example check libc-i686 \
	check-i686 check-each-patch cross cross-all check-wrapper \
	check-full check-target check-target-all check-container bench soak \
	fuzz deb \
	deb-test repo pq-import pq-export clean

## all: build the patched libc and run the examples on it (make)
all: example

## help: list the targets and the knobs
help:
	@scripts/help.sh Makefile

## deps: install the Debian packages the build needs (apt-get)
deps:
	@scripts/build/install-deps.sh

## source: build/src, the pinned glibc source with the series applied
source: deps
	@scripts/build/check-base.sh
	@scripts/build/apply-series.sh

## configure: configure the libc in build/obj
configure: source
	@scripts/build/configure-glibc.sh

## libc: build the libc in build/obj, its headers in build/sysroot
libc: configure
	@scripts/build/build-glibc.sh

## example: build examples/ against the libc and run them on it
example: libc
	@scripts/build/run-example.sh

## check: build if needed, then run the tests (T=... for one)
check: libc
	@scripts/test/run-checks.sh $(T)

## libc-i686: build the i686 libc (gcc -m32) in build/obj-i686
libc-i686: source
	@ABI=i686 scripts/build/configure-glibc.sh
	@ABI=i686 scripts/build/build-glibc.sh

## check-i686: the tests of make check on the i686 libc (T=... for one)
check-i686: libc-i686
	@ABI=i686 scripts/test/run-checks.sh $(T)

## check-full: glibc's whole test suite, Debian's xfails (ABI=i686, ARCH; results/)
check-full: $(if $(or $(ARCH),$(filter-out x86_64 i686,$(ABI))),source,$(native_libc))
	@scripts/test/check-full.sh $(ARCH)

## check-each-patch: build and test every prefix of the series (FROM, TO)
check-each-patch: libc
	@scripts/test/check-each-patch.sh

## cross: cross-build the libc of ARCH (ABI=...), check-abi, tests built
cross: source
	@scripts/target/cross-build.sh "$(ARCH)"

## cross-all: cross for every release ABI, with check-wrapper (results/)
cross-all: source
	@scripts/target/cross-all.sh

## check-wrapper: the clone3 paths of ARCH's libcs on its kernel (qemu)
check-wrapper: source
	@scripts/target/check-wrapper.sh "$(ARCH)"

## check-target: the tests of make check on ARCH's kernel (KERNEL, EMU)
check-target: source
	@$(if $(EMU),scripts/target/check-qemu-user.sh "$(ARCH)" $(T),scripts/target/check-target.sh "$(ARCH)" "$(KERNEL)" $(T))

## check-target-all: check-target for every ABI and kernel (results/)
check-target-all: source
	@scripts/target/check-target-all.sh

## check-container: make check's tests in podman and docker (RUNTIME, T)
check-container: libc
	@scripts/container/check-container.sh "$(RUNTIME)" $(T)

## bench: benchmark ratios, measured in one interleaved run (results/)
bench: libc
	@scripts/bench/run-bench.py

## soak: create children every way for DURATION, fail on growth (results/)
soak: $(native_libc)
	@scripts/soak/run-soak.sh

## fuzz: differential fuzzing of posix_spawn, N cases (SEED; results/)
fuzz:
	@scripts/fuzz/run-fuzz.sh "$(N)" "$(SEED)"

## deb: Debian 12's glibc packages with the series, in build/deb/ (ARCH: build/deb-ARCH/)
deb:
	@scripts/deb/build.sh

## repo: a signed apt repository of every architecture make deb built (build/repo/)
repo:
	@scripts/deb/repo.sh

## deb-test: make repo's packages installed in a Debian 12 root (ARCH: of ARCH): programs built, run, packaged
deb-test:
	@scripts/deb/test.sh

## pq-import: build/src as a patch queue: one commit per patch
pq-import: source
	@scripts/pq/import.sh

## pq-export: the commits of build/src back to patches/
pq-export:
	@scripts/pq/export.sh

## clean: remove build/
clean:
	@scripts/build/remove-build.sh
