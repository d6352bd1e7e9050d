# Sourced by the tools: project paths, the line and its upstream pin, and
# small helpers.
# shellcheck shell=sh
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${BAREGUARD_CACHE:-$TOP/.cache}

# A line is one upstream base: lines/<name>/upstream.pin and its series in
# lines/<name>/patches/. LINE chooses one (make LINE=next); the primary
# line is the default. Everything a line generates lives in work/<name>/,
# bin/ and dist/<name>/, so that lines never overwrite each other.
PRIMARY=main
LINE=${LINE:-$PRIMARY}
lines () {
	for d in "$TOP"/lines/*/upstream.pin; do
		d=${d%/upstream.pin}
		echo "${d##*/}"
	done
}
case $LINE in */* | .*) line_pin= ;; *) line_pin=$TOP/lines/$LINE/upstream.pin ;; esac
if ! [ -f "$line_pin" ]; then
	printf 'error: no line "%s"; the lines are: %s\n' "$LINE" "$(lines | paste -sd ' ' -)" >&2
	exit 1
fi
# WITH_BREAKING_CHANGES=YesPlease builds the line as Git 3.0 will ship
# (upstream's Makefile knob), in a tree and a bin/ of its own, so that both
# builds of a line live side by side: work/<line>-breaking/,
# bin/<line>-breaking/git.
VARIANT=
[ -z "${WITH_BREAKING_CHANGES:-}" ] || VARIANT=-breaking
WORK=${BAREGUARD_WORK:-$TOP/work/$LINE$VARIANT}
PATCHES=${BAREGUARD_PATCHES:-$TOP/lines/$LINE/patches}
PIN=${BAREGUARD_PIN:-$TOP/lines/$LINE/upstream.pin}
TREE=$WORK/git
# Where the line's git is run from (bin/git for the primary, bin/<line>/git
# for the others) and where its Debian packages go.
# LINE_ARG is what a make command needs to name this line, for messages.
if [ -n "$VARIANT" ]; then
	BIN=$TOP/bin/$LINE$VARIANT LINE_ARG=" LINE=$LINE WITH_BREAKING_CHANGES=YesPlease"
elif [ "$LINE" = "$PRIMARY" ]; then
	BIN=$TOP/bin LINE_ARG=
else
	BIN=$TOP/bin/$LINE LINE_ARG=" LINE=$LINE"
fi
BIN=${BAREGUARD_BIN:-$BIN}
DIST=${BAREGUARD_DIST:-$TOP/dist/$LINE}
# A path for messages: relative to the project when inside it.
rel () {
	case $1 in "$TOP"/*) echo "${1#"$TOP"/}" ;; *) echo "$1" ;; esac
}

die () {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

note () {
	printf '%s\n' "$*" >&2
}

[ -f "$PIN" ] || die "no pin file at $PIN"
. "$PIN"

# unpack_upstream TARBALL DIR: unpack the upstream tarball into DIR (which
# must not exist). Release tarballs hold one top-level folder (git-2.55.0/,
# or a commit id for a snapshot of upstream's next); its content goes into
# DIR.
unpack_upstream () {
	rm -rf "$2.tmp"
	mkdir -p "$2.tmp"
	tar -C "$2.tmp" -xf "$1" || die "could not unpack $1"
	set -- "$1" "$2" "$2.tmp"/*
	if [ $# -eq 3 ] && [ -d "$3" ]; then
		mv "$3" "$2" && rmdir "$2.tmp"
	else
		mv "$2.tmp" "$2"
	fi
}

# Run git for the tooling, with no user or system config that could change
# what it writes (format.*, diff.*), and a fixed identity for commits it makes.
pq_git () {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_NAME=bareguard GIT_AUTHOR_EMAIL=bareguard@invalid \
	GIT_COMMITTER_NAME=bareguard GIT_COMMITTER_EMAIL=bareguard@invalid \
		git "$@"
}

# verify FILE [SIZE SHA256]: succeed when FILE has the pinned size and
# SHA-256 (by default, those of the upstream tarball).
verify () {
	size=$(wc -c <"$1" | tr -d ' ')
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$size" = "${2:-$UPSTREAM_SIZE}" ] && [ "$sum" = "${3:-$UPSTREAM_SHA256}" ]
}

verify_or_die () {
	verify "$1" && return 0
	die "$1 is not the pinned upstream tarball:
  size    $size, pinned $UPSTREAM_SIZE
  sha256  $sum
  pinned  $UPSTREAM_SHA256
Refusing to use it. $2"
}

# snapshot DIR REV: make DIR a copy of REV of work/<line>/git (e.g. HEAD, or
# "upstream" for pristine) with work/<line>/git's config.mak, for a separate
# build; keep DIR as it is when it already holds that copy, built. After
# a successful build, snapshot_built DIR records that it is.
snapshot () {
	snapshot_key=$(git -C "$TREE" rev-parse --verify -q "$2^{commit}") ||
		die "no commit $2 in $(rel "$TREE")"
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

# skip_reasons LOG...: the scripts that the prove runs logged in LOG...
# skipped whole, counted by the reason each gave.
skip_reasons () {
	cat "$@" |
	sed -n 's/^\(\[[^]]*\] \)\{0,1\}\(t[0-9]*\)-[^ ]* [. ]*skipped: \(.*\)$/\3	\2/p' |
	sort | awk -F'\t' '
		{ n[$1]++; s[$1] = s[$1] " " $2 }
		END { for (r in n) printf "%4d  %s:%s\n", n[r], r, s[r] }' |
	sort -rn | sed '1i\
Scripts skipped whole, by reason:'
}

# prove_summary LOG: the totals of the prove run logged in LOG.
prove_summary () {
	grep -E '^(Files=|Result: )' "$1" || echo "no summary from prove"
	skipped=$(grep -c ' skipped: ' "$1" || true)
	[ "$skipped" -eq 0 ] || echo "Scripts skipped whole: $skipped"
}
