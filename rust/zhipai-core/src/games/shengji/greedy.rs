//! The greedy Shengji player ([`crate::policy::Policy::Greedy`]): a rule-based player that is
//! the rollout policy of the search players, so it is built to be cheap (no list of legal moves
//! for the common leads, no allocation) and uses only what its seat knows: its hand, the cards
//! out of play, its own burial, the voids every seat has shown and the current trick
//! ([`Seen`]). Every decision is deterministic. The first-generation player is kept as
//! [`crate::policy::Policy::Basic`] ([`super::basic`]).
//!
//! Words: the *unseen* cards are the pack minus the seat's hand, the cards out of play and its
//! own burial (the other hands and the kitty together); a unit (single, pair, tractor, …) is
//! *sure* when no unseen combination of its shape ranks higher in its effective suit (so no
//! other hand can beat it in that suit); a seat may *ruff* a suit when it has shown a void in
//! it, or when no unseen card of the suit is left, and it has not shown a void in trump. A
//! card's *value* is what keeping it is worth: its strength index, plus [`TRUMP_VALUE`] for a
//! trump and [`PAIR_VALUE`] when it belongs to a pair of the hand.
//!
//! * **Declaring**, **炒底**: the first-generation rules ([`super::basic::declare`],
//!   [`super::basic::chaodi`]).
//! * **Burying** (§2.4): keep trumps, points, pairs and the top card of each side suit; bury the
//!   low cards of the shortest side suits first (to void them), within the burial restriction.
//! * **Leading**: (1) the sure cards of a side suit no opponent can ruff, as one lead (a throw
//!   when several units: it stands, since every component is sure), the suit with the most sure
//!   cards first; (2) when long in trump ([`DRAW_TRUMPS`]) and an opponent may still hold
//!   trumps, the sure trumps, else the lowest trump; (3) a low card of a side suit the partner
//!   can ruff and no opponent can; (4) the lowest non-point card of the shortest side suit no
//!   opponent can ruff (a low pair first when the suit has one); (5) the lowest card.
//! * **Following**: when the partner is winning and no opponent still to play can beat it, add
//!   points (the legal play with the most points, cheapest first). Otherwise take the trick
//!   when it can be taken *safely* (no opponent still to play can beat the play, judged from the
//!   unseen cards and the shown voids) and there are points in it, the winner is a side card
//!   or the seat plays last — with the cheapest winning play, a point card (10, K) when it wins
//!   safely; with a ruff when void in the led suit (the cheapest safe ruff); when the trick holds
//!   at least [`STAKE`] points and only an unsafe win is possible, the strongest win. Else play
//!   the cheapest losing play, keeping points, pairs and trumps (discards from the shortest side
//!   suits first).
//!
//! Cost: single, pair and (3 decks) triple leads are followed by looking at the hand's kinds;
//! tractor and throw leads list at most [`FOLLOW_LIMIT`] legal follows when the led suit gives
//! a choice.

use super::state::NUM_PLAYERS;
use crate::cards::{Card, CardSet, NUM_KINDS};
use crate::error::Result;
use crate::multiset::Multiset;
use crate::tricks::combos::{one_bit, run_starts, Format};
use crate::tricks::lead::for_each_unit_of;
use crate::tricks::lead_candidates::is_single_unit;
use crate::tricks::order::{CardOrder, TRUMP};
use crate::tricks::rules::ShapeObligation;
use crate::tricks::winner::{one_kind_unit, trick_winner_of};
use crate::tricks::{FollowMoves, TrickRules};
use std::ops::ControlFlow;

/// Extra value of a trump over a side card of the same index.
pub const TRUMP_VALUE: i32 = 20;
/// Extra value of a card that belongs to a pair (or triple) of the hand.
pub const PAIR_VALUE: i32 = 8;
/// Draw trumps when the seat holds at least this share (in percent) of the trumps it cannot see.
pub const DRAW_TRUMPS: usize = 50;
/// Points in the trick that make an unsafe win worth trying.
pub const STAKE: i32 = 10;
/// Most legal follows compared for a tractor or throw lead.
pub const FOLLOW_LIMIT: usize = 24;

/// What the greedy player sees when playing (module docs): nothing of the other hands.
pub struct Seen<'a> {
    pub tr: &'a TrickRules,
    /// The seat to play.
    pub seat: u8,
    pub hand: Multiset,
    /// The pack minus the hand, the cards out of play and the seat's own burial.
    pub unseen: Multiset,
    /// The current trick so far, leader first (empty when leading).
    pub plays: &'a [Multiset],
    /// The seat that led the current trick (the seat itself when leading).
    pub leader: u8,
    /// The format of the current lead (when following).
    pub lead: &'a Format,
    /// Per seat, the effective suits it has shown void in (bit `s`).
    pub voids: [u8; NUM_PLAYERS],
}

/// Card points by kind (§7.1).
const POINTS: [u8; NUM_KINDS] = {
    let mut t = [0u8; NUM_KINDS];
    let mut i = 0;
    while i < NUM_KINDS {
        if let Some(c) = Card::from_index(i) {
            t[i] = c.points() as u8;
        }
        i += 1;
    }
    t
};

#[inline]
fn points(c: Card) -> i32 {
    POINTS[c.index()] as i32
}

/// Card points of `m`.
fn points_of(m: &Multiset) -> i32 {
    let mut total = 0;
    for c in m.kinds().intersect(point_kinds()) {
        total += points(c) * m.count(c) as i32;
    }
    total
}

const fn point_kinds() -> CardSet {
    use crate::cards::Rank;
    CardSet(
        CardSet::rank_mask(Rank::FIVE).0
            | CardSet::rank_mask(Rank::TEN).0
            | CardSet::rank_mask(Rank::KING).0,
    )
}

/// The highest strength index of `mask` (bit i = index i), if any.
#[inline]
fn top_of(mask: u32) -> Option<u32> {
    (mask != 0).then(|| 31 - mask.leading_zeros())
}

/// Whether `mask` has a bit above position `x`.
#[inline]
fn above(mask: u32, x: u32) -> bool {
    x < 31 && mask >> (x + 1) != 0
}

/// Add copies of `c` to `m` until it holds `n` of them.
#[inline]
fn add_up_to(m: &mut Multiset, c: Card, n: usize) {
    for _ in m.count(c)..n {
        m.add(c);
    }
}

/// `mult` copies of `card`.
#[inline]
fn copies(card: Card, mult: usize) -> Multiset {
    let mut m = Multiset::EMPTY;
    for _ in 0..mult {
        m.add(card);
    }
    m
}

impl Seen<'_> {
    fn order(&self) -> &CardOrder {
        &self.tr.order
    }

    #[inline]
    fn void(&self, seat: usize, s: usize) -> bool {
        self.voids[seat % NUM_PLAYERS] >> s & 1 == 1
    }

    /// Whether `seat` is an opponent of the seat to play.
    #[inline]
    fn opponent(&self, seat: usize) -> bool {
        (seat + NUM_PLAYERS - self.seat as usize) % 2 == 1
    }

    /// What keeping `c` is worth (module docs).
    #[inline]
    fn value(&self, c: Card) -> i32 {
        let o = self.order();
        let mut v = o.index(c) as i32;
        if o.is_trump(c) {
            v += TRUMP_VALUE;
        }
        if self.hand.pairs().contains(c) {
            v += PAIR_VALUE;
        }
        v
    }

    /// Whether `seat` may ruff effective suit `s` (a side suit): shown void in it, or no unseen
    /// card of it is left; and not shown void in trump.
    fn may_ruff(&self, seat: usize, s: usize, unseen_s: usize) -> bool {
        s != TRUMP && !self.void(seat, TRUMP) && (self.void(seat, s) || unseen_s == 0)
    }

    /// Whether the unseen cards hold a unit of `mult` × `len` in suit `s` ranking above `top`
    /// (any such unit when `top` is `None`).
    fn unseen_beats(&self, s: usize, mult: usize, len: usize, top: Option<u32>) -> bool {
        let o = self.order();
        let mask = o.index_mask(s, self.unseen.at_least(mult));
        let starts = if len <= 1 { mask } else { run_starts(mask, o.links(s), len) };
        match top {
            None => starts != 0,
            Some(t) => above(starts, t + 1 - len as u32),
        }
    }

    /// Whether an opponent still to play in this trick may beat a winning play `key` ([`key`])
    /// of a one-unit lead of `mult` × `len` in suit `s` (module docs: judged from the unseen
    /// cards and the shown voids).
    fn beatable(&self, s: usize, key: u32, mult: usize, len: usize) -> bool {
        let me = self.plays.len();
        let unseen_s = self.unseen.count_in(self.order().suit_mask(s));
        let (trump, top) = (key >> 8 == 2, key & 0xff);
        for pos in me + 1..NUM_PLAYERS {
            let q = (self.leader as usize + pos) % NUM_PLAYERS;
            if !self.opponent(q) {
                continue;
            }
            let follows = s == TRUMP || !self.void(q, s) && unseen_s > 0;
            if !trump {
                if follows && self.unseen_beats(s, mult, len, Some(top)) {
                    return true;
                }
                if self.may_ruff(q, s, unseen_s) && self.unseen_beats(TRUMP, mult, len, None) {
                    return true;
                }
            } else if (s == TRUMP || self.may_ruff(q, s, unseen_s))
                && !self.void(q, TRUMP)
                && self.unseen_beats(TRUMP, mult, len, Some(top))
            {
                return true;
            }
        }
        false
    }
}

/// The comparison key of a play of one kind (`mult` copies) against a one-kind lead in suit
/// `led`: 0 when it cannot win, else trump above the led suit, then the strength index.
#[inline]
fn key(o: &CardOrder, led: usize, c: Card) -> u32 {
    let s = o.suit(c);
    let index = o.index(c) as u32;
    if s == TRUMP {
        0x200 | index
    } else if s == led {
        0x100 | index
    } else {
        0
    }
}

/// The key ([`key`]) of a play that is one unit of the lead's shape in the led suit or trump:
/// its effective suit and highest index; 0 for any other play.
fn play_key(o: &CardOrder, led: usize, play: &Multiset, mult: usize, len: usize) -> u32 {
    let kinds = play.kinds();
    let Some(first) = kinds.first() else { return 0 };
    let s = o.suit(first);
    if (s != led && s != TRUMP) || kinds.minus(o.suit_mask(s)) != CardSet::EMPTY {
        return 0;
    }
    if play.exactly(mult) != kinds || kinds.len() as usize != len {
        return 0;
    }
    let top = top_of(o.index_mask(s, kinds)).unwrap_or(0);
    if s == TRUMP {
        0x200 | top
    } else {
        0x100 | top
    }
}

// ------------------------------------------------------------------------------- leading

/// The greedy lead (module docs): always cards of one effective suit held by the seat.
pub fn lead(v: &Seen) -> Multiset {
    let o = v.order();
    let seat = v.seat as usize;
    let opponents = [(seat + 1) % NUM_PLAYERS, (seat + 3) % NUM_PLAYERS];
    let partner = (seat + 2) % NUM_PLAYERS;
    let unseen_trumps = v.unseen.count_in(o.suit_mask(TRUMP));
    // Whether an opponent may ruff side suit s.
    let risky = |s: usize, unseen_s: usize| {
        unseen_trumps > 0 && opponents.iter().any(|&q| v.may_ruff(q, s, unseen_s))
    };
    // (1) The sure cards of a safe side suit, the most first.
    let mut best: Option<(usize, i32, Multiset)> = None;
    for s in 0..TRUMP {
        let hs = v.hand.restrict(o.suit_mask(s));
        if hs.is_empty() {
            continue;
        }
        let us = v.unseen.restrict(o.suit_mask(s));
        if risky(s, us.len()) {
            continue;
        }
        let sure = sure_cards(v, s, &hs, &us);
        if sure.is_empty() {
            continue;
        }
        let key = (sure.len(), points_of(&sure));
        if best.as_ref().is_none_or(|(n, p, _)| key > (*n, *p)) {
            best = Some((key.0, key.1, sure));
        }
    }
    if let Some((_, _, sure)) = best {
        return sure;
    }
    // (2) Draw trumps when long in trump.
    let ht = v.hand.restrict(o.suit_mask(TRUMP));
    let opponents_may_hold_trumps = opponents.iter().any(|&q| !v.void(q, TRUMP));
    if !ht.is_empty()
        && unseen_trumps > 0
        && opponents_may_hold_trumps
        && ht.len() * 100 >= DRAW_TRUMPS * unseen_trumps
    {
        let ut = v.unseen.restrict(o.suit_mask(TRUMP));
        let sure = sure_cards(v, TRUMP, &ht, &ut);
        if !sure.is_empty() {
            return lead_trumps(v, sure);
        }
        return lowest_card(v, &ht, true);
    }
    // (3) A suit the partner can ruff and no opponent can.
    for s in 0..TRUMP {
        let hs = v.hand.restrict(o.suit_mask(s));
        if hs.is_empty() {
            continue;
        }
        let unseen_s = v.unseen.count_in(o.suit_mask(s));
        if v.may_ruff(partner, s, unseen_s) && v.void(partner, s) && !risky(s, unseen_s) {
            return lowest_card(v, &hs, false);
        }
    }
    // (4) Low from the shortest side suit no opponent can ruff.
    let mut short: Option<(usize, usize)> = None;
    for s in 0..TRUMP {
        let n = v.hand.count_in(o.suit_mask(s));
        if n == 0 || risky(s, v.unseen.count_in(o.suit_mask(s))) {
            continue;
        }
        if short.is_none_or(|(m, _)| n < m) {
            short = Some((n, s));
        }
    }
    if let Some((_, s)) = short {
        return lowest_card(v, &v.hand.restrict(o.suit_mask(s)), true);
    }
    // (5) The lowest card: side suits before trumps.
    let side = v.hand.restrict(!o.suit_mask(TRUMP));
    if !side.is_empty() {
        return lowest_card(v, &side, false);
    }
    lowest_card(v, &v.hand, false)
}

/// The sure cards of `hs` (the seat's cards of effective suit `s`) against `us` (the unseen
/// cards of `s`): every copy of a kind above every unseen card, and each pair (triple) above
/// every unseen pair (triple). Several units form a throw that stands (module docs).
fn sure_cards(v: &Seen, s: usize, hs: &Multiset, us: &Multiset) -> Multiset {
    let o = v.order();
    let mut sure = Multiset::EMPTY;
    let top = top_of(o.index_mask(s, us.kinds()));
    for c in hs.kinds() {
        if top.is_none_or(|t| o.index(c) as u32 > t) {
            add_up_to(&mut sure, c, hs.count(c));
        }
    }
    for m in 2..=(v.tr.decks as usize).min(3) {
        let mine = hs.at_least(m);
        if mine.is_empty() {
            break;
        }
        let top = top_of(o.index_mask(s, us.at_least(m)));
        for c in mine {
            if top.is_none_or(|t| o.index(c) as u32 > t) {
                add_up_to(&mut sure, c, m);
            }
        }
    }
    sure
}

/// Sure trumps to lead: all of them when a trump throw may be led or they are one unit, else
/// the biggest sure unit (the pair or triple of the highest kind held so, else the highest
/// card).
fn lead_trumps(v: &Seen, sure: Multiset) -> Multiset {
    if v.tr.trump_throw_allowed || is_single_unit(v.tr, TRUMP, &sure) {
        return sure;
    }
    let o = v.order();
    for m in (2..=(v.tr.decks as usize).min(3)).rev() {
        if let Some(c) = sure.at_least(m).iter().max_by_key(|&c| o.index(c)) {
            return copies(c, m);
        }
    }
    let c = sure.kinds().iter().max_by_key(|&c| o.index(c)).expect("sure is not empty");
    copies(c, 1)
}

/// The lowest card of `cards` (one effective suit, or any), a non-point card when there is one;
/// with `pair_first`, the lowest non-point pair when the cards hold one.
fn lowest_card(v: &Seen, cards: &Multiset, pair_first: bool) -> Multiset {
    let o = v.order();
    if pair_first && v.tr.decks >= 2 {
        let pairs = cards.pairs().minus(point_kinds());
        if let Some(c) = pairs.iter().min_by_key(|&c| (o.is_trump(c), o.index(c))) {
            return copies(c, 2);
        }
    }
    let kinds = cards.kinds();
    let plain = kinds.minus(point_kinds());
    let pool = if plain.is_empty() { kinds } else { plain };
    let c = pool
        .iter()
        .min_by_key(|&c| (o.is_trump(c), v.hand.pairs().contains(c), o.index(c)))
        .expect("cards to lead");
    copies(c, 1)
}

// ------------------------------------------------------------------------------- following

/// The greedy follow (module docs): always a legal follow.
pub fn follow(v: &Seen) -> Result<Multiset> {
    let lead = v.lead;
    let standard = v.tr.follow_shape_obligation == ShapeObligation::Standard;
    match one_kind_unit(lead) {
        Some(1) => Ok(follow_single(v)),
        Some(2) if standard => Ok(follow_pair(v)),
        _ => follow_general(v),
    }
}

/// The current winner of the trick (its position) and its key, for a one-kind lead.
fn tuple_best(v: &Seen, mult: usize) -> (usize, u32) {
    let o = v.order();
    let led = v.lead.suit as usize;
    let mut best = (0, 0);
    for (i, p) in v.plays.iter().enumerate() {
        let kinds = p.kinds();
        let k = match kinds.first() {
            Some(c) if one_bit(kinds.0) && p.count(c) == mult => key(o, led, c),
            _ => 0,
        };
        if i == 0 || k > best.1 {
            best = (i, k);
        }
    }
    best
}

/// The decision context of a follow: who is winning, what is at stake.
struct Trick {
    me: usize,
    best_key: u32,
    partner_winning: bool,
    /// The partner's winning play cannot be beaten by an opponent still to play.
    partner_safe: bool,
    /// Points already in the trick.
    stake: i32,
}

fn trick(v: &Seen, best: usize, best_key: u32, mult: usize, len: usize) -> Trick {
    let me = v.plays.len();
    let partner_winning = me >= 2 && best == me - 2;
    let partner_safe = partner_winning && !v.beatable(v.lead.suit as usize, best_key, mult, len);
    let stake = v.plays.iter().map(points_of).sum();
    Trick { me, best_key, partner_winning, partner_safe, stake }
}

/// Whether taking the trick with a winner of `value` (a trump when `trump`) is worth it.
fn worth_winning(t: &Trick, trump: bool, value: i32, points: i32) -> bool {
    t.stake + points > 0 || !trump || (t.me == NUM_PLAYERS - 1 && value < TRUMP_VALUE + 6)
}

/// One card of a kind among `cands` as the follow to a single lead.
fn follow_single(v: &Seen) -> Multiset {
    let o = v.order();
    let s = v.lead.suit as usize;
    let (best, best_key) = tuple_best(v, 1);
    let t = trick(v, best, best_key, 1, 1);
    let suited = v.hand.kinds().intersect(o.suit_mask(s));
    let cands = if suited.is_empty() { v.hand.kinds() } else { suited };
    let c = if t.partner_safe {
        most_points(v, cands)
    } else {
        pick_winner(v, &t, cands, 1).unwrap_or_else(|| cheapest_kind(v, cands))
    };
    copies(c, 1)
}

/// The follow to a pair lead.
fn follow_pair(v: &Seen) -> Multiset {
    let o = v.order();
    let s = v.lead.suit as usize;
    let hs = v.hand.restrict(o.suit_mask(s));
    let (best, best_key) = tuple_best(v, 2);
    let t = trick(v, best, best_key, 2, 1);
    let n = hs.len();
    if n > 2 {
        let pairs = hs.pairs();
        let must_pair = if v.tr.longer_tuples_protected {
            !hs.exactly(2).is_empty()
        } else {
            !pairs.is_empty()
        };
        if must_pair {
            let c = if t.partner_safe {
                most_points(v, pairs)
            } else {
                pick_winner(v, &t, pairs, 2).unwrap_or_else(|| cheapest_kind(v, pairs))
            };
            return copies(c, 2);
        }
        if !pairs.is_empty() && !t.partner_safe {
            if let Some(c) = pick_winner(v, &t, pairs, 2) {
                return copies(c, 2);
            }
        }
        // No pair to play: two cards of the suit (they cannot win).
        return cheapest_cards(v, &t, &hs, 2);
    }
    // The whole suit, then discards; void: a trump pair may ruff.
    let mut play = hs;
    let r = 2 - n;
    if r == 2 && s != TRUMP && !t.partner_safe {
        let trump_pairs = v.hand.pairs().intersect(o.suit_mask(TRUMP));
        if let Some(c) = pick_winner(v, &t, trump_pairs, 2) {
            return copies(c, 2);
        }
    }
    let rest = v.hand.restrict(!o.suit_mask(s));
    let d = cheapest_cards(v, &t, &rest, r);
    play.add_all(&d).expect("a hand holds few copies");
    play
}

/// The kind of `cands` adding the most points for the least value (the partner wins safely).
fn most_points(v: &Seen, cands: CardSet) -> Card {
    cands
        .iter()
        .max_by_key(|&c| (2 * points(c) - v.value(c), std::cmp::Reverse(c.index())))
        .expect("a candidate")
}

/// The cheapest losing kind of `cands`: no points, low value, short side suits first.
fn cheapest_kind(v: &Seen, cands: CardSet) -> Card {
    cands.iter().min_by_key(|&c| (points(c), discard_cost(v, c), c.index())).expect("a candidate")
}

/// The kind among `cands` (`mult` copies of it) that should take the trick of a one-kind lead
/// (module docs), if any: the cheapest safe winner (a point card first) when winning is worth
/// it; else, with enough at stake, the strongest side-suit winner; when the partner is winning
/// unsafely, a safe winner with enough at stake.
fn pick_winner(v: &Seen, t: &Trick, cands: CardSet, mult: usize) -> Option<Card> {
    let o = v.order();
    let led = v.lead.suit as usize;
    let held = v.hand.at_least(mult);
    let k = |c: Card| if held.contains(c) { key(o, led, c) } else { 0 };
    if !t.partner_winning {
        // The cheapest safe winner (a point card first); else, with enough at stake, the
        // strongest winner.
        let mut safe: Option<(i32, Card)> = None;
        let mut strongest: Option<(u32, Card)> = None;
        for c in cands {
            let kc = k(c);
            if kc <= t.best_key {
                continue;
            }
            if strongest.is_none_or(|(sk, _)| kc > sk) {
                strongest = Some((kc, c));
            }
            if !v.beatable(led, kc, mult, 1) {
                let score = v.value(c) - 2 * points(c);
                if safe.is_none_or(|(sc, _)| score < sc) {
                    safe = Some((score, c));
                }
            }
        }
        if let Some((_, c)) = safe {
            if worth_winning(t, o.is_trump(c), v.value(c), points(c)) {
                return Some(c);
            }
        }
        if let Some((_, c)) = strongest {
            if t.stake >= STAKE && !o.is_trump(c) {
                return Some(c);
            }
        }
        None
    } else if t.stake >= STAKE {
        // The partner wins but may be beaten: take over safely.
        cands
            .iter()
            .filter(|&c| k(c) > t.best_key && !v.beatable(led, k(c), mult, 1))
            .min_by_key(|&c| v.value(c) - 2 * points(c))
    } else {
        None
    }
}

/// The cost of giving up `c` as a loser: its value, less when its side suit is short (playing
/// it helps void the suit).
#[inline]
fn discard_cost(v: &Seen, c: Card) -> i32 {
    let o = v.order();
    let s = o.suit(c);
    let mut cost = v.value(c);
    if s != TRUMP && s != v.lead.suit as usize && v.hand.count_in(o.suit_mask(s)) <= 2 {
        cost -= 4;
    }
    cost
}

/// The `r` cards of `pool` to give up: the most points when the partner wins safely, else the
/// cheapest (no points, low value, short side suits first).
fn cheapest_cards(v: &Seen, t: &Trick, pool: &Multiset, r: usize) -> Multiset {
    let mut left = *pool;
    let mut out = Multiset::EMPTY;
    for _ in 0..r {
        let c = if t.partner_safe {
            left.kinds().iter().max_by_key(|&c| (2 * points(c) - v.value(c), c.index()))
        } else {
            left.kinds().iter().min_by_key(|&c| (points(c), discard_cost(v, c), c.index()))
        };
        let Some(c) = c else { break };
        left.remove(c);
        out.add(c);
    }
    out
}

/// Tractor, Titanic, triple and throw leads (module docs).
fn follow_general(v: &Seen) -> Result<Multiset> {
    let o = v.order();
    let lead = v.lead;
    let s = lead.suit as usize;
    let n = lead.cards as usize;
    let hs = v.hand.restrict(o.suit_mask(s));
    let unit = (lead.units.len() == 1).then(|| lead.largest());
    let (mult, len) = unit.map_or((1, 1), |u| (u.mult as usize, u.len as usize));
    let best = trick_winner_of(v.tr, lead, v.plays)?;
    let best_key = match unit {
        Some(_) => play_key(o, s, &v.plays[best], mult, len),
        None => 0,
    };
    let mut t = trick(v, best, best_key, mult, len);
    if unit.is_none() {
        // A throw: judge the partner's hold by its suit (a valid throw is beaten only by ruffs).
        let unseen_s = v.unseen.count_in(o.suit_mask(s));
        t.partner_safe = t.partner_winning
            && !(t.me + 1..NUM_PLAYERS).any(|pos| {
                let q = (v.leader as usize + pos) % NUM_PLAYERS;
                v.opponent(q) && v.may_ruff(q, s, unseen_s)
            });
    }
    if hs.len() > n {
        // A choice inside the led suit: compare the first legal follows.
        let moves = FollowMoves::new(v.tr, lead, &v.hand)?;
        let mut chosen: Option<((i32, i32), Multiset)> = None;
        let mut seen = 0;
        moves.for_each(&mut |play| {
            seen += 1;
            let cost: i32 = play.iter().map(|c| v.value(c)).sum();
            let pts = points_of(play);
            let score = if t.partner_safe {
                (0, cost - 2 * pts)
            } else {
                let k = unit.map_or(0, |_| play_key(o, s, play, mult, len));
                if k > t.best_key && !t.partner_winning {
                    let safe = !v.beatable(s, k, mult, len);
                    (if safe { 0 } else { 1 }, cost - 2 * pts)
                } else {
                    (2, 3 * pts + cost)
                }
            };
            if chosen.as_ref().is_none_or(|(k, _)| score < *k) {
                chosen = Some((score, *play));
            }
            if seen >= FOLLOW_LIMIT {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        return Ok(chosen.expect("some follow is always legal").1);
    }
    // The whole suit, then discards; void: a ruff covering the lead when it wins.
    if hs.is_empty() && s != TRUMP && !t.partner_safe {
        if let Some(ruff) = covering_ruff(v, lead) {
            let mut trick = [Multiset::EMPTY; NUM_PLAYERS];
            trick[..t.me].copy_from_slice(v.plays);
            trick[t.me] = ruff;
            if trick_winner_of(v.tr, lead, &trick[..=t.me])? == t.me {
                return Ok(ruff);
            }
        }
    }
    let mut play = hs;
    let rest = v.hand.restrict(!o.suit_mask(s));
    let d = cheapest_cards(v, &t, &rest, n - hs.len());
    play.add_all(&d)?;
    Ok(play)
}

/// The lowest all-trump play whose structure covers `lead` (each unit matched by the lowest
/// trump unit of its shape, biggest units first; singles by the lowest trumps left), if the
/// hand has one.
fn covering_ruff(v: &Seen, lead: &Format) -> Option<Multiset> {
    let o = v.order();
    let mut rem = v.hand.restrict(o.suit_mask(TRUMP));
    if rem.len() < lead.cards as usize {
        return None;
    }
    let mut play = Multiset::EMPTY;
    for u in lead.units.iter() {
        if u.mult == 1 {
            let c = rem.kinds().iter().min_by_key(|&c| o.index(c))?;
            rem.remove(c);
            play.add(c);
            continue;
        }
        let mut found = None;
        let _ = for_each_unit_of(v.tr, &rem, TRUMP, u.mult, u.len as usize, &mut |unit| {
            found = Some(unit.to_multiset());
            ControlFlow::Break(())
        });
        let unit = found?;
        rem.remove_all(&unit).ok()?;
        play.add_all(&unit).ok()?;
    }
    Some(play)
}

// ------------------------------------------------------------------------------- burying

/// The greedy burial of `k` cards from `hand` (module docs). `restricted` kinds (the burial
/// restriction) are buried only when nothing else is left.
pub fn bury(tr: &TrickRules, hand: &Multiset, k: usize, restricted: CardSet) -> Multiset {
    let o = &tr.order;
    // One key per held kind (lower = buried first); each kind's copies are buried together.
    let mut keys = [(0u32, 0u8); NUM_KINDS];
    let mut n = 0;
    let mut suit_len = [0u32; 5];
    let mut suit_top = [0u32; 5];
    for s in 0..5 {
        suit_len[s] = hand.count_in(o.suit_mask(s)) as u32;
        suit_top[s] = top_of(o.index_mask(s, hand.kinds())).unwrap_or(0);
    }
    for c in hand.kinds() {
        let s = o.suit(c);
        let idx = o.index(c) as u32;
        let flag = |b: bool, bit: u32| (b as u32) << bit;
        let key = flag(restricted.contains(c), 24)
            | flag(s == TRUMP, 23)
            | flag(points(c) > 0, 22)
            | flag(hand.count(c) >= 2, 21)
            | flag(idx == suit_top[s] && idx >= 9, 20)
            | suit_len[s].min(31) << 8
            | idx << 3;
        keys[n] = (key, c.index() as u8);
        n += 1;
    }
    let keys = &mut keys[..n];
    keys.sort_unstable();
    let mut out = Multiset::EMPTY;
    for &(_, c) in keys.iter() {
        let c = Card::from_index(c as usize).expect("a kind");
        for _ in 0..hand.count(c) {
            if out.len() == k {
                return out;
            }
            out.add(c);
        }
    }
    out
}
