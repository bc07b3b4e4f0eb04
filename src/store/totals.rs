//! Totals across games: won, lost, drawn and the win streaks, per opponent (a
//! computer level, or a friend) and variant, kept in `totals.json` beside the saved
//! tables. Each game counts once, by its table and number, when its verdict settles.
//!
//! Architecture invariant: counts what a settled verdict says and nothing else; it
//! never judges a game itself, and a damaged file costs the totals, never a table.

use std::collections::{BTreeMap, BTreeSet};

use crate::ai::Level;
use crate::rules::{Seat, Variant};
use crate::session::Verdict;

/// Who a game was played against: a computer level of its game, or a friend (listed
/// after the levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opponent<L> {
    Computer(L),
    Friend,
}

impl<L: std::fmt::Display> Opponent<L> {
    /// The name the totals file keeps: the level's, or `friend`.
    fn name(self) -> String {
        match self {
            Self::Computer(level) => level.to_string(),
            Self::Friend => "friend".to_owned(),
        }
    }
}

impl<L: std::str::FromStr> Opponent<L> {
    /// The opponent a name in the totals file stands for, if any.
    fn parse(name: &str) -> Option<Self> {
        match name {
            "friend" => Some(Self::Friend),
            level => Some(Self::Computer(level.parse().ok()?)),
        }
    }
}

/// Who sea battles were played against.
pub type Against = Opponent<Level>;

/// The totals' key: the opponent and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kind {
    pub against: Against,
    pub variant: Variant,
}

impl Kind {
    /// The order the home screen lists kinds in: the levels from easy, then friends;
    /// Armada first, then the classic boards from the smallest.
    fn rank(self) -> (u8, u8) {
        let against = match self.against {
            Against::Computer(Level::Easy) => 0,
            Against::Computer(Level::Medium) => 1,
            Against::Computer(Level::Hard) => 2,
            Against::Computer(Level::Random) => 3,
            Against::Friend => 4,
        };
        let variant = match self.variant {
            Variant::Armada => 0,
            Variant::Classic(size) => size.side(),
        };
        (against, variant)
    }

    fn names(self) -> (String, String) {
        let against = self.against.name();
        let variant = match self.variant {
            Variant::Armada => "armada".to_owned(),
            Variant::Classic(size) => format!("classic-{}", size.side()),
        };
        (against, variant)
    }

    fn from_names(against: &str, variant: &str) -> Option<Self> {
        let against = Against::parse(against)?;
        let variant = match variant {
            "armada" => Variant::Armada,
            classic => Variant::classic(classic.strip_prefix("classic-")?.parse().ok()?).ok()?,
        };
        Some(Self { against, variant })
    }
}

impl Ord for Kind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Kind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// How a game ended for this side, as its verdict has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
}

impl Outcome {
    /// The outcome for `me` of a game settled with `verdict`: a proven lie loses it
    /// for the liar, whatever the boards said; an incomplete verdict is no outcome.
    pub fn of(verdict: &Verdict, me: Seat) -> Option<Self> {
        let winner = match verdict {
            Verdict::Honest(ending) => ending.winner,
            Verdict::Lie(lie) => Some(lie.liar.other()),
            Verdict::Incomplete(_) => return None,
        };
        Some(match winner {
            Some(seat) if seat == me => Self::Won,
            Some(_) => Self::Lost,
            None => Self::Drawn,
        })
    }
}

/// The figures of one kind of game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    /// Games won in a row, up to the last one.
    pub streak: u32,
    /// The longest run of games won in a row.
    pub best: u32,
}

impl Tally {
    pub fn played(&self) -> u32 {
        // Saturating: the figures come from a file a person may have edited.
        self.won
            .saturating_add(self.lost)
            .saturating_add(self.drawn)
    }

    /// The share of games won, in whole percent (0 before any game).
    pub fn win_percent(&self) -> u32 {
        match self.played() {
            0 => 0,
            played => ((f64::from(self.won) * 100.0 / f64::from(played)).round()) as u32,
        }
    }

    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Won => {
                self.won = self.won.saturating_add(1);
                self.streak = self.streak.saturating_add(1);
                self.best = self.best.max(self.streak);
            }
            Outcome::Lost => {
                self.lost = self.lost.saturating_add(1);
                self.streak = 0;
            }
            Outcome::Drawn => {
                self.drawn = self.drawn.saturating_add(1);
                self.streak = 0;
            }
        }
    }
}

/// Who Archimedes was played against.
pub type ArchimedesAgainst = Opponent<crate::archimedes::Level>;

/// The totals' key for Archimedes: the opponent and the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArchimedesKind {
    pub against: ArchimedesAgainst,
    pub side: u8,
}

impl ArchimedesKind {
    const PREFIX: &str = "archimedes-";

    fn from_names(against: &str, board: &str) -> Option<Self> {
        let side: u8 = board.strip_prefix(Self::PREFIX)?.parse().ok()?;
        crate::archimedes::SIZES.contains(&side).then_some(())?;
        let against = ArchimedesAgainst::parse(against)?;
        Some(Self { against, side })
    }
}

/// Who Icehouse Armada was played against.
pub type IcehouseAgainst = Opponent<crate::icehouse::Level>;

/// The totals' key for Icehouse Armada: the opponent and the person's squadron.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IcehouseKind {
    pub against: IcehouseAgainst,
    /// The heavy squadron (else the light one).
    pub heavy: bool,
}

impl IcehouseKind {
    const PREFIX: &str = "icehouse-";

    fn from_names(against: &str, kind: &str) -> Option<Self> {
        let heavy = match kind.strip_prefix(Self::PREFIX)? {
            "heavy" => true,
            "light" => false,
            _ => return None,
        };
        let against = IcehouseAgainst::parse(against)?;
        Some(Self { against, heavy })
    }

    fn names(self) -> (String, String) {
        let against = self.against.name();
        let squadron = if self.heavy { "heavy" } else { "light" };
        (against, format!("{}{squadron}", Self::PREFIX))
    }
}

/// Every kind's tally, and which games were counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    tallies: BTreeMap<Kind, Tally>,
    archimedes: BTreeMap<ArchimedesKind, Tally>,
    icehouse: BTreeMap<IcehouseKind, Tally>,
    /// Per table, the numbers of its games already counted: a game shown again (a
    /// redraw, a resumed table, a reopened window) is not counted twice.
    counted: BTreeMap<[u8; 32], BTreeSet<u32>>,
}

impl Totals {
    /// Counts game `game` of table `table`, of `kind`, played by `me`, once its
    /// `verdict` is settled; whether it was counted now (not before, and complete).
    pub fn record(
        &mut self,
        kind: Kind,
        table: &[u8; 32],
        game: u32,
        me: Seat,
        verdict: &Verdict,
    ) -> bool {
        let Some(outcome) = Outcome::of(verdict, me) else {
            return false;
        };
        count_once(
            &mut self.counted,
            &mut self.tallies,
            kind,
            table,
            game,
            outcome,
        )
    }

    /// Counts game `game` of the Archimedes table (or game against the computer)
    /// `id`, of `kind`, that ended so for the person; whether it was counted now (not
    /// before).
    pub fn record_archimedes(
        &mut self,
        kind: ArchimedesKind,
        id: &[u8; 32],
        game: u32,
        outcome: Outcome,
    ) -> bool {
        count_once(
            &mut self.counted,
            &mut self.archimedes,
            kind,
            id,
            game,
            outcome,
        )
    }

    /// Counts a game of Icehouse Armada once, by its table (or saved game) and
    /// number; whether it was counted now.
    pub fn record_icehouse(
        &mut self,
        kind: IcehouseKind,
        id: &[u8; 32],
        game: u32,
        outcome: Outcome,
    ) -> bool {
        count_once(
            &mut self.counted,
            &mut self.icehouse,
            kind,
            id,
            game,
            outcome,
        )
    }

    /// The tally of an Icehouse `kind` (zero if none was played).
    pub fn icehouse_tally(&self, kind: IcehouseKind) -> Tally {
        self.icehouse.get(&kind).copied().unwrap_or_default()
    }

    /// Every Icehouse kind played, by opponent then squadron.
    pub fn icehouse_kinds(&self) -> impl Iterator<Item = (IcehouseKind, Tally)> + '_ {
        self.icehouse.iter().map(|(kind, tally)| (*kind, *tally))
    }

    /// The tally of an Archimedes `kind` (zero if none was played).
    pub fn archimedes_tally(&self, kind: ArchimedesKind) -> Tally {
        self.archimedes.get(&kind).copied().unwrap_or_default()
    }

    /// Every Archimedes kind played, by level then board.
    pub fn archimedes_kinds(&self) -> impl Iterator<Item = (ArchimedesKind, Tally)> + '_ {
        self.archimedes.iter().map(|(kind, tally)| (*kind, *tally))
    }

    /// The tally of `kind` (zero if none was played).
    pub fn tally(&self, kind: Kind) -> Tally {
        self.tallies.get(&kind).copied().unwrap_or_default()
    }

    /// Every kind played, in the home screen's order.
    pub fn kinds(&self) -> impl Iterator<Item = (Kind, Tally)> + '_ {
        self.tallies.iter().map(|(kind, tally)| (*kind, *tally))
    }

    pub fn is_empty(&self) -> bool {
        self.tallies.is_empty() && self.archimedes.is_empty() && self.icehouse.is_empty()
    }

    /// The file's bytes: the totals as JSON, with a check over their compact form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let file = File {
            totals: self.saved(),
            check: String::new(),
        };
        let body = serde_json::to_string(&file.totals).expect("totals are plain data");
        let file = File {
            check: hex::encode(super::check(body.as_bytes())),
            ..file
        };
        serde_json::to_vec_pretty(&file).expect("totals are plain data")
    }

    /// The totals in a file's bytes; `None` if they are damaged (the check fails, or a
    /// kind or a figure makes no sense).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let file: File = serde_json::from_slice(bytes).ok()?;
        let body = serde_json::to_string(&file.totals).ok()?;
        if hex::encode(super::check(body.as_bytes())) != file.check {
            return None;
        }
        let mut totals = Self::default();
        for entry in file.totals.kinds {
            let tally = entry.tally;
            if tally.streak > tally.best || tally.best > tally.won {
                return None;
            }
            let twice = if entry.variant.starts_with(IcehouseKind::PREFIX) {
                let kind = IcehouseKind::from_names(&entry.against, &entry.variant)?;
                totals.icehouse.insert(kind, tally).is_some()
            } else if entry.variant.starts_with(ArchimedesKind::PREFIX) {
                let kind = ArchimedesKind::from_names(&entry.against, &entry.variant)?;
                totals.archimedes.insert(kind, tally).is_some()
            } else {
                let kind = Kind::from_names(&entry.against, &entry.variant)?;
                totals.tallies.insert(kind, tally).is_some()
            };
            if twice {
                return None;
            }
        }
        for (table, games) in file.totals.counted {
            let table = <[u8; 32]>::try_from(hex::decode(table).ok()?).ok()?;
            totals.counted.insert(table, games);
        }
        Some(totals)
    }

    fn saved(&self) -> Saved {
        Saved {
            kinds: self
                .tallies
                .iter()
                .map(|(kind, tally)| {
                    let (against, variant) = kind.names();
                    Entry {
                        against,
                        variant,
                        tally: *tally,
                    }
                })
                .chain(self.archimedes.iter().map(|(kind, tally)| Entry {
                    against: kind.against.name(),
                    variant: format!("{}{}", ArchimedesKind::PREFIX, kind.side),
                    tally: *tally,
                }))
                .chain(self.icehouse.iter().map(|(kind, tally)| {
                    let (against, variant) = kind.names();
                    Entry {
                        against,
                        variant,
                        tally: *tally,
                    }
                }))
                .collect(),
            counted: self
                .counted
                .iter()
                .map(|(table, games)| (hex::encode(table), games.clone()))
                .collect(),
        }
    }
}

/// Adds `outcome` to `kind`'s tally unless game `game` of table `table` was counted
/// before, whatever its game: a table's games are numbered once across kinds. Whether
/// it was counted now.
fn count_once<K: Ord>(
    counted: &mut BTreeMap<[u8; 32], BTreeSet<u32>>,
    tallies: &mut BTreeMap<K, Tally>,
    kind: K,
    table: &[u8; 32],
    game: u32,
    outcome: Outcome,
) -> bool {
    if !counted.entry(*table).or_default().insert(game) {
        return false;
    }
    tallies.entry(kind).or_default().add(outcome);
    true
}

/// `totals.json` as written.
#[derive(serde::Serialize, serde::Deserialize)]
struct File {
    totals: Saved,
    check: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    kinds: Vec<Entry>,
    counted: BTreeMap<String, BTreeSet<u32>>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    against: String,
    variant: String,
    #[serde(flatten)]
    tally: Tally,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{EndReason, Ending};
    use crate::session::Lie;

    const MEDIUM: Kind = Kind {
        against: Against::Computer(Level::Medium),
        variant: Variant::Armada,
    };

    fn ending(winner: Option<Seat>, reason: EndReason) -> Verdict {
        Verdict::Honest(Ending { winner, reason })
    }

    fn won() -> Verdict {
        ending(Some(Seat::Host), EndReason::FleetSunk)
    }

    fn lost() -> Verdict {
        ending(Some(Seat::Guest), EndReason::Resigned)
    }

    fn drawn() -> Verdict {
        ending(None, EndReason::DrawAgreed)
    }

    /// Plays `verdicts` in order as the host, each a game of its own at one table.
    fn played(verdicts: &[Verdict]) -> Totals {
        let mut totals = Totals::default();
        for (game, verdict) in verdicts.iter().enumerate() {
            assert!(totals.record(MEDIUM, &[1; 32], game as u32, Seat::Host, verdict));
        }
        totals
    }

    #[test]
    fn wins_losses_and_draws_are_counted_with_the_share_won() {
        let totals = played(&[won(), won(), lost(), drawn(), won()]);
        let tally = totals.tally(MEDIUM);
        assert_eq!((tally.won, tally.lost, tally.drawn), (3, 1, 1));
        assert_eq!(tally.played(), 5);
        assert_eq!(tally.win_percent(), 60);
        // Kinds never played are zero; the others are listed.
        let easy = Kind {
            against: Against::Computer(Level::Easy),
            ..MEDIUM
        };
        assert_eq!(totals.tally(easy), Tally::default());
        assert_eq!(totals.kinds().count(), 1);
    }

    /// Icehouse games count per opponent and squadron, once each, and read back.
    #[test]
    fn icehouse_games_are_counted_per_squadron_and_read_back() {
        let mut totals = Totals::default();
        let hard_heavy = IcehouseKind {
            against: IcehouseAgainst::Computer(crate::icehouse::Level::Hard),
            heavy: true,
        };
        let friend_light = IcehouseKind {
            against: IcehouseAgainst::Friend,
            heavy: false,
        };
        assert!(totals.record_icehouse(hard_heavy, &[7; 32], 0, Outcome::Won));
        assert!(!totals.record_icehouse(hard_heavy, &[7; 32], 0, Outcome::Won));
        assert!(totals.record_icehouse(friend_light, &[8; 32], 0, Outcome::Drawn));
        assert_eq!(totals.icehouse_tally(hard_heavy).won, 1);
        assert_eq!(totals.icehouse_tally(friend_light).drawn, 1);
        let again = Totals::from_bytes(&totals.to_bytes()).unwrap();
        assert_eq!(again, totals);
        assert_eq!(again.icehouse_kinds().count(), 2);
    }

    #[test]
    fn the_streak_counts_wins_in_a_row_and_the_best_run_is_kept() {
        let totals = played(&[won(), won(), won(), lost(), won(), drawn(), won(), won()]);
        let tally = totals.tally(MEDIUM);
        assert_eq!((tally.streak, tally.best), (2, 3));
        let totals = played(&[won(), lost()]);
        assert_eq!(
            (totals.tally(MEDIUM).streak, totals.tally(MEDIUM).best),
            (0, 1)
        );
    }

    /// A liar who sank every ship still lost: the verdict decides, as the headline does.
    #[test]
    fn a_proven_lie_counts_for_the_honest_side() {
        let lie = Verdict::Lie(Lie {
            liar: Seat::Guest,
            seq: 7,
            reason: "no such ship".into(),
        });
        assert_eq!(Outcome::of(&lie, Seat::Host), Some(Outcome::Won));
        assert_eq!(Outcome::of(&lie, Seat::Guest), Some(Outcome::Lost));
        let mut totals = Totals::default();
        assert!(totals.record(MEDIUM, &[1; 32], 1, Seat::Guest, &lie));
        assert_eq!(totals.tally(MEDIUM).lost, 1);
    }

    #[test]
    fn an_incomplete_verdict_is_not_counted_until_one_settles_the_game() {
        let mut totals = Totals::default();
        let incomplete = Verdict::Incomplete("a reveal is missing".into());
        assert!(!totals.record(MEDIUM, &[1; 32], 1, Seat::Host, &incomplete));
        assert!(totals.is_empty());
        assert!(totals.record(MEDIUM, &[1; 32], 1, Seat::Host, &won()));
        assert_eq!(totals.tally(MEDIUM).won, 1);
    }

    #[test]
    fn the_same_game_recorded_twice_counts_once() {
        let mut totals = Totals::default();
        assert!(totals.record(MEDIUM, &[1; 32], 1, Seat::Host, &won()));
        assert!(!totals.record(MEDIUM, &[1; 32], 1, Seat::Host, &won()));
        // Read back from its file, it still knows the game.
        let mut again = Totals::from_bytes(&totals.to_bytes()).unwrap();
        assert_eq!(again, totals);
        assert!(!again.record(MEDIUM, &[1; 32], 1, Seat::Host, &lost()));
        // The next game of the table, and game 1 of another table, are new.
        assert!(again.record(MEDIUM, &[1; 32], 2, Seat::Host, &lost()));
        assert!(again.record(MEDIUM, &[2; 32], 1, Seat::Host, &drawn()));
        let tally = again.tally(MEDIUM);
        assert_eq!((tally.won, tally.lost, tally.drawn), (1, 1, 1));
    }

    #[test]
    fn a_damaged_file_reads_as_no_totals() {
        let mut totals = played(&[won(), lost()]);
        let friend = Kind {
            against: Against::Friend,
            variant: Variant::classic(12).unwrap(),
        };
        assert!(totals.record(friend, &[3; 32], 1, Seat::Guest, &won()));
        let bytes = totals.to_bytes();
        assert_eq!(Totals::from_bytes(&bytes), Some(totals));
        // A figure changed by hand or by the disk, a file cut short, not JSON at all.
        let text = String::from_utf8(bytes.clone()).unwrap();
        let edited = text.replacen("\"won\": 1", "\"won\": 9", 1);
        assert_ne!(edited, text);
        assert_eq!(Totals::from_bytes(edited.as_bytes()), None);
        assert_eq!(Totals::from_bytes(&bytes[..bytes.len() / 2]), None);
        assert_eq!(Totals::from_bytes(b"\x00\x01garbage"), None);
        assert_eq!(Totals::from_bytes(b""), None);
    }

    #[test]
    fn a_damaged_file_is_set_aside_and_the_totals_start_from_zero() {
        let dir = tempfile::tempdir().unwrap();
        let store = super::super::Store::open(Some(dir.path())).unwrap();
        assert_eq!(store.totals().unwrap(), Totals::default());
        let totals = played(&[won()]);
        store.save_totals(&totals).unwrap();
        assert_eq!(store.totals().unwrap(), totals);
        std::fs::write(dir.path().join("totals.json"), b"{\"totals\": ").unwrap();
        let lost = store.totals().unwrap_err();
        let aside = dir.path().join("totals.damaged.json");
        assert_eq!(lost.kept.as_ref(), Some(&aside));
        assert_eq!(std::fs::read(&aside).unwrap(), b"{\"totals\": ");
        assert_eq!(store.totals().unwrap(), Totals::default());
        // A second damaged file is kept beside the first, not over it.
        std::fs::write(dir.path().join("totals.json"), b"again").unwrap();
        let lost = store.totals().unwrap_err();
        let second = dir.path().join("totals.damaged.1.json");
        assert_eq!(lost.kept.as_ref(), Some(&second));
        assert_eq!(std::fs::read(second).unwrap(), b"again");
        assert_eq!(std::fs::read(aside).unwrap(), b"{\"totals\": ");
    }

    /// A file that cannot even be read is left where it is, untouched.
    #[test]
    fn an_unreadable_file_is_left_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let store = super::super::Store::open(Some(dir.path())).unwrap();
        // A directory where the file should be: reading it fails, not with NotFound.
        std::fs::create_dir(dir.path().join("totals.json")).unwrap();
        let lost = store.totals().unwrap_err();
        assert_eq!(lost.kept, None);
        assert!(dir.path().join("totals.json").is_dir());
    }

    #[test]
    fn kinds_are_listed_by_level_then_friends_and_by_board() {
        let mut totals = Totals::default();
        let kinds = [
            (Against::Friend, Variant::Armada),
            (Against::Computer(Level::Hard), Variant::classic(8).unwrap()),
            (
                Against::Computer(Level::Easy),
                Variant::classic(12).unwrap(),
            ),
            (Against::Computer(Level::Easy), Variant::Armada),
        ];
        for (i, (against, variant)) in kinds.into_iter().enumerate() {
            let kind = Kind { against, variant };
            assert!(totals.record(kind, &[i as u8; 32], 1, Seat::Host, &won()));
        }
        let listed: Vec<_> = totals
            .kinds()
            .map(|(k, _)| (k.against, k.variant))
            .collect();
        let mut expected = kinds.to_vec();
        expected.reverse();
        assert_eq!(listed, expected);
    }

    #[test]
    fn archimedes_games_are_counted_once_per_opponent_and_board_and_read_back() {
        use crate::archimedes::Level as A;
        let insane = ArchimedesKind {
            against: ArchimedesAgainst::Computer(A::Insane),
            side: 8,
        };
        let easy = ArchimedesKind {
            against: ArchimedesAgainst::Computer(A::Easy),
            side: 6,
        };
        let friend = ArchimedesKind {
            against: ArchimedesAgainst::Friend,
            side: 6,
        };
        let mut totals = Totals::default();
        assert!(totals.record_archimedes(insane, &[1; 32], 0, Outcome::Won));
        assert!(
            !totals.record_archimedes(insane, &[1; 32], 0, Outcome::Won),
            "once"
        );
        assert!(totals.record_archimedes(insane, &[2; 32], 0, Outcome::Lost));
        assert!(totals.record_archimedes(easy, &[3; 32], 0, Outcome::Won));
        // A friend's table: each of its games once, by its number.
        assert!(totals.record_archimedes(friend, &[5; 32], 0, Outcome::Drawn));
        assert!(totals.record_archimedes(friend, &[5; 32], 1, Outcome::Won));
        assert!(!totals.record_archimedes(friend, &[5; 32], 1, Outcome::Won));
        totals.record(MEDIUM, &[4; 32], 0, Seat::Host, &won());
        let back = Totals::from_bytes(&totals.to_bytes()).unwrap();
        assert_eq!(back, totals);
        let tally = back.archimedes_tally(insane);
        assert_eq!(
            (tally.won, tally.lost, tally.best, tally.streak),
            (1, 1, 1, 0)
        );
        assert_eq!(back.archimedes_tally(easy).won, 1);
        let tally = back.archimedes_tally(friend);
        assert_eq!((tally.won, tally.drawn), (1, 1));
        assert_eq!(back.tally(MEDIUM).won, 1);
        let kinds: Vec<_> = back.archimedes_kinds().map(|(k, _)| k).collect();
        assert_eq!(kinds, [easy, insane, friend], "levels first, then friends");
    }
}
