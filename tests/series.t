#!/bin/sh
# Series hygiene: patches/ applies cleanly, in order, one commit per patch,
# with upstream's whitespace rules, from and signed off by the project's
# identity, and exports back to the same bytes. BAREGUARD_PATCHES checks
# another copy of the series.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work" UPSTREAM_TARBALL="$TARBALL" BAREGUARD_CACHE="$TMP/cache"
P=${BAREGUARD_PATCHES:-$LINE_PATCHES}
export BAREGUARD_PATCHES="$P"
tree=$BAREGUARD_WORK/git

check 'series lists exactly the patch files, numbered in order' '
	ls "$P" | grep "\.patch\$" >"$TMP/files"
	grep -v "^\(#\|\$\)" "$P/series" >"$TMP/series"
	diff "$TMP/files" "$TMP/series"
	i=0
	while read -r p; do
		i=$((i + 1))
		case $p in "$(printf %04d $i)"-*.patch) ;; *) exit 1 ;; esac
	done <"$TMP/series"
'

# identity.awk: in a format-patch file, the From: header (folded lines
# unfolded) and every Signed-off-by: of the message (up to the "---" before
# the diffstat) must name ID; print what does not.
cat >"$TMP/identity.awk" <<'EOF'
!body && /^[ \t]/ { if (h == "from") from = from $0; next }
!body && /^$/ { body = 1; next }
!body {
	h = tolower($0); sub(/:.*/, "", h)
	if (h == "from") { from = $0; sub(/^[^:]*: */, "", from) }
	next
}
/^---$/ { exit }
/^Signed-off-by:/ {
	n++; s = $0; sub(/^Signed-off-by: */, "", s)
	if (s != id) { print FILENAME ": Signed-off-by: " s; bad = 1 }
}
END {
	if (from != id) { print FILENAME ": From: " from; bad = 1 }
	if (!n) { print FILENAME ": no Signed-off-by"; bad = 1 }
	exit bad
}
EOF

check 'every patch is from and signed off by bareguard developers <bareguard@invalid>' '
	: >"$TMP/bad"
	for p in $(cat "$TMP/series"); do
		awk -v id="bareguard developers <bareguard@invalid>" \
			-f "$TMP/identity.awk" "$P/$p" || echo "$p" >>"$TMP/bad"
	done
	test ! -s "$TMP/bad"
'

check 'every patch applies cleanly, in order, as one commit' '
	"$TOP/tools/pq" apply "$tree"
	test "$(git -C "$tree" rev-list --count upstream..HEAD)" = "$(wc -l <"$TMP/series")"
'

check 'git diff --check is clean for the whole series' '
	git -C "$tree" diff --check upstream HEAD
'

check 'every patch has a subject, an explanation and a sign-off' '
	for c in $(git -C "$tree" rev-list upstream..HEAD); do
		git -C "$tree" log -1 --format=%B "$c" >"$TMP/msg"
		test "$(sed -n 2p "$TMP/msg")" = ""
		test "$(grep -c . "$TMP/msg")" -ge 3
		grep "^Signed-off-by: " "$TMP/msg"
	done
'

check 're-exporting the series reproduces patches/ byte for byte' '
	mkdir "$TMP/re"
	BAREGUARD_PATCHES="$TMP/re" "$TOP/tools/pq" export
	diff -r "$P" "$TMP/re"
'

check 'the README points to the series and the tree, and lists no patch' '
	grep -F "\`lines/<line>/patches/series\`" "$TOP/README.md"
	grep -F "git -C work/main/git log" "$TOP/README.md"
	fails grep -nE "[0-9]{4}-[A-Za-z0-9_.-]*\.patch" "$TOP/README.md"
	fails grep -nE "patch(es)? [0-9]{4}" "$TOP/README.md"
'

done_testing
