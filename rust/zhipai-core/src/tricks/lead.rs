//! Leads: structural legality (shengji.md §4.3; hongwu.md §B.7) and the throw check against the
//! other hands with the forced component of a failed throw (shengji.md §4.4–§4.5).

use super::rules::{ForcedPlay, ThrowCheck, ThrowScope, TrickRules};
use crate::cards::{format_cards, CardSet};
use crate::multiset::{Multiset, MAX_COPIES};
use crate::tricks::combos::{decompose_into, run_starts, single_suit, Format, Unit};
use crate::tricks::order::TRUMP;
use std::fmt;

/// Why a lead is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeadError {
    /// No cards.
    Empty,
    /// The leader does not hold these cards (listed).
    NotHeld(String),
    /// The cards are of more than one effective suit (shengji.md §4.3).
    MixedSuits,
    /// A throw in trumps while `trump_throw_allowed` is off (shengji.md §4.3; hongwu.md §B.7).
    TrumpThrow,
}

impl fmt::Display for LeadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeadError::Empty => f.write_str("a lead needs at least one card"),
            LeadError::NotHeld(cards) => write!(f, "the leader does not hold {cards}"),
            LeadError::MixedSuits => {
                f.write_str("a lead must be of one effective suit (shengji.md §4.3)")
            }
            LeadError::TrumpThrow => {
                f.write_str("trumps cannot be thrown under these rules (shengji.md §4.3)")
            }
        }
    }
}

/// Check a lead's structure: non-empty, held by the leader (when `hand` is given), one effective
/// suit, and not a trump throw when those are forbidden. Returns the lead's format. Whether a
/// throw stands is decided separately by [`check_throw`].
pub fn check_lead(
    tr: &TrickRules,
    cards: &Multiset,
    hand: Option<&Multiset>,
) -> Result<Format, LeadError> {
    let mut format = Format::EMPTY;
    check_lead_into(tr, cards, hand, &mut format)?;
    Ok(format)
}

/// [`check_lead`] writing the format into `out` (hot paths keep one buffer per deal instead of
/// moving a format around). On error `out` is unchanged: a state that keeps its lead format in
/// place is left as it was by a refused lead.
pub fn check_lead_into(
    tr: &TrickRules,
    cards: &Multiset,
    hand: Option<&Multiset>,
    out: &mut Format,
) -> Result<(), LeadError> {
    if cards.is_empty() {
        return Err(LeadError::Empty);
    }
    if let Some(h) = hand {
        if !h.contains_all(cards) {
            return Err(LeadError::NotHeld(format_cards(&h.missing_from(cards))));
        }
    }
    if !tr.trump_throw_allowed && cards.len() > 1 && single_suit(cards, &tr.order) == Some(TRUMP) {
        // Whether trumps make a throw is known only once decomposed: decompose aside, so a
        // refused throw leaves `out` unchanged.
        let mut format = Format::EMPTY;
        decompose_into(cards, &tr.order, tr.throw_decomposition, &mut format);
        if format.is_throw() {
            return Err(LeadError::TrumpThrow);
        }
        *out = format;
        return Ok(());
    }
    // `decompose_into` checks the suits before it writes.
    if !decompose_into(cards, &tr.order, tr.throw_decomposition, out) {
        return Err(LeadError::MixedSuits);
    }
    Ok(())
}

/// The outcome of a throw check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThrowResult {
    /// Whether the whole throw stands.
    pub valid: bool,
    /// The cards actually led: the whole throw when valid, else the forced part.
    pub played: Multiset,
    /// Cards in the beaten components (for the penalty options; 0 when valid).
    pub beaten_cards: usize,
}

/// Check throw `format` (the leader's units) against `others`, the other players' hands in
/// playing order after the leader (shengji.md §4.4): a component is beaten when one other hand
/// holds a higher combination of its shape in the same effective suit. On failure the forced
/// part follows `tr.throw_fail_forced` (§4.5). A lead of one unit is always valid.
pub fn check_throw(tr: &TrickRules, format: &Format, others: &[Multiset]) -> ThrowResult {
    // The whole lead is rebuilt only when it stands (most random throws fail).
    let stands =
        || ThrowResult { valid: true, played: format_cards_multiset(format), beaten_cards: 0 };
    if !format.is_throw() {
        return stands();
    }
    let units = format.units.as_slice();
    let mut beaten = [false; crate::tricks::combos::MAX_UNITS];
    for (i, h) in others.iter().enumerate() {
        if tr.throw_check_scope == ThrowScope::OpponentsOnly && i == 1 {
            continue;
        }
        // The hand's index masks in the led suit, computed once for all the units.
        let masks = index_masks(tr, format.suit as usize, h);
        for (b, u) in beaten.iter_mut().zip(units) {
            *b = *b || beats_unit(tr, u, &masks);
        }
    }
    let mut any = false;
    let mut beaten_cards = 0;
    for (k, u) in units.iter().enumerate() {
        if beaten[k] {
            any = true;
            beaten_cards += u.cards();
        }
    }
    if !any {
        return stands();
    }
    let beaten_units = || units.iter().zip(beaten.iter()).filter(|(_, b)| **b).map(|(u, _)| u);
    // "Lowest index" ties are broken by the unit's lowest index, then its top.
    let rank = |u: &Unit| (u.low(), u.top);
    let played = match tr.throw_fail_forced {
        ForcedPlay::SmallestBeaten => {
            beaten_units().min_by_key(|u| (u.cards(), rank(u))).map(|u| u.to_multiset())
        }
        ForcedPlay::LargestBeaten => beaten_units()
            .min_by_key(|u| (std::cmp::Reverse((u.cards(), u.mult)), rank(u)))
            .map(|u| u.to_multiset()),
        ForcedPlay::SmallestComponentOfThrow => {
            units.iter().min_by_key(|u| (u.cards(), rank(u))).map(|u| u.to_multiset())
        }
        ForcedPlay::SmallestCard => {
            units.iter().min_by_key(|u| (u.low(), u.top)).map(|u| lowest_card(tr, u))
        }
        ForcedPlay::SmallestCardOfSmallestBeaten => {
            beaten_units().min_by_key(|u| (rank(u), u.cards())).map(|u| lowest_card(tr, u))
        }
        ForcedPlay::LowestBeaten => {
            beaten_units().min_by_key(|u| (rank(u), u.cards())).map(|u| u.to_multiset())
        }
    }
    .expect("a failed throw has a beaten unit");
    ThrowResult { valid: false, played, beaten_cards }
}

/// Call `f` on every lead of exactly one unit from `hand` (every distinct single, pair, triple,
/// tractor and Titanic, each tie choice of equal-strength kinds separately), grouped by effective
/// suit, until it breaks. Throws are not listed: any set of one effective suit is a lead.
pub fn for_each_unit_lead(
    tr: &TrickRules,
    hand: &Multiset,
    f: &mut dyn FnMut(&Unit) -> std::ops::ControlFlow<()>,
) -> std::ops::ControlFlow<()> {
    for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
        for m in 1..=tr.decks.min(crate::multiset::MAX_COPIES as u8) {
            let avail = hand.at_least(m as usize).intersect(tr.order.suit_mask(s));
            if avail.is_empty() {
                break;
            }
            let max_len = if m == 1 { 1 } else { tr.order.index_mask(s, avail).count_ones() };
            for k in 1..=max_len as usize {
                for_each_unit_of(tr, hand, s, m, k, f)?;
            }
        }
    }
    std::ops::ControlFlow::Continue(())
}

/// Call `f` on every distinct unit of `mult` × `len` indices of effective suit `s` in `hand`
/// (each tie choice of equal-strength kinds separately), lowest first, until it breaks.
pub fn for_each_unit_of(
    tr: &TrickRules,
    hand: &Multiset,
    s: usize,
    mult: u8,
    len: usize,
    f: &mut dyn FnMut(&Unit) -> std::ops::ControlFlow<()>,
) -> std::ops::ControlFlow<()> {
    let avail = hand.at_least(mult as usize).intersect(tr.order.suit_mask(s));
    let mut starts = run_starts(tr.order.index_mask(s, avail), tr.order.links(s), len);
    while starts != 0 {
        let low = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let mut u = Unit {
            suit: s as u8,
            mult,
            len: len as u8,
            top: (low + len - 1) as u8,
            kinds: CardSet::EMPTY,
        };
        choose_kinds(tr, avail, low, 0, &mut u, f)?;
    }
    std::ops::ControlFlow::Continue(())
}

fn choose_kinds(
    tr: &TrickRules,
    avail: CardSet,
    low: usize,
    i: usize,
    u: &mut Unit,
    f: &mut dyn FnMut(&Unit) -> std::ops::ControlFlow<()>,
) -> std::ops::ControlFlow<()> {
    if i == u.len as usize {
        return f(u);
    }
    for c in avail.intersect(tr.order.kinds_at(u.suit as usize, low + i)) {
        u.kinds.insert(c);
        let r = choose_kinds(tr, avail, low, i + 1, u, f);
        u.kinds.remove(c);
        r?;
    }
    std::ops::ControlFlow::Continue(())
}

/// One copy of the lowest card of `u`.
fn lowest_card(tr: &TrickRules, u: &Unit) -> Multiset {
    let low = u.low() as usize;
    let c = u
        .kinds
        .iter()
        .find(|&c| tr.order.index(c) == low)
        .expect("a unit has a kind at its lowest index");
    Multiset::from_set(CardSet::single(c))
}

/// Whether hand `h` beats unit `u` (shengji.md §4.4; hongwu.md §B.7 `throw_check`).
pub fn is_beaten(tr: &TrickRules, u: &Unit, h: &Multiset) -> bool {
    beats_unit(tr, u, &index_masks(tr, u.suit as usize, h))
}

/// `masks[m - 1]` = strength indices of effective suit `s` at which `h` holds a kind ≥ m times.
fn index_masks(tr: &TrickRules, s: usize, h: &Multiset) -> [u32; MAX_COPIES] {
    let mut masks = [0; MAX_COPIES];
    let suit = tr.order.suit_mask(s);
    for (k, mask) in masks.iter_mut().enumerate() {
        let kinds = h.at_least(k + 1).intersect(suit);
        if kinds.is_empty() {
            break; // the planes are nested: no kind is held more often either
        }
        *mask = tr.order.index_mask(s, kinds);
    }
    masks
}

/// [`is_beaten`] on a hand's [`index_masks`] in the unit's suit.
fn beats_unit(tr: &TrickRules, u: &Unit, masks: &[u32; MAX_COPIES]) -> bool {
    match tr.throw_check {
        ThrowCheck::Literal => above(masks[0], u.low()),
        ThrowCheck::Component if u.mult == 1 => above(masks[0], u.top),
        ThrowCheck::Component => {
            let mask = masks[u.mult as usize - 1];
            let starts = run_starts(mask, tr.order.links(u.suit as usize), u.len as usize);
            above(starts, u.low())
        }
    }
}

/// Whether `mask` has a bit above position `x`.
#[inline]
fn above(mask: u32, x: u8) -> bool {
    x < 31 && mask >> (x + 1) != 0
}

/// All the cards of a format.
pub fn format_cards_multiset(f: &Format) -> Multiset {
    let mut m = Multiset::EMPTY;
    for u in f.units.iter() {
        for c in u.kinds {
            for _ in 0..u.mult {
                m.add(c);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn tr(level: Rank, trump: Option<Suit>, decks: u8) -> TrickRules {
        TrickRules::standard(CardOrder::shengji(level, trump, true, TrumpTierTractors::Full), decks)
    }

    fn throw(t: &TrickRules, cards: &str, others: [&str; 3]) -> (bool, String) {
        let f = check_lead(t, &ms(cards), None).unwrap();
        let r = check_throw(t, &f, &others.map(ms));
        (r.valid, r.played.to_string())
    }

    #[test]
    fn t1_equal_cards_do_not_beat() {
        let t = tr(Rank::TWO, Some(Suit::Spades), 2);
        let r = throw(&t, "AH KH KH", ["AH QH QH 3H 4C", "JH JH 10H 5D", "9H 5H 5H 6S"]);
        assert!(r.0);
    }

    #[test]
    fn t2_t3_t4_forced_components() {
        let t = tr(Rank::TWO, Some(Suit::Spades), 2);
        assert_eq!(throw(&t, "QH QH JH", ["3H 4H 5C", "KH 6H 7D", "8H 9H 3S"]).1, "JH");
        assert_eq!(throw(&t, "3H 3H AH", ["KH KH 4H 5C", "5H 6H 7D", "8H 9H 3S"]).1, "3H 3H");
        let mut t = tr(Rank::TWO, Some(Suit::Hearts), 2);
        let others = ["5S 5S KS 3D", "6S 7C 8D", "8S 3C 9D"];
        assert_eq!(throw(&t, "4S 4S 9S", others).1, "9S");
        t.throw_fail_forced = ForcedPlay::LargestBeaten;
        assert_eq!(throw(&t, "4S 4S 9S", others).1, "4S 4S");
        t.throw_fail_forced = ForcedPlay::SmallestCard;
        assert_eq!(throw(&t, "4S 4S 9S", others).1, "4S");
    }

    #[test]
    fn t5_t6_t7_three_decks_largest_beaten() {
        let mut t = tr(Rank::TWO, Some(Suit::Spades), 3);
        t.throw_fail_forced = ForcedPlay::LargestBeaten;
        let r = throw(&t, "3H 3H 3H 4H 4H", ["7H 7H 7H 5C", "9H 8H 6D", "KH 6C 2D"]);
        assert_eq!(r.1, "3H 3H 3H");
        let r = throw(&t, "9H 9H 10H 10H JH JH JH", ["QH QH KH KH 5C", "8H 7H 3H", "AH 6D 4C"]);
        assert_eq!(r.1, "9H 9H 10H 10H");
        let r = throw(&t, "9H 9H 9H 10H 10H JH JH JH", ["KH KH 4C", "QH 8H 5D", "AH 6D 7C"]);
        assert_eq!(r.1, "10H 10H");
    }

    #[test]
    fn t8_trump_throws_and_option() {
        let mut t = tr(Rank::TWO, Some(Suit::Spades), 2);
        assert!(throw(&t, "BJ SJ SJ", ["BJ 3S 4H", "2H 2D AS", "2C KS 5D"]).0);
        t.trump_throw_allowed = false;
        assert_eq!(check_lead(&t, &ms("BJ SJ SJ"), None), Err(LeadError::TrumpThrow));
        assert!(check_lead(&t, &ms("SJ SJ BJ BJ"), None).is_ok(), "a tractor is not a throw");
    }

    #[test]
    fn unit_leads_of_a_hand() {
        let t = tr(Rank::TWO, Some(Suit::Spades), 2);
        let mut seen = Vec::new();
        let _ = for_each_unit_lead(&t, &ms("3H 3H 4H 4H 5H 2D 2D 2C 2C 2S 2S"), &mut |u| {
            seen.push(u.to_string());
            std::ops::ControlFlow::Continue(())
        });
        seen.sort();
        let mut want: Vec<String> = [
            "3H",
            "4H",
            "5H",
            "2D",
            "2C",
            "2S",
            "3H 3H",
            "4H 4H",
            "3H 3H 4H 4H",
            "2D 2D",
            "2C 2C",
            "2S 2S",
            "2D 2D 2S 2S",
            "2C 2C 2S 2S",
        ]
        .iter()
        .map(|s| ms(s).to_string())
        .collect();
        want.sort();
        assert_eq!(seen, want);
    }

    #[test]
    fn lead_errors() {
        let t = tr(Rank::TWO, Some(Suit::Clubs), 2);
        assert_eq!(check_lead(&t, &ms("9S 9S 8H 8H"), None), Err(LeadError::MixedSuits));
        assert!(matches!(
            check_lead(&t, &ms("AH AH"), Some(&ms("AH KH 3C"))),
            Err(LeadError::NotHeld(_))
        ));
        assert_eq!(check_lead(&t, &Multiset::EMPTY, None), Err(LeadError::Empty));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::cards::{Card, Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};
    use proptest::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    proptest! {
        /// A throw of distinct singles fails iff another hand holds a higher card of the suit
        /// than the lowest thrown card; the forced card (smallest_beaten) is then the lowest
        /// beaten single, i.e. the lowest card of the throw that some hand tops.
        #[test]
        fn single_card_throws_match_a_naive_check(seed in any::<u64>(), level in 0u8..13, suit in 0usize..4) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let tr = TrickRules::standard(
                CardOrder::shengji(Rank::from_index(level).unwrap(), Some(Suit::from_index(suit)), true, TrumpTierTractors::Full),
                2,
            );
            let mut deck = Multiset::full_decks(2, true).unwrap().to_vec();
            deck.shuffle(&mut rng);
            let hands: Vec<Multiset> =
                (0..4).map(|p| Multiset::from_cards(&deck[p * 25..p * 25 + 25]).unwrap()).collect();
            // Throw: every distinct kind the leader holds once, in the effective suit of its first card.
            let s = tr.order.suit(deck[0]);
            let mut throw = Multiset::EMPTY;
            for c in hands[0].exactly(1).intersect(tr.order.suit_mask(s)) {
                throw.add(c);
            }
            let Ok(f) = check_lead(&tr, &throw, None) else { return Ok(()) };
            prop_assume!(f.is_throw());
            let r = check_throw(&tr, &f, &hands[1..]);
            let top_other = hands[1..].iter()
                .flat_map(|h| h.kinds().intersect(tr.order.suit_mask(s)).iter().collect::<Vec<Card>>())
                .map(|c| tr.order.index(c)).max();
            let beaten = |c: Card| top_other.is_some_and(|t| t > tr.order.index(c));
            let naive_fail = throw.kinds().iter().any(beaten);
            prop_assert_eq!(r.valid, !naive_fail);
            if naive_fail {
                let forced = throw.kinds().iter().filter(|&c| beaten(c)).map(|c| tr.order.index(c)).min().unwrap();
                prop_assert_eq!(r.played.len(), 1);
                prop_assert_eq!(tr.order.index(r.played.kinds().first().unwrap()), forced);
            }
        }

        /// A refused lead leaves the caller's format untouched (states keep their lead format
        /// in place and must be unchanged by a refused move); an accepted one writes what
        /// `check_lead` returns. Mostly trump leads, with trump throws forbidden.
        #[test]
        fn refused_leads_leave_the_format_unchanged(seed in any::<u64>(), level in 0u8..13, n in 1usize..7, allowed in any::<bool>()) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut tr = TrickRules::standard(
                CardOrder::shengji(Rank::from_index(level).unwrap(), Some(Suit::Hearts), true, TrumpTierTractors::Full),
                2,
            );
            tr.trump_throw_allowed = allowed;
            let mut deck = Multiset::full_decks(2, true).unwrap().to_vec();
            deck.shuffle(&mut rng);
            let hand = Multiset::from_cards(&deck[..25]).unwrap();
            // Trumps of the hand with probability 3/4, else any of its cards.
            let trumps: Vec<Card> = hand.to_vec().into_iter().filter(|&c| tr.order.suit(c) == TRUMP).collect();
            let pool = if rng.random_bool(0.75) && !trumps.is_empty() { trumps } else { hand.to_vec() };
            let lead = Multiset::from_cards(&pool[..n.min(pool.len())]).unwrap();
            // `out` holds an earlier trick's format.
            let earlier = Multiset::from_cards(&deck[25..27]).unwrap();
            let mut out = check_lead(&tr, &Multiset::from_cards(&[deck[25]]).unwrap(), None).unwrap();
            if let Ok(f) = check_lead(&tr, &earlier, None) {
                out = f;
            }
            let before = out;
            match check_lead_into(&tr, &lead, Some(&hand), &mut out) {
                Ok(()) => prop_assert_eq!(out, check_lead(&tr, &lead, Some(&hand)).unwrap()),
                Err(e) => {
                    prop_assert!(!allowed || e != LeadError::TrumpThrow);
                    prop_assert_eq!(out, before, "refused {} ({})", lead, e);
                }
            }
        }
    }
}
