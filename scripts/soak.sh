#!/usr/bin/env bash
# Soak: GAMES consecutive bot games at one table between two long-running processes
# over libp2p on loopback. Prints games per minute, each process's resident memory
# and open file handles at game 10 and at the last game, and whether every
# transcript verifies. Usage: scripts/soak.sh [GAMES] [PATH-TO-ARMADA]
# Loopback only: no discovery, and never the public network.
set -euo pipefail
export ARMADA_NO_PUBLIC=1
games=${1:-1000}
armada=${2:-target/release/armada}
[ -x "$armada" ] || { echo "soak.sh: build first: cargo build --release" >&2; exit 2; }
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT

"$armada" host --no-discovery --no-public --bot medium --games "$games" \
    --listen /ip4/127.0.0.1/tcp/0 --data-dir "$dir/host" > "$dir/host.log" 2>&1 &
host=$!
for _ in $(seq 100); do grep -q '^armada://join/' "$dir/host.log" && break; sleep 0.1; done
link=$(grep -o '^armada://join/.*' "$dir/host.log")
start=$(date +%s.%N)
"$armada" join "$link" --no-discovery --no-public --bot medium --games "$games" \
    --data-dir "$dir/guest" > "$dir/guest.log" 2>&1 &
guest=$!

# sample NAME PID: resident memory (KiB) and open file handles of a process.
sample() {
    local rss fds
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$2/status" 2>/dev/null) || return 1
    fds=$(find "/proc/$2/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    [ -n "$rss" ] && echo "$1 rss_kib=$rss fds=$fds"
}
# Samples while game 10, 100, 500, … and the last game are played (the last one is
# short: sampled as soon as it starts, and at the game before it too).
declare -A seen=()
while kill -0 "$guest" 2>/dev/null; do
    n=$(grep -c '^game [0-9]* started' "$dir/guest.log" || true)
    for mark in 10 100 500 $((games - 1)) "$games"; do
        if [ "$n" -eq "$mark" ] && [ -z "${seen[$mark]:-}" ]; then
            seen[$mark]=1
            if line="game $mark: $(sample host "$host"), $(sample guest "$guest")"; then
                echo "$line" | tee -a "$dir/samples"
            fi
        fi
    done
    sleep 0.01
done
wait "$guest" || { echo "soak.sh: the guest failed" >&2; tail "$dir/guest.log" >&2; exit 1; }
wait "$host" || { echo "soak.sh: the host failed" >&2; tail "$dir/host.log" >&2; exit 1; }
end=$(date +%s.%N)
for side in host guest; do
    "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-$side.log" \
        || { echo "soak.sh: the $side's transcript does not verify honest" >&2; exit 1; }
done
python3 - "$games" "$start" "$end" "$dir/samples" <<'PY'
import re, sys
games, start, end, samples = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
lines = open(samples).read().splitlines()
def rss(line, who):
    return int(re.search(who + r" rss_kib=(\d+)", line).group(1))
lines = [l for l in lines if re.search(r"host rss_kib=\d+.*guest rss_kib=\d+", l)]
first, last = lines[0], lines[-1]
print(f"soak: sampled at {first.split(':')[0]} and {last.split(':')[0]}")
print(f"soak: games={games} minutes={(end - start) / 60:.2f} games_per_min={games / ((end - start) / 60):.1f}")
for who in ("host", "guest"):
    a, b = rss(first, who), rss(last, who)
    fa, fb = (int(re.search(who + r" rss_kib=\d+ fds=(\d+)", l).group(1)) for l in (first, last))
    print(f"soak: {who} rss_kib first={a} last={b} growth={100 * (b - a) / a:.1f}% fds first={fa} last={fb}")
print("soak: both transcripts verify honest")
PY
