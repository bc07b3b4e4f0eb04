#!/usr/bin/env bash
# Two hosts on one LAN — a veth pair between two network namespaces made here, so no
# multicast leaves them: a host opens a `--lan` table; `armada lan` on the other host
# finds it by mDNS and shows its invite; that host joins with it and the game ends
# honest on both sides. Then a host off the public network shows a short code, and
# the other host joins by the code alone (its number found in the LAN offer); the same
# for an Archimedes table, by invite and by code, not told the game. Needs
# root and ip(8). Usage: lan.sh PATH-TO-ARMADA
set -euo pipefail
script=lan.sh
# shellcheck source=tests/netns/common.sh
. "$(dirname "$0")/common.sh"
armada=$1
a=armada-lan-a-$tag
b=armada-lan-b-$tag
namespaces "$a" "$b"
link "$a" la "$b" lb
ip -n "$a" addr add 10.201.0.1/24 dev la
ip -n "$b" addr add 10.201.0.2/24 dev lb

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
honest a b
echo "lan.sh: found by mDNS, joined without a code, finished honest"

# A table off the public network shows a short code anyway: its number is in the
# host's answer to LAN queries, and a guest that is given the code finds it there.
ip netns exec "$a" "$armada" host --no-public --bot medium --listen /ip4/10.201.0.1/tcp/0 \
    --data-dir "$dir/c" > "$dir/code-host.log" 2>&1 &
host=$!
for _ in $(seq 50); do grep -q '^armada://join/' "$dir/code-host.log" && break; sleep 0.1; done
code=$(grep -A1 '^table open. Read this code' "$dir/code-host.log" | tail -1 | tr -d ' ')
[ -n "$code" ] || fail "the host off the public network showed no short code on the LAN"
grep -q '^(the public network is off: the code is found on this LAN only)' "$dir/code-host.log" \
    || fail "the host off the public network did not say its code is for the LAN only"
ip netns exec "$b" timeout 120 "$armada" join "$code" --no-public --bot easy \
    --listen /ip4/10.201.0.2/tcp/0 --data-dir "$dir/d" > "$dir/code-guest.log" 2>&1 \
    || fail "the guest given the short code $code did not finish"
grep -q 'the host took the code' "$dir/code-guest.log" || fail "no handshake by code"
wait "$host" || fail "the short code's host did not finish"
honest c d
echo "lan.sh: joined by the short code $code on the LAN, finished honest"

# An Archimedes table on the LAN: `armada lan` names its game and board, and the
# guest joins with the invite it shows, not told the game.
ip netns exec "$a" "$armada" host --lan --no-public --game archimedes --size 6 --bot medium \
    --listen /ip4/10.201.0.1/tcp/0 --data-dir "$dir/e" > "$dir/arch-host.log" 2>&1 &
host=$!
for _ in $(seq 50); do grep -q '^armada://join/' "$dir/arch-host.log" && break; sleep 0.1; done
grep -q '^armada://join/' "$dir/arch-host.log" || fail "the Archimedes host did not open its table"
ip netns exec "$b" "$armada" lan --wait 3 --listen /ip4/10.201.0.2/tcp/0 \
    --data-dir "$dir/f" > "$dir/arch-lan.log" 2>&1 || fail "armada lan failed"
link=$(grep '^Archimedes 6×6 table of ' "$dir/arch-lan.log" | grep -o 'armada://join/[A-Za-z0-9_-]*' | head -1)
[ -n "$link" ] || fail "armada lan did not name the Archimedes 6×6 table"
ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery --no-public --bot easy \
    --listen /ip4/10.201.0.2/tcp/0 --data-dir "$dir/f" > "$dir/arch-guest.log" 2>&1 \
    || fail "the Archimedes guest did not finish"
grep -q 'game 1 started' "$dir/arch-guest.log" || fail "the guest played no Archimedes game"
wait "$host" || fail "the Archimedes host did not finish"
honest e f
grep -q 'Archimedes' "$dir/verify-f.log" || fail "the guest's transcript is not an Archimedes table"
echo "lan.sh: an Archimedes table found by mDNS, joined, finished honest"

# And by its short code alone.
ip netns exec "$a" "$armada" host --no-public --game archimedes --size 6 --bot hard \
    --listen /ip4/10.201.0.1/tcp/0 --data-dir "$dir/g" > "$dir/arch-code-host.log" 2>&1 &
host=$!
for _ in $(seq 50); do grep -q '^armada://join/' "$dir/arch-code-host.log" && break; sleep 0.1; done
code=$(grep -A1 '^table open. Read this code' "$dir/arch-code-host.log" | tail -1 | tr -d ' ')
[ -n "$code" ] || fail "the Archimedes host showed no short code on the LAN"
ip netns exec "$b" timeout 120 "$armada" join "$code" --no-public --bot insane \
    --listen /ip4/10.201.0.2/tcp/0 --data-dir "$dir/h" > "$dir/arch-code-guest.log" 2>&1 \
    || fail "the Archimedes guest given the short code $code did not finish"
grep -q 'game 1 started' "$dir/arch-code-guest.log" || fail "no Archimedes game by code"
wait "$host" || fail "the Archimedes short code's host did not finish"
honest g h
echo "lan.sh: an Archimedes table joined by the short code $code, finished honest"
