# Armada — English
app-title = Armada
language = Language

## Home
home-tagline = Sea battle for two friends — every answer proven, no referee.
home-computer = Play the computer
level-easy = Easy
level-medium = Medium
level-hard = Hard
home-mode = Game
mode-armada = Armada: 10×10 with torpedoes, air strikes and radar
mode-classic = Classic { $side }×{ $side }, shots only
home-friend = Play a friend
home-host = Open a table
home-invite-hint = Your friend's code (4821-harbor-anchor) or invite
home-join = Join
home-public = Through the internet (the public libp2p network)
home-public-why = Finds relays on the public libp2p network so that a friend behind another router can join; off: this LAN and direct addresses only.
home-public-refused = Off for this run (--no-public or ARMADA_NO_PUBLIC), so friend tables use this LAN and direct addresses only.
friend-waiting = Your table is open. Give this invite to your friend:
friend-copy = Copy the invite
friend-or-invite = Or give them the invite (longer: 256 bits, and works without the public network):
friend-copy-code = Copy the code
friend-copied = Copied!
friend-code = Your table is open. Read this code to your friend:
friend-codes-off = Someone kept trying wrong codes: this table shows no short code any more. Give your friend the invite.
friend-code-withdrawn = Someone tried a wrong code three times, so it was withdrawn. Read your friend the new one below.
friend-failed = The table could not go on: { $why }
friend-bad-invite = That is neither a code nor an invite: { $why }
friend-no-store = Friend tables need a place to save games, and there is none.
friend-open-searching = Finding a way in for a friend beyond this LAN (relays on the public network, a port on your router)…
friend-open-asking-router = Asking your router to forward a port, so that a friend beyond this LAN can join…
friend-open-anywhere = Your friend can join from anywhere: this computer is reachable from the internet.
friend-open-router = Your friend can join from anywhere: your router forwards a port to this computer (UPnP).
friend-open-invite-only = Your friend can join from anywhere with the invite: your router forwards a port to this computer (UPnP). The code is found on this LAN only, as the public network is off.
friend-open-relayed = { $relays ->
    [one] Your friend can join from anywhere, through a relay on the public network.
   *[other] Your friend can join from anywhere, through { $relays } relays on the public network.
}
friend-open-no-relay = No relay answered on the public network: only a friend on this LAN, or one who can reach this computer directly, can join.
friend-open-off = The public network is off: only a friend on this LAN, or one who can reach this computer directly, can join.
cancel = Cancel
link-connecting = Connecting…
link-waiting = Waiting for your friend…
link-direct = Connected directly
link-relayed = Connected through a relay
link-direct-punched = Connected directly (a hole punched through the routers)
link-direct-upnp = Connected directly (your router forwards the port: UPnP)
link-relayed-limited = Connected through a relay that limits each connection: moving to fresh ones as you play
link-reconnecting = Connection lost — reconnecting…
link-gone = Your opponent is gone: a forfeit is claimed on the record.
link-gone-unclaimed = Your friend cannot go on at this table: nothing more will come from them.
link-left = Your friend left the table.
refused = Refused: { $why }
home-lan = Find tables on the LAN
lan-searching = Looking for tables on the LAN…
lan-none = No tables found on the LAN.
lan-off = Discovery on the LAN is switched off.
lan-table = A table ({ $game }) at { $peer }
lan-closed = { $count ->
    [one] One more table on the LAN takes its invite by hand: ask your friend for the code.
   *[other] { $count } more tables on the LAN take their invite by hand: ask your friend for the code.
}
home-past = Past games
home-past-none = No finished games yet.
past-computer = the computer ({ $level })
past-friend = a friend
past-friend-archimedes = a friend, Archimedes { $side }×{ $side }
past-line = Against { $who }: { $games ->
    [one] one game
   *[other] { $games } games
}, score { $me } – { $them }; { $verdict }
past-honest = every answer proven
past-lie = a lie proven
past-incomplete = not verified to the end
home-resume = Resume the unfinished sea battle
home-resume-friend = Resume the game with your friend
home-resume-failed = That game cannot be opened: { $why }
home-unreadable = { $count ->
    [one] One saved table cannot be read (damaged, or saved by another version of Armada).
   *[other] { $count } saved tables cannot be read (damaged, or saved by another version of Armada).
}

## Placement
placement-title = Place your fleet
placement-help = Drag a ship onto the board, or pick one and click a cell. R or a right-click turns it; drag a placed ship to move it.
placement-auto = Place automatically
placement-auto-rest = Place the rest automatically
placement-no-room = No room for the rest around the ships placed: move one, or Clear.
placement-clear = Clear
placement-rotate = Turn (R)
placement-start = Start the game
placement-left = { $count ->
    [one] One ship to place
   *[other] { $count } ships to place
}
placement-ready-button = Ready
placement-ready = Every ship is placed.
placement-timer = Move timer: 15 seconds a move
placement-other-ready = The opponent is ready.
placement-other-placing = The opponent is still placing their fleet…
placement-waiting = Waiting for the opponent…
placement-fleet-in = Your fleet is in
placement-waiting-host = Waiting for the host to start the game…
problem-off-board = The ship would run off the board.
problem-overlap = The ship would lie on another ship.
problem-touch = Ships may not touch, not even at a corner.
ship = { $len ->
    [5] five-decker
    [4] battleship
    [3] cruiser
    [2] destroyer
   *[1] boat
}
dock-ship = { ship } ({ $len ->
    [one] one deck
   *[other] { $len } decks
})

## Battle
board-own = Your fleet
board-enemy = Enemy waters
turn-yours = Your move
turn-theirs = Opponent's move
turn-answer = Waiting for the answer…
turn-landing = Your shells are landing…
turn-running = Your torpedo is running…
turn-falling = Your shell is falling…
turn-sweeping = Your radar is sweeping…
turn-over = Game over
hud-afloat = Enemy ships afloat: { $ships }
hud-fleet = Enemy fleet:
hud-their-stock = Opponent's weapons left: torpedoes ×{ $torpedoes }, air strikes ×{ $air }, radar ×{ $radar }
timer-left = { $seconds } s
card-shot = Shot
card-torpedo = Torpedo
card-air = Air strike
card-radar = Radar
weapon-shot = Shot (1)
weapon-torpedo = Torpedo ×{ $left } (2)
weapon-air = Air strike ×{ $left } (3)
weapon-radar = Radar ×{ $left } (4)
heading = Torpedo runs { $arrow } — R turns it
heading-way = Torpedo runs { $arrow }
heading-key = R turns it
dir-right = right
dir-left = left
dir-down = down
dir-up = up
aim-refused = Not here: { $why }
radar-picture = Radar: { $decks ->
    [0] no decks
    [one] one deck
   *[other] { $decks } decks
} in the square (shown for a moment)
resign = Resign
resign-confirm = Resign this game?
resign-yes = Yes, resign
resign-no = No, play on
draw-offer = Offer a draw
draw-offered = You offered a draw.
draw-theirs = Your opponent offers a draw.
draw-accept = Accept
draw-decline = Decline
draw-declined-theirs = Your opponent declined the draw.
draw-declined-mine = You declined the draw.
score = Score: you { $me } — { $them } opponent
log-title = Moves
log-you = You: { $what }
log-they = Opponent: { $what }
cell-label = { $board } { $cell }: { $state }
cell-aimed = aimed
cell-refused = cannot aim here
cell-lost = shell lost
cell-radar-deck = radar: a deck
cell-radar-water = radar: water
cell-unknown = unknown
cell-water = water
cell-miss = miss
cell-hit = hit
cell-wreck = sunk
cell-ship = ship
turn-again = Hit! Another action.
turn-again-theirs = They hit: another action for them.
turn-again-sunk = Sunk! Another action.
turn-again-theirs-sunk = They sank a ship: another action for them.
news-you-sunk = You sank their { ship }!
news-you-hit = Hit!
news-you-miss = Miss.
news-you-radar = Radar: the square is swept.
news-they-sunk = They sank your { ship }!
news-they-hit = They hit your { ship } at { $cell }.
news-they-miss = They missed.
news-they-radar = They swept a square with their radar.
log-timeout = { $what } (the move timer ran out)
reduce-motion = Reduce motion
reduce-motion-tip = Show each action's outcome at once, without shells, torpedoes or aircraft moving.
tip-shot = A plain shot at one unmarked cell. Unlimited.
tip-torpedo = Runs along a row or column from the edge and hits the first unmarked deck in its way; R or a right click turns it. { $left } left.
tip-air = An aircraft drops five shells on five random cells of a 3×3 square. { $left } left.
tip-radar = Shows for about three seconds which cells of a 3×3 square hold a deck; it ends your turn. { $left } left.
home = Home
leave-confirm = Leave the table? The game under way counts as resigned; your friend is told.
leave-yes = Yes, leave
leave-no = No, play on

## Reports
act-shot = shot { $cell }
act-torpedo-row = torpedo row { $line } { $arrow }
act-torpedo-column = torpedo column { $line } { $arrow }
act-air = air strike { $cell }
act-radar = radar { $cell }
fx-miss = { $cell } miss
fx-hit = { $cell } hit
fx-sunk = { $cell } sunk ({ ship })
fx-lost = { $cell } lost
fx-deck = { $cell } deck
fx-water = { $cell } water
fx-swept = square swept
fx-shot-miss = miss
fx-shot-hit = hit
fx-shot-sunk = sunk ({ ship })
why-marked = that cell is already marked
why-edge = the whole 3×3 square must lie on the board
why-square-marked = every cell of that square is already marked
why-line-marked = every cell of that line is already marked
why-spent = none left
why-turn = it is not your move
why-other = { $text }
again = again

## Results
result-win = You win!
result-lose = You lose.
result-draw = A draw.
how-sunk = Every ship of the losing fleet was sunk.
how-resigned = { $who ->
    [you] You resigned.
   *[they] Your opponent resigned.
}
how-forfeit = By forfeit.
how-draw = Both agreed to a draw.
how-lie-move = { $who ->
    [you] Your answer to move { $move } was a proven lie.
   *[they] Your opponent's answer to move { $move } was a proven lie.
}
how-lie-message = { $who ->
    [you] Your message { $seq } was a proven lie.
   *[they] Your opponent's message { $seq } was a proven lie.
}
how-lie-reveal = { $who ->
    [you] The fleet you revealed at the end was a proven lie.
   *[they] The fleet your opponent revealed at the end was a proven lie.
}
stats-title = Statistics
stats-moves = Actions
stats-shots = Cells fired at
stats-hits = Decks hit
stats-accuracy = Accuracy
stats-weapons = Weapons used
stats-you = You
stats-them = Opponent
verdict-title = Verification
verdict-you = Your answers
verdict-them = Opponent's answers
verdict-honest = { $answers ->
    [0] No answer was owed
    [one] One answer proven
   *[other] All { $answers } answers proven
}, and the revealed fleet is legal.
verdict-lie = A lie, proven: message { $seq }: { $reason }
verdict-lie-move = A lie, proven: move { $move } ({ $action }): { $reason }
verdict-pending = Waiting for the reveal…
verdict-incomplete = Not verified: { $why }
play-again = Play again
again-theirs = Your friend wants another game: press Play again.
again-asked = You asked for another game; waiting for your friend.
save-transcript = Save the transcript
saved-to = Saved to { $path }

## Rules screen
rules-button = Rules
rules-back = Back
rules-title = How to play Armada
rules-intro = Each player hides a fleet on a board of their own, and the two take turns firing into each other's waters. The first to sink the whole enemy fleet wins. Besides the plain shot, both players carry the same small stock of weapons in every game: two torpedoes, two air strikes and one radar.
rules-keys = ? or F1 opens and closes this page, Esc closes it. Your game waits underneath; at a friend table the move timer keeps running.
rules-board-title = Board and fleet
rules-board = Each board is 10×10: columns A–J, rows 1–10, so a cell is called E5 or J10. The fleet is ten ships with twenty decks in all: one battleship of 4 cells, two cruisers of 3, three destroyers of 2 and four boats of 1.
rules-touch = A ship lies straight, across or down, wholly on the board; edges and corners are allowed. Ships never touch, not even at a corner: every cell around a ship is water. The fleet stays where it was placed for the whole game.
rules-classic = Classic sea battle is the same game with plain shots only. Besides 10×10 with this fleet, it comes on 8×8 with six ships and on 12×12 with thirteen, one of them five decks long.
rules-touch-caption = No other ship may lie in the shaded cells around this cruiser.
rules-turns-title = Turns
rules-turns = In the first game at a table, the player who opened it moves first; every Play again hands the first move to the other player. On your turn you take an action: a plain shot, or one weapon from your stock.
rules-again = If the action hits at least one deck, be it a shot, a torpedo or an air strike, you act again. If it hits nothing, the turn passes. The radar always ends the turn.
rules-shots = Plain shots never run out, but you may only fire at a cell that is still unmarked on your chart of the enemy board.
rules-legend = On the drawings
rules-key-open = unmarked
rules-key-deck = hidden deck
rules-key-miss = miss
rules-key-hit = hit
rules-key-wreck = sunk
rules-key-fresh = marked by this action
rules-key-lost = lost shell
rules-torpedo-title = Torpedo (two a game)
rules-torpedo = Choose a row or a column and a direction: right or left along a row, down or up along a column. The torpedo comes in from the edge behind it and runs cell by cell. It slides over cells that are already marked and stops at the first unmarked cell holding a deck, which it hits exactly like a shot. Every unmarked water cell it crossed before that becomes a miss. If no deck lies in its way, all the unmarked cells of the line become misses. A line with no unmarked cell left cannot be chosen.
rules-torpedo-aim = In battle, point at a cell: the torpedo takes that cell's row or column, and R turns its direction.
rules-before = before
rules-after = after
rules-torpedo-caption = Row 5, running right: it comes in at A5, leaves misses on A5 and C5, slides over B5 and D5 and stops at the deck on E5. The deck on F5 stays hidden.
rules-air-title = Air strike (two a game)
rules-air = Choose the centre of a 3×3 square. The whole square has to lie on the board, so the centre is in columns B–I and rows 2–9, and at least one of its cells must be unmarked. Five shells then fall, one after another, on five different cells of the nine. Which five is left to chance that neither player can foresee or steer, and it picks from all nine: a shell that lands on a cell already marked is lost. A shell is lost too when its cell was marked a moment earlier by the ring of a ship sunk in the same strike. Any hit earns another action.
rules-air-caption = A centre may only lie inside the dashed frame. Centre E5: shells fell on D4, E4, F5, D6 and E6; the one on E4 landed on an old miss and was lost.
rules-radar-title = Radar (one a game)
rules-radar = Choose the centre of a 3×3 square lying wholly on the board, with at least one unmarked cell. The radar damages nothing and marks nothing. For about three seconds it shows which unmarked cells of the square hold a deck and which are water. Then the picture is gone: it is not kept on your chart and does not come back when the game is reopened, so only your memory holds it. Your opponent sees a faint frame of the square on their own board: they know they were scanned, not what you saw.
rules-radar-caption = Centre G7, for about three seconds: big green rings are decks, small blue rings are water; the old miss on F6 shows nothing.
rules-ring-title = A sunk ship's ring
rules-ring = When the last deck of a ship is hit, by a shot, a torpedo or a shell, the ship sinks: its decks are shown as sunk, and every unmarked cell around it, corners included, turns into a miss at once. Ships never touch, so no deck could be there; the ring only says so straight away. It matters for the weapons: a torpedo slides over it, and a shell that falls on it is lost.
rules-ring-caption = A cruiser sunk on D4–F4 and the ring of misses it leaves.
rules-timer-title = Move timer
rules-timer = At a friend table every action has 15 seconds, the extra action after a hit included. If the time runs out, the game fires a plain shot for you at a random unmarked cell, picked in a way both sides can check. The player who opened the table may switch the timer off before the start, and then nobody is hurried. There is no timer against the computer.
rules-end-title = End of the game
rules-end = Sink all ten enemy ships and you win; if the last one goes down in the middle of an air strike, the remaining shells do not fall. You may resign during the game, and then your opponent wins.
rules-draw = At a friend table either player may offer a draw, at most once per move. The other accepts or declines; making a move instead of answering declines it as well. An accepted draw ends the game.
rules-reveal = When the game ends, both players reveal their fleets, and every answer given during the game is checked against them. A player caught in a proven lie, during the game or at the reveal, loses; so does a player who refuses to reveal.

## Totals
totals-title = Totals across games
totals-none = No games counted yet.
totals-damaged = The totals could not be read (the file is kept as { $path }), so they start again from zero. Your saved games are untouched.
totals-unreadable = The totals in { $path } could not be read, and the file could not be moved aside, so this window counts no games and leaves the file as it is. Your saved games are untouched.
totals-against = Opponent
totals-game = Game
totals-won = Won
totals-lost = Lost
totals-drawn = Drawn
totals-percent = Won, %
totals-streak = Streak
totals-best = Best streak
totals-friend = A friend
totals-armada = Armada
totals-classic = Classic { $side }×{ $side }
totals-line = Against { $who }, { $variant }: { $won } won, { $lost } lost, { $drawn } drawn ({ $percent } %), streak { $streak }, best { $best }
totals-not-counted = This game is not counted in the totals: it was not verified to the end.

## Who moves first
lot-you = Drawn by lot: you move first.
lot-computer = Drawn by lot: the computer moves first.

## Archimedes
level-insane = Insane
mode-archimedes = Archimedes:
mode-archimedes-tip = Archimedes: ships move like chess queens; a ship that sees three enemy ships sinks.
home-resume-archimedes = Continue the game of Archimedes
arch-menu = Menu
arch-score = You: { $mine } { $mine ->
    [one] ship
   *[other] ships
} · Computer: { $theirs } { $theirs ->
    [one] ship
   *[other] ships
} · Moves: { $moves }
arch-paused = Paused
arch-continue = Continue
arch-new-game = New game
arch-rules = How to play
arch-resign = Resign
arch-rule-move = On your turn move one ship any distance in a straight line, like a chess queen, through empty cells only.
arch-rule-sight = A ship sees the first ship along each of the eight directions; any ship blocks the view behind it.
arch-rule-sink = After every move, every ship that sees three or more enemy ships sinks, all at once, and the check repeats until nothing more sinks.
arch-rule-end = A side with fewer than three ships loses (both: a draw); so does a side with no move; after 50 moves without a sinking the larger fleet wins.
arch-over = The game is over.
arch-your-move = Your move: click one of your ships, then a green dot.
arch-their-move = The computer is thinking…
arch-won = You win!
arch-lost = You lose.
arch-drawn = A draw.
arch-why-fleet = A fleet fell below three ships.
arch-why-no-move = The side to move had no move left.
arch-why-quiet = Fifty moves passed without a sinking: the larger fleet decided it.
arch-why-resigned = A player resigned.
arch-results = Ships lost — you: { $mine }, the computer: { $theirs }. Moves played: { $moves }.
arch-totals = { $level }, { $side }×{ $side }: won { $won }, lost { $lost }, drawn { $drawn } · { $percent }% won · streak { $streak }, best { $best }
totals-archimedes = Archimedes { $side }×{ $side }
arch-against = Against the computer: { $level } · board { $side }×{ $side }
arch-your-fleet = Your fleet (bottom left)
arch-their-fleet = The computer's fleet (top right)
arch-last = Last move: { $move }
arch-sunk = Sunk: { $cells }
arch-rules-title = How to play Archimedes
rules-of-sea = The sea battle
rules-of-archimedes = Archimedes
arch-rules-start-title = The fleets
arch-rules-move-title = Moving
arch-rules-move-caption = The ship at B3 may go to any green dot: along its eight lines, up to the first ship in the way.
arch-rules-sight-title = Sight
arch-rules-sight-caption = The ship at C3 sees A3, C5 and E5 (the first ship on each line, its own side's too); C6 stands behind C5 and is not seen.
arch-rules-sink-title = Sinking
arch-rules-sink-caption = D3 is seen by three enemy ships, A3, D6 and F5: it sinks.
arch-rules-end-title = The end
arch-rule-start = Each fleet starts as a triangle in its corner: yours bottom left, the computer's top right; you move first.
arch-against-friend = Against your friend · board { $side }×{ $side }
arch-your-fleet-top = Your fleet (top right)
arch-friend-fleet-bottom = Your friend's fleet (bottom left)
arch-friend-fleet-top = Your friend's fleet (top right)
arch-friend-move = Your friend's move…
arch-settling = The game is over; waiting for your friend's word on the result…
arch-opening = The game is starting…
arch-results-friend = Ships lost — you: { $mine }, your friend: { $theirs }. Moves played: { $moves }.
arch-why-both-resigned = Both players resigned at once.
arch-why-forfeit = A move was owed past its time.
arch-why-lie = A proven lie: { $lie }
arch-friend-left = Your friend left the table.
arch-score-friend = You: { $mine } { $mine ->
    [one] ship
   *[other] ships
} · Friend: { $theirs } { $theirs ->
    [one] ship
   *[other] ships
} · Moves: { $moves }
arch-rule-start-friend = Each fleet starts as a triangle in its corner. The host moves first in a table's first game, and each Play again hands the first move to the other player; whoever moves first commands the bottom-left fleet.

## Icehouse Armada on the Rules screen
ice-rules-title = How to play Icehouse Armada
rules-of-icehouse = Icehouse Armada
ice-rules-fleets-title = The table and the fleets
ice-rules-fleets-caption = A small, a medium and a large ship seen from above: the bow is the tip, the dots are its pips.
ice-rule-table = There is no board: the ships are pyramids lying flat on a table 90 × 60 cm, and every place and turn is measured exactly. The first to move is south, at the bottom; the other north. The window always shows your own side at the bottom.
ice-rule-fleets = In the basic game one side commands the heavy squadron (4 large ships), the other the light one (4 medium and 4 small). A ship's pips are the hits it takes to sink and the shots it may fire in a turn: small 1, medium 2, large 3. Each side lays its ships in its home strip, the nearest 17.3 cm of the table, without touching; both placements are fixed before either is shown.
ice-rules-step-title = Moving
ice-rules-step-caption = A step is laid tip to tail from the bow (faint); a turn too sharp would overlap the ship's last place and is refused (red).
ice-rule-step = A move is up to 4 steps for a small ship, 2 for a medium, 1 for a large, each exactly one ship length: a spare pyramid is laid with the middle of its base on the bow, turned as you like, and the ship takes its place. A step may not overlap the ship's last place (so no turn of about 75° or more, and no reversing), touch any other ship, or leave the table.
ice-rules-fire-title = Broadsides
ice-rules-fire-caption = The large pyramid's shadow laid against the port side; the small enemy ship inside it has a clear line and is hit.
ice-rule-fire = To fire, lay a large pyramid flat against one long side of your ship: its shadow is the field of fire. An enemy ship that reaches into the field can be hit along a straight line from the shadow's base to that ship. Each hit costs the target a pip; a ship with no pips left sinks.
ice-rules-blocked-title = A blocked line
ice-rules-blocked-caption = The same line with another ship laid across it: blocked.
ice-rule-blocked = The line of fire may touch no ship but the two it joins, your own included; grazing one blocks it. The program finds a clear line for you when there is one, and lights the targets you can hit.
ice-rules-turn-title = The turn
ice-rule-turn = A turn is up to three actions, in any order: move a ship that has not moved this turn, or fire with a ship that has shots left this turn. You may end your turn early; it ends by itself after the third action.
ice-rules-end-title = The end
ice-rule-end = Sink the whole enemy fleet to win. A table may play another goal: capture the flagship (sink it, or ram it with a step) or break through (enough of the attacker's ships past the defender's back line at the start of its turn, or held off for 20 turns). After 40 turns in a row without a hit the stronger fleet afloat wins; equal strength is a draw.
ice-rule-friends = Either side may resign at any time. With a friend, you may offer a draw once in each of your turns; your friend accepts or declines, and acting declines it.

## Icehouse Armada against the computer
mode-icehouse = Icehouse Armada
mode-icehouse-tip = Pyramids on a table with no board: ships move by whole-length steps that pivot on the bow and fire broadsides into a large pyramid's shadow.
home-resume-icehouse = Continue the game of Icehouse Armada
ice-goal = Goal:
ice-goal-sink = sink the fleet
ice-goal-flagship = capture the flagship
ice-goal-attack = break through (you attack)
ice-goal-defend = hold the line (you defend)
ice-squadron = Your squadron:
ice-heavy = heavy (4 large)
ice-light = light (4 medium, 4 small)
ice-against = Against the computer: { $level } · goal: { $goal }
ice-you-first = You are south and move first.
ice-they-first = You are north; the computer moves first. The table is turned so that your side is at the bottom.
ice-small = small
ice-medium = medium
ice-large = large
ice-flagship = flagship
ice-place-title = Lay your fleet
ice-place-help = Pick a ship, then click in your shaded home strip to lay it. Q and E, the arrow keys, the wheel or a right click turn it; click a laid ship to pick it up again.
ice-hidden = The computer's fleet is laid and hidden until yours is.
ice-place-auto = Place the rest automatically
ice-place-clear = Clear
ice-place-no-room = No room found for the rest: pick some ships up and try again.
ice-ready = Ready — to battle
ice-revealed = Both fleets are laid: the computer's is shown.
ice-refused-edge = { $ship } would lie over the table's edge.
ice-refused-home = { $ship } must lie wholly inside your home strip.
ice-refused-touch = { $ship } would touch { $other }.
ice-your-turn = Your turn
ice-their-turn = The computer's turn…
ice-actions-left = Actions left: { $left }
ice-turn-number = Turn { $turn }
ice-ship-sunk = sunk
ice-ship-hits = { $left } { $left ->
    [one] pip
   *[other] pips
} afloat
ice-ship-may-move = may move · { $shots } { $shots ->
    [one] shot
   *[other] shots
}
ice-ship-moved = moved · { $shots } { $shots ->
    [one] shot
   *[other] shots
}
ice-pick = Click one of your ships, on the table or in this list.
ice-mode-move = Move (M)
ice-mode-fire = Fire (F)
ice-move-help = The ghost follows the pointer, pivoting on the bow: click to lay a step ({ $left } left), Enter or a right click to sail, Escape to undo.
ice-sail = Sail ({ $steps } { $steps ->
    [one] step
   *[other] steps
})
ice-fire-help = Point at a side: the large pyramid's shadow follows; targets with a clear line are lit. Click a lit target to fire.
ice-lit = In the line of fire: { $ships }
ice-lit-none = No target has a clear line from here.
ice-not-lit = { $ship } is not in the shadow, or its line of fire is blocked.
ice-end-turn = End turn (Space)
ice-why-no-such = That is not a place the rules allow.
ice-why-sunk = { $ship } has sunk.
ice-why-moved = { $ship } has already moved this turn.
ice-why-no-shot = { $ship } has fired all its shots this turn.
ice-why-too-many = { $ship } takes at most { $max } { $max ->
    [one] step
   *[other] steps
}.
ice-why-off-table = Step { $step } would leave the table.
ice-why-turns-back = Step { $step } turns too sharply: it would overlap the ship's last place.
ice-why-touches = Step { $step } would touch { $other }.
ice-why-after-ram = The flagship was rammed: no step may follow.
ice-why-blocked = The line of fire is blocked by { $by }.
ice-news-you-moved = You moved { $ship } ({ $steps } { $steps ->
    [one] step
   *[other] steps
}).
ice-news-they-moved = The computer moved { $ship } ({ $steps } { $steps ->
    [one] step
   *[other] steps
}).
ice-news-you-hit = Your { $ship } hit { $target }.
ice-news-you-sank = Your { $ship } sank { $target }!
ice-news-they-hit = Their { $ship } hit your { $target }.
ice-news-they-sank = Their { $ship } sank your { $target }!
ice-news-you-ended = You ended your turn.
ice-news-they-ended = The computer ended its turn.
ice-why-all-sunk = The last ship of a fleet sank.
ice-why-flagship-sunk = A flagship sank.
ice-why-rammed = A flagship was rammed.
ice-why-quiet = Forty turns passed without a hit: the stronger fleet afloat decided it.
ice-why-broke-through = The attacker broke through.
ice-why-held = The defender held the line for twenty turns.
ice-results = Ships lost — you: { $mine }, the computer: { $theirs }. Hits — yours: { $myshots }, the computer's: { $theirshots }. Turns: { $turns }.
ice-against-friend = Against your friend · goal: { $goal }
ice-friend-table = Against your friend
ice-friend-first = You are north; your friend moves first. The table is turned so that your side is at the bottom.
ice-choose = You choose who moves first (and so commands the south, at the bottom):
ice-choose-me = I move first
ice-choose-friend = My friend moves first
ice-choose-swap = In this setup the side that does not move first takes the other squadron: moving first, you command { $first }; letting your friend move first, you command { $second }.
ice-count-large = { $n } large
ice-count-medium = { $n } medium
ice-count-small = { $n } small
ice-friend-chooses = Your friend is choosing who moves first…
ice-hidden-friend = Your placement is sealed before either fleet is shown; your friend's is revealed only after both are laid.
ice-laid = Your fleet is laid
ice-friend-laying = Sealed and sent; waiting for your friend's fleet. Both are shown together.
ice-results-friend = Ships lost — you: { $mine }, your friend: { $theirs }. Hits — yours: { $myshots }, your friend's: { $theirshots }. Turns: { $turns }.
ice-play-again = Play again
ice-again-waiting = You asked for another game; waiting for your friend…
ice-again-asked = Your friend asks for another game.
ice-their-turn-friend = Your friend's turn…
ice-news-friend-moved = Your friend moved { $ship } ({ $steps } { $steps ->
    [one] step
   *[other] steps
}).
ice-news-friend-ended = Your friend ended their turn.
ice-revealed-friend = Both fleets are laid: your friend's is shown.
ice-totals = { $against }, { $game }: won { $won }, lost { $lost }, drawn { $drawn } · { $percent }% won · streak { $streak }, best { $best }
totals-icehouse = Icehouse Armada, { $squadron }
ice-draw-theirs = Your friend offers a draw.
ice-setup = Setup:
ice-setup-basic = basic
ice-setup-advanced = advanced
ice-setup-points = points fleets
ice-advanced-heavy = heavy squadron:
ice-advanced-light = light squadron:
ice-points-own = Your fleet:
ice-points-total = { $pips } of 12 pips
ice-points-wrong = A points fleet is worth exactly 12 pips (small 1, medium 2, large 3), not { $pips }.
ice-clock-mine = Time for this action: { $seconds } s
ice-clock-friend = Your friend's time: { $seconds } s
