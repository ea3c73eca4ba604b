# SPDX-License-Identifier: MIT
# Shared by the command-line tests (tests/cli_*.sh), sourced after they set CAIRN (the tool) and T
# (their temporary folder). Counts checks in pass/fail; cli_summary prints the line CTest logs.

pass=0
fail=0
# characters of stdout a failed check shows (cli_compare's tables want more)
CLI_STDOUT_CHARS=${CLI_STDOUT_CHARS:-600}

# check WHAT COMMAND...: runs the command; on failure prints WHAT and the last run's output
check() {
	local what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what"
		echo "  stdout: $(head -c "$CLI_STDOUT_CHARS" "$T/out" 2>/dev/null)"
		echo "  stderr: $(head -c 600 "$T/err" 2>/dev/null)"
	fi
}

# runs cairn with stdout in $T/out, stderr in $T/err and the status in $rc
run() {
	"$CAIRN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# |a - b| <= tol (both given: an empty value, say from a missing field, is never near)
near() {
	[ -n "$1" ] && [ -n "$2" ] &&
		awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# prints "[NAME: ]N passed, N failed" and returns whether nothing failed
cli_summary() {
	echo "${1:+$1: }$pass passed, $fail failed"
	test "$fail" -eq 0
}
