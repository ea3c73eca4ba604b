#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn compare`: the table (one row per method, steps, closed-form energy loss of a bounce,
# momentum across gravity, penetration bounds, contact counts), the SVG (well-formed, one
# polyline per method, legend, title), the CSV (header, one row per method per sample, the
# closed-form initial energy), a failing method that does not stop the others, bad input.
# usage: cli_compare.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
SCENE="$SOURCE_DIR/tests/data/compare_small.json"
T=$(mktemp -d "${BUILD_DIR}/cli_compare.XXXXXX")
trap 'rm -rf "$T"' EXIT

CLI_STDOUT_CHARS=1500
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# lo <= a <= hi
between() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a >= lo && a <= hi) }'; }
# field N of the table row of method M
field() { awk -v m="$1" -v n="$2" '$1 == m { print $n; exit }' "$T/out"; }
# the SVG is well-formed XML: xmllint when there is one, else the elements it must have
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		head -n 2 "$1" | grep -q '^<svg ' && tail -n 1 "$1" | grep -q '^</svg>$' && grep -q '<polyline ' "$1"
	fi
}

# --- help -----------------------------------------------------------------------------------
run compare --help
check "compare --help exits 0" test $rc -eq 0
check "compare --help prints its usage" grep -q "^usage: cairn compare" "$T/out"
cp "$T/out" "$T/help1"
run help compare
check "help compare equals compare --help" cmp -s "$T/out" "$T/help1"
run --help
check "cairn --help lists compare" grep -q "^  compare " "$T/out"

# --- impulse and penalty on a ball dropped beside a resting box -------------------------------
# compare_small.json: timestep 0.005 s, fps 50, duration 0.5 s: k = ceil(0.02 / 0.005) = 4 steps
# per frame, 25 frames after t = 0, so 100 steps of 0.005 s, sampled after every step
run compare "$SCENE" --methods impulse,penalty --svg "$T/e.svg" --csv "$T/e.csv"
check "compare exits 0" test $rc -eq 0
check "compare prints the table header" grep -Eq "^method +steps +E drift +E end +P drift +max pen +contacts +points +ms/step +status" "$T/out"
check "one row per method, in order" test "$(awk '$1 == "impulse" || $1 == "penalty" { printf "%s ", $1 }' "$T/out")" = "impulse penalty "
check "no other method ran" test "$(grep -Ec '^(lcp|velocity-projection|gr-lcp|gr-velocity-projection|analytic-impulse|constraint) ' "$T/out")" -eq 0
check "the summary names 100 steps of 0.005 s" grep -q "0.5 s in 100 steps of 0.005 s" "$T/out"
for m in impulse penalty; do
	check "$m: 100 steps" test "$(field $m 2)" = "100"
	check "$m: status ok" test "$(field $m 10)" = "ok"
	# The ball (r = 0.1, 1000 kg/m^3, m_b = 4.18879 kg) falls from z = 0.6 onto the plane and
	# bounces with e = 0.5, losing (1 - e^2) of its impact energy m_b g 0.5; the box (8 kg) rests.
	# E(0) = g (m_b 0.6 + 8 0.1), so E end = -(0.75 m_b g 0.5) / E(0) = -0.4741 and, as energy only
	# drops, E drift = 0.4741. Tolerance 0.02: the step-resolution error of the impact speed
	# (symplectic Euler drop, about g h t / (2 h0) = 1.6 % of the energy) plus the methods' own
	# contact damping (soft contact, penalty dashpot) during the rest of the run.
	expected=$(awk 'BEGIN { g = 9.81; mb = 1000 * 4 / 3 * 3.141592653589793 * 0.001; printf "%.9g", -0.75 * mb * g * 0.5 / (g * (mb * 0.6 + 8 * 0.1)) }')
	check "$m: E end is the closed-form bounce loss" near "$(field $m 4)" "$expected" 0.02
	check "$m: E drift is the same loss" near "$(field $m 3)" "${expected#-}" 0.02
	# nothing pushes sideways: the momentum across gravity stays zero up to round-off and solver
	# noise; 1e-3 of S = sum m g T = 59.8 kg m/s is 0.06 kg m/s, far above either
	check "$m: P drift is small" between "$(field $m 5)" 0 1e-3
	# the box touches the plane throughout (1 manifold of 4 points) and the ball from t = 0.32 s:
	# between 1 and 2 manifolds, 4 and 5 points per step on average
	check "$m: contacts per step in [1, 2]" between "$(field $m 7)" 1 2
	check "$m: points per step in [4, 5]" between "$(field $m 8)" 4 5
done
# impulse: overlap beyond the linear slop (5 mm) is pushed out, and the ball lands on a speculative
# contact, so the deepest overlap stays below the slop
check "impulse: max penetration below the 5 mm slop" between "$(field impulse 6)" 0 0.005
# penalty: the default spring is 100 Hz (omega = 628 /s); the ball meets it at v = sqrt(2 g 0.5)
# = 3.13 m/s, so it sinks at most v / omega = 5.0 mm (less with the dashpot), and not 0
check "penalty: max penetration in (0, v / omega]" between "$(field penalty 6)" 1e-6 0.005

check "SVG written" test -f "$T/e.svg"
check "SVG is well-formed" well_formed "$T/e.svg"
check "SVG has one polyline per method" test "$(grep -c '<polyline ' "$T/e.svg")" -eq 2
check "SVG legend names impulse" grep -q '>impulse</text>' "$T/e.svg"
check "SVG legend names penalty" grep -q '>penalty</text>' "$T/e.svg"
check "SVG title is the scene name" grep -q '>compare_small</text>' "$T/e.svg"
check "SVG has axis labels" bash -c "grep -q '>time (s)</text>' '$T/e.svg' && grep -q 'kinetic + potential' '$T/e.svg'"
check "no .tmp left" test "$(ls "$T" | grep -c '\.tmp$')" -eq 0
check "CSV header is exact" test "$(head -n 1 "$T/e.csv")" = "method,time,kinetic,potential,energy,momentum_x,momentum_y,momentum_z,penetration,touching,manifold_points"
# t = 0 and after each of the 100 steps, for 2 methods
check "CSV has 101 samples per method" test "$(tail -n +2 "$T/e.csv" | wc -l)" -eq 202
check "CSV samples end at t = 0.5" test "$(grep -c '^penalty,0.5,' "$T/e.csv")" -eq 1
e0=$(awk -F, '$1 == "impulse" && $2 == 0 { print $5 }' "$T/e.csv")
check "CSV E(0) = g (m_b 0.6 + 8 0.1) (%.9g printing)" near "$e0" "$(awk 'BEGIN { g = 9.81; mb = 1000 * 4 / 3 * 3.141592653589793 * 0.001; printf "%.12g", g * (mb * 0.6 + 8 * 0.1) }')" 1e-6

# --- max pen reads the manifolds: a box placed 1 cm into the ground -----------------------------
# the first step's narrow phase sees separation -0.01 m at the 4 corners (box-plane is exact to
# round-off); impulse then pushes it out and lcp leaves it as it is, so neither goes deeper. The
# table prints 4 significant digits: 1.000e-02.
cat >"$T/overlap.json" <<'EOF2'
{ "cairn": 1, "name": "overlap", "timestep": 0.005, "fps": 50, "duration": 0.02, "sleep": false,
  "bodies": [
    { "name": "ground", "type": "static", "shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ] },
    { "name": "box", "position": [0, 0, 0.09], "shapes": [ { "type": "box", "half_extents": [0.1, 0.1, 0.1] } ] }
  ] }
EOF2
run compare "$T/overlap.json" --methods impulse,lcp --csv "$T/overlap.csv"
check "overlap scene exits 0" test $rc -eq 0
check "overlap: 4 steps" test "$(field lcp 2)" = "4"
check "impulse: max penetration is the initial 1 cm" near "$(field impulse 6)" 0.01 1e-6
check "lcp: max penetration is the initial 1 cm" near "$(field lcp 6)" 0.01 1e-6
check "no penetration is read before the first step" test "$(awk -F, '$2 == 0 { print $9 }' "$T/overlap.csv" | sort -u)" = "0"
check "the first step reads 1 cm at 4 points" test "$(awk -F, '$1 == "lcp" && NR > 1 && $2 > 0 { print $9 "," $11; exit }' "$T/overlap.csv")" = "0.01,4"

# --- a method that fails does not stop the others ---------------------------------------------
# A ball stiffness of 1e300 N/m needs internal steps of about sqrt(m / k) ~ 1e-150 s at the
# bounce, below the penalty integrator's floor of 1e-12 of the step: penalty must report failure
# there, while impulse ignores material stiffness.
sed 's/"restitution": 0.5 }/"restitution": 0.5, "stiffness": 1e300 }/' "$SCENE" >"$T/stiff.json"
check "test scene has the stiff material" grep -q 1e300 "$T/stiff.json"
run compare "$T/stiff.json" --methods penalty,impulse --svg "$T/f.svg"
check "a failed method gives exit 1" test $rc -eq 1
check "the failed row says so with the error" grep -Eq "^penalty +[0-9]+ +- .*failed at t = .*penalty" "$T/out"
check "the failed row stopped before the end" between "$(field penalty 2)" 0 99
check "the next method still ran" test "$(field impulse 10)" = "ok"
check "the next method ran all its steps" test "$(field impulse 2)" = "100"
check "the step error is on stderr" grep -q "cairn: error: .*penalty" "$T/err"
check "SVG still written" well_formed "$T/f.svg"
check "SVG legend marks the failure" grep -q '>penalty (failed)</text>' "$T/f.svg"

# --- every method by default ----------------------------------------------------------------
# 0.05 s: 10 steps of free fall for the ball and rest for the box; a failing method still has a row
run compare "$SCENE" --duration 0.05
check "default runs exit 0 or 1" test $rc -le 1
check "default runs every method" test "$(grep -Ec '^(impulse|lcp|velocity-projection|gr-lcp|gr-velocity-projection|penalty|analytic-impulse|constraint) +[0-9]+ ' "$T/out")" -eq 8
run compare "$SCENE" --methods impulse,penalty --time-limit 1e-9
check "a time limit is not a failure" test $rc -eq 0
check "the limit stops a method after its first step" test "$(field penalty 2)" = "1"
check "the stopped row says where" grep -Eq "^penalty +1 .*stopped at t = 0.005 s: time limit of 1e-09 s reached" "$T/out"
run compare "$SCENE" --methods impulse --time-limit -1
check "negative time limit exits 2" test $rc -eq 2
run compare "$SCENE" --methods " impulse , lcp" --duration 0
check "--duration 0 exits 0" test $rc -eq 0
check "--duration 0 takes no step" test "$(field lcp 2)" = "0"
check "spaces around names are allowed" test "$(field impulse 2)" = "0"

# --- bad input ------------------------------------------------------------------------------
run compare "$SCENE" --methods impulse,nonsense --svg "$T/bad.svg"
check "unknown method exits 2" test $rc -eq 2
check "unknown method is named" grep -q "unknown contact method 'nonsense'" "$T/err"
check "unknown method runs nothing" test ! -s "$T/out"
check "unknown method writes no SVG" test ! -e "$T/bad.svg"
run compare "$SCENE" --methods impulse,impulse
check "a repeated method exits 2" test $rc -eq 2
run compare "$SCENE" --methods "impulse,,lcp"
check "an empty name exits 2" test $rc -eq 2
run compare "$SCENE" --duration -1
check "negative duration exits 2" test $rc -eq 2
run compare "$SCENE" --svg "$T/same" --csv "$T/same"
check "--svg and --csv on one file exits 2" test $rc -eq 2
run compare
check "no scene exits 2" test $rc -eq 2
run compare "$T/missing.json"
check "missing scene exits 2" test $rc -eq 2
run compare "$SCENE" --methods impulse --svg "$T/no/such/dir/e.svg"
check "unwritable SVG exits 1" test $rc -eq 1
check "unwritable SVG leaves nothing" test ! -e "$T/no"

cli_summary
