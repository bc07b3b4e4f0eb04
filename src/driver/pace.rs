//! When the computer across an offline table acts next, and what was played there and
//! not yet shown: the pacing every game against the computer shares.

use std::collections::VecDeque;

use crate::session::Millis;

use super::THINK_MS;

/// The computer's next moment and the moves waiting for the shell.
#[derive(Debug)]
pub(super) struct Pace<P> {
    /// When the computer acts next (it is its turn).
    due: Option<Millis>,
    /// How long the computer thinks before it acts, so a person can follow it.
    think: Millis,
    /// Played and not yet taken by the shell, in order, either side's.
    played: VecDeque<P>,
}

impl<P> Pace<P> {
    pub(super) const fn new() -> Self {
        Self {
            due: None,
            think: THINK_MS,
            played: VecDeque::new(),
        }
    }

    /// The computer acts as soon as it is asked (tests and measurements).
    pub(super) const fn without_pauses(&mut self) {
        self.think = 0;
    }

    /// After anything changed at `now`: the computer acts a pause later when it is to
    /// act, and not at all otherwise.
    pub(super) fn schedule(&mut self, now: Millis, computer_to_act: bool) {
        self.due = computer_to_act.then_some(now + self.think);
    }

    /// The computer does not act (the game ended at the person's hand).
    pub(super) const fn stop(&mut self) {
        self.due = None;
    }

    pub(super) const fn due(&self) -> Option<Millis> {
        self.due
    }

    /// Whether the computer's time has come at `now`; if so it is taken, and the
    /// caller schedules again after the computer acted.
    pub(super) fn take_due(&mut self, now: Millis) -> bool {
        if self.due.is_none_or(|due| now < due) {
            return false;
        }
        self.due = None;
        true
    }

    pub(super) fn push(&mut self, played: P) {
        self.played.push_back(played);
    }

    pub(super) fn pop(&mut self) -> Option<P> {
        self.played.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_waits_its_pause_and_acts_once() {
        let mut pace = Pace::<u8>::new();
        pace.schedule(100, true);
        assert_eq!(pace.due(), Some(100 + THINK_MS));
        assert!(!pace.take_due(100 + THINK_MS - 1), "not before its time");
        assert!(pace.take_due(100 + THINK_MS));
        assert!(!pace.take_due(100 + THINK_MS), "taken once");
        pace.schedule(5, false);
        assert_eq!(pace.due(), None, "not its turn: nothing scheduled");
        pace.without_pauses();
        pace.schedule(7, true);
        assert!(pace.take_due(7));
        pace.push(1);
        pace.push(2);
        assert_eq!(
            (pace.pop(), pace.pop(), pace.pop()),
            (Some(1), Some(2), None)
        );
    }
}
