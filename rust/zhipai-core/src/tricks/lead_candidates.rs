//! Lead candidates of the random policies (Shengji family and Hong Wu): every single-unit lead
//! (single, pair, triple, tractor / Titanic run) plus, per effective suit, the whole holding when
//! it is a throw; [`sample_lead`] draws one uniformly without enumerating (shengji.md §4.1–§4.3,
//! hongwu.md §B.6–§B.7).

use super::lead::check_lead;
use super::rules::TrickRules;
use crate::cards::CardSet;
use crate::multiset::sub_multisets;
use crate::multiset::Multiset;
use crate::sample::{below, nth_card};
use crate::tricks::order::TRUMP;
use rand::RngCore;
use std::ops::ControlFlow;

/// Call `f` on every single-unit lead of `cards` (all of one effective suit or several): each
/// held kind as a single, each pair, each triple, then the runs of [`for_each_run`].
pub(crate) fn for_each_unit_lead(
    tr: &TrickRules,
    cards: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for mult in 1..=(tr.decks as usize).min(3) {
        for c in cards.at_least(mult) {
            let mut u = Multiset::EMPTY;
            for _ in 0..mult {
                u.add(c);
            }
            f(&u)?;
        }
    }
    for_each_run(tr, cards, f)
}

/// Call `f` on every tractor / Titanic run of `cards`: for multiplicity 2 and 3, from every held
/// kind, each extension along linked strength indices (one kind per index; §4.1–§4.2).
pub(crate) fn for_each_run(
    tr: &TrickRules,
    cards: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for mult in 2..=(tr.decks as usize).min(3) {
        let held = cards.at_least(mult);
        for start in held {
            let s = tr.order.suit(start);
            let mut run = Multiset::EMPTY;
            for _ in 0..mult {
                run.add(start);
            }
            let mut idx = tr.order.index(start);
            while tr.order.linked(s, idx) {
                let Some(next) = tr.order.kinds_at(s, idx + 1).intersect(held).first() else {
                    break;
                };
                for _ in 0..mult {
                    run.add(next);
                }
                idx += 1;
                f(&run)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of runs [`for_each_run`] visits, from index masks alone: a start kind at index `i`
/// of a maximal linked run of held indices `low..=top` extends to `top - i` runs.
#[inline(always)]
pub(crate) fn count_runs(tr: &TrickRules, cards: &Multiset) -> u32 {
    let mut n = 0u32;
    for mult in 2..=(tr.decks as usize).min(3) {
        let held = cards.at_least(mult);
        if !two_or_more(held) {
            break;
        }
        for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
            let hs = held.intersect(tr.order.suit_mask(s));
            if !two_or_more(hs) {
                continue;
            }
            let mask = tr.order.index_mask(s, hs);
            crate::tricks::combos::for_each_run(mask, tr.order.links(s), |low, len| {
                for k in 0..len.saturating_sub(1) {
                    let kinds = hs.intersect(tr.order.kinds_at(s, low + k)).len();
                    n += kinds * (len - 1 - k) as u32;
                }
            });
        }
    }
    n
}

/// Bit `s` set = the whole holding of effective suit `s` is a throw that may be led.
#[inline(always)]
pub(crate) fn throw_suits(tr: &TrickRules, hand: &Multiset) -> u8 {
    let kinds = hand.kinds();
    let pairs = hand.pairs();
    let mut bits = 0u8;
    for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
        let k = kinds.intersect(tr.order.suit_mask(s));
        if k.is_empty() || (s == TRUMP && !tr.trump_throw_allowed) {
            continue;
        }
        if !k.minus(pairs).is_empty() {
            // A kind held once: one unit only when it is the whole holding (one card).
            if two_or_more(k) {
                bits |= 1 << s;
            }
        } else if !is_single_unit(tr, s, &hand.restrict(tr.order.suit_mask(s))) {
            bits |= 1 << s;
        }
    }
    bits
}

/// Whether `part` (cards of effective suit `suit`) is one unit: one kind, or every kind held the
/// same number m ≥ 2 of times at distinct, consecutive, linked strength indices (a tractor or
/// Titanic, §4.1–§4.2). Anything else decomposes into several units, i.e. is a throw.
pub(crate) fn is_single_unit(tr: &TrickRules, suit: usize, part: &Multiset) -> bool {
    let kinds = part.kinds();
    let Some(first) = kinds.first() else { return false };
    if !two_or_more(kinds) {
        return true;
    }
    // Counted only past the cheap rejections (no popcount instruction on the baseline target).
    let m = part.count(first);
    if m < 2 || part.exactly(m) != kinds {
        return false;
    }
    let n = kinds.len() as usize;
    let idx = tr.order.index_mask(suit, kinds);
    if idx.count_ones() as usize != n {
        return false; // two kinds share an index (equal off-suit level cards)
    }
    let low = idx.trailing_zeros();
    let run = idx >> low;
    let need = ((1u32 << (n - 1)) - 1) << low;
    run & (run + 1) == 0 && tr.order.links(suit) & need == need
}

/// Whether `set` has at least two cards (no popcount).
#[inline]
fn two_or_more(set: CardSet) -> bool {
    set.0 & set.0.wrapping_sub(1) != 0
}

/// Call `f` on every lead candidate of the random policy: the single-unit leads of
/// [`for_each_unit_lead`], plus, per effective suit, the whole holding of that suit when it is a
/// throw (several units) and such a throw may be led.
pub fn for_each_lead_candidate(
    tr: &TrickRules,
    hand: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) {
    lead_candidates(tr, hand, throw_suits(tr, hand), f)
}

fn lead_candidates(
    tr: &TrickRules,
    hand: &Multiset,
    throws: u8,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) {
    if for_each_unit_lead(tr, hand, f).is_break() {
        return;
    }
    for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
        if throws & (1 << s) != 0 && f(&hand.restrict(tr.order.suit_mask(s))).is_break() {
            return;
        }
    }
}

/// A lead drawn uniformly from [`for_each_lead_candidate`]: singles, pairs and triples are
/// counted by popcount, only tractor runs are enumerated (no allocation).
#[inline(always)]
pub fn sample_lead<R: RngCore + ?Sized>(tr: &TrickRules, hand: &Multiset, rng: &mut R) -> Multiset {
    let throws = throw_suits(tr, hand);
    let tuples: [CardSet; 3] = std::array::from_fn(|m| {
        if m < tr.decks as usize {
            hand.at_least(m + 1)
        } else {
            CardSet::EMPTY
        }
    });
    let fixed: u32 = tuples.iter().map(|t| t.len()).sum();
    let runs = count_runs(tr, hand);
    let total = fixed + runs + throws.count_ones();
    let mut pick = below(rng, total);
    for (m, t) in tuples.iter().enumerate() {
        if pick < t.len() {
            let card = nth_card(*t, pick);
            let mut u = Multiset::EMPTY;
            for _ in 0..=m {
                u.add(card);
            }
            return u;
        }
        pick -= t.len();
    }
    let mut out = Multiset::EMPTY;
    if pick < runs {
        let _ = for_each_run(tr, hand, &mut |r| {
            if pick == 0 {
                out = *r;
                return ControlFlow::Break(());
            }
            pick -= 1;
            ControlFlow::Continue(())
        });
        return out;
    }
    pick -= runs;
    for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
        if throws & (1 << s) != 0 {
            if pick == 0 {
                return hand.restrict(tr.order.suit_mask(s));
            }
            pick -= 1;
        }
    }
    out
}

/// Every legal lead of `hand` (Shengji family, Hong Wu): each sub-multiset of one effective
/// suit that passes `check_lead` (trump throws may be barred), suit by suit (the four side
/// suits, then trump), fewer cards first, in card order. `None` when there would be more than
/// `limit` (a long suit has 2^n subsets): the caller then lists candidates.
pub fn all_leads(tr: &TrickRules, hand: &Multiset, limit: usize) -> Option<Vec<Multiset>> {
    let suits: Vec<Multiset> = (0..=TRUMP).map(|s| hand.restrict(tr.order.suit_mask(s))).collect();
    let mut total = 0usize;
    for m in &suits {
        let subsets = m.kinds().iter().fold(1usize, |n, c| n.saturating_mul(m.count(c) + 1));
        total = total.saturating_add(subsets - 1);
    }
    if total > limit {
        return None;
    }
    let mut out = Vec::new();
    for (suit, m) in suits.iter().enumerate() {
        // Any held cards of one effective suit form a lead; only a trump throw can be barred,
        // so `check_lead` (a decomposition) is needed for trumps alone.
        let checked = suit == TRUMP && !tr.trump_throw_allowed;
        for k in 1..=m.len() {
            let mut ok = |l: &Multiset| !checked || check_lead(tr, l, Some(hand)).is_ok();
            out.extend(sub_multisets(m, k, limit, limit, &mut ok));
        }
    }
    Some(out)
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};
    use proptest::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn throw_suits_is_the_definition(seed in any::<u64>(), decks in 1u8..=3, size in 0usize..=30) {
            // Bit s: the suit holding has two or more cards, is not one unit, and may be thrown.
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let level = Rank::from_index(rng.random_range(0..13)).unwrap();
            let trump = (rng.random_range(0..5) < 4).then(|| Suit::from_index(rng.random_range(0..4)));
            let mut tr = TrickRules::standard(
                CardOrder::shengji(level, trump, true, TrumpTierTractors::Full),
                decks,
            );
            tr.trump_throw_allowed = rng.random_bool(0.7);
            // Hands rich in pairs and runs: a few kinds, each taken up to `decks` times.
            let mut deck = Multiset::full_decks(decks as usize, true).unwrap().to_vec();
            deck.shuffle(&mut rng);
            deck.sort_by_key(|c| c.index() % 7);
            let start = rng.random_range(0..deck.len() - size);
            let hand = Multiset::from_cards(&deck[start..start + size]).unwrap();
            let mut want = 0u8;
            for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
                let part = hand.restrict(tr.order.suit_mask(s));
                let allowed = s != TRUMP || tr.trump_throw_allowed;
                if part.len() >= 2 && allowed && !is_single_unit(&tr, s, &part) {
                    want |= 1 << s;
                }
            }
            prop_assert_eq!(throw_suits(&tr, &hand), want, "hand {}", hand);
        }
    }
}
