#!/bin/sh
# What a newcomer meets: the README (short, its attack real, its targets
# and links there), the line "make" ends on, bareguard's manual pages
# through "git help", and the error about an ignored work tree. The git
# under test is the line's (bin/git, bin/<line>/git), as make builds it.
. "$(dirname "$0")/lib.sh"
R=$TOP/README.md
primary=$(sed -n 's/^PRIMARY=//p' "$TOP/tools/lib.sh")
if [ "$LINE" = "$primary" ]; then bin=$TOP/bin; else bin=$TOP/bin/$LINE; fi
# Git for the tests alone: no config of this machine or user counts.
export HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=A \
	GIT_AUTHOR_EMAIL=a@invalid GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@invalid
mkdir "$HOME"
printf '[init]\n\tdefaultBranch = main\n' >"$HOME/.gitconfig"

check 'the README has at most 200 lines' '
	test "$(wc -l <"$R")" -le 200
'

check 'every make target the README names exists' '
	grep -o "make [a-z][a-z-]*" "$R" | sed "s/^make //" | sort -u >"$TMP/named"
	test -s "$TMP/named"
	for t in $(cat "$TMP/named"); do
		grep -q "^$t:" "$TOP/Makefile" || { echo "no target $t"; exit 1; }
	done
'

check 'every file the README links to exists' '
	sed -n "s/.*](\\([^)#]*\\)).*/\\1/p" "$R" | sort -u >"$TMP/links"
	test -s "$TMP/links"
	for f in $(cat "$TMP/links"); do test -e "$TOP/$f" || { echo "no $f"; exit 1; }; done
'

# The README's attack, as written between its markers.
sed -n '/^<!-- readme:attack -->$/,/^<!-- \/readme:attack -->$/p' "$R" |
	sed '1,2d;$d' | sed '$d' >"$TMP/attack.sh"

# attack GIT DIR: run the README's attack with GIT first on PATH, in DIR.
attack () {
	mkdir -p "$TMP/path-$2" "$TMP/$2"
	ln -sf "$1" "$TMP/path-$2/git"
	(cd "$TMP/$2" && PATH="$TMP/path-$2:$PATH" sh -e "$TMP/attack.sh") >"$TMP/$2.out" 2>&1 || :
}

stock=$(command -v git 2>/dev/null || :)
for g in /usr/bin/git $stock; do
	case $("$g" version 2>/dev/null) in
	"git version "[0-9]*) case $("$g" version) in *bareguard*) ;; *) stock=$g; break ;; esac ;;
	esac
	stock=
done
if [ -n "$stock" ]; then
	check "the README's attack fires with stock Git ($("$stock" version))" '
		grep -q "git status" "$TMP/attack.sh"
		attack "$stock" stock
		grep "^PAYLOAD RAN" "$TMP/stock.out"
	'

	check "each line of the attack's [core] is needed, as the README says" '
		for key in repositoryformatversion worktree fsmonitor; do
			grep -q "^	$key = " "$TMP/attack.sh"
			sed "/^	$key = /d" "$TMP/attack.sh" >"$TMP/attack-$key.sh"
			mkdir "$TMP/no-$key"
			(cd "$TMP/no-$key" && PATH="$TMP/path-stock:$PATH" sh -e "$TMP/attack-$key.sh") \
				>"$TMP/no-$key.out" 2>&1 || :
			fails grep "PAYLOAD RAN" "$TMP/no-$key.out"
		done
	'
else
	skip "the README's attack fires with stock Git" "no stock git on this machine"
	skip "each line of the attack's [core] is needed" "no stock git on this machine"
fi

if [ -x "$bin/git" ]; then
	check "the README's attack does not fire with bareguard, which says why" '
		attack "$bin/git" ours
		cat "$TMP/ours.out"
		fails grep "PAYLOAD RAN" "$TMP/ours.out"
		# the clone names it, and status says what it ignores (the
		# warning of every command is for a terminal)
		grep "this checkout wrote a directory that Git takes for a bare repository" "$TMP/ours.out"
		grep "config of .*/victim/tool.git sets a work tree (core.worktree)" "$TMP/ours.out"
		grep "safe.embeddedRepo tool.git\$" "$TMP/ours.out"
	'

	check 'the missing work tree error names what is ignored (core.worktree)' '
		cd "$TMP/ours"
		fails "$bin/git" -C victim/tool.git/refs status 2>"$TMP/err"
		cat "$TMP/err"
		grep "must be run in a work tree" "$TMP/err"
		grep "config of .*victim/tool.git sets a work tree (core.worktree),\$" "$TMP/err"
		grep "^which is ignored in a bare repository inside the work tree\$" "$TMP/err"
		grep "^of another repository, unless safe.embeddedRepo trusts it.\$" "$TMP/err"
	'

	check 'trusted with the command it printed, the payload runs (it is trusted)' '
		cd "$TMP/ours/victim/tool.git"
		cmd=$(sed -n "s/^hint:[[:space:]]*\\(git -C .* safe\\.embeddedRepo .*\\)\$/\\1/p" \
			"$TMP/ours.out")
		test -n "$cmd"
		PATH="$TMP/path-ours:$PATH" eval "$cmd"
		"$bin/git" status >"$TMP/st" 2>&1 || :
		grep "^PAYLOAD RAN" "$TMP/st"
	'

	check "make ends on one line that names the version it built" '
		(cd "$TOP" && tools/build) >"$TMP/made" 2>&1
		version=$("$bin/git" version | sed "s/^git version //")
		case $version in *.bareguard.[0-9]*) ;; *) exit 1 ;; esac
		test "$(tail -n 1 "$TMP/made")" = "built bareguard $version: ./${bin#"$TOP"/}/git"
		fails grep "Leaving directory" "$TMP/made"
	'

	if command -v man >/dev/null 2>&1; then
		check 'git help shows bareguard'"'"'s own manual pages' '
			MANPAGER=cat "$bin/git" help config >"$TMP/config.man" 2>&1
			grep "safe.embeddedRepo" "$TMP/config.man"
			MANPAGER=cat "$bin/git" fsck --help >"$TMP/fsck.man" 2>&1
			grep "embeddedBareRepo" "$TMP/fsck.man"
		'
	else
		skip "git help shows bareguard's own manual pages" "no man on this machine"
	fi
else
	skip "the README's attack, the error, make's last line, git help" \
		"no git built at $bin/git (make$([ "$LINE" = "$primary" ] || echo " LINE=$LINE"))"
fi

done_testing
