//! A game of Archimedes against the computer, saved after every move: the board's
//! side, the level, the person's fleet and the moves. Reading it replays the moves
//! through the engine, so a file that does not replay is damaged, never played from.

use serde::{Deserialize, Serialize};

use crate::archimedes::{Level, Move, Position, Side};
use crate::rules::BoardSize;

/// The saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchimedesGame {
    /// A random name for this game, so the totals count it once.
    pub id: [u8; 32],
    pub size: u8,
    pub level: Level,
    /// The person's fleet (the computer has the other).
    pub person: Side,
    /// Every move played, in order.
    pub moves: Vec<Move>,
    /// The side that resigned, if one did.
    pub resigned: Option<Side>,
}

/// The file's form: plain words and cell names.
#[derive(Serialize, Deserialize)]
struct File {
    /// Hex; absent in a file written before games had one (then all zeros).
    #[serde(default)]
    id: Option<String>,
    size: u8,
    level: String,
    person: String,
    moves: Vec<String>,
    resigned: Option<String>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn side_of(name: &str) -> Option<Side> {
    match name {
        "first" => Some(Side::First),
        "second" => Some(Side::Second),
        _ => None,
    }
}

impl ArchimedesGame {
    /// A new game: nothing played yet.
    pub fn new(size: u8, level: Level, person: Side) -> Self {
        let id = crate::fair::secret::Secret::<32>::fresh()
            .map(|s| *s.expose())
            .unwrap_or_default();
        Self {
            id,
            size,
            level,
            person,
            moves: Vec::new(),
            resigned: None,
        }
    }

    /// The position the moves lead to; why not, if one of them is refused.
    pub fn position(&self) -> Result<Position, String> {
        let mut position = Position::start(self.size).map_err(|e| e.to_string())?;
        for (n, mv) in self.moves.iter().enumerate() {
            position
                .play(*mv)
                .map_err(|e| format!("move {} ({mv}): {e}", n + 1))?;
        }
        if let Some(side) = self.resigned {
            position
                .resign(side)
                .map_err(|e| format!("the resignation: {e}"))?;
        }
        Ok(position)
    }

    /// The file's bytes (JSON, then a check).
    pub fn to_bytes(&self) -> Vec<u8> {
        let file = File {
            id: Some(hex::encode(self.id)),
            size: self.size,
            level: self.level.to_string(),
            person: side_name(self.person).to_owned(),
            moves: self.moves.iter().map(ToString::to_string).collect(),
            resigned: self.resigned.map(|s| side_name(s).to_owned()),
        };
        super::sealed(serde_json::to_vec(&file).expect("a saved game is plain data"))
    }

    /// The game in a file's bytes; why not, if the check fails or it does not replay.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let body = super::unsealed(bytes).ok_or("it fails its check")?;
        let file: File = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        let size = BoardSize::new(file.size).ok_or("no such board")?;
        let id = match &file.id {
            Some(text) => hex::decode(text)
                .ok()
                .and_then(|b| <[u8; 32]>::try_from(b).ok())
                .ok_or("its id is not 32 bytes of hex")?,
            None => [0; 32],
        };
        let game = Self {
            id,
            size: file.size,
            level: file.level.parse()?,
            person: side_of(&file.person).ok_or("no such side")?,
            moves: file
                .moves
                .iter()
                .map(|m| Move::parse(m, size).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?,
            resigned: match &file.resigned {
                Some(name) => Some(side_of(name).ok_or("no such side")?),
                None => None,
            },
        };
        game.position()?;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played() -> ArchimedesGame {
        let mut game = ArchimedesGame::new(6, Level::Hard, Side::First);
        let mut position = game.position().unwrap();
        for _ in 0..6 {
            let mv = position.legal_moves()[0];
            position.play(mv).unwrap();
            game.moves.push(mv);
        }
        game
    }

    #[test]
    fn a_saved_game_reads_back_as_it_was() {
        let game = played();
        let bytes = game.to_bytes();
        assert_eq!(ArchimedesGame::from_bytes(&bytes).unwrap(), game);
        let mut resigned = game.clone();
        resigned.resigned = Some(Side::First);
        let back = ArchimedesGame::from_bytes(&resigned.to_bytes()).unwrap();
        assert!(back.position().unwrap().is_over());
    }

    #[test]
    fn a_damaged_or_impossible_file_is_refused_with_a_reason() {
        let bytes = played().to_bytes();
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(ArchimedesGame::from_bytes(&bytes[..cut]).is_err(), "{cut}");
        }
        let mut flipped = bytes.clone();
        flipped[5] ^= 1;
        assert!(ArchimedesGame::from_bytes(&flipped).is_err());
        // Sealed, but a move the engine refuses: named.
        let mut bad = played();
        let a1 = crate::rules::Coord::new(0, 0).unwrap();
        bad.moves.push(Move { from: a1, to: a1 });
        let error = ArchimedesGame::from_bytes(&bad.to_bytes()).unwrap_err();
        assert!(error.starts_with("move 7"), "{error}");
        let mut size = played();
        size.size = 7;
        assert!(ArchimedesGame::from_bytes(&size.to_bytes()).is_err());
    }
}
