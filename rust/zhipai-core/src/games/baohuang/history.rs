//! The history of a deal as the game trait records it ([`Record`]), and a deal as the search
//! support and the observation tensor read it ([`DealParts`]): below the trait's `DealState`, so
//! that [`super::search`] and [`super::tensor`] need not import it.

use super::play_cards::CardMove;
use super::state::{Move, State};
use crate::multiset::Multiset;
use crate::policy::Policy;

/// One move of the history (its text is rendered when asked for).
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub seat: u8,
    /// The deal it belongs to (0, or `n` after the `n`-th 黄局 redeal).
    pub deal: u32,
    pub mv: CardMove,
    /// The built-in policy that chose it, if one did.
    pub builtin: Option<Policy>,
}

/// A deal in progress as [`super::search`] and [`super::tensor`] read it.
#[derive(Clone, Copy, Debug)]
pub struct DealParts<'a> {
    pub state: &'a State,
    /// Every recorded move (every deal).
    pub history: &'a [Record],
    /// The deal being played (0, or `n` after the `n`-th redeal).
    pub redeals: u32,
    /// The play being built card by card.
    pub pending: Multiset,
    /// `play_out` made moves without recording them.
    pub unrecorded: bool,
}

/// In a world, the record of deal `deal`'s secret 明保/暗保 or 明独/暗独 choice is the world's:
/// 暗保 by its `guard`, or 暗独 by its `emperor` when it has no guard.
pub fn set_secret_choice(
    history: &mut [Record],
    deal: u32,
    guard: Option<u8>,
    emperor: Option<u8>,
) {
    for r in history.iter_mut().filter(|r| r.deal == deal) {
        if matches!(r.mv, Move::SecretGuard | Move::SecretSolo) {
            match (guard, emperor) {
                (Some(g), _) => (r.seat, r.mv) = (g, Move::SecretGuard),
                (None, Some(e)) => (r.seat, r.mv) = (e, Move::SecretSolo),
                _ => {}
            }
        }
    }
}
