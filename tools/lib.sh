# Sourced by the tools: project paths, the upstream pin and small helpers.
# shellcheck shell=sh
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${BAREGUARD_CACHE:-$TOP/.cache}
WORK=${BAREGUARD_WORK:-$TOP/work}
PATCHES=${BAREGUARD_PATCHES:-$TOP/patches}
PIN=${BAREGUARD_PIN:-$TOP/upstream.pin}
TREE=$WORK/git

die () {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

note () {
	printf '%s\n' "$*" >&2
}

[ -f "$PIN" ] || die "no pin file at $PIN"
. "$PIN"

# The version string the upstream tarball unpacks to: git-2.55.0/
UPSTREAM_DIR=$UPSTREAM_PACKAGE-$UPSTREAM_VERSION

# Run git for the tooling, with no user or system config that could change
# what it writes (format.*, diff.*), and a fixed identity for commits it makes.
pq_git () {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_NAME=bareguard GIT_AUTHOR_EMAIL=bareguard@invalid \
	GIT_COMMITTER_NAME=bareguard GIT_COMMITTER_EMAIL=bareguard@invalid \
		git "$@"
}

# verify FILE: succeed when FILE has the pinned size and SHA-256.
verify () {
	size=$(wc -c <"$1" | tr -d ' ')
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$size" = "$UPSTREAM_SIZE" ] && [ "$sum" = "$UPSTREAM_SHA256" ]
}

verify_or_die () {
	verify "$1" && return 0
	die "$1 is not the pinned upstream tarball:
  size    $size, pinned $UPSTREAM_SIZE
  sha256  $sum
  pinned  $UPSTREAM_SHA256
Refusing to use it. $2"
}

# snapshot DIR REV: make DIR a copy of REV of work/git (e.g. HEAD, or
# "upstream" for pristine) with work/git's config.mak, for a separate
# build; keep DIR as it is when it already holds that copy, built. After
# a successful build, snapshot_built DIR records that it is.
snapshot () {
	snapshot_key=$(git -C "$TREE" rev-parse --verify -q "$2^{commit}") ||
		die "no commit $2 in work/git"
	snapshot_key="$snapshot_key $(cksum <"$TREE/config.mak")"
	[ "$(cat "$1/.bareguard-key" 2>/dev/null)" != "$snapshot_key" ] || return 0
	rm -rf "$1"
	mkdir -p "$1"
	git -C "$TREE" archive -o "$1.tar" "$2"
	tar -x -C "$1" -f "$1.tar"
	rm -f "$1.tar"
	cp "$TREE/config.mak" "$1/"
}

snapshot_built () {
	echo "$snapshot_key" >"$1/.bareguard-key"
}

# logged LOG CMD...: run CMD, its output (stdout and stderr) shown and also
# kept in LOG for tools/results; return CMD's exit status.
logged () {
	logged_log=$1
	shift
	{
		logged_rc=0
		"$@" 2>&1 || logged_rc=$?
		echo "$logged_rc" >"$logged_log.rc"
	} | tee "$logged_log"
	return "$(cat "$logged_log.rc")"
}

# prove_summary LOG: the totals of the prove run logged in LOG.
prove_summary () {
	grep -E '^(Files=|Result: )' "$1" || echo "no summary from prove"
	skipped=$(grep -c ' skipped: ' "$1" || true)
	[ "$skipped" -eq 0 ] || echo "Scripts skipped whole: $skipped"
}
