//! Draws and resignations, and how they cross: an offer, an acceptance that binds
//! its maker until the offerer's frame decides it, two offers or two resignations
//! that crossed, a resignation that crossed a leave — all told by `seen`, so every
//! order of arrival agrees.

use armada_proto::Payload;

use super::{Acceptance, Hash, Heard, Note, Seat, Table, covers, idx, knew_end};

impl Table {
    /// A draw acceptance takes effect at the offerer's first message that saw it;
    /// until the offerer's frame decides it, the acceptor is bound by it.
    pub(super) fn take_acceptance(
        &mut self,
        frame: Heard<'_>,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let Heard {
            from,
            seq,
            seen,
            payload,
            ..
        } = frame;
        if let Some(round) = self.round.as_mut()
            && let Some(accept) = round.accept.as_mut()
            && accept.waiting()
            && accept.acceptor == from.other()
        {
            if covers(seen, accept.seq) {
                accept.confirmed_by = Some(seq);
                let acceptor = accept.acceptor;
                let game = round.game.as_mut().ok_or("no game")?;
                if let Ok(Some(ending)) = game.answer_draw(acceptor, true) {
                    round.core.ends.push((from, seq));
                    notes.push(Note::Ended(ending));
                }
            } else if matches!(payload, Payload::Act { .. } | Payload::Resign { .. }) {
                // The offerer acted instead: the acceptance crossed it and lapses.
                accept.lapsed_by = Some(seq);
            }
        }
        // Who accepted a draw is bound by it: no more moves, offers or resignations,
        // unless it had seen the offerer's frame that made the acceptance lapse.
        if let Some(round) = self.round.as_ref()
            && round.accept.is_some_and(|a| {
                a.acceptor == from && !a.lapsed_by.is_some_and(|by| covers(seen, by))
            })
            && matches!(
                payload,
                Payload::Act { .. }
                    | Payload::DrawOffer { .. }
                    | Payload::DrawAnswer { .. }
                    | Payload::Resign { .. }
            )
        {
            return Err("a move after accepting a draw".into());
        }
        Ok(())
    }

    pub(super) fn draw_offer(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game: &Hash,
        number: u32,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let round = self.round_for(game)?;
        let g = round.game.as_mut().ok_or("a draw offer before the start")?;
        if g.is_over() && knew_end(&round.core.ends, from, seen) {
            return Err("a draw offer after the game ended".into());
        }
        // Stale (an action was made since) or crossing the end: it lapsed.
        if number < g.actions() || g.is_over() || round.pending.is_some() {
            notes.push(Note::Void);
            return Ok(());
        }
        if number > g.actions() {
            return Err("a draw offer for an action not yet played".into());
        }
        // Two offers that crossed both lapse. Agreeing a draw here would hang
        // on arrival order: either offerer may have acted or resigned after its
        // offer, before the other's arrived, and a table that took that in
        // first has moved on already.
        if let Some((offerer, offer_seq)) = round.offer
            && offerer == from.other()
            && g.draw_offer() == Some(offerer)
            && !covers(seen, offer_seq)
        {
            g.cross_offers(from)
                .map_err(|e| format!("draw offer refused: {e}"))?;
            round.offer = None;
            notes.push(Note::DrawOffersCrossed);
            return Ok(());
        }
        g.offer_draw(from)
            .map_err(|e| format!("draw offer refused: {e}"))?;
        round.offer = Some((from, seq));
        notes.push(Note::DrawOffered(from));
        Ok(())
    }

    pub(super) fn draw_answer(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        (game, number, accept): (&Hash, u32, bool),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let round = self.round_for(game)?;
        let g = round
            .game
            .as_mut()
            .ok_or("a draw answer before the start")?;
        if g.is_over() && knew_end(&round.core.ends, from, seen) {
            return Err("a draw answer after the game ended".into());
        }
        // An acceptance that crossed the offerer's action lapsed at it, as it
        // does where the action arrived second; it still binds the acceptor
        // until it sees that action.
        if accept
            && let Some(p) = &round.pending
            && p.seat == from.other()
            && p.number == number
            && g.draw_offer() == Some(from.other())
            && !covers(seen, p.seq)
        {
            round.accept = Some(Acceptance {
                acceptor: from,
                seq,
                lapsed_by: Some(p.seq),
                confirmed_by: None,
            });
            notes.push(Note::Void);
            return Ok(());
        }
        // Stale (an action was made since the offer) or crossing the end: it lapsed.
        if number < g.actions() || g.is_over() || round.pending.is_some() {
            notes.push(Note::Void);
            return Ok(());
        }
        if number > g.actions() || g.draw_offer() != Some(from.other()) {
            return Err("an answer to a draw offer that was not made".into());
        }
        if accept {
            round.accept = Some(Acceptance {
                acceptor: from,
                seq,
                lapsed_by: None,
                confirmed_by: None,
            });
            notes.push(Note::DrawAccepted(from));
        } else {
            g.answer_draw(from, false).map_err(|e| e.to_string())?;
            notes.push(Note::DrawDeclined(from));
        }
        Ok(())
    }

    pub(super) fn resign(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game: &Hash,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        // The other peer's leave, if this resignation did not see it.
        let l = from.other();
        let crossed_leave =
            self.left(l) && !covers(seen, self.ledger.chains[idx(l)].next().saturating_sub(1));
        let round = self.round_for(game)?;
        let g = round.game.as_mut().ok_or("resigning before the start")?;
        if g.is_over() {
            if knew_end(&round.core.ends, from, seen) {
                return Err("a resignation after the game ended".into());
            }
            // Two resignations that crossed: both gave up, nobody wins.
            if g.ending()
                .is_some_and(|e| e.reason == crate::rules::EndReason::Resigned)
            {
                let ending = g.mutual_resignation();
                round.core.ends.push((from, seq));
                notes.push(Note::Ended(ending));
                return Ok(());
            }
            notes.push(Note::Void);
            return Ok(());
        }
        // An answer already on its way would cross the resignation and the two
        // sides could disagree on the ending: wait for it first.
        if round.pending.as_ref().is_some_and(|p| p.seat == from) {
            return Err("a resignation while the own action waits for its answer".into());
        }
        // It crossed a leave whose resignation waits here (for an answer, or for
        // a claim to be decided) but stood already where the leave came second.
        if crossed_leave {
            let ending = g.mutual_resignation();
            round.pending = None;
            round.core.ends.push((from, seq));
            notes.push(Note::Ended(ending));
            return Ok(());
        }
        let ending = g.resign(from).map_err(|e| e.to_string())?;
        round.pending = None;
        round.core.ends.push((from, seq));
        notes.push(Note::Ended(ending));
        Ok(())
    }
}
