#!/usr/bin/env bash
# Starts the real `armada` window under Xvfb, plays into each screen with xdotool and
# saves a PNG of each in docs/ (the README shows them). Needs Xvfb, xdotool and
# ImageMagick's `import` (Debian: xvfb xdotool imagemagick) and Mesa.
# Usage: scripts/screenshots.sh [PATH-TO-ARMADA]   (default: target/release/armada)
set -euo pipefail
cd "$(dirname "$0")/.."
armada=${1:-target/release/armada}
display=:$((90 + RANDOM % 9))
data=$(mktemp -d)
Xvfb "$display" -screen 0 1100x760x24 >/dev/null 2>&1 &
xvfb=$!
app=
cleanup() {
    [ -n "$app" ] && kill "$app" 2>/dev/null
    kill "$xvfb" 2>/dev/null
    rm -rf "$data"
}
trap cleanup EXIT
export DISPLAY=$display
sleep 1
shot() { import -window root "docs/$1.png"; echo "docs/$1.png"; }
click() { xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; sleep "${3:-0.6}"; }
key() { xdotool key "$1"; sleep "${2:-0.3}"; }

# offline: the home screen as a player first sees it, then the computer only.
"$armada" window --data-dir "$data" 2>/dev/null &
app=$!
sleep 4
shot home
click 398 12 1            # Rules
shot rules
click 398 12 0.6          # Rules again: back home
click 196 362 1.2         # Medium
click 60 145              # the battleship at A1
xdotool mousemove 180 345 # the cruiser's ghost, touching nothing yet
sleep 0.6
shot placement
click 507 338             # Place automatically (nine ships left in the dock)
click 494 235 3           # Start the game (the lot may give the computer the first move)
# Enemy cells: A1 at (540, 183), 40 points apart. A few shots down the middle (the
# computer answers in between), then a torpedo caught running, then an air strike
# caught while its shells fall.
for row in 0 2 4 6; do
    click $((540 + 40 * 4)) $((183 + 40 * row)) 3
done
xdotool mousemove 1000 700
click 115 592 0.4         # Torpedo
xdotool mousemove 560 $((183 + 40 * 8)); sleep 0.3; xdotool click 1
sleep 0.5
shot torpedo
sleep 4
xdotool mousemove 1000 700
click 217 592 0.4         # Air strike
xdotool mousemove $((540 + 40 * 6)) $((183 + 40 * 6)); sleep 0.3; xdotool click 1
sleep 0.6
shot battle
sleep 4
xdotool mousemove 1000 700
click 31 613 0.6          # Resign
click 153 613 3           # Yes, resign
shot results
click 143 12 0.6          # the language menu
click 140 56 1            # Українська
shot results_uk
click 143 12 0.6          # the language menu
click 140 79 1            # Русский
click 410 12 1            # Правила
shot rules_ru
# Archimedes against the computer, in a fresh window: 8×8, Medium; D1 to F3, then
# the computer's answer, then a ship picked up with its green dots.
kill "$app" 2>/dev/null; wait "$app" 2>/dev/null || true
rm -rf "$data"; data=$(mktemp -d)
# offline: Archimedes against the computer only.
"$armada" window --data-dir "$data" 2>/dev/null &
app=$!
sleep 4
click 157 292 0.6         # Archimedes 8×8
click 156 362 1.5         # Medium
# Cells: column A..H at x = 64 + 75 * col, row 8..1 at y = 124 + 75 * (8 - row).
click 289 650 0.6         # D1
click 439 500 3           # F3 (the computer answers)
click 214 500 0.8         # C3: its green dots
shot archimedes
click 143 12 0.6          # the language menu
click 140 79 1            # Русский
shot archimedes_ru
# Archimedes with a friend: `armada host --game archimedes` (a medium computer, on
# loopback) is joined from a fresh window by its invite typed into the field; the
# window learns the game from the host. E7 to E4 (sunk at once), then G5 picked up.
kill "$app" 2>/dev/null; wait "$app" 2>/dev/null || true
rm -rf "$data"; data=$(mktemp -d)
"$armada" host --game archimedes --size 8 --bot medium --no-discovery --no-public \
    --listen /ip4/127.0.0.1/tcp/0 --data-dir "$data/host" >"$data/host.txt" 2>&1 &
host=$!
# On loopback only: no script reaches the internet or multicasts on the LAN.
"$armada" window --data-dir "$data/window" --no-discovery --no-public \
    --listen /ip4/127.0.0.1/tcp/0 2>/dev/null &
app=$!
sleep 4
link=$(grep -m1 '^armada://' "$data/host.txt")
xdotool windowfocus "$(xdotool search --name Armada | head -1)"
click 650 257 0.5         # the invite field
xdotool type --delay 5 "$link"
click 856 257 5           # Join (the host moves first)
click 364 199             # E7
click 364 424 4           # E4
click 514 349 1           # G5: its green dots
shot archimedes_friend
kill "$host" 2>/dev/null
# A caught liar's results: the liar is a test double, so its window test draws them.
ARMADA_SHOTS=docs cargo test --test it -- --exact \
    window::a_liar_that_sinks_the_fleet_and_is_caught_at_the_reveal_loses_on_the_results
echo docs/results_liar.png
