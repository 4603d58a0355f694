//! Follow queries shared by the built-in players ([`super::policy`]'s basic player and
//! [`super::greedy`]): the legal cards on a one-card lead, and whether a play would win a trick.

use crate::cards::CardSet;
use crate::multiset::Multiset;
use crate::tricks::combos::Format;
use crate::tricks::order::CardOrder;
use crate::tricks::winner::{trick_winner_of, tuple_winner};
use crate::tricks::TrickRules;

/// The kinds one of which follows a one-card lead of effective suit `suit` (hongwu.md §B.8):
/// the kinds of that suit held, or every held kind when void in it.
pub fn single_follow_pool(order: &CardOrder, suit: usize, hand: &Multiset) -> CardSet {
    let suited = hand.kinds().intersect(order.suit_mask(suit));
    if suited.is_empty() {
        hand.kinds()
    } else {
        suited
    }
}

/// Whether `play`, added to `trick` (led with format `lead`, won so far by play `winner_now`),
/// would win it (hongwu.md §B.9). It is compared with the lead and the current winner only:
/// the winner of a trick is the play that beats every earlier winner, and beating is
/// transitive (trump over the led suit, then a strictly higher value), so the other plays
/// cannot change the answer (property-tested against the whole trick).
pub fn play_wins(
    tr: &TrickRules,
    lead: &Format,
    trick: &[Multiset],
    winner_now: usize,
    play: &Multiset,
) -> bool {
    let mut plays = [trick[0], trick[winner_now], *play];
    let reduced: &[Multiset] = if winner_now == 0 {
        plays[1] = *play;
        &plays[..2]
    } else {
        &plays
    };
    let w = if lead.cards == 1 {
        tuple_winner(tr, lead.suit as usize, 1, reduced)
    } else {
        match trick_winner_of(tr, lead, reduced) {
            Ok(w) => w,
            Err(_) => return false,
        }
    };
    w == reduced.len() - 1
}
