//! Per-deal card order for the trick games: effective suits, strength index, ties, adjacency.
//!
//! A [`CardOrder`] is built once per deal (level rank, trump suit, game) and then answers every
//! ordering question by table look-up. Effective suits are 0..4 for the side suits (the
//! [`Suit`] index) and [`TRUMP`] (4) for the trump suit. Inside one effective suit each kind has
//! a strength index; equal index = equal strength (a tie: the card played first wins,
//! shengji.md §3.3). Tractor adjacency is an explicit relation between consecutive indices
//! (`links`), so rule options can break a chain without renumbering.
//!
//! The display/sort order and the "beats" relation are kept apart: nothing here sorts for display.

use crate::cards::{Card, CardSet, Rank, Suit, NUM_KINDS};
use std::sync::OnceLock;

/// Effective suit index of the trumps.
pub const TRUMP: usize = 4;
/// Number of effective suits (4 side suits + trump).
pub const NUM_EFFECTIVE_SUITS: usize = 5;
/// Most strength indices in one effective suit.
pub const MAX_INDEX: usize = 32;

/// Table of effective suit, strength index and adjacency for every card kind in one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardOrder {
    /// Effective suit of each kind (0..4 side suits, [`TRUMP`]).
    suit_of: [u8; NUM_KINDS],
    /// Strength index of each kind inside its effective suit.
    index_of: [u8; NUM_KINDS],
    /// Kinds of each effective suit.
    suit_mask: [CardSet; NUM_EFFECTIVE_SUITS],
    /// Kinds at each (effective suit, index); several kinds share an index when they tie.
    at: [[CardSet; MAX_INDEX]; NUM_EFFECTIVE_SUITS],
    /// Bit k of `links[s]`: units at index k and k + 1 of suit s are adjacent (tractor chain).
    links: [u32; NUM_EFFECTIVE_SUITS],
}

/// Which trump tiers chain into tractors (shengji.md §4.2 `trump_tier_tractors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrumpTierTractors {
    /// trump A → off-suit level → trump level → SJ → BJ (default).
    Full,
    /// Only `SJ SJ BJ BJ` chains across tiers; level cards never chain.
    JokersOnly,
    /// The top tiers chain among themselves, the plain trumps among themselves, never joined.
    NoCrossTier,
}

impl CardOrder {
    /// An empty table to fill with [`CardOrder::place`] (for games with their own order, e.g.
    /// Hong Wu). Every kind starts unplaced in side suit 0 at index 0; place every kind.
    pub fn empty() -> CardOrder {
        CardOrder {
            suit_of: [0; NUM_KINDS],
            index_of: [0; NUM_KINDS],
            suit_mask: [CardSet::EMPTY; NUM_EFFECTIVE_SUITS],
            at: [[CardSet::EMPTY; MAX_INDEX]; NUM_EFFECTIVE_SUITS],
            links: [0; NUM_EFFECTIVE_SUITS],
        }
    }

    /// Put `card` in effective suit `suit` at strength `index` (builder step).
    pub fn place(&mut self, card: Card, suit: usize, index: usize) {
        let (old_s, old_i) =
            (self.suit_of[card.index()] as usize, self.index_of[card.index()] as usize);
        self.suit_mask[old_s].remove(card);
        self.at[old_s][old_i].remove(card);
        self.suit_of[card.index()] = suit as u8;
        self.index_of[card.index()] = index as u8;
        self.suit_mask[suit].insert(card);
        self.at[suit][index].insert(card);
    }

    /// Declare indices `index` and `index + 1` of `suit` adjacent (or not) for tractors.
    pub fn set_link(&mut self, suit: usize, index: usize, adjacent: bool) {
        if adjacent {
            self.links[suit] |= 1 << index;
        } else {
            self.links[suit] &= !(1 << index);
        }
    }

    /// The Shengji order (shengji.md §3.1, §3.2, §4.2) for `level` and `trump` (`None` = no-trump).
    ///
    /// Suited trump: side suits and plain trumps get 0..=11 (2…A without the level rank); in
    /// trump the off-suit level cards are 12 (all equal), the trump level card 13, SJ 14, BJ 15.
    /// No-trump: the four level cards are trump index 0 (all equal), SJ 1, BJ 2.
    /// `level_gap_bridging` (default true) makes the neighbours of the removed level rank adjacent.
    ///
    /// Built once per parameter set and copied afterwards: every deal needs its order once, and
    /// building it was ≈ 3 % of a random 2-deck deal's instructions.
    pub fn shengji(
        level: Rank,
        trump: Option<Suit>,
        level_gap_bridging: bool,
        tiers: TrumpTierTractors,
    ) -> CardOrder {
        const N: usize = 2 * 3 * 13 * 5;
        static BUILT: [OnceLock<CardOrder>; N] = [const { OnceLock::new() }; N];
        let tier = match tiers {
            TrumpTierTractors::Full => 0,
            TrumpTierTractors::JokersOnly => 1,
            TrumpTierTractors::NoCrossTier => 2,
        };
        let t = trump.map_or(4, |s| s.index());
        let key = ((level_gap_bridging as usize * 3 + tier) * 13 + level.index()) * 5 + t;
        BUILT[key]
            .get_or_init(|| CardOrder::build_shengji(level, trump, level_gap_bridging, tiers))
            .clone()
    }

    fn build_shengji(
        level: Rank,
        trump: Option<Suit>,
        level_gap_bridging: bool,
        tiers: TrumpTierTractors,
    ) -> CardOrder {
        let mut o = CardOrder::empty();
        for suit in Suit::ALL {
            let eff = if Some(suit) == trump { TRUMP } else { suit.index() };
            let mut idx = 0;
            for r in 0..13u8 {
                let rank = Rank::from_index(r).expect("13 ranks");
                if rank == level {
                    continue;
                }
                o.place(Card::new(suit, rank), eff, idx);
                idx += 1;
            }
            o.link_plain_run(eff, level, level_gap_bridging);
        }
        let level_cards = CardSet::rank_mask(level);
        match trump {
            Some(t) => {
                for c in level_cards {
                    o.place(c, TRUMP, if c.suit() == Some(t) { 13 } else { 12 });
                }
                o.place(Card::SMALL_JOKER, TRUMP, 14);
                o.place(Card::BIG_JOKER, TRUMP, 15);
                let (cross, top) = match tiers {
                    TrumpTierTractors::Full => (true, [true, true, true]),
                    TrumpTierTractors::JokersOnly => (false, [false, false, true]),
                    TrumpTierTractors::NoCrossTier => (false, [true, true, true]),
                };
                o.set_link(TRUMP, 11, cross);
                for (k, &on) in top.iter().enumerate() {
                    o.set_link(TRUMP, 12 + k, on);
                }
            }
            None => {
                for c in level_cards {
                    o.place(c, TRUMP, 0);
                }
                o.place(Card::SMALL_JOKER, TRUMP, 1);
                o.place(Card::BIG_JOKER, TRUMP, 2);
                o.set_link(TRUMP, 0, tiers != TrumpTierTractors::JokersOnly);
                o.set_link(TRUMP, 1, true);
            }
        }
        o
    }

    /// Link indices 0..=11 of a 12-card plain run, except across the removed level rank when
    /// `bridging` is off.
    fn link_plain_run(&mut self, suit: usize, level: Rank, bridging: bool) {
        for k in 0..11 {
            // Index k is the rank below the level's position when k + 1 == level's index.
            let across_gap = level.index() > 0 && level.index() < 12 && k + 1 == level.index();
            self.set_link(suit, k, bridging || !across_gap);
        }
    }

    /// Effective suit of `card` (0..4 side suits, [`TRUMP`]).
    #[inline]
    pub fn suit(&self, card: Card) -> usize {
        self.suit_of[card.index()] as usize
    }

    /// Strength index of `card` inside its effective suit.
    #[inline]
    pub fn index(&self, card: Card) -> usize {
        self.index_of[card.index()] as usize
    }

    #[inline]
    pub fn is_trump(&self, card: Card) -> bool {
        self.suit(card) == TRUMP
    }

    /// Kinds of effective suit `suit`.
    #[inline]
    pub fn suit_mask(&self, suit: usize) -> CardSet {
        self.suit_mask[suit]
    }

    /// Kinds at strength `index` of `suit` (several when they tie).
    #[inline]
    pub fn kinds_at(&self, suit: usize, index: usize) -> CardSet {
        self.at[suit][index]
    }

    /// Whether units at `index` and `index + 1` of `suit` are adjacent.
    #[inline]
    pub fn linked(&self, suit: usize, index: usize) -> bool {
        self.links[suit] >> index & 1 == 1
    }

    /// Highest index used in `suit` plus one (0 for an empty suit).
    pub fn len(&self, suit: usize) -> usize {
        (0..MAX_INDEX).rev().find(|&i| !self.at[suit][i].is_empty()).map_or(0, |i| i + 1)
    }

    /// The adjacency bits of `suit` (bit k: indices k and k + 1 are adjacent).
    #[inline]
    pub fn links(&self, suit: usize) -> u32 {
        self.links[suit]
    }

    /// Bit mask of the strength indices of `suit` at which `set` holds a kind (bit i = index i).
    #[inline]
    pub fn index_mask(&self, suit: usize, set: CardSet) -> u32 {
        let mut m = 0u32;
        for c in set.intersect(self.suit_mask[suit]) {
            m |= 1 << self.index_of[c.index()];
        }
        m
    }

    /// Whether `a` and `b` are equally strong in this deal (same effective suit and index).
    #[inline]
    pub fn ties(&self, a: Card, b: Card) -> bool {
        self.suit(a) == self.suit(b) && self.index(a) == self.index(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn suited_trump_order_of_the_digest() {
        // shengji.md §3.1: L5, trump H.
        let o = CardOrder::shengji(Rank::FIVE, Some(Suit::Hearts), true, TrumpTierTractors::Full);
        let chain = ["BJ", "SJ", "5H", "5S", "AH", "KH", "4H", "2H"];
        for w in chain.windows(2) {
            assert!(o.index(c(w[0])) > o.index(c(w[1])), "{} > {}", w[0], w[1]);
            assert!(o.is_trump(c(w[0])) && o.is_trump(c(w[1])));
        }
        assert!(o.ties(c("5S"), c("5C")));
        assert!(!o.is_trump(c("AS")));
        assert_eq!(o.suit_mask(TRUMP).len(), 13 + 3 + 2);
        // 4 and 6 touch across the level; trump A → off-suit level → trump level → SJ → BJ.
        assert_eq!(o.index(c("6S")), o.index(c("4S")) + 1);
        assert!(o.linked(Suit::Spades.index(), o.index(c("4S"))));
        for k in 11..15 {
            assert!(o.linked(TRUMP, k));
        }
    }

    #[test]
    fn options_break_chains() {
        let o = CardOrder::shengji(
            Rank::FIVE,
            Some(Suit::Hearts),
            false,
            TrumpTierTractors::JokersOnly,
        );
        assert!(!o.linked(Suit::Spades.index(), o.index(c("4S"))));
        assert!(o.linked(Suit::Spades.index(), o.index(c("3S"))));
        assert!(!o.linked(TRUMP, o.index(c("AH"))));
        assert!(!o.linked(TRUMP, o.index(c("5H"))));
        assert!(o.linked(TRUMP, o.index(c("SJ"))));
    }

    #[test]
    fn no_trump_order() {
        let o = CardOrder::shengji(Rank::TWO, None, true, TrumpTierTractors::Full);
        assert_eq!(o.suit_mask(TRUMP).len(), 6);
        assert!(o.ties(c("2S"), c("2H")));
        assert!(o.linked(TRUMP, 0) && o.linked(TRUMP, 1));
        assert_eq!(o.len(Suit::Clubs.index()), 12);
        assert_eq!(o.index(c("AC")), 11);
    }
}
