//! A game of Icehouse Armada against the computer: the computer lays its fleet when
//! the table opens (unseen until the person's is laid), the person's placement and
//! actions in, the computer's actions one by one after a moment's thought, each saved
//! before it is shown; the clock is the caller's.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt as _, SeedableRng as _};

use crate::icehouse::{
    Action, Fleet, FleetError, Game, Goal, Level, Placed, PlacementError, Played, Refusal, Setup,
    Side, Squadron, check_placement, check_points, choose, random_placement,
};
use crate::session::Millis;
use crate::store::{IcehouseGame, Store};

use super::pace::Pace;

/// What the person chose at home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IcehouseChoice {
    pub level: Level,
    /// How the fleets are chosen: basic, advanced (the numbers given) or points.
    pub setup: Setup,
    /// The person's squadron in the basic and advanced setups.
    pub squadron: Squadron,
    /// The person's own fleet in the points setup (worth 12).
    pub own: Fleet,
    pub goal: IcehouseGoal,
}

/// The points fleets the computer draws from: every fleet worth 12 with at most
/// four ships of a size.
fn points_fleets() -> Vec<Fleet> {
    let mut fleets = Vec::new();
    for large in 0..=4 {
        for medium in 0..=4 {
            for small in 0..=4 {
                let fleet = Fleet::new(large, medium, small);
                if check_points(fleet).is_ok() {
                    fleets.push(fleet);
                }
            }
        }
    }
    fleets
}

/// The goal as the person chooses it: in a breakthrough, whether the person attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum IcehouseGoal {
    SinkAll,
    Flagship,
    Breakthrough { person_attacks: bool },
}

impl IcehouseGoal {
    /// The goal as a table's settings carry it, the person hosting.
    pub const fn hosted(self) -> armada_proto::IceGoal {
        match self {
            Self::SinkAll => armada_proto::IceGoal::SinkAll,
            Self::Flagship => armada_proto::IceGoal::Flagship,
            Self::Breakthrough { person_attacks } => armada_proto::IceGoal::Breakthrough {
                host_attacks: person_attacks,
            },
        }
    }
}

/// Why the person's placement or action was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IcehouseError {
    #[error("{0}")]
    Placement(#[from] PlacementError),
    #[error("{0}")]
    Refused(#[from] Refusal),
    #[error("the fleet is laid already")]
    Placed,
    #[error("the fleet is not laid yet")]
    NotPlaced,
    #[error("it is the computer's turn")]
    NotYourTurn,
}

/// The table: the saved game, the game it replays to, and when the computer acts.
#[derive(Debug)]
pub struct IcehouseTable {
    saved: IcehouseGame,
    /// `None` until the person's fleet is laid.
    game: Option<Game>,
    store: Option<Store>,
    rng: ChaCha8Rng,
    pace: Pace<Played>,
}

impl IcehouseTable {
    /// A new table: the person's side (south moves first) by lot, the computer's
    /// fleet laid at once and kept from the screen until the person's is laid.
    pub fn new(choice: IcehouseChoice, store: Option<Store>, seed: u64) -> Result<Self, String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let person = if rng.random_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let goal = match choice.goal {
            IcehouseGoal::SinkAll => Goal::SinkAll,
            IcehouseGoal::Flagship => Goal::Flagship,
            IcehouseGoal::Breakthrough { person_attacks } => Goal::Breakthrough {
                attacker: if person_attacks {
                    person
                } else {
                    person.other()
                },
            },
        };
        choice.setup.check().map_err(|e| e.to_string())?;
        let theirs = match choice.squadron {
            Squadron::Heavy => Squadron::Light,
            Squadron::Light => Squadron::Heavy,
        };
        let mut fleets = if let (Some(mine), Some(theirs)) = (
            choice.setup.fleet(choice.squadron),
            choice.setup.fleet(theirs),
        ) {
            [mine, theirs]
        } else {
            // Points: the person's own, the computer's drawn among those worth 12.
            check_points(choice.own).map_err(|e: FleetError| e.to_string())?;
            let all = points_fleets();
            [choice.own, all[rng.random_range(0..all.len())]]
        };
        if person == Side::North {
            fleets.swap(0, 1);
        }
        let computer = random_placement(
            person.other(),
            fleets[person.other().index()],
            goal,
            &mut rng,
        );
        let saved = IcehouseGame::new(choice.level, goal, person, fleets, computer);
        let table = Self {
            saved,
            game: None,
            store,
            rng,
            pace: Pace::new(),
        };
        table.save()?;
        Ok(table)
    }

    /// The saved game, where it was left; `None` if there is none; why not, if the
    /// file is damaged.
    pub fn resume(store: Store, now: Millis, seed: u64) -> Result<Option<Self>, String> {
        let Some(saved) = store.icehouse()? else {
            return Ok(None);
        };
        let game = saved.game()?;
        let mut table = Self {
            saved,
            game,
            store: Some(store),
            rng: ChaCha8Rng::seed_from_u64(seed),
            pace: Pace::new(),
        };
        table.schedule(now);
        Ok(Some(table))
    }

    /// The computer acts as soon as it is asked (tests and measurements).
    #[must_use]
    pub fn without_pauses(mut self) -> Self {
        self.pace.without_pauses();
        self
    }

    /// The game on the table, once the person's fleet is laid.
    pub const fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    pub const fn saved(&self) -> &IcehouseGame {
        &self.saved
    }

    pub const fn person(&self) -> Side {
        self.saved.person
    }

    pub const fn level(&self) -> Level {
        self.saved.level
    }

    pub const fn goal(&self) -> Goal {
        self.saved.goal
    }

    /// The person's fleet, to be laid.
    pub const fn fleet(&self) -> Fleet {
        self.saved.fleets[self.saved.person.index()]
    }

    /// The side that resigned, if one did.
    pub const fn resigned(&self) -> Option<Side> {
        self.saved.resigned
    }

    /// Whether the game is over, by the rules or by a resignation.
    pub fn is_over(&self) -> bool {
        self.saved.resigned.is_some() || self.game.as_ref().is_some_and(|g| g.ending().is_some())
    }

    /// The winner (`None`: a draw) once the game is over.
    pub fn winner(&self) -> Option<Option<Side>> {
        if let Some(side) = self.saved.resigned {
            return Some(Some(side.other()));
        }
        self.game.as_ref()?.ending().map(|e| e.winner)
    }

    /// Whether it is the person's turn to act.
    pub fn my_turn(&self) -> bool {
        !self.is_over()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.to_move() == self.person())
    }

    /// The person's placement, checked by the page: laid, saved, and the first turn
    /// scheduled (the computer's, when it moves first).
    pub fn place(&mut self, now: Millis, placement: Vec<Placed>) -> Result<(), IcehouseError> {
        if self.game.is_some() {
            return Err(IcehouseError::Placed);
        }
        check_placement(self.person(), self.goal(), self.fleet(), &placement)?;
        self.saved.placements[self.person().index()] = placement;
        if let Ok(game) = self.saved.game() {
            self.game = game;
        } else {
            // Checked above; the computer's own is the engine's.
            self.saved.placements[self.person().index()].clear();
            return Err(IcehouseError::NotPlaced);
        }
        let _ = self.save();
        self.schedule(now);
        Ok(())
    }

    /// The person's action: played, saved, and the computer's turn scheduled.
    pub fn play(&mut self, now: Millis, action: Action) -> Result<Played, IcehouseError> {
        let game = self.game.as_ref().ok_or(IcehouseError::NotPlaced)?;
        if game.ending().is_none() && self.saved.resigned.is_none() && !self.my_turn() {
            return Err(IcehouseError::NotYourTurn);
        }
        if self.saved.resigned.is_some() {
            return Err(Refusal::Over.into());
        }
        let played = self.apply(action)?;
        self.schedule(now);
        Ok(played)
    }

    /// The person resigns (on either turn, placed or not).
    pub fn resign(&mut self) {
        if self.is_over() {
            return;
        }
        self.saved.resigned = Some(self.person());
        self.pace.stop();
        // The resignation stands whether or not the disk took it.
        let _ = self.save();
    }

    /// When [`IcehouseTable::handle_timeout`] should next be called.
    pub const fn poll_timeout(&self) -> Option<Millis> {
        self.pace.due()
    }

    /// The computer plays one action if its time has come (its turn shows action by
    /// action, each after a pause).
    pub fn handle_timeout(&mut self, now: Millis) {
        if !self.pace.take_due(now) {
            return;
        }
        let Some(game) = &self.game else { return };
        let action = choose(game, self.saved.level, &mut self.rng);
        // The computer only proposes what the rules accept; a refusal would end its
        // turn rather than stall the table.
        if self.apply(action).is_err() {
            let _ = self.apply(Action::EndTurn);
        }
        self.schedule(now);
    }

    /// The next action played (either side's), for the shell to show.
    pub fn poll_played(&mut self) -> Option<Played> {
        self.pace.pop()
    }

    fn apply(&mut self, action: Action) -> Result<Played, IcehouseError> {
        let game = self.game.as_mut().ok_or(IcehouseError::NotPlaced)?;
        let played = game.play(action)?;
        self.saved.actions.push(action);
        // An action the disk refused is still played; the next save carries it.
        let _ = self.save();
        self.pace.push(played);
        Ok(played)
    }

    fn schedule(&mut self, now: Millis) {
        let computer = !self.is_over()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.to_move() != self.person());
        self.pace.schedule(now, computer);
    }

    fn save(&self) -> Result<(), String> {
        match &self.store {
            Some(store) => store
                .save_icehouse(&self.saved)
                .map_err(|e| format!("{e:#}")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(goal: IcehouseGoal) -> IcehouseChoice {
        IcehouseChoice {
            level: Level::Medium,
            setup: Setup::Basic,
            squadron: Squadron::Light,
            own: Fleet::new(1, 3, 3),
            goal,
        }
    }

    /// The advanced setup's numbers and a points fleet of one's own reach the
    /// table; a points fleet not worth 12 is refused with its reason.
    #[test]
    fn the_setups_give_the_fleets_the_person_chose() {
        let advanced = Setup::Advanced {
            heavy: Fleet::new(2, 0, 0),
            light: Fleet::new(0, 1, 3),
        };
        let table = IcehouseTable::new(
            IcehouseChoice {
                setup: advanced,
                squadron: Squadron::Heavy,
                ..choice(IcehouseGoal::SinkAll)
            },
            None,
            3,
        )
        .unwrap();
        assert_eq!(table.fleet(), Fleet::new(2, 0, 0));
        let own = Fleet::new(2, 2, 2);
        let table = IcehouseTable::new(
            IcehouseChoice {
                setup: Setup::Points,
                own,
                ..choice(IcehouseGoal::SinkAll)
            },
            None,
            4,
        )
        .unwrap();
        assert_eq!(table.fleet(), own);
        let computer = table.saved().fleets[table.person().other().index()];
        assert_eq!(computer.pips(), 12, "{computer}");
        let error = IcehouseTable::new(
            IcehouseChoice {
                setup: Setup::Points,
                own: Fleet::new(4, 4, 4),
                ..choice(IcehouseGoal::SinkAll)
            },
            None,
            4,
        )
        .unwrap_err();
        assert!(error.contains("12"), "{error}");
    }

    /// A whole game by the table's interface: the person lays a fleet and plays the
    /// medium captain's choices; the computer acts one action per pause; a table
    /// resumed from the disk mid-game is the same game.
    #[test]
    fn a_game_is_placed_played_saved_and_resumed_where_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let store = || Store::open(Some(dir.path())).unwrap();
        let mut table =
            IcehouseTable::new(choice(IcehouseGoal::SinkAll), Some(store()), 5).unwrap();
        assert!(table.game().is_none());
        let rng = &mut ChaCha8Rng::seed_from_u64(9);
        let mine = random_placement(table.person(), table.fleet(), table.goal(), rng);
        table.place(0, mine.clone()).unwrap();
        assert_eq!(table.place(0, mine), Err(IcehouseError::Placed));
        let mut now = 0;
        let mut actions = 0;
        while !table.is_over() {
            if table.my_turn() {
                let action = choose(table.game().unwrap(), Level::Medium, rng);
                table.play(now, action).unwrap();
            } else {
                let due = table
                    .poll_timeout()
                    .expect("the computer's turn is scheduled");
                let before = table.game().unwrap().clone();
                assert_eq!(
                    table.play(now, Action::EndTurn),
                    Err(IcehouseError::NotYourTurn)
                );
                table.handle_timeout(due - 1);
                assert_eq!(table.game().unwrap(), &before, "the computer waits");
                now = due;
                table.handle_timeout(now);
            }
            assert!(table.poll_played().is_some());
            actions += 1;
            if actions == 7 {
                let again = IcehouseTable::resume(store(), now, 2).unwrap().unwrap();
                assert_eq!(again.game(), table.game());
            }
            assert!(actions < 2_000);
        }
        let saved = store().icehouse().unwrap().unwrap();
        assert_eq!(saved.game().unwrap().as_ref(), table.game());
    }

    #[test]
    fn a_refused_placement_or_action_changes_nothing_and_a_resignation_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let store = || Store::open(Some(dir.path())).unwrap();
        let goal = IcehouseGoal::Breakthrough {
            person_attacks: true,
        };
        let mut table = IcehouseTable::new(choice(goal), Some(store()), 1).unwrap();
        assert_eq!(
            table.goal(),
            Goal::Breakthrough {
                attacker: table.person()
            }
        );
        assert_eq!(
            table.play(0, Action::EndTurn),
            Err(IcehouseError::NotPlaced)
        );
        let error = table.place(0, Vec::new()).unwrap_err();
        assert!(matches!(error, IcehouseError::Placement(_)), "{error}");
        assert!(table.game().is_none());
        table.resign();
        let again = IcehouseTable::resume(store(), 0, 1).unwrap().unwrap();
        assert_eq!(again.winner(), Some(Some(table.person().other())));
        std::fs::write(dir.path().join("icehouse.game"), b"{}").unwrap();
        let error = IcehouseTable::resume(store(), 0, 1).err().unwrap();
        assert!(error.contains("icehouse.game"), "{error}");
    }
}
