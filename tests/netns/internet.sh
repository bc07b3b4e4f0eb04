#!/usr/bin/env bash
# A small simulated internet, all in network namespaces made here, so nothing leaves
# this machine: eight `armada relay` nodes (each a DHT server, an AutoNAT server and
# a relay, with circuits limited as the public network's relays limit theirs), one
# player with a public address, and two players each behind a home router
# (MASQUERADE, drops what nobody inside asked for: "cone" NAT):
#
#   A 192.168.73.2 ── router A 10.73.0.2 ──┐                 ┌── router B 10.73.0.3 ── B 192.168.74.2
#                                          │ 10.73.0.0/24    │
#        seed 10.73.0.11 · relays 10.73.0.12–18 · public player P 10.73.0.20
#
# Every node is told only the seed (`--bootstrap`); the relays join the DHT through
# it, the players find the relays there. Checks:
# - the guard: a test build asked for the built-in public bootstrap list refuses;
# - P, reachable, learns so from AutoNAT (a relay dialled it back);
# - negative control: B cannot reach A at A's own addresses (no relay);
# - A, behind NAT, is not confirmed reachable, holds reservations on two relays it
#   found (one at least not the seed), and puts them in its invite; B joins with
#   nothing but the invite and the seed; ten such tables, at least nine end direct
#   (punched), every transcript honest; the time from join to the game's start and
#   the share of direct tables are printed;
# - three more tables joined by the short code alone (its number found in the DHT);
# - no relay anywhere (the host off the public network): the guest gets one clear
#   sentence within a bounded time.
# Needs root, ip(8) and iptables(8).
# Usage: internet.sh PATH-TO-ARMADA
set -euo pipefail
script=internet.sh
# shellcheck source=tests/netns/common.sh
. "$(dirname "$0")/common.sh"
armada=$1
wan=arm-iw-$tag ra=arm-ira-$tag rb=arm-irb-$tag a=arm-ia-$tag b=arm-ib-$tag p=arm-ip-$tag
relays=()
for i in 0 1 2 3 4 5 6 7; do relays+=("arm-ir$i-$tag"); done
namespaces "$wan" "${relays[@]}" "$p" "$ra" "$rb" "$a" "$b"
bridge "$wan"
for i in 0 1 2 3 4 5 6 7; do on_wan "${relays[$i]}" eth0 "10.73.0.$((11 + i))/24"; done
on_wan "$p" eth0 10.73.0.20/24
on_wan "$ra" wan0 10.73.0.2/24
on_wan "$rb" wan0 10.73.0.3/24
home "$a" "$ra" 192.168.73
home "$b" "$rb" 192.168.74

# The guard: the built-in list (what a player gets with no --bootstrap, and without
# ARMADA_NO_PUBLIC) is refused by a test build at once, before anything is dialled.
if ip netns exec "$a" env -u ARMADA_NO_PUBLIC timeout 30 "$armada" host --no-discovery --bot easy \
    --data-dir "$dir/guarded" > "$dir/guard.log" 2>&1; then
    fail "a node started on the built-in public bootstrap list"
fi
grep -q -- '--no-public' "$dir/guard.log" || fail "the guard did not say why it refused"

# The seed first (it joins nobody), then the other relays through it.
line_of() { grep -o "^relay at /ip4/$2/tcp/.*" "$dir/$1.log" | head -1 | cut -d' ' -f3; }
start_relay() {
    local i=$1
    shift
    ip netns exec "${relays[$i]}" "$armada" relay --data-dir "$dir/relay$i" \
        --circuit-secs 120 --circuit-bytes 131072 "$@" \
        > "$dir/relay$i.log" 2>&1 &
    for _ in $(seq 300); do
        [ -n "$(line_of "relay$i" "10.73.0.$((11 + i))")" ] && return
        sleep 0.1
    done
    fail "relay $i did not start"
}
start_relay 0 --no-public
seed=$(line_of relay0 10.73.0.11)
for i in 1 2 3 4 5 6 7; do start_relay "$i" --bootstrap "$seed"; done
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

# P has a public address: AutoNAT confirms it (said when a relay's dial-back
# succeeds, which a loaded machine may take past the invite to see).
host "$p" public-host --bot easy
for _ in $(seq 600); do
    grep -q '^reachable directly at /ip4/10.73.0.20/' "$dir/public-host.log" && break
    sleep 0.1
done
grep -q '^reachable directly at /ip4/10.73.0.20/' "$dir/public-host.log" \
    || fail "the public player was not confirmed reachable"
ip netns pids "$p" | xargs -r kill -9

# guest NAME LINK ARGS…: B joins LINK as a computer player (its output in NAME.log),
# then waits for A's host to end; sets `waited` to the milliseconds from the join to
# the game's start.
guest() {
    local name=$1 link=$2
    shift 2
    local start
    start=$(date +%s%N)
    ip netns exec "$b" timeout 120 "$armada" join "$link" --no-discovery --bot easy \
        --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1" \
        --data-dir "$dir/$name" "$@" > "$dir/$name.log" 2>&1 &
    local pid=$! at=
    while kill -0 "$pid" 2>/dev/null; do
        if [ -z "$at" ] && grep -q '^game 1 started' "$dir/$name.log"; then at=$(date +%s%N); fi
        sleep 0.05
    done
    wait "$pid" || fail "the guest $name did not finish"
    [ -n "$at" ] || at=$(date +%s%N)
    waited=$(((at - start) / 1000000))
    for _ in $(seq 300); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done
}

# direct NAME: the guest NAME's table ended on a direct connection to A's router.
direct() {
    case $(grep '^connection: ' "$dir/$1.log" | tail -1) in
    "connection: direct /ip4/10.73.0."[23]/*) return 0 ;;
    *) return 1 ;;
    esac
}

# Negative control: without a relay, B cannot reach A at any address A has.
host "$a" control-host --bot easy
link=$(grep -o '^armada://join/.*' "$dir/control-host.log")
if ip netns exec "$b" timeout 60 "$armada" join "$link" --no-relay --no-discovery --no-public \
    --bot easy --data-dir "$dir/control-guest" > "$dir/control-guest.log" 2>&1; then
    fail "B reached A directly without a relay: the NAT does not drop unsolicited traffic"
fi
grep -q 'nobody answers at that invite' "$dir/control-guest.log" || fail "the direct dial failed, but not for want of a route"
ip netns pids "$a" | xargs -r kill -9
for _ in $(seq 100); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done

# A is behind NAT: not confirmed reachable; two relays found through the DHT. Ten
# tables, the guest given the invite and the seed only.
direct=0 times=()
for table in 1 2 3 4 5 6 7 8 9 10; do
    host "$a" "host$table" --bot medium
    log=$dir/host$table.log
    grep -q '^reachable directly' "$log" && fail "a player behind NAT was told it is reachable directly"
    grep -q '^reachable through 2 relay(s) found on the public network' "$log" \
        || fail "the host behind NAT did not find two relays (table $table)"
    found=$(grep -o '/p2p/[^/]*/p2p-circuit' "$log" | sort -u | wc -l)
    [ "$found" -ge 2 ] || fail "the invite's relayed addresses go through $found relays, not 2"
    grep '^address: .*/p2p-circuit' "$log" | grep -vq "/p2p/$seed_id/p2p-circuit" \
        || fail "every relay in the invite is the seed: none was found through the DHT"
    guest "guest$table" "$(grep -o '^armada://join/.*' "$log")" --bootstrap "$seed"
    times+=("$waited")
    grep -q '^table over: 1 game' "$log" || fail "the host of table $table did not finish"
    grep -q 'reached the host through a relay' "$dir/guest$table.log" \
        || fail "the guest of table $table did not come through a relay"
    honest "host$table" "guest$table"
    grep -q '^reachable directly' "$log" && fail "a player behind NAT was told later it is reachable directly"
    if direct "guest$table"; then
        direct=$((direct + 1))
    else
        echo "internet.sh: table $table: the punch missed; that game was played relayed" >&2
    fi
done
[ "$direct" -ge 9 ] || fail "only $direct of 10 tables were punched direct"
sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 5p)
echo "internet.sh: $direct of 10 tables direct; join to game start (ms): median $median; all: $sorted"

# Three more tables, the guest given only the short code a person would read out
# (and the seed): B finds A's provider record in the DHT by the code's number, dials
# it through A's relays, and proves the words.
code_direct=0 code_times=()
for table in 1 2 3; do
    host "$a" "code-host$table" --bot medium
    log=$dir/code-host$table.log
    code=$(grep -A1 '^table open. Read this code' "$log" | tail -1 | tr -d ' ')
    [ -n "$code" ] || fail "the host behind NAT showed no short code (table $table)"
    guest "code-guest$table" "$code" --bootstrap "$seed"
    code_times+=("$waited")
    grep -q 'the host took the code' "$dir/code-guest$table.log" \
        || fail "the guest of code table $table was not admitted by the code"
    grep -q '^table over: 1 game' "$log" || fail "the host of code table $table did not finish"
    honest "code-host$table" "code-guest$table"
    if direct "code-guest$table"; then code_direct=$((code_direct + 1)); fi
done
echo "internet.sh: 3 tables joined by short code across two NATs, $code_direct direct;" \
    "code to game start (ms): $(printf '%s ' "${code_times[@]}")"

# No relay anywhere: a host off the public network, behind NAT. The guest gets a
# clear sentence, and within a bounded time.
ip netns exec "$a" "$armada" host --no-discovery --no-public --bot easy \
    --data-dir "$dir/lonely-host" > "$dir/lonely-host.log" 2>&1 &
for _ in $(seq 300); do grep -q '^armada://join/' "$dir/lonely-host.log" && break; sleep 0.1; done
link=$(grep -o '^armada://join/.*' "$dir/lonely-host.log") || fail "the lonely host did not open its table"
start=$(date +%s)
if ip netns exec "$b" timeout 60 "$armada" join "$link" --no-discovery --bootstrap "$seed" \
    --bot easy --data-dir "$dir/lonely-guest" > "$dir/lonely-guest.log" 2>&1; then
    fail "B reached a host behind NAT with no relay"
fi
took=$(($(date +%s) - start))
[ "$took" -lt 60 ] || fail "the guest hung for want of a relay"
grep -q 'no relay' "$dir/lonely-guest.log" || fail "the guest's error does not say there is no relay"
echo "internet.sh: no relay anywhere: the guest said so in $took s: $(head -1 "$dir/lonely-guest.log" | cut -c1-200)"
echo "internet.sh: guard held; public player confirmed by AutoNAT; the NATed host found" \
    "relays through the DHT; $direct of 10 tables punched direct, all honest"
