# Shared by the namespace scripts (sourced, not run): namespaces made and removed,
# veth links, a bridge for "the internet", home routers, transcripts verified, and
# failing with the logs.
#
# The script sets `script` (its name, for messages) and, before it calls `honest`,
# `armada` (the binary). After sourcing this it calls
# `namespaces NS…` once. Everything lives in `$dir`; KEEP=1 keeps it for a look.

# Never the public internet: a node started without --bootstrap stays off it.
export ARMADA_NO_PUBLIC=1
tag=$$
dir=$(mktemp -d)
made=()
failed=
cleanup() {
    for ns in "${made[@]}"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
    if [ -n "${KEEP:-}" ]; then echo "kept $dir" >&2; else rm -rf "$dir"; fi
    # Last, after the shell's notes on the nodes it killed: a report that keeps only
    # the tail of a long output still shows why.
    if [ -n "$failed" ]; then echo "$script: FAILED: $failed" >&2; fi
}
trap cleanup EXIT
# A script stopped by hand (or its test killed) still removes what it made.
trap 'exit 143' TERM
trap 'exit 130' INT
# fail WHY…: the tail of every node's log, then WHY (once more at the very end).
fail() {
    failed=$*
    echo "$script: $*" >&2
    for f in "$dir"/*.log; do
        echo "== $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
    exit 1
}

# namespaces NS…: makes each namespace, its loopback up.
namespaces() {
    for ns in "$@"; do
        ip netns add "$ns"
        made+=("$ns")
        ip -n "$ns" link set lo up
    done
}

# link NS-A DEV-A NS-B DEV-B: a veth pair between two namespaces.
links=0
link() {
    links=$((links + 1))
    local x=x$tag-$links y=y$tag-$links
    ip link add "$x" type veth peer name "$y"
    ip link set "$x" netns "$1"
    ip link set "$y" netns "$3"
    ip -n "$1" link set "$x" name "$2"
    ip -n "$3" link set "$y" name "$4"
    ip -n "$1" link set "$2" up
    ip -n "$3" link set "$4" up
}

# bridge NS: "the internet", a bridge br0 in namespace NS.
bridge() {
    wan=$1
    ip -n "$wan" link add br0 type bridge
    ip -n "$wan" link set br0 up
}

# on_wan NS DEV ADDRESS/LEN: NS's DEV on the bridge, at ADDRESS.
on_wan() {
    local port=p$((links + 1))
    link "$1" "$2" "$wan" "$port"
    ip -n "$wan" link set "$port" master br0
    ip -n "$1" addr add "$3" dev "$2"
}

# router NS LAN-NET [IPTABLES]: NS (already on the bridge as wan0) becomes a home
# router for LAN-NET.0/24 on lan0, with NAT that drops what nobody inside asked for.
router() {
    local ipt=${3:-iptables}
    ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1
    ip -n "$1" addr add "$2.1/24" dev lan0
    ip netns exec "$1" "$ipt" -t nat -A POSTROUTING -o wan0 -j MASQUERADE
    for chain in FORWARD INPUT; do
        ip netns exec "$1" "$ipt" -A "$chain" -i wan0 -m conntrack \
            --ctstate ESTABLISHED,RELATED -j ACCEPT
        ip netns exec "$1" "$ipt" -A "$chain" -i wan0 -j DROP
    done
}

# honest NAME…: the table saved in each $dir/NAME verifies honest (`armada verify`).
honest() {
    local side
    for side in "$@"; do
        "$armada" verify "$dir/$side"/tables/*.armada > "$dir/verify-$side.log" \
            || fail "the transcript in $side does not verify honest"
    done
}

# home HOST ROUTER LAN-NET [IPTABLES]: HOST at LAN-NET.2 behind ROUTER.
home() {
    link "$1" eth0 "$2" lan0
    router "$2" "$3" "${4:-iptables}"
    ip -n "$1" addr add "$3.2/24" dev eth0
    ip -n "$1" route add default via "$3.1"
}
