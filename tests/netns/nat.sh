#!/usr/bin/env bash
# Two hosts, each behind its own NAT router, and a relay on the "internet" between
# them — all in network namespaces made here, so nothing leaves this machine:
#
#   host A 192.168.71.2 ── router A ──┐                      ┌── router B ── host B 192.168.72.2
#                    (MASQUERADE, drops│  10.71.0.0/24 bridge │ (MASQUERADE, drops
#                     unsolicited in)  └─── relay 10.71.0.1 ──┘  unsolicited in)
#
# Negative control first: B cannot reach A directly, not even at the address the
# relay sees A at. Then B joins A's table through the relay, hole punching (DCUtR)
# makes the connection direct, the game is played on it to the end, and both
# transcripts verify honest. Then, on a relay whose circuits last 3 s: a punch that
# misses at first (the routers cannot reach each other yet) is tried again on a
# fresh circuit and the table ends direct; and both routers turn "symmetric" (a
# fresh random port per connection, so no hole can be punched) and the games are
# played through the relay to the end, moving from circuit to circuit.
# Needs root, ip(8) and iptables(8).
# Usage: nat.sh PATH-TO-ARMADA
set -euo pipefail
script=nat.sh
# shellcheck source=tests/netns/common.sh
. "$(dirname "$0")/common.sh"
armada=$1
wan=arm-wan-$tag relay=arm-rl-$tag ra=arm-ra-$tag rb=arm-rb-$tag a=arm-a-$tag b=arm-b-$tag
# Waits below allow 30 s: the script runs beside the whole test suite on two cores.
namespaces "$wan" "$relay" "$ra" "$rb" "$a" "$b"
# The internet: a bridge in its own namespace; the relay and both routers' WAN ports.
bridge "$wan"
on_wan "$relay" eth0 10.71.0.1/24
on_wan "$ra" wan0 10.71.0.2/24
on_wan "$rb" wan0 10.71.0.3/24
home "$a" "$ra" 192.168.71
home "$b" "$rb" 192.168.72

# The relay at its defaults: TCP and QUIC on port 4001. It prints a line for each.
ip netns exec "$relay" "$armada" relay --no-public --data-dir "$dir/relay" > "$dir/relay.log" 2>&1 &
relay_line() { grep -o "^relay at /ip4/10.71.0.1/$1/.*" "$dir/relay.log" | head -1 | cut -d' ' -f3; }
for _ in $(seq 300); do
    [ -n "$(relay_line tcp)" ] && [ -n "$(relay_line udp)" ] && break
    sleep 0.1
done
relay_tcp=$(relay_line tcp) relay_quic=$(relay_line udp)
[ -n "$relay_tcp" ] && [ -n "$relay_quic" ] || fail "the relay did not start on TCP and QUIC"
relay_addr=$relay_tcp

# host NAME ARGS…: a table host on A, reachable through the relay; its output goes to
# NAME.log, its data to NAME/.
host() {
    local name=$1 log=$1.log
    shift
    ip netns exec "$a" "$armada" host --no-discovery --no-public --relay "$relay_addr" \
        --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1" \
        --data-dir "$dir/$name" "$@" > "$dir/$log" 2>&1 &
    for _ in $(seq 300); do grep -q '^armada://join/' "$dir/$log" && break; sleep 0.1; done
    grep -q '^armada://join/' "$dir/$log" || fail "the host $name did not open its table"
}

# guest NAME LINK ARGS…: B joins LINK as a computer player; its output goes to
# NAME.log, its data to NAME/. Then waits for the host's process on A to end.
guest() {
    local name=$1 link=$2
    shift 2
    ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery --no-public --bot easy \
        --data-dir "$dir/$name" "$@" > "$dir/$name.log" 2>&1 \
        || fail "the guest $name did not finish"
    for _ in $(seq 300); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done
}

# Negative control: the relay sees A at its router's address; B dialling A there
# (and at its private addresses) without the relay must fail.
host control-host --bot easy
grep -q '^address: /ip4/10.71.0.2/' "$dir/control-host.log" \
    || fail "the invite lacks the address the relay sees the host at"
link=$(grep -o '^armada://join/.*' "$dir/control-host.log")
if ip netns exec "$b" timeout 60 "$armada" join "$link" --no-relay --no-discovery --no-public \
    --bot easy --data-dir "$dir/control-b" > "$dir/control-guest.log" 2>&1; then
    fail "B reached A directly without the relay: the NAT does not drop unsolicited traffic"
fi
grep -q 'nobody answers at that invite' "$dir/control-guest.log" \
    || fail "the direct dial failed, but not for want of a route"
ip netns pids "$a" | xargs -r kill -9

# The game: B joins A through the relay; hole punching makes it direct — with the
# host given the relay's TCP line, and again with its QUIC line (the guest reaches
# the relay by whichever the invite offers first). A punch is a race against the
# clock (both sides dial at once, timed by a measured round trip), and beside the
# whole test suite on two cores it can miss: the game is then played through the
# relay to the end, as it should be. Such a table is checked (finished, honest), set
# aside, and the punch tried again at a fresh table, three times at most.
for line in tcp quic; do
    if [ "$line" = tcp ]; then relay_addr=$relay_tcp; else relay_addr=$relay_quic; fi
    for attempt in 1 2 3; do
        host "$line-host" --bot medium --games 2
        link=$(grep -o '^armada://join/.*' "$dir/$line-host.log")
        guest "$line-guest" "$link" --games 2 \
            --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1"
        grep -q '^table over: 2 game' "$dir/$line-host.log" || fail "the host did not finish ($line)"
        grep -q 'reached the host through a relay' "$dir/$line-guest.log" \
            || fail "the guest did not come through the relay ($line)"
        case $(grep '^connection: ' "$dir/$line-guest.log" | tail -1) in
        "connection: relayed "*/p2p-circuit*) [ "$attempt" -lt 3 ] || break ;;
        *) break ;;
        esac
        echo "nat.sh: $line attempt $attempt: the punch missed; that game was played through the relay" >&2
        for side in "$line-host" "$line-guest"; do
            "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-missed$attempt-$side.log" \
                || fail "the relayed table of attempt $attempt ($side) does not verify honest"
            mv "$dir/$side" "$dir/missed$attempt-$side"
            mv "$dir/$side.log" "$dir/missed$attempt-$side.log"
        done
    done
    for log in "$line-host.log" "$line-guest.log"; do
        last=$(grep '^connection: ' "$dir/$log" | tail -1)
        case $last in
        "connection: direct "*/p2p-circuit*) fail "$log: $last" ;;
        "connection: direct /ip4/10.71.0."[23]/*"(hole punched)") ;;
        *) fail "$log: the game's connection did not become direct by a punch (${last:-none})" ;;
        esac
    done
done

# From here on the relay's circuits last 3 seconds and carry 32 KiB each way at
# most, as the public network's relays limit theirs (to 2 minutes and 128 KiB),
# scaled down: a table must move from circuit to circuit.
ip netns pids "$relay" | xargs -r kill -9
for _ in $(seq 100); do ip netns pids "$relay" | grep -q . || break; sleep 0.1; done
ip netns exec "$relay" "$armada" relay --no-public --data-dir "$dir/relay" \
    --circuit-secs 3 --circuit-bytes 32768 > "$dir/limited-relay.log" 2>&1 &
for _ in $(seq 300); do grep -q '^relay at /ip4/10.71.0.1/udp/' "$dir/limited-relay.log" && break; sleep 0.1; done

# A missed punch is tried again on the next circuit: the two routers cannot reach
# each other at first (so the punch fails and the table starts relayed), then can.
block() {
    ip netns exec "$ra" iptables "$1" FORWARD -i wan0 -s 10.71.0.3 -j DROP
    ip netns exec "$rb" iptables "$1" FORWARD -i wan0 -s 10.71.0.2 -j DROP
}
block -I
export ARMADA_LOG=armada=info
host retry-host --bot medium --games 3
link=$(grep -o '^armada://join/.*' "$dir/retry-host.log")
ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery --no-public --bot easy \
    --games 3 --data-dir "$dir/retry-guest" > "$dir/retry-guest.log" 2>&1 &
guest_pid=$!
for _ in $(seq 300); do grep -q 'playing through the relay' "$dir/retry-guest.log" && break; sleep 0.1; done
grep -q 'playing through the relay' "$dir/retry-guest.log" \
    || fail "the guest did not start relayed while the routers could not reach each other"
block -D
wait "$guest_pid" || fail "the retry guest did not finish"
unset ARMADA_LOG
for _ in $(seq 300); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done
grep -q '^table over: 3 game' "$dir/retry-host.log" || fail "the retry host did not finish"
case $(grep '^connection: ' "$dir/retry-guest.log" | tail -1) in
"connection: direct /ip4/10.71.0.2/"*) ;;
*) fail "a punch missed at first was not tried again: the table stayed relayed" ;;
esac

# No hole can be punched through routers that map each connection to a random port:
# the games are played through the relay, from circuit to circuit.
for r in "$ra" "$rb"; do
    ip netns exec "$r" iptables -t nat -F POSTROUTING
    ip netns exec "$r" iptables -t nat -A POSTROUTING -o wan0 -j MASQUERADE --random-fully
done
# Both sides log their circuits and punches (stderr, in their logs).
export ARMADA_LOG=armada=info
host relayed-host --bot medium --games 3
link=$(grep -o '^armada://join/.*' "$dir/relayed-host.log")
started=$(date +%s)
guest relayed-guest "$link" --games 3
unset ARMADA_LOG
took=$(($(date +%s) - started))
grep -q '^table over: 3 game' "$dir/relayed-host.log" || fail "the relayed host did not finish"
# It outlived three circuits and carried more than two circuits' bytes each way (the
# transcript holds every frame of both sides, about what crossed each way twice),
# renewing them before their time ran out or when the relay cut one at its byte
# limit; no frame was lost or signed twice (both transcripts verify honest, below).
moved=$(grep -c 'moved to a fresh circuit' "$dir/relayed-guest.log" || true)
cut=$(grep -c '^link lost' "$dir/relayed-guest.log" || true)
bytes=$(stat -c %s "$dir"/relayed-host/tables/*.armada)
echo "nat.sh: symmetric NAT, 3 s / 32 KiB circuits: 3 games in $took s, $moved circuits" \
    "renewed ahead of their limit, $cut links cut and resumed, about $((bytes / 2048)) KiB each way" >&2
[ $((moved + cut)) -ge 3 ] || fail "the table did not outlive three circuits"
[ $((bytes / 2)) -gt $((2 * 32768)) ] || fail "the table carried less than two circuits' bytes"
grep -q 'playing through the relay' "$dir/relayed-guest.log" \
    || fail "the guest did not say it plays through the relay"
for log in relayed-host.log relayed-guest.log; do
    grep -q '^connection: relayed .*/p2p-circuit.*(via .*; limited: renewing)' "$dir/$log" \
        || fail "$log: the game did not go through the relay, said to be limited"
    if grep -q '^connection: direct' "$dir/$log"; then
        fail "$log: a hole was punched through a symmetric NAT?"
    fi
done

honest tcp-host tcp-guest quic-host quic-guest retry-host retry-guest relayed-host relayed-guest
echo "nat.sh: direct dial refused by NAT; relayed (host on the relay's TCP line, then its" \
    "QUIC line), punched through, played direct, honest; a missed punch tried again and" \
    "made direct; through symmetric NAT played relayed from circuit to circuit, honest"
