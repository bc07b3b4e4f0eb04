//! Forfeit claims, for every game: a claim judged against what its sender had seen, decided by the debtor's next frame (confirmed when that frame saw it, refuted when not), and the claimant held to its word until it has seen the decision.

use armada_proto::{self as proto, Payload};

use super::observer::{Observer, Rules};
use super::protocol::{TableNote, covers};
use super::{ClaimState, ForfeitClaim, Hash, Lie, Seat};

impl<G: Rules> Observer<G> {
    /// Decides a pending claim against `from` by this, its next frame; true when the
    /// frame is a game move that the confirmed claim makes count for nothing (a late
    /// answer is lateness, not a false statement).
    pub(super) fn decide_claim(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game_move: bool,
        notes: &mut Vec<G::Note>,
    ) -> bool {
        let Some(round) = self.round.as_mut() else {
            return false;
        };
        let Some(claim) = G::core_mut(round).claim.as_mut() else {
            return false;
        };
        if claim.claimant != from.other() || claim.decided_by.is_some() {
            return false;
        }
        claim.decided_by = Some(seq);
        let (claimant, claim_seq) = (claim.claimant, claim.seq);
        let confirms = match claim.state {
            ClaimState::Pending if covers(seen, claim_seq) && claim.unfounded => {
                claim.state = ClaimState::Refuted;
                notes.extend(self.prove(Lie {
                    liar: claimant,
                    seq: claim_seq,
                    reason: G::UNFOUNDED.into(),
                }));
                false
            }
            ClaimState::Pending if covers(seen, claim_seq) => {
                Self::confirm(round, notes);
                true
            }
            ClaimState::Pending => {
                claim.state = ClaimState::Refuted;
                notes.push(TableNote::ClaimRefuted { claimant, by: seq }.into());
                false
            }
            // Confirmed at once at the debtor's own table: this is its next frame.
            ClaimState::Confirmed => true,
            ClaimState::Refuted => false,
        };
        // The debtor learnt of the end with the claim itself: a move it sends with
        // that knowledge confirms the forfeit and counts for nothing.
        confirms && game_move
    }

    /// A claim stands: the debtor loses the game, if it was still on.
    fn confirm(round: &mut G::Round, notes: &mut Vec<G::Note>) {
        let Some(claim) = G::core_mut(round).claim.as_mut() else {
            return;
        };
        claim.state = ClaimState::Confirmed;
        let (claimant, seq) = (claim.claimant, claim.seq);
        G::forfeit(round, claimant, seq, notes);
    }

    /// Who claimed a forfeit waits for the debtor's decision, and may only leave
    /// until it has seen it (told by `seen`, not by what arrived first here).
    pub(super) fn claimant_waits(
        &self,
        from: Seat,
        seen: Option<u32>,
        payload: &Payload,
    ) -> Result<(), String> {
        if let Some(claim) = self.round.as_ref().and_then(|r| G::core(r).claim)
            && claim.claimant == from
            && !claim.decided_by.is_some_and(|by| covers(seen, by))
            && !matches!(payload, Payload::Leave { .. })
        {
            return Err("a message while its own forfeit claim waits for the other peer".into());
        }
        Ok(())
    }

    /// A forfeit claim by `from` that the other side owes `owed` in `game`.
    pub(super) fn forfeit_claim(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game: &Hash,
        owed: proto::Owed,
        notes: &mut Vec<G::Note>,
    ) -> Result<(), String> {
        // A claim is judged when its sender had seen every frame of the other peer:
        // then the other must really owe what it names. A claim that had not seen
        // them all is refuted by the ones it missed.
        let other_next = self.ledger.chains[from.other().index()].next();
        let saw_all = other_next == 0 || seen == Some(other_next - 1);
        let (own, debtor_left) = (self.ledger.own, self.left(from.other()));
        let round = self.round_for(game)?;
        if G::core(round)
            .claim
            .is_some_and(|c| c.state != ClaimState::Refuted)
        {
            return Err("a second forfeit claim for one game".into());
        }
        // Judged against what the claimant had seen; a lie once the debtor's next
        // frame confirms it (one the claim did not see refutes it, lie or not, as it
        // would where that frame arrived first).
        // What a game can never owe is a lie, whatever the claimant had seen.
        let owes = G::owes(round, from.other(), owed)?;
        let unfounded = saw_all && !owes;
        let core = G::core_mut(round);
        core.claim = Some(ForfeitClaim {
            claimant: from,
            owed,
            seq,
            state: ClaimState::Pending,
            decided_by: None,
            unfounded,
        });
        notes.push(
            TableNote::ForfeitClaimed {
                claimant: from,
                owed,
            }
            .into(),
        );
        if !saw_all {
            let by = seen.map_or(0, |s| s + 1);
            if let Some(claim) = core.claim.as_mut() {
                claim.state = ClaimState::Refuted;
                claim.decided_by = Some(by);
            }
            notes.push(TableNote::ClaimRefuted { claimant: from, by }.into());
        } else if own == Some(from.other()) || debtor_left {
            // At the debtor's own table every later message of its sees the claim; a
            // debtor that left sends none, so nothing can refute it (its leave, which
            // the claim saw, decided it).
            if debtor_left && let Some(claim) = core.claim.as_mut() {
                claim.decided_by = Some(other_next.saturating_sub(1));
            }
            if unfounded {
                return Err(G::UNFOUNDED.into());
            }
            Self::confirm(round, notes);
        }
        Ok(())
    }
}
