//! Following a lead (shengji.md §5; hongwu.md §B.8): legality with a reason, and the legal plays
//! enumerated, counted and sampled uniformly.
//!
//! A follow of an n-card lead in effective suit s has two parts: the s-cards (F1: exactly
//! min(n, |H_s|) of them) and, when the hand runs out of s, any other cards. Structure (F2) is
//! judged by a *structure score*: the lead's units are matched, bigger first, against a set of
//! s-cards, each match scored by the rule's ladder (tractor: run length; triple; the 3-deck
//! Titanic ladder of S004), followed by the number of pairs (capped by the lead's pairs). A play
//! is legal iff its s-cards score at least as high (lexicographically) as the whole of H_s:
//! the follower must match the lead's structure as far as the hand allows.
//!
//! Counting multiplies the number of legal s-parts by the number of discard multisets, which is
//! counted by dynamic programming and sampled by unranking, never enumerated.

use super::rules::{ShapeObligation, ThrowFollow, TrickRules};
use crate::cards::{format_cards, Card, CardSet};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::sample::{below, nth_card};
use crate::tricks::combos::{for_each_run, Format};
use crate::tricks::order::MAX_INDEX;
use rand::Rng;
use std::cmp::Ordering;
use std::fmt;
use std::ops::ControlFlow;

/// Why a follow is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FollowError {
    /// The play has the wrong number of cards.
    WrongCount { need: usize, got: usize },
    /// The follower does not hold these cards (listed).
    NotHeld(String),
    /// F1: this many cards of the led suit must be played.
    MustFollowSuit { need: usize, got: usize },
    /// F2: the lead's structure (pairs, tractors, triples) is not matched as far as possible.
    Structure,
}

impl fmt::Display for FollowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FollowError::WrongCount { need, got } => {
                write!(
                    f,
                    "the lead has {need} card{}, the play {got}",
                    if *need == 1 { "" } else { "s" }
                )
            }
            FollowError::NotHeld(c) => write!(f, "the follower does not hold {c}"),
            FollowError::MustFollowSuit { need, got } => write!(
                f,
                "{need} cards of the led suit must be played, not {got} (shengji.md §5 F1)"
            ),
            FollowError::Structure => f.write_str(
                "the lead's pairs/tractors/triples must be matched as far as the hand allows \
                 (shengji.md §5 F2)",
            ),
        }
    }
}

const MAX_SCORE: usize = 66;

/// A structure score (module docs): compared lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    len: u8,
    v: [u16; MAX_SCORE],
}

impl Score {
    fn new() -> Score {
        Score { len: 0, v: [0; MAX_SCORE] }
    }
    fn push(&mut self, x: u16) {
        if (self.len as usize) < MAX_SCORE {
            self.v[self.len as usize] = x;
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[u16] {
        &self.v[..self.len as usize]
    }
    fn is_zero(&self) -> bool {
        self.as_slice().iter().all(|&x| x == 0)
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.as_slice().cmp(other.as_slice()))
    }
}

/// Kinds of suit `s` in `rem` usable as units of multiplicity `m` (with `protected`, pairs come
/// only from kinds held exactly twice).
fn avail(tr: &TrickRules, s: usize, rem: &Multiset, m: u8, protected: bool) -> CardSet {
    let set = if protected && m == 2 { rem.exactly(2) } else { rem.at_least(m as usize) };
    set.intersect(tr.order.suit_mask(s))
}

/// Among the maximal runs of `mask`, the shortest one of length ≥ k (taken from its low end), or
/// else the longest: `(low, len)` with `len ≤ k`.
fn best_fit(mask: u32, links: u32, k: usize) -> Option<(usize, usize)> {
    let mut fit: Option<(usize, usize)> = None;
    let mut longest: Option<(usize, usize)> = None;
    for_each_run(mask, links, |low, len| {
        if len >= k && !matches!(fit, Some((_, l)) if l <= len) {
            fit = Some((low, len));
        }
        if !matches!(longest, Some((_, l)) if l >= len) {
            longest = Some((low, len));
        }
    });
    fit.map(|(low, _)| (low, k)).or(longest)
}

/// Remove `m` copies of one usable kind at each index `low..low+len`.
fn take_run(
    tr: &TrickRules,
    s: usize,
    rem: &mut Multiset,
    set: CardSet,
    low: usize,
    len: usize,
    m: u8,
) {
    for i in low..low + len {
        if let Some(c) = set.intersect(tr.order.kinds_at(s, i)).first() {
            for _ in 0..m {
                rem.remove(c);
            }
        }
    }
}

/// Remove `n` units of multiplicity `m` (lowest kinds first); returns how many were taken.
fn take_any(rem: &mut Multiset, set: CardSet, n: usize, m: u8) -> usize {
    let mut taken = 0;
    for c in set {
        if taken == n {
            break;
        }
        for _ in 0..m {
            rem.remove(c);
        }
        taken += 1;
    }
    taken
}

/// Number of pairs in `cards` of suit `s` (a kind held 3 times gives one pair). `protected`
/// (`longer_tuples_protected`): a kind held more than twice counts only up to the triple units
/// of `lead` — protection spares a triple from being drawn as a pair, but where the lead asks
/// for a triple, the triple played for it holds that unit's pair.
fn pairs_in(tr: &TrickRules, lead: &Format, cards: &Multiset, protected: bool) -> usize {
    let mask = tr.order.suit_mask(lead.suit as usize);
    if protected {
        let triples = lead.units.iter().filter(|u| u.mult == 3).map(|u| u.len as usize).sum();
        let longer = (cards.at_least(3).intersect(mask).len() as usize).min(triples);
        cards.exactly(2).intersect(mask).len() as usize + longer
    } else {
        (cards.at_least(2).intersect(mask).len() + cards.at_least(4).intersect(mask).len()) as usize
    }
}

/// The score of a follow's s-cards: [`structure_score`] whose pair count is protected too under
/// `longer_tuple_stands_in = false` (RB's reading): a tuple played whole then counts as a pair
/// only where the lead asks for a tuple of its size, so it cannot stand in for the pair of a
/// throw while the follower keeps a real pair (whose protected count requires it).
fn play_score(tr: &TrickRules, lead: &Format, play_s: &Multiset) -> Score {
    let count_protected = tr.longer_tuples_protected && !tr.longer_tuple_stands_in;
    structure_score(tr, lead, play_s, false, count_protected)
}

/// The structure score of `cards` (s-cards only) against `lead` (module docs). `protected`
/// applies `longer_tuples_protected` to the matching of tractors and Titanics, `count_protected`
/// to the final pair count (both for the follower's whole holding; see [`play_score`]).
pub fn structure_score(
    tr: &TrickRules,
    lead: &Format,
    cards: &Multiset,
    protected: bool,
    count_protected: bool,
) -> Score {
    let mut sc = Score::new();
    if tr.follow_shape_obligation == ShapeObligation::SuitOnly {
        return sc;
    }
    let s = lead.suit as usize;
    let links = tr.order.links(s);
    let mut rem = *cards;
    let pair_count_only =
        lead.is_throw() && tr.follow_throw_structure == ThrowFollow::PairCountOnly;
    if !pair_count_only {
        for u in lead.units.iter() {
            let k = u.len as usize;
            match (u.mult, u.len) {
                (1, _) | (2, 1) => {}
                (2, _) => {
                    let set = avail(tr, s, &rem, 2, protected);
                    let mask = tr.order.index_mask(s, set);
                    match best_fit(mask, links, k) {
                        Some((low, len)) if len >= 2 && (len == k || tr.partial_tractor_follow) => {
                            take_run(tr, s, &mut rem, set, low, len, 2);
                            sc.push(len as u16);
                        }
                        _ => sc.push(0),
                    }
                }
                (_, 1) => {
                    let set = avail(tr, s, &rem, 3, false);
                    sc.push(take_any(&mut rem, set, 1, 3) as u16);
                }
                _ => sc.push(titanic_level(tr, s, &mut rem, k, protected)),
            }
        }
    }
    sc.push(lead.pair_count().min(pairs_in(tr, lead, cards, count_protected)) as u16);
    sc
}

/// The S004 ladder for a Titanic lead of length k (quoted for k = 2): Titanic > k triples >
/// a k-pair tractor > then (triples, pairs) lexicographically. Takes the matched cards.
fn titanic_level(tr: &TrickRules, s: usize, rem: &mut Multiset, k: usize, protected: bool) -> u16 {
    let links = tr.order.links(s);
    let triples = avail(tr, s, rem, 3, false);
    let mask3 = tr.order.index_mask(s, triples);
    if let Some((low, len)) = best_fit(mask3, links, k) {
        if len == k {
            take_run(tr, s, rem, triples, low, k, 3);
            return 4000;
        }
    }
    if triples.len() as usize >= k {
        take_any(rem, triples, k, 3);
        return 3000;
    }
    let pairs = avail(tr, s, rem, 2, protected);
    if let Some((low, len)) = best_fit(tr.order.index_mask(s, pairs), links, k) {
        if len == k {
            take_run(tr, s, rem, pairs, low, k, 2);
            return 2000;
        }
    }
    let t = take_any(rem, triples, k - 1, 3);
    let room = (3 * k - 3 * t) / 2;
    let pairs = avail(tr, s, rem, 2, protected);
    let p = take_any(rem, pairs, room, 2);
    (t * 64 + p) as u16
}

/// Check the follow `play` of `lead` from `hand` (shengji.md §5 F1–F2; hongwu.md §B.8).
pub fn check_follow(
    tr: &TrickRules,
    lead: &Format,
    hand: &Multiset,
    play: &Multiset,
) -> std::result::Result<(), FollowError> {
    let n = lead.cards as usize;
    if play.len() != n {
        return Err(FollowError::WrongCount { need: n, got: play.len() });
    }
    if !hand.contains_all(play) {
        return Err(FollowError::NotHeld(format_cards(&hand.missing_from(play))));
    }
    let mask = tr.order.suit_mask(lead.suit as usize);
    let hand_s = hand.restrict(mask);
    let play_s = play.restrict(mask);
    let need = n.min(hand_s.len());
    if play_s.len() != need {
        return Err(FollowError::MustFollowSuit { need, got: play_s.len() });
    }
    if hand_s.len() > n {
        let p = tr.longer_tuples_protected;
        let required = structure_score(tr, lead, &hand_s, p, p);
        if play_score(tr, lead, &play_s) < required {
            return Err(FollowError::Structure);
        }
    }
    Ok(())
}

/// Distinct kinds of `m` with their counts, in kind order (stack buffer).
#[derive(Clone, Copy)]
struct Items {
    len: usize,
    card: [Card; 54],
    count: [u8; 54],
    /// suffix[j] = cards in items j.. (≤ 4 × 54 = 216, a byte).
    suffix: [u8; 55],
}

impl Items {
    fn of(m: &Multiset) -> Items {
        let mut it =
            Items { len: 0, card: [Card::SMALL_JOKER; 54], count: [0; 54], suffix: [0; 55] };
        for c in m.kinds() {
            it.card[it.len] = c;
            it.count[it.len] = m.count(c) as u8;
            it.len += 1;
        }
        for j in (0..it.len).rev() {
            it.suffix[j] = it.suffix[j + 1] + it.count[j];
        }
        it
    }

    /// Call `f` on every sub-multiset of size `k` (in a fixed order) until it breaks.
    fn for_each(
        &self,
        k: usize,
        f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut cur = Multiset::EMPTY;
        self.rec(0, k, &mut cur, f)
    }

    fn rec(
        &self,
        j: usize,
        k: usize,
        cur: &mut Multiset,
        f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if k == 0 {
            return f(cur);
        }
        if j == self.len || (self.suffix[j] as usize) < k {
            return ControlFlow::Continue(());
        }
        let c = self.card[j];
        let most = (self.count[j] as usize).min(k);
        for t in (0..=most).rev() {
            for _ in 0..t {
                cur.add(c);
            }
            let r = self.rec(j + 1, k - t, cur, f);
            for _ in 0..t {
                cur.remove(c);
            }
            r?;
        }
        ControlFlow::Continue(())
    }

    /// Number of sub-multisets of size `k` (one rolling row of dynamic programming).
    fn count(&self, k: usize) -> u64 {
        if k > self.suffix[0] as usize {
            return 0;
        }
        let mut ways = [0u64; 64];
        if k >= ways.len() {
            return u64::MAX; // more cards than any hand holds: saturate
        }
        ways[0] = 1;
        for j in 0..self.len {
            let cnt = self.count[j] as usize;
            for r in (1..=k).rev() {
                let mut s = ways[r];
                for c in 1..=cnt.min(r) {
                    s = s.saturating_add(ways[r - c]);
                }
                ways[r] = s;
            }
        }
        ways[k]
    }

    /// The sub-multiset of size `k` with rank `rank` (0-based) in the order of
    /// [`Items::for_each`]; the suffix counts go in a small stack table for small `k`.
    fn unrank(&self, k: usize, rank: u64) -> Multiset {
        // The table is zeroed on every call: size it to the items (≤ 18 kinds in one effective
        // suit, the common case) and to k.
        match (k < 8, self.len < 20) {
            (true, true) => self.unrank_with::<8, 20>(k, rank),
            (true, false) => self.unrank_with::<8, 55>(k, rank),
            _ if k < 24 && self.len < 20 => self.unrank_with::<24, 20>(k, rank),
            _ if k < 24 => self.unrank_with::<24, 55>(k, rank),
            _ => self.unrank_with::<64, 55>(k.min(63), rank),
        }
    }

    fn unrank_with<const K: usize, const R: usize>(&self, k: usize, mut rank: u64) -> Multiset {
        // t[j][r] = sub-multisets of size r of items j.. (rows 0..=len < R).
        let mut t = [[0u64; K]; R];
        t[self.len][0] = 1;
        for j in (0..self.len).rev() {
            for r in 0..=k {
                let mut s = 0u64;
                for c in 0..=(self.count[j] as usize).min(r) {
                    s = s.saturating_add(t[j + 1][r - c]);
                }
                t[j][r] = s;
            }
        }
        let mut out = Multiset::EMPTY;
        let mut left = k;
        for j in 0..self.len {
            let most = (self.count[j] as usize).min(left);
            for c in (0..=most).rev() {
                let ways = t[j + 1][left - c];
                if rank < ways {
                    for _ in 0..c {
                        out.add(self.card[j]);
                    }
                    left -= c;
                    break;
                }
                rank -= ways;
            }
        }
        out
    }
}

/// The legal follows of one lead from one hand: check, enumerate, count and sample (all
/// consistent: every enumerated play is legal, the count is the number enumerated, the sample is
/// uniform over the same set of card multisets).
pub struct FollowMoves<'a> {
    tr: &'a TrickRules,
    lead: &'a Format,
    hand: Multiset,
    hand_s: Multiset,
    other: Multiset,
    /// Cards of the led suit to play.
    ks: usize,
    required: Score,
    /// The lead is one unit the follower can match exactly: the legal plays are exactly the
    /// units of that shape in the hand (fast path; same set as the score filter).
    exact_unit: bool,
}

impl<'a> FollowMoves<'a> {
    /// Prepare for `hand` following `lead`. Errors with `InvalidValue` when the hand holds fewer
    /// cards than the lead.
    pub fn new(tr: &'a TrickRules, lead: &'a Format, hand: &Multiset) -> Result<FollowMoves<'a>> {
        let n = lead.cards as usize;
        if hand.len() < n {
            return Err(ZhipaiError::invalid_value(
                "hand",
                hand,
                format!("holds {} card(s), fewer than the {n} led", hand.len()),
            ));
        }
        let mask = tr.order.suit_mask(lead.suit as usize);
        let hand_s = hand.restrict(mask);
        let ks = n.min(hand_s.len());
        let required = if hand_s.len() > n {
            let p = tr.longer_tuples_protected;
            structure_score(tr, lead, &hand_s, p, p)
        } else {
            Score::new()
        };
        let exact_unit = hand_s.len() > n
            && tr.follow_shape_obligation == ShapeObligation::Standard
            && lead.units.len() == 1
            && lead.largest().mult >= 2
            && required == structure_score(tr, lead, &lead.largest().to_multiset(), false, false);
        Ok(FollowMoves {
            tr,
            lead,
            hand: *hand,
            hand_s,
            other: hand.restrict(!mask),
            ks,
            required,
            exact_unit,
        })
    }

    /// Whether `play` is legal, with the reason when not.
    pub fn check(&self, play: &Multiset) -> std::result::Result<(), FollowError> {
        check_follow(self.tr, self.lead, &self.hand, play)
    }

    fn discards(&self) -> usize {
        self.lead.cards as usize - self.ks
    }

    fn suit_forced(&self) -> bool {
        self.ks == self.hand_s.len()
    }

    /// Call `f` on every legal s-part.
    fn for_each_suit_part(
        &self,
        f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.suit_forced() {
            return f(&self.hand_s);
        }
        if self.exact_unit {
            let u = self.lead.largest();
            return super::lead::for_each_unit_of(
                self.tr,
                &self.hand_s,
                u.suit as usize,
                u.mult,
                u.len as usize,
                &mut |unit| f(&unit.to_multiset()),
            );
        }
        let trivial = self.required.is_zero();
        Items::of(&self.hand_s).for_each(self.ks, &mut |part| {
            if trivial || play_score(self.tr, self.lead, part) >= self.required {
                f(part)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// Call `f` on every legal play, in a deterministic order, until it breaks.
    pub fn for_each(&self, f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>) {
        let r = self.discards();
        let other = Items::of(&self.other);
        let _ = self.for_each_suit_part(&mut |part| {
            if r == 0 {
                return f(part);
            }
            let part = *part;
            other.for_each(r, &mut |d| {
                let mut play = part;
                for c in d.iter() {
                    play.add(c);
                }
                f(&play)
            })
        });
    }

    /// The cards some legal play containing `building` adds beyond it, as a mask of card kinds
    /// (a follow built card by card; 0 when no legal play contains `building`). The same as the
    /// union over [`FollowMoves::for_each`], without listing the discards: a play is a legal
    /// s-part plus any `r` cards off the led suit, so only the s-parts are enumerated (and not
    /// even those when the structure puts no constraint on them). A void follower of a long
    /// throw has billions of legal plays (3 decks: 12 of 39 cards), which the union cannot list.
    pub fn extension_mask(&self, building: &Multiset) -> u64 {
        let mask = self.tr.order.suit_mask(self.lead.suit as usize);
        let (b_s, b_o) = (building.restrict(mask), building.restrict(!mask));
        let r = self.discards();
        if b_o.len() > r || !self.other.contains_all(&b_o) || !self.hand_s.contains_all(&b_s) {
            return 0;
        }
        let more = |m: &Multiset, base: &Multiset| m.more_than(base).0;
        let mut bits = 0u64;
        if self.suit_forced() || self.required.is_zero() && !self.exact_unit {
            // Every `ks`-card part of the suit holding is legal (or the whole holding is forced).
            if b_s.len() > self.ks {
                return 0;
            }
            if b_s.len() < self.ks {
                bits = more(&self.hand_s, &b_s);
            }
        } else {
            let mut any = false;
            let _ = self.for_each_suit_part(&mut |part| {
                if part.contains_all(&b_s) {
                    any = true;
                    bits |= more(part, &b_s);
                }
                ControlFlow::Continue(())
            });
            if !any {
                return 0;
            }
        }
        if b_o.len() < r {
            bits |= more(&self.other, &b_o);
        }
        bits
    }

    /// Up to `limit` legal plays, in the order of [`FollowMoves::for_each`].
    pub fn enumerate(&self, limit: usize) -> Vec<Multiset> {
        let mut out = Vec::new();
        if limit == 0 {
            return out;
        }
        self.for_each(&mut |p| {
            out.push(*p);
            if out.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        out
    }

    /// Number of legal s-parts.
    fn suit_part_count(&self) -> u64 {
        if self.suit_forced() {
            return 1;
        }
        if self.required.is_zero() {
            return Items::of(&self.hand_s).count(self.ks);
        }
        let mut n = 0u64;
        let _ = self.for_each_suit_part(&mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Number of legal plays (distinct card multisets), saturating at `u64::MAX`.
    pub fn count(&self) -> u64 {
        let d = Items::of(&self.other).count(self.discards());
        self.suit_part_count().saturating_mul(d)
    }

    /// One legal play drawn uniformly from the legal card multisets.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Multiset {
        let part = if self.suit_forced() {
            self.hand_s
        } else if self.required.is_zero() {
            let items = Items::of(&self.hand_s);
            let n = items.count(self.ks);
            items.unrank(self.ks, rng.random_range(0..n.max(1)))
        } else {
            // One enumeration counts the legal parts and keeps the first few, so the pick is
            // usually read back without a second enumeration.
            let mut first = [Multiset::EMPTY; 64];
            let mut n = 0u64;
            let _ = self.for_each_suit_part(&mut |p| {
                if let Some(slot) = first.get_mut(n as usize) {
                    *slot = *p;
                }
                n += 1;
                ControlFlow::Continue(())
            });
            // Never 0 (some follow is always legal: tested); `max(1)` keeps a bug from panicking.
            let mut pick = rng.random_range(0..n.max(1));
            match first.get(pick as usize) {
                Some(part) => *part,
                None => {
                    let mut chosen = Multiset::EMPTY;
                    let _ = self.for_each_suit_part(&mut |p| {
                        if pick == 0 {
                            chosen = *p;
                            return ControlFlow::Break(());
                        }
                        pick -= 1;
                        ControlFlow::Continue(())
                    });
                    chosen
                }
            }
        };
        let mut play = part;
        for c in sample_discards(&self.other, self.discards(), rng).iter() {
            play.add(c);
        }
        play
    }
}

/// `r` cards drawn uniformly from the distinct `r`-card multisets of `other` (the discards of a
/// follower out of the led suit); one kind when `r = 1`; for `r = 2`, one draw over the ordered
/// choices, where each pair XX and each two-kind set {X, Y} appears exactly twice.
fn sample_discards<R: Rng + ?Sized>(other: &Multiset, r: usize, rng: &mut R) -> Multiset {
    let kinds = other.kinds();
    let (k, p) = (kinds.len(), other.pairs().len());
    match r {
        0 => Multiset::EMPTY,
        1 if k >= 1 => Multiset::from_set(CardSet::single(nth_card(kinds, below(rng, k)))),
        2 if k >= 2 || p >= 1 => {
            let x = below(rng, 2 * p + k * k.saturating_sub(1));
            let mut two = Multiset::EMPTY;
            if x < 2 * p {
                let c = nth_card(other.pairs(), x / 2);
                two.add(c);
                two.add(c);
            } else {
                let z = x - 2 * p;
                let (a, mut b) = (z / (k - 1), z % (k - 1));
                if b >= a {
                    b += 1;
                }
                two.add(nth_card(kinds, a));
                two.add(nth_card(kinds, b));
            }
            two
        }
        _ => {
            let items = Items::of(other);
            let n = items.count(r).max(1);
            items.unrank(r, rng.random_range(0..n))
        }
    }
}

/// One legal follow of `lead` from `hand`, drawn uniformly from the legal card multisets: the
/// distribution of [`FollowMoves::sample`], with fast paths that build no tables for the common
/// leads of random play — a single card (a held kind of the led suit, else any held kind) and a
/// pair (a pair of the led suit when one is held and the structure must be matched; two distinct
/// kinds of the suit when the suit holds no pair; the whole suit plus one discard when it holds
/// two cards or one). Other leads go through [`FollowMoves`]. Errors as [`FollowMoves::new`].
#[inline(always)]
pub fn sample_follow<R: Rng + ?Sized>(
    tr: &TrickRules,
    lead: &Format,
    hand: &Multiset,
    rng: &mut R,
) -> Result<Multiset> {
    let mask = tr.order.suit_mask(lead.suit as usize);
    if lead.cards == 1 && !hand.is_empty() {
        let suited = hand.kinds().intersect(mask);
        let pool = if suited.is_empty() { hand.kinds() } else { suited };
        return Ok(Multiset::from_set(CardSet::single(nth_card(pool, below(rng, pool.len())))));
    }
    let is_pair = lead.cards == 2 && lead.units.len() == 1;
    if is_pair && !tr.longer_tuples_protected {
        let hand_s = hand.restrict(mask);
        let kinds = hand_s.kinds();
        let pairs = hand_s.pairs();
        if kinds.len() >= 3 || !pairs.is_empty() && kinds.len() >= 2 {
            // More than two cards of the suit.
            if !pairs.is_empty() && tr.follow_shape_obligation == ShapeObligation::Standard {
                let c = nth_card(pairs, below(rng, pairs.len()));
                let mut pair = Multiset::EMPTY;
                pair.add(c);
                pair.add(c);
                return Ok(pair);
            }
            if pairs.is_empty() {
                // Two distinct kinds: an ordered pair (a, b ≠ a) from one draw.
                let k = kinds.len();
                let x = below(rng, k * (k - 1));
                let (a, mut b) = (x / (k - 1), x % (k - 1));
                if b >= a {
                    b += 1;
                }
                let mut two = CardSet::single(nth_card(kinds, a));
                two.insert(nth_card(kinds, b));
                return Ok(Multiset::from_set(two));
            }
        } else {
            let other = hand.restrict(!mask);
            let held = hand_s.len();
            if held == 2 || held == 1 && !other.is_empty() {
                let mut play = hand_s;
                for c in sample_discards(&other, 2 - held, rng).iter() {
                    play.add(c);
                }
                return Ok(play);
            }
        }
    }
    let is_triple = lead.cards == 3 && lead.units.len() == 1;
    if is_triple && tr.follow_shape_obligation == ShapeObligation::Standard {
        let hand_s = hand.restrict(mask);
        if hand_s.len() > 3 {
            if let Some(m) = sample_triple_follow(&hand_s, rng) {
                return Ok(m);
            }
        }
    }
    Ok(FollowMoves::new(tr, lead, hand)?.sample(rng))
}

/// A follow of a triple lead from `hand_s`, the follower's more than three cards of the led suit,
/// when the structure decides it (§5 F2 "match as far as possible"): a triple of the suit when
/// one is held; else a pair plus one other kind when a pair is held (each (pair X, other kind
/// Y ≠ X) is one distinct play). `None` when the suit holds no pair (any three kinds: the
/// general sampler).
fn sample_triple_follow<R: Rng + ?Sized>(hand_s: &Multiset, rng: &mut R) -> Option<Multiset> {
    let triples = hand_s.at_least(3);
    let mut play = Multiset::EMPTY;
    if !triples.is_empty() {
        let c = nth_card(triples, below(rng, triples.len()));
        for _ in 0..3 {
            play.add(c);
        }
        return Some(play);
    }
    let pairs = hand_s.pairs();
    if pairs.is_empty() {
        return None;
    }
    let kinds = hand_s.kinds();
    let others = kinds.len() - 1; // ≥ 1: more than three cards, no triple
    let x = below(rng, pairs.len() * others);
    let pair = nth_card(pairs, x / others);
    play.add(pair);
    play.add(pair);
    play.add(nth_card(kinds.minus(CardSet::single(pair)), x % others));
    Some(play)
}

// MAX_INDEX bounds every index mask used above.
const _: () = assert!(MAX_INDEX <= 32);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::combos::decompose;
    use crate::tricks::order::{CardOrder, TrumpTierTractors};
    use crate::tricks::Decomposition;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn tr(level: Rank, trump: Suit, decks: u8) -> TrickRules {
        TrickRules::standard(
            CardOrder::shengji(level, Some(trump), true, TrumpTierTractors::Full),
            decks,
        )
    }

    fn legal(t: &TrickRules, lead: &str, hand: &str, play: &str) -> bool {
        let f = decompose(&ms(lead), &t.order, Decomposition::MultiplicityFirst).unwrap();
        check_follow(t, &f, &ms(hand), &ms(play)).is_ok()
    }

    #[test]
    fn digest_9_3_two_decks() {
        let t = tr(Rank::TWO, Suit::Spades, 2);
        assert!(!legal(&t, "10H 10H", "9H 9H 3H 4D 5S", "3H 9H"), "F1");
        assert!(legal(&t, "10H 10H", "9H 9H 3H 4D 5S", "9H 9H"), "F1");
        assert!(legal(&t, "10H 10H", "3H 4D 9D", "3H 4D"), "F2");
        assert!(!legal(&t, "10H 10H", "3H 4D 9D", "4D 9D"), "F2");
        let f3 = "5H 5H 6H 6H KH KH 3H 2D";
        assert!(!legal(&t, "10H 10H JH JH", f3, "5H 5H KH KH"), "F3");
        assert!(legal(&t, "10H 10H JH JH", f3, "5H 5H 6H 6H"), "F3");
        let f4 = "3H 3H 4H 4H 6H 6H QH QH 7C 8C";
        let lead4 = "8H 8H 9H 9H 10H 10H";
        assert!(!legal(&t, lead4, f4, "3H 3H 6H 6H QH QH"), "F4");
        assert!(legal(&t, lead4, f4, "3H 3H 4H 4H QH QH"), "F4");
        let mut t2 = t.clone();
        t2.partial_tractor_follow = false;
        assert!(legal(&t2, lead4, f4, "3H 3H 6H 6H QH QH"), "F4 without partial follow");
        assert!(legal(&t, "5S", "2H AH KD", "2H"), "F5");
        assert!(!legal(&t, "5S", "2H AH KD", "AH"), "F5");
        assert!(legal(&t, "AD", "3S 4C 7H", "3S") && legal(&t, "AD", "3S 4C 7H", "4C"), "F6");
        let f9 = "7D 7D 6D 5D 4D 3D 9C";
        assert!(legal(&t, "KD KD JD JD 8D", f9, "7D 7D 6D 5D 3D"), "F9");
        assert!(!legal(&t, "KD KD JD JD 8D", f9, "7D 6D 5D 4D 3D"), "F9");
    }

    #[test]
    fn digest_9_3_three_decks() {
        let t = tr(Rank::TWO, Suit::Spades, 3);
        let h7 = "9H 9H 4H KH 5C 6C";
        assert!(!legal(&t, "7H 7H 7H", h7, "4H KH 9H"), "F7");
        assert!(legal(&t, "7H 7H 7H", h7, "9H 9H 4H"), "F7");
        let lead = "5H 5H 5H 6H 6H 6H";
        let h = "8H 8H 8H QH QH QH 3H 4H 7C";
        assert!(legal(&t, lead, h, "8H 8H 8H QH QH QH"), "F8");
        assert!(!legal(&t, lead, h, "8H 8H 8H QH QH 3H"), "F8");
        let h = "3H 3H 4H 4H 9H 10H JH 7C";
        assert!(legal(&t, lead, h, "3H 3H 4H 4H 9H JH"), "F8");
        assert!(!legal(&t, lead, h, "3H 3H 4H 9H 10H JH"), "F8");
    }

    #[test]
    fn a_protected_triple_stands_in_for_a_pair_only_by_default() {
        // shengji.md §5 F2 is silent; RB refuses the triple while the real pair stays in hand.
        let mut t = tr(Rank::TWO, Suit::Spades, 3);
        t.longer_tuples_protected = true;
        let (lead, hand) = ("KH KH 8H", "9H 9H 9H 5H 5H 3H 4C");
        assert!(legal(&t, lead, hand, "9H 9H 9H"));
        t.longer_tuple_stands_in = false;
        assert!(!legal(&t, lead, hand, "9H 9H 9H"));
        assert!(legal(&t, lead, hand, "9H 9H 3H"), "a kind played exactly twice is a pair");
        assert!(legal(&t, lead, hand, "5H 5H 9H"));
        // No real pair held: the protected hand owes no pair, whatever is played.
        assert!(legal(&t, lead, "9H 9H 9H 3H 4H 4C", "3H 4H 9H"));
        assert!(legal(&t, lead, "9H 9H 9H 3H 4H 4C", "9H 9H 9H"));
        // Two pairs led: the real pair must be one of them; the triple played whole is no pair.
        let two = "KH KH 10H 10H 8H";
        assert!(!legal(&t, two, "9H 9H 9H 5H 5H 3H 4H", "3H 4H 9H 9H 9H"));
        assert!(legal(&t, two, "9H 9H 9H 5H 5H 3H 4H", "3H 4H 5H 5H 9H"));
        // Without protection the reading does not apply.
        t.longer_tuples_protected = false;
        assert!(legal(&t, lead, hand, "9H 9H 9H"));
    }

    #[test]
    fn a_protected_triple_played_for_the_triple_is_not_also_the_pair() {
        // Lead triple + pair: under protection (either reading) the real pair must fill the
        // pair; the triple played for the triple unit does not count twice (§5 F2).
        for stands_in in [true, false] {
            let mut t = tr(Rank::TWO, Suit::Spades, 3);
            t.longer_tuples_protected = true;
            t.longer_tuple_stands_in = stands_in;
            let lead = "KH KH KH QH QH";
            let hand = "9H 9H 9H 5H 5H 3H 4H";
            assert!(!legal(&t, lead, hand, "3H 5H 9H 9H 9H"), "{stands_in}");
            assert!(!legal(&t, lead, hand, "3H 4H 9H 9H 9H"), "{stands_in}");
            assert!(legal(&t, lead, hand, "5H 5H 9H 9H 9H"), "{stands_in}");
            let two_triples = "9H 9H 9H 7H 7H 7H 5H 5H";
            assert!(!legal(&t, lead, two_triples, "5H 7H 7H 7H 9H"), "{stands_in}");
            assert!(legal(&t, lead, two_triples, "5H 5H 7H 7H 7H"), "{stands_in}");
        }
    }

    #[test]
    fn enumerate_count_sample_agree_on_f4() {
        let t = tr(Rank::TWO, Suit::Spades, 2);
        let lead =
            decompose(&ms("8H 8H 9H 9H 10H 10H"), &t.order, Decomposition::MultiplicityFirst)
                .unwrap();
        let hand = ms("3H 3H 4H 4H 6H 6H QH QH 7C 8C");
        let moves = FollowMoves::new(&t, &lead, &hand).unwrap();
        let all = moves.enumerate(usize::MAX);
        let mut want: Vec<String> =
            ["3H 3H 4H 4H 6H 6H", "3H 3H 4H 4H QH QH"].iter().map(|s| ms(s).to_string()).collect();
        want.sort();
        let mut got: Vec<String> = all.iter().map(|m| m.to_string()).collect();
        got.sort();
        assert_eq!(got, want);
        assert_eq!(moves.count(), 2);
    }

    #[test]
    fn extension_mask_of_a_void_follower_of_a_long_throw_is_quick() {
        // Fuzz finding (apply target): with 3 decks a follower void in the led suit discards 12
        // of 39 cards — billions of legal follows, which the mask of a follow being built card
        // by card (`legal_action_mask`) listed one by one: it never returned.
        let t = tr(Rank::TWO, Suit::Hearts, 3);
        let lead = ms("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS");
        let lead = decompose(&lead, &t.order, Decomposition::MultiplicityFirst).unwrap();
        let mut hand = Multiset::EMPTY;
        for c in
            ms("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD")
                .iter()
                .chain(ms("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC").iter())
        {
            hand.add(c);
        }
        assert_eq!(hand.len(), 39);
        let moves = FollowMoves::new(&t, &lead, &hand).unwrap();
        assert!(moves.count() > 1_000_000_000);
        let start = std::time::Instant::now();
        assert_eq!(moves.extension_mask(&Multiset::EMPTY), hand.kinds().0);
        let two = ms("2H 3D");
        assert_eq!(moves.extension_mask(&two), hand.kinds().0 & !two.kinds().0, "held once each");
        let mut eleven = Multiset::EMPTY;
        for c in hand.iter().take(11) {
            eleven.add(c);
        }
        assert_eq!(moves.extension_mask(&eleven), hand.kinds().0 & !eleven.kinds().0);
        assert_eq!(moves.extension_mask(&ms("3S")), 0, "a card not held");
        assert!(start.elapsed().as_secs() < 5);
    }

    #[test]
    fn discard_count_is_combinatorial() {
        // Void in hearts: any 2 of "3S 3S 4C 5D" as multisets: {3S3S, 3S4C, 3S5D, 4C5D} = 4.
        let t = tr(Rank::TWO, Suit::Spades, 2);
        let lead = decompose(&ms("10H 10H"), &t.order, Decomposition::MultiplicityFirst).unwrap();
        let moves = FollowMoves::new(&t, &lead, &ms("3S 3S 4C 5D")).unwrap();
        assert_eq!(moves.count(), 4);
        assert_eq!(moves.enumerate(100).len(), 4);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::combos::decompose;
    use crate::tricks::order::{CardOrder, TrumpTierTractors};
    use crate::tricks::Decomposition;
    use proptest::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// A random position: trick rules, a lead of one effective suit taken from a random hand,
    /// and a follower's hand of `size` cards from the rest of the decks.
    fn position(seed: u64, decks: u8, size: usize) -> (TrickRules, Format, Multiset) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let level = Rank::from_index(rng.random_range(0..13)).unwrap();
        let trump = if rng.random_bool(0.2) {
            None
        } else {
            Some(Suit::from_index(rng.random_range(0..4)))
        };
        let mut tr = TrickRules::standard(
            CardOrder::shengji(level, trump, true, TrumpTierTractors::Full),
            decks,
        );
        tr.partial_tractor_follow = rng.random_bool(0.7);
        let mut deck = Multiset::full_decks(decks as usize, true).unwrap().to_vec();
        deck.shuffle(&mut rng);
        let leader = Multiset::from_cards(&deck[..25]).unwrap();
        let hand = Multiset::from_cards(&deck[25..25 + size]).unwrap();
        // Lead: up to 5 cards of the effective suit of a random card of the leader, preferring
        // identical cards so pairs, tractors and triples occur.
        let first = deck[rng.random_range(0..25)];
        let s = tr.order.suit(first);
        let mut suit_cards = leader.restrict(tr.order.suit_mask(s)).to_vec();
        suit_cards.shuffle(&mut rng);
        let want = rng.random_range(1..=5usize.min(suit_cards.len()));
        let mut lead = Multiset::EMPTY;
        for c in suit_cards.iter().take(want) {
            lead.add(*c);
            if leader.count(*c) > lead.count(*c) && lead.len() < 6 && rng.random_bool(0.7) {
                lead.add(*c);
            }
        }
        // Both readings of protection (drawn last, so the deal and lead above are unchanged).
        tr.longer_tuples_protected = rng.random_bool(0.3);
        tr.longer_tuple_stands_in = rng.random_bool(0.5);
        let f = decompose(&lead, &tr.order, Decomposition::MultiplicityFirst).unwrap();
        (tr, f, hand)
    }

    /// Every size-n sub-multiset of `hand` that `check_follow` accepts (brute force).
    fn brute(tr: &TrickRules, f: &Format, hand: &Multiset) -> HashSet<Multiset> {
        let mut out = HashSet::new();
        let _ = Items::of(hand).for_each(f.cards as usize, &mut |p| {
            if check_follow(tr, f, hand, p).is_ok() {
                out.insert(*p);
            }
            ControlFlow::Continue(())
        });
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn enumerate_count_sample_are_consistent(seed in any::<u64>(), decks in 2u8..=3, size in 6usize..=12) {
            let (tr, f, hand) = position(seed, decks, size);
            prop_assume!(hand.len() >= f.cards as usize);
            let moves = FollowMoves::new(&tr, &f, &hand).unwrap();
            let all = moves.enumerate(usize::MAX);
            prop_assert!(!all.is_empty(), "some follow is always legal");
            let set: HashSet<Multiset> = all.iter().copied().collect();
            prop_assert_eq!(set.len(), all.len(), "no duplicates");
            for p in &all {
                prop_assert!(moves.check(p).is_ok(), "enumerated {} is legal", p);
            }
            prop_assert_eq!(moves.count(), all.len() as u64);
            prop_assert_eq!(&set, &brute(&tr, &f, &hand), "enumerate = every legal play");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 1);
            for _ in 0..8 {
                let s = moves.sample(&mut rng);
                prop_assert!(set.contains(&s), "sample {} is enumerated", s);
            }
        }

        #[test]
        fn sample_follow_draws_legal_follows(seed in any::<u64>(), decks in 1u8..=3, size in 1usize..=12) {
            // The fast paths (one card, pair) and the fallback draw only enumerated follows, for
            // the generated lead and for a one-card and a pair lead of its first card.
            let (mut tr, f, hand) = position(seed, decks.max(2), size);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 2);
            tr.follow_shape_obligation = if rng.random_bool(0.2) {
                ShapeObligation::SuitOnly
            } else {
                ShapeObligation::Standard
            };
            let first = f.largest().kinds.first().unwrap();
            let mut leads = vec![f];
            for m in 1..=tr.decks as usize {
                let mut cards = Multiset::EMPTY;
                for _ in 0..m {
                    cards.add(first);
                }
                leads.push(decompose(&cards, &tr.order, Decomposition::MultiplicityFirst).unwrap());
            }
            for lead in &leads {
                if hand.len() < lead.cards as usize {
                    prop_assert!(sample_follow(&tr, lead, &hand, &mut rng).is_err());
                    continue;
                }
                let moves = FollowMoves::new(&tr, lead, &hand).unwrap();
                let set: HashSet<Multiset> = moves.enumerate(usize::MAX).into_iter().collect();
                for _ in 0..6 {
                    let s = sample_follow(&tr, lead, &hand, &mut rng).unwrap();
                    prop_assert!(set.contains(&s), "sample_follow {} is enumerated", s);
                }
            }
        }

        #[test]
        fn extension_mask_is_the_union_of_the_legal_plays_containing_the_part(
            seed in any::<u64>(), decks in 2u8..=3, size in 6usize..=12, suit_only in any::<bool>(),
        ) {
            // Fuzz finding: the mask used to list every legal follow (billions for a void
            // follower of a long throw); it must still be that union, for any part built.
            let (mut tr, f, hand) = position(seed, decks, size);
            prop_assume!(hand.len() >= f.cards as usize);
            if suit_only {
                tr.follow_shape_obligation = ShapeObligation::SuitOnly;
            }
            let moves = FollowMoves::new(&tr, &f, &hand).unwrap();
            let all = moves.enumerate(usize::MAX);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 3);
            let mut parts = vec![Multiset::EMPTY];
            for _ in 0..6 {
                // A part of a legal play, or any cards of the hand.
                let from = if rng.random_bool(0.7) { all[rng.random_range(0..all.len())] } else { hand };
                let mut cards = from.to_vec();
                cards.shuffle(&mut rng);
                let k = rng.random_range(0..=cards.len().min(f.cards as usize + 1));
                parts.push(Multiset::from_cards(&cards[..k]).unwrap());
            }
            for b in &parts {
                let mut union = 0u64;
                for p in all.iter().filter(|p| p.contains_all(b)) {
                    for c in p.kinds() {
                        if p.count(c) > b.count(c) {
                            union |= c.bit();
                        }
                    }
                }
                prop_assert_eq!(moves.extension_mask(b), union, "part {} of {} on {}", b, hand, f.cards);
            }
        }

        #[test]
        fn structure_score_is_monotone_in_the_hand(seed in any::<u64>(), size in 8usize..=14) {
            // Adding cards never lowers what the hand can match (needed for `check_follow`).
            let (tr, f, hand) = position(seed, 2, size);
            let mask = tr.order.suit_mask(f.suit as usize);
            let hs = hand.restrict(mask);
            prop_assume!(!hs.is_empty());
            let full = structure_score(&tr, &f, &hs, false, false);
            let mut less = hs;
            less.remove(hs.kinds().first().unwrap());
            prop_assert!(structure_score(&tr, &f, &less, false, false) <= full);
        }
    }

    fn chi_square(counts: &[u64], n: u64) -> f64 {
        let e = n as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
    }

    #[test]
    fn samples_are_uniform() {
        let tr = TrickRules::standard(
            CardOrder::shengji(Rank::TWO, Some(Suit::Spades), true, TrumpTierTractors::Full),
            2,
        );
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // (lead, hand): discards by unranking; structured suit parts by enumeration.
        for (lead, hand) in [
            ("AH AH", "3S 3S 4C 5D 6D"),
            ("10H 10H", "3H 3H 5H 5H 9H 9H 4H 2C"),
            ("AD", "3D 3D 4D 7D 9C"),
        ] {
            let f = decompose(&lead.parse().unwrap(), &tr.order, Decomposition::MultiplicityFirst)
                .unwrap();
            let moves = FollowMoves::new(&tr, &f, &hand.parse().unwrap()).unwrap();
            let all = moves.enumerate(usize::MAX);
            let n = 3000 * all.len() as u64;
            let mut counts = vec![0u64; all.len()];
            for _ in 0..n {
                let s = moves.sample(&mut rng);
                counts[all.iter().position(|p| *p == s).unwrap()] += 1;
            }
            // df = k - 1 ≤ 9; the 0.001 critical value for df = 9 is 27.9.
            let x2 = chi_square(&counts, n);
            assert!(x2 < 27.9, "{lead} / {hand}: chi-square {x2} over {counts:?}");
        }
    }

    #[test]
    fn sample_follow_is_uniform_over_the_legal_follows() {
        let tr = TrickRules::standard(
            CardOrder::shengji(Rank::TWO, Some(Suit::Spades), true, TrumpTierTractors::Full),
            2,
        );
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        // One per fast path: single led suit held / void; pair with suit pairs / no suit pair /
        // two suit cards / one suit card and a discard; a tractor (fallback).
        for (lead, hand) in [
            ("AD", "3D 3D 4D 7D 9C"),
            ("AD", "3S 3S 4C 5H"),
            ("AH AH", "3H 3H 5H 5H 9H 4H 2C"),
            ("AH AH", "3H 5H 9H JH 4C 4C"),
            ("AH AH", "3H 9H 4C 4C"),
            ("AH AH", "9H 4C 4C 6D 7S"),
            ("AH AH", "3S 3S 4C 5D 6D"),
            ("10H 10H JH JH", "3H 3H 4H 4H 5H 5H 8C"),
        ] {
            check_uniform(&tr, lead, hand, &mut rng);
        }
        // Triple leads with three decks: a held triple; a pair and another kind; no pair.
        let tr3 = TrickRules::standard(tr.order.clone(), 3);
        for (lead, hand) in [
            ("AH AH AH", "3H 3H 3H 5H 5H 5H 9H 2C"),
            ("AH AH AH", "3H 3H 5H 5H 9H 4C"),
            ("AH AH AH", "3H 5H 9H JH 4C"),
        ] {
            check_uniform(&tr3, lead, hand, &mut rng);
        }
    }

    /// Chi-square check that `sample_follow` is uniform over the enumerated follows.
    fn check_uniform(tr: &TrickRules, lead: &str, hand: &str, rng: &mut rand_chacha::ChaCha8Rng) {
        let f =
            decompose(&lead.parse().unwrap(), &tr.order, Decomposition::MultiplicityFirst).unwrap();
        let hand: Multiset = hand.parse().unwrap();
        let all = FollowMoves::new(tr, &f, &hand).unwrap().enumerate(usize::MAX);
        let n = 3000 * all.len() as u64;
        let mut counts = vec![0u64; all.len()];
        for _ in 0..n {
            let s = sample_follow(tr, &f, &hand, rng).unwrap();
            counts[all.iter().position(|p| *p == s).expect("legal")] += 1;
        }
        // df = k - 1 ≤ 9; the 0.001 critical value for df = 9 is 27.9.
        assert!(all.len() <= 10, "{lead} / {hand}: {} follows", all.len());
        let x2 = chi_square(&counts, n);
        assert!(x2 < 27.9, "{lead} / {hand}: chi-square {x2} over {counts:?}");
    }
}
