//! A game of Icehouse Armada against the computer, saved after every action: the level, the goal, the person's side, both fleets, both placements (the person's once laid) and the actions. Reading it replays them through the engine, so a file that does not replay is damaged, never played from.

use serde::{Deserialize, Serialize};

use crate::icehouse::{
    Action, Broadside, Fleet, Game, Goal, Level, Placed, Point, Pose, Shot, Side, Size, Steps,
};

/// The saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IcehouseGame {
    /// A random name for this game, so the totals count it once.
    pub id: [u8; 32],
    pub level: Level,
    pub goal: Goal,
    /// The person's side (south moves first).
    pub person: Side,
    /// South's fleet and north's.
    pub fleets: [Fleet; 2],
    /// South's placement and north's; the person's is empty until laid.
    pub placements: [Vec<Placed>; 2],
    /// Every action played, in order.
    pub actions: Vec<Action>,
    /// The side that resigned, if one did.
    pub resigned: Option<Side>,
}

/// The file's form: plain words and micrometres.
#[derive(Serialize, Deserialize)]
struct File {
    id: String,
    level: String,
    /// `sink`, `flagship`, `breakthrough south` or `breakthrough north` (the attacker).
    goal: String,
    person: String,
    /// Each as `1L 3M 3S`.
    fleets: [String; 2],
    placements: [Vec<Ship>; 2],
    actions: Vec<Act>,
    resigned: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Ship {
    size: char,
    stern: [i64; 2],
    bow: [i64; 2],
    flagship: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Act {
    End,
    Move {
        ship: u8,
        bows: Vec<[i64; 2]>,
    },
    Fire {
        ship: u8,
        side: String,
        o: i64,
        j: i64,
        target: u8,
        at: [i64; 2],
    },
}

fn side_of(name: &str) -> Result<Side, String> {
    match name {
        "south" => Ok(Side::South),
        "north" => Ok(Side::North),
        other => Err(format!("{other:?} is no side")),
    }
}

fn goal_name(goal: Goal) -> String {
    match goal {
        Goal::SinkAll => "sink".into(),
        Goal::Flagship => "flagship".into(),
        Goal::Breakthrough { attacker } => format!("breakthrough {attacker}"),
    }
}

fn goal_of(name: &str) -> Result<Goal, String> {
    Ok(match name {
        "sink" => Goal::SinkAll,
        "flagship" => Goal::Flagship,
        _ => Goal::Breakthrough {
            attacker: side_of(
                name.strip_prefix("breakthrough ")
                    .ok_or_else(|| format!("{name:?} is no goal"))?,
            )?,
        },
    })
}

fn fleet_of(text: &str) -> Result<Fleet, String> {
    let bad = || format!("{text:?} is no fleet");
    let counts: Vec<u8> = text
        .split_whitespace()
        .zip(['L', 'M', 'S'])
        .map(|(word, letter)| word.strip_suffix(letter)?.parse().ok())
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    match counts[..] {
        [large, medium, small] => Ok(Fleet::new(large, medium, small)),
        _ => Err(bad()),
    }
}

const fn pair(p: Point) -> [i64; 2] {
    [p.x, p.y]
}

const fn point([x, y]: [i64; 2]) -> Point {
    Point::new(x, y)
}

impl Ship {
    fn of(placed: &Placed) -> Self {
        Self {
            size: placed.size.letter(),
            stern: pair(placed.pose.stern),
            bow: pair(placed.pose.bow),
            flagship: placed.flagship,
        }
    }

    fn placed(&self) -> Result<Placed, String> {
        Ok(Placed {
            size: Size::ALL
                .into_iter()
                .find(|s| s.letter() == self.size)
                .ok_or_else(|| format!("{:?} is no size", self.size))?,
            pose: Pose::new(point(self.stern), point(self.bow)),
            flagship: self.flagship,
        })
    }
}

impl Act {
    fn of(action: &Action) -> Self {
        match action {
            Action::EndTurn => Self::End,
            Action::Move { ship, steps } => Self::Move {
                ship: *ship,
                bows: steps.bows().iter().map(|&p| pair(p)).collect(),
            },
            Action::Fire(shot) => Self::Fire {
                ship: shot.ship,
                side: shot.side.name().to_owned(),
                o: shot.o,
                j: shot.j,
                target: shot.target,
                at: pair(shot.at),
            },
        }
    }

    fn action(&self) -> Result<Action, String> {
        Ok(match self {
            Self::End => Action::EndTurn,
            Self::Move { ship, bows } => Action::Move {
                ship: *ship,
                steps: Steps::new(&bows.iter().map(|&b| point(b)).collect::<Vec<_>>())
                    .ok_or("a move of 1 to 4 steps")?,
            },
            Self::Fire {
                ship,
                side,
                o,
                j,
                target,
                at,
            } => Action::Fire(Shot {
                ship: *ship,
                side: Broadside::BOTH
                    .into_iter()
                    .find(|b| b.name() == side)
                    .ok_or_else(|| format!("{side:?} is no side of a ship"))?,
                o: *o,
                j: *j,
                target: *target,
                at: point(*at),
            }),
        })
    }
}

impl IcehouseGame {
    /// A new game: the computer's placement laid, the person's not yet, nothing played.
    pub fn new(
        level: Level,
        goal: Goal,
        person: Side,
        fleets: [Fleet; 2],
        computer: Vec<Placed>,
    ) -> Self {
        let id = crate::fair::secret::Secret::<32>::fresh()
            .map(|s| *s.expose())
            .unwrap_or_default();
        let mut placements = [Vec::new(), Vec::new()];
        placements[person.other().index()] = computer;
        Self {
            id,
            level,
            goal,
            person,
            fleets,
            placements,
            actions: Vec::new(),
            resigned: None,
        }
    }

    /// The game the placements and actions lead to (a resignation is not the
    /// engine's: it stands beside it): `None` while the person's fleet is not laid;
    /// why not, if a placement or an action is refused.
    pub fn game(&self) -> Result<Option<Game>, String> {
        if self.placements[self.person.index()].is_empty() {
            // A resignation may come before the fleet is laid; an action may not.
            if !self.actions.is_empty() {
                return Err("actions before the person's placement".into());
            }
            return Ok(None);
        }
        let mut game = Game::new(
            self.goal,
            self.fleets,
            [&self.placements[0], &self.placements[1]],
        )
        .map_err(|(side, e)| format!("{side}'s placement: {e}"))?;
        for (n, action) in self.actions.iter().enumerate() {
            game.play(*action)
                .map_err(|e| format!("action {}: {e}", n + 1))?;
        }
        if self.resigned.is_some() && game.ending().is_some() {
            return Err("a resignation after the end".into());
        }
        Ok(Some(game))
    }

    /// The file's bytes (JSON, then a check).
    pub fn to_bytes(&self) -> Vec<u8> {
        let file = File {
            id: hex::encode(self.id),
            level: self.level.to_string(),
            goal: goal_name(self.goal),
            person: self.person.to_string(),
            fleets: self.fleets.map(|f| f.to_string()),
            placements: [0, 1].map(|i| self.placements[i].iter().map(Ship::of).collect()),
            actions: self.actions.iter().map(Act::of).collect(),
            resigned: self.resigned.map(|s| s.to_string()),
        };
        super::sealed(serde_json::to_vec(&file).expect("a saved game is plain data"))
    }

    /// The game in a file's bytes; why not, if the check fails or it does not replay.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let body = super::unsealed(bytes).ok_or("it fails its check")?;
        let file: File = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        let placements = |i: usize| -> Result<Vec<Placed>, String> {
            file.placements[i].iter().map(Ship::placed).collect()
        };
        let game = Self {
            id: hex::decode(&file.id)
                .ok()
                .and_then(|b| <[u8; 32]>::try_from(b).ok())
                .ok_or("its id is not 32 bytes of hex")?,
            level: file.level.parse()?,
            goal: goal_of(&file.goal)?,
            person: side_of(&file.person)?,
            fleets: [fleet_of(&file.fleets[0])?, fleet_of(&file.fleets[1])?],
            placements: [placements(0)?, placements(1)?],
            actions: file
                .actions
                .iter()
                .map(Act::action)
                .collect::<Result<_, _>>()?,
            resigned: file.resigned.as_deref().map(side_of).transpose()?,
        };
        game.game()?;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icehouse::{choose, random_placement};
    use rand::SeedableRng as _;

    /// A flagship game, the person north and light, twenty actions in.
    fn played() -> IcehouseGame {
        let rng = &mut rand::rngs::ChaCha8Rng::seed_from_u64(2);
        let fleets = [Fleet::HEAVY, Fleet::LIGHT];
        let goal = Goal::Flagship;
        let computer = random_placement(Side::South, fleets[0], goal, rng);
        let mut saved = IcehouseGame::new(Level::Hard, goal, Side::North, fleets, computer);
        assert_eq!(saved.game(), Ok(None), "the person has not placed");
        saved.placements[1] = random_placement(Side::North, fleets[1], goal, rng);
        let mut game = saved.game().unwrap().unwrap();
        for _ in 0..20 {
            let action = choose(&game, Level::Medium, rng);
            game.play(action).unwrap();
            saved.actions.push(action);
        }
        saved
    }

    #[test]
    fn a_saved_game_reads_back_as_it_was() {
        let game = played();
        assert_eq!(IcehouseGame::from_bytes(&game.to_bytes()), Ok(game.clone()));
        let mut resigned = game;
        resigned.resigned = Some(Side::North);
        assert_eq!(
            IcehouseGame::from_bytes(&resigned.to_bytes()).map(|g| g.resigned),
            Ok(Some(Side::North))
        );
    }

    #[test]
    fn a_damaged_or_impossible_file_is_refused_with_a_reason() {
        let bytes = played().to_bytes();
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(IcehouseGame::from_bytes(&bytes[..cut]).is_err(), "{cut}");
        }
        let mut flipped = bytes.clone();
        flipped[9] ^= 1;
        assert!(IcehouseGame::from_bytes(&flipped).is_err());
        // Sealed, but an action the engine refuses: named.
        let mut bad = played();
        bad.actions.insert(
            0,
            Action::Move {
                ship: 0,
                steps: Steps::new(&[Point::new(0, 0)]).unwrap(),
            },
        );
        let error = IcehouseGame::from_bytes(&bad.to_bytes()).unwrap_err();
        assert!(error.starts_with("action 1"), "{error}");
        // A placement that breaks the page: named with its side.
        let mut far = played();
        far.placements[1][0].pose.stern.y -= 300_000;
        far.placements[1][0].pose.bow.y -= 300_000;
        let error = IcehouseGame::from_bytes(&far.to_bytes()).unwrap_err();
        assert!(error.starts_with("north's placement"), "{error}");
    }
}
