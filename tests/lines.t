#!/bin/sh
# Lines: every line is a pin plus a series, LINE picks one for every tool,
# lines generate into their own folders, and make mbox, make range-diff and
# make lines do what the README says. LINE (as for make) is the line whose
# series is checked here.
. "$(dirname "$0")/lib.sh"
primary=$(sed -n 's/^PRIMARY=//p' "$TOP/tools/lib.sh")
# paths LINE: the paths the tools use for LINE, one a line.
paths () {
	LINE=$1 T=$TOP sh -c '. "$T/tools/lib.sh"
		printf "%s\n" "$WORK" "$TREE" "$BIN" "$DIST" "$PATCHES" "$PIN"' "$TOP/tools/paths"
}

check 'every line has a complete pin and a series' '
	n=0
	for d in "$TOP"/lines/*/; do
		[ -f "$d/upstream.pin" ] || continue
		n=$((n + 1))
		(
			. "$d/upstream.pin"
			test -n "$UPSTREAM_PACKAGE" && test -n "$UPSTREAM_VERSION"
			echo "$UPSTREAM_SHA256" | grep -Eq "^[0-9a-f]{64}\$"
			echo "$UPSTREAM_COMMIT" | grep -Eq "^[0-9a-f]{40}\$"
			test "$UPSTREAM_SIZE" -gt 0
		)
		test -s "$d/patches/series"
	done
	test "$n" -ge 2
	test -f "$TOP/lines/$primary/upstream.pin"
'

check 'make lines lists every line with its pin, the primary marked' '
	"$TOP/tools/lines" >"$TMP/lines.out"
	for d in "$TOP"/lines/*/upstream.pin; do
		l=${d%/upstream.pin}; l=${l##*/}
		v=$(sed -n "s/^UPSTREAM_VERSION=//p" "$d")
		awk -v l="$l" -v v="$v" "(\$1 == l || \$1 == l \"*\") && \$2 == v { f = 1 } END { exit !f }" "$TMP/lines.out"
	done
	grep "^$primary\\* " "$TMP/lines.out"
	test "$(grep -c "work/.*/git: " "$TMP/lines.out")" = "$("$TOP/tools/lines" --names | wc -l)"
'

check 'an unknown or malformed LINE is one error line naming the lines' '
	for bad in nosuch ../main .hidden "a/b"; do
		fails env LINE="$bad" "$TOP/tools/pq" status 2>"$TMP/err"
		test "$(wc -l <"$TMP/err")" = 1
		grep "^error: no line \"$bad\"; the lines are: .*$primary" "$TMP/err"
	done
	test ! -e "$TOP/work/nosuch"
'

check 'no two lines share a tree, a bin, packages or a series' '
	for l in $("$TOP/tools/lines" --names); do paths "$l"; done >"$TMP/all"
	test "$(sort "$TMP/all" | uniq -d | wc -l)" = 0
	paths "$primary" | sed -n 3p | grep -x "$TOP/bin"
'

check 'make range-diff names a line to compare with the primary' '
	fails env LINE="$primary" "$TOP/tools/range-diff" 2>"$TMP/err"
	grep "compares a line with the primary line" "$TMP/err"
'

# The range-diff of a line against the primary needs both trees; under
# make test of a line other than the primary, both are there (CI makes the
# primary first). From the primary, compare with any other line made here.
other=
if [ "$LINE" != "$primary" ]; then
	other=$LINE
else
	for l in $("$TOP/tools/lines" --names); do
		[ "$l" != "$primary" ] && [ -d "$TOP/work/$l/git/.git" ] || continue
		other=$l
		break
	done
fi
if [ -n "$other" ] && [ -d "$TOP/work/$primary/git/.git" ] &&
   [ -d "$TOP/work/$other/git/.git" ]; then
	check "make range-diff pairs the primary's patches with $other's, in order" '
		LINE=$other RANGE_DIFF_OPTS="-s --no-color" "$TOP/tools/range-diff" >"$TMP/rd"
		cat "$TMP/rd"
		ours=$(grep -c . "$TOP/lines/$primary/patches/series")
		theirs=$(grep -c . "$TOP/lines/$other/patches/series")
		# "N: X = M: Y subject" or "!" for a pair; "<" and ">" for a
		# patch of one side only
		sed -n "s/^ *\([0-9][0-9]*\): *[0-9a-f]* [=!] *\([0-9][0-9]*\): *[0-9a-f]* .*/\1 \2/p" "$TMP/rd" >"$TMP/pairs"
		test "$(wc -l <"$TMP/pairs")" = "$ours"
		fails grep "^ *[0-9][0-9]*: *[0-9a-f]* <" "$TMP/rd"
		test "$(grep -c "^ *-: *-* > *[0-9]" "$TMP/rd")" = "$((theirs - ours))"
		# the primary in order, the line in the same order, each once
		test "$(cut -d" " -f1 "$TMP/pairs" | tr "\n" " ")" = "$(seq 1 "$ours" | tr "\n" " ")"
		cut -d" " -f2 "$TMP/pairs" >"$TMP/right"
		sort -n -u "$TMP/right" | cmp - "$TMP/right"
		# the version and the release notes differ from line to line
		grep "[0-9]: *[0-9a-f]* ! *[0-9]*: *[0-9a-f]* version: identify bareguard builds" "$TMP/rd"
	'
else
	skip "make range-diff pairs the primary's patches with another line's" \
		"needs the primary's tree and another line's (make LINE=...)"
fi

check 'make clean deletes what the line built, and only once its tree is gone' '
	export BAREGUARD_WORK="$TMP/cw" BAREGUARD_BIN="$TMP/cb/bin" BAREGUARD_DIST="$TMP/cd/dist"
	mkdir -p "$BAREGUARD_WORK/git/.git" "$BAREGUARD_WORK/bench" "$BAREGUARD_BIN" "$BAREGUARD_DIST"
	: >"$BAREGUARD_BIN/git" && : >"$BAREGUARD_DIST/x.deb" && : >"$BAREGUARD_BIN/other"
	fails "$TOP/tools/clean" 2>"$TMP/err"
	grep "still exists" "$TMP/err"
	test -f "$BAREGUARD_DIST/x.deb"
	rm -rf "$BAREGUARD_WORK/git"
	"$TOP/tools/clean" >"$TMP/said"
	test ! -e "$BAREGUARD_WORK" && test ! -e "$BAREGUARD_DIST"
	test ! -e "$BAREGUARD_BIN/git"
	if [ "$LINE" = "$primary" ]; then test -f "$BAREGUARD_BIN/other"; else test ! -e "$BAREGUARD_BIN"; fi
	# it says what it deleted, in one line, and when there was nothing
	test "$(wc -l <"$TMP/said")" = 1
	grep "^make clean.*: deleted $BAREGUARD_WORK/ $BAREGUARD_DIST/ $BAREGUARD_BIN/" "$TMP/said"
	"$TOP/tools/clean" >"$TMP/said"
	grep "^make clean.*: nothing to delete\$" "$TMP/said"
'

check "make mbox leaves out our own patches and names the upstream commit" '
	export BAREGUARD_WORK="$TMP/work" UPSTREAM_TARBALL="$TARBALL" BAREGUARD_CACHE="$TMP/cache"
	export BAREGUARD_DIST="$TMP/dist"
	"$TOP/tools/pq" sync 2>/dev/null
	"$TOP/tools/mbox" 2>"$TMP/err"
	mbox=$BAREGUARD_DIST/bareguard.mbox
	. "$LINE_PIN"
	ours=$(grep -l "^Subject: \\[PATCH\\] \\(version\\|RelNotes\\):" "$LINE_PATCHES"/*.patch | wc -l)
	test "$ours" -ge 1
	total=$(grep -c . "$LINE_PATCHES/series")
	n=$((total - ours))
	test "$(grep -c "^Subject: \\[PATCH [0-9]*[1-9][0-9]*/$n\\]" "$mbox")" = "$n"
	grep "^Subject: \\[PATCH 0*0/$n\\]" "$mbox"
	fails grep "^Subject: \\[PATCH [0-9/]*\\] \\(version\\|RelNotes\\):" "$mbox"
	grep -x "upstream commit $UPSTREAM_COMMIT." "$mbox"
	fails grep "\\*\\*\\* \\(SUBJECT\\|BLURB\\) HERE" "$mbox"
	git -C "$BAREGUARD_WORK/git" branch --list | fails grep bareguard-mbox
	test "$(git -C "$BAREGUARD_WORK/git" worktree list | wc -l)" = 1
'

done_testing
