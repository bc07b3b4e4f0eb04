#!/usr/bin/env bash
# Chaos on the link, the long run: TABLES tables of GAMES bot games each (10 × 10 by
# default) through the test proxy that delays, stalls and cuts the connection.
# `cargo test` runs the same test with 2 × 4. Usage: scripts/chaos.sh [TABLES] [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
ARMADA_CHAOS_TABLES=${1:-10} ARMADA_CHAOS_GAMES=${2:-10} \
    cargo test --test it chaos -- --nocapture
