//! Combinations (牌型) of the trick games: units and the decomposition of a lead into units.
//!
//! A **unit** is a single, pair, triple, tractor (≥2 adjacent pairs) or Titanic (≥2 adjacent
//! triples) of one effective suit (shengji.md §4.1–§4.2). It is stored as the set of kinds it uses
//! (one kind per strength index) and its multiplicity, so it needs no allocation. A lead that is
//! not one unit is a throw (甩牌) and is split into units by [`decompose`] (shengji.md §4.3):
//!
//! * `MultiplicityFirst` (default; S004): triples first, chained into Titanics; then pairs,
//!   chained into tractors; then singles. Each multiplicity is *layered*: the first unit at each
//!   index goes to layer 0, the second (another kind of equal strength, e.g. a second off-suit
//!   level pair) to layer 1, and chains are formed inside a layer (CT; example C7).
//! * `LongestComponent` (RB): repeatedly take the longest unit, tractors preferred on ties.

use crate::cards::{Card, CardSet};
use crate::multiset::Multiset;
use crate::tricks::order::CardOrder;
use std::fmt;

/// How a multi-unit lead is split into units (shengji.md §4.3 `throw_decomposition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decomposition {
    /// Triples (and Titanics) first, then pairs and tractors (layered), then singles (S004).
    MultiplicityFirst,
    /// Repeatedly take the longest component, tractors preferred on ties (RB).
    LongestComponent,
}

/// Most units a decomposition holds. Each kind of an effective suit ends up in at most two units
/// (`MultiplicityFirst` puts all copies of a kind in one unit; `LongestComponent` can split 3 or
/// 4 copies into a pair plus a single or pair), and an effective suit has at most 18 kinds in
/// Shengji (12 of the trump suit + 4 level cards + 2 jokers) and fewer in Hong Wu with at most 2
/// copies, so 40 covers every lead; a small capacity keeps [`Format`] cheap to build and copy
/// (tested in `tests::capacity_covers_every_order`).
pub const MAX_UNITS: usize = 40;

/// One unit of a lead or play: `len` consecutive strength indices of effective suit `suit`,
/// ending at `top`, each held `mult` times, using the kinds in `kinds` (one per index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Unit {
    /// Effective suit (0..4 side suits, 4 trump).
    pub suit: u8,
    /// Copies of each kind: 1 single, 2 pair/tractor, 3 triple/Titanic.
    pub mult: u8,
    /// Number of strength indices (1 for a single, pair or triple).
    pub len: u8,
    /// Highest strength index.
    pub top: u8,
    /// The kinds used, one per index.
    pub kinds: CardSet,
}

/// The name of a unit or lead shape (shared/cases/FORMAT.md `format` check).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeadKind {
    Single,
    Pair,
    Triple,
    Tractor,
    Titanic,
    Throw,
}

impl LeadKind {
    /// Lower-case name: `single pair triple tractor titanic throw`.
    pub fn name(self) -> &'static str {
        match self {
            LeadKind::Single => "single",
            LeadKind::Pair => "pair",
            LeadKind::Triple => "triple",
            LeadKind::Tractor => "tractor",
            LeadKind::Titanic => "titanic",
            LeadKind::Throw => "throw",
        }
    }
}

impl Unit {
    /// Number of cards (`mult * len`).
    #[inline]
    pub fn cards(&self) -> usize {
        self.mult as usize * self.len as usize
    }

    /// Lowest strength index.
    #[inline]
    pub fn low(&self) -> u8 {
        self.top + 1 - self.len
    }

    /// The unit's shape name.
    pub fn kind(&self) -> LeadKind {
        match (self.mult, self.len) {
            (1, _) => LeadKind::Single,
            (2, 1) => LeadKind::Pair,
            (2, _) => LeadKind::Tractor,
            (_, 1) => LeadKind::Triple,
            _ => LeadKind::Titanic,
        }
    }

    /// The unit's cards.
    pub fn to_multiset(&self) -> Multiset {
        let mut m = Multiset::EMPTY;
        for c in self.kinds {
            for _ in 0..self.mult {
                m.add(c);
            }
        }
        m
    }

    /// Sort key "bigger unit first": more cards, then higher multiplicity, then higher top,
    /// packed into one word (`cards` ≤ 255 × 255 fits in 16 bits, `mult` and `top` in 8 each) so
    /// sorting compares one integer.
    #[inline]
    pub fn size_key(&self) -> u32 {
        (self.cards() as u32) << 16 | (self.mult as u32) << 8 | self.top as u32
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_multiset().fmt(f)
    }
}

/// A fixed-capacity list of units (no allocation). Equality and `Debug` see the listed units
/// only, not what earlier contents left in the spare storage.
#[derive(Clone, Copy)]
pub struct Units {
    len: u8,
    items: [Unit; MAX_UNITS],
}

impl PartialEq for Units {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Units {}

impl fmt::Debug for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Default for Units {
    fn default() -> Self {
        Units::EMPTY
    }
}

impl Units {
    /// No units.
    pub const EMPTY: Units = Units {
        len: 0,
        items: [Unit { suit: 0, mult: 0, len: 0, top: 0, kinds: CardSet::EMPTY }; MAX_UNITS],
    };

    /// Remove every unit (keeps the storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Append a unit (ignored past [`MAX_UNITS`], which no decomposition reaches).
    #[inline]
    pub fn push(&mut self, u: Unit) {
        debug_assert!((self.len as usize) < MAX_UNITS, "more than MAX_UNITS units");
        if (self.len as usize) < MAX_UNITS {
            self.items[self.len as usize] = u;
            self.len += 1;
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Unit] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Unit] {
        &mut self.items[..self.len as usize]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Unit> {
        self.as_slice().iter()
    }

    /// Sort bigger units first ([`Unit::size_key`] descending).
    pub fn sort_by_size(&mut self) {
        self.as_mut_slice().sort_unstable_by_key(|u| std::cmp::Reverse(u.size_key()));
    }
}

/// A lead (or play) of one effective suit split into units: its *format* (shengji.md §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Effective suit of every card.
    pub suit: u8,
    /// Total number of cards.
    pub cards: u8,
    /// The units, bigger first ([`Unit::size_key`]).
    pub units: Units,
}

impl Default for Format {
    fn default() -> Self {
        Format::EMPTY
    }
}

impl Format {
    /// No cards, no units (a buffer for [`decompose_into`]).
    pub const EMPTY: Format = Format { suit: 0, cards: 0, units: Units::EMPTY };

    /// `single pair triple tractor titanic` for one unit, `throw` for several.
    pub fn kind(&self) -> LeadKind {
        match self.units.as_slice() {
            [u] => u.kind(),
            _ => LeadKind::Throw,
        }
    }

    /// Make this the format of `mult` (1–3) copies of `card`: one single, pair or triple unit
    /// (what [`decompose`] gives for these cards, written in place without the general
    /// decomposition).
    pub fn set_tuple(&mut self, card: Card, mult: u8, order: &CardOrder) {
        let suit = order.suit(card) as u8;
        self.suit = suit;
        self.cards = mult;
        self.units.clear();
        self.units.push(Unit {
            suit,
            mult,
            len: 1,
            top: order.index(card) as u8,
            kinds: CardSet::single(card),
        });
    }

    /// Whether this is a throw (several units).
    pub fn is_throw(&self) -> bool {
        self.units.len() > 1
    }

    /// The largest unit (most cards, then higher multiplicity, then highest top).
    pub fn largest(&self) -> Unit {
        self.units.as_slice()[0]
    }

    /// Pairs contained in the format: a tractor or Titanic of length k holds k, a pair or triple 1.
    pub fn pair_count(&self) -> usize {
        self.units.iter().filter(|u| u.mult >= 2).map(|u| u.len as usize).sum()
    }
}

/// The card of `cards` when it is exactly one card.
#[inline]
pub fn single_card(cards: &Multiset) -> Option<Card> {
    if one_bit(cards.kinds().0) && cards.pairs().is_empty() {
        cards.kinds().first()
    } else {
        None
    }
}

/// Whether exactly one bit of `x` is set, without a popcount (`u64::is_power_of_two` counts the
/// bits, a software loop on targets without the `popcnt` instruction).
#[inline]
pub(crate) const fn one_bit(x: u64) -> bool {
    x != 0 && x & (x - 1) == 0
}

/// The kind of `cards` when they are 1–3 copies of one kind.
#[inline]
fn one_kind(cards: &Multiset) -> Option<Card> {
    if one_bit(cards.kinds().0) && cards.at_least(4).is_empty() {
        cards.kinds().first()
    } else {
        None
    }
}

/// The effective suit of every card of `cards`, or `None` when they are empty or mixed.
pub fn single_suit(cards: &Multiset, order: &CardOrder) -> Option<usize> {
    let first = cards.kinds().first()?;
    let s = order.suit(first);
    if cards.kinds().minus(order.suit_mask(s)).is_empty() {
        Some(s)
    } else {
        None
    }
}

/// Split `cards` (all of one effective suit) into units per `throw_decomposition` (the option of shengji.md §4.3; module docs). Returns
/// `None` when `cards` is empty or mixes effective suits.
pub fn decompose(
    cards: &Multiset,
    order: &CardOrder,
    throw_decomposition: Decomposition,
) -> Option<Format> {
    let mut f = Format::EMPTY;
    decompose_into(cards, order, throw_decomposition, &mut f).then_some(f)
}

/// [`decompose`] writing into `out` (no copy of the format on hot paths). Returns `false`, with
/// `out` unchanged, when `cards` is empty or mixes effective suits.
pub fn decompose_into(
    cards: &Multiset,
    order: &CardOrder,
    throw_decomposition: Decomposition,
    out: &mut Format,
) -> bool {
    if let Some(card) = one_kind(cards) {
        // One kind held 1–3 times (most leads in random play): one single, pair or triple,
        // nothing to chain or sort.
        out.set_tuple(card, cards.count(card) as u8, order);
        return true;
    }
    decompose_units_into(cards, order, throw_decomposition, out)
}

/// The general decomposition of [`decompose_into`] (any number of cards).
fn decompose_units_into(
    cards: &Multiset,
    order: &CardOrder,
    throw_decomposition: Decomposition,
    out: &mut Format,
) -> bool {
    let Some(suit) = single_suit(cards, order) else { return false };
    let units = &mut out.units;
    units.clear();
    let mut rem = *cards;
    match throw_decomposition {
        Decomposition::MultiplicityFirst => {
            for mult in (2..=crate::multiset::MAX_COPIES as u8).rev() {
                layered_runs(&mut rem, order, suit, mult, units);
            }
        }
        Decomposition::LongestComponent => {
            while let Some(u) = longest_unit(&rem, order, suit) {
                remove_unit(&mut rem, &u);
                units.push(u);
            }
        }
    }
    for c in rem.kinds() {
        for _ in 0..rem.count(c) {
            units.push(Unit {
                suit: suit as u8,
                mult: 1,
                len: 1,
                top: order.index(c) as u8,
                kinds: CardSet::single(c),
            });
        }
    }
    units.sort_by_size();
    out.suit = suit as u8;
    out.cards = cards.len() as u8;
    true
}

/// Remove the cards of `u` from `rem` (they must be held).
pub fn remove_unit(rem: &mut Multiset, u: &Unit) {
    for c in u.kinds {
        for _ in 0..u.mult {
            rem.remove(c);
        }
    }
}

/// Take every unit of multiplicity `mult` out of `rem`, layered and chained (module docs).
fn layered_runs(rem: &mut Multiset, order: &CardOrder, suit: usize, mult: u8, out: &mut Units) {
    let links = order.links(suit);
    loop {
        let avail = rem.at_least(mult as usize).intersect(order.suit_mask(suit));
        if avail.is_empty() {
            return;
        }
        // One layer: the lowest kind with ≥ mult copies at each index.
        let mut chosen = CardSet::EMPTY;
        let mut mask = 0u32;
        for c in avail {
            let bit = 1u32 << order.index(c);
            if mask & bit == 0 {
                mask |= bit;
                chosen.insert(c);
            }
        }
        for_each_run(mask, links, |low, len| {
            let span = (((1u64 << len) - 1) << low) as u32;
            let kinds: CardSet =
                chosen.iter().filter(|&c| span >> order.index(c) & 1 == 1).collect();
            out.push(Unit {
                suit: suit as u8,
                mult,
                len: len as u8,
                top: (low + len - 1) as u8,
                kinds,
            });
        });
        for c in chosen {
            for _ in 0..mult {
                rem.remove(c);
            }
        }
    }
}

/// The longest unit of multiplicity ≥ 2 in `rem` (most cards; ties → a tractor of pairs over a
/// Titanic or triple, then the higher top), or `None` when no pair is left.
fn longest_unit(rem: &Multiset, order: &CardOrder, suit: usize) -> Option<Unit> {
    let links = order.links(suit);
    let mut best: Option<Unit> = None;
    for mult in 2..=crate::multiset::MAX_COPIES as u8 {
        let avail = rem.at_least(mult as usize).intersect(order.suit_mask(suit));
        if avail.is_empty() {
            break;
        }
        let mask = order.index_mask(suit, avail);
        for_each_run(mask, links, |low, len| {
            let top = low + len - 1;
            let cand_cards = mult as usize * len;
            let better = match &best {
                None => true,
                Some(b) => {
                    let b_tractor = b.mult == 2 && b.len >= 2;
                    let c_tractor = mult == 2 && len >= 2;
                    (cand_cards, c_tractor, top) > (b.cards(), b_tractor, b.top as usize)
                }
            };
            if better {
                let mut kinds = CardSet::EMPTY;
                for i in low..=top {
                    let k =
                        avail.intersect(order.kinds_at(suit, i)).first().expect("index in mask");
                    kinds.insert(k);
                }
                best = Some(Unit { suit: suit as u8, mult, len: len as u8, top: top as u8, kinds });
            }
        });
    }
    best
}

/// Call `f(low, len)` for every maximal linked run of set bits of `mask`.
#[inline]
pub fn for_each_run(mask: u32, links: u32, mut f: impl FnMut(usize, usize)) {
    let mut m = mask;
    while m != 0 {
        let low = m.trailing_zeros() as usize;
        let mut top = low;
        while top + 1 < 32 && mask >> (top + 1) & 1 == 1 && links >> top & 1 == 1 {
            top += 1;
        }
        f(low, top - low + 1);
        // Clear bits low..=top.
        let span =
            if top - low + 1 >= 32 { u32::MAX } else { ((1u32 << (top - low + 1)) - 1) << low };
        m &= !span;
    }
}

/// Bit i set iff indices i..i+k-1 are all in `mask` and linked (the start of a k-long run).
#[inline]
pub fn run_starts(mask: u32, links: u32, k: usize) -> u32 {
    let mut r = mask;
    for j in 1..k {
        if r == 0 {
            break;
        }
        r &= (mask >> j) & (links >> (j - 1));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::order::TrumpTierTractors;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn order(level: Rank, trump: Option<Suit>) -> CardOrder {
        CardOrder::shengji(level, trump, true, TrumpTierTractors::Full)
    }

    fn units(f: &Format) -> Vec<String> {
        let mut v: Vec<String> = f.units.iter().map(|u| u.to_string()).collect();
        v.sort();
        v
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| ms(s).to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn one_kind_fast_path_is_the_general_decomposition() {
        for (level, trump) in [
            (Rank::TWO, Some(Suit::Spades)),
            (Rank::FIVE, Some(Suit::Hearts)),
            (Rank::ACE, None),
            (Rank::KING, Some(Suit::Clubs)),
        ] {
            let o = order(level, trump);
            for c in CardSet::ALL {
                let one = Multiset::from_set(CardSet::single(c));
                assert_eq!(single_card(&one), Some(c));
                let mut tuple = Multiset::EMPTY;
                for m in 1..=3 {
                    tuple.add(c);
                    assert_eq!(one_kind(&tuple), Some(c));
                    for method in
                        [Decomposition::MultiplicityFirst, Decomposition::LongestComponent]
                    {
                        let mut general = Format::EMPTY;
                        assert!(decompose_units_into(&tuple, &o, method, &mut general));
                        assert_eq!(general.units.len(), 1, "{tuple}: one unit");
                        assert_eq!(general.largest().mult, m);
                        assert_eq!(decompose(&tuple, &o, method), Some(general), "{tuple}");
                    }
                }
            }
        }
        assert_eq!(single_card(&ms("3S 3S")), None);
        assert_eq!(single_card(&ms("3S 4S")), None);
        assert_eq!(single_card(&Multiset::EMPTY), None);
        assert_eq!(one_kind(&ms("3S 3S 4S")), None);
        assert_eq!(one_kind(&Multiset::EMPTY), None);
    }

    #[test]
    fn c1_level_gap_tractor() {
        let o = order(Rank::FIVE, Some(Suit::Hearts));
        let f = decompose(&ms("4S 4S 6S 6S"), &o, Decomposition::MultiplicityFirst).unwrap();
        assert_eq!(f.kind(), LeadKind::Tractor);
    }

    #[test]
    fn c2_level_and_plain_trump_do_not_chain() {
        let o = order(Rank::FIVE, Some(Suit::Hearts));
        let f = decompose(&ms("5H 5H 6H 6H"), &o, Decomposition::MultiplicityFirst).unwrap();
        assert_eq!(f.kind(), LeadKind::Throw);
        assert_eq!(units(&f), sorted(&["5H 5H", "6H 6H"]));
    }

    #[test]
    fn c3_trump_chain_of_five_pairs() {
        let o = order(Rank::FIVE, Some(Suit::Hearts));
        let f =
            decompose(&ms("AH AH 5D 5D 5H 5H SJ SJ BJ BJ"), &o, Decomposition::MultiplicityFirst)
                .unwrap();
        assert_eq!(f.kind(), LeadKind::Tractor);
        assert_eq!(f.largest().len, 5);
    }

    #[test]
    fn c7_layered_decomposition() {
        let o = order(Rank::TWO, Some(Suit::Spades));
        let f = decompose(&ms("AS AS 2H 2H 2D 2D 2S 2S"), &o, Decomposition::MultiplicityFirst)
            .unwrap();
        assert_eq!(f.units.len(), 2);
        assert_eq!(f.largest().len, 3, "tractor AS-2x-2S");
        assert_eq!(f.units.as_slice()[1].kind(), LeadKind::Pair);
    }

    #[test]
    fn c8_three_decks() {
        let o = order(Rank::TWO, Some(Suit::Spades));
        let mf = Decomposition::MultiplicityFirst;
        let f = decompose(&ms("3H 3H 3H 4H 4H"), &o, mf).unwrap();
        assert_eq!(units(&f), sorted(&["3H 3H 3H", "4H 4H"]));
        let f = decompose(&ms("3H 3H 3H 4H 4H 4H"), &o, mf).unwrap();
        assert_eq!(f.kind(), LeadKind::Titanic);
        let f = decompose(&ms("9H 9H 9H 10H 10H JH JH JH"), &o, mf).unwrap();
        assert_eq!(units(&f), sorted(&["9H 9H 9H", "10H 10H", "JH JH JH"]));
        let lc = Decomposition::LongestComponent;
        let f = decompose(&ms("9H 9H 10H 10H JH JH JH"), &o, lc).unwrap();
        assert_eq!(units(&f), sorted(&["9H 9H 10H 10H JH JH", "JH"]));
    }

    #[test]
    fn digest_4_6_tractor_lists() {
        let mf = Decomposition::MultiplicityFirst;
        let kind = |level: Rank, trump: Option<Suit>, cards: &str| {
            decompose(&ms(cards), &order(level, trump), mf).map(|f| f.kind())
        };
        let h = Some(Suit::Hearts);
        for (level, trump, cards) in [
            (Rank::FIVE, h, "4S 4S 6S 6S"),
            (Rank::FIVE, h, "5S 5S 5H 5H"),
            (Rank::FIVE, h, "AH AH 5C 5C"),
            (Rank::FIVE, h, "5H 5H SJ SJ"),
            (Rank::FIVE, h, "SJ SJ BJ BJ"),
            (Rank::from_index(5).unwrap(), Some(Suit::Clubs), "8H 8H 6H 6H"),
            (Rank::TWO, None, "2H 2H SJ SJ"),
            (Rank::FIVE, None, "5S 5S SJ SJ"),
        ] {
            assert_eq!(kind(level, trump, cards), Some(LeadKind::Tractor), "{cards}");
        }
        for (level, trump, cards) in [
            (Rank::FIVE, h, "5H 5H 6H 6H"),
            (Rank::FIVE, h, "5S 5S 5D 5D"),
            (Rank::FIVE, h, "AH AH 5H 5H"),
            (Rank::FIVE, None, "5S 5S 5D 5D"),
            (Rank::TWO, Some(Suit::Spades), "6H 6H 8H 8H"),
            (Rank::from_index(5).unwrap(), Some(Suit::Clubs), "7C 7C 6C 6C"),
        ] {
            assert_eq!(kind(level, trump, cards), Some(LeadKind::Throw), "{cards}");
        }
        // C9: two side suits; 5H 5D are two suits at level 2; SJ BJ is two trump singles.
        assert_eq!(kind(Rank::TWO, Some(Suit::Clubs), "9S 9S 8H 8H"), None);
        assert_eq!(kind(Rank::TWO, Some(Suit::Clubs), "5H 5D"), None);
        assert_eq!(kind(Rank::TWO, Some(Suit::Clubs), "SJ BJ"), Some(LeadKind::Throw));
    }

    #[test]
    fn mixed_suits_have_no_format() {
        let o = order(Rank::TWO, Some(Suit::Clubs));
        assert!(decompose(&ms("9S 9S 8H 8H"), &o, Decomposition::MultiplicityFirst).is_none());
        assert!(decompose(&Multiset::EMPTY, &o, Decomposition::MultiplicityFirst).is_none());
    }

    #[test]
    fn capacity_covers_every_order() {
        // Each kind yields at most 2 units (module docs), so 2 × the largest effective suit must
        // fit; Hong Wu (≤ 2 copies, ≤ 1 unit per kind) is covered by the same bound.
        let mut most = 0;
        for level in 0..13 {
            let level = Rank::from_index(level).unwrap();
            for trump in [None, Some(Suit::Spades), Some(Suit::Hearts)] {
                let o = order(level, trump);
                for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
                    most = most.max(o.suit_mask(s).len() as usize);
                }
            }
        }
        assert_eq!(most, 18);
        assert!(2 * most <= MAX_UNITS);
        for trump in [Suit::Spades, Suit::Hearts] {
            let o = crate::games::hongwu::HongWuRules::from_preset("hong_wu", &[])
                .unwrap()
                .order(trump);
            for s in 0..crate::tricks::order::NUM_EFFECTIVE_SUITS {
                assert!(o.suit_mask(s).len() as usize <= MAX_UNITS, "Hong Wu suit {s}");
            }
        }
        // The worst case, four copies of all 18 trump kinds split by LongestComponent.
        let o = order(Rank::TWO, Some(Suit::Spades));
        let mut all = Multiset::EMPTY;
        for c in o.suit_mask(crate::tricks::order::TRUMP) {
            for _ in 0..3 {
                all.add(c);
            }
        }
        let f = decompose(&all, &o, Decomposition::LongestComponent).unwrap();
        assert_eq!(f.cards as usize, all.len());
        assert_eq!(f.units.iter().map(|u| u.cards()).sum::<usize>(), all.len());
    }

    #[test]
    fn runs() {
        assert_eq!(run_starts(0b0111, 0b1111, 2), 0b0011);
        assert_eq!(run_starts(0b0111, 0b1101, 2), 0b0001);
        let mut seen = Vec::new();
        for_each_run(0b1101_1011, 0b1111_1111, |l, n| seen.push((l, n)));
        assert_eq!(seen, vec![(0, 2), (3, 2), (6, 2)]);
    }
}
