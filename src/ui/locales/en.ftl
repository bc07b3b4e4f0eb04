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
friend-waiting = Your table is open. Give this invite to your friend:
friend-copy = Copy the invite
friend-or-invite = Or give them the invite (longer: 128 bits, and works without the public network):
friend-copy-code = Copy the code
friend-code = Your table is open. Read this code to your friend:
friend-codes-off = Someone kept trying wrong codes: this table shows no short code any more. Give your friend the invite.
friend-code-withdrawn = Someone tried a wrong code three times, so it was withdrawn. Read your friend the new one below.
friend-failed = The table could not go on: { $why }
friend-bad-invite = That is neither a code nor an invite: { $why }
friend-no-store = Friend tables need a place to save games, and there is none.
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
refused = Refused: { $why }
home-lan = Find tables on the LAN
lan-searching = Looking for tables on the LAN…
lan-none = No tables found on the LAN.
lan-off = Discovery on the LAN is switched off.
lan-table = A table ({ $game }) at { $peer }
lan-needs-invite = its host gives the invite by hand
home-past = Past games
home-past-none = No finished games yet.
past-computer = the computer ({ $level })
past-friend = a friend
past-line = Against { $who }: { $games ->
    [one] one game
   *[other] { $games } games
}, score { $me } – { $them }; { $verdict }
past-honest = every answer proven
past-lie = a lie proven
past-incomplete = not verified to the end
home-resume = Resume the unfinished game
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
turn-over = Game over
hud-afloat = Enemy ships afloat: { $ships }
hud-their-stock = Opponent's weapons left: torpedoes ×{ $torpedoes }, air strikes ×{ $air }, radar ×{ $radar }
timer-left = { $seconds } s
weapon-shot = Shot (1)
weapon-torpedo = Torpedo ×{ $left } (2)
weapon-air = Air strike ×{ $left } (3)
weapon-radar = Radar ×{ $left } (4)
heading = Torpedo runs { $arrow } — R turns it
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
cell-unknown = unknown
cell-water = water
cell-miss = miss
cell-hit = hit
cell-wreck = sunk
cell-ship = ship
home = Home

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
verdict-honest = All { $answers ->
    [one] one answer
   *[other] { $answers } answers
} proven and the revealed fleet is legal.
verdict-lie = A lie, proven: message { $seq }: { $reason }
verdict-lie-move = A lie, proven: move { $move } ({ $action }): { $reason }
verdict-pending = Waiting for the reveal…
verdict-incomplete = Not verified: { $why }
play-again = Play again
save-transcript = Save the transcript
saved-to = Saved to { $path }
