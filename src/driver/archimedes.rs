//! A game of Archimedes against the computer: the person's moves in, the computer's
//! after a moment's thought, each move saved before it is shown; the clock is the
//! caller's. There is nothing hidden in this game, so no session and no signatures
//! (a friend's table will need them; the computer cannot lie to itself).

use rand::SeedableRng as _;
use rand::rngs::ChaCha8Rng;

use crate::archimedes::{Level, Move, MoveError, Played, Position, Side, choose};
use crate::session::Millis;
use crate::store::{ArchimedesGame, Store};

use super::pace::Pace;

/// The table: the position, who plays which fleet, and when the computer moves.
#[derive(Debug)]
pub struct ArchimedesTable {
    game: ArchimedesGame,
    position: Position,
    store: Option<Store>,
    rng: ChaCha8Rng,
    pace: Pace<Played>,
}

impl ArchimedesTable {
    /// A new game on a `size` board against `level`; the person has the first fleet
    /// and moves first, as the source says.
    pub fn new(size: u8, level: Level, store: Option<Store>, seed: u64) -> Result<Self, String> {
        let game = ArchimedesGame::new(size, level, Side::First);
        let position = game.position()?;
        let table = Self {
            game,
            position,
            store,
            rng: ChaCha8Rng::seed_from_u64(seed),
            pace: Pace::new(),
        };
        table.save()?;
        Ok(table)
    }

    /// The saved game, where it was left (the computer moves again if it was its
    /// turn); `None` if there is none; why not, if the file is damaged.
    pub fn resume(store: Store, now: Millis, seed: u64) -> Result<Option<Self>, String> {
        let Some(game) = store.archimedes()? else {
            return Ok(None);
        };
        let position = game.position()?;
        let mut table = Self {
            game,
            position,
            store: Some(store),
            rng: ChaCha8Rng::seed_from_u64(seed),
            pace: Pace::new(),
        };
        table.schedule(now);
        Ok(Some(table))
    }

    /// The computer moves as soon as it is asked (tests and measurements).
    #[must_use]
    pub fn without_pauses(mut self) -> Self {
        self.pace.without_pauses();
        self
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The last move played, by either side.
    pub fn last_move(&self) -> Option<Move> {
        self.game.moves.last().copied()
    }

    /// The game's random name (the totals count it once by it).
    pub fn id(&self) -> [u8; 32] {
        self.game.id
    }

    pub fn level(&self) -> Level {
        self.game.level
    }

    /// The person's fleet.
    pub fn person(&self) -> Side {
        self.game.person
    }

    /// The person's move: played, saved, and the computer's turn scheduled.
    pub fn play(&mut self, now: Millis, mv: Move) -> Result<(), MoveError> {
        if !self.position.is_over() && self.position.mover() != self.game.person {
            return Err(MoveError::NotYours(mv.from));
        }
        self.apply(mv)?;
        self.schedule(now);
        Ok(())
    }

    /// The person resigns (on either turn).
    pub fn resign(&mut self) -> Result<(), MoveError> {
        self.position.resign(self.game.person)?;
        self.game.resigned = Some(self.game.person);
        self.pace.stop();
        // The resignation stands in the position whether or not the disk took it.
        let _ = self.save();
        Ok(())
    }

    /// When [`ArchimedesTable::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.pace.due()
    }

    /// The computer moves if its time has come.
    pub fn handle_timeout(&mut self, now: Millis) {
        if !self.pace.take_due(now) {
            return;
        }
        if let Some(mv) = choose(&self.position, self.game.level, &mut self.rng) {
            // The computer only chooses legal moves.
            let _ = self.apply(mv);
        }
    }

    /// The next move played (either side's), for the shell to show.
    pub fn poll_played(&mut self) -> Option<Played> {
        self.pace.pop()
    }

    fn apply(&mut self, mv: Move) -> Result<(), MoveError> {
        let played = self.position.play(mv)?;
        self.game.moves.push(mv);
        // A move the disk refused is still played; the next save carries it.
        let _ = self.save();
        self.pace.push(played);
        Ok(())
    }

    fn schedule(&mut self, now: Millis) {
        let computer = !self.position.is_over() && self.position.mover() != self.game.person;
        self.pace.schedule(now, computer);
    }

    fn save(&self) -> Result<(), String> {
        match &self.store {
            Some(store) => store
                .save_archimedes(&self.game)
                .map_err(|e| format!("{e:#}")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole game by the table's own interface: the person plays the first legal
    /// move each turn, the computer answers after its pause, every move is saved,
    /// and a table resumed from the disk mid-game is the same position.
    #[test]
    fn a_game_is_played_saved_and_resumed_where_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let store = || Store::open(Some(dir.path())).unwrap();
        let mut table = ArchimedesTable::new(6, Level::Easy, Some(store()), 1).unwrap();
        let mut now = 0;
        let mut moves = 0;
        while !table.position().is_over() {
            let mv = table.position().legal_moves()[0];
            table.play(now, mv).unwrap();
            assert!(table.poll_played().is_some());
            // Not the person's turn now: a move is refused and changes nothing.
            if let Some(due) = table.poll_timeout() {
                let before = table.position().clone();
                let theirs = table.position().legal_moves()[0];
                assert!(table.play(now, theirs).is_err());
                assert_eq!(table.position(), &before);
                table.handle_timeout(due - 1);
                assert_eq!(table.position(), &before, "the computer waits its turn");
                now = due;
                table.handle_timeout(now);
                assert!(table.poll_played().is_some());
            }
            moves += 1;
            if moves == 3 {
                let again = ArchimedesTable::resume(store(), now, 2).unwrap().unwrap();
                assert_eq!(again.position(), table.position());
                assert_eq!(again.level(), Level::Easy);
            }
            assert!(moves < 500);
        }
        let saved = store().archimedes().unwrap().unwrap();
        assert_eq!(saved.position().unwrap(), *table.position());
    }

    #[test]
    fn a_resignation_is_saved_and_a_damaged_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(Some(dir.path())).unwrap();
        let mut table = ArchimedesTable::new(8, Level::Medium, Some(store), 1).unwrap();
        table.resign().unwrap();
        let store = Store::open(Some(dir.path())).unwrap();
        let again = ArchimedesTable::resume(store, 0, 1).unwrap().unwrap();
        assert_eq!(
            again.position().ending().unwrap().winner,
            Some(Side::Second)
        );
        std::fs::write(dir.path().join("archimedes.game"), b"{}").unwrap();
        let store = Store::open(Some(dir.path())).unwrap();
        let error = ArchimedesTable::resume(store, 0, 1).err().unwrap();
        assert!(error.contains("archimedes.game is damaged"), "{error}");
    }
}
