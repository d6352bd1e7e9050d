#!/bin/sh
# make each-patch (tools/each-patch): git rebase -x over a series, where
# each patch must build without a warning and pass the test scripts it
# touches. Played on a small stand-in for a generated tree, so that it
# runs in seconds: a Makefile that "builds" and a t/Makefile that runs
# the scripts it is given.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work" BAREGUARD_RESULTS_PENDING="$TMP/pending"
tree=$BAREGUARD_WORK/git
g () { git -C "$tree" -c user.name=T -c user.email=t@invalid "$@"; }

mkdir -p "$tree/t"
git init -q "$tree"
printf 'all:\n\t@echo built\nunit-tests:\n' >"$tree/Makefile"
printf 'prove:\n\tfor t in $(T); do sh $$t || exit 1; done\nunit-tests:\n' >"$tree/t/Makefile"
g add . && g commit -q -m upstream && g tag upstream
echo 'exit 0' >"$tree/t/t0001-good.sh"
g add . && g commit -q -m "add a passing test"
echo 'int x;' >"$tree/x.c"
g add . && g commit -q -m "a patch without tests"
g branch -q bareguard

check 'a series whose patches stand alone passes, patch by patch' '
	"$TOP/tools/each-patch" >"$TMP/o" 2>&1 || { cat "$TMP/o"; exit 1; }
	grep "^ok 1 add a passing test (1 scripts)\$" "$TMP/o"
	grep "^ok 2 a patch without tests (0 scripts)\$" "$TMP/o"
	grep "^every patch of line $LINE (2) builds" "$TMP/o"
	test "$(g rev-parse bareguard)" = "$(git -C "$BAREGUARD_WORK/each" rev-parse HEAD)"
	# its figures, recorded for RESULTS.md
	grep "^make each-patch on .*: git rebase -x over 2 patches" \
		"$BAREGUARD_RESULTS_PENDING"/each-patch*.txt
	grep "^ok 2 a patch without tests (0 scripts)\$" \
		"$BAREGUARD_RESULTS_PENDING"/each-patch*.txt
'

check 'a patch whose build warns stops it there, named' '
	g checkout -q bareguard
	printf "all:\n\t@echo \"x.c:1: warning: unused\"\nunit-tests:\n" >"$tree/Makefile"
	g commit -q -a -m "a patch that warns"
	echo "int y;" >"$tree/y.c"
	g add . && g commit -q -m "a later patch"
	fails "$TOP/tools/each-patch" >"$TMP/o" 2>&1
	grep "^not ok 3 a patch that warns: the build warns" "$TMP/o"
	fails grep "a later patch" "$TMP/o"
	grep "does not stand alone" "$TMP/o"
'

check 'a patch whose test script fails stops it there, named' '
	g reset -q --hard HEAD~2
	echo "exit 1" >"$tree/t/t0002-bad.sh"
	g add . && g commit -q -m "a patch whose test fails"
	head=$(g rev-parse HEAD)
	fails "$TOP/tools/each-patch" >"$TMP/o" 2>&1
	grep "^not ok 3 a patch whose test fails: test scripts failed: t0002-bad.sh" "$TMP/o"
	# the tree itself is as it was
	test "$(g rev-parse HEAD)" = "$head"
	test "$(g symbolic-ref HEAD)" = refs/heads/bareguard
	test -z "$(g status --porcelain)"
'

done_testing
