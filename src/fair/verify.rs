//! Offline verification of a saved table: every frame re-checked, every game's record, one verdict.
//!
//! Architecture invariant: runs the very same [`Table`] the sessions ran; it adds
//! no rule of its own, only reads the transcript and reports.

use armada_proto::{self as proto, Transcript};
use std::collections::HashMap;

use super::archimedes::Archimedes;
use super::icehouse::Icehouse;
use super::sign::frame_hash;
use super::table::open::{self, Open, OpenGame};
use super::table::{ClaimState, ForfeitClaim, Lie, Note, Observer, Rules, Sea, Table, Verdict};
use super::wire;
use crate::rules::{Ending, Fleet, Report as ActionReport, Seat, Variant};

mod record;

/// What `armada verify` concludes, with its exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every game complete and every answer honest: exit 0.
    Honest,
    /// A lie proven: exit 1.
    Lie(Lie),
    /// The file cannot be read as a transcript: exit 2.
    Malformed(String),
    /// No reveal, a forfeit claimed, or the table stopped mid-game: exit 3.
    Incomplete(String),
}

impl Outcome {
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Honest => 0,
            Self::Lie(_) => 1,
            Self::Malformed(_) => 2,
            Self::Incomplete(_) => 3,
        }
    }
}

/// One action as the record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub seat: Seat,
    pub number: u32,
    pub timeout: bool,
    pub report: ActionReport,
}

/// One game of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub number: u32,
    /// The game's id (both nonces in).
    pub id: [u8; 32],
    pub variant: Variant,
    pub first: Seat,
    /// Whether the move timer ran (`None`: the game never started).
    pub timer: Option<bool>,
    pub moves: Vec<Move>,
    pub ending: Option<Ending>,
    pub fleets: [Option<Fleet>; 2],
    pub verdict: Option<Verdict>,
    /// A forfeit claim that was not refuted.
    pub claim: Option<ForfeitClaim>,
    /// The frames (seat, seq) that crossed the end of the game and count for nothing.
    pub void: Vec<(Seat, u32)>,
}

/// One game of an open game's table (Archimedes, Icehouse Armada).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenRecord<G: OpenGame> {
    pub number: u32,
    pub id: [u8; 32],
    pub first: Seat,
    pub moves: Vec<open::Step<G::Played>>,
    pub outcome: Option<open::Outcome<G::End>>,
    pub verdict: Option<open::Verdict<G::End>>,
    /// A forfeit claim stands against the game (it was not refuted).
    pub claimed: bool,
    /// The frames (seat, seq) that crossed the end of the game and count for nothing:
    /// a move a resignation had not seen (undone), or a frame after the end.
    pub void: Vec<(Seat, u32)>,
}

/// One Archimedes game of the table.
pub type ArchimedesRecord = OpenRecord<Archimedes>;
/// One Icehouse Armada game of the table.
pub type IcehouseRecord = OpenRecord<Icehouse>;

/// Everything verification found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub table: Option<[u8; 32]>,
    pub settings: Option<proto::Settings>,
    pub games: Vec<GameRecord>,
    /// The games of an Archimedes table (empty at another game's).
    pub archimedes: Vec<ArchimedesRecord>,
    /// The games of an Icehouse Armada table (empty at another game's).
    pub icehouse: Vec<IcehouseRecord>,
    /// Whether each seat (host, guest) left the table: its play is over.
    pub left: [bool; 2],
    pub outcome: Outcome,
}

/// Verifies a transcript file's bytes.
pub fn verify(bytes: &[u8]) -> Report {
    let transcript: Transcript = match proto::decode_transcript(bytes) {
        Ok(t) => t,
        Err(e) => return Report::malformed(e.to_string()),
    };
    let order =
        canonical(&transcript.frames).unwrap_or_else(|| (0..transcript.frames.len()).collect());
    match table_game(&transcript) {
        Some(proto::GameKind::Archimedes { .. }) => {
            let (mut report, games) = verify_open::<Archimedes>(&transcript, &order);
            report.archimedes = games;
            return report;
        }
        Some(proto::GameKind::Icehouse { .. }) => {
            let (mut report, games) = verify_open::<Icehouse>(&transcript, &order);
            report.icehouse = games;
            return report;
        }
        _ => {}
    }
    let mut games: Vec<GameRecord> = Vec::new();
    let table = match take_all::<Sea>(&transcript, &order, |table, frame, note| {
        take_note(table, &mut games, frame, note);
    }) {
        Ok(table) => table,
        Err(why) => {
            let mut report = Report::malformed(why);
            report.table = Some(transcript.table);
            return report;
        }
    };
    let outcome = outcome(&table, &games);
    Report {
        table: Some(transcript.table),
        settings: table.settings(),
        games,
        archimedes: Vec::new(),
        icehouse: Vec::new(),
        left: Seat::BOTH.map(|seat| table.left(seat)),
        outcome,
    }
}

/// Writes what a sea battle's `note` (from the frame `seq` of `from`) says into the
/// record's games.
fn take_note(table: &Table, games: &mut Vec<GameRecord>, (from, seq): (Seat, u32), note: Note) {
    match note {
        Note::Void => {
            if let Some(game) = games.last_mut() {
                game.void.push((from, seq));
            }
        }
        Note::GameOpened {
            number,
            id,
            variant,
            first,
        } => games.push(GameRecord {
            number,
            id,
            variant,
            first,
            timer: None,
            moves: Vec::new(),
            ending: None,
            fleets: [None, None],
            verdict: None,
            claim: None,
            void: Vec::new(),
        }),
        Note::Started { timer } => {
            if let Some(game) = games.last_mut() {
                game.timer = Some(timer);
            }
        }
        Note::Resolved {
            seat,
            number,
            report,
            timeout,
        } => {
            if let Some(game) = games.last_mut() {
                game.moves.push(Move {
                    seat,
                    number,
                    timeout,
                    report,
                });
            }
        }
        Note::Ended(ending) => {
            if let Some(game) = games.last_mut() {
                game.ending = Some(ending);
            }
        }
        Note::Revealed(seat) => {
            if let Some(game) = games.last_mut() {
                game.fleets[seat.index()] = table.revealed_fleet(seat).cloned();
            }
        }
        Note::Settled(verdict) => {
            if let Some(game) = games.last_mut() {
                game.verdict = Some(verdict);
            }
        }
        Note::ForfeitClaimed { .. } | Note::ClaimRefuted { .. } => {
            if let Some(game) = games.last_mut() {
                game.claim = table.claim().filter(|c| c.state != ClaimState::Refuted);
            }
        }
        _ => {}
    }
}

/// Takes the transcript's frames, in `order`, into a fresh observer of game `G`,
/// handing each note with its frame's sender and seq to `take`; what is wrong with
/// the first frame the observer refuses (the file is then malformed).
fn take_all<G: Rules>(
    transcript: &Transcript,
    order: &[usize],
    mut take: impl FnMut(&Observer<G>, (Seat, u32), G::Note),
) -> Result<Observer<G>, String> {
    let mut table = Observer::<G>::new(transcript.table);
    for &i in order {
        let frame = &transcript.frames[i];
        let from = wire::from_seat(frame.from);
        let notes = table
            .receive(from, &frame.bytes)
            .map_err(|e| format!("frame {i} (from the {from}): {e}"))?;
        // The frame just taken in is its sender's newest: no second decoding.
        let seq = table.chain_head(from).0.saturating_sub(1);
        for note in notes {
            take(&table, (from, seq), note);
        }
    }
    Ok(table)
}

/// The game the table's settings (the host's, in its first frames) name: read from
/// the first host frame that carries settings, not from every frame.
fn table_game(transcript: &Transcript) -> Option<proto::GameKind> {
    transcript
        .frames
        .iter()
        .filter(|saved| saved.from == proto::Seat::Host)
        .find_map(
            |saved| match proto::Frame::decode(&saved.bytes).ok()?.body.payload {
                proto::Payload::Settings(settings) => Some(settings.game),
                _ => None,
            },
        )
}

/// An open game's transcript through a fresh observer, in `order`: the report and
/// the games' records.
fn verify_open<G: OpenGame>(
    transcript: &Transcript,
    order: &[usize],
) -> (Report, Vec<OpenRecord<G>>) {
    let mut games: Vec<OpenRecord<G>> = Vec::new();
    let table = match take_all::<Open<G>>(transcript, order, |_, (from, seq), note| {
        let game = games.last_mut();
        match (note, game) {
            (open::Note::Opened { number, id, first }, _) => {
                games.push(OpenRecord {
                    number,
                    id,
                    first,
                    moves: Vec::new(),
                    outcome: None,
                    verdict: None,
                    claimed: false,
                    void: Vec::new(),
                });
            }
            (open::Note::Moved(step), Some(game)) => game.moves.push(step),
            (open::Note::Undone(step), Some(game)) => {
                game.moves.pop();
                game.outcome = None;
                game.void.push((step.seat, step.seq));
            }
            (open::Note::Void, Some(game)) => game.void.push((from, seq)),
            (open::Note::Ended(outcome), Some(game)) => game.outcome = Some(outcome),
            (open::Note::Settled(verdict), Some(game)) => game.verdict = Some(verdict),
            (open::Note::ForfeitClaimed { .. }, Some(game)) => game.claimed = true,
            (open::Note::ClaimRefuted { .. }, Some(game)) => game.claimed = false,
            _ => {}
        }
    }) {
        Ok(table) => table,
        Err(why) => {
            let mut report = Report::malformed(why);
            report.table = Some(transcript.table);
            return (report, Vec::new());
        }
    };
    let mut report = Report {
        table: Some(transcript.table),
        settings: None,
        games: Vec::new(),
        archimedes: Vec::new(),
        icehouse: Vec::new(),
        left: [false; 2],
        outcome: Outcome::Honest,
    };
    report.settings = table.settings();
    report.left = Seat::BOTH.map(|seat| table.left(seat));
    report.outcome = if let Some(lie) = table.first_lie() {
        Outcome::Lie(lie)
    } else if games.is_empty() {
        Outcome::Incomplete("no game was played".into())
    } else if let Some(open) = games.iter().find(|g| g.verdict.is_none()) {
        Outcome::Incomplete(match table.pending_claim() {
            Some(claim) => format!(
                "game {}: {}, and the transcript ends before the {} answered the claim",
                open.number + 1,
                claim.reason(),
                claim.claimant.other()
            ),
            None => format!(
                "game {} has no result: the transcript stops before its end was settled",
                open.number + 1
            ),
        })
    } else {
        Outcome::Honest
    };
    (report, games)
}

/// The frames' canonical order (PROTOCOL §7): each chain in `seq` order, every frame
/// after the frame its `seen` names, and of two frames that could go next the host's
/// first — the order the host's own table took them in. Any legal order of the same
/// frames gives this one, so the record does not hang on which player saved the file.
/// `None` when the frames do not form two whole chains (a gap, a repeat, a link to
/// nothing, an undecodable frame): they are then taken in the file's order, and its
/// first fault is what `verify` reports.
fn canonical(frames: &[proto::SavedFrame]) -> Option<Vec<usize>> {
    let mut chains: [Vec<(usize, [u8; 32])>; 2] = [Vec::new(), Vec::new()];
    let mut at: [HashMap<[u8; 32], usize>; 2] = [HashMap::new(), HashMap::new()];
    for (i, saved) in frames.iter().enumerate() {
        let seat = wire::from_seat(saved.from).index();
        let body = proto::Frame::decode(&saved.bytes).ok()?.body;
        if body.seq as usize != chains[seat].len() {
            return None;
        }
        at[seat].insert(frame_hash(&saved.bytes), chains[seat].len());
        chains[seat].push((i, body.seen));
    }
    // Where each frame's `seen` points in the other chain (None: nothing seen yet).
    let mut seen: [Vec<Option<usize>>; 2] = [Vec::new(), Vec::new()];
    for seat in 0..2 {
        for (_, hash) in &chains[seat] {
            seen[seat].push(if *hash == [0; 32] {
                None
            } else {
                Some(*at[1 - seat].get(hash)?)
            });
        }
    }
    let mut next = [0usize; 2];
    let mut order = Vec::with_capacity(frames.len());
    while order.len() < frames.len() {
        let ready = |seat: usize| {
            next[seat] < chains[seat].len()
                && seen[seat][next[seat]].is_none_or(|k| k < next[1 - seat])
        };
        let seat = if ready(0) {
            0
        } else if ready(1) {
            1
        } else {
            return None;
        };
        order.push(chains[seat][next[seat]].0);
        next[seat] += 1;
    }
    Some(order)
}

/// The table's outcome: the first lie, else the first game without an honest result.
fn outcome(table: &Table, games: &[GameRecord]) -> Outcome {
    if let Some(lie) = table.first_lie() {
        return Outcome::Lie(lie);
    }
    if games.is_empty() {
        return Outcome::Incomplete("no game was played".into());
    }
    let Some(open) = games
        .iter()
        .find(|g| !matches!(g.verdict, Some(Verdict::Honest(_))))
    else {
        return Outcome::Honest;
    };
    let number = open.number + 1;
    Outcome::Incomplete(match (&open.verdict, open.claim) {
        (Some(Verdict::Incomplete(why)), _) => format!("game {number}: {why}"),
        (_, Some(claim)) => format!(
            "game {number}: {}, and the transcript ends before the {} answered the claim",
            claim.reason(),
            claim.claimant.other(),
        ),
        _ => format!("game {number} has no result: the transcript stops before both reveals"),
    })
}

impl Report {
    /// How many games opened at the table, whatever its game.
    pub fn game_count(&self) -> usize {
        self.games.len() + self.archimedes.len() + self.icehouse.len()
    }

    /// Whether the table's last game is done: settled, or a forfeit claim against a
    /// side stands (no resuming would answer it). False when no game opened.
    pub fn last_done(&self) -> bool {
        match (
            self.games.last(),
            self.archimedes.last(),
            self.icehouse.last(),
        ) {
            (Some(g), _, _) => g.verdict.is_some() || g.claim.is_some(),
            (None, Some(g), _) => g.verdict.is_some() || g.claimed,
            (None, None, Some(g)) => g.verdict.is_some() || g.claimed,
            (None, None, None) => false,
        }
    }

    /// `seat`'s half points over the games that ended (2 a win, 1 a draw).
    pub fn half_points(&self, seat: Seat) -> u32 {
        let half = |winner: Option<Seat>| match winner {
            None => 1,
            Some(w) if w == seat => 2,
            Some(_) => 0,
        };
        let winners = self.games.iter().filter_map(|g| g.ending.map(|e| e.winner));
        let arch = self
            .archimedes
            .iter()
            .filter_map(|g| g.outcome.map(|o| o.winner));
        let ice = self
            .icehouse
            .iter()
            .filter_map(|g| g.outcome.map(|o| o.winner));
        winners.chain(arch).chain(ice).map(half).sum()
    }

    fn malformed(why: String) -> Self {
        Self {
            table: None,
            settings: None,
            games: Vec::new(),
            archimedes: Vec::new(),
            icehouse: Vec::new(),
            left: [false; 2],
            outcome: Outcome::Malformed(why),
        }
    }
}
