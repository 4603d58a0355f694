//! Plays (一手), the beating rule and move generation (baohuang.md §C.2, §C.4, §C.5).
//!
//! Suits are irrelevant in play (§C.2, seed 003 "不论花色，点数相同即大小一样"), so move generation
//! works on [`Shape`]s: a natural rank, how many naturals, how many SJ, BJ and (only with
//! `guard_card_rank = above_big_joker`) the guard card. A hand is summarised by [`HandCounts`]
//! (counts per strength, computed from the [`Multiset`] count planes). The four operations agree:
//! [`enumerate`] lists every legal play in a fixed order, [`count`] counts them in closed form per
//! block, [`nth`] decodes the k-th play of that order without building the list, [`sample`] draws
//! one uniformly with `nth`, and [`check`] says why a play is illegal.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::multiset::Multiset;
use rand::Rng;
use std::fmt;

/// Strength of the small joker (naturals are 0 = `3` … 11 = `A`, 12 = `2`).
pub const SJ_STRENGTH: u8 = 13;
/// Strength of the big joker.
pub const BJ_STRENGTH: u8 = 14;
/// Strength of the guard card with `guard_card_rank = above_big_joker`.
pub const GUARD_STRENGTH: u8 = 15;
/// `Shape::rank` when a play has no naturals.
pub const NO_RANK: u8 = 13;

/// Play strength of a natural rank (§C.2: 2 > A > K > … > 3): `3` → 0 … `A` → 11, `2` → 12.
pub const fn rank_strength(rank: Rank) -> u8 {
    ((rank.index() + 12) % 13) as u8
}

/// The rank of natural strength `s` (0..13), inverse of [`rank_strength`].
pub fn strength_rank(s: u8) -> Rank {
    Rank::from_index((s + 1) % 13).expect("strength below 13")
}

/// Play strength of a card (§C.2); suits are ignored.
pub fn card_strength(card: Card) -> u8 {
    match card.rank() {
        Some(r) => rank_strength(r),
        None if card == Card::SMALL_JOKER => SJ_STRENGTH,
        None => BJ_STRENGTH,
    }
}

/// A play up to suits: `naturals` cards of natural strength `rank` plus `small` SJ, `big` BJ and
/// `guard` guard cards (0 or 1; only with `guard_card_rank = above_big_joker`). §C.4: n naturals of
/// one rank + x SJ + y BJ, jokers may go alone; `rank == NO_RANK` iff `naturals == 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    pub rank: u8,
    pub naturals: u8,
    pub small: u8,
    pub big: u8,
    pub guard: u8,
}

impl Shape {
    /// Number of cards.
    pub const fn total(&self) -> u8 {
        self.naturals + self.small + self.big + self.guard
    }

    /// Strength of the lowest card (the last position when sorted high→low).
    pub const fn lowest(&self) -> u8 {
        if self.naturals > 0 {
            self.rank
        } else if self.small > 0 {
            SJ_STRENGTH
        } else if self.big > 0 {
            BJ_STRENGTH
        } else {
            GUARD_STRENGTH
        }
    }

    /// Jokers (and guard card) in the play.
    pub const fn jokers(&self) -> u8 {
        self.small + self.big + self.guard
    }

    /// A bomb for `bombs = on`: 4 or more naturals of one rank and nothing else (§C.5 Alt).
    pub const fn is_bomb(&self) -> bool {
        self.naturals >= 4 && self.jokers() == 0
    }

    fn natural(rank: u8, naturals: u8, small: u8, big: u8, guard: u8) -> Shape {
        Shape { rank: if naturals == 0 { NO_RANK } else { rank }, naturals, small, big, guard }
    }
}

impl fmt::Display for Shape {
    /// Cards high→low with suits left out: `BJ SJ 9 9 9` (a guard card shows as `G`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<&str> = Vec::new();
        parts.extend(std::iter::repeat_n("G", self.guard as usize));
        parts.extend(std::iter::repeat_n("BJ", self.big as usize));
        parts.extend(std::iter::repeat_n("SJ", self.small as usize));
        if self.naturals > 0 {
            let sym = strength_rank(self.rank).symbol();
            parts.extend(std::iter::repeat_n(sym, self.naturals as usize));
        }
        f.write_str(&parts.join(" "))
    }
}

/// Does `new` beat `prev` (§C.5)? Same number of cards and, both sorted high→low, every card of
/// `new` strictly higher than the card in the same position of `prev`. With `bombs`, a bomb also
/// beats any play of fewer cards.
///
/// Position-by-position dominance is checked by counting: `new` beats `prev` iff for every
/// strength v present in `prev`, #(cards of `new` > v) ≥ #(cards of `prev` ≥ v).
pub fn beats(new: &Shape, prev: &Shape, bombs: bool) -> bool {
    if new.total() != prev.total() {
        return bombs && new.is_bomb() && new.total() > prev.total();
    }
    if new.total() == 0 || prev.guard > 0 {
        return false; // nothing ranks above the top card
    }
    if prev.big > 0 && new.guard < prev.big {
        return false;
    }
    if prev.small > 0 && new.guard + new.big < prev.small + prev.big {
        return false;
    }
    prev.naturals == 0 || new.lowest() > prev.rank
}

/// A hand summarised for move generation: naturals per strength and the top cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HandCounts {
    /// `nat[s]` = naturals of strength `s` (0 = `3` … 12 = `2`), up to 16 with four decks.
    pub nat: [u8; 13],
    pub small: u8,
    pub big: u8,
    pub guard: u8,
    /// Number of cards (kept up to date by [`HandCounts::of`] and [`HandCounts::remove`]).
    total: u8,
}

impl HandCounts {
    /// Count a hand. `guard_card`: the kind whose copies in this hand are guard cards ranking above
    /// BJ (`guard_card_rank = above_big_joker`, the guard's own hand), else `None`.
    pub fn of(hand: &Multiset, guard_card: Option<Card>) -> HandCounts {
        let planes = hand.planes();
        let mut h = HandCounts::default();
        for r in 0..13u8 {
            let mask = CardSet::rank_mask(Rank::from_index(r).expect("rank")).0;
            let n: u32 = planes.iter().map(|p| (p & mask).count_ones()).sum();
            h.nat[rank_strength(Rank::from_index(r).expect("rank")) as usize] = n as u8;
        }
        h.small = hand.count(Card::SMALL_JOKER) as u8;
        h.big = hand.count(Card::BIG_JOKER) as u8;
        if let Some(g) = guard_card {
            let k = hand.count(g) as u8;
            match card_strength(g) {
                SJ_STRENGTH => h.small -= k,
                BJ_STRENGTH => h.big -= k,
                s => h.nat[s as usize] -= k,
            }
            h.guard = k;
        }
        h.total = hand.len() as u8;
        h
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.total as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the hand holds the cards of `shape`.
    pub fn holds(&self, s: &Shape) -> bool {
        (s.naturals == 0 || (s.rank < 13 && s.naturals <= self.nat[s.rank as usize]))
            && s.small <= self.small
            && s.big <= self.big
            && s.guard <= self.guard
    }

    /// Remove the cards of `shape` (the caller checked [`HandCounts::holds`]).
    pub fn remove(&mut self, s: &Shape) {
        if s.naturals > 0 {
            self.nat[s.rank as usize] -= s.naturals;
        }
        self.small -= s.small;
        self.big -= s.big;
        self.guard -= s.guard;
        self.total -= s.total();
    }

    fn tier_combos(&self) -> u32 {
        (self.small as u32 + 1) * (self.big as u32 + 1) * (self.guard as u32 + 1)
    }

    fn decode_tiers(&self, mut k: u32) -> (u8, u8, u8) {
        let s = k % (self.small as u32 + 1);
        k /= self.small as u32 + 1;
        let b = k % (self.big as u32 + 1);
        let g = k / (self.big as u32 + 1);
        (s as u8, b as u8, g as u8)
    }
}

/// The [`Shape`] of a card list, or why it is not one well-formed play (§C.4: empty, or
/// naturals of two ranks). `guard_card` as in [`HandCounts::of`].
pub fn shape_of(cards: &Multiset, guard_card: Option<Card>) -> Result<Shape, String> {
    if cards.is_empty() {
        return Err("a play has at least one card (§C.4)".into());
    }
    let h = HandCounts::of(cards, guard_card);
    let mut ranks = h.nat.iter().enumerate().filter(|(_, &n)| n > 0);
    let first = ranks.next();
    if ranks.next().is_some() {
        return Err(
            "naturals of two ranks; a play is n naturals of ONE rank + SJ + BJ, no sequences (§C.4)"
                .into(),
        );
    }
    let (rank, naturals) = first.map_or((NO_RANK, 0), |(r, &n)| (r as u8, n));
    Ok(Shape { rank, naturals, small: h.small, big: h.big, guard: h.guard })
}

/// Why `shape` may not be played from `hand` after `prev` (`None` = a lead), or `Ok(())`.
pub fn check(
    hand: &HandCounts,
    shape: &Shape,
    prev: Option<&Shape>,
    bombs: bool,
) -> Result<(), String> {
    if shape.total() == 0 {
        return Err("a play has at least one card (§C.4)".into());
    }
    if (shape.naturals == 0) != (shape.rank == NO_RANK) || shape.rank > NO_RANK {
        return Err("malformed shape: rank given without naturals or naturals without rank".into());
    }
    if !hand.holds(shape) {
        return Err("not held".into());
    }
    match prev {
        Some(p) if !beats(shape, p, bombs) => Err(format!(
            "does not beat {p}: a beat has as many cards, each strictly higher position by position (§C.5)"
        )),
        _ => Ok(()),
    }
}

/// Number of legal plays of `hand` after `prev` (`None` = a lead): leads are every held shape;
/// responses every held shape that [`beats`] `prev`.
pub fn count(hand: &HandCounts, prev: Option<&Shape>, bombs: bool) -> u32 {
    Plays::new(hand, prev, bombs).count()
}

/// The `k`-th legal play in the order of [`enumerate`] (`k < count`), without building the list.
pub fn nth(hand: &HandCounts, prev: Option<&Shape>, bombs: bool, k: u32) -> Option<Shape> {
    Plays::new(hand, prev, bombs).nth(k)
}

/// The legal plays of one hand after one play, indexed without being built: the count is
/// computed once, then [`Plays::nth`] decodes any index (the rollout hot path: count, draw,
/// decode).
pub struct Plays<'a> {
    hand: &'a HandCounts,
    prev: Option<Shape>,
    bombs: bool,
    table: TierTable,
    total: u32,
}

impl<'a> Plays<'a> {
    pub fn new(hand: &'a HandCounts, prev: Option<&Shape>, bombs: bool) -> Plays<'a> {
        let mut plays =
            Plays { hand, prev: prev.copied(), bombs, table: TierTable::EMPTY, total: 0 };
        plays.total = match prev {
            None => {
                let naturals = (hand.total - hand.small - hand.big - hand.guard) as u32;
                naturals * hand.tier_combos() + hand.tier_combos() - 1
            }
            Some(p) if p.total() as usize > hand.len() => 0,
            Some(p) => {
                // Same sum as walking the blocks of `walk_responses` (tested), without closures:
                // whole ranks from the prefix table, then joker-only plays, then bombs.
                let t = p.total();
                let mut total = 0;
                // Same-count beats need a guard card per BJ and a BJ or guard card per top card.
                let tops_suffice = p.big <= hand.guard && p.small + p.big <= hand.big + hand.guard;
                if tops_suffice && p.guard == 0 && t > 0 && t as usize <= MAX_PLAY {
                    if p.naturals > 0 {
                        plays.table.fill(hand, p);
                        for &n in &hand.nat[p.rank as usize + 1..] {
                            total += plays.table.prefix[n.min(t) as usize];
                        }
                    }
                    total += tier_ways(hand, p, t, |_, _| false);
                }
                if bombs {
                    let lo = 4.max(t + 1);
                    for &n in &hand.nat {
                        if n >= lo {
                            total += (n - lo + 1) as u32;
                        }
                    }
                }
                total
            }
        };
        plays
    }

    /// How many legal plays there are.
    pub fn count(&self) -> u32 {
        self.total
    }

    /// The `k`-th legal play (order of [`enumerate`]), `None` for `k >= count`.
    pub fn nth(&self, k: u32) -> Option<Shape> {
        if k >= self.total {
            return None;
        }
        let p = match &self.prev {
            None => return nth_lead(self.hand, k),
            Some(p) => p,
        };
        let mut left = k;
        let mut found = None;
        walk_responses(self.hand, p, self.bombs, &self.table, |block, size| {
            if left < size {
                if block.is_group() {
                    return true; // expand this group
                }
                found = Some(block_shape(&block, left));
                return true;
            }
            left -= size;
            false
        });
        found
    }
}

/// One legal play drawn uniformly, or `None` when there is none.
pub fn sample<R: Rng + ?Sized>(
    hand: &HandCounts,
    prev: Option<&Shape>,
    bombs: bool,
    rng: &mut R,
) -> Option<Shape> {
    let plays = Plays::new(hand, prev, bombs);
    let n = plays.count();
    if n == 0 {
        return None;
    }
    plays.nth(rng.random_range(0..n))
}

/// Every legal play, in a fixed order: leads by natural rank (3 … 2), count of naturals, then guard
/// card, BJ, SJ counts ascending, then joker-only plays; responses by natural rank, count, guard
/// card, BJ, then joker-only plays, then bombs. At most `limit` plays.
pub fn enumerate(hand: &HandCounts, prev: Option<&Shape>, bombs: bool, limit: usize) -> Vec<Shape> {
    let plays = Plays::new(hand, prev, bombs);
    let n = plays.count() as usize;
    (0..n.min(limit) as u32).filter_map(|k| plays.nth(k)).collect()
}

fn nth_lead(hand: &HandCounts, k: u32) -> Option<Shape> {
    let per = hand.tier_combos();
    let naturals: u32 = hand.nat.iter().map(|&n| n as u32).sum();
    if k < naturals * per {
        let mut idx = k / per;
        let (s, b, g) = hand.decode_tiers(k % per);
        for (r, &n) in hand.nat.iter().enumerate() {
            if idx < n as u32 {
                return Some(Shape::natural(r as u8, idx as u8 + 1, s, b, g));
            }
            idx -= n as u32;
        }
        None
    } else if k < naturals * per + per - 1 {
        let (s, b, g) = hand.decode_tiers(k - naturals * per + 1);
        Some(Shape::natural(NO_RANK, 0, s, b, g))
    } else {
        None
    }
}

/// A run of responses with fixed rank, naturals and guard cards and BJ counts `big_lo..`; the SJ
/// count makes up the total.
#[derive(Clone, Copy)]
struct Block {
    rank: u8,
    naturals: u8,
    guard: u8,
    big_lo: u8,
    tiers: u8,
}

impl Block {
    fn shape(&self, k: u32) -> Shape {
        let big = self.big_lo + k as u8;
        let small = self.tiers - self.guard - big;
        Shape::natural(self.rank, self.naturals, small, big, self.guard)
    }
}

/// `Block::guard` of a group standing for every count of naturals of one rank.
const RANK_GROUP: u8 = u8::MAX;
/// `Block::guard` of a group standing for every guard count of one rank and count of naturals.
const COUNT_GROUP: u8 = u8::MAX - 1;

/// Most cards in one play (16 naturals + 4 SJ + 4 BJ + the guard card).
const MAX_PLAY: usize = 25;

/// Per-call table for responses to `p`: `prefix[k]` = responses with 1..=k naturals of any one
/// rank above p's, i.e. Σ_{n=1..k} W(T − n) where W(m) = ways to make `m` top cards (SJ, BJ,
/// guard card) satisfying the top-card constraints of [`beats`]. W does not depend on the rank,
/// so a whole rank is counted in O(1) and all responses in O(T + 13).
struct TierTable {
    prefix: [u32; MAX_PLAY + 1],
}

impl TierTable {
    const EMPTY: TierTable = TierTable { prefix: [0; MAX_PLAY + 1] };

    /// Fill an empty table for responses to `p` in place (no copy of the table on the hot
    /// path); left empty when no rank above p's is held (never used then).
    fn fill(&mut self, hand: &HandCounts, p: &Shape) {
        let t = p.total();
        if p.naturals == 0 || t as usize > MAX_PLAY {
            return;
        }
        // Entries past the largest count of naturals held above p's rank are never read.
        let most = hand.nat[p.rank as usize + 1..].iter().copied().max().unwrap_or(0).min(t);
        let prefix = &mut self.prefix;
        for n in 1..=most {
            prefix[n as usize] = prefix[n as usize - 1] + tier_ways(hand, p, t - n, |_, _| false);
        }
    }

    fn ways(&self, n: u8) -> u32 {
        self.prefix[n as usize] - self.prefix[n as usize - 1]
    }
}

/// Ways to pick `m` top cards against `p`; `visit(block, size)` sees each guard-count block and
/// may stop the walk (returns true), in which case the count so far is returned.
#[inline]
fn tier_ways(
    hand: &HandCounts,
    p: &Shape,
    m: u8,
    mut visit: impl FnMut(u8, (u8, u32)) -> bool,
) -> u32 {
    let need_top = p.small + p.big;
    let mut total = 0;
    for g in p.big..=hand.guard.min(m) {
        let lo = need_top.saturating_sub(g).max((m - g).saturating_sub(hand.small));
        let hi = hand.big.min(m - g);
        if lo <= hi {
            let size = (hi - lo + 1) as u32;
            if visit(g, (lo, size)) {
                return total;
            }
            total += size;
        }
    }
    total
}

/// Visit the blocks of responses to `p` in enumeration order; `visit(block, size)` returns true to
/// stop. Constraints from [`beats`]: same total T; guard ≥ p.big; big + guard ≥ p.small + p.big;
/// naturals higher than p's rank when both have naturals. Whole ranks and counts of naturals are
/// skipped with the [`TierTable`] when `skip(size)` says the target lies beyond them.
#[inline]
fn walk_responses<F: FnMut(Block, u32) -> bool>(
    hand: &HandCounts,
    p: &Shape,
    bombs: bool,
    table: &TierTable,
    mut visit: F,
) {
    let t = p.total();
    if p.guard == 0 && t > 0 && t as usize <= MAX_PLAY {
        // Naturals can only appear when p has naturals (else every position must be a top card).
        let any_higher = p.naturals > 0 && hand.nat[p.rank as usize + 1..].iter().any(|&n| n > 0);
        if any_higher {
            for r in p.rank + 1..13 {
                let most = hand.nat[r as usize].min(t);
                let size = table.prefix[most as usize];
                if size == 0 {
                    continue;
                }
                // Offer the whole rank first; expand only if the visitor wants it.
                let rank_group =
                    Block { rank: r, naturals: most, guard: RANK_GROUP, big_lo: 0, tiers: 0 };
                if !visit(rank_group, size) {
                    continue;
                }
                for n in 1..=most {
                    let m = t - n;
                    let size = table.ways(n);
                    if size == 0 {
                        continue;
                    }
                    let group =
                        Block { rank: r, naturals: n, guard: COUNT_GROUP, big_lo: 0, tiers: m };
                    if visit(group, size) {
                        let mut stop = false;
                        tier_ways(hand, p, m, |g, (lo, sz)| {
                            let b = Block { rank: r, naturals: n, guard: g, big_lo: lo, tiers: m };
                            stop = visit(b, sz);
                            stop
                        });
                        if stop {
                            return;
                        }
                    }
                }
            }
        }
        let mut stop = false;
        tier_ways(hand, p, t, |g, (lo, sz)| {
            let b = Block { rank: NO_RANK, naturals: 0, guard: g, big_lo: lo, tiers: t };
            stop = visit(b, sz);
            stop
        });
        if stop {
            return;
        }
    }
    if bombs {
        for r in 0..13u8 {
            let lo = 4.max(t + 1);
            if hand.nat[r as usize] >= lo {
                let size = (hand.nat[r as usize] - lo + 1) as u32;
                // A bomb block: naturals from `lo`, no top cards (`tiers` u8::MAX, see block_shape).
                let b = Block { rank: r, naturals: lo, guard: 0, big_lo: 0, tiers: u8::MAX };
                if visit(b, size) {
                    return;
                }
            }
        }
    }
}

impl Block {
    // Bomb blocks reuse `Block` with `tiers == u8::MAX`: the k-th bomb has `naturals + k` cards.
    fn is_bomb_block(&self) -> bool {
        self.tiers == u8::MAX
    }

    // Group blocks stand for several blocks: all counts of one rank (`RANK_GROUP`) or all guard
    // counts of one rank and count (`COUNT_GROUP`).
    fn is_group(&self) -> bool {
        self.guard >= COUNT_GROUP
    }
}

/// The k-th shape of a block, bomb blocks included.
fn block_shape(b: &Block, k: u32) -> Shape {
    if b.is_bomb_block() {
        Shape::natural(b.rank, b.naturals + k as u8, 0, 0, 0)
    } else {
        b.shape(k)
    }
}

/// Choose the cards of `shape` from `hand`: naturals taken suit by suit (S, H, D, C) with the suit
/// of `keep_last` (the 登基 card, so a guard keeps his identity hidden) taken last; `guard_card`
/// supplies the guard cards (above_big_joker). `None` when the hand does not hold the shape.
pub fn cards_for(
    hand: &Multiset,
    shape: &Shape,
    keep_last: Option<Card>,
    guard_card: Option<Card>,
) -> Option<Multiset> {
    let mut out = Multiset::EMPTY;
    let take = |card: Card, n: u8, out: &mut Multiset| -> u8 {
        let avail = hand.count(card) as u8 - out.count(card) as u8;
        let k = avail.min(n);
        for _ in 0..k {
            out.add(card);
        }
        k
    };
    if shape.guard > 0 {
        let g = guard_card?;
        if take(g, shape.guard, &mut out) < shape.guard {
            return None;
        }
    }
    for (card, n) in [(Card::BIG_JOKER, shape.big), (Card::SMALL_JOKER, shape.small)] {
        if n > 0 && take(card, n, &mut out) < n {
            return None;
        }
    }
    if shape.naturals > 0 {
        let rank = strength_rank(shape.rank);
        let last_suit =
            keep_last.and_then(|c| (c.rank() == Some(rank)).then(|| c.suit()).flatten());
        let mut left = shape.naturals;
        let order = Suit::ALL.iter().filter(|&&s| Some(s) != last_suit).chain(last_suit.iter());
        for &suit in order {
            let card = Card::new(suit, rank);
            if Some(card) == guard_card {
                continue; // the guard card is not a natural in above_big_joker
            }
            left -= take(card, left, &mut out);
        }
        if left > 0 {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> Shape {
        shape_of(&s.parse().unwrap(), None).unwrap()
    }

    fn counts(s: &str) -> HandCounts {
        HandCounts::of(&s.parse().unwrap(), None)
    }

    #[test]
    fn strengths_follow_the_seed_order() {
        let order = [
            "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S", "SJ",
            "BJ",
        ];
        for (i, c) in order.iter().enumerate() {
            assert_eq!(card_strength(c.parse().unwrap()) as usize, i, "{c}");
        }
    }

    #[test]
    fn digest_beating_examples() {
        // §C.5 worked checks and §C.11 B13.
        let yes = [
            ("BJ BJ JS JH JD", "SJ SJ 9S 9H 9D"),
            ("BJ BJ BJ JS JH", "SJ SJ 9S 9H 9D"),
            ("BJ BJ 10S 10H 10D", "SJ SJ 9S 9H 9D"),
            ("9S 9H 9D", "8S 8H 8D"),
            ("SJ 9S 9H", "8S 8H 8D"),
            ("SJ SJ SJ", "8S 8H 8D"),
            ("BJ BJ 2S", "8S 8H 8D"),
            ("BJ BJ", "SJ SJ"),
            ("SJ", "2S"),
            ("BJ SJ SJ", "SJ 2S 2H"),
            ("BJ BJ SJ", "SJ 2S 2H"),
            ("BJ BJ BJ", "SJ 2S 2H"),
        ];
        let no = [
            ("BJ SJ JS JH JD", "SJ SJ 9S 9H 9D"),
            ("SJ SJ 10S 10H 10D", "SJ SJ 9S 9H 9D"),
            ("2S 2H 2D 2C 2S", "SJ SJ 9S 9H 9D"),
            ("SJ 7S 7H", "8S 8H 8D"),
            ("SJ 8C 8S", "8S 8H 8D"),
            ("BJ SJ", "SJ SJ"),
            ("BJ AS AH", "SJ 2S 2H"),
            ("BJ BJ 2D", "SJ 2S 2H"),
            ("SJ SJ SJ", "SJ 2S 2H"),
            ("BJ BJ", "BJ 3S"),
            ("9S 9H", "8S 8H 8D"),
        ];
        for (a, b) in yes {
            assert!(beats(&shape(a), &shape(b), false), "{a} should beat {b}");
        }
        for (a, b) in no {
            assert!(!beats(&shape(a), &shape(b), false), "{a} should not beat {b}");
        }
    }

    #[test]
    fn bombs_beat_fewer_cards_only_when_on() {
        assert!(!beats(&shape("3S 3H 3D 3C"), &shape("AS"), false));
        assert!(beats(&shape("3S 3H 3D 3C"), &shape("BJ BJ"), true));
        assert!(!beats(&shape("3S 3H 3D 3C"), &shape("4S 4H 4D 4C"), true));
        assert!(!beats(&shape("SJ 3H 3D 3C"), &shape("AS"), true), "jokers make it no bomb");
    }

    #[test]
    fn guard_card_tops_big_joker() {
        let g: Card = "9C".parse().unwrap();
        let s = shape_of(&"9C".parse().unwrap(), Some(g)).unwrap();
        assert_eq!(s.guard, 1);
        assert!(beats(&s, &shape("BJ"), false));
        assert!(!beats(&shape("BJ"), &s, false));
    }

    #[test]
    fn malformed_plays_are_named() {
        assert!(shape_of(&"8S 9S".parse().unwrap(), None).is_err());
        assert!(shape_of(&Multiset::EMPTY, None).is_err());
        assert!(shape_of(&"SJ 2S AS".parse().unwrap(), None).is_err());
    }

    #[test]
    fn lead_count_matches_a_hand_count() {
        // 3 naturals of 8, 1 of 9, one SJ: leads = (1,2,3 eights or one nine) x (0/1 SJ) + SJ alone.
        let h = counts("8S 8S 8H 9D SJ");
        assert_eq!(count(&h, None, false), 4 * 2 + 1);
    }

    #[test]
    fn response_enumeration_agrees_with_beats() {
        let h = counts("9S 9H 9D 9C JS JH SJ SJ BJ BJ 2S 3C");
        for prev in ["8S 8H 8D", "SJ 2S 2H", "SJ SJ", "AS", "BJ", "SJ 9S 9H 9D 9C"] {
            let p = shape(prev);
            let list = enumerate(&h, Some(&p), false, usize::MAX);
            assert_eq!(list.len() as u32, count(&h, Some(&p), false));
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), list.len(), "no duplicates after {prev}");
            // Brute force over every held shape of the right size.
            let mut brute = 0;
            for r in 0..=13u8 {
                for n in 0..=16u8 {
                    for s in 0..=h.small {
                        for b in 0..=h.big {
                            let sh = Shape::natural(r, n, s, b, 0);
                            if (r == NO_RANK) != (n == 0) {
                                continue;
                            }
                            if check(&h, &sh, Some(&p), false).is_ok() {
                                brute += 1;
                                assert!(list.contains(&sh), "{sh} missing after {prev}");
                            }
                        }
                    }
                }
            }
            assert_eq!(brute, list.len(), "after {prev}");
        }
    }

    #[test]
    fn cards_for_keeps_the_dengji_card_last() {
        let hand: Multiset = "9C 9S 9H SJ".parse().unwrap();
        let keep: Card = "9C".parse().unwrap();
        let s = shape("9S 9H");
        let cards = cards_for(&hand, &s, Some(keep), None).unwrap();
        assert_eq!(cards.count(keep), 0);
        assert!(cards_for(&hand, &shape("9S 9H 9D 9C"), None, None).is_none());
    }

    use proptest::prelude::*;

    fn arb_counts() -> impl Strategy<Value = HandCounts> {
        (proptest::collection::vec(0u8..=6, 13), 0u8..=4, 0u8..=4, 0u8..=1).prop_map(
            |(nat, small, big, guard)| {
                let mut h = HandCounts { small, big, guard, ..Default::default() };
                h.nat.copy_from_slice(&nat);
                h.total = nat.iter().sum::<u8>() + small + big + guard;
                h
            },
        )
    }

    fn arb_shape() -> impl Strategy<Value = Shape> {
        (0u8..=13, 0u8..=5, 0u8..=3, 0u8..=2, 0u8..=1).prop_filter_map(
            "non-empty",
            |(r, n, s, b, g)| {
                let sh = Shape::natural(r, if r == NO_RANK { 0 } else { n }, s, b, g);
                (sh.total() > 0).then_some(sh)
            },
        )
    }

    proptest! {
        /// enumerate / count / nth / sample / check agree, for leads and responses, bombs on/off.
        #[test]
        fn move_generation_operations_agree(h in arb_counts(), prev in arb_shape(), lead in any::<bool>(), bombs in any::<bool>(), seed in any::<u64>()) {
            let p = if lead { None } else { Some(prev) };
            let list = enumerate(&h, p.as_ref(), bombs, usize::MAX);
            prop_assert_eq!(list.len() as u32, count(&h, p.as_ref(), bombs));
            let mut set = list.clone();
            set.sort();
            set.dedup();
            prop_assert_eq!(set.len(), list.len());
            for s in &list {
                prop_assert!(check(&h, s, p.as_ref(), bombs).is_ok(), "{} listed but illegal", s);
            }
            // Every legal shape is listed: brute force over held shapes.
            let mut legal = 0usize;
            for r in 0..=13u8 {
                let most = if r == NO_RANK { 0 } else { h.nat[r as usize] };
                for n in 0..=most {
                    if (r == NO_RANK) != (n == 0) { continue; }
                    for sm in 0..=h.small { for b in 0..=h.big { for g in 0..=h.guard {
                        let sh = Shape::natural(r, n, sm, b, g);
                        if check(&h, &sh, p.as_ref(), bombs).is_ok() { legal += 1; }
                    }}}
                }
            }
            prop_assert_eq!(legal, list.len());
            let mut rng = crate::rollout::deal_rng(seed, 0);
            match sample(&h, p.as_ref(), bombs, &mut rng) {
                Some(s) => prop_assert!(list.contains(&s)),
                None => prop_assert!(list.is_empty()),
            }
        }
    }
}
