#!/bin/sh
# tools/lib.sh snapshot: the separate builds (work/pristine, work/san-*,
# work/fuzz) are copies of a commit of work/git, rebuilt only when the
# commit or config.mak changes.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work"
tree=$BAREGUARD_WORK/git
dir=$BAREGUARD_WORK/snap
git init -q "$tree"
echo one >"$tree/file"
echo "NO_RUST = YesPlease" >"$tree/config.mak"
git -C "$tree" add file
git -C "$tree" -c user.name=t -c user.email=t@invalid commit -q -m one
git -C "$tree" tag upstream
# shellcheck source=../tools/lib.sh
. "$TOP/tools/lib.sh"

check 'a snapshot holds the commit and config.mak, and is not yet built' '
	snapshot "$dir" HEAD
	test "$(cat "$dir/file")" = one
	cmp "$tree/config.mak" "$dir/config.mak"
	test ! -f "$dir/.bareguard-key"
	test ! -f "$dir.tar"
'

check 'a built snapshot of the same commit and config is kept' '
	snapshot "$dir" HEAD
	echo built >"$dir/build-output"
	snapshot_built "$dir"
	snapshot "$dir" HEAD
	test -f "$dir/build-output"
'

check 'a new commit replaces it' '
	echo two >"$tree/file"
	git -C "$tree" -c user.name=t -c user.email=t@invalid commit -q -a -m two
	snapshot "$dir" HEAD
	test "$(cat "$dir/file")" = two
	test ! -f "$dir/build-output"
'

check 'a changed config.mak replaces it' '
	snapshot "$dir" HEAD
	echo built >"$dir/build-output"
	snapshot_built "$dir"
	echo "NO_TCLTK = YesPlease" >>"$tree/config.mak"
	snapshot "$dir" HEAD
	test ! -f "$dir/build-output"
	cmp "$tree/config.mak" "$dir/config.mak"
'

check 'an unbuilt snapshot is made again (a failed build is not kept)' '
	echo half >"$dir/build-output"
	snapshot "$dir" HEAD
	test ! -f "$dir/build-output"
'

check 'any revision: the pristine base' '
	snapshot "$dir" upstream
	test "$(cat "$dir/file")" = one
'

check 'an unknown revision is refused, and the snapshot is left alone' '
	snapshot "$dir" upstream
	echo built >"$dir/build-output"
	snapshot_built "$dir"
	if (snapshot "$dir" no-such-rev) 2>"$TMP/err"; then exit 1; fi
	grep "no commit no-such-rev" "$TMP/err"
	test -f "$dir/build-output"
'

done_testing
