#!/bin/sh
# make test-full (tools/test-full) on a stand-in for a generated tree: the
# whole suite under prove, upstream's http scripts apart as an unprivileged
# user when run as root, the totals and the reasons for every script
# skipped whole recorded for RESULTS.md.
. "$(dirname "$0")/lib.sh"
export BAREGUARD_WORK="$TMP/work" BAREGUARD_RESULTS_PENDING="$TMP/pending"
tree=$BAREGUARD_WORK/git
mkdir -p "$tree/t"
chmod 755 "$TMP" "$BAREGUARD_WORK" "$tree" "$tree/t"
# upstream's t/Makefile: "make prove" runs $(T) under prove
printf 'prove:\n\tprove --exec /bin/sh $(GIT_PROVE_OPTS) $(T)\n' >"$tree/t/Makefile"
cat >"$tree/t/t0001-plain.sh" <<'EOF'
echo "ok 1 - plain"; echo "1..1"
EOF
cat >"$tree/t/t9100-svn.sh" <<'EOF'
echo "1..0 # SKIP skipping git svn tests, svn not found"
EOF
# like lib-httpd.sh: no web server as root
cat >"$tree/t/t5541-http.sh" <<'EOF'
. ./lib-httpd.sh
EOF
cat >"$tree/t/lib-httpd.sh" <<'EOF'
if [ "$(id -u)" -eq 0 ]; then echo "1..0 # SKIP Cannot run httpd tests as root"; exit 0; fi
echo "ok 1 - served as $(id -un)"; echo "1..1"
EOF
# like t5559, which runs t5551 over HTTP/2 and names no lib-httpd.sh
cat >"$tree/t/t5559-http2.sh" <<'EOF'
. ./t5541-http.sh
EOF
chmod 644 "$tree"/t/*

check 'the whole suite runs, and says why each script skipped whole was skipped' '
	"$TOP/tools/test-full" >"$TMP/o" 2>&1 || { cat "$TMP/o"; exit 1; }
	r=$(ls "$BAREGUARD_RESULTS_PENDING"/test-full*.txt)
	cat "$r"
	grep "^Scripts skipped whole, by reason:" "$r"
	grep "^   1  skipping git svn tests, svn not found: t9100\$" "$r"
'

if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1 && id -u nobody >/dev/null 2>&1; then
	check 'as root, the http scripts run apart, as nobody, and pass' '
		r=$(ls "$BAREGUARD_RESULTS_PENDING"/test-full*.txt)
		grep "^as root, 3 scripts:" "$r"
		grep "^as nobody, the 2 http scripts (lib-httpd.sh, and 1 more that skipped as root):" "$r"
		fails grep "Cannot run httpd tests as root" "$r"
		grep -c "^Result: PASS" "$r" | grep -qx 2
	'
else
	skip 'as root, the http scripts run apart, as nobody' 'not root, or no runuser or nobody'
fi

check 'a failing script fails make test-full' '
	echo "echo \"not ok 1 - broken\"; echo 1..1" >"$tree/t/t0002-broken.sh"
	chmod 644 "$tree/t/t0002-broken.sh"
	fails "$TOP/tools/test-full" >"$TMP/o" 2>&1
	grep "^Result: FAIL" "$(ls "$BAREGUARD_RESULTS_PENDING"/test-full*.txt)"
'

done_testing
