//! A whole Shengji move ([`Move`]): a bid, a burial or a play (shengji.md §2–§5), and its text.

use super::declare::Bid;
use crate::multiset::Multiset;

/// A structured move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// No declaration now (dealing phase).
    Pass,
    /// Declare or overcall (dealing phase).
    Declare(Bid),
    /// The dealer's burial: exactly the kitty size of held cards.
    Bury(Multiset),
    /// A lead or a follow.
    Play(Multiset),
}

impl std::fmt::Display for Move {
    /// `pass`, `declare 2H 2H`, `bury …`, `play …` (cards in canonical notation).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Declare(b) => write!(f, "declare {b}"),
            Move::Bury(m) => write!(f, "bury {m}"),
            Move::Play(m) => write!(f, "play {m}"),
        }
    }
}
