//! The history of a Hong Wu deal: one cheap `Copy` record per move, rendered to text only when
//! asked ([`Record::entry`]).
//!
//! Visibility (policy.py "Observation"): bids, trumps and plays are public; a burial is seen
//! whole by the dealer and as the bare word `bury` by the others (§B.3: the kitty is hidden);
//! a failed throw (§B.7) reads `play 8C (failed throw 8C JC JC KC KC)` to everyone, as shown at
//! the table.

use super::move_text::move_text;
use super::state::{Action, Played};
use crate::game::HistoryEntry;
use crate::multiset::Multiset;
use crate::policy::Policy;

/// One move of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub seat: u8,
    /// The move as applied (for a failed throw, the throw attempted).
    pub mv: Action,
    /// The cards actually led when the move was a throw that failed.
    pub reduced: Option<Multiset>,
    /// The built-in policy that chose the move, if one did.
    pub builtin: Option<Policy>,
}

impl Record {
    /// The record of `mv` by `seat`, given what the state returned for it (`played`).
    pub fn new(seat: usize, mv: Action, played: Option<Played>, builtin: Option<Policy>) -> Self {
        let reduced = played.filter(|p| p.failed_throw.is_some()).map(|p| p.cards);
        Record { seat: seat as u8, mv, reduced, builtin }
    }

    /// The history entry of this record (the text rendered now).
    pub fn entry(&self) -> HistoryEntry {
        let applied = move_text(&self.mv);
        let (mover_view, public_view) = match (self.mv, self.reduced) {
            (Action::Bury(_), _) => (applied.clone(), Some("bury".to_string())),
            (Action::Play(tried), Some(cards)) => {
                let text = format!("play {cards} (failed throw {tried})");
                (text.clone(), Some(text))
            }
            _ => (applied.clone(), Some(applied.clone())),
        };
        HistoryEntry {
            seat: self.seat as usize,
            applied,
            mover_view,
            public_view,
            builtin: self.builtin,
            deal: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    #[test]
    fn burials_are_hidden_and_failed_throws_shown() {
        let bury = Record::new(2, Action::Bury(ms("2S 3S 4S 6S 7S 8S 9S JS")), None, None).entry();
        assert_eq!(bury.seen_by(2), Some("bury 2S 3S 4S 6S 7S 8S 9S JS"));
        assert_eq!(bury.seen_by(0), Some("bury"));
        let tried = ms("KC KC JC JC 8C");
        let played = Played { seat: 1, cards: ms("8C"), failed_throw: Some(tried) };
        let e = Record::new(1, Action::Play(tried), Some(played), Some(Policy::Random)).entry();
        // Cards are written in canonical (kind) order.
        assert_eq!(e.applied, "play 8C JC JC KC KC");
        for seat in 0..4 {
            assert_eq!(e.seen_by(seat), Some("play 8C (failed throw 8C JC JC KC KC)"));
        }
        assert_eq!(e.builtin, Some(Policy::Random));
        let ok = Played { seat: 1, cards: ms("8C"), failed_throw: None };
        let e = Record::new(1, Action::Play(ms("8C")), Some(ok), None).entry();
        assert_eq!((e.mover_view.as_str(), e.seen_by(3)), ("play 8C", Some("play 8C")));
    }
}
