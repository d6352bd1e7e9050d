# TAP helpers for the project's own tests (run by prove, see tools/test).
# shellcheck shell=sh
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bareguard-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# What the tools measure while tested is not a figure to keep: they record
# into the test's own folder, never for RESULTS.md.
export BAREGUARD_RESULTS_PENDING="$TMP/results-pending"
# The project's checks test its tools on the lines' default builds, also
# when make test runs for a Git 3.0 build (WITH_BREAKING_CHANGES), which
# only its upstream scripts are for.
unset WITH_BREAKING_CHANGES
n=0
failed=0

# check DESC SCRIPT: run SCRIPT (with set -e) and report it as one TAP test;
# on failure its output is shown as diagnostics.
check () {
	n=$((n + 1))
	# Not inside "if": there, set -e would be ignored in the subshell
	# too, and only the last command would count.
	(set -e; eval "$2") >"$TMP/out" 2>&1
	if [ $? -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$TMP/out"
		failed=$((failed + 1))
	fi
}

# skip DESC REASON: report a test that cannot run on this machine as skipped.
skip () {
	n=$((n + 1))
	echo "ok $n - $1 # skip $2"
}

# fails CMD...: CMD must exit non-zero ("! CMD" does not trip set -e).
fails () {
	if "$@"; then
		echo "unexpected success: $*"
		return 1
	fi
}

done_testing () {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}

# The line under test (LINE, as for make; the primary by default), its pin
# and series, and its verified upstream tarball, which `make` puts into the
# cache.
LINE=${LINE:-$(sed -n 's/^PRIMARY=//p' "$TOP/tools/lib.sh")}
export LINE
LINE_PIN=$TOP/lines/$LINE/upstream.pin
LINE_PATCHES=$TOP/lines/$LINE/patches
TARBALL=$TOP/.cache/$(sed -n 's/^UPSTREAM_ORIG=//p' "$LINE_PIN")
# Its Debian packaging, when the pin names a revision: the cached copy that
# `make` verified, so that tests need no download.
deb_tar=$(sed -n 's/^DEBIAN_TARBALL=//p' "$LINE_PIN")
if [ -n "$deb_tar" ]; then
	DEBIAN_TARBALL_FILE=$TOP/.cache/$deb_tar
	export DEBIAN_TARBALL_FILE
fi
