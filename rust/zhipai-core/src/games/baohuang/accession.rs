//! Who may ascend with which card: 登基 and 逼位 (baohuang.md §C.3).

use super::options::BaohuangRules;
use crate::cards::{Card, CardSetIter};
use crate::multiset::Multiset;

/// What ascending with a card makes of the emperor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ascension {
    /// 3 copies: the holder of the 4th copy is the guard (侍卫).
    Guard,
    /// All 4 copies: 独保, the emperor is his own guard (then 明独 or 暗独).
    Solo,
}

impl Ascension {
    pub fn name(self) -> &'static str {
        match self {
            Ascension::Guard => "guard",
            Ascension::Solo => "solo",
        }
    }
}

/// Copies of `card` that count for 登基 in `hand`: the physical count, less the scepter BJ when
/// `scepter_in_hand` and `scepter_counts_for_dengji = false` (§C.3.1 [I]).
pub fn counted_copies(
    hand: &Multiset,
    card: Card,
    scepter_in_hand: bool,
    rules: &BaohuangRules,
) -> usize {
    let n = hand.count(card);
    if card == Card::BIG_JOKER && scepter_in_hand && !rules.scepter_counts_for_dengji {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// Every card the scepter holder may ascend with (§C.3.1): 3 or 4 identical cards (same rank and
/// suit; 3 SJ or 3 BJ qualify). `Solo` when he holds all 4 physical copies, else `Guard`.
/// In kind order (♠2 … ♣A, SJ, BJ).
pub fn ascension_options(
    hand: &Multiset,
    scepter_in_hand: bool,
    rules: &BaohuangRules,
) -> Vec<(Card, Ascension)> {
    candidates(hand)
        .filter(|&c| counted_copies(hand, c, scepter_in_hand, rules) >= 3)
        .map(|c| (c, if hand.count(c) == 4 { Ascension::Solo } else { Ascension::Guard }))
        .collect()
}

/// The cards a player must ascend with under 逼位 (§C.3.3): those he holds exactly 3 of
/// ("有且只有3张"). Empty when 逼位 does not reach him.
pub fn forced_options(hand: &Multiset, scepter_in_hand: bool, rules: &BaohuangRules) -> Vec<Card> {
    candidates(hand).filter(|&c| counted_copies(hand, c, scepter_in_hand, rules) == 3).collect()
}

fn candidates(hand: &Multiset) -> CardSetIter {
    // Kinds held at least 3 times: the third count plane.
    hand.triples().iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(hand: &str, rules: &BaohuangRules) -> Vec<(String, Ascension)> {
        ascension_options(&hand.parse().unwrap(), true, rules)
            .into_iter()
            .map(|(c, a)| (c.to_string(), a))
            .collect()
    }

    #[test]
    fn b11_three_and_four_copies() {
        let r = BaohuangRules::default();
        assert_eq!(
            opts("BJ 9C 9C 9C KD KD KD KD 5S 6H", &r),
            vec![("KD".into(), Ascension::Solo), ("9C".into(), Ascension::Guard)]
        );
        assert!(opts("BJ 9C 9C 9H KD KD 5S 6H", &r).is_empty(), "same rank, other suit");
    }

    #[test]
    fn scepter_counts_for_big_joker_dengji() {
        let r = BaohuangRules::default();
        assert_eq!(opts("BJ BJ BJ 5S", &r), vec![("BJ".into(), Ascension::Guard)]);
        let off = BaohuangRules { scepter_counts_for_dengji: false, ..Default::default() };
        assert!(opts("BJ BJ BJ 5S", &off).is_empty());
        assert_eq!(opts("BJ BJ BJ BJ", &off), vec![("BJ".into(), Ascension::Solo)]);
    }

    #[test]
    fn forced_needs_exactly_three() {
        let r = BaohuangRules::default();
        let hand: Multiset = "9C 9C 9C KD KD KD KD".parse().unwrap();
        let f = forced_options(&hand, false, &r);
        assert_eq!(f, vec!["9C".parse::<Card>().unwrap()]);
        assert!(forced_options(&"KD KD KD KD".parse().unwrap(), false, &r).is_empty());
    }
}
