#!/bin/sh
# make apt-repo (tools/apt-repo), fast: a repository of a tiny package of
# our own (not git: building that takes minutes), signed with a throwaway
# or a given key, read by this machine's apt over HTTP from 127.0.0.1
# through a private configuration, installed into a throwaway root; a
# repository signed by another key and a tampered index are refused. The
# real thing, every line's git in a fresh root of its suite, is make
# apt-test (by hand: see docs/APT.md).
. "$(dirname "$0")/lib.sh"
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
	echo "1..0 # SKIP not a Debian machine"
	exit 0
fi
for c in dpkg-buildpackage apt-ftparchive gpg gpg-agent xz python3; do
	command -v $c >/dev/null 2>&1 && continue
	[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs dpkg-dev, apt-utils, gpg, gpg-agent, xz-utils and python3"; exit 0; }
	"$TOP/tools/deps" dpkg-dev apt-utils gpg gpg-agent xz-utils python3 >&2
	break
done
py=$(command -v python3)
arch=$(dpkg --print-architecture)
main_suite=$(sed -n 's/^DEB_SUITE=//p' "$TOP/lines/main/upstream.pin")
next_suite=$(sed -n 's/^DEB_SUITE=//p' "$TOP/lines/next/upstream.pin")
# What apt calls the suite (its Suite field): sid is unstable.
main_label=$main_suite
[ "$main_suite" != sid ] || main_label=unstable
export BAREGUARD_DIST_TOP="$TMP/dist" BAREGUARD_APT_REPO="$TMP/repo"
unset APT_SIGNING_KEY BAREGUARD_APT_LINES

# probe LINE VERSION: a source package bareguard-apt-probe VERSION and its
# binary, built by dpkg-buildpackage as make deb's are, into dist/LINE/.
probe () {
	d=$TMP/build/$1/bareguard-apt-probe
	rm -rf "$TMP/build/$1" "$TMP/dist/$1"
	mkdir -p "$d/debian/source" "$TMP/dist/$1"
	echo '3.0 (native)' >"$d/debian/source/format"
	cat >"$d/debian/control" <<-EOF
	Source: bareguard-apt-probe
	Maintainer: bareguard developers <bareguard@bareguard.invalid>
	Rules-Requires-Root: no
	Standards-Version: 4.6.2

	Package: bareguard-apt-probe
	Architecture: all
	Description: probe of make apt-repo's tests
	 Installs one file that says which version it is.
	EOF
	cat >"$d/debian/changelog" <<-EOF
	bareguard-apt-probe ($2) $main_suite; urgency=medium

	  * Probe.

	 -- bareguard developers <bareguard@bareguard.invalid>  Mon, 07 Dec 2026 12:00:00 +0000
	EOF
	printf '#!/usr/bin/make -f\nbuild build-arch build-indep clean:\n' >"$d/debian/rules"
	printf 'binary binary-arch binary-indep:\n' >>"$d/debian/rules"
	printf '\tmkdir -p debian/tmp/DEBIAN debian/tmp/usr/share/bareguard-apt-probe\n' >>"$d/debian/rules"
	printf '\techo %s >debian/tmp/usr/share/bareguard-apt-probe/version\n' "$2" >>"$d/debian/rules"
	printf '\tdpkg-gencontrol -pbareguard-apt-probe -Pdebian/tmp\n\tdpkg-deb -Zxz --build debian/tmp ..\n' >>"$d/debian/rules"
	chmod +x "$d/debian/rules"
	(cd "$d" && dpkg-buildpackage -uc -us -d) >"$TMP/build/$1.log" 2>&1 ||
		{ cat "$TMP/build/$1.log"; return 1; }
	mv "$TMP/build/$1"/*.* "$TMP/dist/$1/"
}

# The server: the repository, and copies of it to spoil.
www=$TMP/www
mkdir -p "$www"
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$py" -m http.server --bind 127.0.0.1 --directory "$www" "$port" >"$TMP/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; gpgconf --homedir "$TMP/gnupg" --kill all 2>/dev/null; rm -rf "$TMP"' EXIT

# apt VARIANT ARGS...: this machine's apt-get, with its own sources (the
# repository served as VARIANT/, as a deb822 .sources file with Signed-By
# the exported key), lists, cache and dpkg status: nothing of the
# machine's apt is read or written.
apt () {
	a=$TMP/apt
	mkdir -p "$a/parts" "$a/lists/partial" "$a/cache/archives/partial"
	: >>"$a/status"
	[ -n "${KEEP_SOURCES:-}" ] || cat >"$a/parts/bareguard.sources" <<-EOF
	Types: deb deb-src
	URIs: http://127.0.0.1:$port/$1
	Suites: $main_suite
	Components: main
	Signed-By: ${KEYRING:-$TMP/repo/bareguard-archive-keyring.gpg}
	EOF
	shift
	set -- -q -o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$a/parts" \
		-o Dir::Etc::trustedparts="$a/none" -o Dir::State::lists="$a/lists" \
		-o Dir::State::status="$a/status" -o Dir::Cache="$a/cache" \
		-o Dir::Cache::archives="$a/cache/archives" -o Debug::NoLocking=1 \
		-o APT::Architecture="$arch" "$@"
	[ "$(id -u)" -ne 0 ] || set -- -o APT::Sandbox::User=root "$@"
	apt-get "$@"
}
fresh_apt () { rm -rf "$TMP/apt"; }

check 'packages of two lines make one repository with a suite each' '
	probe main 1.0
	probe next 2.0
	BAREGUARD_APT_LINES="main next" "$TOP/tools/apt-repo" 2>"$TMP/err"
	cat "$TMP/err"
	for s in $main_suite $next_suite; do
		for f in Release InRelease Release.gpg main/binary-$arch/Packages \
			main/binary-$arch/Packages.xz main/source/Sources main/source/Sources.xz; do
			test -s "$TMP/repo/dists/$s/$f"
		done
		grep -qx "Origin: bareguard" "$TMP/repo/dists/$s/Release"
		grep -qx "Codename: $s" "$TMP/repo/dists/$s/Release"
		grep -q " main/binary-$arch/Packages.xz$" "$TMP/repo/dists/$s/Release"
	done
	# Each suite lists its own line only; the pool holds both.
	grep -qx "Version: 1.0" "$TMP/repo/dists/$main_suite/main/binary-$arch/Packages"
	! grep -q "Version: 2.0" "$TMP/repo/dists/$main_suite/main/binary-$arch/Packages"
	grep -qx "Version: 2.0" "$TMP/repo/dists/$next_suite/main/source/Sources"
	! grep -q "Version: 1.0" "$TMP/repo/dists/$next_suite/main/source/Sources"
	ls "$TMP/repo/pool/main/b/bareguard-apt-probe/" >"$TMP/pool"
	grep -qx "bareguard-apt-probe_1.0.dsc" "$TMP/pool"
	grep -qx "bareguard-apt-probe_2.0_all.deb" "$TMP/pool"
'

check 'experimental is opt-in, as at Debian: NotAutomatic only' '
	[ "$next_suite" = experimental ] || exit 0
	grep -qx "NotAutomatic: yes" "$TMP/repo/dists/experimental/Release"
	! grep -q "ButAutomaticUpgrades" "$TMP/repo/dists/experimental/Release"
	! grep -q "NotAutomatic" "$TMP/repo/dists/$main_suite/Release"
'
check 'sid is unstable too, as at Debian' '
	[ "$main_suite" = sid ] || exit 0
	grep -qx "Suite: unstable" "$TMP/repo/dists/sid/Release"
	grep -qx "Codename: sid" "$TMP/repo/dists/sid/Release"
	test "$(readlink "$TMP/repo/dists/unstable")" = sid
'

check 'without APT_SIGNING_KEY: a throwaway key, labelled so, that verifies the indexes' '
	grep -q "THROWAWAY TEST KEY" "$TMP/repo/README"
	grep -q "THROWAWAY TEST KEY" "$TMP/err"
	gpg --homedir "$TMP/nohome" --show-keys "$TMP/repo/bareguard-archive-keyring.gpg" 2>/dev/null >"$TMP/keys" ||
		{ mkdir -m 700 "$TMP/nohome"; gpg --homedir "$TMP/nohome" --show-keys "$TMP/repo/bareguard-archive-keyring.gpg" >"$TMP/keys"; }
	grep -q "THROWAWAY TEST KEY" "$TMP/keys"
	gpgv --keyring "$TMP/repo/bareguard-archive-keyring.gpg" "$TMP/repo/dists/$main_suite/InRelease"
	gpgv --keyring "$TMP/repo/bareguard-archive-keyring.gpg" \
		"$TMP/repo/dists/$main_suite/Release.gpg" "$TMP/repo/dists/$main_suite/Release"
'

check 'apt reads it over HTTP with Signed-By, downloads, installs into a root' '
	ln -s "$TMP/repo" "$www/good"
	apt good update
	apt good install -s bareguard-apt-probe >"$TMP/apt.out"
	grep "^Inst bareguard-apt-probe (1.0 bareguard:$main_label" "$TMP/apt.out"
	mkdir "$TMP/dl"
	(cd "$TMP/dl" && apt good download bareguard-apt-probe && apt good source --download-only bareguard-apt-probe)
	cmp "$TMP/dl/bareguard-apt-probe_1.0_all.deb" "$TMP/repo/pool/main/b/bareguard-apt-probe/bareguard-apt-probe_1.0_all.deb"
	test -f "$TMP/dl/bareguard-apt-probe_1.0.dsc"
	root=$TMP/root
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
	: >"$root/var/lib/dpkg/status"
	dpkg --root="$root" --force-not-root --log=/dev/null -i "$TMP/dl/bareguard-apt-probe_1.0_all.deb"
	test "$(cat "$root/usr/share/bareguard-apt-probe/version")" = 1.0
'

check 'the README'"'"'s three lines, as written, make a source apt takes' '
	grep "^    curl .*bareguard-archive-keyring.gpg" "$TOP/README.md" >"$TMP/lines"
	grep "^    printf .Types: deb" "$TOP/README.md" >>"$TMP/lines"
	grep -x "    apt-get update && apt-get install git" "$TOP/README.md" >>"$TMP/lines"
	test "$(wc -l <"$TMP/lines")" = 3
	# The key the first line fetches is the one the repository exports.
	key=$(sed -n "1s|.* <repo>/\([^ ]*\)\$|\1|p" "$TMP/lines")
	test -s "$TMP/repo/$key"
	# The second, run with the repository, the suite and paths of this test.
	kr=$(sed -n "1s|.* \(/etc/apt/keyrings/[^ ]*\) .*|\1|p" "$TMP/lines")
	test -n "$kr"
	fresh_apt
	mkdir -p "$TMP/apt/parts"
	sed -n 2p "$TMP/lines" | sed "s|<repo>|http://127.0.0.1:$port/good|; s|Suites: trixie|Suites: $main_suite|;
		s|$kr|$TMP/repo/$key|; s|/etc/apt/sources.list.d/|$TMP/apt/parts/|" >"$TMP/line2"
	grep -q "$TMP/apt/parts/" "$TMP/line2"
	sh "$TMP/line2"
	cp "$TMP/apt/parts/"*.sources "$TMP/readme.sources"
	grep -qx "Signed-By: $TMP/repo/$key" "$TMP/readme.sources"
	KEEP_SOURCES=1 apt good update
	apt good install -s bareguard-apt-probe >"$TMP/apt.out" 2>&1
	grep "^Inst bareguard-apt-probe (1.0 bareguard:$main_label" "$TMP/apt.out"
'

check 'a repository signed by another key is refused' '
	fresh_apt
	mkdir -p "$www/otherkey"
	cp -R "$TMP/repo/dists" "$TMP/repo/pool" "$www/otherkey/"
	mkdir -m 700 "$TMP/gnupg"
	GNUPGHOME=$TMP/gnupg gpg --batch --pinentry-mode loopback --passphrase "" \
		--quick-generate-key "not bareguard <attacker@invalid>" ed25519 sign 1d
	r=$www/otherkey/dists/$main_suite/Release
	GNUPGHOME=$TMP/gnupg gpg --batch --yes --clearsign -o "${r%/*}/InRelease" "$r"
	GNUPGHOME=$TMP/gnupg gpg --batch --yes --armor --detach-sign -o "$r.gpg" "$r"
	fails apt otherkey update >"$TMP/apt.out" 2>&1
	cat "$TMP/apt.out"
	grep -E "^(E|W): .*(signature|NO_PUBKEY|not signed|key)" "$TMP/apt.out"
	apt otherkey install -s bareguard-apt-probe >"$TMP/apt.out" 2>&1 || :
	! grep "^Inst bareguard-apt-probe" "$TMP/apt.out"
'

check 'a tampered Packages file is refused' '
	fresh_apt
	mkdir -p "$www/tampered"
	cp -R "$TMP/repo/dists" "$TMP/repo/pool" "$www/tampered/"
	p=$www/tampered/dists/$main_suite/main/binary-$arch/Packages
	# The same size, another hash; apt falls back from Packages.xz to it.
	sed -i "s/^SHA256: .*/SHA256: $(echo evil | sha256sum | cut -d" " -f1)/" "$p"
	rm "$p.xz"
	fails apt tampered update >"$TMP/apt.out" 2>&1
	cat "$TMP/apt.out"
	grep -E "^E: .*Hash Sum mismatch" "$TMP/apt.out"
	# A compressed index whose size changed is caught by its size.
	rm -rf "$TMP/apt/lists"
	xz -c "$p" >"$p.xz"
	echo >>"$p.xz"
	fails apt tampered update >"$TMP/apt.out" 2>&1
	grep -E "^E: .*(unexpected size|Hash Sum mismatch)" "$TMP/apt.out"
	apt tampered install -s bareguard-apt-probe >"$TMP/apt.out" 2>&1 || :
	! grep "^Inst bareguard-apt-probe" "$TMP/apt.out"
'

check 'APT_SIGNING_KEY signs with that key; one that is not there is a clear error' '
	fpr=$(GNUPGHOME=$TMP/gnupg gpg --with-colons --list-secret-keys | awk -F: "/^fpr:/ { print \$10; exit }")
	GNUPGHOME=$TMP/gnupg APT_SIGNING_KEY=$fpr BAREGUARD_APT_LINES=main "$TOP/tools/apt-repo" 2>"$TMP/err"
	! grep -q THROWAWAY "$TMP/err"
	test ! -e "$TMP/repo/README"
	GNUPGHOME=$TMP/gnupg gpg --show-keys --with-colons "$TMP/repo/bareguard-archive-keyring.gpg" | grep -q "^fpr:*$fpr:"
	gpgv --keyring "$TMP/repo/bareguard-archive-keyring.gpg" "$TMP/repo/dists/$main_suite/InRelease"
	test ! -e "$TMP/repo/dists/$next_suite"
	GNUPGHOME=$TMP/gnupg fails env APT_SIGNING_KEY=0000DEADBEEF "$TOP/tools/apt-repo" 2>"$TMP/err"
	grep "APT_SIGNING_KEY=0000DEADBEEF: no such secret key" "$TMP/err"
	# The failed run left the repository as it was.
	gpgv --keyring "$TMP/repo/bareguard-archive-keyring.gpg" "$TMP/repo/dists/$main_suite/InRelease"
'

check 'a file that is not what its .changes lists, or no source package, is refused' '
	echo spoiled >>"$TMP/dist/main/bareguard-apt-probe_1.0_all.deb"
	fails env BAREGUARD_APT_LINES=main "$TOP/tools/apt-repo" 2>"$TMP/err"
	grep "the files in dist/main/ are not those its .changes lists" "$TMP/err"
	probe main 1.0
	sed -i "/\.dsc$/d; /\.tar\.xz$/d" "$TMP/dist/main/"*.changes
	fails env BAREGUARD_APT_LINES=main "$TOP/tools/apt-repo" 2>"$TMP/err"
	grep "has no source package" "$TMP/err"
	rm -rf "$TMP/dist"
	fails "$TOP/tools/apt-repo" 2>"$TMP/err"
	grep "no line has packages" "$TMP/err"
'

done_testing
