//! Card kinds, notation and the one-deck [`CardSet`] bitboard.
//!
//! There are 54 card kinds: 4 suits × 13 ranks and two jokers. A kind is a `u8` index:
//! `suit * 13 + rank` for the suited cards (rank 0 = `2` … 12 = `A`), 52 = small joker (`SJ`),
//! 53 = big joker (`BJ`). Each suit is a contiguous 13-bit range of a [`CardSet`], so suit masks are
//! constants ([`Suit::mask`]).
//!
//! Notation (shared/cases/FORMAT.md, "Notation"): rank then suit, e.g. `10H`, `AS`, `JS` (jack of
//! spades); `T` is accepted for 10; jokers are `SJ` and `BJ`; the Unicode suits `♠♥♦♣` (and `♤♡♢♧`)
//! and lower case are accepted; the canonical output is the ASCII form.

use crate::error::{Result, ZhipaiError};
use std::fmt;
use std::str::FromStr;

/// Number of card kinds (52 suited + 2 jokers).
pub const NUM_KINDS: usize = 54;

/// A suit. The discriminant is the suit's index in the bit layout.
///
/// ```
/// use zhipai_core::Suit;
/// let s: Suit = "♥".parse().unwrap();
/// assert_eq!((s, s.letter(), s.index()), (Suit::Hearts, 'H', 1));
/// assert!("X".parse::<Suit>().is_err());
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    /// All four suits in index order (S, H, D, C).
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with index `i` (0..4).
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The 13 bits of this suit in a [`CardSet`].
    pub const fn mask(self) -> CardSet {
        CardSet(0x1FFFu64 << (13 * self as u32))
    }

    /// ASCII letter: `S H D C`.
    pub const fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// Parse one suit symbol: `S H D C` (any case) or a Unicode suit.
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            'S' | 's' | '♠' | '♤' => Suit::Spades,
            'H' | 'h' | '♥' | '♡' => Suit::Hearts,
            'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
            'C' | 'c' | '♣' | '♧' => Suit::Clubs,
            _ => return None,
        })
    }
}

impl FromStr for Suit {
    type Err = ZhipaiError;
    fn from_str(s: &str) -> Result<Suit> {
        let mut chars = s.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_char(c),
            _ => None,
        }
        .ok_or_else(|| ZhipaiError::invalid_value("suit", s, "expected one of S H D C"))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, `2` (index 0) up to `A` (index 12).
///
/// ```
/// use zhipai_core::Rank;
/// let r: Rank = "10".parse().unwrap();
/// assert_eq!(r, "T".parse().unwrap());
/// assert_eq!((r.index(), r.to_string()), (8, "10".to_string()));
/// assert!(Rank::ACE > r);
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(0);
    pub const THREE: Rank = Rank(1);
    pub const FOUR: Rank = Rank(2);
    pub const FIVE: Rank = Rank(3);
    pub const SIX: Rank = Rank(4);
    pub const SEVEN: Rank = Rank(5);
    pub const TEN: Rank = Rank(8);
    pub const JACK: Rank = Rank(9);
    pub const QUEEN: Rank = Rank(10);
    pub const KING: Rank = Rank(11);
    pub const ACE: Rank = Rank(12);

    /// The rank with index `i` (0 = `2` … 12 = `A`); `None` past 12.
    pub const fn from_index(i: u8) -> Option<Rank> {
        if i < 13 {
            Some(Rank(i))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The face value 2..=14 (J = 11, Q = 12, K = 13, A = 14).
    pub const fn value(self) -> u8 {
        self.0 + 2
    }

    /// Canonical ASCII symbol: `2`…`10`, `J`, `Q`, `K`, `A`.
    pub const fn symbol(self) -> &'static str {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][self.0 as usize]
    }

    /// Parse a rank symbol: `2`…`10`, `T`, `J`, `Q`, `K`, `A` (any case).
    pub fn parse(s: &str) -> Option<Rank> {
        let i = match s.to_ascii_uppercase().as_str() {
            "2" => 0,
            "3" => 1,
            "4" => 2,
            "5" => 3,
            "6" => 4,
            "7" => 5,
            "8" => 6,
            "9" => 7,
            "10" | "T" => 8,
            "J" => 9,
            "Q" => 10,
            "K" => 11,
            "A" => 12,
            _ => return None,
        };
        Some(Rank(i))
    }
}

impl FromStr for Rank {
    type Err = ZhipaiError;
    fn from_str(s: &str) -> Result<Rank> {
        Rank::parse(s.trim()).ok_or_else(|| {
            ZhipaiError::invalid_value("rank", s, "expected one of 2-10, T, J, Q, K, A")
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One card kind, 0..54 (see the module docs for the layout).
///
/// ```
/// use zhipai_core::{Card, Suit};
/// let c: Card = "10h".parse().unwrap();
/// assert_eq!((c.index(), c.suit(), c.to_string()), (13 + 8, Some(Suit::Hearts), "10H".to_string()));
/// assert_eq!("BJ".parse::<Card>().unwrap().index(), 53);
/// assert_eq!(c.points(), 10); // 5 → 5, 10 and K → 10 (shengji.md §7.1)
/// assert!("1X".parse::<Card>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const SMALL_JOKER: Card = Card(52);
    pub const BIG_JOKER: Card = Card(53);

    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// The card with kind index `i`; `None` for `i >= 54`.
    pub const fn from_index(i: usize) -> Option<Card> {
        if i < NUM_KINDS {
            Some(Card(i as u8))
        } else {
            None
        }
    }

    /// Kind index 0..54.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The suit, `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::ALL[(self.0 / 13) as usize])
        }
    }

    /// The rank, `None` for a joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank(self.0 % 13))
        }
    }

    /// This card's bit in a [`CardSet`].
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Card points in the trick games (Shengji family, Hong Wu): 5 → 5, 10 → 10, K → 10, others 0.
    /// Source: shared/rules/shengji.md §6 (point cards, 分牌), seeds 001 and 004.
    pub const fn points(self) -> u32 {
        match self.rank() {
            Some(Rank::FIVE) => 5,
            Some(Rank::TEN) | Some(Rank::KING) => 10,
            _ => 0,
        }
    }

    /// Iterate over all 54 kinds in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..NUM_KINDS as u8).map(Card)
    }
}

/// `text` cut to 80 characters + `…(N chars)` when longer, for error messages.
fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…({} chars)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}

impl FromStr for Card {
    type Err = ZhipaiError;

    /// Parse one card in the notation of the module docs. Errors with
    /// [`ZhipaiError::InvalidCard`] naming the text.
    fn from_str(text: &str) -> Result<Card> {
        let s = text.trim();
        // A card is at most 3 characters: a long token is cut (80 characters, then its length).
        let bad = || ZhipaiError::InvalidCard { text: shorten(text) };
        match s.to_ascii_uppercase().as_str() {
            "SJ" => return Ok(Card::SMALL_JOKER),
            "BJ" => return Ok(Card::BIG_JOKER),
            _ => {}
        }
        let suit_char = s.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_char(suit_char).ok_or_else(bad)?;
        let rank = Rank::parse(&s[..s.len() - suit_char.len_utf8()]).ok_or_else(bad)?;
        Ok(Card::new(suit, rank))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.symbol(), s.letter()),
            _ if *self == Card::SMALL_JOKER => f.write_str("SJ"),
            _ => f.write_str("BJ"),
        }
    }
}

/// Parse a whitespace-separated card list (`"10H SJ BJ"`; `""` is the empty list). Repeats are
/// kept, order is kept. Errors with [`ZhipaiError::InvalidCard`] naming the first bad token.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    text.split_whitespace().map(Card::from_str).collect()
}

/// Format a card list in canonical notation, separated by single spaces.
pub fn format_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> String {
    let mut out = String::new();
    for c in cards {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&c.to_string());
    }
    out
}

/// A set of card kinds as a `u64` bitboard (bit i = kind i). One deck: each kind at most once.
/// For several decks use [`crate::multiset::Multiset`].
///
/// ```
/// use zhipai_core::{Card, CardSet, Suit};
/// let set: CardSet = ["AS", "2S", "BJ"].iter().map(|t| t.parse::<Card>().unwrap()).collect();
/// assert_eq!(set.len(), 3);
/// assert!(set.contains("BJ".parse().unwrap()));
/// let spades = set.intersect(Suit::Spades.mask());
/// assert_eq!(spades.iter().map(|c| c.to_string()).collect::<Vec<_>>(), ["2S", "AS"]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// All 54 kinds.
    pub const ALL: CardSet = CardSet((1u64 << NUM_KINDS) - 1);
    /// The 52 suited kinds.
    pub const SUITED: CardSet = CardSet((1u64 << 52) - 1);
    /// The two jokers.
    pub const JOKERS: CardSet = CardSet(3u64 << 52);

    /// The cards of `rank` in all four suits.
    pub const fn rank_mask(rank: Rank) -> CardSet {
        let b = 1u64 << rank.0;
        CardSet(b | b << 13 | b << 26 | b << 39)
    }

    pub const fn single(card: Card) -> CardSet {
        CardSet(card.bit())
    }

    pub const fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }

    pub fn remove(&mut self, card: Card) {
        self.0 &= !card.bit();
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    pub const fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The lowest-index card, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterate in ascending kind index.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::ALL.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`] in ascending kind index.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_cards(&self.iter().collect::<Vec<_>>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_notation() {
        assert_eq!(parse_cards("10H SJ BJ JS").unwrap().len(), 4);
        let c: Card = "10H".parse().unwrap();
        assert_eq!(c.rank(), Some(Rank::TEN));
        assert_eq!(c.suit(), Some(Suit::Hearts));
        assert_eq!("TH".parse::<Card>().unwrap(), c);
        assert_eq!("10♥".parse::<Card>().unwrap(), c);
        assert_eq!("th".parse::<Card>().unwrap(), c);
        assert_eq!("JS".parse::<Card>().unwrap().rank(), Some(Rank::JACK));
        assert_eq!("SJ".parse::<Card>().unwrap(), Card::SMALL_JOKER);
        assert_eq!("bj".parse::<Card>().unwrap(), Card::BIG_JOKER);
        assert_eq!("A♠".parse::<Card>().unwrap().to_string(), "AS");
    }

    #[test]
    fn rejects_bad_cards_naming_them() {
        for bad in ["1X", "1H", "11S", "H", "", "10", "SJJ", "ZZ", "10HH"] {
            match bad.parse::<Card>() {
                Err(ZhipaiError::InvalidCard { text }) => assert_eq!(text, bad),
                other => panic!("{bad:?} parsed as {other:?}"),
            }
        }
        let err = parse_cards("10H 1X BJ").unwrap_err();
        assert!(err.to_string().contains("1X"), "{err}");
        let long = "X".repeat(1000);
        let err = long.parse::<Card>().unwrap_err().to_string();
        assert!(err.len() < 250 && err.contains(&"X".repeat(80)) && err.contains("1000"), "{err}");
    }

    #[test]
    fn points_of_point_cards() {
        let total: u32 = Card::all().map(Card::points).sum();
        assert_eq!(total, 100, "one deck holds 100 points");
        assert_eq!("5D".parse::<Card>().unwrap().points(), 5);
        assert_eq!("KC".parse::<Card>().unwrap().points(), 10);
        assert_eq!("QC".parse::<Card>().unwrap().points(), 0);
    }

    #[test]
    fn suit_masks_partition_the_suited_cards() {
        let mut all = CardSet::EMPTY;
        for s in Suit::ALL {
            assert_eq!(s.mask().len(), 13);
            assert!(all.intersect(s.mask()).is_empty());
            all = all | s.mask();
            for c in s.mask() {
                assert_eq!(c.suit(), Some(s));
            }
        }
        assert_eq!(all, CardSet::SUITED);
        assert_eq!(CardSet::rank_mask(Rank::ACE).len(), 4);
    }

    proptest! {
        #[test]
        fn format_parse_round_trip(idx in proptest::collection::vec(0usize..54, 0..40)) {
            let cards: Vec<Card> = idx.iter().map(|&i| Card::from_index(i).unwrap()).collect();
            let text = format_cards(&cards);
            prop_assert_eq!(parse_cards(&text).unwrap(), cards);
        }

        #[test]
        fn lower_case_parses_the_same(i in 0usize..54) {
            let c = Card::from_index(i).unwrap();
            prop_assert_eq!(c.to_string().to_lowercase().parse::<Card>().unwrap(), c);
        }
    }
}
