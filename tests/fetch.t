#!/bin/sh
# Fetching upstream: UPSTREAM_TARBALL, verification, and the errors users see.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_CACHE="$TMP/cache"

check 'the pin names version, tarball, SHA-256 and size' '
	. "$LINE_PIN"
	case $UPSTREAM_ORIG in
	"${UPSTREAM_PACKAGE}_$UPSTREAM_VERSION".orig.tar.[gx]z) ;;
	*) exit 1 ;;
	esac
	echo "$UPSTREAM_SHA256" | grep -Eq "^[0-9a-f]{64}\$"
	test "$UPSTREAM_SIZE" -gt 0
'

check 'UPSTREAM_TARBALL with the right tarball is verified and cached' '
	out=$(UPSTREAM_TARBALL="$TARBALL" "$TOP/tools/fetch-upstream")
	test "$out" = "$BAREGUARD_CACHE/$(basename "$TARBALL")"
	cmp "$TARBALL" "$out"
'

check 'a corrupted UPSTREAM_TARBALL is refused, naming both checksums' '
	rm -rf "$BAREGUARD_CACHE"
	cp "$TARBALL" "$TMP/bad.tar.xz"
	printf x | dd of="$TMP/bad.tar.xz" bs=1 seek=4096 conv=notrunc 2>/dev/null
	fails env UPSTREAM_TARBALL="$TMP/bad.tar.xz" "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "is not the pinned upstream tarball" "$TMP/err"
	grep "pinned  [0-9a-f]\{64\}" "$TMP/err"
	test ! -e "$BAREGUARD_CACHE/$(basename "$TARBALL")"
'

check 'a wrong UPSTREAM_TARBALL (another file, or none) is refused' '
	head -c 1000 "$TARBALL" >"$TMP/short.tar.xz"
	fails env UPSTREAM_TARBALL="$TMP/short.tar.xz" "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "size    1000, pinned" "$TMP/err"
	fails env UPSTREAM_TARBALL="$TMP/missing" "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "UPSTREAM_TARBALL=$TMP/missing: no such file" "$TMP/err"
	mkdir "$TMP/dir"
	fails env UPSTREAM_TARBALL="$TMP/dir" "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "UPSTREAM_TARBALL=$TMP/dir is a directory; name the tarball in it" "$TMP/err"
	fails env UPSTREAM_TARBALL=/dev/null "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "UPSTREAM_TARBALL=/dev/null is not a regular file" "$TMP/err"
'

# A PATH like this machine's, but without apt.
mkdir "$TMP/noapt"
for d in /usr/local/bin /usr/bin /bin; do
	for f in "$d"/*; do
		case ${f##*/} in apt*) continue ;; esac
		[ -e "$TMP/noapt/${f##*/}" ] || ln -s "$f" "$TMP/noapt/${f##*/}"
	done
done

check 'a corrupt cache on a machine without apt: removed, and told what to do' '
	mkdir -p "$BAREGUARD_CACHE"
	head -c 100 "$TARBALL" >"$BAREGUARD_CACHE/$(basename "$TARBALL")"
	fails env PATH="$TMP/noapt" "$TOP/tools/fetch-upstream" 2>"$TMP/err"
	grep "is corrupt" "$TMP/err"
	grep "this machine has no apt-get" "$TMP/err"
	grep "make UPSTREAM_TARBALL=/path/to/git-" "$TMP/err"
	test ! -e "$BAREGUARD_CACHE/$(basename "$TARBALL")"
'

check 'the cached tarball is used without network' '
	UPSTREAM_TARBALL="$TARBALL" "$TOP/tools/fetch-upstream" >/dev/null
	PATH="$TMP/noapt" "$TOP/tools/fetch-upstream"
'

done_testing
