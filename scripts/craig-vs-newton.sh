#!/usr/bin/env bash
# The Craig-vs-Newton experiment (docs/craig-vs-newton.md): every source of assertion sequences,
# and one second solver, over the Boogie and C corpora of ../shared/bench; then the table and the
# three quantile plots. Resumable: a configuration whose results.json exists is not run again.
# Loop acceleration is off: it is orthogonal to the sources and would hide their differences.
#
#   scripts/craig-vs-newton.sh            # TIMEOUT=5 JOBS=1 OUT=bench-results/craig-vs-newton
set -uo pipefail
cd "$(dirname "$0")/.."
TIMEOUT=${TIMEOUT:-5}
JOBS=${JOBS:-1}  # one task at a time: the verifier's own timeout is wall-clock time
OUT=${OUT:-bench-results/craig-vs-newton}
BENCH=${BENCH:-../shared/bench}
DOCS=${DOCS:-docs}
ONLY=${ONLY:-}  # run only these configurations (names separated by spaces), without the summary
TASKS=("$BENCH/seeds" "$BENCH/ultimate/programs/regression" "$BENCH/ultimate/programs/toy"
       "$BENCH/ultimate/programs/loopAcceleration" "$BENCH/ultimate/programs/bitvector")
CVC5='smtlib:cvc5 --incremental --lang smt2'

cargo build --release --quiet || exit 2
# A copy per run of this script, so that rebuilding during a long run does not change the
# configurations midway.
BIN=$OUT/tracery.$$
mkdir -p "$OUT" && cp target/release/tracery "$BIN" || exit 2

results=()
# run NAME VERIFIER-OPTIONS...: one configuration, into $OUT/NAME.
run() {
  local name=$1 dir="$OUT/$1"
  shift
  if [[ -n "$ONLY" && " $ONLY " != *" $name "* ]]; then
    return
  fi
  if [[ ! -f "$dir/results.json" ]]; then
    echo "== $name"
    "$BIN" bench --jobs "$JOBS" --timeout "$TIMEOUT" --out "$dir" "${TASKS[@]}" -- --no-acceleration "$@" | tail -n 4
  fi
  results+=("$dir/results.json")
}
for source in portfolio craig craig-smtlib sp it-sp sp-lv it-sp-lv wp it-wp wp-lv it-wp-lv; do
  run "$source" --refinement "$source"
done
run it-sp-lv@cvc5 --refinement it-sp-lv --solver "$CVC5"
[[ -n "$ONLY" ]] && exit 0

"$BIN" bench plot --metric time --title "CPU time of correct results" --out "$DOCS/craig-vs-newton-time.svg" "${results[@]}"
"$BIN" bench plot --metric iterations --title "Refinement iterations of correct results" --out "$DOCS/craig-vs-newton-iterations.svg" "${results[@]}"
"$BIN" bench plot --metric perfect --title "Perfect sequences (% of a task's sequences)" --out "$DOCS/craig-vs-newton-perfect.svg" "${results[@]}"
"$BIN" bench table "${results[@]}"
