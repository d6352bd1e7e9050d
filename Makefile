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
#   make fuzz       build and run the fsck tree fuzzer (FUZZ_SECONDS=600)
#   make install    install like upstream does (prefix=DIR)
#   make export     write the commits of work/git back into patches/
#   make pq-status  fail if work/git holds work not exported to patches/
#   make clean      delete work/git and bin/ (refuses to lose unexported work)

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
demo: build
	@tools/demo
deb: fetch
	@tools/deb
deb-test:
	@tools/deb-test
fuzz: tree
	@tools/fuzz
export:
	@tools/pq export
pq-status:
	@tools/pq status
clean:
	@tools/pq clean && rm -rf bin dist work/deb
distclean: clean
	rm -rf .cache

.PHONY: all deps fetch tree build install test test-full demo deb deb-test fuzz \
	export pq-status clean distclean
