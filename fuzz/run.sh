#!/usr/bin/env bash
# Fuzzes every decoder of outside input (issue 46), one target after the other, for SECONDS each
# (600 by default: 5 targets, about 55 minutes with the build): protocol (the wire messages),
# record (JSON records and their replay), sgf (Pentobi's SGF dialect), share_link (`#game=`
# fragments) and invitation (`#join=` links, typed server addresses).
#
#   fuzz/run.sh [SECONDS] [TARGET…]
#
# Not part of `.ci/run`: it is long, and needs cargo-fuzz (installed from crates.io with
# `cargo install` when missing) and a nightly toolchain (the machine's own `nightly` when rustup
# lists one, else the stable one with RUSTC_BOOTSTRAP=1). Each target's corpus starts from the
# seeds kept in fuzz/seeds/TARGET, copied into fuzz/corpus/TARGET (not kept in git), which grows
# across runs. A finding (a panic, an assertion, a timeout of 10 s or a memory blow-up) stops
# its target with the input saved in fuzz/artifacts/TARGET; the script goes on with the next
# target and fails at the end. Per target it prints the seconds run, the executions, the corpus
# size and the findings.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(protocol record sgf share_link invitation)
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
fi

mkdir -p fuzz/logs
failed=()
summary=()
for target in "${targets[@]}"; do
    corpus="fuzz/corpus/$target"
    mkdir -p "$corpus" "fuzz/artifacts/$target"
    cp -n fuzz/seeds/"$target"/* "$corpus"/
    log="fuzz/logs/$target.log"
    echo "== $target: ${seconds} s, corpus $corpus ($(ls "$corpus" | wc -l) inputs), log $log"
    start=$(date +%s)
    status=0
    "${fuzz[@]}" run "$target" "$corpus" -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    took=$(($(date +%s) - start))
    # libFuzzer's own count: "Done 123 runs in 600 second(s)" (none after a finding).
    fuzzed=$(grep -o 'runs in [0-9]* second' "$log" | grep -o '[0-9]*' | tail -1 || true)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    line="$target: ${fuzzed:-?} s fuzzing (${took} s with the build), ${execs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs, exit $status"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        line="$line, FINDING: $(ls -t "fuzz/artifacts/$target" | head -1) ($(grep -m1 -E 'panicked at|ERROR: libFuzzer|SUMMARY' "$log" || echo see the log))"
    else
        line="$line, no finding"
    fi
    echo "$line"
    summary+=("$line")
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
    echo "findings in: ${failed[*]} (inputs in fuzz/artifacts/)"
    exit 1
fi
