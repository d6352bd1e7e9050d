#!/bin/sh
# Hosting over real transports: a host that checks pushes
# (receive.fsckObjects) behind smart HTTP (Apache + git-http-backend),
# git daemon and ssh (sshd), each a real server started here on 127.0.0.1
# with its own config, and stopped here, also when a check fails. The
# attacker's commit carries a tree that checks out as a bare repository.
# The git under test is the line's build (work/<line>/git), or, with
# BAREGUARD_HOSTING_GIT=<prefix>, an installed one (make deb-test);
# BAREGUARD_HOSTING_TRANSPORTS chooses among "http daemon ssh".
. "$(dirname "$0")/lib.sh"
if [ -n "${BAREGUARD_HOSTING_GIT:-}" ]; then
	# an installed git: <prefix>/bin/git, its exec path and http-backend
	gitbin=$BAREGUARD_HOSTING_GIT/bin
	exec_path=$("$gitbin/git" --exec-path)
else
	tree=${BAREGUARD_WORK:-$TOP/work/$LINE}/git
	gitbin=$tree/bin-wrappers
	exec_path=$tree
fi
backend=$exec_path/git-http-backend
transports=${BAREGUARD_HOSTING_TRANSPORTS:-http daemon ssh}
uses () { case " $transports " in *" $1 "*) ;; *) return 1 ;; esac; }
apache=$(command -v apache2 || echo /usr/sbin/apache2)
sshd=/usr/sbin/sshd
modules=/usr/lib/apache2/modules
missing=
[ -x "$gitbin/git" ] && [ -x "$backend" ] || missing="$missing a built git (make)"
if uses http && ! { [ -x "$apache" ] && [ -f "$modules/mod_cgi.so" ]; }; then
	missing="$missing apache2"
fi
if uses ssh && ! { [ -x "$sshd" ] && command -v ssh-keygen >/dev/null; }; then
	missing="$missing openssh-server"
fi
command -v ss >/dev/null || missing="$missing ss (iproute2)"
if [ -n "$missing" ]; then
	skip "pushes, clones and fetches over: $transports" "missing:$missing"
	done_testing
	exit
fi

# Everything runs as this user, with only the config made here, except
# Apache's CGI, which runs as "nobody" when the test runs as root (Apache
# does not serve as root): its repositories are then handed to nobody.
chmod 755 "$TMP"
mkdir "$TMP/home" "$TMP/srv" "$TMP/logs"
export HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 PATH="$gitbin:$PATH" \
	GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@invalid \
	GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@invalid
git config --global init.defaultBranch main
git config --global protocol.version 2
root=
[ "$(id -u)" -ne 0 ] || root=1

# free_port N: a TCP port that nothing listens on, the N-th one tried
free_port () {
	p=$((20000 + ($$ * 7 + $1 * 101) % 30000))
	while ss -Htln | awk '{print $4}' | grep -q ":$p\$"; do p=$((p + 1)); done
	echo "$p"
}
# listening PORT: wait (up to 10 s) until something listens on PORT
listening () {
	i=0
	until ss -Htln | awk '{print $4}' | grep -q ":$1\$"; do
		i=$((i + 1)); [ $i -lt 100 ] || return 1; sleep 0.1
	done
}
pids=
stop_servers () {
	[ -f "$TMP/httpd/httpd.pid" ] && kill "$(cat "$TMP/httpd/httpd.pid")" 2>/dev/null
	for p in $pids; do kill "$p" 2>/dev/null; done
	# Apache's children end with it; wait for the ports to close
	for port in ${http_port:-} ${daemon_port:-} ${ssh_port:-}; do
		i=0
		while ss -Htln | awk '{print $4}' | grep -q ":$port\$" && [ $i -lt 50 ]; do
			i=$((i + 1)); sleep 0.1
		done
	done
	pids=
	rm -f "$TMP/httpd/httpd.pid"
}
trap 'stop_servers; rm -rf "$TMP"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Smart HTTP: Apache with its own config, git-http-backend as CGI.
http_port='' daemon_port='' ssh_port=''
if uses http; then
http_port=$(free_port 1)
mkdir "$TMP/httpd"
{
	echo "ServerRoot \"$TMP/httpd\""
	echo "PidFile \"$TMP/httpd/httpd.pid\""
	echo "Listen 127.0.0.1:$http_port"
	echo "ServerName 127.0.0.1"
	echo "ErrorLog \"$TMP/logs/httpd.log\""
	echo "Mutex file:$TMP/httpd"
	for m in mpm_prefork authz_core alias cgi env; do
		echo "LoadModule ${m}_module $modules/mod_$m.so"
	done
	[ -z "$root" ] || printf 'User nobody\nGroup nogroup\n'
	echo "SetEnv GIT_PROJECT_ROOT \"$TMP/srv\""
	echo "SetEnv GIT_HTTP_EXPORT_ALL 1"
	echo "SetEnv GIT_EXEC_PATH \"$exec_path\""
	echo "SetEnv GIT_CONFIG_NOSYSTEM 1"
	echo "SetEnv HOME \"$TMP/srv\""
	echo "ScriptAlias /git/ \"$backend/\""
	echo "<Directory \"$exec_path\">"
	echo "	Require all granted"
	echo "</Directory>"
} >"$TMP/httpd/httpd.conf"
"$apache" -f "$TMP/httpd/httpd.conf" -k start 2>"$TMP/logs/httpd.start" || :
fi

# git daemon, receive-pack enabled, its log (and its services' stderr) kept.
if uses daemon; then
daemon_port=$(free_port 2)
git daemon --listen=127.0.0.1 --port="$daemon_port" --reuseaddr \
	--base-path="$TMP/srv" --export-all --enable=receive-pack \
	--informative-errors --verbose "$TMP/srv" \
	>"$TMP/logs/daemon.log" 2>&1 &
pids="$pids $!"
fi

# sshd: its own config and host key, key-only login on 127.0.0.1; the
# git it runs finds the exec path under test.
if uses ssh; then
ssh_port=$(free_port 3)
mkdir "$TMP/ssh"
ssh-keygen -q -t ed25519 -N "" -f "$TMP/ssh/host_key"
ssh-keygen -q -t ed25519 -N "" -f "$TMP/ssh/id"
cp "$TMP/ssh/id.pub" "$TMP/ssh/authorized_keys"
cat >"$TMP/ssh/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $ssh_port
HostKey $TMP/ssh/host_key
PidFile $TMP/ssh/sshd.pid
AuthorizedKeysFile $TMP/ssh/authorized_keys
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
SetEnv GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_EXEC_PATH=$exec_path
EOF
[ -z "$root" ] || [ -d /run/sshd ] || mkdir -m 755 /run/sshd
"$sshd" -D -e -f "$TMP/ssh/sshd_config" 2>"$TMP/logs/sshd.log" &
pids="$pids $!"
export GIT_SSH_COMMAND="ssh -F /dev/null -i $TMP/ssh/id -o BatchMode=yes \
-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
fi

# url TRANSPORT REPO: where a client reaches REPO (a name under srv/)
url () {
	case $1 in
	http) echo "http://127.0.0.1:$http_port/git/$2.git" ;;
	daemon) echo "git://127.0.0.1:$daemon_port/$2.git" ;;
	ssh) echo "ssh://$(id -un)@127.0.0.1:$ssh_port$TMP/srv/$2.git" ;;
	esac
}
# pack_opt TRANSPORT receive|upload: over ssh, the build's receive-pack
# or upload-pack, named by path (the other servers run their own)
pack_opt () {
	if [ "$1" = ssh ]; then
		echo "--$2-pack=$gitbin/git-$2-pack"
	elif [ "$2" = receive ]; then
		echo --no-verify	# harmless: push has no hooks here
	else
		echo --no-tags		# harmless: there are none to fetch
	fi
}

# The attacker's history: a base, then a commit that adds tool.git, a
# directory that checks out as a bare repository; and, as a control, a
# commit of the same files under names that make no repository.
git init -q "$TMP/attacker"
(
	cd "$TMP/attacker" || exit 1
	echo "A helpful tool" >README && git add README && git commit -q -m base
	git tag base
	mkdir -p tool.git/objects tool.git/refs
	: >tool.git/objects/.keep && : >tool.git/refs/.keep
	echo "ref: refs/heads/main" >tool.git/HEAD
	printf '[core]\n\tbare = false\n\tworktree = ..\n' >tool.git/config
	git add . && git commit -q -m "Add a tool" && git tag evil
	git checkout -q -b clean base
	mkdir -p tool/object tool/ref
	: >tool/object/.keep && : >tool/ref/.keep
	echo "ref: refs/heads/main" >tool/head
	printf '[core]\n\tbare = false\n\tworktree = ..\n' >tool/config
	git add . && git commit -q -m "Add a tool, plainly"
	git checkout -q main
) >"$TMP/logs/fixture" 2>&1
evil_tree=$(git -C "$TMP/attacker" rev-parse evil:tool.git)
# How index-pack and unpack-objects name that tree: by its path from the
# pushed (or fetched) commit.
evil_named="$evil_tree ($(git -C "$TMP/attacker" rev-parse evil):tool.git/)"

# host NAME KEY=VALUE...: a bare repository srv/NAME.git holding the
# base commit, that checks pushes with the given config; the ones served
# over HTTP (NAME ends in -http) belong to Apache's user
host () {
	r=$TMP/srv/$1.git
	shift
	git init -q --bare "$r"
	git -C "$TMP/attacker" push -q "$r" base:refs/heads/main
	git -C "$r" config http.receivepack true
	git -C "$r" config receive.fsckObjects true
	for kv; do git -C "$r" config "${kv%%=*}" "${kv#*=}"; done
	case $r in *-http.git) [ -z "$root" ] || chown -R nobody:nogroup "$r" ;; esac
}
# srv NAME GIT-ARGS...: look into srv/NAME.git (whoever owns it)
srv () {
	r=$TMP/srv/$1.git
	shift
	git -c safe.directory="*" -C "$r" "$@"
}
# snapshot NAME: every file of srv/NAME.git with its digest
snapshot () {
	(cd "$TMP/srv/$1.git" && find . -type f | LC_ALL=C sort | xargs sha256sum)
}
# push TRANSPORT NAME REV: push REV to main of srv/NAME.git; stderr in $TMP/err
push () {
	git -C "$TMP/attacker" push "$(pack_opt "$1" receive)" "$(url "$1" "$2")" "$3:refs/heads/main" \
		>"$TMP/err" 2>&1
}
# holds NAME REV: the main branch of srv/NAME.git is the attacker's REV
holds () {
	test "$(srv "$1" rev-parse main)" = "$(git -C "$TMP/attacker" rev-parse "$2")"
}
# server_log TRANSPORT: what the server wrote (its stderr, its log)
server_log () {
	case $1 in
	http) cat "$TMP/logs/httpd.log" ;;
	daemon) cat "$TMP/logs/daemon.log" ;;
	ssh) cat "$TMP/logs/sshd.log" ;;
	esac
}

check "the servers ($transports) listen on 127.0.0.1 only, on ports of their own" '
	cat "$TMP/logs/httpd.start" 2>/dev/null || :
	for port in $http_port $daemon_port $ssh_port; do listening $port; done
	ss -Htln >"$TMP/listen"
	for port in $http_port $daemon_port $ssh_port; do
		awk "{print \$4}" "$TMP/listen" | grep ":$port\$" >"$TMP/addr"
		test "$(sort -u "$TMP/addr")" = "127.0.0.1:$port"
	done
'

for t in $transports; do
	check "$t: a host with embeddedBareRepo=error rejects the push, says why, and is unchanged" '
		host strict-$t receive.fsck.embeddedBareRepo=error
		snapshot strict-$t >"$TMP/before"
		fails push $t strict-$t evil
		cat "$TMP/err"
		grep "^remote: error: object $evil_named: embeddedBareRepo: has HEAD, objects and refs: checks out as a bare repository" "$TMP/err"
		grep "\\[remote rejected\\] evil -> main" "$TMP/err"
		snapshot strict-$t >"$TMP/after"
		diff "$TMP/before" "$TMP/after"
		# no quarantine or temporary pack left behind
		test -z "$(find "$TMP/srv/strict-$t.git/objects" -name "incoming-*" -o -name "tmp_*")"
	'

	check "$t: a host with the defaults accepts the push, and the pusher sees the warning" '
		host warn-$t
		push $t warn-$t evil
		cat "$TMP/err"
		grep "^remote: warning: object $evil_named: embeddedBareRepo: " "$TMP/err"
		holds warn-$t evil
	'

	check "$t: clone and fetch with transfer.fsckObjects warn and succeed" '
		rm -rf "$TMP/clone-$t" "$TMP/fetch-$t"
		git -c transfer.fsckObjects=true clone "$(pack_opt $t upload)" "$(url $t warn-$t)" \
			"$TMP/clone-$t" 2>"$TMP/err"
		cat "$TMP/err"
		grep "warning: object $evil_named: embeddedBareRepo: " "$TMP/err"
		test -f "$TMP/clone-$t/tool.git/config"
		git init -q "$TMP/fetch-$t"
		git -C "$TMP/fetch-$t" -c fetch.fsckObjects=true fetch "$(pack_opt $t upload)" \
			"$(url $t warn-$t)" main 2>"$TMP/err"
		grep "warning: object $evil_named: embeddedBareRepo: " "$TMP/err"
		git -C "$TMP/fetch-$t" cat-file -e "$evil_tree"
	'

	check "$t: a clean push of the same files is accepted by the strict host, without a word" '
		push $t strict-$t clean
		cat "$TMP/err"
		fails grep -i "warning\\|error\\|embeddedBareRepo" "$TMP/err"
		holds strict-$t clean
	'

	check "$t: a project that lists its fixture in receive.fsck.skipList gets through" '
		echo "$evil_tree" >"$TMP/srv/skiplist-$t"
		host skip-$t receive.fsck.embeddedBareRepo=error \
			receive.fsck.skipList="$TMP/srv/skiplist-$t"
		push $t skip-$t evil
		cat "$TMP/err"
		fails grep embeddedBareRepo "$TMP/err"
		holds skip-$t evil
	'

	check "$t: a host with embeddedBareRepo=ignore accepts the push without a word" '
		host ignore-$t receive.fsck.embeddedBareRepo=ignore
		push $t ignore-$t evil
		cat "$TMP/err"
		fails grep embeddedBareRepo "$TMP/err"
		holds ignore-$t evil
	'

	check "$t: a misspelt id is skipped as Git skips one, a bad value refuses every push" '
		# Git warns of the unknown id and goes on: the check stays a warning
		host typo-$t receive.fsck.embeddedBareRep=error
		push $t typo-$t evil
		{ cat "$TMP/err"; server_log $t; } >"$TMP/all"
		grep "skipping unknown msg id .embeddedbarerep." "$TMP/all"
		grep "^remote: warning: object $evil_named: embeddedBareRepo: " "$TMP/err"
		# an unknown severity is fatal to receive-pack: nothing is accepted
		host bad-$t receive.fsck.embeddedBareRepo=eror
		snapshot bad-$t >"$TMP/before"
		fails push $t bad-$t clean
		{ cat "$TMP/err"; server_log $t; } >"$TMP/all"
		grep "Unknown fsck message type: .eror." "$TMP/all"
		snapshot bad-$t >"$TMP/after"
		diff "$TMP/before" "$TMP/after"
	'
done

check 'the pusher finds the tree a host names in their clone too, with fsck --name-objects' '
	git -C "$TMP/attacker" fsck --name-objects >"$TMP/err" 2>&1
	grep "tree $evil_tree (.*:tool.git/): embeddedBareRepo" "$TMP/err"
'

check 'stopped, no server is left listening' '
	stop_servers
	ss -Htln >"$TMP/listen"
	for port in $http_port $daemon_port $ssh_port; do
		fails grep ":$port " "$TMP/listen"
	done
'

done_testing
