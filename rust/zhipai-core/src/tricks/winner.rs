//! Who wins a trick (shengji.md §6; hongwu.md §B.9).
//!
//! A play is *eligible* when it is entirely in the led suit or entirely trump and its structure
//! covers the lead's format: its cards can be arranged as the lead's units, splitting bigger
//! units but never merging (§5 F3) — or, with [`ShapeMatch::Exact`] (Hong Wu), its own units have
//! exactly the lead's shapes. An eligible trump play beats any led-suit play; between plays of
//! one class a strictly higher value is needed (ties go to the earlier play, §3.3). Every
//! arrangement of a play is considered, so a ruff is valued by its best arrangement.

use super::rules::{HolderArrangement, ShapeMatch, ThrowCompare, TrickRules};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::tricks::combos::{decompose, one_bit, single_suit, Format, Unit, MAX_UNITS};
use crate::tricks::order::TRUMP;
use std::ops::ControlFlow;

/// One arrangement of a play as a format: the top index of each non-single unit (in the
/// format's order) and the indices of the cards left as singles, each sorted descending inside
/// groups of identical shape.
#[derive(Clone, Copy, Debug)]
struct Arrangement {
    tops: [u8; MAX_UNITS],
    n: usize,
}

/// Index of the winning play among `plays` (index 0 is the lead as played, after any failed-throw
/// reduction; the others follow in playing order). Errors with `InvalidValue` when the lead is
/// empty or mixes effective suits, or a play has a different number of cards.
pub fn trick_winner(tr: &TrickRules, plays: &[Multiset]) -> Result<usize> {
    let lead =
        plays.first().ok_or_else(|| ZhipaiError::invalid_value("plays", "[]", "no plays"))?;
    if lead.len() == 1 {
        // Single-card lead: no decomposition needed.
        check_lengths(tr, plays)?;
        let led = tr.order.suit(lead.kinds().first().expect("one card"));
        return Ok(single_card_winner(tr, led, plays));
    }
    let format = decompose(lead, &tr.order, tr.throw_decomposition).ok_or_else(|| {
        ZhipaiError::invalid_value("lead", lead, "expected cards of one effective suit")
    })?;
    trick_winner_of(tr, &format, plays)
}

/// [`trick_winner`] with the lead's format already known (`format` must be the format of
/// `plays[0]`, e.g. from [`super::check_lead`]), saving its decomposition.
pub fn trick_winner_of(tr: &TrickRules, format: &Format, plays: &[Multiset]) -> Result<usize> {
    if plays.is_empty() {
        return Err(ZhipaiError::invalid_value("plays", "[]", "no plays"));
    }
    check_lengths(tr, plays)?;
    if let Some(mult) = one_kind_unit(format) {
        return Ok(tuple_winner(tr, format.suit as usize, mult, plays));
    }
    Ok(general_winner(tr, format, plays))
}

/// The multiplicity of `format` when it is one single, pair or triple (one kind).
#[inline]
pub(crate) fn one_kind_unit(format: &Format) -> Option<u8> {
    match format.units.as_slice() {
        [u] if u.len == 1 => Some(u.mult),
        _ => None,
    }
}

/// The winner by eligibility and comparison of every arrangement (module docs).
fn general_winner(tr: &TrickRules, format: &Format, plays: &[Multiset]) -> usize {
    let mut best = 0usize;
    let mut best_trump = format.suit as usize == TRUMP;
    for (i, p) in plays.iter().enumerate().skip(1) {
        let Some(s) = single_suit(p, &tr.order) else { continue };
        if s != format.suit as usize && s != TRUMP {
            continue;
        }
        if !eligible(tr, format, p, s) {
            continue;
        }
        let trump = s == TRUMP;
        if trump && !best_trump {
            best = i;
            best_trump = true;
        } else if trump == best_trump && beats(tr, format, p, &plays[best], s) {
            best = i;
        }
    }
    best
}

/// Errors unless every play has as many cards as the lead (and no card more often than decks).
fn check_lengths(tr: &TrickRules, plays: &[Multiset]) -> Result<()> {
    let n = plays.first().map_or(0, |l| l.len());
    for p in plays {
        tr.check_copies("play", p)?;
        if p.len() != n {
            return Err(ZhipaiError::invalid_value(
                "play",
                p,
                format!("has {} cards, the lead {n}", p.len()),
            ));
        }
    }
    Ok(())
}

/// Fast path for a single-card lead in effective suit `led`: trump beats the led suit, a strictly
/// higher index beats an equal one, everything else is a discard.
fn single_card_winner(tr: &TrickRules, led: usize, plays: &[Multiset]) -> usize {
    tuple_winner(tr, led, 1, plays)
}

/// Fast path for a lead of one kind held `mult` times (single, pair, triple) in effective suit
/// `led`, plays of `mult` cards: a play is eligible when it is one kind `mult` times in the led
/// suit or trump (under [`ShapeMatch::Cover`] and [`ShapeMatch::Exact`] alike); trump beats the
/// led suit, then a strictly higher index wins (every [`ThrowCompare`] reads the one index).
pub(crate) fn tuple_winner(tr: &TrickRules, led: usize, mult: u8, plays: &[Multiset]) -> usize {
    // Key 0 = not eligible; else (trump, index) packed so that integer order is the ruling.
    let key = |p: &Multiset| -> u32 {
        debug_assert_eq!(p.len(), mult as usize, "plays have the lead's size");
        let kinds = p.kinds();
        let Some(c) = kinds.first() else { return 0 };
        // A play of `mult` cards of one kind holds it `mult` times: no count needed.
        if !one_bit(kinds.0) {
            return 0;
        }
        let s = tr.order.suit(c);
        let index = tr.order.index(c) as u32; // < MAX_INDEX = 32
        if s == TRUMP {
            0x200 | index
        } else if s == led {
            0x100 | index
        } else {
            0
        }
    };
    let mut best = 0;
    let mut best_key = key(&plays[0]);
    for (i, p) in plays.iter().enumerate().skip(1) {
        let k = key(p);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

/// Whether `play` (all in effective suit `s`) may win against `format` (module docs).
fn eligible(tr: &TrickRules, format: &Format, play: &Multiset, s: usize) -> bool {
    match tr.shape_match {
        ShapeMatch::Cover => first_arrangement(tr, format, play, s).is_some(),
        ShapeMatch::Exact => {
            let Some(own) = decompose(play, &tr.order, tr.throw_decomposition) else {
                return false;
            };
            let shapes = |f: &Format| {
                let mut v = [(0u8, 0u8); MAX_UNITS];
                for (k, u) in f.units.iter().enumerate() {
                    v[k] = (u.mult, u.len);
                }
                v[..f.units.len()].sort_unstable();
                (f.units.len(), v)
            };
            shapes(&own) == shapes(format)
        }
    }
}

/// Whether eligible `challenger` strictly beats `holder` (same class, both eligible).
fn beats(
    tr: &TrickRules,
    format: &Format,
    challenger: &Multiset,
    holder: &Multiset,
    s: usize,
) -> bool {
    match tr.throw_compare {
        ThrowCompare::HighestCard => highest(tr, challenger) > highest(tr, holder),
        ThrowCompare::LargestComponent => {
            largest_value(tr, format, challenger, s) > largest_value(tr, format, holder, s)
        }
        ThrowCompare::AllComponents => {
            let held = match tr.all_components_holder {
                HolderArrangement::First => first_arrangement(tr, format, holder, s),
                HolderArrangement::Every => strongest_reading(tr, format, holder, s),
            };
            let Some(held) = held else { return true };
            let mut won = false;
            let _ = arrangements(tr, format, challenger, s, &mut |a| {
                if (0..a.n).all(|k| a.tops[k] > held.tops[k]) {
                    won = true;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            won
        }
    }
}

/// Highest strength index among the cards of `play`.
fn highest(tr: &TrickRules, play: &Multiset) -> usize {
    play.kinds().iter().map(|c| tr.order.index(c)).max().unwrap_or(0)
}

/// The best top of the lead's largest unit over every arrangement of `play`.
fn largest_value(tr: &TrickRules, format: &Format, play: &Multiset, s: usize) -> usize {
    if format.largest().mult == 1 {
        return highest(tr, play);
    }
    // Arrangements are searched with the largest unit (the format's first) placed highest first.
    first_arrangement(tr, format, play, s).map_or(0, |a| a.tops[0] as usize)
}

/// Unit by unit, the best top any arrangement of `play` gives (tops sorted inside groups of
/// like units): a challenger beating this beats every arrangement of `play`.
fn strongest_reading(
    tr: &TrickRules,
    format: &Format,
    play: &Multiset,
    s: usize,
) -> Option<Arrangement> {
    let mut best: Option<Arrangement> = None;
    let _ = arrangements(tr, format, play, s, &mut |a| {
        let b = best.get_or_insert(*a);
        for k in 0..a.n {
            b.tops[k] = b.tops[k].max(a.tops[k]);
        }
        ControlFlow::Continue(())
    });
    best
}

/// The first arrangement in search order (highest placements first), if any.
fn first_arrangement(
    tr: &TrickRules,
    format: &Format,
    play: &Multiset,
    s: usize,
) -> Option<Arrangement> {
    let mut found = None;
    let _ = arrangements(tr, format, play, s, &mut |a| {
        found = Some(*a);
        ControlFlow::Break(())
    });
    found
}

/// Visit every arrangement of `play` (all of suit `s`) as `format`'s units: each non-single unit
/// gets a run of linked indices held with at least its multiplicity, placed highest first; the
/// cards left over are the singles.
fn arrangements(
    tr: &TrickRules,
    format: &Format,
    play: &Multiset,
    s: usize,
    f: &mut dyn FnMut(&Arrangement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let units = format.units.as_slice();
    let mut a = Arrangement { tops: [0; MAX_UNITS], n: units.len() };
    place(tr, units, 0, *play, s, &mut a, f)
}

fn place(
    tr: &TrickRules,
    units: &[Unit],
    j: usize,
    rem: Multiset,
    s: usize,
    a: &mut Arrangement,
    f: &mut dyn FnMut(&Arrangement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if j == units.len() || units[j].mult == 1 {
        // Singles take the cards left, highest first (units are sorted bigger first).
        let mut k = j;
        let mut idx = [0u8; MAX_UNITS];
        let mut n = 0;
        for c in rem.kinds() {
            for _ in 0..rem.count(c) {
                if n < MAX_UNITS {
                    idx[n] = tr.order.index(c) as u8;
                    n += 1;
                }
            }
        }
        idx[..n].sort_unstable_by(|x, y| y.cmp(x));
        for &i in &idx[..n] {
            if k < a.n {
                a.tops[k] = i;
                k += 1;
            }
        }
        let mut sorted = *a;
        sort_groups(units, &mut sorted);
        return f(&sorted);
    }
    let u = units[j];
    let (m, k) = (u.mult as usize, u.len as usize);
    let avail = rem.at_least(m).intersect(tr.order.suit_mask(s));
    let mask = tr.order.index_mask(s, avail);
    let starts = crate::tricks::combos::run_starts(mask, tr.order.links(s), k);
    let mut bits = starts;
    while bits != 0 {
        let low = 31 - bits.leading_zeros() as usize;
        bits &= !(1 << low);
        a.tops[j] = (low + k - 1) as u8;
        place_run(tr, units, j, rem, s, low, 0, k, m, avail, a, f)?;
    }
    ControlFlow::Continue(())
}

/// Choose a kind at each index `low+i..low+k` (several when they tie), then place unit j + 1.
#[allow(clippy::too_many_arguments)]
fn place_run(
    tr: &TrickRules,
    units: &[Unit],
    j: usize,
    rem: Multiset,
    s: usize,
    low: usize,
    i: usize,
    k: usize,
    m: usize,
    avail: crate::cards::CardSet,
    a: &mut Arrangement,
    f: &mut dyn FnMut(&Arrangement) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if i == k {
        return place(tr, units, j + 1, rem, s, a, f);
    }
    for c in avail.intersect(tr.order.kinds_at(s, low + i)) {
        if rem.count(c) < m {
            continue;
        }
        let mut r = rem;
        for _ in 0..m {
            r.remove(c);
        }
        place_run(tr, units, j, r, s, low, i + 1, k, m, avail, a, f)?;
    }
    ControlFlow::Continue(())
}

/// Sort the tops descending inside each group of units of identical shape, so arrangements are
/// compared unit by unit "in sorted order" (§6.6 `all_components`).
fn sort_groups(units: &[Unit], a: &mut Arrangement) {
    let mut start = 0;
    while start < units.len() {
        let shape = (units[start].mult, units[start].len);
        let mut end = start + 1;
        while end < units.len() && (units[end].mult, units[end].len) == shape {
            end += 1;
        }
        a.tops[start..end].sort_unstable_by(|x, y| y.cmp(x));
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};

    fn tr(level: Rank, trump: Option<Suit>, decks: u8) -> TrickRules {
        TrickRules::standard(CardOrder::shengji(level, trump, true, TrumpTierTractors::Full), decks)
    }

    fn win(t: &TrickRules, plays: [&str; 4]) -> usize {
        let plays: Vec<Multiset> = plays.iter().map(|p| p.parse().unwrap()).collect();
        trick_winner(t, &plays).unwrap()
    }

    #[test]
    fn digest_9_4() {
        let t = tr(Rank::TWO, Some(Suit::Spades), 2);
        assert_eq!(win(&t, ["AH", "3S", "KH", "2D"]), 3, "W1");
        assert_eq!(win(&t, ["KH", "2H", "2D", "4C"]), 1, "W2");
        assert_eq!(win(&t, ["10H 10H", "3S 4S", "4H 4H", "6H 7H"]), 0, "W3");
        assert_eq!(win(&t, ["10H 10H", "5S 5S", "2C 2C", "2H 2H"]), 2, "W4");
        assert_eq!(win(&t, ["5H", "AC", "7H", "6H"]), 2, "W5");
        assert_eq!(win(&tr(Rank::TWO, None, 2), ["2S", "2H", "2D", "5C"]), 0, "W6");
        assert_eq!(win(&t, ["AH AH", "KH 3S", "3S 4S", "QH JH"]), 0, "W7");
        let w8 = ["KD KD JD JD 8D", "9S 9S 4S 4S JS", "AS AS 3S 3S 6S", "3C 4C 5C 6C 7C"];
        assert_eq!(win(&t, w8), 2, "W8");
        let mut all = t.clone();
        all.throw_compare = ThrowCompare::AllComponents;
        assert_eq!(win(&all, w8), 1, "W8 all_components");
        let w9 = ["KD KD AD", "4S 4S BJ", "6S 6S 3S", "3C 4C 5C"];
        assert_eq!(win(&t, w9), 2, "W9");
        assert_eq!(win(&all, w9), 1, "W9 all_components");
        let mut hi = t.clone();
        hi.throw_compare = ThrowCompare::HighestCard;
        assert_eq!(win(&hi, w9), 1, "W9 highest_card");
        assert_eq!(
            win(&t, ["6D 6D 7D 7D", "5S 5S 9S 9S", "3S 3S 4S 4S", "8C 9C 10C JC"]),
            2,
            "W11"
        );
    }

    #[test]
    fn w10_three_decks() {
        let t = tr(Rank::TWO, Some(Suit::Spades), 3);
        let w10 = ["3H 3H 3H 4H 4H", "6S 6S 6S 9S 9S", "8S 8S 8S 3S 3S", "5C 6C 7C 8C 9C"];
        assert_eq!(win(&t, w10), 2);
        let mut all = t.clone();
        all.throw_compare = ThrowCompare::AllComponents;
        assert_eq!(win(&all, w10), 1);
    }

    #[test]
    fn all_components_against_the_first_or_every_arrangement_of_the_holder() {
        // §6.6 is silent on which reading of P2's 5S 5S 9S 9S (pair + 2 singles) P3 must beat.
        let mut t = tr(Rank::TWO, Some(Suit::Spades), 2);
        t.throw_compare = ThrowCompare::AllComponents;
        let plays = ["AD AD KD QD", "5S 5S 9S 9S", "10S 10S 6S 6S", "3C 4C 5C 6C"];
        assert_eq!(win(&t, plays), 2, "(10S 10S; 6S, 6S) beats (9S 9S; 5S, 5S)");
        t.all_components_holder = HolderArrangement::Every;
        assert_eq!(win(&t, plays), 1, "nothing of P3 beats (5S 5S; 9S, 9S) too");
        // A challenger beating every reading still takes the trick.
        let plays = ["AD AD KD QD", "5S 5S 9S 9S", "JS JS 10S 10S", "3C 4C 5C 6C"];
        assert_eq!(win(&t, plays), 2);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::cards::{Card, Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};
    use proptest::prelude::*;

    fn rules(level: u8, trump: u8) -> TrickRules {
        let trump = (trump < 4).then(|| Suit::from_index(trump as usize));
        TrickRules::standard(
            CardOrder::shengji(
                Rank::from_index(level).unwrap(),
                trump,
                true,
                TrumpTierTractors::Full,
            ),
            2,
        )
    }

    /// Naive oracle for tricks of equal-size "units of one kind" (singles or identical pairs):
    /// a play is eligible if it is one kind held `m` times in the led suit or in trump; trump
    /// beats the led suit; otherwise a strictly higher index is needed.
    fn oracle(tr: &TrickRules, plays: &[(Card, usize)]) -> usize {
        let led = tr.order.suit(plays[0].0);
        let key = |c: Card| (tr.order.suit(c) == crate::tricks::order::TRUMP, tr.order.index(c));
        let mut best = 0;
        for (i, &(c, m)) in plays.iter().enumerate().skip(1) {
            let s = tr.order.suit(c);
            if m != plays[0].1 || (s != led && s != crate::tricks::order::TRUMP) {
                continue;
            }
            if key(c) > key(plays[best].0) {
                best = i;
            }
        }
        best
    }

    proptest! {
        #[test]
        fn singles_and_pairs_match_the_oracle(
            level in 0u8..13,
            trump in 0u8..5,
            kinds in proptest::collection::vec(0usize..54, 4),
            pair_lead in any::<bool>(),
            split in proptest::collection::vec(any::<bool>(), 4),
        ) {
            let tr = rules(level, trump);
            let m = if pair_lead { 2 } else { 1 };
            let cards: Vec<Card> = kinds.iter().map(|&i| Card::from_index(i).unwrap()).collect();
            let mut plays = Vec::new();
            let mut shape = Vec::new();
            for (k, &c) in cards.iter().enumerate() {
                let mut p = Multiset::EMPTY;
                p.add(c);
                if m == 2 {
                    // A split play (two different kinds) is never a pair.
                    if split[k] && k > 0 {
                        p.add(cards[(k + 1) % 4]);
                    } else {
                        p.add(c);
                    }
                }
                let is_unit = p.count(c) == m;
                shape.push((c, if is_unit { m } else { 0 }));
                plays.push(p);
            }
            prop_assume!(plays.iter().all(|p| p.at_least(3).is_empty()));
            prop_assert_eq!(trick_winner(&tr, &plays).unwrap(), oracle(&tr, &shape));
            // The one-kind fast path agrees with the general eligibility/arrangement path.
            let f = crate::tricks::combos::decompose(&plays[0], &tr.order, tr.throw_decomposition).unwrap();
            let mut exact = tr.clone();
            exact.shape_match = ShapeMatch::Exact;
            for t in [&tr, &exact] {
                prop_assert_eq!(
                    tuple_winner(t, f.suit as usize, m as u8, &plays),
                    general_winner(t, &f, &plays)
                );
            }
        }
    }
}
