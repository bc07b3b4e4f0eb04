#!/usr/bin/env bash
# Fuzz: runs each cargo-fuzz target (fuzz/) for SECONDS, one after the other, and
# prints what libFuzzer reports: executions, executions per second, coverage, corpus.
# Usage: scripts/fuzz.sh TARGET|all SECONDS     (TARGET: wire, session, verifier, invite)
#
# For long local runs: it needs the nightly toolchain and cargo-fuzz
# (`cargo +nightly fuzz`). CI has stable only and replays the checked-in corpus and
# regressions instead: `cargo test --test it fuzz`.
#
# Each target starts from a scratch copy of its checked-in corpus (fuzz/corpus/<t>)
# under fuzz/target/corpus/<t>, which grows across runs and stays out of git. A crash
# is saved in fuzz/artifacts/<t>/: shrink it (`cargo +nightly fuzz tmin -s none <t>
# <file>`), fix the bug, and keep the input in fuzz/regressions/<t>/ under a name that
# says what broke. FUZZ_SANITIZER=address builds with AddressSanitizer (slower; the
# workspace forbids unsafe code, so the default is none). The build and the run are
# niced and use one core.
set -euo pipefail
cd "$(dirname "$0")/.."
all=(wire session verifier invite)
[ $# -eq 2 ] || { echo "usage: $0 TARGET|all SECONDS" >&2; exit 2; }
case $1 in
    all) targets=("${all[@]}") ;;
    wire | session | verifier | invite) targets=("$1") ;;
    *) echo "fuzz.sh: no target $1 (${all[*]})" >&2; exit 2 ;;
esac
seconds=$2
sanitizer=${FUZZ_SANITIZER:-none}

failed=()
for t in "${targets[@]}"; do
    scratch=fuzz/target/corpus/$t
    mkdir -p "$scratch"
    cp -n fuzz/corpus/"$t"/* "$scratch"/ 2>/dev/null || true
    log=fuzz/target/fuzz-$t-$(date -u +%Y%m%dT%H%M%SZ).log
    echo "== $t for ${seconds}s (corpus: $scratch, log: $log)"
    # Inputs up to the largest seed by default; past the frame limit (16,388 bytes) for
    # the decoders, past the invite limit (4,096 and a link's prefix) for invites.
    # The session target runs two whole tables per input and verifies both transcripts
    # at the end, so it is the slow one: its inputs are kept to 512 bytes (a few hundred
    # operations, enough for a game with reconnections), and it is built without
    # compare tracing (1.7x the executions; its input is a sequence of enum choices,
    # where compare operands give the fuzzer little to solve).
    build=()
    case $t in
        wire) max_len=(-max_len=17000) ;;
        invite) max_len=(-max_len=4200) ;;
        session) max_len=(-max_len=512) build=(--no-trace-compares) ;;
        *) max_len=() ;;
    esac
    status=0
    nice -n 10 cargo +nightly fuzz run --sanitizer "$sanitizer" "${build[@]}" "$t" "$scratch" -- \
        -max_total_time="$seconds" -print_final_stats=1 "${max_len[@]}" >"$log" 2>&1 || status=$?
    # The last status line (cov: edges, ft: features, corp: inputs/bytes) and the totals.
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
    if [ "$status" -ne 0 ]; then
        grep -m 1 -A 3 'panicked at' "$log" || true
        grep -E '^artifact_prefix|Test unit written to' "$log" || true
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: failures in ${failed[*]}" >&2
    exit 1
fi
