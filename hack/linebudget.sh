#!/usr/bin/env bash
# linebudget.sh: the size of each client-side concept, in the non-test lines
# of its Go files (wc -l: comments and doc.go included, as issue 21 measured
# them). A file whose header (first 12 lines) says "skip on a first reading"
# is a fenced-off speed-up or the metrics: it is printed and counted apart,
# not in the reading budget.
#
# Each concept has its budget (issue 21) and a ceiling: while a concept is
# still over budget, the ceiling is its size when that was last measured,
# and the script exits 1 when a concept grows past its ceiling, so sizes only
# go down. Whoever cuts a concept lowers its ceiling here; at the budget the
# ceiling is the budget and the script fails on any line over it. (The
# ceilings leave about 25 lines for the trace hooks being added.)
set -euo pipefail
cd "$(dirname "$0")/.."

# concept | budget | ceiling | files (globs, relative to the repository root)
concepts=(
	"reflector|350|350|reflector/*.go"
	"deltafifo|350|350|deltafifo/*.go"
	"informer|450|450|informer/*.go"
	"cache|250|250|cache/*.go"
	"informers|175|175|informers/*.go"
	"listers|100|100|listers/*.go"
	"workqueue|500|500|workqueue/*.go"
	"kubectl-lite|1500|1500|kubectl-lite/main.go kubectl-lite/cmd/*.go"
)

fenced() { head -n 12 "$1" | grep -qi 'skip on a first reading'; }

status=0
printf '%-13s %7s %7s %7s %7s  %s\n' concept reading budget ceiling apart "verdict, files counted apart"
for c in "${concepts[@]}"; do
	IFS='|' read -r name budget ceiling globs <<<"$c"
	reading=0 apart=0 apartFiles=""
	for f in $globs; do
		[[ $f == *_test.go ]] && continue
		n=$(wc -l <"$f")
		if fenced "$f"; then
			apart=$((apart + n))
			apartFiles+=" $(basename "$f")($n)"
		else
			reading=$((reading + n))
		fi
	done
	verdict=ok
	if ((reading > ceiling)); then
		verdict="FAIL: grew past its ceiling by $((reading - ceiling))"
		status=1
	elif ((reading > budget)); then
		verdict="over budget by $((reading - budget)) (issue 21)"
	fi
	printf '%-13s %7d %7d %7d %7d  %s %s\n' "$name" "$reading" "$budget" "$ceiling" "$apart" "$verdict" "${apartFiles# }"
done
exit $status
