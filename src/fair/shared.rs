//! Randomness neither peer can steer: air-strike shells from committed contributions, and the timeout cell.

use crate::rules::{CellSet, Coord, Seat, ShellOrder};

use super::commit::seat_byte;
use super::hash::{Draws, Hash, label, labelled};

/// Air strikes in one game: two for each seat. Strike `s` of a game is the
/// `s % 2`-th strike of the host (s < 2) or of the guest (s ≥ 2).
pub const STRIKES: u8 = 4;

/// The number of the `ordinal`-th (0 or 1) air strike of `attacker`.
pub fn strike_number(attacker: Seat, ordinal: u8) -> u8 {
    seat_byte(attacker) * 2 + ordinal
}

/// The commitment to one contribution, bound to the game, the committer's seat and
/// peer key, and the strike it is for: a peer cannot pass off the other's as its own.
pub fn contribution_commitment(
    game: &Hash,
    seat: Seat,
    peer_key: &[u8; 32],
    strike: u8,
    contribution: &[u8; 32],
) -> Hash {
    labelled(
        label::CONTRIBUTION,
        &[game, &[seat_byte(seat)], peer_key, &[strike], contribution],
    )
}

/// The five ordered shells of strike `strike`, from both seats' contributions.
///
/// Each shell is drawn uniformly from the square's positions not yet drawn, by
/// rejection (never `% n` over a range that `n` does not divide), so each of the
/// 15,120 ordered choices is equally likely.
pub fn shell_order(game: &Hash, strike: u8, host: &[u8; 32], guest: &[u8; 32]) -> ShellOrder {
    let mut draws = Draws::new(labelled(label::SHELLS, &[game, &[strike], host, guest]));
    let mut left: Vec<u8> = (0..9).collect();
    let mut order = [0; 5];
    for (i, slot) in order.iter_mut().enumerate() {
        let at = draws.below((9 - i) as u16) as usize;
        *slot = left.remove(at);
    }
    ShellOrder::new(order).expect("five distinct positions of nine")
}

/// The cell a timed-out mover's client fires at: one of `unmarked`, chosen by the
/// game, the hash of the last message before the timeout and the action's number.
pub fn timeout_cell(
    game: &Hash,
    last_message: &Hash,
    action: u32,
    unmarked: CellSet,
) -> Option<Coord> {
    if unmarked.is_empty() {
        return None;
    }
    let mut draws = Draws::new(labelled(
        label::TIMEOUT,
        &[game, last_message, &action.to_be_bytes()],
    ));
    unmarked.nth(draws.below(unmarked.len() as u16) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strikes_are_numbered_by_seat() {
        assert_eq!(strike_number(Seat::Host, 0), 0);
        assert_eq!(strike_number(Seat::Host, 1), 1);
        assert_eq!(strike_number(Seat::Guest, 0), 2);
        assert_eq!(strike_number(Seat::Guest, 1), 3);
    }

    #[test]
    fn either_contribution_changes_the_shells() {
        let base = shell_order(&[1; 32], 0, &[2; 32], &[3; 32]);
        let changes = (0..=255u8)
            .filter(|&b| shell_order(&[1; 32], 0, &[b; 32], &[3; 32]) != base)
            .count();
        assert!(changes > 200, "the host's contribution matters");
        let changes = (0..=255u8)
            .filter(|&b| shell_order(&[1; 32], 0, &[2; 32], &[b; 32]) != base)
            .count();
        assert!(changes > 200, "the guest's contribution matters");
    }

    #[test]
    fn the_timeout_cell_is_unmarked_and_agreed() {
        let open: CellSet = crate::rules::BoardSize::STANDARD
            .cells()
            .filter(|c| c.col() % 3 == 0)
            .collect();
        let a = timeout_cell(&[1; 32], &[2; 32], 7, open).unwrap();
        assert!(open.contains(a));
        assert_eq!(timeout_cell(&[1; 32], &[2; 32], 7, open), Some(a));
        assert_eq!(timeout_cell(&[1; 32], &[2; 32], 7, CellSet::EMPTY), None);
    }
}
