#!/bin/sh
# make bench's parts that do not need builds: the history generator is
# deterministic and fast-import takes it; the report judges the targets.
. "$(dirname "$0")/lib.sh"
G=$TOP/tools/bench-gen

check 'bench-gen writes the same history every time' '
	"$G" 50 >"$TMP/a"
	"$G" 50 >"$TMP/b"
	cmp "$TMP/a" "$TMP/b"
	"$G" 51 >"$TMP/c"
	fails cmp -s "$TMP/a" "$TMP/c"
'

check 'fast-import takes it: the same commit, 4096 files, no bare layout' '
	git init -q --bare --object-format=sha1 "$TMP/h.git"
	git --git-dir="$TMP/h.git" fast-import --quiet <"$TMP/a"
	test "$(git --git-dir="$TMP/h.git" rev-parse main)" = \
		c5a0a298511486ea0be25f5fbdeb401bca2f9969
	test "$(git --git-dir="$TMP/h.git" ls-tree -r main | wc -l)" -eq 4096
	git --git-dir="$TMP/h.git" ls-tree -r --name-only main >"$TMP/names"
	grep -q "/HEAD\$" "$TMP/names"
	fails grep -q "/objects\$" "$TMP/names"
'

check 'bench-gen refuses a missing argument' '
	fails "$G" 2>"$TMP/err"
	grep -q usage "$TMP/err"
'

check 'bench-report judges the targets' '
	mkdir "$TMP/r"
	cat >"$TMP/r/results.txt" <<-\RES
	fsck_instructions 1000000 1002000 1.0020
	index_pack_instructions 1000000 1002100 1.0021
	discovery_nonbare_syscalls 100 101 1.0100
	discovery_bare_syscalls 100 110 1.1000
	discovery_embedded_syscalls 100 140 1.4000
	discovery_embedded_config_opens 5 5 1.0000
	RES
	printf "%s\n" "discovery_nonbare_syscalls 10 0" \
		"discovery_bare_syscalls 10 1" \
		"discovery_embedded_syscalls 10 2" >"$TMP/r/levels.txt"
	PATH=/nonexistent:$PATH "$TOP/tools/bench-report" "$TMP/r" >"$TMP/out"
	grep -q "fsck_instructions <= 1.002x pristine: met" "$TMP/out"
	grep -q "index_pack_instructions <= 1.002x pristine: NOT MET" "$TMP/out"
	grep -q "discovery_nonbare_syscalls <= 0 extra per level: NOT MET (+1 over 10" "$TMP/out"
	grep -q "discovery_bare_syscalls <= 1 extra per level: met (+10 over 10" "$TMP/out"
	grep -q "discovery_embedded_syscalls <= 2 extra per level: NOT MET (+40" "$TMP/out"
	grep -q "discovery_embedded_config_opens <= pristine (trust sources read once): met (+0)" "$TMP/out"
	sed "s/^discovery_embedded_config_opens 5 5/discovery_embedded_config_opens 5 6/" \
		"$TMP/r/results.txt" >"$TMP/r/x" && mv "$TMP/r/x" "$TMP/r/results.txt"
	PATH=/nonexistent:$PATH "$TOP/tools/bench-report" "$TMP/r" >"$TMP/out"
	grep -q "discovery_embedded_config_opens <= pristine (trust sources read once): NOT MET (+1)" "$TMP/out"
'

done_testing
