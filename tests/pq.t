#!/bin/sh
# The patch queue: sync, export, pq-status, and refusing to lose work.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work" BAREGUARD_PATCHES="$TMP/patches"
export UPSTREAM_TARBALL="$TARBALL" BAREGUARD_CACHE="$TMP/cache"
pq="$TOP/tools/pq"
tree=$BAREGUARD_WORK/git
cp -R "$LINE_PATCHES" "$BAREGUARD_PATCHES"
g () { git -C "$tree" -c user.name=T -c user.email=t@invalid "$@"; }
npatches=$(grep -c . "$BAREGUARD_PATCHES/series" || true)

check 'pq-status says "not materialised" before sync, quietly succeeding' '
	test ! -e "$tree"
	"$pq" status >"$TMP/said"
	grep "git: not materialised (make.*makes it); nothing to export\$" "$TMP/said"
'

check 'sync materialises upstream plus one commit per patch' '
	"$pq" sync
	test "$(g rev-list --count upstream..HEAD)" = "$npatches"
	. "$LINE_PIN"
	# under the series: the tarball, then the patches of the pinned Debian
	# revision as one commit, when it has any (the trixie revision has none)
	base=upstream
	if g log -1 --format=%s upstream | grep -q "^debian: "; then
		test -n "${DEBIAN_VERSION:-}"
		g log -1 --format=%s upstream | grep -qF "$DEBIAN_VERSION"
		base=upstream^
	fi
	test "$(g log -1 --format=%s $base)" = "upstream git $UPSTREAM_VERSION ($UPSTREAM_ORIG)"
'

check 'a fresh tree has nothing unexported, and re-exporting it is a no-op' '
	"$pq" status >"$TMP/said"
	grep "git: clean, every commit is in .*patches/\$" "$TMP/said"
	"$pq" export
	diff -r "$LINE_PATCHES" "$BAREGUARD_PATCHES"
'

check 'a new commit in the tree is unexported work' '
	echo hack >>"$tree/README.md"
	g commit -q -a -m "README: a hack" -m "Signed-off-by: T <t@invalid>"
	fails "$pq" status 2>"$TMP/err"
	grep "differ from .*patches/" "$TMP/err"
	grep "README: a hack" "$TMP/err"
'

check 'clean refuses to delete unexported work' '
	fails "$pq" clean 2>"$TMP/err"
	grep "not deleting .*work/git" "$TMP/err"
	test -d "$tree/.git"
'

check 'export writes it into patches/ and series; then status is clean' '
	"$pq" export
	test "$(tail -n 1 "$BAREGUARD_PATCHES/series")" = "$(printf %04d $((npatches + 1)))-README-a-hack.patch"
	test -f "$BAREGUARD_PATCHES/$(tail -n 1 "$BAREGUARD_PATCHES/series")"
	"$pq" status
'

check 'exports are deterministic: a fresh tree exports the same bytes' '
	cp -R "$BAREGUARD_PATCHES" "$TMP/before"
	FORCE=1 "$pq" clean
	"$pq" sync
	"$pq" export
	diff -r "$TMP/before" "$BAREGUARD_PATCHES"
	! grep -h "^From [0-9a-f]\{40\}" "$BAREGUARD_PATCHES"/*.patch | grep -v "^From 0\{40\} "
'

check 'uncommitted changes are unexported work' '
	echo more >>"$tree/README.md"
	fails "$pq" status 2>"$TMP/err"
	grep "uncommitted changes" "$TMP/err"
	g checkout -q README.md
	"$pq" status
'

check 'sync refuses when both patches/ and the tree changed' '
	g commit -q --allow-empty -m "empty"
	cp -R "$BAREGUARD_PATCHES" "$TMP/saved"
	sed -i "s/^+hack\$/+changed hack/" "$BAREGUARD_PATCHES"/*-README-a-hack.patch
	fails "$pq" sync 2>"$TMP/err"
	grep "holds unexported work" "$TMP/err"
	test "$(g log -1 --format=%s)" = "empty"
'

check 'sync follows patches/ when the tree holds nothing of its own' '
	g reset -q --hard HEAD^
	"$pq" sync
	tail -n 1 "$tree/README.md" | grep "^changed hack\$"
	"$pq" status
'

check 'comments, DEB_SUITE, DEB_REVISION and FLAKY_TESTS in the pin leave the tree be; a new upstream does not' '
	{ cat "$LINE_PIN"; echo "# where make deb builds"; echo DEB_SUITE=sid; echo DEB_REVISION=7; echo FLAKY_TESTS=t5559; } >"$TMP/suite.pin"
	test "$(BAREGUARD_PIN="$TMP/suite.pin" "$pq" state)" = "in sync"
	sed "s/^UPSTREAM_COMMIT=.*/UPSTREAM_COMMIT=$(printf %040d 0)/" "$LINE_PIN" >"$TMP/new.pin"
	BAREGUARD_PIN="$TMP/new.pin" "$pq" state | grep "^behind "
'

check 'a patch that no longer applies: clear error, tree never trusted' '
	rm -rf "$BAREGUARD_WORK"
	sed -i "/^@@/,\$ s/^ / no such context /" \
		"$BAREGUARD_PATCHES"/*-README-a-hack.patch
	fails "$pq" sync 2>"$TMP/err"
	grep "does not apply to upstream" "$TMP/err"
	grep "make export" "$TMP/err"
	fails "$pq" sync 2>"$TMP/err"
	grep "is in progress" "$TMP/err"
	fails "$pq" status
	FORCE=1 "$pq" clean
	test ! -e "$tree"
'

# A pin that names a Debian revision: its own patches become the base.
mkdir -p "$TMP/deb/debian/patches"
cat >"$TMP/deb/debian/patches/0001-one.diff" <<'EOF'
--- a/debian-one
+++ b/debian-one
@@ -0,0 +1 @@
+one
EOF
cat >"$TMP/deb/debian/patches/0002-two.diff" <<'EOF'
--- debian-two
+++ debian-two
@@ -0,0 +1 @@
+two
EOF
printf '# comment\n0001-one.diff\n\n0002-two.diff -p0\n' >"$TMP/deb/debian/patches/series"
tar -C "$TMP/deb" -cJf "$TMP/deb.tar.xz" debian
sed '/^DEBIAN_/d' "$LINE_PIN" >"$TMP/pin"
cat >>"$TMP/pin" <<EOF
DEBIAN_VERSION=1:0-1
DEBIAN_TARBALL=deb.tar.xz
DEBIAN_SHA256=$(sha256sum <"$TMP/deb.tar.xz" | cut -d" " -f1)
DEBIAN_SIZE=$(wc -c <"$TMP/deb.tar.xz")
EOF

check "Debian's own patches of a pinned revision are the series' base" '
	FORCE=1 "$pq" clean
	rm -rf "$BAREGUARD_PATCHES" && mkdir "$BAREGUARD_PATCHES"
	: >"$BAREGUARD_PATCHES/series"
	BAREGUARD_PIN="$TMP/pin" DEBIAN_TARBALL_FILE="$TMP/deb.tar.xz" "$pq" sync
	test "$(g log -1 --format=%s upstream)" = "debian: apply the patches of git 1:0-1 (2)"
	test "$(cat "$tree/debian-one" "$tree/debian-two")" = "one
two"
	test "$(g rev-list --count upstream..HEAD)" = 0
'

check 'a Debian tarball that does not match the pin is refused' '
	FORCE=1 "$pq" clean
	cp "$TMP/deb.tar.xz" "$TMP/bad.tar.xz" && echo >>"$TMP/bad.tar.xz"
	fails env BAREGUARD_PIN="$TMP/pin" DEBIAN_TARBALL_FILE="$TMP/bad.tar.xz" \
		"$pq" sync 2>"$TMP/err"
	grep "is not the pinned Debian packaging deb.tar.xz" "$TMP/err"
	test ! -e "$tree"
'

done_testing
