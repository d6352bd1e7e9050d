#!/bin/sh
# The programs that run Git on their own, as Debian packages them: an
# editor (vim-fugitive, magit), tig, gitk and git-gui (on an X server of
# their own, Xvfb), and the prompts of bash (git-prompt.sh), zsh
# (vcs_info), fish (fish_git_prompt) and powerline (powerline-gitstatus).
# Each runs with the git under test first on PATH, in two places:
# - an attacker's clone, inside its committed tool.git: a real bare
#   repository (a commit, an index) whose config sets core.worktree and
#   two payloads, core.fsmonitor and a clean filter that the clone's
#   .gitattributes names (fish and powerline neutralise core.fsmonitor
#   themselves; the filter reaches them anyway). The payload only creates
#   a marker file; the clone is fresh for every client, since a stock Git
#   rewrites the attacker's index and the payload would not run twice.
# - a legitimate fixture: a bare repository that a project tracks (like
#   libgit2's tests/resources/*.git), which the client must open and show
#   (read-only), with nothing printed on the terminal.
# The clients are installed with apt-get when missing (tools/deps). The git
# is BAREGUARD_GIT, or the line's build (bin/git, bin/<line>/git); the
# prompt script BAREGUARD_PROMPT_SH, or the line's contrib/completion.
# BAREGUARD_GIT=/usr/bin/git (a stock Git) makes the payload checks fail,
# but tig's and magit's: with any Git, they run their work-tree commands
# from the top of the work tree that tool.git names, where discovery finds
# the clone's own .git (their checks fail if they ever run one with
# tool.git's config).
. "$(dirname "$0")/lib.sh"
primary=$(sed -n 's/^PRIMARY=//p' "$TOP/tools/lib.sh")
if [ "$LINE" = "$primary" ]; then
	GIT=${BAREGUARD_GIT:-$TOP/bin/git}
else
	GIT=${BAREGUARD_GIT:-$TOP/bin/$LINE/git}
fi
prompt_sh=${BAREGUARD_PROMPT_SH:-${BAREGUARD_WORK:-$TOP/work/$LINE}/git/contrib/completion/git-prompt.sh}
gitgui=/usr/lib/git-core/git-gui
stock=/usr/bin/git

if ! [ -x "$GIT" ] || ! [ -f "$prompt_sh" ]; then
	skip "editors, viewers and prompts in embedded bare repositories" \
		"no git at $GIT or no $prompt_sh (make)"
	done_testing
	exit
fi

# The clients, installed (not skipped) when missing: apt-get update first,
# then --no-install-recommends (tools/deps; as root). elpa-magit does not
# pull an Emacs, nor vim-fugitive a Vim, with that option: both are named.
need=
want () { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
want vim vim
want tmux tmux
want emacs emacs-nox
want tig tig
want gitk gitk
want Xvfb xvfb
want xdotool xdotool
want zsh zsh
want fish fish
want script bsdutils
[ -x "$gitgui" ] || need="$need git-gui"
for p in vim-fugitive elpa-magit python3-powerline-gitstatus; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' ||
		need="$need $p"
done
check "the clients are installed${need:+ (apt-get:$need)}" '
	[ -z "$need" ] || "$TOP/tools/deps" $need
'
[ "$failed" -eq 0 ] || { done_testing; exit; }

# Only this test's config, Git first on PATH, and shells that tmux and
# script start as sh.
mkdir "$TMP/bin" "$TMP/stockbin" "$TMP/home" "$TMP/tmux"
ln -s "$GIT" "$TMP/bin/git"
[ -x "$stock" ] && ln -s "$stock" "$TMP/stockbin/git"
export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
	PATH="$TMP/bin:$PATH" GIT_CONFIG_NOSYSTEM=1 SHELL=/bin/sh \
	TMUX_TMPDIR="$TMP/tmux" LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm \
	GIT_AUTHOR_NAME=Mallory GIT_AUTHOR_EMAIL=mallory@example.com \
	GIT_COMMITTER_NAME=Mallory GIT_COMMITTER_EMAIL=mallory@example.com
unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_PARAMETERS GIT_CEILING_DIRECTORIES \
	GIT_UNTRUSTED_GIT_DIR GIT_EXTERNAL_DIFF GIT_PAGER TMUX DISPLAY \
	EMACSLOADPATH 2>/dev/null || :
git config --global init.defaultBranch main

# Everything started here ends here, also when a check fails.
xvfb_pid=
cleanup () {
	tmux -L clients kill-server 2>/dev/null
	[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The repositories, made with the git under test: an attacker's, whose
# tool.git is made outside any work tree and then committed, and a
# project that tracks its fixture.git the same way.
(
	set -e
	cd "$TMP"
	mkdir tool
	echo "A helpful tool" >tool/README
	echo "README filter=tool" >tool/.gitattributes
	git init -q --bare tool/tool.git
	GIT_DIR=tool/tool.git GIT_WORK_TREE=tool git add README .gitattributes
	GIT_DIR=tool/tool.git GIT_WORK_TREE=tool git commit -q -m "Tool history subject"
	rm -rf tool/tool.git/hooks
	cat >tool/tool.git/config <<-EOF
	[core]
		repositoryformatversion = 0
		worktree = ..
		fsmonitor = "touch '$TMP/PWNED'; false"
	[filter "tool"]
		clean = "touch '$TMP/PWNED'; cat"
	EOF
	git init -q attacker
	cp -R tool/README tool/.gitattributes tool/tool.git attacker/
	git -C attacker add -f .
	git -C attacker commit -q -m "Add a tool"

	git init -q --bare fixture.git
	git init -q fixture-src
	echo data >fixture-src/file
	git -C fixture-src add file
	git -C fixture-src commit -q -m "Fixture subject line"
	git -C fixture-src push -q ../fixture.git main
	git init -q project
	echo "A project with a fixture" >project/README
	cp -R fixture.git project/
	git -C project add README
	git -C project add -f fixture.git
	git -C project commit -q -m "Add a fixture"
	git clone -q project checkout
) >"$TMP/setup.log" 2>&1 || { cat "$TMP/setup.log"; exit 1; }
FIX=$TMP/checkout/fixture.git
# victim: a fresh clone of the attacker's repository, no marker yet; prints
# the path of its tool.git
victim () {
	rm -f "$TMP/PWNED"
	d=$(mktemp -d "$TMP/victim.XXXXXX")
	git clone -q "$TMP/attacker" "$d" >/dev/null 2>&1
	echo "$d/tool.git"
}
not_fired () {
	if [ -e "$TMP/PWNED" ]; then
		echo "the payload ran"
		return 1
	fi
}

# A terminal: tmux with a socket and server of its own, 160x45.
tm () { tmux -L clients -f /dev/null "$@"; }
# term DIR CMD: run CMD in DIR on a fresh terminal (the pane stays when
# it exits)
term () {
	tm kill-server 2>/dev/null || :
	tm new-session -d -x 160 -y 45 -c "$1" "$2; echo '[exited]'; sleep 60"
}
# screen_shows ERE [SECONDS]: wait (10 s) until the screen shows ERE;
# the screen is left in $TMP/screen, and shown when it never does
screen_shows () {
	i=0
	while :; do
		tm capture-pane -p -t 0 >"$TMP/screen" 2>/dev/null || :
		grep -Eq "$1" "$TMP/screen" && return 0
		i=$((i + 1))
		if [ $i -ge $((${2:-10} * 10)) ]; then
			echo "the screen never showed /$1/:"
			sed 's/^/| /' "$TMP/screen"
			return 1
		fi
		sleep 0.1
	done
}
keys () { tm send-keys -t 0 "$@"; }

# on_tty OUT CMD...: run CMD with a terminal for stdin, stdout and stderr;
# what it writes there goes to OUT (bounded: 30 s)
on_tty () {
	out=$1
	shift
	timeout 30 script -q -e -c "$*" /dev/null </dev/null >"$out"
}
# tty_quiet FILE: the terminal got nothing
tty_quiet () {
	if [ -s "$1" ]; then
		echo "on the terminal:"
		sed 's/^/| /' "$1"
		return 1
	fi
}

# vim-fugitive, as Debian installs it (a package under vimfiles/pack).
printf 'set nocompatible noswapfile nomore shortmess+=I\n' >"$TMP/vimrc"
vim="timeout --foreground 60 vim -N -i NONE -u '$TMP/vimrc'"

check "vim-fugitive in the attacker's clone (:G status, :G): the payload does not run" '
	v=$(victim)
	term "$v" "$vim config"
	screen_shows "repositoryformatversion"
	keys ":G status" Enter
	screen_shows "Press ENTER|\[exited\]"
	cp "$TMP/screen" "$TMP/fugitive-status"
	keys Enter ":G" Enter
	screen_shows "^Head: |fugitive:|\[exited\]"
	tm kill-server
	not_fired
'
# What a user of fugitive sees. Fugitive finds the repository itself,
# reads core.worktree from its config file and passes --git-dir and -C
# to every git it runs: through pipes for its own views (nothing from Git
# shows), in a terminal for ":G <command>", where Git says that it ignores
# the config and how to trust it.
check "vim-fugitive in the attacker's clone: :G status says the repository is untrusted, and how to trust it" '
	sed "s/^/| /" "$TMP/fugitive-status"
	grep -q "safe\.embeddedRepo" "$TMP/fugitive-status"
'
# In the fixture: ":G status", the summary (":G"), then ":G log".
: >"$TMP/fugitive-fixture"
: >"$TMP/fugitive-fixture-status"
: >"$TMP/fugitive-summary"
term "$FIX" "$vim HEAD"
if screen_shows "ref: refs/heads/main" >>"$TMP/fugitive-fixture" 2>&1; then
	keys ":G status" Enter
	screen_shows "Press ENTER|\[exited\]" >>"$TMP/fugitive-fixture" 2>&1
	cp "$TMP/screen" "$TMP/fugitive-fixture-status"
	keys Enter ":G" Enter
	screen_shows "^Head: |fugitive:|\[exited\]" >>"$TMP/fugitive-fixture" 2>&1
	cp "$TMP/screen" "$TMP/fugitive-summary"
	keys ":G log --oneline" Enter
	screen_shows "Fixture subject line" >>"$TMP/fugitive-fixture" 2>&1 &&
		echo "log: shown" >>"$TMP/fugitive-fixture"
fi
tm kill-server 2>/dev/null
check "vim-fugitive opens the fixture, and :G log shows its history" '
	cat "$TMP/fugitive-fixture"
	grep -qx "log: shown" "$TMP/fugitive-fixture"
'
# Fugitive reads the fixture's config file itself (core.bare = true), so
# it passes --git-dir alone, from the fixture as the current directory.
# With stock Git, git status there says that a bare repository has no
# work tree; were the repository not bare, the fixture's own files would
# be the work tree (HEAD, config, objects/ untracked; its files deleted).
check "vim-fugitive in the fixture: :G status finds no work tree, as with stock Git" '
	sed "s/^/| /" "$TMP/fugitive-fixture-status"
	grep -q "must be run in a work tree" "$TMP/fugitive-fixture-status"
	fails grep -q "objects/" "$TMP/fugitive-fixture-status"
'
# Fugitive's summary takes core.bare from "git config --list"; without it,
# the summary of a bare repository says "Error: core.worktree is required
# when using an external Git dir".
check "vim-fugitive summarises the fixture (:G) as a bare repository, as with stock Git" '
	sed "s/^/| /" "$TMP/fugitive-summary"
	grep -q "^Bare: yes" "$TMP/fugitive-summary"
'

# magit, in Emacs's batch mode: the status buffer magit-status makes.
cat >"$TMP/magit.el" <<'EOF'
(require 'magit)
(condition-case err
    (progn
      (magit-status-setup-buffer default-directory)
      (with-current-buffer (magit-get-mode-buffer 'magit-status-mode)
        (princ (format "buffer: %s\n%s" (buffer-name)
                       (buffer-substring-no-properties (point-min) (point-max))))))
  (error (princ (format "error: %S\n" err))))
EOF
magit_in () {
	(cd "$1" && timeout 60 emacs --batch -l "$TMP/magit.el") 2>&1
}
check "magit in the attacker's clone: the payload does not run" '
	v=$(victim)
	magit_in "$v"
	not_fired
'
check "magit opens the fixture and shows its history" '
	magit_in "$FIX" >"$TMP/magit.out"
	cat "$TMP/magit.out"
	grep -q "^buffer: magit: fixture.git" "$TMP/magit.out"
	grep -q "Fixture subject line" "$TMP/magit.out"
'

# tig, on the terminal.
check "tig in the attacker's clone: the payload does not run" '
	v=$(victim)
	term "$v" "timeout --foreground 30 tig"
	screen_shows "Tool history subject|tig:|\[exited\]"
	sleep 1
	tm kill-server
	not_fired
'
check "tig opens the fixture and shows its history" '
	term "$FIX" "timeout --foreground 30 tig"
	screen_shows "Fixture subject line"
	tm kill-server
'

# gitk and git-gui on an X server of their own.
timeout 600 Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp \
	3>"$TMP/display" 2>"$TMP/xvfb.log" &
xvfb_pid=$!
i=0
while ! [ -s "$TMP/display" ] && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
DISPLAY=:$(cat "$TMP/display")
export DISPLAY

# gitk sources its config file (~/.config/git/gitk) after defining its
# procedures: there, a probe that reports its error dialogs (and goes on),
# its window title and the subjects in its commit list once EXPECT is
# among them (or after 10 s), then exits LINGER ms later.
mkdir -p "$HOME/.config/git"
cat >"$HOME/.config/git/gitk" <<'EOF'
proc probe_say {s} {
	set f [open $::env(GITK_PROBE) a]
	puts $f $s
	close $f
}
proc show_error {w top msg} { probe_say "error: $msg"; exit 3 }
proc error_popup {msg {owner .}} { probe_say "error: $msg" }
proc probe {n} {
	global canv
	set texts {}
	if {[info exists canv] && [winfo exists $canv]} {
		foreach i [$canv find all] {
			if {[$canv type $i] eq "text"} {
				lappend texts [$canv itemcget $i -text]
			}
		}
	}
	if {[lsearch -exact $texts $::env(GITK_EXPECT)] < 0 && $n > 0} {
		after 100 [list probe [expr {$n - 1}]]
		return
	}
	probe_say "title: [wm title .]"
	foreach t $texts { probe_say "text: $t" }
	after $::env(GITK_LINGER) { exit 0 }
}
after 100 {probe 100}
EOF
# gitk_in DIR EXPECT LINGER: what gitk showed in DIR
gitk_in () {
	rm -f "$TMP/gitk.probe"
	rc=0
	(cd "$1" && GITK_PROBE=$TMP/gitk.probe GITK_EXPECT=$2 GITK_LINGER=$3 \
		timeout 30 gitk </dev/null) >"$TMP/gitk.err" 2>&1 || rc=$?
	echo "exit: $rc"
	cat "$TMP/gitk.probe" "$TMP/gitk.err" 2>/dev/null
}
check "gitk in the attacker's clone: the payload does not run" '
	v=$(victim)
	gitk_in "$v" "Tool history subject" 1500
	not_fired
'
check "gitk opens the fixture and shows its history, without an error" '
	gitk_in "$FIX" "Fixture subject line" 0 >"$TMP/gitk.out"
	cat "$TMP/gitk.out"
	grep -qx "exit: 0" "$TMP/gitk.out"
	grep -qx "title: fixture.git: All files - gitk" "$TMP/gitk.out"
	grep -qx "text: Fixture subject line" "$TMP/gitk.out"
	fails grep -q "^error: " "$TMP/gitk.out"
'

# gitgui_in DIR BIN: how Debian's git-gui starts in DIR with BIN/git first
# on PATH: "exit RC: <first line of its stderr>", or the names of its
# windows once one shows (it runs 2 s more, then is stopped).
gitgui_in () {
	rm -f "$TMP/gg.rc" "$TMP/gg.pid"
	(
		cd "$1" || exit 1
		rc=0
		PATH="$2:$PATH" timeout 30 "$gitgui" </dev/null \
			>"$TMP/gg.out" 2>"$TMP/gg.err" &
		echo $! >"$TMP/gg.pid"
		wait $! || rc=$?
		echo "$rc" >"$TMP/gg.rc"
	) 2>/dev/null &
	i=0
	while [ $i -lt 150 ]; do
		if [ -s "$TMP/gg.rc" ]; then
			wait
			echo "exit $(cat "$TMP/gg.rc"): $(sed -n 1p "$TMP/gg.err")"
			return
		fi
		if xdotool search --onlyvisible --name . >/dev/null 2>&1; then
			sleep 2
			names=$(for w in $(xdotool search --onlyvisible --name . 2>/dev/null); do
				xdotool getwindowname "$w"; done | sort | paste -sd "|" -)
			kill "$(cat "$TMP/gg.pid")" 2>/dev/null || :
			wait
			echo "windows: $names"
			return
		fi
		i=$((i + 1))
		sleep 0.1
	done
	echo "git-gui neither exited nor showed a window in 15 s"
	wait
}
check "git-gui in the attacker's clone: the payload does not run" '
	v=$(victim)
	gitgui_in "$v" "$TMP/bin"
	not_fired
'
# Debian 12's git-gui cannot open a bare repository with any Git ("this
# operation must be run in a work tree"): it must do what it does with
# the stock Git.
check "git-gui in the fixture starts as it does with $stock" '
	[ -x "$stock" ]
	want=$(gitgui_in "$FIX" "$TMP/stockbin")
	got=$(gitgui_in "$FIX" "$TMP/bin")
	echo "with $stock: $want"
	echo "with $GIT: $got"
	[ "$got" = "$want" ]
'
kill "$xvfb_pid" 2>/dev/null
wait "$xvfb_pid" 2>/dev/null
xvfb_pid=

# Prompts, on a terminal, where Git would print its warnings.
cat >"$TMP/prompt.bash" <<'EOF'
. "$PROMPT_SH" || exit 1
cd "$1" || exit 1
GIT_PS1_SHOWDIRTYSTATE=1 GIT_PS1_SHOWSTASHSTATE=1 GIT_PS1_SHOWUNTRACKEDFILES=1
GIT_PS1_SHOWUPSTREAM=auto GIT_PS1_SHOWCONFLICTSTATE=yes
__git_ps1 "(%s)" >"$2"
EOF
export PROMPT_SH="$prompt_sh"
# bash_prompt DIR: run __git_ps1 in DIR; prompt in $TMP/ps1, terminal in
# $TMP/ps1.tty
bash_prompt () {
	on_tty "$TMP/ps1.tty" bash --norc --noprofile "$TMP/prompt.bash" "$1" "$TMP/ps1"
	echo "prompt: $(cat "$TMP/ps1")"
}
check "bash prompt (git-prompt.sh) in the attacker's clone: the payload does not run" '
	v=$(victim)
	bash_prompt "$v"
	not_fired
'
check "bash prompt in the fixture and the attacker's clone: |UNTRUSTED, and nothing on the terminal" '
	bash_prompt "$FIX"
	tty_quiet "$TMP/ps1.tty"
	grep -qx "(BARE:main|UNTRUSTED)" "$TMP/ps1"
	v=$(victim)
	bash_prompt "$v"
	tty_quiet "$TMP/ps1.tty"
	grep -qx "(BARE:main|UNTRUSTED)" "$TMP/ps1"
'

cat >"$TMP/prompt.zsh" <<'EOF'
autoload -Uz vcs_info
zstyle ':vcs_info:*' enable git
zstyle ':vcs_info:git:*' check-for-changes true
zstyle ':vcs_info:git:*' formats '[%s|%b]'
cd "$1" || exit 1
vcs_info
print -r -- "$vcs_info_msg_0_" >"$2"
EOF
zsh_prompt () {
	on_tty "$TMP/zsh.tty" zsh -f "$TMP/prompt.zsh" "$1" "$TMP/zsh"
	echo "vcs_info: $(cat "$TMP/zsh")"
}
check "zsh vcs_info in the attacker's clone: the payload does not run" '
	v=$(victim)
	zsh_prompt "$v"
	not_fired
'
check "zsh vcs_info in the fixture shows the branch, and nothing on the terminal" '
	zsh_prompt "$FIX"
	tty_quiet "$TMP/zsh.tty"
	grep -qx "\[git|main\]" "$TMP/zsh"
'

cat >"$TMP/prompt.fish" <<'EOF'
set -g __fish_git_prompt_showdirtystate 1
set -g __fish_git_prompt_showuntrackedfiles 1
set -g __fish_git_prompt_showstashstate 1
set -g __fish_git_prompt_showupstream auto
cd $argv[1]; or exit 1
fish_git_prompt >$argv[2]
EOF
fish_prompt () {
	on_tty "$TMP/fish.tty" fish --no-config "$TMP/prompt.fish" "$1" "$TMP/fish"
	echo "fish_git_prompt: $(cat "$TMP/fish")"
}
check "fish_git_prompt in the attacker's clone: the payload does not run" '
	v=$(victim)
	fish_prompt "$v"
	not_fired
'
check "fish_git_prompt in the fixture shows the branch, and nothing on the terminal" '
	fish_prompt "$FIX"
	tty_quiet "$TMP/fish.tty"
	grep -q "main" "$TMP/fish"
'

# powerline-gitstatus's segment, called as powerline calls it (Debian's
# python3: another python may come first on PATH). It drops the segment
# when the first line Git writes on stderr has "error" or "fatal".
cat >"$TMP/segment.py" <<'EOF'
import os
from powerline_gitstatus.segments import gitstatus
class PL:
    def debug(self, msg, *args, **kwargs):
        print("debug:", msg)
    info = warn = error = exception = debug
r = gitstatus(pl=PL(), segment_info={'getcwd': os.getcwd})
print("segment:", repr(r))
EOF
segment_in () {
	(cd "$1" && timeout 30 /usr/bin/python3 "$TMP/segment.py") 2>&1
}
check "powerline-gitstatus in the attacker's clone: the payload does not run" '
	v=$(victim)
	segment_in "$v"
	not_fired
'
# git status refuses a bare repository, so the segment is empty there with
# any Git; in the project around the fixture it shows the branch.
check "powerline-gitstatus: in the fixture as with $stock; the branch in the project around it" '
	[ -x "$stock" ]
	segment_in "$FIX" >"$TMP/seg.got"
	PATH="$TMP/stockbin:$PATH" segment_in "$FIX" >"$TMP/seg.want"
	cat "$TMP/seg.got"
	echo "with $stock:"
	cat "$TMP/seg.want"
	[ "$(grep "^segment:" "$TMP/seg.got")" = "$(grep "^segment:" "$TMP/seg.want")" ]
	segment_in "$TMP/checkout" >"$TMP/seg.outer"
	cat "$TMP/seg.outer"
	grep -q "^segment: \[{.contents.: .* main" "$TMP/seg.outer"
'

done_testing
