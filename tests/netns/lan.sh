#!/usr/bin/env bash
# Two hosts on one LAN — a veth pair between two network namespaces made here, so no
# multicast leaves them: a host opens a `--lan` table; `armada lan` on the other host
# finds it by mDNS and shows its invite; that host joins with it and the game ends
# honest on both sides. Needs root and ip(8). Usage: lan.sh PATH-TO-ARMADA
set -euo pipefail
# Never the public internet: a node started without --bootstrap stays off it.
export ARMADA_NO_PUBLIC=1
armada=$1
tag=$$
a=armada-lan-a-$tag
b=armada-lan-b-$tag
dir=$(mktemp -d)
cleanup() {
    for ns in "$a" "$b"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "lan.sh: $*" >&2; for f in "$dir"/*.log; do echo "== $f" >&2; cat "$f" >&2; done; exit 1; }

ip netns add "$a"
ip netns add "$b"
ip link add "la$tag" type veth peer name "lb$tag"
ip link set "la$tag" netns "$a"
ip link set "lb$tag" netns "$b"
ip -n "$a" addr add 10.201.0.1/24 dev "la$tag"
ip -n "$b" addr add 10.201.0.2/24 dev "lb$tag"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "la$tag" up
ip -n "$b" link set "lb$tag" up

ip netns exec "$a" "$armada" host --lan --no-public --bot medium --listen /ip4/10.201.0.1/tcp/0 \
    --data-dir "$dir/a" > "$dir/host.log" 2>&1 &
host=$!
for _ in $(seq 50); do grep -q '^armada://join/' "$dir/host.log" && break; sleep 0.1; done
grep -q '^armada://join/' "$dir/host.log" || fail "the host did not open its table"

ip netns exec "$b" "$armada" lan --wait 3 --listen /ip4/10.201.0.2/tcp/0 \
    --data-dir "$dir/b" > "$dir/lan.log" 2>&1 || fail "armada lan failed"
link=$(grep -o 'armada://join/[A-Za-z0-9_-]*' "$dir/lan.log" | head -1)
[ -n "$link" ] || fail "armada lan did not find the table"

ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery --no-public --bot easy \
    --listen /ip4/10.201.0.2/tcp/0 --data-dir "$dir/b" > "$dir/guest.log" 2>&1 \
    || fail "the guest did not finish"
wait "$host" || fail "the host did not finish"
for side in a b; do
    "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-$side.log" \
        || fail "the $side side's transcript does not verify honest"
done
echo "lan.sh: found by mDNS, joined without a code, finished honest"

# A table off the public network shows a short code anyway: its number is in the
# host's answer to LAN queries, and a guest that is given the code finds it there.
ip netns exec "$a" "$armada" host --no-public --bot medium --listen /ip4/10.201.0.1/tcp/0 \
    --data-dir "$dir/c" > "$dir/code-host.log" 2>&1 &
host=$!
for _ in $(seq 50); do grep -q '^armada://join/' "$dir/code-host.log" && break; sleep 0.1; done
code=$(grep -A1 '^table open. Read this code' "$dir/code-host.log" | tail -1 | tr -d ' ')
[ -n "$code" ] || fail "the host off the public network showed no short code on the LAN"
ip netns exec "$b" timeout 120 "$armada" join "$code" --no-public --bot easy \
    --listen /ip4/10.201.0.2/tcp/0 --data-dir "$dir/d" > "$dir/code-guest.log" 2>&1 \
    || fail "the guest given the short code $code did not finish"
grep -q 'the host took the code' "$dir/code-guest.log" || fail "no handshake by code"
wait "$host" || fail "the short code's host did not finish"
for side in c d; do
    "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-$side.log" \
        || fail "the $side side's transcript does not verify honest"
done
echo "lan.sh: joined by the short code $code on the LAN, finished honest"
