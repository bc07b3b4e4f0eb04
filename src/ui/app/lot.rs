//! Who moves first against the computer, drawn by lot at a new table: said on the
//! battle screen until the first game's first action, and kept in the move log.
//!
//! It only reads the table's seats; the lot itself is drawn by the driver.

use super::super::i18n::Text;
use super::{Driver, Play};

impl Play {
    /// The lot in words, at a table against the computer in its first game (a
    /// friend's table has no lot: its host moves first).
    pub(super) fn lot(&self, t: &Text) -> Option<String> {
        let Driver::Local(local) = &self.driver else {
            return None;
        };
        // A game not open yet is the first one: a new table opens it at once.
        let first = local.session().table().game_number().unwrap_or(0) == 0;
        first.then(|| {
            t.get(if local.person_first() {
                "lot-you"
            } else {
                "lot-computer"
            })
        })
    }

    /// The lot as the move log's first line (the log shows the newest first).
    pub(super) fn log_lot(&mut self, t: &Text) {
        if let Some(line) = self.lot(t) {
            self.log.push_back(line);
        }
    }
}
