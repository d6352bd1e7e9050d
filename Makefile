# bareguard: Git plus our patch series, on one or more upstream bases
# ("lines": lines/<name>/upstream.pin + lines/<name>/patches/). Every
# recipe calls a script in tools/; README.md is for users,
# docs/MAINTAINING.md explains the workflow.
# LINE=<name> works on that line (make lines lists them); the default is
# the primary line, main (Git 2.55.0). WITH_BREAKING_CHANGES=YesPlease
# builds and tests it as Git 3.0 (work/<line>-breaking/).
#
#   make            install build deps, fetch + verify upstream, apply the
#                   line's patches into work/<line>/git, build; ./bin/git
#                   (bin/<line>/git) runs it
#   make test       project checks, our test scripts, targeted upstream ones
#   make test-full  the whole upstream test suite
#   make test-clients  editors, viewers and prompts (vim-fugitive, magit,
#                   tig, gitk, git-gui, bash/zsh/fish prompts, powerline)
#                   in an attacker's clone and a project's fixture
#   make demo       the attack and the defences, played in a temporary dir
#   make deb        Debian's source package with our series (.dsc) and the
#                   binaries built from it, into dist/<line>/ (slow); when
#                   the pin names DEB_SUITE, built as Debian's buildds do,
#                   in a fresh copy of a clean root of that suite
#   make deb-test   check dist/<line>/ in a throwaway root, end to end, lintian
#                   (with DEB_SUITE: installed by that suite's apt in a copy
#                   of its root, and checked there)
#   make apt-repo   every line's packages (make deb LINE=...) as one signed
#                   apt repository, dist/apt/ (APT_SIGNING_KEY=<key>, or a
#                   throwaway test key); docs/APT.md
#   make apt-test   install from it over HTTP in fresh roots of its suites,
#                   as users do; refuses another key and a tampered index
#   make deb-root   make anew the cached root of the line's DEB_SUITE
#                   (.cache/roots/; make deb makes it when missing)
#   make test-sanitize  make test's upstream scripts and the demo under
#                   SANITIZE=address,undefined, then SANITIZE=leak (slow)
#   make bench      patched vs pristine: fsck, index-pack, discovery;
#                   table, work/<line>/bench/results.txt and ratios.png
#   make results    write the figures the tools above measured since into
#                   RESULTS.md (measuring alone leaves the checkout clean)
#   make each-patch  git rebase -x over the series: each patch builds with
#                   DEVELOPER=1, no warning, and passes the scripts it touches
#   make fuzz       build and run the fsck tree fuzzer (FUZZ_SECONDS=600)
#   make install    install like upstream does (prefix=DIR)
#   make export     write the commits of work/<line>/git back into its patches/
#   make pq-status  fail if work/<line>/git holds work not exported
#   make lines      list the lines, their pins and generated trees
#   make range-diff git range-diff of the line's series against the primary's
#   make mbox       the series as a cover-lettered mbox for upstream's list,
#                   without our branding (dist/<line>/bareguard.mbox)
#   make clean      delete the line's builds in work/<line>/, bin/ and dist/
#                   (refuses to lose unexported work)

LINE ?=
export LINE

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
test-clients: build
	@tools/test-clients
test-sanitize: tree
	@tools/test-sanitize
demo: build
	@tools/demo
deb: fetch
	@tools/deb
deb-test:
	@tools/deb-test
deb-root:
	@tools/deb-root --refresh >/dev/null
apt-repo:
	@tools/apt-repo
apt-test:
	@tools/apt-test
bench: build
	@tools/deps valgrind strace gnuplot-nox
	@tools/bench
results:
	@tools/results --write
each-patch: tree
	@tools/each-patch
fuzz: tree
	@tools/deps clang libclang-rt-dev
	@tools/fuzz
export:
	@tools/pq export
pq-status:
	@tools/pq status
lines:
	@tools/lines
range-diff: fetch
	@tools/range-diff
mbox: tree
	@tools/mbox
clean:
	@tools/pq clean && tools/clean
distclean:
	@for l in $$(tools/lines --names); do $(MAKE) -s clean LINE=$$l || exit 1; done
	rm -rf .cache bin dist work

.PHONY: each-patch results all deps fetch tree build install test test-full test-clients test-sanitize demo deb deb-test deb-root apt-repo apt-test bench fuzz \
	export pq-status lines range-diff mbox clean distclean
