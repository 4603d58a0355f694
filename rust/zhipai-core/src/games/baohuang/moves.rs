//! Plays (一手), the beating rule and move generation (baohuang.md §C.2, §C.4, §C.5).
//!
//! Suits are irrelevant in play (§C.2, seed 003 "不论花色，点数相同即大小一样"), so move generation
//! works on [`Shape`]s: a natural rank, how many naturals, how many SJ, BJ and (only with
//! `guard_card_rank = above_big_joker`) the guard card. A hand is summarised by [`HandCounts`]
//! (counts per strength, computed from the [`Multiset`] count planes, plus per count level the
//! ranks holding at least that many). The operations agree: [`enumerate`] lists every legal play
//! in a fixed order (visited one by one by [`for_each`]), [`count`] counts them in closed form
//! (a few mask popcounts per decision, see "responses" below), [`nth`] decodes the k-th play of
//! that order without building the list, [`sample`] draws one uniformly with `nth`, and [`check`]
//! says why a play is illegal.

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
    const RANKS: [Rank; 13] = {
        let mut t = [Rank::TWO; 13];
        let mut s = 0;
        while s < 13 {
            if let Some(r) = Rank::from_index(((s + 1) % 13) as u8) {
                t[s] = r;
            }
            s += 1;
        }
        t
    };
    RANKS[s as usize] // a table: the rollouts ask once per play
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

impl std::str::FromStr for Shape {
    type Err = crate::error::ZhipaiError;

    /// Parse a play with or without suits: the [`Shape`] display (`"BJ SJ 9 9 9"`, `G` = a guard
    /// card) or cards (`"BJ SJ 9S 9H 9D"`, suits ignored). Errors: `InvalidCard` for a token that
    /// is neither, `IllegalPlay` for no card or naturals of two ranks (§C.4).
    fn from_str(text: &str) -> crate::error::Result<Shape> {
        use crate::error::ZhipaiError;
        let mut shape = Shape { rank: NO_RANK, ..Shape::default() };
        let mut copies = Multiset::EMPTY; // tokens with suits: at most 4 of a card (§C.1)
        for token in text.split_whitespace() {
            let upper = token.to_ascii_uppercase();
            let strength = match upper.as_str() {
                "G" => GUARD_STRENGTH,
                _ => match Rank::parse(&upper) {
                    Some(rank) => rank_strength(rank),
                    None => {
                        let card = token.parse::<Card>()?;
                        copies.try_add(card)?;
                        card_strength(card)
                    }
                },
            };
            // Saturating: a long text must not wrap a count back into range.
            let count = match strength {
                GUARD_STRENGTH => &mut shape.guard,
                BJ_STRENGTH => &mut shape.big,
                SJ_STRENGTH => &mut shape.small,
                s if shape.naturals > 0 && s != shape.rank => {
                    return Err(ZhipaiError::illegal_play(text, TWO_RANKS));
                }
                s => {
                    shape.rank = s;
                    &mut shape.naturals
                }
            };
            *count = count.saturating_add(1);
        }
        if shape.total() == 0 {
            return Err(ZhipaiError::illegal_play(text, "a play has at least one card (§C.4)"));
        }
        let deck = "four decks hold 16 of a rank, 4 SJ and 4 BJ, and one guard card a guard";
        if shape.naturals > MAX_NATURALS as u8
            || shape.small > 4
            || shape.big > 4
            || shape.guard > 1
        {
            return Err(ZhipaiError::invalid_value("play", shape, deck));
        }
        Ok(shape)
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
///
/// Besides the counts it keeps, per count level `c`, the set of natural strengths held at least
/// `c` times (`at_least[c]`, bit `s` = strength `s`), updated by [`HandCounts::remove`]: the number
/// of ranks above a play that hold `n` naturals is then one mask and one popcount, which is what
/// makes counting responses cheap (see [`count`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HandCounts {
    /// `nat[s]` = naturals of strength `s` (0 = `3` … 12 = `2`), up to 16 with four decks.
    nat: [u8; 13],
    small: u8,
    big: u8,
    guard: u8,
    /// Number of cards.
    total: u8,
    /// `at_least[c]` = strengths with `nat[s] >= c`, for `c` in 1..=16 (`at_least[0]` unused).
    at_least: [u16; MAX_NATURALS + 1],
}

/// Most naturals of one rank (four decks × four suits).
const MAX_NATURALS: usize = 16;

impl HandCounts {
    /// Count a hand. `guard_card`: the kind whose copies in this hand are guard cards ranking above
    /// BJ (`guard_card_rank = above_big_joker`, the guard's own hand), else `None`.
    pub fn of(hand: &Multiset, guard_card: Option<Card>) -> HandCounts {
        // One step per natural held (a 43-card hand: ~40 steps), rank from the kind index.
        const STRENGTH: [u8; 52] = {
            let mut t = [0u8; 52];
            let mut k = 0;
            while k < 52 {
                t[k] = ((k % 13 + 12) % 13) as u8; // rank_strength of the kind's rank
                k += 1;
            }
            t
        };
        let mut nat = [0u8; 13];
        for plane in hand.planes() {
            let mut bits = plane & CardSet::SUITED.0;
            while bits != 0 {
                nat[STRENGTH[bits.trailing_zeros() as usize] as usize] += 1;
                bits &= bits - 1;
            }
        }
        let mut small = hand.count(Card::SMALL_JOKER) as u8;
        let mut big = hand.count(Card::BIG_JOKER) as u8;
        let mut guard = 0;
        if let Some(g) = guard_card {
            let k = hand.count(g) as u8;
            match card_strength(g) {
                SJ_STRENGTH => small -= k,
                BJ_STRENGTH => big -= k,
                s => nat[s as usize] -= k,
            }
            guard = k;
        }
        HandCounts::new(nat, small, big, guard)
    }

    /// A hand from its counts: `nat[s]` naturals of strength `s` (each at most 16), `small` SJ,
    /// `big` BJ and `guard` guard cards.
    pub fn new(nat: [u8; 13], small: u8, big: u8, guard: u8) -> HandCounts {
        let mut at_least = [0u16; MAX_NATURALS + 1];
        for (s, &n) in nat.iter().enumerate() {
            for level in &mut at_least[1..=(n as usize).min(MAX_NATURALS)] {
                *level |= 1 << s;
            }
        }
        let total = nat.iter().sum::<u8>() + small + big + guard;
        HandCounts { nat, small, big, guard, total, at_least }
    }

    /// Strengths (bits) held at least once: `count_ones()` is the number of natural groups.
    pub fn ranks_held(&self) -> u16 {
        self.at_least[1]
    }

    /// Naturals per strength (0 = `3` … 12 = `2`).
    pub fn nat(&self) -> &[u8; 13] {
        &self.nat
    }

    /// Small jokers.
    pub fn small(&self) -> u8 {
        self.small
    }

    /// Big jokers (not counting guard cards).
    pub fn big(&self) -> u8 {
        self.big
    }

    /// Guard cards ranking above BJ (`guard_card_rank = above_big_joker`, the guard's hand).
    pub fn guard(&self) -> u8 {
        self.guard
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

    /// What the hand lacks for `shape`, for error messages: `"BJ ×3 (holds 2)"`.
    fn shortfall(&self, s: &Shape) -> String {
        let held_nat = if s.rank < 13 { self.nat[s.rank as usize] } else { 0 };
        let natural =
            if s.naturals > 0 && s.rank < 13 { strength_rank(s.rank).symbol() } else { "" };
        let parts = [
            (natural, s.naturals, held_nat),
            ("SJ", s.small, self.small),
            ("BJ", s.big, self.big),
            ("guard card", s.guard, self.guard),
        ];
        let short: Vec<String> = parts
            .iter()
            .filter(|(_, want, have)| want > have)
            .map(|(name, want, have)| format!("{name} ×{want} (holds {have})"))
            .collect();
        short.join(", ")
    }

    /// Remove the cards of `shape` (the caller checked [`HandCounts::holds`]).
    pub fn remove(&mut self, s: &Shape) {
        if s.naturals > 0 {
            let r = s.rank as usize;
            let old = self.nat[r] as usize;
            let new = old - s.naturals as usize;
            self.nat[r] = new as u8;
            for level in &mut self.at_least[new + 1..=old] {
                *level &= !(1 << r);
            }
        }
        self.small -= s.small;
        self.big -= s.big;
        self.guard -= s.guard;
        self.total -= s.total();
    }

    /// Number of naturals.
    #[inline]
    fn naturals(&self) -> u32 {
        (self.total - self.small - self.big - self.guard) as u32
    }

    /// Strengths above `rank` held at least `n` times.
    #[inline]
    fn ranks_above_with(&self, rank: u8, n: usize) -> u16 {
        self.at_least[n] & above(rank)
    }

    /// Whether the hand holds no top card (SJ, BJ or guard card). After the first few rounds of
    /// a random deal this is ~94% of the responders (random leads spend jokers fast), so move
    /// generation takes a short path for it.
    #[inline]
    fn no_tops(&self) -> bool {
        self.small | self.big | self.guard == 0
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

const TWO_RANKS: &str =
    "naturals of two ranks; a play is n naturals of ONE rank + SJ + BJ, no sequences (§C.4)";

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
        return Err(TWO_RANKS.into());
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
        return Err(format!("not held: {}", hand.shortfall(shape)));
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
    total: u32,
}

impl<'a> Plays<'a> {
    #[inline(always)]
    pub fn new(hand: &'a HandCounts, prev: Option<&Shape>, bombs: bool) -> Plays<'a> {
        let total = match prev {
            None => count_leads(hand),
            Some(p) => count_responses(hand, p, bombs),
        };
        Plays { hand, prev: prev.copied(), bombs, total }
    }

    /// How many legal plays there are.
    #[inline]
    pub fn count(&self) -> u32 {
        self.total
    }

    /// The `k`-th legal play (order of [`enumerate`]), `None` for `k >= count`.
    pub fn nth(&self, k: u32) -> Option<Shape> {
        if k >= self.total {
            return None;
        }
        match &self.prev {
            None => nth_lead(self.hand, k),
            Some(p) => nth_response(self.hand, p, self.bombs, k),
        }
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
    let mut list = Vec::new();
    for_each(hand, prev, bombs, |s| {
        if list.len() >= limit {
            return false;
        }
        list.push(s);
        true
    });
    list
}

/// Visit every legal play in the order of [`enumerate`] without indexing (what the greedy player
/// scans); `visit` returns false to stop.
pub fn for_each(
    hand: &HandCounts,
    prev: Option<&Shape>,
    bombs: bool,
    mut visit: impl FnMut(Shape) -> bool,
) {
    let mut go = true;
    // Every (SJ, BJ, guard) combination held, SJ fastest (the order of `decode_tiers`).
    let mut tiers = |rank: u8, naturals: u8, go: &mut bool| {
        for g in 0..=hand.guard {
            for b in 0..=hand.big {
                for s in 0..=hand.small {
                    if *go && (naturals > 0 || s + b + g > 0) {
                        *go = visit(Shape::natural(rank, naturals, s, b, g));
                    }
                }
            }
        }
    };
    let p = match prev {
        None => {
            for (r, &n) in hand.nat.iter().enumerate() {
                for naturals in 1..=n {
                    tiers(r as u8, naturals, &mut go);
                }
            }
            tiers(NO_RANK, 0, &mut go);
            return;
        }
        Some(p) => p,
    };
    let t = p.total();
    let mut tops = |rank: u8, naturals: u8, go: &mut bool| {
        top_ways(hand, p, t - naturals, |g, lo, size| {
            for big in lo..lo + size as u8 {
                *go = *go && visit(Shape::natural(rank, naturals, t - naturals - g - big, big, g));
            }
            !*go
        });
    };
    if same_size_beats_possible(hand, p) {
        if p.naturals > 0 {
            for r in p.rank + 1..13 {
                for n in natural_counts(hand, p) {
                    if go && n <= hand.nat[r as usize] as usize {
                        tops(r, n as u8, &mut go);
                    }
                }
            }
        }
        if go {
            tops(NO_RANK, 0, &mut go);
        }
    }
    if go && bombs && t < hand.total {
        bomb_blocks(hand, p, |r, lo, size| {
            for naturals in lo..lo + size as u8 {
                go = go && visit(Shape::natural(r, naturals, 0, 0, 0));
            }
            !go
        });
    }
}

/// Leads: every count of naturals of every rank with every top-card combination, plus the
/// top-card combinations alone.
#[inline(always)]
fn count_leads(hand: &HandCounts) -> u32 {
    hand.naturals() * hand.tier_combos() + hand.tier_combos() - 1
}

fn nth_lead(hand: &HandCounts, k: u32) -> Option<Shape> {
    if hand.no_tops() {
        return nth_natural(hand, k).map(|(r, n)| Shape::natural(r, n, 0, 0, 0));
    }
    let per = hand.tier_combos();
    let naturals = hand.naturals();
    if k < naturals * per {
        let (s, b, g) = hand.decode_tiers(k % per);
        nth_natural(hand, k / per).map(|(r, n)| Shape::natural(r, n, s, b, g))
    } else if k < naturals * per + per - 1 {
        let (s, b, g) = hand.decode_tiers(k - naturals * per + 1);
        Some(Shape::natural(NO_RANK, 0, s, b, g))
    } else {
        None
    }
}

/// The `idx`-th (rank, count) pair of naturals a lead may hold, ranks ascending then counts 1..:
/// the rank of the `idx`-th natural in rank order and its place within that rank.
#[inline]
fn nth_natural(hand: &HandCounts, mut idx: u32) -> Option<(u8, u8)> {
    for (r, &n) in hand.nat.iter().enumerate() {
        if idx < n as u32 {
            return Some((r as u8, idx as u8 + 1));
        }
        idx -= n as u32;
    }
    None
}

// ----- responses --------------------------------------------------------------------------------
//
// A same-size beat of `p` (T cards) is n naturals of one rank above p's plus m = T − n top cards
// (SJ, BJ, guard cards) meeting the top-card constraints of [`beats`]. The number of ways W(m) to
// pick the top cards does not depend on the rank, and is 0 once m exceeds the top cards held (J),
// so only n in `natural_counts` = max(1, T − J) ..= p.naturals matter. Responses are therefore
//   Σ_n W(T − n) · #(ranks above p's holding ≥ n naturals)  +  W(T) (joker-only)  +  bombs,
// a handful of popcounts on `HandCounts::at_least` per decision.

/// Whether a same-size beat of `p` can exist at all: `p` has a top card below the guard card,
/// no more cards than the hand, and the hand has a guard card per BJ of `p` and a BJ or guard card
/// per SJ or BJ of `p`.
#[inline]
fn same_size_beats_possible(hand: &HandCounts, p: &Shape) -> bool {
    let t = p.total();
    t > 0
        && t <= hand.total
        && p.guard == 0
        && p.big <= hand.guard
        && p.small + p.big <= hand.big + hand.guard
}

/// The counts of naturals `n` a same-size beat of `p` may hold (empty unless `p` has naturals).
#[inline]
fn natural_counts(hand: &HandCounts, p: &Shape) -> std::ops::RangeInclusive<usize> {
    let tops = (hand.small + hand.big + hand.guard) as usize;
    let lo = (p.total() as usize).saturating_sub(tops).max(1);
    lo..=(p.naturals as usize).min(MAX_NATURALS)
}

/// W(m): ways to pick `m` top cards beating the top positions of `p`, in blocks of one guard
/// count `g` (ascending) with BJ counts `lo..lo + size` (the SJ make up the rest);
/// `visit(g, lo, size)` returns true to stop, and the count so far is returned.
#[inline]
fn top_ways(
    hand: &HandCounts,
    p: &Shape,
    m: u8,
    mut visit: impl FnMut(u8, u8, u32) -> bool,
) -> u32 {
    let need_top = p.small + p.big;
    let mut total = 0;
    for g in p.big..=hand.guard.min(m) {
        let lo = need_top.saturating_sub(g).max((m - g).saturating_sub(hand.small));
        let hi = hand.big.min(m - g);
        if lo <= hi {
            let size = (hi - lo + 1) as u32;
            if visit(g, lo, size) {
                return total;
            }
            total += size;
        }
    }
    total
}

/// W(m) alone. Without guard cards (every hand but an `above_big_joker` guard's) there is one
/// block in closed form: BJ from max(p's SJ, m − SJ held) to min(BJ held, m).
#[inline]
fn ways(hand: &HandCounts, p: &Shape, m: u8) -> u32 {
    if hand.guard == 0 {
        // p.big == 0 here: `same_size_beats_possible` needs a guard card per BJ of p.
        let lo = p.small.max(m.saturating_sub(hand.small));
        let hi = hand.big.min(m);
        return if lo <= hi { (hi - lo + 1) as u32 } else { 0 };
    }
    top_ways(hand, p, m, |_, _, _| false)
}

/// Natural strengths strictly above `rank` (none above `2`, nor above `NO_RANK`).
#[inline]
fn above(rank: u8) -> u16 {
    (0x1fff_u32 & !((2_u32 << rank) - 1)) as u16
}

/// Plays of a hand without top cards that beat `p` at its own size: `T` naturals of a higher
/// rank, possible only when `p` has no jokers (a natural never beats a top card). Bit `s` =
/// strength `s`; the responses are one per bit, in rank order.
#[inline]
fn plain_beats(hand: &HandCounts, p: &Shape) -> u16 {
    if p.naturals == 0 || p.jokers() > 0 {
        return 0;
    }
    hand.ranks_above_with(p.rank, p.naturals as usize)
}

/// Set bits of a 16-bit mask by table: the portable x86-64 target has no `popcnt` instruction,
/// and the software fallback of `count_ones` costs about twice as many instructions.
#[inline]
fn popcount16(x: u16) -> u32 {
    const TABLE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        t
    };
    (TABLE[(x & 0xff) as usize] + TABLE[(x >> 8) as usize]) as u32
}

/// The `k`-th way to pick `m` top cards (order of [`top_ways`]) with `naturals` of `rank`.
fn decode_tops(hand: &HandCounts, p: &Shape, rank: u8, naturals: u8, m: u8, k: u32) -> Shape {
    let mut left = k;
    let mut shape = Shape::default();
    top_ways(hand, p, m, |g, lo, size| {
        if left < size {
            let big = lo + left as u8;
            shape = Shape::natural(rank, naturals, m - g - big, big, g);
            return true;
        }
        left -= size;
        false
    });
    shape
}

/// Bombs (`bombs = on`) beating `p`: rank by rank, `lo..` naturals with `lo = max(4, T + 1)`;
/// `visit(rank, lo, size)` returns true to stop.
fn bomb_blocks(hand: &HandCounts, p: &Shape, mut visit: impl FnMut(u8, u8, u32) -> bool) -> u32 {
    let lo = 4.max(p.total() + 1);
    let mut total = 0;
    for (r, &n) in hand.nat.iter().enumerate() {
        if n >= lo {
            let size = (n - lo + 1) as u32;
            if visit(r as u8, lo, size) {
                return total;
            }
            total += size;
        }
    }
    total
}

/// Number of plays of `hand` that beat `p` (see the section comment).
#[inline(always)]
fn count_responses(hand: &HandCounts, p: &Shape, bombs: bool) -> u32 {
    let t = p.total();
    let mut total = 0;
    if hand.no_tops() {
        total = popcount16(plain_beats(hand, p));
    } else if same_size_beats_possible(hand, p) {
        if p.naturals > 0 && hand.ranks_above_with(p.rank, 1) != 0 {
            for n in natural_counts(hand, p) {
                let ranks = popcount16(hand.ranks_above_with(p.rank, n));
                if ranks == 0 {
                    break; // fewer ranks hold more naturals
                }
                total += ranks * ways(hand, p, t - n as u8);
            }
        }
        total += ways(hand, p, t);
    }
    if bombs && t < hand.total {
        total += bomb_blocks(hand, p, |_, _, _| false);
    }
    total
}

/// The `k`-th response to `p` (order of [`enumerate`]; `k` below [`count_responses`]).
fn nth_response(hand: &HandCounts, p: &Shape, bombs: bool, mut k: u32) -> Option<Shape> {
    let t = p.total();
    if hand.no_tops() {
        // Same order as below: ranks ascending, one play (T naturals) each.
        let mut ranks = plain_beats(hand, p);
        let n = popcount16(ranks);
        if k < n {
            for _ in 0..k {
                ranks &= ranks - 1;
            }
            return Some(Shape::natural(ranks.trailing_zeros() as u8, t, 0, 0, 0));
        }
        k -= n;
    } else if same_size_beats_possible(hand, p) {
        if p.naturals > 0 {
            let counts = natural_counts(hand, p);
            let (lo, hi) = (*counts.start(), *counts.end());
            // prefix[n] = responses of one rank with lo..=n naturals.
            let mut prefix = [0u32; MAX_NATURALS + 1];
            for n in lo..=hi {
                prefix[n] = prefix[n - 1] + ways(hand, p, t - n as u8);
            }
            // Only ranks above p's holding at least `lo` naturals have responses.
            let mut ranks = if lo <= hi { hand.ranks_above_with(p.rank, lo) } else { 0 };
            while ranks != 0 {
                let r = ranks.trailing_zeros() as u8;
                ranks &= ranks - 1;
                let most = (hand.nat[r as usize] as usize).min(hi);
                if k >= prefix[most] {
                    k -= prefix[most];
                    continue;
                }
                let n = (lo..=most).find(|&n| k < prefix[n]).expect("k below the rank's total");
                let m = t - n as u8;
                return Some(decode_tops(hand, p, r, n as u8, m, k - prefix[n - 1]));
            }
        }
        let w = ways(hand, p, t);
        if k < w {
            return Some(decode_tops(hand, p, NO_RANK, 0, t, k));
        }
        k -= w;
    }
    let mut found = None;
    if bombs && t < hand.total {
        bomb_blocks(hand, p, |r, lo, size| {
            if k < size {
                found = Some(Shape::natural(r, lo + k as u8, 0, 0, 0));
                return true;
            }
            k -= size;
            false
        });
    }
    found
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
    fn counting_a_hand_matches_its_counts() {
        // 9S ×4, 9H ×3, KD, SJ ×2, BJ; 9 has strength 6, K strength 10.
        let hand: Multiset = "9S 9S 9S 9S 9H 9H 9H KD SJ SJ BJ".parse().unwrap();
        let mut nat = [0u8; 13];
        nat[6] = 7;
        nat[10] = 1;
        assert_eq!(HandCounts::of(&hand, None), HandCounts::new(nat, 2, 1, 0));
        // With 9H as guard card (above_big_joker): three guard cards, four natural 9s.
        nat[6] = 4;
        let g = "9H".parse().unwrap();
        assert_eq!(HandCounts::of(&hand, Some(g)), HandCounts::new(nat, 2, 1, 3));
        let g = "SJ".parse().unwrap();
        nat[6] = 7;
        assert_eq!(HandCounts::of(&hand, Some(g)), HandCounts::new(nat, 0, 1, 2));
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
    fn shapes_parse_with_or_without_suits_and_round_trip() {
        for text in ["BJ SJ 9 9 9", "G BJ", "SJ", "10 10", "2 2 2 2"] {
            let s: Shape = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
        }
        assert_eq!("BJ 9S 9H".parse::<Shape>().unwrap(), shape("BJ 9S 9H"));
        assert_eq!("bj 9 9".parse::<Shape>().unwrap(), shape("BJ 9S 9H"));
        assert!("9 8".parse::<Shape>().unwrap_err().to_string().contains("two ranks"));
        assert!("".parse::<Shape>().is_err());
        for impossible in ["SJ SJ SJ SJ SJ", "9S 9S 9S 9S 9S", "G G", &"9 ".repeat(17)] {
            assert!(impossible.parse::<Shape>().is_err(), "{impossible}");
        }
        assert!("9 ".repeat(16).parse::<Shape>().is_ok());
        assert!("9 ".repeat(256 + 3).parse::<Shape>().is_err(), "no wrap-around");
        assert!(matches!(
            "9 X1".parse::<Shape>(),
            Err(crate::error::ZhipaiError::InvalidCard { .. })
        ));
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
        // Mostly hand-sized counts, sometimes up to the 16 naturals of one rank in four decks.
        let nat = prop_oneof![
            3 => proptest::collection::vec(0u8..=6, 13),
            1 => proptest::collection::vec(0u8..=16, 13),
        ];
        // A third without top cards: the short path most random responders take.
        let tops = prop_oneof![
            2 => (0u8..=4, 0u8..=4, 0u8..=1),
            1 => Just((0, 0, 0)),
        ];
        (nat, tops).prop_map(|(nat, (small, big, guard))| {
            HandCounts::new(nat.try_into().expect("13 ranks"), small, big, guard)
        })
    }

    fn arb_shape() -> impl Strategy<Value = Shape> {
        (0u8..=13, 0u8..=9, 0u8..=4, 0u8..=2, 0u8..=1).prop_filter_map(
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
            for (k, s) in list.iter().enumerate() {
                prop_assert_eq!(Some(*s), nth(&h, p.as_ref(), bombs, k as u32), "play {}", k);
            }
            prop_assert_eq!(nth(&h, p.as_ref(), bombs, list.len() as u32), None);
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
            let mut rng = crate::deal::deal_rng(seed, 0);
            match sample(&h, p.as_ref(), bombs, &mut rng) {
                Some(s) => prop_assert!(list.contains(&s)),
                None => prop_assert!(list.is_empty()),
            }
        }

        /// Removing plays keeps the derived count levels equal to counting afresh.
        #[test]
        fn remove_keeps_counts_consistent(h in arb_counts(), seed in any::<u64>()) {
            let mut h = h;
            let mut rng = crate::deal::deal_rng(seed, 0);
            while let Some(s) = sample(&h, None, false, &mut rng) {
                h.remove(&s);
                prop_assert_eq!(h, HandCounts::new(*h.nat(), h.small(), h.big(), h.guard()));
            }
            prop_assert!(h.is_empty());
        }
    }
}
