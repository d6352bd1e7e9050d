#!/bin/sh
# tools/results: the measuring tools record their figures, and
# "make results" (tools/results --write) rewrites their own section of
# RESULTS.md with them, and nothing else; RESULTS.md holds the sections
# they write.
. "$(dirname "$0")/lib.sh"
# R SECTION: record, then write at once (most checks are about the writing).
R () {
	"$TOP/tools/results" "$@" && "$TOP/tools/results" --write >/dev/null
}
R=R
# The sections of the primary line; the other lines' are named after them.
primary=$(sed -n 's/^PRIMARY=//p' "$TOP/tools/lib.sh")
export LINE="$primary"
export BAREGUARD_RESULTS="$TMP/RESULTS.md" BAREGUARD_RESULTS_DATE=2026-01-02
export BAREGUARD_RESULTS_PENDING="$TMP/pending"
cat >"$TMP/orig" <<'EOF'
# Results

## one
<!-- results:one -->
old one
<!-- /results:one -->

Text between the sections.

## two
<!-- results:two -->
old two
<!-- /results:two -->
EOF

check 'rewriting a section replaces it, with the date, and only it' '
	cp "$TMP/orig" "$BAREGUARD_RESULTS"
	printf "Files=2, Tests=5\nResult: PASS\n" | $R one
	cat >"$TMP/want" <<-\EOF
	# Results

	## one
	<!-- results:one -->
	Measured 2026-01-02:

	```
	Files=2, Tests=5
	Result: PASS
	```
	<!-- /results:one -->

	Text between the sections.

	## two
	<!-- results:two -->
	old two
	<!-- /results:two -->
	EOF
	diff "$TMP/want" "$BAREGUARD_RESULTS"
'

check 'a later run overwrites the section cleanly' '
	echo "Files=3, Tests=7" | BAREGUARD_RESULTS_DATE=2026-01-03 $R one
	echo "Files=2, Tests=5" | $R one
	echo "Files=2, Tests=5" | $R one
	cp "$TMP/orig" "$TMP/once"
	echo "Files=2, Tests=5" | BAREGUARD_RESULTS="$TMP/once" $R one
	diff "$TMP/once" "$BAREGUARD_RESULTS"
	echo "new two" | $R two
	test "$(grep -c "^Measured " "$BAREGUARD_RESULTS")" = 2
	grep -x "new two" "$BAREGUARD_RESULTS"
	fails grep -x "old two" "$BAREGUARD_RESULTS"
'

check 'an unknown section is refused by name, the file untouched' '
	cp "$TMP/orig" "$BAREGUARD_RESULTS"
	echo x | fails $R three 2>"$TMP/err"
	grep "has no section three" "$TMP/err"
	grep "Its sections: one two" "$TMP/err"
	diff "$TMP/orig" "$BAREGUARD_RESULTS"
	echo x | fails $R "one two" 2>"$TMP/err"
	grep "bad section name" "$TMP/err"
'

check 'a section without its end, or no text, is refused, the file untouched' '
	grep -v "^<!-- /results:one -->\$" "$TMP/orig" >"$BAREGUARD_RESULTS"
	cp "$BAREGUARD_RESULTS" "$TMP/broken"
	echo x | fails $R one 2>"$TMP/err"
	grep "has no section one" "$TMP/err"
	diff "$TMP/broken" "$BAREGUARD_RESULTS"
	rm -r "$BAREGUARD_RESULTS_PENDING"
	cp "$TMP/orig" "$BAREGUARD_RESULTS"
	fails $R two </dev/null 2>"$TMP/err"
	grep "no text on stdin" "$TMP/err"
	diff "$TMP/orig" "$BAREGUARD_RESULTS"
'

check 'on another line, a section is named after it and added when missing' '
	cp "$TMP/orig" "$BAREGUARD_RESULTS"
	line=$("$TOP/tools/lines" --names | grep -vx "$primary" | head -n 1)
	test -n "$line"
	echo "line text" | LINE=$line $R one
	grep -x "<!-- results:one-$line -->" "$BAREGUARD_RESULTS"
	grep -x "line text" "$BAREGUARD_RESULTS"
	grep -x "old one" "$BAREGUARD_RESULTS"
	echo "line again" | LINE=$line $R one
	test "$(grep -c "^<!-- results:one-$line -->" "$BAREGUARD_RESULTS")" = 1
	fails grep -x "line text" "$BAREGUARD_RESULTS"
	echo x | LINE=nosuchline fails $R one 2>"$TMP/err"
	grep "no line \"nosuchline\"; the lines are: .*$primary" "$TMP/err"
'

check 'measuring leaves RESULTS.md as it is; make results writes it, once' '
	cp "$TMP/orig" "$BAREGUARD_RESULTS"
	echo "Files=4, Tests=9" | "$TOP/tools/results" two 2>"$TMP/err"
	grep "make results" "$TMP/err"
	diff "$TMP/orig" "$BAREGUARD_RESULTS"
	"$TOP/tools/results" --write >"$TMP/wout"
	grep "wrote two\$" "$TMP/wout"
	grep -x "Files=4, Tests=9" "$BAREGUARD_RESULTS"
	cp "$BAREGUARD_RESULTS" "$TMP/after"
	"$TOP/tools/results" --write >"$TMP/wout"
	grep "nothing new to write" "$TMP/wout"
	diff "$TMP/after" "$BAREGUARD_RESULTS"
'

# The sections the tools write: tools/results NAME in tools/ and .ci/run.
sed -n 's|.*tools/results"* \([a-z0-9][a-z0-9-]*\).*|\1|p' "$TOP"/tools/* "$TOP/.ci/run" |
	sort -u >"$TMP/written"

check 'RESULTS.md has a section for each tool that writes one' '
	test -s "$TMP/written"
	sed -n "s/^<!-- results:\\(.*\\) -->\$/\\1/p" "$TOP/RESULTS.md" >"$TMP/all"
	# the sections of a line, and those of its Git 3.0 build
	grep -v -- "-[a-z0-9]*-breaking\$" "$TMP/all" >"$TMP/rest" || :
	mv "$TMP/rest" "$TMP/all"
	for l in $("$TOP/tools/lines" --names); do
		[ "$l" = "$primary" ] || grep -v -- "-$l\$" "$TMP/all" >"$TMP/rest" || :
		[ "$l" = "$primary" ] || mv "$TMP/rest" "$TMP/all"
	done
	sort "$TMP/all" >"$TMP/have"
	diff "$TMP/written" "$TMP/have"
'

check 'RESULTS.md is as tools/results writes it: rewriting changes nothing' '
	cp "$TOP/RESULTS.md" "$BAREGUARD_RESULTS"
	for s in $(sed -n "s/^<!-- results:\\(.*\\) -->\$/\\1/p" "$TOP/RESULTS.md"); do
		line=$primary name=$s breaking=
		for l in $("$TOP/tools/lines" --names); do
			case $s in
			*-"$l") line=$l name=${s%-"$l"} ;;
			*-"$l"-breaking) line=$l name=${s%-"$l"-breaking} breaking=YesPlease ;;
			esac
		done
		sed -n "/^<!-- results:$s -->\$/,/^<!-- \\/results:$s -->\$/p" \
			"$TOP/RESULTS.md" >"$TMP/section"
		date=$(sed -n "2s/^Measured \\([0-9-]*\\):\$/\\1/p" "$TMP/section")
		test -n "$date"
		sed "1,4d;\$d" "$TMP/section" | sed "\$d" >"$TMP/text"
		LINE=$line WITH_BREAKING_CHANGES=$breaking BAREGUARD_RESULTS_DATE=$date \
			$R "$name" <"$TMP/text"
	done
	diff "$TOP/RESULTS.md" "$BAREGUARD_RESULTS"
'

check 'README.md holds no dated figures (they belong in RESULTS.md)' '
	fails grep -nE "20[0-9][0-9]-[01][0-9]-[0-3][0-9]" "$TOP/README.md"
'

done_testing
