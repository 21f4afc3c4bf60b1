#!/usr/bin/env bash
# Runs the fuzz targets one after another, each to RUNS executions or SECONDS, whichever comes
# first, and prints one line of figures per target. Needs cargo-fuzz (`cargo install
# cargo-fuzz`); on stable Rust, RUSTC_BOOTSTRAP=1 lets it pass its nightly flags.
#
#   scripts/fuzz.sh                         # every target, 1 000 000 runs or 900 s each
#   RUNS=20000 SECONDS_EACH=60 scripts/fuzz.sh lotf_roster lod_record
set -u
cd "$(dirname "$0")/.."
RUNS=${RUNS:-1000000}
SECONDS_EACH=${SECONDS_EACH:-900}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(lotf_roster lod_roster any_roster lotf_record lod_record lotf_record_fields lod_record_fields battle_setup)
fi
export RUSTC_BOOTSTRAP=1
status=0
for t in "${TARGETS[@]}"; do
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t" "fuzz/seeds/$t"
    log="fuzz/artifacts/$t/run.log"
    started=$(date +%s)
    cargo fuzz run --sanitizer none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -dict=fuzz/muster.dict -runs="$RUNS" -max_total_time="$SECONDS_EACH" \
        -print_final_stats=1 -timeout=10 -rss_limit_mb=4096 >"$log" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - started ))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    crashes=$(find "fuzz/artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    echo "$t: exit $rc, ${execs:-?} executions in ${elapsed} s (${rate:-?}/s), corpus $corpus, crashes $crashes"
    [ "$rc" -eq 0 ] || status=1
done
exit $status
