#!/usr/bin/env bash
# A small simulated internet, all in network namespaces made here, so nothing leaves
# this machine: four `armada relay` nodes (each a DHT server, an AutoNAT server and a
# relay) on a bridge, one player with a public address, and two players each behind
# a home router (MASQUERADE, drops what nobody inside asked for):
#
#   A 192.168.73.2 ── router A 10.73.0.2 ──┐                 ┌── router B 10.73.0.3 ── B 192.168.74.2
#                                          │ 10.73.0.0/24    │
#        seed 10.73.0.11 · relays 10.73.0.12–14 · public player P 10.73.0.20
#
# Every node is told only the seed (`--bootstrap`); the relays join the DHT through
# it, the players find the relays there. Checks:
# - the guard: a node asked for the built-in public bootstrap list refuses to start;
# - P, reachable, learns so from AutoNAT (a relay dialled it back);
# - A, behind NAT, is not confirmed reachable, holds reservations on two relays it
#   found (one at least not the seed), and puts them in its invite;
# - B joins with nothing but the invite and the seed, the punch makes the game
#   direct, and both transcripts verify honest.
# Needs root, ip(8) and iptables(8).
# Usage: internet.sh PATH-TO-ARMADA
set -euo pipefail
# Never the public internet: a node asked for the built-in bootstrap list refuses.
export ARMADA_NO_PUBLIC=1
armada=$1
tag=$$
wan=arm-iw-$tag ra=arm-ira-$tag rb=arm-irb-$tag a=arm-ia-$tag b=arm-ib-$tag p=arm-ip-$tag
relays=(arm-ir1-$tag arm-ir2-$tag arm-ir3-$tag arm-ir4-$tag)
all=("$a" "$b" "$p" "$ra" "$rb" "${relays[@]}" "$wan")
dir=$(mktemp -d)
cleanup() {
    for ns in "${all[@]}"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
    [ -n "${KEEP:-}" ] && echo "kept $dir" >&2 || rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "internet.sh: $*" >&2
    for f in "$dir"/*.log; do echo "== $f" >&2; cat "$f" >&2; done
    exit 1
}

for ns in "${all[@]}"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
done
ip -n "$wan" link add br0 type bridge
ip -n "$wan" link set br0 up
n=0
# link NS-A DEV-A NS-B DEV-B: a veth pair between two namespaces.
link() {
    n=$((n + 1))
    ip link add "x$tag-$n" type veth peer name "y$tag-$n"
    ip link set "x$tag-$n" netns "$1"
    ip link set "y$tag-$n" netns "$3"
    ip -n "$1" link set "x$tag-$n" name "$2"
    ip -n "$3" link set "y$tag-$n" name "$4"
    ip -n "$1" link set "$2" up
    ip -n "$3" link set "$4" up
}
# on_wan NS DEV ADDRESS: NS's DEV on the bridge at ADDRESS.
on_wan() {
    local port=p$((n + 1))
    link "$1" "$2" "$wan" "$port"
    ip -n "$wan" link set "$port" master br0
    ip -n "$1" addr add "$3/24" dev "$2"
}
for i in 0 1 2 3; do on_wan "${relays[$i]}" eth0 "10.73.0.$((11 + i))"; done
on_wan "$p" eth0 10.73.0.20
on_wan "$ra" wan0 10.73.0.2
on_wan "$rb" wan0 10.73.0.3
# router NS LAN-NET: a home router with NAT that drops what nobody inside asked for.
router() {
    ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1
    ip -n "$1" addr add "$2.1/24" dev lan0
    ip netns exec "$1" iptables -t nat -A POSTROUTING -o wan0 -j MASQUERADE
    for chain in FORWARD INPUT; do
        ip netns exec "$1" iptables -A "$chain" -i wan0 -m conntrack \
            --ctstate ESTABLISHED,RELATED -j ACCEPT
        ip netns exec "$1" iptables -A "$chain" -i wan0 -j DROP
    done
}
link "$a" eth0 "$ra" lan0
link "$b" eth0 "$rb" lan0
router "$ra" 192.168.73
router "$rb" 192.168.74
ip -n "$a" addr add 192.168.73.2/24 dev eth0
ip -n "$b" addr add 192.168.74.2/24 dev eth0
ip -n "$a" route add default via 192.168.73.1
ip -n "$b" route add default via 192.168.74.1

# The guard: the built-in list (what a player gets with no --bootstrap) is refused
# at once, before anything is dialled.
if ip netns exec "$a" timeout 30 "$armada" host --no-discovery --bot easy \
    --data-dir "$dir/guarded" > "$dir/guard.log" 2>&1; then
    fail "a node started on the built-in public bootstrap list"
fi
grep -q -- '--no-public' "$dir/guard.log" || fail "the guard did not say why it refused"

# The seed first (it joins nobody), then the other relays through it.
line_of() { grep -o "^relay at /ip4/$2/tcp/.*" "$dir/$1.log" | head -1 | cut -d' ' -f3; }
start_relay() {
    local i=$1
    shift
    ip netns exec "${relays[$i]}" "$armada" relay --data-dir "$dir/relay$i" "$@" \
        > "$dir/relay$i.log" 2>&1 &
    for _ in $(seq 300); do
        [ -n "$(line_of "relay$i" "10.73.0.$((11 + i))")" ] && return
        sleep 0.1
    done
    fail "relay $i did not start"
}
start_relay 0 --no-public
seed=$(line_of relay0 10.73.0.11)
for i in 1 2 3; do start_relay "$i" --bootstrap "$seed"; done
seed_id=${seed##*/}

# host NS NAME ARGS…: a table host in NS on the simulated internet; output in NAME.log.
host() {
    local ns=$1 name=$2
    shift 2
    ip netns exec "$ns" "$armada" host --no-discovery --bootstrap "$seed" \
        --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1" \
        --data-dir "$dir/$name" "$@" > "$dir/$name.log" 2>&1 &
    for _ in $(seq 600); do grep -q '^armada://join/' "$dir/$name.log" && break; sleep 0.1; done
    grep -q '^armada://join/' "$dir/$name.log" || fail "the host $name did not open its table"
}

# P has a public address: AutoNAT confirms it, and it needs no relay.
host "$p" public-host --bot easy
grep -q '^reachable directly at /ip4/10.73.0.20/' "$dir/public-host.log" \
    || fail "the public player was not confirmed reachable"
ip netns pids "$p" | xargs -r kill -9

# A is behind NAT: not confirmed reachable; two relays found through the DHT.
for attempt in 1 2 3; do
    host "$a" nat-host --bot medium
    grep -q '^reachable directly' "$dir/nat-host.log" \
        && fail "a player behind NAT was told it is reachable directly"
    grep -q '^reachable through 2 relay(s) found on the public network' "$dir/nat-host.log" \
        || fail "the host behind NAT did not find two relays"
    found=$(grep -o '/p2p/[^/]*/p2p-circuit' "$dir/nat-host.log" | sort -u | wc -l)
    [ "$found" -ge 2 ] || fail "the invite's relayed addresses go through $found relays, not 2"
    grep '^address: .*/p2p-circuit' "$dir/nat-host.log" | grep -vq "/p2p/$seed_id/p2p-circuit" \
        || fail "every relay in the invite is the seed: none was found through the DHT"
    link=$(grep -o '^armada://join/.*' "$dir/nat-host.log")
    ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery \
        --bootstrap "$seed" --bot easy \
        --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1" \
        --data-dir "$dir/nat-guest" > "$dir/nat-guest.log" 2>&1 \
        || fail "the guest did not finish"
    for _ in $(seq 300); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done
    grep -q '^table over: 1 game' "$dir/nat-host.log" || fail "the host did not finish"
    grep -q 'reached the host through a relay' "$dir/nat-guest.log" \
        || fail "the guest did not come through a relay"
    for side in nat-host nat-guest; do
        "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-$attempt-$side.log" \
            || fail "the transcript in $side (attempt $attempt) does not verify honest"
    done
    # A punch is a race against the clock: beside the whole test suite on two cores
    # it can miss (the game is then played relayed, as it should be).
    case $(grep '^connection: ' "$dir/nat-guest.log" | tail -1) in
    "connection: direct /ip4/10.73.0."[23]/*) break ;;
    *) [ "$attempt" -lt 3 ] || fail "three punches missed" ;;
    esac
    echo "internet.sh: attempt $attempt: the punch missed; that game was played relayed" >&2
    for side in nat-host nat-guest; do
        mv "$dir/$side" "$dir/missed$attempt-$side"
        mv "$dir/$side.log" "$dir/missed$attempt-$side.log"
    done
done
echo "internet.sh: guard held; public player confirmed by AutoNAT; NATed host found" \
    "$found relays through the DHT; punched through, played direct, honest"
