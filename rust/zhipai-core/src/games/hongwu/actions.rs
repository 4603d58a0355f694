//! The fixed integer action space of Hong Wu (the same for every rule set: the bid ladder of
//! §B.2 does not depend on the options, and there is no no-trump, §B.3).
//!
//! | actions | meaning |
//! |---|---|
//! | `0..54` | add one card of kind `k` (`Card::from_index(k)`) to the burial or play being built: a burial ends by itself at 8 cards (§B.3), a follow at the lead's size (§B.8) |
//! | `54` | `stop`: end the lead being built ([`crate::tricks::building::STOP`], shared with the Shengji family) |
//! | `55` | `pass` (§B.2) |
//! | `56..85` | `bid 60`, `bid 65`, …, `bid 200` (action `56 + (points − 60) / 5`, §B.2) |
//! | `85..89` | `trump S`, `trump H`, `trump D`, `trump C` (§B.3) |
//!
//! A mask holds exactly the actions after which the move being built can still be completed to a
//! legal move ([`legal_bits`]).

use super::auction::{Bid, MAX_BID, MIN_BID, MIN_RAISE};
use super::state::{Action, HongWuState, Phase};
use crate::cards::{Card, Suit, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::tricks::building::{follow_mask, lead_mask, remaining, STOP};

/// `pass` (§B.2).
pub const PASS: usize = STOP + 1;
/// `bid 60`, the first of the bid block.
pub const FIRST_BID: usize = PASS + 1;
/// Bids in the block: 60, 65, …, 200.
pub const NUM_BIDS: usize = ((MAX_BID - MIN_BID) / MIN_RAISE) as usize + 1;
/// `trump S`, the first of the trump block (S H D C).
pub const FIRST_TRUMP: usize = FIRST_BID + NUM_BIDS;
/// The size of the action space.
pub const NUM_ACTIONS: usize = FIRST_TRUMP + 4;

/// What one action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Add one card to the move being built.
    Card(Card),
    /// End the lead being built.
    Stop,
    /// A whole move: a pass, a bid or a trump.
    Whole(Action),
}

/// The step of `action`; `InvalidValue` outside `0..NUM_ACTIONS`.
pub fn step(action: usize) -> Result<Step> {
    Ok(match action {
        a if a < NUM_KINDS => Step::Card(Card::from_index(a).expect("a kind index")),
        STOP => Step::Stop,
        PASS => Step::Whole(Action::Bid(Bid::Pass)),
        a if a < FIRST_TRUMP => {
            Step::Whole(Action::Bid(Bid::Points(MIN_BID + (a - FIRST_BID) as u32 * MIN_RAISE)))
        }
        a if a < NUM_ACTIONS => Step::Whole(Action::Trump(Suit::from_index(a - FIRST_TRUMP))),
        a => {
            return Err(ZhipaiError::invalid_value(
                "action",
                a,
                format!("Hong Wu actions are 0 to {}", NUM_ACTIONS - 1),
            ))
        }
    })
}

/// The action of a pass, bid or trump; `None` for a bid off the ladder (not a multiple of 5 in
/// 60…200) and for burials and plays (built card by card).
pub fn action_of(mv: &Action) -> Option<usize> {
    match *mv {
        Action::Bid(Bid::Pass) => Some(PASS),
        Action::Bid(Bid::Points(n)) => ((MIN_BID..=MAX_BID).contains(&n)
            && n.is_multiple_of(MIN_RAISE))
        .then(|| FIRST_BID + ((n - MIN_BID) / MIN_RAISE) as usize),
        Action::Trump(t) => Some(FIRST_TRUMP + t.index()),
        Action::Bury(_) | Action::Play(_) => None,
    }
}

/// The text of `action`: the card (`"9C"`), `"stop"`, or the move text of a pass, bid or trump.
pub fn action_name(action: usize) -> Result<String> {
    Ok(match step(action)? {
        Step::Card(c) => c.to_string(),
        Step::Stop => "stop".to_string(),
        Step::Whole(mv) => super::move_text::move_text(&mv),
    })
}

/// Bit `a` set = action `a` is legal for the seat to act, with `building` the cards of the
/// burial or play built so far (0 once over).
pub fn legal_bits(s: &HongWuState, building: &Multiset) -> u128 {
    let Some(seat) = s.to_act() else { return 0 };
    match s.phase() {
        Phase::Auction => {
            let bids = s.auction().legal_bids();
            bids.iter().filter_map(|b| action_of(&Action::Bid(*b))).fold(0, |m, a| m | 1 << a)
        }
        Phase::Trump => 0b1111 << FIRST_TRUMP,
        // Any 8 held cards may be buried (§B.3).
        Phase::Kitty => remaining(&s.hand(seat), building).0 as u128,
        Phase::Play => {
            let tr = s.trick_rules().expect("trump chosen in play");
            let hand = s.hand(seat);
            (match s.lead_format() {
                None => lead_mask(tr, &hand, building),
                Some(lead) => follow_mask(tr, lead, &hand, building),
            }) as u128
        }
        Phase::Over => 0,
    }
}

/// The whole move `building` forms once it is complete: a burial of 8 cards, or a follow of the
/// lead's size. `None` while more cards are needed (and for a lead, which ends with `stop`).
pub fn completed(s: &HongWuState, building: &Multiset) -> Option<Action> {
    match s.phase() {
        Phase::Kitty if building.len() == super::KITTY_SIZE => Some(Action::Bury(*building)),
        Phase::Play => s
            .lead_format()
            .filter(|lead| building.len() == lead.cards as usize)
            .map(|_| Action::Play(*building)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_the_module_docs() {
        assert_eq!(
            (STOP, PASS, FIRST_BID, NUM_BIDS, FIRST_TRUMP, NUM_ACTIONS),
            (54, 55, 56, 29, 85, 89)
        );
        assert_eq!(action_name(0).unwrap(), Card::from_index(0).unwrap().to_string());
        assert_eq!(action_name(54).unwrap(), "stop");
        assert_eq!(action_name(55).unwrap(), "pass");
        assert_eq!(action_name(56).unwrap(), "bid 60");
        assert_eq!(action_name(84).unwrap(), "bid 200");
        assert_eq!(action_name(85).unwrap(), "trump S");
        assert_eq!(action_name(88).unwrap(), "trump C");
        assert!(action_name(89).unwrap_err().to_string().contains("0 to 88"));
        for a in PASS..NUM_ACTIONS {
            let Step::Whole(mv) = step(a).unwrap() else { panic!("{a}") };
            assert_eq!(action_of(&mv), Some(a));
        }
        assert_eq!(action_of(&Action::Bid(Bid::Points(67))), None);
        assert_eq!(action_of(&Action::Bid(Bid::Points(205))), None);
    }
}
