//! Plays built card by card: the exact masks of the integer-action encoding shared by the games
//! with Shengji-style tricks (the Shengji family, Hong Wu). Action `k < 54` adds one card of kind
//! `k` to the play being built; [`STOP`] ends a lead (a follow ends by itself when it has the
//! lead's number of cards). A mask holds exactly the actions after which the partial play can
//! still be completed to a legal play, so an agent walking the mask always reaches a legal move.

use super::combos::Format;
use super::follow::FollowMoves;
use super::lead::check_lead;
use super::order::TRUMP;
use super::rules::TrickRules;
use crate::cards::{CardSet, NUM_KINDS};
use crate::multiset::Multiset;

/// The action that ends a lead being built (bit `STOP` of a mask).
pub const STOP: usize = NUM_KINDS;

/// Kinds with copies left in `hand` beyond those already in `building`.
pub fn remaining(hand: &Multiset, building: &Multiset) -> CardSet {
    hand.more_than(building)
}

/// The mask of a lead being built from `hand`: any card of the effective suit already begun (any
/// held card when nothing is built), except that where trump throws are barred
/// (`trump_throw_allowed = false`) only cards that still complete one trump unit; [`STOP`] when
/// `building` is itself a legal lead (shengji.md §4.3).
pub fn lead_mask(tr: &TrickRules, hand: &Multiset, building: &Multiset) -> u64 {
    let rem = remaining(hand, building);
    let Some(first) = building.kinds().first() else { return rem.0 };
    let suit = tr.order.suit(first);
    let mut mask = rem.intersect(tr.order.suit_mask(suit)).0;
    if !tr.trump_throw_allowed && suit == TRUMP {
        // Only single units may be led in trump: keep the cards that can still complete one.
        mask = 0;
        for c in rem.intersect(tr.order.suit_mask(TRUMP)) {
            let mut next = *building;
            next.add(c);
            if completes_to_trump_unit(tr, hand, &next) {
                mask |= c.bit();
            }
        }
    }
    if check_lead(tr, building, Some(hand)).is_ok() {
        mask |= 1 << STOP;
    }
    mask
}

/// Whether some single trump unit held in `hand` contains `part` (trump cards, held): one kind
/// (a single, pair or triple of it), or a run of `m ≥ 2` copies per index over linked
/// consecutive strength indices, one kind per index (§4.1–§4.2). Any kind held `m` times may
/// fill an index of the run, so equal kinds (the off-suit level cards, §3.1) each make their
/// own run.
fn completes_to_trump_unit(tr: &TrickRules, hand: &Multiset, part: &Multiset) -> bool {
    let kinds = part.kinds();
    if kinds.len() <= 1 {
        return true;
    }
    // The fewest copies per index a run through `part` needs; more only makes it harder.
    let m = kinds.iter().map(|c| part.count(c)).max().unwrap_or(1).max(2);
    if m > (tr.decks as usize).min(3) {
        return false;
    }
    let held = hand.at_least(m).intersect(tr.order.suit_mask(TRUMP));
    let idx = tr.order.index_mask(TRUMP, kinds);
    if !kinds.minus(held).is_empty() || idx.count_ones() != kinds.len() {
        return false; // a kind held too few times, or two kinds at one index
    }
    let (low, high) = (idx.trailing_zeros() as usize, 31 - idx.leading_zeros() as usize);
    (low..high).all(|i| tr.order.linked(TRUMP, i))
        && (low..=high).all(|i| !tr.order.kinds_at(TRUMP, i).intersect(held).is_empty())
}

/// The mask of a follow to `lead` being built from `hand`: the cards some legal follow
/// containing `building` still adds (0 when `lead` cannot be followed from `hand`), computed
/// without listing the follows ([`FollowMoves::extension_mask`]).
pub fn follow_mask(tr: &TrickRules, lead: &Format, hand: &Multiset, building: &Multiset) -> u64 {
    FollowMoves::new(tr, lead, hand).map_or(0, |moves| moves.extension_mask(building))
}
