//! The Hong Wu card order (hongwu.md §B.4, §B.6) as a [`CardOrder`].
//!
//! With trump suit T and its colour mate T′ (♠↔♣, ♥↔♦), trumps from high to low are
//! ♥5 > BJ > SJ > 正参谋 (3 of T) > 副参谋 (3 of T′) > [other 3s] > 主2 (2 of T) > 副2 (the
//! other three 2s, equal) > T's A … 4. ♥5 is always the top trump, so hearts (plain or trump) run
//! 6 → 4 directly. There is no no-trump. Plain suits run A … 4, then the suit's 3 when it is
//! neither a 参谋 nor a trump (`other_threes = plain_lowest`).

use super::options::{OtherThrees, TractorAboveA};
use crate::cards::{Card, Rank, Suit};
use crate::tricks::order::{CardOrder, TRUMP};
use std::sync::OnceLock;

/// ♥5, the top trump whatever the trump suit (hongwu.md §B.4 level 1).
pub const RED_FIVE: Card = Card::new(Suit::Hearts, Rank::FIVE);

/// The suit of the same colour as `suit`: ♠↔♣, ♥↔♦ (its 3 is the 副参谋, hongwu.md §B.4).
pub const fn colour_mate(suit: Suit) -> Suit {
    // Suits are S H D C = 0..4, so the mate is 3 − index.
    Suit::from_index(3 - suit.index())
}

/// The run 4 … A of `suit` without ♥5, low to high (plain suits and the trump suit's tail).
fn run_four_to_ace(suit: Suit) -> impl Iterator<Item = Card> {
    (Rank::FOUR.index()..=Rank::ACE.index())
        .map(move |r| Card::new(suit, Rank::from_index(r as u8).expect("rank index")))
        .filter(|&c| c != RED_FIVE)
}

/// The Hong Wu order for trump suit `trump` (hongwu.md §B.4, §B.6).
///
/// Strength indices grow with strength. Every plain run and T's run 4 … A are chained for
/// tractors; above T's A every level chains to the next with `TractorAboveA::FullChain`, and
/// only SJ → BJ with `JokersOnly`.
/// A copy of [`trump_orders`]' entry, built once.
pub fn hongwu_order(
    trump: Suit,
    other_threes: OtherThrees,
    tractor_above_a: TractorAboveA,
) -> CardOrder {
    trump_orders(other_threes, tractor_above_a)[trump.index()].clone()
}

/// The orders of the four trump suits (S H D C) under these options, built once per process
/// for each of the four option pairs: every deal needs its order (building it was ≈ 3 % of a
/// random deal's instructions) and the greedy bid compares all four.
pub fn trump_orders(
    other_threes: OtherThrees,
    tractor_above_a: TractorAboveA,
) -> &'static [CardOrder; 4] {
    static BUILT: [OnceLock<[CardOrder; 4]>; 4] = [const { OnceLock::new() }; 4];
    let key = 2 * (other_threes == OtherThrees::TrumpBelowFuCanmou) as usize
        + (tractor_above_a == TractorAboveA::JokersOnly) as usize;
    BUILT[key].get_or_init(|| Suit::ALL.map(|t| build(t, other_threes, tractor_above_a)))
}

fn build(trump: Suit, other_threes: OtherThrees, tractor_above_a: TractorAboveA) -> CardOrder {
    let mut o = CardOrder::empty();
    let mate = colour_mate(trump);
    let threes_trump = other_threes == OtherThrees::TrumpBelowFuCanmou;
    for suit in Suit::ALL.into_iter().filter(|&s| s != trump) {
        let three = Card::new(suit, Rank::THREE);
        let plain_three = suit != mate && !threes_trump;
        let cards = plain_three.then_some(three).into_iter().chain(run_four_to_ace(suit));
        place_run(&mut o, suit.index(), 0, cards);
    }
    // T's run 4 … A, then the levels above A one index each.
    let mut top = place_run(&mut o, TRUMP, 0, run_four_to_ace(trump));
    let ace = top - 1;
    for suit in Suit::ALL.into_iter().filter(|&s| s != trump) {
        o.place(Card::new(suit, Rank::TWO), TRUMP, top); // 副2, all equal
    }
    top += 1;
    o.place(Card::new(trump, Rank::TWO), TRUMP, top); // 主2
    top += 1;
    if threes_trump {
        for suit in Suit::ALL.into_iter().filter(|&s| s != trump && s != mate) {
            o.place(Card::new(suit, Rank::THREE), TRUMP, top);
        }
        top += 1;
    }
    for card in [
        Card::new(mate, Rank::THREE),  // 副参谋
        Card::new(trump, Rank::THREE), // 正参谋
        Card::SMALL_JOKER,
        Card::BIG_JOKER,
        RED_FIVE,
    ] {
        o.place(card, TRUMP, top);
        top += 1;
    }
    let full = tractor_above_a == TractorAboveA::FullChain;
    let sj = o.index(Card::SMALL_JOKER);
    for k in ace..top - 1 {
        o.set_link(TRUMP, k, full || k == sj);
    }
    o
}

/// Place `cards` (low to high) at consecutive indices from `start` in `suit`, each chained to
/// the next; returns the next free index.
fn place_run(
    o: &mut CardOrder,
    suit: usize,
    start: usize,
    cards: impl Iterator<Item = Card>,
) -> usize {
    let mut idx = start;
    for card in cards {
        o.place(card, suit, idx);
        if idx > start {
            o.set_link(suit, idx - 1, true);
        }
        idx += 1;
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{CardSet, NUM_KINDS};

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn default_order(trump: Suit) -> CardOrder {
        hongwu_order(trump, OtherThrees::PlainLowest, TractorAboveA::FullChain)
    }

    /// `a` and `b` form a tractor as pairs: same effective suit, indices one apart, linked.
    fn adjacent(o: &CardOrder, a: &str, b: &str) -> bool {
        let (a, b) = (c(a), c(b));
        let (lo, hi) = if o.index(a) < o.index(b) { (a, b) } else { (b, a) };
        o.suit(lo) == o.suit(hi)
            && o.index(hi) == o.index(lo) + 1
            && o.linked(o.suit(lo), o.index(lo))
    }

    fn assert_descending(o: &CardOrder, chain: &[&str]) {
        for w in chain.windows(2) {
            assert_eq!(o.suit(c(w[0])), o.suit(c(w[1])), "{} and {} share a suit", w[0], w[1]);
            assert!(o.index(c(w[0])) > o.index(c(w[1])), "{} > {}", w[0], w[1]);
        }
    }

    #[test]
    fn spades_trump_example_of_b4() {
        // hongwu.md §B.4 "Example T = ♠".
        let o = default_order(Suit::Spades);
        assert_descending(
            &o,
            &["5H", "BJ", "SJ", "3S", "3C", "2S", "2H", "AS", "KS", "QS", "JS", "10S", "9S"],
        );
        assert_descending(&o, &["9S", "8S", "7S", "6S", "5S", "4S"]);
        assert!(o.ties(c("2H"), c("2C")) && o.ties(c("2C"), c("2D")));
        assert!(o.is_trump(c("5H")) && o.is_trump(c("3C")) && !o.is_trump(c("3H")));
        // Plain ♥: A K Q J 10 9 8 7 6 4 (3); plain ♣: A … 4; plain ♦: A … 4 (3).
        assert_descending(&o, &["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "4H", "3H"]);
        assert_descending(&o, &["AC", "KC", "4C"]);
        assert_descending(&o, &["AD", "4D", "3D"]);
        assert_eq!(o.suit(c("3H")), Suit::Hearts.index());
        // 25 trump kinds: ♥5, 2 jokers, 2 参谋, 4 twos, ♠4…♠A (11).
        assert_eq!(o.suit_mask(TRUMP).len(), 1 + 2 + 2 + 4 + 11);
        assert_eq!(o.suit_mask(Suit::Hearts.index()).len(), 11);
        assert_eq!(o.suit_mask(Suit::Clubs.index()).len(), 11);
        assert_eq!(o.suit_mask(Suit::Diamonds.index()).len(), 12);
    }

    #[test]
    fn hearts_trump_example_of_b4_and_h13() {
        let o = default_order(Suit::Hearts);
        assert_descending(&o, &["5H", "BJ", "SJ", "3H", "3D", "2H", "2S", "AH", "6H", "4H"]);
        assert!(!o.is_trump(c("3S")) && !o.is_trump(c("3C")));
        // H13: ♥5♥5 BJBJ, ♥3♥3 ♦3♦3, ♥2♥2 ♣2♣2, ♣2♣2 ♥A♥A, ♥6♥6 ♥4♥4 are tractors; ♠2 ♣2 are not.
        for (a, b) in [("5H", "BJ"), ("3H", "3D"), ("2H", "2C"), ("2C", "AH"), ("6H", "4H")] {
            assert!(adjacent(&o, a, b), "{a} {b}");
        }
        assert!(!adjacent(&o, "2S", "2C") && o.ties(c("2S"), c("2C")));
    }

    #[test]
    fn adjacency_examples_of_b6() {
        let o = default_order(Suit::Spades);
        for (a, b) in [
            ("BJ", "SJ"),
            ("5H", "BJ"),
            ("SJ", "3S"),
            ("3S", "3C"),
            ("3C", "2S"),
            ("2S", "2D"),
            ("2D", "AS"),
            ("6H", "4H"),
            ("4H", "3H"),
            ("KC", "QC"),
        ] {
            assert!(adjacent(&o, a, b), "{a} {b}");
        }
        assert!(!adjacent(&o, "2D", "2C"));
        assert!(!adjacent(&o, "AS", "QS"));
        assert!(!adjacent(&o, "4S", "3S"), "♠3 is 正参谋, not next to ♠4");
    }

    #[test]
    fn jokers_only_breaks_every_link_above_a_but_sj_bj() {
        let o = hongwu_order(Suit::Spades, OtherThrees::PlainLowest, TractorAboveA::JokersOnly);
        assert!(adjacent(&o, "BJ", "SJ"));
        for (a, b) in
            [("5H", "BJ"), ("SJ", "3S"), ("3S", "3C"), ("3C", "2S"), ("2S", "2D"), ("2D", "AS")]
        {
            assert!(!adjacent(&o, a, b), "{a} {b}");
        }
        assert!(adjacent(&o, "AS", "KS") && adjacent(&o, "5S", "4S"));
    }

    #[test]
    fn other_threes_as_trumps() {
        let o =
            hongwu_order(Suit::Spades, OtherThrees::TrumpBelowFuCanmou, TractorAboveA::FullChain);
        assert!(o.is_trump(c("3H")) && o.is_trump(c("3D")) && o.ties(c("3H"), c("3D")));
        assert_descending(&o, &["3C", "3H", "2S", "2D"]);
        assert!(adjacent(&o, "3C", "3D") && adjacent(&o, "3H", "2S"));
        assert_eq!(o.suit_mask(Suit::Diamonds.index()).len(), 11);
        assert!(!o.is_trump(c("4H")) && !adjacent(&o, "4H", "3H"));
    }

    #[test]
    fn every_kind_placed_once_for_every_trump() {
        for trump in Suit::ALL {
            for threes in OtherThrees::ALL {
                let o = hongwu_order(trump, *threes, TractorAboveA::FullChain);
                let mut all = CardSet::EMPTY;
                for s in 0..5 {
                    assert!(all.intersect(o.suit_mask(s)).is_empty());
                    all = all | o.suit_mask(s);
                }
                assert_eq!(all.len() as usize, NUM_KINDS);
                assert!(o.is_trump(RED_FIVE));
                assert_eq!(o.index(RED_FIVE) + 1, o.len(TRUMP), "♥5 on top");
            }
        }
    }
}
