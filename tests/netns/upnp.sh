#!/usr/bin/env bash
# UPnP with a real router daemon: host A behind a home router that runs miniupnpd,
# guest B behind another home router (no UPnP), no relay anywhere. All in network
# namespaces made here; the bridge between the routers links only these namespaces.
#
#   A 192.168.75.2 ── router A 11.75.0.2 (NAT, miniupnpd) ──┐ 11.75.0.0/24 ┌── router B 11.75.0.3 (NAT) ── B 192.168.76.2
#
# The "internet" side uses addresses from a public range on purpose: miniupnpd will
# not forward ports on a router whose WAN address is private, nor libp2p map ports
# on such a gateway (behind another NAT a mapping could not help). No route leads
# out of these namespaces, so nothing is ever sent to those addresses for real.
#
# Negative control first: with UPnP off, B cannot reach A. Then A hosts with UPnP:
# its router maps its ports, the invite carries the mapped public address, and B
# plays it directly, without any relay; both transcripts verify honest.
# Needs root, ip(8), iptables(8) (with iptables-legacy) and miniupnpd.
# Usage: upnp.sh PATH-TO-ARMADA
set -euo pipefail
script=upnp.sh
# shellcheck source=tests/netns/common.sh
. "$(dirname "$0")/common.sh"
armada=$1
wan=arm-uw-$tag ra=arm-ura-$tag rb=arm-urb-$tag a=arm-ua-$tag b=arm-ub-$tag
namespaces "$wan" "$ra" "$rb" "$a" "$b"
bridge "$wan"
on_wan "$ra" wan0 11.75.0.2/24
on_wan "$rb" wan0 11.75.0.3/24
# Router A's rules are all iptables-legacy: miniupnpd (libiptc) writes legacy tables,
# and a drop in another table's chain would override its accept.
home "$a" "$ra" 192.168.75 iptables-legacy
home "$b" "$rb" 192.168.76

# miniupnpd on router A: its chains ahead of the router's own rules (what its
# iptables_init.sh sets up), ports forwarded only to A's LAN.
ipt() { ip netns exec "$ra" iptables-legacy "$@"; }
ipt -t nat -N MINIUPNPD
ipt -t nat -I PREROUTING -i wan0 -j MINIUPNPD
ipt -t nat -N MINIUPNPD-POSTROUTING
ipt -t nat -I POSTROUTING -o wan0 -j MINIUPNPD-POSTROUTING
ipt -t mangle -N MINIUPNPD
ipt -t mangle -I PREROUTING -i wan0 -j MINIUPNPD
ipt -t filter -N MINIUPNPD
ipt -t filter -I FORWARD -i wan0 ! -o wan0 -j MINIUPNPD
cat > "$dir/miniupnpd.conf" <<EOF
ext_ifname=wan0
listening_ip=lan0
http_port=0
enable_upnp=yes
enable_natpmp=no
secure_mode=yes
system_uptime=yes
uuid=2f6c2d3e-8a1b-4c5d-9e0f-a1b2c3d4e5f6
allow 1024-65535 192.168.75.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
EOF
miniupnpd=$(command -v miniupnpd || echo /usr/sbin/miniupnpd)
ip netns exec "$ra" "$miniupnpd" -4 -f "$dir/miniupnpd.conf" -P "$dir/miniupnpd.pid" -d \
    > "$dir/miniupnpd.log" 2>&1 &
for _ in $(seq 100); do
    grep -q 'HTTP listening on port' "$dir/miniupnpd.log" && break
    sleep 0.1
done
grep -q 'HTTP listening on port' "$dir/miniupnpd.log" || fail "miniupnpd did not start"

# host NAME ARGS…: a table host on A (no public network, no relay); output in NAME.log.
host() {
    local name=$1
    shift
    ip netns exec "$a" "$armada" host --no-public --bot medium \
        --listen "/ip4/0.0.0.0/tcp/0" --listen "/ip4/0.0.0.0/udp/0/quic-v1" \
        --data-dir "$dir/$name" "$@" > "$dir/$name.log" 2>&1 &
    for _ in $(seq 300); do grep -q '^armada://join/' "$dir/$name.log" && break; sleep 0.1; done
    grep -q '^armada://join/' "$dir/$name.log" || fail "the host $name did not open its table"
}

# probe PORT: whether B can open a TCP connection to router A's public address at PORT.
probe() { ip netns exec "$b" timeout 5 bash -c "exec 3<>/dev/tcp/11.75.0.2/$1" 2>/dev/null; }
# port_of NAME: the TCP port A listens on, from its invite.
port_of() { grep -o '^address: /ip4/192.168.75.2/tcp/[0-9]*' "$dir/$1.log" | head -1 | cut -d/ -f5; }

# Negative control: UPnP off (--no-discovery), the invite has no public address and
# B cannot reach A's port at its router's public address.
host control-host --no-discovery
grep -q '^address: /ip4/11.75.0.2/' "$dir/control-host.log" \
    && fail "without UPnP the invite has a public address"
port=$(port_of control-host)
[ -n "$port" ] || fail "the control host's port is not in its invite"
probe "$port" && fail "B reached A's port $port without UPnP: the NAT lets strangers in"
ip netns pids "$a" | xargs -r kill -9

# UPnP on: the router maps A's ports; B plays A directly at the mapped address.
host upnp-host
grep -q '^reachable directly at /ip4/11.75.0.2/.*(mapped on the router by UPnP)' \
    "$dir/upnp-host.log" || fail "the host did not say its router mapped a port"
grep -q '^address: /ip4/11.75.0.2/' "$dir/upnp-host.log" \
    || fail "the invite lacks the mapped public address"
if grep -q '^address: .*/p2p-circuit' "$dir/upnp-host.log"; then
    fail "the invite has a relayed address, with no relay anywhere"
fi
port=$(port_of upnp-host)
probe "$port" || fail "B cannot reach A's mapped port $port"
link=$(grep -o '^armada://join/.*' "$dir/upnp-host.log")
ip netns exec "$b" timeout 120 "$armada" join "$link" --no-public --no-discovery \
    --bot easy --data-dir "$dir/upnp-guest" > "$dir/upnp-guest.log" 2>&1 \
    || fail "the guest did not finish"
for _ in $(seq 300); do ip netns pids "$a" | grep -q . || break; sleep 0.1; done
grep -q '^table over: 1 game' "$dir/upnp-host.log" || fail "the host did not finish"
grep -q '^connection: direct /ip4/11.75.0.2/' "$dir/upnp-guest.log" \
    || fail "the guest did not play at the mapped address"
grep -q 'relay' "$dir/upnp-guest.log" && fail "the guest went through a relay"
grep -q '^connection: direct /ip4/11.75.0.3/.*(UPnP)' "$dir/upnp-host.log" \
    || fail "the host did not say its connection came in through the mapped port"
honest upnp-host upnp-guest
echo "upnp.sh: without UPnP B cannot reach A; with miniupnpd A's ports were mapped," \
    "B played A directly at the mapped address, honest"
