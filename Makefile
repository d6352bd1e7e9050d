# bareguard: Git 2.55.0 plus our patch series. Every recipe calls a script
# in tools/; README.md explains the workflow.
#
#   make            install build deps, fetch + verify upstream, apply
#                   patches/ into work/git, build; ./bin/git runs it
#   make test       project checks, our test scripts, targeted upstream ones
#   make test-full  the whole upstream test suite
#   make demo       the attack and the defences, played in a temporary dir
#   make deb        Debian packages of bareguard into dist/ (slow)
#   make deb-test   check dist/ in a throwaway root, end to end, lintian
#   make test-sanitize  make test's upstream scripts and the demo under
#                   SANITIZE=address,undefined, then SANITIZE=leak (slow)
#   make bench      patched vs pristine: fsck, index-pack, discovery;
#                   table, work/bench/results.txt and ratios.png
#   make fuzz       build and run the fsck tree fuzzer (FUZZ_SECONDS=600)
#   make install    install like upstream does (prefix=DIR)
#   make export     write the commits of work/git back into patches/
#   make pq-status  fail if work/git holds work not exported to patches/
#   make clean      delete work/git, bin/ and the other builds in work/
#                   (refuses to lose unexported work)

all: build

deps:
	@tools/deps
fetch: deps
	@tools/fetch-upstream >/dev/null
tree: fetch
	@tools/pq sync
build: tree
	@tools/build
install: build
	@tools/build install
test: build
	@tools/test
test-full: build
	@tools/test-full
test-sanitize: tree
	@tools/test-sanitize
demo: build
	@tools/demo
deb: fetch
	@tools/deb
deb-test:
	@tools/deb-test
bench: build
	@tools/deps valgrind strace gnuplot-nox
	@tools/bench
fuzz: tree
	@tools/deps clang libclang-rt-dev
	@tools/fuzz
export:
	@tools/pq export
pq-status:
	@tools/pq status
clean:
	@tools/pq clean && rm -rf bin dist work/deb work/pristine* work/bench \
		work/san-* work/fuzz*
distclean: clean
	rm -rf .cache

.PHONY: all deps fetch tree build install test test-full test-sanitize demo deb deb-test bench fuzz \
	export pq-status clean distclean
