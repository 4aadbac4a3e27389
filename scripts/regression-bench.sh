#!/usr/bin/env bash
# The regression corpora of ../shared/bench with the settings the issues' bars use: Ultimate's
# Boogie and C programs at 20 s (memory safety with ILP32, overflow with no-overflow, the
# concurrent programs, the seeds), the SV folders at 30 s with their .yml properties (the
# termination corpora, ultimate/termination and ultimate/lassos, take an hour each: they are
# left to their own runs). One results.json per corpus in OUT; with OLD (an
# earlier OUT of this script) each run is compared with its namesake there.
#
#   scripts/regression-bench.sh BIN OUT [OLD] [-- VERIFIER OPTIONS]
#
# Build the BIN of an older commit (a worktree) with a target directory of its own: sharing
# one with the checkout leaves crates whose unit hash did not change (bench) stale in the
# checkout's next build.
#   JOBS=2 (tasks in parallel), ONLY="ultimate sv" (only these corpora)
set -uo pipefail
BIN=$1 OUT=$2
shift 2
OLD=""
if [[ $# -gt 0 && $1 != "--" ]]; then
    OLD=$1
    shift
fi
[[ ${1:-} == "--" ]] && shift
JOBS=${JOBS:-2}
BENCH=${BENCH:-$(dirname "$0")/../../shared/bench}
U=$BENCH/ultimate/programs
mkdir -p "$OUT"

# run NAME TIMEOUT PATHS... -- OPTIONS...
run() {
    local name=$1 timeout=$2
    shift 2
    local paths=()
    while [[ $# -gt 0 && $1 != "--" ]]; do
        paths+=("$1")
        shift
    done
    [[ ${1:-} == "--" ]] && shift
    if [[ -n "${ONLY:-}" && " $ONLY " != *" $name "* ]]; then
        return
    fi
    local compare=()
    [[ -n "$OLD" && -f "$OLD/$name/results.json" ]] && compare=(--compare "$OLD/$name/results.json")
    echo "== $name"
    "$BIN" bench --jobs "$JOBS" --timeout "$timeout" --out "$OUT/$name" "${compare[@]}" "${paths[@]}" -- "$@" "${EXTRA[@]}"
}
EXTRA=("$@")
run ultimate 20 "$U/regression" "$U/toy" "$U/loopAcceleration" "$U/recursive" "$U/bitvector" --
run memsafety 20 "$U/memsafety" -- --property default,valid-memsafety --data-model ILP32
run overflow 20 "$U/SignedIntegerOverflow" -- --property default,no-overflow
run sv 30 "$BENCH/sv/loop-simple" "$BENCH/sv/array-cav19" "$BENCH/sv/recursive" "$BENCH/sv/recursive-simple" --
run sv-more 30 "$BENCH"/sv/{bitvector,heap-manipulation,ldv-regression,list-properties,locks,loop-acceleration,loop-invgen,xcsp} --
run concurrent 20 "$BENCH/ultimate/concurrent" --
run seeds 20 "$BENCH/seeds" --
