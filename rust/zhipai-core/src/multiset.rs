//! Multi-deck hands and plays as count planes.
//!
//! A [`Multiset`] holds each of the 54 card kinds up to [`MAX_COPIES`] (4) times — enough for every
//! game zhipai plays (Baohuang uses four decks). It is stored as four [`CardSet`] planes:
//! `planes[k]` = the kinds held at least `k + 1` times, so `planes[0] ⊇ planes[1] ⊇ …`.
//! "Holds a pair of X" is a bit test on `planes[1]`; "all pairs in hearts" is
//! `planes[1] & Suit::Hearts.mask()`; adding or removing one card touches one plane.

use crate::cards::{format_cards, Card, CardSet, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use std::fmt;

/// Most copies of one kind a [`Multiset`] can hold (four decks).
pub const MAX_COPIES: usize = 4;

/// Bits 0..8 of `b` as 0.0 or 1.0 each (a tensor's flags, eight at a time).
pub fn ones_of_byte(b: u8) -> &'static [f32; 8] {
    &ONES_OF_BYTE[b as usize]
}

/// Entry `i` of row `b` is bit `i` of `b` as 0.0 or 1.0 ([`Multiset::write_counts`]).
/// Entry `k` of `out` set to 1.0 when bit `k` of `bits` is set, else 0.0 (plane 0 of
/// [`Multiset::write_counts`]), with AVX-512 where the CPU has it.
#[inline]
fn write_plane(bits: u64, out: &mut [f32; NUM_KINDS]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked just above; the check is cached).
        unsafe { write_plane_avx512(bits, out) };
        return;
    }
    write_plane_table(bits, out);
}

/// [`write_plane`] eight entries at a time through a byte table.
fn write_plane_table(bits: u64, out: &mut [f32; NUM_KINDS]) {
    // Many fields are empty (another seat's exposures, the perfect-information hands off):
    // plain zero stores are a third of the table's loads and stores.
    if bits == 0 {
        out.fill(0.0);
        return;
    }
    let row = |i: usize| &ONES_OF_BYTE[(bits >> (8 * i)) as u8 as usize];
    // Whole rows, then the 6 kinds left (fixed lengths: plain moves, no copy loop).
    let (full, tail) = out.split_at_mut(NUM_KINDS / 8 * 8);
    for (i, eight) in full.chunks_exact_mut(8).enumerate() {
        eight.copy_from_slice(row(i));
    }
    tail.copy_from_slice(&row(NUM_KINDS / 8)[..NUM_KINDS % 8]);
}

/// Entry `k` of `out` set to 1.0 when bit `k` of `bits` is set, else 0.0: sixteen entries
/// per masked move from the bits themselves (four stores for a count field, where the byte
/// table takes seven loads and fourteen stores).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn write_plane_avx512(bits: u64, out: &mut [f32; NUM_KINDS]) {
    use std::arch::x86_64::{_mm512_mask_storeu_ps, _mm512_maskz_mov_ps, _mm512_set1_ps};
    let ones = _mm512_set1_ps(1.0);
    let p = out.as_mut_ptr();
    for i in 0..4 {
        let lanes = (bits >> (16 * i)) as u16;
        // The last store covers entries 48..54 only.
        let keep = if i == 3 { (1u16 << (NUM_KINDS - 48)) - 1 } else { u16::MAX };
        // SAFETY: entries 16·i .. 16·i + 16 masked by `keep` lie inside `out` (54 entries).
        unsafe { _mm512_mask_storeu_ps(p.add(16 * i), keep, _mm512_maskz_mov_ps(lanes, ones)) };
    }
}

static ONES_OF_BYTE: [[f32; 8]; 256] = {
    let mut t = [[0.0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][i] = 1.0;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// A multiset of cards (a hand, a play, a kitty) with up to [`MAX_COPIES`] copies of each kind.
///
/// ```
/// use zhipai_core::{Card, Multiset};
/// let mut hand: Multiset = "5H 5H 6H KS".parse().unwrap();
/// let five: Card = "5H".parse().unwrap();
/// assert_eq!((hand.len(), hand.count(five)), (4, 2));
/// assert!(hand.pairs().contains(five)); // a pair of 5H: one bit test on plane 1
/// hand.remove_all(&"5H KS".parse().unwrap()).unwrap();
/// assert_eq!(hand.to_string(), "5H 6H");
/// assert!(hand.remove_all(&"AS".parse().unwrap()).is_err()); // not held: nothing removed
/// assert_eq!(hand.len(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Multiset {
    planes: [u64; MAX_COPIES],
}

impl Multiset {
    pub const EMPTY: Multiset = Multiset { planes: [0; MAX_COPIES] };

    /// `copies` full decks (with both jokers when `jokers`). Errors if `copies > 4`.
    pub fn full_decks(copies: usize, jokers: bool) -> Result<Multiset> {
        if copies > MAX_COPIES {
            return Err(ZhipaiError::invalid_value(
                "decks",
                copies,
                "a hand holds at most 4 copies of a card (1-4 decks)",
            ));
        }
        let kinds = if jokers { CardSet::ALL } else { CardSet::SUITED };
        let mut m = Multiset::EMPTY;
        for k in 0..copies {
            m.planes[k] = kinds.0;
        }
        Ok(m)
    }

    /// Every kind in `set` once.
    pub const fn from_set(set: CardSet) -> Multiset {
        Multiset { planes: [set.0, 0, 0, 0] }
    }

    /// The multiset of a card list. Errors when a kind appears more than 4 times.
    pub fn from_cards(cards: &[Card]) -> Result<Multiset> {
        let mut m = Multiset::EMPTY;
        for &c in cards {
            m.try_add(c)?;
        }
        Ok(m)
    }

    /// The raw planes (`planes[k]` = kinds held at least `k + 1` times).
    pub const fn planes(&self) -> [u64; MAX_COPIES] {
        self.planes
    }

    /// Kinds held at least `n` times (`n` in 1..=4; `n = 0` gives every kind).
    pub const fn at_least(&self, n: usize) -> CardSet {
        match n {
            0 => CardSet::ALL,
            1..=MAX_COPIES => CardSet(self.planes[n - 1]),
            _ => CardSet::EMPTY,
        }
    }

    /// Kinds held at least once.
    pub const fn kinds(&self) -> CardSet {
        CardSet(self.planes[0])
    }

    /// Kinds held at least twice (a pair can be formed).
    pub const fn pairs(&self) -> CardSet {
        CardSet(self.planes[1])
    }

    /// Kinds held at least three times (a triple can be formed).
    pub const fn triples(&self) -> CardSet {
        CardSet(self.planes[2])
    }

    /// Kinds held exactly `n` times (`n` in 1..=4).
    pub const fn exactly(&self, n: usize) -> CardSet {
        CardSet(self.at_least(n).0 & !self.at_least(n + 1).0)
    }

    /// How many copies of `card` are held.
    pub const fn count(&self, card: Card) -> usize {
        let b = card.bit();
        ((self.planes[0] & b != 0) as usize)
            + ((self.planes[1] & b != 0) as usize)
            + ((self.planes[2] & b != 0) as usize)
            + ((self.planes[3] & b != 0) as usize)
    }

    pub const fn contains(&self, card: Card) -> bool {
        self.planes[0] & card.bit() != 0
    }

    /// Total number of cards.
    pub const fn len(&self) -> usize {
        (self.planes[0].count_ones()
            + self.planes[1].count_ones()
            + self.planes[2].count_ones()
            + self.planes[3].count_ones()) as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.planes[0] == 0
    }

    /// Add one copy of `card`. Errors when it already holds 4.
    pub fn try_add(&mut self, card: Card) -> Result<()> {
        let b = card.bit();
        for plane in self.planes.iter_mut() {
            if *plane & b == 0 {
                *plane |= b;
                return Ok(());
            }
        }
        Err(ZhipaiError::invalid_value("cards", card, "more than 4 copies of one card"))
    }

    /// Add one copy of `card`. The caller guarantees fewer than 4 copies are held (debug-checked;
    /// a fifth copy changes nothing).
    #[inline]
    pub fn add(&mut self, card: Card) {
        let b = card.bit();
        debug_assert!(self.planes[MAX_COPIES - 1] & b == 0, "fifth copy of {card}");
        // The planes are nested, so the new copy lands on the first plane without the card:
        // each plane takes the card where the plane below has it (no count, no branch).
        for k in (1..MAX_COPIES).rev() {
            self.planes[k] |= self.planes[k - 1] & b;
        }
        self.planes[0] |= b;
    }

    /// Remove one copy of `card`; returns `false` (and changes nothing) when none is held.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let k = self.count(card);
        if k == 0 {
            return false;
        }
        self.planes[k - 1] &= !card.bit();
        true
    }

    /// Remove up to `n` copies of `card` (as many as are held); returns how many were removed.
    #[inline]
    pub fn remove_up_to(&mut self, card: Card, n: usize) -> usize {
        let held = self.count(card);
        let k = held.min(n);
        for plane in &mut self.planes[held - k..held] {
            *plane &= !card.bit();
        }
        k
    }

    /// The kinds of `other` this multiset holds fewer of, with the counts, for error messages:
    /// `"BJ ×3 (holds 2), 9C ×1 (holds 0)"` (empty when it holds all of `other`).
    pub fn shortfall(&self, other: &Multiset) -> String {
        let short: Vec<String> = other
            .kinds()
            .iter()
            .filter(|&c| self.count(c) < other.count(c))
            .map(|c| format!("{c} ×{} (holds {})", other.count(c), self.count(c)))
            .collect();
        short.join(", ")
    }

    /// Add every card of `other`.
    pub fn add_all(&mut self, other: &Multiset) -> Result<()> {
        for c in other.iter() {
            self.try_add(c)?;
        }
        Ok(())
    }

    /// Whether every card of `other` is held here (with multiplicity).
    pub fn contains_all(&self, other: &Multiset) -> bool {
        // other ⊆ self iff for every n, kinds other holds ≥ n times ⊆ kinds self holds ≥ n times.
        (0..MAX_COPIES).all(|k| other.planes[k] & !self.planes[k] == 0)
    }

    /// Kinds held here more times than in `base`: plane by plane, as [`Multiset::contains_all`]
    /// (a kind is held more times iff some plane has it here and not in `base`).
    pub fn more_than(&self, base: &Multiset) -> CardSet {
        CardSet((0..MAX_COPIES).fold(0, |a, k| a | self.planes[k] & !base.planes[k]))
    }

    /// Write the count of every kind into `out[kind index]` (a tensor's count field: the first
    /// [`NUM_KINDS`] entries of `out` are overwritten, zeros included, so the caller need not
    /// clear them). Plane 0 goes eight kinds at a time through a table (one dense pass instead of
    /// a clear and a scatter: the hot part of a vector-env step); deeper planes are rare.
    pub fn write_counts(&self, out: &mut [f32]) {
        let out: &mut [f32; NUM_KINDS] = (&mut out[..NUM_KINDS]).try_into().expect("54 entries");
        write_plane(self.planes[0], out);
        if self.planes[1] != 0 {
            Multiset { planes: [0, self.planes[1], self.planes[2], self.planes[3]] }
                .add_counts(out);
        }
    }

    /// Add 1.0 to `out[kind index]` for every card held (a tensor's count field; `out` holds
    /// one entry per kind and is zeroed by the caller).
    pub fn add_counts(&self, out: &mut [f32]) {
        for plane in self.planes {
            let mut bits = plane;
            while bits != 0 {
                out[bits.trailing_zeros() as usize] += 1.0;
                bits &= bits - 1;
            }
        }
    }

    /// Remove every card of `other`. Errors (changing nothing) if some card is not held.
    pub fn remove_all(&mut self, other: &Multiset) -> Result<()> {
        if !self.contains_all(other) {
            let missing = self.missing_from(other);
            return Err(ZhipaiError::invalid_value("cards", format_cards(&missing), "not held"));
        }
        // Counts are unary planes (plane k = kinds held more than k times). With e[j] = kinds
        // `other` holds exactly j times, a kind is left more than k times iff it was held more
        // than k + j times: a plane-parallel subtraction (hot in simulations).
        let o = other.planes;
        let e = [!o[0], o[0] & !o[1], o[1] & !o[2], o[2] & !o[3], o[3]];
        let s = self.planes;
        let mut out = [0u64; MAX_COPIES];
        for (k, plane) in out.iter_mut().enumerate() {
            for j in 0..MAX_COPIES - k {
                *plane |= s[k + j] & e[j];
            }
        }
        self.planes = out;
        Ok(())
    }

    /// The cards of `other` that this multiset does not hold (with multiplicity).
    pub fn missing_from(&self, other: &Multiset) -> Vec<Card> {
        let mut missing = Vec::new();
        for c in other.kinds() {
            for _ in self.count(c)..other.count(c) {
                missing.push(c);
            }
        }
        missing
    }

    /// Restrict to the kinds in `mask` (e.g. one suit), keeping multiplicities.
    pub const fn restrict(&self, mask: CardSet) -> Multiset {
        let m = mask.0;
        Multiset {
            planes: [
                self.planes[0] & m,
                self.planes[1] & m,
                self.planes[2] & m,
                self.planes[3] & m,
            ],
        }
    }

    /// Number of cards whose kind is in `mask`.
    pub const fn count_in(&self, mask: CardSet) -> usize {
        self.restrict(mask).len()
    }

    /// Iterate the cards in ascending kind index, each kind repeated by its count.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.kinds().iter().flat_map(move |c| std::iter::repeat_n(c, self.count(c)))
    }

    /// The cards in ascending kind index, each kind repeated by its count.
    pub fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Count of each kind, indexed by kind (`counts[i]` in 0..=4).
    pub fn counts(&self) -> [u8; NUM_KINDS] {
        let mut out = [0u8; NUM_KINDS];
        for c in self.kinds() {
            out[c.index()] = self.count(c) as u8;
        }
        out
    }
}

impl fmt::Display for Multiset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_cards(&self.to_vec()))
    }
}

impl std::str::FromStr for Multiset {
    type Err = ZhipaiError;
    /// Parse a card list (see [`crate::cards::parse_cards`]).
    fn from_str(s: &str) -> Result<Multiset> {
        Multiset::from_cards(&crate::cards::parse_cards(s)?)
    }
}

/// How `parts` together differ from `copies` full decks (`jokers` included or not):
/// `"extra cards: 5S; missing cards: 4S"`, or `None` when they are exactly those decks. Counts
/// in `usize`, so a part set with more copies than a `Multiset` holds is still described.
pub fn deck_difference(parts: &[&Multiset], copies: usize, jokers: bool) -> Option<String> {
    // Every dealt deal passes here: the plane sums first, the kind-by-kind count only to name
    // what differs.
    let mut all = Multiset::EMPTY;
    if parts.iter().all(|m| all.add_all(m).is_ok())
        && Multiset::full_decks(copies, jokers).is_ok_and(|full| full == all)
    {
        return None;
    }
    let mut count = [0usize; NUM_KINDS];
    for c in parts.iter().flat_map(|m| m.iter()) {
        count[c.index()] += 1;
    }
    let (mut extra, mut missing) = (Vec::new(), Vec::new());
    for c in Card::all() {
        let want = if c.is_joker() && !jokers { 0 } else { copies };
        let n = count[c.index()];
        extra.extend(std::iter::repeat_n(c, n.saturating_sub(want)));
        missing.extend(std::iter::repeat_n(c, want.saturating_sub(n)));
    }
    if extra.is_empty() && missing.is_empty() {
        return None;
    }
    let list = |v: &[Card]| if v.is_empty() { "none".to_string() } else { format_cards(v) };
    Some(format!("extra cards: {}; missing cards: {}", list(&extra), list(&missing)))
}

/// Up to `limit` distinct `k`-card sub-multisets of `hand` accepted by `ok`, in lexicographic
/// order of card kinds (lowest kinds first), looking at no more than `scan` candidates: the
/// burial list of `legal_moves()` (a burial has millions of choices; any legal one may be
/// applied, listed or not).
pub fn sub_multisets(
    hand: &Multiset,
    k: usize,
    limit: usize,
    scan: usize,
    ok: &mut dyn FnMut(&Multiset) -> bool,
) -> Vec<Multiset> {
    let kinds: Vec<(Card, usize)> = hand.kinds().iter().map(|c| (c, hand.count(c))).collect();
    // suffix[i] = cards available in kinds i.. (prunes branches that cannot reach k).
    let mut suffix = vec![0; kinds.len() + 1];
    for i in (0..kinds.len()).rev() {
        suffix[i] = suffix[i + 1] + kinds[i].1;
    }
    struct Walk<'a> {
        kinds: &'a [(Card, usize)],
        suffix: &'a [usize],
        out: Vec<Multiset>,
        limit: usize,
        scan: usize,
        ok: &'a mut dyn FnMut(&Multiset) -> bool,
    }
    fn go(w: &mut Walk<'_>, i: usize, need: usize, cur: &mut Multiset) {
        if w.out.len() >= w.limit || w.scan == 0 {
            return;
        }
        if need == 0 {
            w.scan -= 1;
            if (w.ok)(cur) {
                w.out.push(*cur);
            }
            return;
        }
        if i == w.kinds.len() || w.suffix[i] < need {
            return;
        }
        let (card, n) = w.kinds[i];
        // Most copies of this kind first = lexicographically smallest card list first.
        for take in (0..=n.min(need)).rev() {
            for _ in 0..take {
                cur.add(card);
            }
            go(w, i + 1, need - take, cur);
            for _ in 0..take {
                cur.remove(card);
            }
        }
    }
    let mut w = Walk { kinds: &kinds, suffix: &suffix, out: Vec::new(), limit, scan, ok };
    let mut cur = Multiset::EMPTY;
    go(&mut w, 0, k, &mut cur);
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_difference_names_the_extra_and_missing_cards() {
        let deck = Multiset::full_decks(1, false).unwrap();
        assert_eq!(deck_difference(&[&deck], 1, false), None);
        let mut a = deck;
        a.remove("4S".parse().unwrap());
        let b: Multiset = "5S".parse().unwrap();
        assert_eq!(
            deck_difference(&[&a, &b], 1, false).unwrap(),
            "extra cards: 5S; missing cards: 4S"
        );
        // More copies than a Multiset holds are still counted.
        let four: Multiset = "BJ BJ BJ BJ".parse().unwrap();
        let text = deck_difference(&[&four, &four], 1, true).unwrap();
        assert!(text.starts_with("extra cards: BJ BJ BJ BJ BJ BJ BJ;"), "{text}");
    }
    use proptest::prelude::*;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    #[test]
    fn write_counts_overwrites_every_kind() {
        for text in [
            "",
            "2S",
            "5H 5H 5H 6H 6H SJ BJ BJ",
            "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
            "3D 3D 3D 3D",
        ] {
            let m = ms(text);
            let mut out = [9.0f32; NUM_KINDS + 1];
            m.write_counts(&mut out);
            for (k, &got) in out[..NUM_KINDS].iter().enumerate() {
                let card = Card::from_index(k).unwrap();
                assert_eq!(got, m.count(card) as f32, "{text}: {card}");
            }
            assert_eq!(out[NUM_KINDS], 9.0, "{text}: wrote past the field");
        }
    }

    #[test]
    fn count_planes() {
        let h = ms("5H 5H 5H 6H 6H SJ");
        assert_eq!(h.len(), 6);
        assert_eq!(h.count("5H".parse().unwrap()), 3);
        assert_eq!(h.pairs().len(), 2);
        assert_eq!(h.triples().len(), 1);
        assert_eq!(h.exactly(2).to_string(), "6H");
        assert_eq!(h.exactly(1).to_string(), "SJ");
        assert_eq!(h.to_string(), "5H 5H 5H 6H 6H SJ");
    }

    #[test]
    fn remove_up_to_removes_what_is_held() {
        let mut h = ms("5H 5H 5H 6H SJ");
        let five: Card = "5H".parse().unwrap();
        assert_eq!(h.remove_up_to(five, 2), 2);
        assert_eq!(h.to_string(), "5H 6H SJ");
        assert_eq!(h.remove_up_to(five, 3), 1, "only one copy left");
        assert_eq!(h.remove_up_to("7C".parse().unwrap(), 1), 0);
        assert_eq!(h.to_string(), "6H SJ");
    }

    #[test]
    fn add_remove_and_limits() {
        let mut h = Multiset::EMPTY;
        let c: Card = "AS".parse().unwrap();
        for _ in 0..4 {
            h.try_add(c).unwrap();
        }
        assert!(h.try_add(c).is_err());
        assert!(h.remove(c));
        assert_eq!(h.count(c), 3);
        let mut h2 = ms("AS 2C");
        assert!(h2.remove_all(&ms("AS AS")).is_err());
        assert_eq!(h2, ms("AS 2C"), "a failed remove_all changes nothing");
        h2.remove_all(&ms("2C")).unwrap();
        assert_eq!(h2, ms("AS"));
        assert_eq!(Multiset::full_decks(2, true).unwrap().len(), 108);
        assert_eq!(Multiset::full_decks(4, true).unwrap().len(), 216);
        assert!(Multiset::full_decks(5, true).is_err());
    }

    proptest! {
        #[test]
        fn counts_match_a_naive_count(idx in proptest::collection::vec(0usize..54, 0..60)) {
            let mut naive = [0usize; 54];
            let mut m = Multiset::EMPTY;
            for &i in &idx {
                if naive[i] < 4 {
                    naive[i] += 1;
                    m.add(Card::from_index(i).unwrap());
                }
            }
            for c in Card::all() {
                prop_assert_eq!(m.count(c), naive[c.index()]);
            }
            prop_assert_eq!(m.len(), naive.iter().sum::<usize>());
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Multiset>().unwrap(), m);
            // The count field, over a buffer holding something else, by every plane writer.
            let want: Vec<f32> = naive.iter().map(|&n| n as f32).collect();
            let mut out = [7.5f32; 60];
            m.write_counts(&mut out);
            prop_assert_eq!(&out[..54], &want[..]);
            prop_assert_eq!(out[54], 7.5, "past the field");
            let bits = m.planes[0];
            let mut plane = [-1.0f32; 54];
            write_plane_table(bits, &mut plane);
            prop_assert!(plane.iter().enumerate().all(|(k, &x)| x == ((bits >> k) & 1) as f32));
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f") {
                let mut wide = [-1.0f32; 54];
                unsafe { write_plane_avx512(bits, &mut wide) };
                prop_assert_eq!(wide, plane);
            }
        }

        #[test]
        fn remove_all_matches_card_by_card_removal(
            idx in proptest::collection::vec(0usize..54, 0..80),
            keep in proptest::collection::vec(any::<bool>(), 80),
        ) {
            let mut m = Multiset::EMPTY;
            let mut sub = Multiset::EMPTY;
            for (k, &i) in idx.iter().enumerate() {
                let c = Card::from_index(i).unwrap();
                if m.count(c) < 4 {
                    m.add(c);
                    if keep[k] {
                        sub.add(c);
                    }
                }
            }
            let mut naive = m;
            for c in sub.iter() {
                naive.remove(c);
            }
            let mut fast = m;
            fast.remove_all(&sub).unwrap();
            prop_assert_eq!(fast, naive);
            let equal = sub == m;
            prop_assert!(sub.remove_all(&m).is_err() || equal);
        }
    }

    #[test]
    fn sub_multisets_are_distinct_lexicographic_and_bounded() {
        let hand = ms("2S 2S 3S 4H");
        let all = sub_multisets(&hand, 2, 100, 1000, &mut |_| true);
        // {2S 2S}, {2S 3S}, {2S 4H}, {3S 4H}: distinct multisets, lowest kinds first.
        assert_eq!(all, vec![ms("2S 2S"), ms("2S 3S"), ms("2S 4H"), ms("3S 4H")]);
        assert_eq!(sub_multisets(&hand, 2, 2, 1000, &mut |_| true).len(), 2, "limit");
        let no_spade_pair = sub_multisets(&hand, 2, 100, 1000, &mut |m| {
            m.count(ms("2S").iter().next().unwrap()) < 2
        });
        assert_eq!(no_spade_pair.len(), 3, "the filter");
        assert!(sub_multisets(&hand, 5, 100, 1000, &mut |_| true).is_empty(), "k > hand");
        assert_eq!(sub_multisets(&hand, 2, 100, 1, &mut |_| true).len(), 1, "scan budget");
    }
}
