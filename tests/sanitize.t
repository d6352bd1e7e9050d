#!/bin/sh
# make test-sanitize: the arguments that must be refused before any build.
# (The sanitized runs themselves are slow; see docs/MAINTAINING.md.)
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work"

check 'SANITIZERS is refused: it would override upstream'"'"'s own variable' '
	fails env SANITIZERS=leak "$TOP/tools/test-sanitize" 2>"$TMP/err"
	grep "SANITIZE_RUNS=\"leak\"" "$TMP/err"
	test ! -d "$BAREGUARD_WORK/san-leak"
'

check 'an unknown script in SANITIZE_SCRIPTS is refused by name' '
	mkdir -p "$BAREGUARD_WORK/git/t"
	git init -q "$BAREGUARD_WORK/git"
	git -C "$BAREGUARD_WORK/git" -c user.name=t -c user.email=t@invalid \
		commit -q --allow-empty -m base
	fails env -u SANITIZERS SANITIZE_SCRIPTS=t9998 "$TOP/tools/test-sanitize" 2>"$TMP/err"
	grep "no test script t9998" "$TMP/err"
	test ! -d "$BAREGUARD_WORK/san-address-undefined"
'

done_testing
