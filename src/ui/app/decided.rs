//! How a game was decided, as its results say it; a friend's verdict is read here once for every game a table plays.

use crate::driver::{OpenReason, OpenVerdict};
use crate::rules::Seat;

/// How a game was decided: who won (none for a draw) and why.
pub(super) struct Decided<S> {
    pub(super) winner: Option<S>,
    /// The message id of the reason, and the proven lie if it was one.
    pub(super) why: &'static str,
    pub(super) lie: Option<String>,
}

impl<S: PartialEq> Decided<S> {
    /// Why, as the results say it to the player commanding `me`: a resignation
    /// names who resigned, a lie is quoted.
    pub(super) fn words(&self, t: &crate::ui::i18n::Text, me: &S) -> String {
        use crate::ui::i18n::Arg;
        match &self.lie {
            Some(lie) => t.with(self.why, &[("lie", Arg::from(lie.as_str()))]),
            None if self.why == "arch-why-resigned" => {
                let who = if self.winner.as_ref() == Some(me) {
                    "they"
                } else {
                    "you"
                };
                t.with("how-resigned", &[("who", Arg::from(who))])
            }
            None => t.get(self.why),
        }
    }
}

impl<S> Decided<S> {
    /// A friend's table's settled verdict: `side` is the side a seat commands,
    /// `rules` the message of an end by the game's own rules.
    pub(super) fn settled<E: Copy>(
        verdict: &OpenVerdict<E>,
        side: impl Fn(Seat) -> Option<S>,
        rules: impl Fn(E) -> &'static str,
    ) -> Self {
        match verdict {
            OpenVerdict::Decided(outcome) => Self {
                winner: outcome.winner.and_then(side),
                why: match outcome.reason {
                    OpenReason::Rules(reason) => rules(reason),
                    OpenReason::Resigned => "arch-why-resigned",
                    OpenReason::BothResigned => "arch-why-both-resigned",
                    OpenReason::Forfeit => "arch-why-forfeit",
                    OpenReason::DrawAgreed => "how-draw",
                },
                lie: None,
            },
            OpenVerdict::Lie(lie) => Self {
                winner: side(lie.liar.other()),
                why: "arch-why-lie",
                lie: Some(lie.to_string()),
            },
        }
    }
}
