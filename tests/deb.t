#!/bin/sh
# make deb in a Debian root (a pin's DEB_SUITE, tools/deb-root): the field,
# the errors a bad one gives, and the cached root, made once and reused.
# A stand-in for mmdebstrap keeps these tests off the network; the last one
# chroots into the real cached root, when there is one.
. "$(dirname "$0")/lib.sh"
dr=$TOP/tools/deb-root
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
	echo "1..0 # SKIP not a Debian machine: DEB_SUITE builds need apt and dpkg"
	exit 0
fi
export BAREGUARD_CACHE="$TMP/cache" BAREGUARD_PIN="$TMP/pin"
arch=$(dpkg --print-architecture)
# pin SUITE: the line's pin with DEB_SUITE=SUITE (none when empty).
pin () {
	sed '/^DEB_SUITE=/d' "$LINE_PIN" >"$TMP/pin"
	[ -z "$1" ] || echo "DEB_SUITE=$1" >>"$TMP/pin"
}

# The stand-in: logs the suite it is asked for, fails for $STUB_FAIL, and
# otherwise writes a tiny root.
mkdir -p "$TMP/stub" "$TMP/fake/usr/bin" "$TMP/fake/etc"
: >"$TMP/fake/usr/bin/apt-get"
chmod +x "$TMP/fake/usr/bin/apt-get"
cat >"$TMP/stub/mmdebstrap" <<'EOF'
#!/bin/sh
suite= out=
for a; do
	case $a in
	-*) ;;
	*) if [ -z "$suite" ]; then suite=$a; elif [ -z "$out" ]; then out=$a; fi ;;
	esac
done
echo "$suite" >>"$STUB_LOG"
if [ "$suite" = "${STUB_FAIL:-}" ]; then
	echo "E: no such suite: $suite" >&2
	exit 1
fi
# A frozen snapshot: the index of each suite in STUB_EXPIRED has expired,
# unless its source line says check-valid-until=no.
rc=0
for a; do
	case $a in "deb "*) ;; *) continue ;; esac
	case $a in *check-valid-until=no*) continue ;; esac
	# shellcheck disable=SC2046
	set -- $(echo "$a" | sed 's/.*\] //')
	case " ${STUB_EXPIRED:-} " in *" $2 "*)
		echo "E: Release file for ${1%/}/dists/$2/InRelease is expired (invalid since 31d 6h 7min 48s). Updates for this repository will not be applied." >&2
		rc=1 ;;
	esac
done
[ $rc -eq 0 ] || exit 1
tar -C "$STUB_ROOT" -cf "$out" .
EOF
chmod +x "$TMP/stub/mmdebstrap"
export PATH="$TMP/stub:$PATH" STUB_LOG="$TMP/stub.log" STUB_ROOT="$TMP/fake"

check 'a DEB_REVISION that is no number from 1 is refused before any download' '
	for r in 0 01 x 1.1; do
		pin ""
		echo "DEB_REVISION=$r" >>"$TMP/pin"
		fails "$TOP/tools/deb" 2>"$TMP/err"
		grep "DEB_REVISION=$r in .* is not a number from 1" "$TMP/err"
		test ! -e "$BAREGUARD_CACHE" || ! ls "$BAREGUARD_CACHE" | grep -q dsc
	done
'

check 'every DEB_SUITE of a line is a suite name' '
	for p in "$TOP"/lines/*/upstream.pin; do
		s=$(sed -n "s/^DEB_SUITE=//p" "$p")
		[ -z "$s" ] || echo "$s" | grep -Eqx "[a-z][a-z0-9-]*"
	done
'

check 'a line without DEB_SUITE builds on this machine: deb-root says so' '
	pin ""
	fails "$dr" 2>"$TMP/err"
	grep "names no DEB_SUITE" "$TMP/err"
	test ! -e "$STUB_LOG"
'

check 'a malformed or unknown DEB_SUITE is one clear error, before any download' '
	for s in ../x trixie/x Trixie -x; do
		pin "$s"
		fails "$dr" 2>"$TMP/err"
		grep "DEB_SUITE=$s in .* is not a Debian suite name" "$TMP/err"
	done
	# A typo: distro-info-data does not know it, or the mirror has no such suite.
	[ -f /usr/share/distro-info/debian.csv ] || [ "$(id -u)" -eq 0 ] || exit 0
	pin trixy
	STUB_FAIL=trixy; export STUB_FAIL
	fails "$dr" 2>"$TMP/err"
	grep "DEB_SUITE=trixy in .* a Debian suite" "$TMP/err"
	test ! -e "$BAREGUARD_CACHE/roots/trixy-$arch.tar"
'

check 'deb-source: our series after Debian'"'"'s, a changelog entry, us as Maintainer' '
	d=$TMP/src/debian
	mkdir -p "$d/patches"
	printf "Source: git\nSection: vcs\nMaintainer: Debian Person <dp@debian.invalid>\nUploaders: Other Person <op@debian.invalid>,\n Third Person <tp@debian.invalid>\nBuild-Depends: make\n\nPackage: git\nMaintainer: not this one\n" >"$d/control"
	printf "git (1:2.0-1) unstable; urgency=medium\n\n  * Debian.\n\n -- Debian Person <dp@debian.invalid>  Mon, 01 Jan 2024 00:00:00 +0000\n" >"$d/changelog"
	echo debian-fix.diff >"$d/patches/series"
	BAREGUARD_PIN=$LINE_PIN "$TOP/tools/deb-source" "$TMP/src" "1:2.0-1+bareguard3"
	head -n 1 "$d/patches/series" | grep -qx debian-fix.diff
	test "$(grep -c "^bareguard/" "$d/patches/series")" = "$(grep -vc "^#" "$LINE_PATCHES/series")"
	for p in $(sed -n "s|^bareguard/||p" "$d/patches/series"); do
		grep -q "^Description: " "$d/patches/bareguard/$p"
		grep -q "^Author: " "$d/patches/bareguard/$p"
	done
	head -n 1 "$d/changelog" | grep -qx "git (1:2.0-1+bareguard3) unstable; urgency=medium"
	grep -q "^git (1:2.0-1) unstable" "$d/changelog"
	sed -n "1,/^\$/p" "$d/control" >"$TMP/stanza"
	grep -qx "Maintainer: bareguard developers <bareguard@bareguard.invalid>" "$TMP/stanza"
	grep -qx "XSBC-Original-Maintainer: Debian Person <dp@debian.invalid>" "$TMP/stanza"
	fails grep -q "^Uploaders:\|Person <op@\|Third Person" "$TMP/stanza"
	grep -qx "Build-Depends: make" "$TMP/stanza"
	grep -qx "Maintainer: not this one" "$d/control"
	test "$(grep -c "^Maintainer:" "$d/control")" = 2
'

if [ "$(id -u)" -ne 0 ]; then
	check 'not root: deb-root says that it needs root' '
		pin sid
		fails "$dr" 2>"$TMP/err"
		grep "needs root" "$TMP/err"
	'
	done_testing
	exit
fi

check 'when mmdebstrap fails, its log is shown and no root is cached' '
	pin bookworm
	STUB_FAIL=bookworm; export STUB_FAIL
	rm -f "$STUB_LOG"
	fails "$dr" 2>"$TMP/err"
	grep "could not make a bookworm root" "$TMP/err"
	grep "E: no such suite: bookworm" "$TMP/err"
	test ! -e "$BAREGUARD_CACHE/roots/bookworm-$arch.tar"
	test ! -e "$BAREGUARD_CACHE/roots/bookworm-$arch.tar.tmp"
	# Tried once: only an expired index is worth a second try.
	test "$(wc -l <"$STUB_LOG")" = 1
	fails grep check-valid-until "$TMP/err"
'

check 'experimental is built in a sid root with experimental added' '
	pin experimental
	rm -f "$STUB_LOG"
	out=$("$dr" 2>"$TMP/err")
	test "$out" = "$BAREGUARD_CACHE/roots/experimental-$arch.tar"
	test "$(cat "$STUB_LOG")" = sid
	grep "mmdebstrap from: deb .* sid main" "$TMP/err"
	grep "mmdebstrap from: deb .* experimental main" "$TMP/err"
	test ! -e "$BAREGUARD_CACHE/roots/sid-$arch.tar"
'

check 'an expired index (a snapshot mirror) is said, then used for that root only' '
	pin sid
	rm -f "$STUB_LOG"
	STUB_EXPIRED=sid "$dr" --refresh >/dev/null 2>"$TMP/err"
	test -f "$BAREGUARD_CACHE/roots/sid-$arch.tar"
	test "$(wc -l <"$STUB_LOG")" = 2
	grep "warning: the mirror.s sid index has expired" "$TMP/err"
	grep "dists/sid/InRelease is expired" "$TMP/err"
	grep "mmdebstrap from: deb \[signed-by=[^]]* check-valid-until=no\] .* sid main" "$TMP/err"
	# Not for a suite whose index is current.
	rm -f "$STUB_LOG"
	"$dr" --refresh >/dev/null 2>"$TMP/err"
	test "$(wc -l <"$STUB_LOG")" = 1
	fails grep check-valid-until "$TMP/err"
	# On the archive that expired only.
	pin experimental
	STUB_EXPIRED=experimental "$dr" --refresh >/dev/null 2>"$TMP/err"
	tail -n 1 "$TMP/err" | grep "Cached the experimental root"
	grep "check-valid-until=no\] [^ ]* experimental main" "$TMP/err"
	fails grep "check-valid-until=no\] [^ ]* sid main" "$TMP/err"
	# Not for a release, nor its security archive: that stays an error.
	for s in bookworm bookworm-security; do
		pin bookworm
		rm -f "$STUB_LOG" "$BAREGUARD_CACHE/roots/bookworm-$arch.tar"
		STUB_EXPIRED=$s; export STUB_EXPIRED
		fails "$dr" 2>"$TMP/err"
		grep "dists/$s/InRelease is expired" "$TMP/err"
		test "$(wc -l <"$STUB_LOG")" = 1
		fails grep check-valid-until "$TMP/err"
		test ! -e "$BAREGUARD_CACHE/roots/bookworm-$arch.tar"
	done
'

check "the root is made from this machine's mirrors, for the suite, once" '
	pin sid
	rm -rf "$STUB_LOG" "$BAREGUARD_CACHE/roots/sid-$arch.tar"
	out=$("$dr" 2>"$TMP/err")
	test "$out" = "$BAREGUARD_CACHE/roots/sid-$arch.tar"
	test -f "$out"
	test "$(cat "$STUB_LOG")" = sid
	grep "mmdebstrap from: deb .* sid main" "$TMP/err"
	fails grep -- "sid-updates\|sid-security" "$TMP/err"
	test "$("$dr" 2>&1)" = "$out"
	test "$(wc -l <"$STUB_LOG")" = 1
'

check 'unpack copies the cached root, without making it again; only into a new directory' '
	pin sid
	"$dr" unpack "$TMP/r1"
	test -x "$TMP/r1/usr/bin/apt-get"
	test "$(wc -l <"$STUB_LOG")" = 1
	fails "$dr" unpack "$TMP/r1" 2>"$TMP/err"
	grep "exists" "$TMP/err"
'

check '--refresh makes it anew' '
	pin sid
	"$dr" --refresh >/dev/null 2>&1
	test "$(wc -l <"$STUB_LOG")" = 2
'

# The real thing: a root that make deb has cached, if any.
real=
for p in "$TOP"/lines/*/upstream.pin; do
	s=$(sed -n "s/^DEB_SUITE=//p" "$p")
	if [ -n "$s" ] && [ -f "$TOP/.cache/roots/$s-$arch.tar" ]; then
		real=${p%/upstream.pin} real=${real##*/}
		break
	fi
done
if [ -z "$real" ]; then
	skip 'run: chrooted, as root or build, offline, clean environment, nothing left mounted' \
		'no cached root (make deb of a line with DEB_SUITE makes one)'
else
	export real
	check 'run: chrooted, as root or build, offline, clean environment, nothing left mounted' '
		export LINE=$real BAREGUARD_CACHE="$TOP/.cache" BAREGUARD_PIN="$TOP/lines/$real/upstream.pin"
		"$dr" unpack "$TMP/root"
		test "$("$dr" run "$TMP/root" id -un)" = root
		test "$("$dr" run --user "$TMP/root" id -un)" = build
		test "$("$dr" run "$TMP/root" printenv PATH)" = /usr/sbin:/usr/bin:/sbin:/bin
		"$dr" run "$TMP/root" test -f /proc/self/status
		"$dr" run --offline "$TMP/root" cat /proc/net/dev >"$TMP/net"
		test "$(sed -n "3,\$ s/:.*//p" "$TMP/net" | tr -d " ")" = lo
		fails grep " $TMP/root" /proc/self/mounts
		test -z "$(ls "$TMP/root/proc")"
	'
fi

done_testing
