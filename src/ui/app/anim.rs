//! An action shown as it happens on the board, in beats: a shell falling, a torpedo crossing a cell, the aircraft's approach, the radar's turn.

#[allow(clippy::wildcard_imports)]
use super::*;

/// An action shown as it happens, in beats: a shell falling, a torpedo crossing a
/// cell, the aircraft's approach, the radar's turn. Each beat's effects show on the
/// board when the beat ends; the whole runs at most [`ANIM_MS`].
#[derive(Clone, Debug)]
pub(super) struct Anim {
    /// Whose action it was.
    pub(super) seat: Seat,
    pub(super) action: Action,
    pub(super) effects: Vec<Effect>,
    pub(super) beats: Vec<Beat>,
    pub(super) beat_ms: Millis,
    pub(super) start: Millis,
}

/// One step of an animation: where it is, and the effects it brings.
#[derive(Clone, Debug)]
pub(super) struct Beat {
    pub(super) cell: Coord,
    pub(super) effects: std::ops::Range<usize>,
}

/// The longest an action's animation runs.
pub(super) const ANIM_MS: Millis = 1_400;
/// A shell's fall (a shot, each air-strike shell).
pub(super) const SHELL_MS: Millis = 260;
/// The radar's turn.
pub(super) const SWEEP_MS: Millis = 900;
/// A torpedo crossing one cell, on a line short enough to run it in [`ANIM_MS`].
pub(super) const TORPEDO_CELL_MS: Millis = 160;

/// Where an effect happens on the board.
pub(super) fn effect_cell(effect: &Effect) -> Coord {
    match effect {
        Effect::Miss(c) | Effect::Hit(c) | Effect::Lost(c) => *c,
        Effect::Sunk { cell, .. } | Effect::Scanned { cell, .. } => *cell,
    }
}

impl Anim {
    pub(super) fn new(
        seat: Seat,
        action: Action,
        effects: Vec<Effect>,
        size: crate::rules::BoardSize,
        start: Millis,
    ) -> Self {
        let all = 0..effects.len();
        let (beats, beat_ms) = match action {
            Action::Shot(c) => (
                vec![Beat {
                    cell: c,
                    effects: all,
                }],
                SHELL_MS,
            ),
            Action::Radar(c) => (
                vec![Beat {
                    cell: c,
                    effects: all,
                }],
                SWEEP_MS,
            ),
            Action::AirStrike(c) => {
                // The aircraft comes in over the square, then the shells fall in
                // their order, one a beat.
                let mut beats = vec![Beat {
                    cell: c,
                    effects: 0..0,
                }];
                beats.extend((0..effects.len()).map(|i| Beat {
                    cell: effect_cell(&effects[i]),
                    effects: i..i + 1,
                }));
                let ms = (ANIM_MS / beats.len() as Millis).min(SHELL_MS);
                (beats, ms)
            }
            Action::Torpedo(torpedo) => {
                // The torpedo runs cell by cell over marked cells too, and stops at
                // the deck it hits (the last effect), or leaves the board.
                let path: Vec<Coord> = torpedo
                    .path(size)
                    .map(Iterator::collect)
                    .unwrap_or_default();
                let stop = effects
                    .iter()
                    .rev()
                    .find(|e| e.is_hit())
                    .map(effect_cell)
                    .and_then(|hit| path.iter().position(|c| *c == hit))
                    .map_or(path.len(), |i| i + 1);
                let beats: Vec<Beat> = path[..stop]
                    .iter()
                    .map(|cell| {
                        let first = effects.iter().position(|e| effect_cell(e) == *cell);
                        Beat {
                            cell: *cell,
                            effects: first.map_or(0..0, |i| i..i + 1),
                        }
                    })
                    .collect();
                let ms = (ANIM_MS / beats.len().max(1) as Millis).min(TORPEDO_CELL_MS);
                (beats, ms)
            }
        };
        Self {
            seat,
            action,
            effects,
            beats,
            beat_ms,
            start,
        }
    }

    pub(super) fn end(&self) -> Millis {
        self.start + self.beats.len() as Millis * self.beat_ms
    }

    /// How many beats are over.
    pub(super) fn over(&self, now: Millis) -> usize {
        ((now.saturating_sub(self.start) / self.beat_ms.max(1)) as usize).min(self.beats.len())
    }

    pub(super) fn done(&self, now: Millis) -> bool {
        now >= self.end()
    }

    /// The cells whose effect has not been shown yet: each still looks as before the
    /// action (a sink's ring too). A sunk ship's other decks were hits before the
    /// action: they are in [`Anim::burning`], not here.
    pub(super) fn hidden(&self, now: Millis) -> CellSet {
        let mut cells = CellSet::EMPTY;
        for beat in &self.beats[self.over(now)..] {
            for effect in &self.effects[beat.effects.clone()] {
                match effect {
                    Effect::Miss(c) | Effect::Hit(c) => cells.insert(*c),
                    Effect::Sunk { cell, ring, .. } => {
                        cells |= *ring;
                        cells.insert(*cell);
                    }
                    Effect::Lost(_) | Effect::Scanned { .. } => {}
                }
            }
        }
        cells
    }

    /// The lengths of the ships this action sinks whose sinking is not shown yet.
    pub(super) fn sinks_unseen(&self, now: Millis) -> Vec<u8> {
        self.beats[self.over(now)..]
            .iter()
            .flat_map(|b| &self.effects[b.effects.clone()])
            .filter_map(|e| match e {
                Effect::Sunk { ship, .. } => u8::try_from(ship.len()).ok(),
                _ => None,
            })
            .collect()
    }

    /// The decks of a ship whose sinking has not been shown yet, but the one that
    /// sinks it: they were hit before and still burn until the sinking shows.
    pub(super) fn burning(&self, now: Millis) -> CellSet {
        let mut cells = CellSet::EMPTY;
        for beat in &self.beats[self.over(now)..] {
            for effect in &self.effects[beat.effects.clone()] {
                if let Effect::Sunk { cell, ship, .. } = effect {
                    let mut others = *ship;
                    others.remove(*cell);
                    cells |= others;
                }
            }
        }
        cells
    }

    /// What the animation shows over the board now: the torpedo and its wake, the
    /// aircraft and the shell falling, the radar's beam; and every shell lost so far
    /// (on a cell already marked) marked as lost until it ends.
    pub(super) fn overlays(&self, now: Millis) -> Vec<(Coord, Overlay)> {
        let over = self.over(now);
        let mut overlays: Vec<_> = self.beats[..over]
            .iter()
            .flat_map(|b| &self.effects[b.effects.clone()])
            .filter_map(|e| match e {
                Effect::Lost(c) => Some((*c, Overlay::Lost)),
                _ => None,
            })
            .collect();
        let Some(beat) = self.beats.get(over) else {
            return overlays;
        };
        let into = now.saturating_sub(self.start) % self.beat_ms.max(1);
        let progress = u8::try_from(into * 255 / self.beat_ms.max(1)).unwrap_or(u8::MAX);
        match self.action {
            Action::Shot(_) => overlays.push((beat.cell, Overlay::Shell(progress))),
            Action::Radar(c) => overlays.push((c, Overlay::Sweep(progress))),
            Action::AirStrike(c) => {
                if over > 0 {
                    overlays.push((beat.cell, Overlay::Shell(progress)));
                }
                let elapsed = now.saturating_sub(self.start);
                let total = (self.end() - self.start).max(1);
                let across = u8::try_from(elapsed * 255 / total).unwrap_or(u8::MAX);
                overlays.push((c, Overlay::Plane(across)));
            }
            Action::Torpedo(torpedo) => {
                overlays.extend(
                    self.beats[..over]
                        .iter()
                        .map(|b| (b.cell, Overlay::Wake(torpedo.heading))),
                );
                overlays.push((beat.cell, Overlay::Torpedo(torpedo.heading, progress)));
            }
        }
        overlays
    }

    /// The cells the action touched, for the highlight once it is over.
    pub(super) fn touched(&self) -> Vec<Coord> {
        match self.action {
            Action::Radar(c) => vec![c],
            _ => self.effects.iter().map(effect_cell).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Coord {
        Coord::parse(name, crate::rules::BoardSize::STANDARD).unwrap()
    }

    /// An air strike: the aircraft comes in, then the shells fall one a beat; each
    /// shell's cell shows its outcome when it lands, and a shell lost on a cell
    /// already marked stays marked as lost until the strike is over.
    #[test]
    fn an_air_strike_shows_its_shells_falling_one_by_one() {
        let effects = vec![
            Effect::Miss(c("A1")),
            Effect::Lost(c("B1")),
            Effect::Hit(c("C1")),
        ];
        let anim = Anim::new(
            Seat::Host,
            Action::AirStrike(c("B2")),
            effects,
            crate::rules::BoardSize::STANDARD,
            1_000,
        );
        let beat = anim.beat_ms;
        let at = |step: Millis| 1_000 + step * beat + beat / 2;
        let shells = |now| {
            anim.overlays(now)
                .into_iter()
                .filter(|(_, o)| !matches!(o, Overlay::Plane(_)))
                .map(|(cell, o)| (cell, std::mem::discriminant(&o)))
                .collect::<Vec<_>>()
        };
        let shell = std::mem::discriminant(&Overlay::Shell(0));
        let lost = std::mem::discriminant(&Overlay::Lost);
        // The approach: nothing falls yet, and nothing is shown.
        assert!(shells(at(0)).is_empty());
        assert!(
            anim.overlays(at(0))
                .iter()
                .any(|(cell, o)| *cell == c("B2") && matches!(o, Overlay::Plane(_)))
        );
        assert_eq!(anim.hidden(at(0)).len(), 2);
        assert_eq!(shells(at(1)), vec![(c("A1"), shell)]);
        assert_eq!(shells(at(2)), vec![(c("B1"), shell)]);
        assert_eq!(shells(at(3)), vec![(c("B1"), lost), (c("C1"), shell)]);
        assert!(anim.hidden(at(3)).contains(c("C1")));
        assert!(!anim.hidden(at(3)).contains(c("A1")));
        assert!(!anim.done(at(3)));
        assert!(anim.done(1_000 + 4 * beat));
        assert!(anim.end() - 1_000 <= ANIM_MS);
    }

    /// A torpedo runs over marked cells too and stops at the deck it hits, its wake
    /// behind it; the whole run fits the animation's time even on a 12×12 board.
    #[test]
    fn a_torpedo_runs_cell_by_cell_and_stops_at_its_hit() {
        let torpedo = Torpedo {
            heading: Heading::Right,
            line: 0,
        };
        // A1 was marked before: no effect there, but the torpedo crosses it.
        let effects = vec![
            Effect::Miss(c("B1")),
            Effect::Miss(c("C1")),
            Effect::Hit(c("D1")),
        ];
        let anim = Anim::new(
            Seat::Guest,
            Action::Torpedo(torpedo),
            effects,
            crate::rules::BoardSize::STANDARD,
            0,
        );
        assert_eq!(anim.beats.len(), 4);
        let beat = anim.beat_ms;
        let mid = |step: Millis| step * beat + beat / 2;
        let overlays = anim.overlays(mid(2));
        assert!(overlays.contains(&(c("A1"), Overlay::Wake(Heading::Right))));
        assert!(overlays.contains(&(c("B1"), Overlay::Wake(Heading::Right))));
        assert!(
            overlays
                .iter()
                .any(|(cell, o)| *cell == c("C1")
                    && matches!(o, Overlay::Torpedo(Heading::Right, _)))
        );
        assert!(!anim.hidden(mid(2)).contains(c("B1")));
        assert!(anim.hidden(mid(2)).contains(c("D1")));
        assert!(anim.done(4 * beat));
        let side = crate::rules::BoardSize::LARGE;
        let long = Anim::new(Seat::Guest, Action::Torpedo(torpedo), vec![], side, 0);
        assert_eq!(long.beats.len(), 12);
        assert!(long.end() <= ANIM_MS);
    }

    /// Found in review: a sinking hid its whole ship until it showed, so the decks
    /// hit in earlier turns looked unknown (or, on the player's own board, whole)
    /// while the shell fell. They keep burning; only the sinking cell and the ring
    /// wait for the beat.
    #[test]
    fn a_sinking_keeps_the_earlier_hits_burning_until_it_shows() {
        let set = |names: &str| {
            let mut cells = CellSet::EMPTY;
            for name in names.split(' ') {
                cells.insert(c(name));
            }
            cells
        };
        let sunk = Effect::Sunk {
            cell: c("B2"),
            ship: set("B2 C2"),
            ring: set("A1 B1 C1 D1 A2 D2 A3 B3 C3 D3"),
        };
        let anim = Anim::new(
            Seat::Host,
            Action::Shot(c("B2")),
            vec![sunk],
            crate::rules::BoardSize::STANDARD,
            0,
        );
        let falling = anim.beat_ms / 2;
        assert!(anim.hidden(falling).contains(c("B2")));
        assert!(anim.hidden(falling).contains(c("A1")));
        assert!(!anim.hidden(falling).contains(c("C2")));
        assert_eq!(anim.burning(falling), set("C2"));
        let landed = anim.beat_ms;
        assert!(anim.hidden(landed).is_empty() && anim.burning(landed).is_empty());
    }
}
