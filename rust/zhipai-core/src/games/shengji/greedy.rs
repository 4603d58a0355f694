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
//! other hand can beat it in that suit); a seat *may ruff* a side suit when it has shown a void
//! in it, or no unseen card of the suit is left, and it has not shown a void in trump; a winning
//! play is *safe* when no opponent still to play may beat it (a higher unseen unit of its shape
//! in the led suit for a seat that may follow, a trump unit of its shape for a seat that may
//! ruff, a higher one over a trump play). A card's *value* is what keeping it is worth: its
//! strength index, plus [`TRUMP_VALUE`] for a trump and [`PAIR_VALUE`] when it belongs to a
//! pair of the hand.
//!
//! * **Declaring**, **炒底**: the first-generation rules ([`super::basic::declare`],
//!   [`super::basic::chaodi`]).
//! * **Burying** (§2.4): keep trumps, then points, then pairs and the top card (Q or higher) of
//!   each side suit; bury the low cards of the shortest side suits first (to void them), within
//!   the burial restriction.
//! * **Leading**: (1) the sure cards of a side suit no opponent may ruff, as one lead (a throw
//!   when several units: it stands, every component being sure), the suit with the most sure
//!   cards first; (2) when long in trump ([`DRAW_TRUMPS`]) while an opponent may hold trumps:
//!   the sure trumps, else the lowest trump (a low pair first); (3) a low card of a side suit
//!   the partner has shown void in and may ruff, no opponent may; (4) the lowest non-point card
//!   of the shortest side suit no opponent may ruff (a low pair first); (5) the lowest card.
//! * **Following**: when the partner is winning safely, add points (the legal play with the
//!   most points for the least value). Otherwise, when there are points in the trick (or in the
//!   winning card), take it with the cheapest safe winning play (a point card first: a 10 or K
//!   when it wins safely), a ruff when void in the led suit; with at least [`STAKE`] points in
//!   the trick, an unsafe side-suit win (the strongest), or a safe take-over from a partner who
//!   may be beaten. A trick without points is left (the high cards are kept for tricks with
//!   points). Else play the cheapest losing cards: no points, low value, short side suits
//!   first.
//!
//! Cost: single, pair and (3 decks) triple leads are followed by looking at the hand's kinds;
//! tractor and throw leads by building the cheapest follow that matches the lead's structure
//! (checked; a list of at most [`FOLLOW_LIMIT`] legal follows only when that fails).

use super::declare::{Bid, Declaring};
use super::moves::Move;
use super::state::NUM_PLAYERS;
use crate::cards::{Card, CardSet, Rank, NUM_KINDS};
use crate::error::Result;
use crate::multiset::{Multiset, MAX_COPIES};
use crate::tricks::combos::{one_bit, run_starts, Format};
use crate::tricks::lead::for_each_unit_of;
use crate::tricks::lead_candidates::is_single_unit;
use crate::tricks::order::{CardOrder, MAX_INDEX, TRUMP};
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
pub const STAKE: i32 = 5;
/// Most legal follows compared for a tractor or throw lead when building one fails.
pub const FOLLOW_LIMIT: usize = 24;

/// Smallest share (in percent) of the cards received that the trumps of a declaration must make
/// for the greedy player to show it.
pub const DECLARE_SHARE: usize = 20;
/// Fewest trumps the greedy player declares with.
pub const DECLARE_MIN_TRUMPS: usize = 2;

/// The greedy declaration while dealing (module docs): the legal bid whose trump would make
/// the most trumps of the cards received (ties: the later, stronger bid), shown when they are at
/// least [`DECLARE_MIN_TRUMPS`] and [`DECLARE_SHARE`] percent of the cards; else pass.
pub fn declare(seat: u8, hand: &Multiset, level: Option<Rank>, declaring: &Declaring) -> Move {
    let levels = CardSet::JOKERS | level.map_or(CardSet::EMPTY, CardSet::rank_mask);
    let mut best: Option<(usize, Bid)> = None;
    declaring.for_each_legal_bid(seat, hand, |bid| {
        let mask = bid.trump().map_or(levels, |s| levels | s.mask());
        let n = hand.count_in(mask);
        if best.is_none_or(|(m, _)| n >= m) {
            best = Some((n, bid));
        }
    });
    match best {
        Some((n, bid)) if n >= DECLARE_MIN_TRUMPS && n * 100 >= DECLARE_SHARE * hand.len() => {
            Move::Declare(bid)
        }
        _ => Move::Pass,
    }
}

/// Card counts as unary planes (`0[k]` = kinds counted more than `k` times, as
/// [`Multiset::planes`]) with the plane-parallel arithmetic the unseen cards need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planes(pub [u64; MAX_COPIES]);

impl Planes {
    /// The counts of `m`.
    #[inline]
    pub fn of(m: &Multiset) -> Planes {
        Planes(m.planes())
    }

    /// The kind-by-kind sum (counts stay below 5).
    #[inline]
    pub fn plus(self, other: Planes) -> Planes {
        let ([a0, a1, a2, a3], [b0, b1, b2, b3]) = (self.0, other.0);
        // Plane k of a + b: a > i and b > k - 1 - i for some i (every count is > -1).
        Planes([
            a0 | b0,
            a1 | b1 | a0 & b0,
            a2 | b2 | a1 & b0 | a0 & b1,
            a3 | b3 | a2 & b0 | a1 & b1 | a0 & b2,
        ])
    }

    /// [`Planes::plus`] for counts whose sum stays below 3 (one or two packs): planes 2 and 3
    /// stay empty, so only the two low planes are summed.
    #[inline]
    pub fn plus_below_three(self, other: Planes) -> Planes {
        let ([a0, a1, a2, a3], [b0, b1, b2, b3]) = (self.0, other.0);
        debug_assert!(a2 | a3 | b2 | b3 | a1 & b0 | a0 & b1 == 0, "a count reaches 3");
        Planes([a0 | b0, a1 | b1 | a0 & b0, 0, 0])
    }

    /// `decks` full packs minus these counts (which must be at most `decks` each).
    #[inline]
    pub fn pack_minus(self, decks: usize) -> Planes {
        let mut out = [0u64; MAX_COPIES];
        for (k, plane) in out.iter_mut().enumerate().take(decks) {
            // decks - c > k iff c < decks - k, i.e. not (c ≥ decks - k).
            *plane = !self.0[decks - k - 1] & CardSet::ALL.0;
        }
        Planes(out)
    }

    /// Kinds counted at least `n` times (`n` in 1..=4).
    #[inline]
    pub fn at_least(&self, n: usize) -> CardSet {
        CardSet(self.0[n - 1])
    }

    /// Whether some kind of `mask` is counted.
    #[inline]
    pub fn any_in(&self, mask: CardSet) -> bool {
        self.0[0] & mask.0 != 0
    }

    /// Number of cards whose kind is in `mask`.
    pub fn count_in(&self, mask: CardSet) -> usize {
        let mut n = 0;
        for p in self.0 {
            let bits = p & mask.0;
            if bits == 0 {
                break; // the planes are nested
            }
            n += bits.count_ones() as usize;
        }
        n
    }
}

/// What the greedy player sees when playing (module docs): nothing of the other hands.
pub struct Seen<'a> {
    pub tr: &'a TrickRules,
    /// The seat to play.
    pub seat: u8,
    pub hand: Multiset,
    /// The pack minus the hand, the cards out of play and the seat's own burial.
    pub unseen: Planes,
    /// The current trick so far, leader first (empty when leading).
    pub plays: &'a [Multiset],
    /// Card points of `plays`.
    pub stake: i32,
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

/// The point kinds: 5, 10, K (§7.1).
const POINT_KINDS: CardSet = CardSet(
    CardSet::rank_mask(Rank::FIVE).0
        | CardSet::rank_mask(Rank::TEN).0
        | CardSet::rank_mask(Rank::KING).0,
);

#[inline]
fn points(c: Card) -> i32 {
    POINTS[c.index()] as i32
}

/// Card points of `m`.
fn points_of(m: &Multiset) -> i32 {
    let mut total = 0;
    for c in m.kinds().intersect(POINT_KINDS) {
        total += points(c) * m.count(c) as i32;
    }
    total
}

/// The highest strength index of `mask` (bit i = index i), if any.
#[inline]
fn top_of(mask: u32) -> Option<u32> {
    (mask != 0).then(|| 31 - mask.leading_zeros())
}

/// The strongest kind of `set` (kinds of effective suit `s`), if any: in a side suit the
/// highest bit (side suits rank in kind order), in trump by strength index (ties: the
/// highest kind).
#[inline]
fn highest(o: &CardOrder, s: usize, set: CardSet) -> Option<Card> {
    if set.is_empty() {
        None
    } else if s != TRUMP {
        Card::from_index(63 - set.0.leading_zeros() as usize)
    } else {
        highest_trump(o, set)
    }
}

/// The strength index of the strongest trump: the big joker's in every Shengji order (so the
/// trump indices can be scanned from the top instead of looking at every kind of a set).
#[inline]
fn top_trump_index(o: &CardOrder) -> usize {
    let top = o.index(Card::BIG_JOKER);
    debug_assert!(o.is_trump(Card::BIG_JOKER));
    debug_assert!(o.suit_mask(TRUMP).iter().all(|c| o.index(c) <= top), "BJ is the top trump");
    top
}

/// [`highest`] in trump (`set` not empty): the highest kind at the highest index held.
fn highest_trump(o: &CardOrder, set: CardSet) -> Option<Card> {
    debug_assert!(set.minus(o.suit_mask(TRUMP)).is_empty(), "trumps only");
    for i in (0..=top_trump_index(o)).rev() {
        let at = o.kinds_at(TRUMP, i).0 & set.0;
        if at != 0 {
            return Card::from_index(63 - at.leading_zeros() as usize);
        }
    }
    None
}

/// The kinds of `set` (kinds of effective suit `s`) stronger than every kind of `than`.
#[inline]
fn stronger(o: &CardOrder, s: usize, set: CardSet, than: CardSet) -> CardSet {
    let Some(top) = highest(o, s, than) else { return set };
    if s != TRUMP {
        // Bits above the top one.
        return CardSet(set.0 & !((top.bit() << 1).wrapping_sub(1)));
    }
    // The kinds at the indices above the top one.
    let mut above = 0;
    for i in o.index(top) + 1..=top_trump_index(o) {
        above |= o.kinds_at(TRUMP, i).0;
    }
    CardSet(set.0 & above)
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

/// The keys ([`key`]) from which a winning play is safe, for led-suit plays and for trump plays.
#[derive(Clone, Copy, Debug)]
struct SafeFrom {
    side: u32,
    trump: u32,
}

impl SafeFrom {
    #[inline]
    fn safe(&self, key: u32) -> bool {
        if key >= 0x200 {
            key >= self.trump
        } else {
            key >= self.side
        }
    }
}

/// Never safe.
const NEVER: u32 = 0x300;

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

    /// Whether `seat` may ruff effective suit `s` (module docs); `unseen_s`: whether an unseen
    /// card of `s` is left.
    #[inline]
    fn may_ruff(&self, seat: usize, s: usize, unseen_s: bool) -> bool {
        s != TRUMP && !self.void(seat, TRUMP) && (self.void(seat, s) || !unseen_s)
    }

    /// The lowest top index of a `mult` × `len` unit of suit `s` that no unseen unit of that
    /// shape beats (0 when the unseen cards hold none), and whether they hold one at all.
    fn safe_top(&self, s: usize, mult: usize, len: usize) -> (u32, bool) {
        let o = self.order();
        let held = self.unseen.at_least(mult).intersect(o.suit_mask(s));
        if len <= 1 {
            return match highest(o, s, held) {
                Some(c) => (o.index(c) as u32, true),
                None => (0, false),
            };
        }
        let mask = o.index_mask(s, held);
        let starts = if len <= 1 { mask } else { run_starts(mask, o.links(s), len) };
        match top_of(starts) {
            // A unit starting at `hs` tops at hs + len - 1: equal tops do not beat.
            Some(hs) => (hs + len as u32 - 1, true),
            None => (0, false),
        }
    }

    /// From which keys a winning play of a one-unit lead of `mult` × `len` in suit `s` is safe
    /// (module docs), for the seat following.
    fn safe_from(&self, s: usize, mult: usize, len: usize) -> SafeFrom {
        let me = self.plays.len();
        debug_assert!(me >= 1, "a follow");
        let mut safe = SafeFrom { side: 0x100, trump: 0x200 };
        // The opponents still to play sit at odd distances after this seat: when following,
        // only the next seat, and only when it has not played yet.
        if me + 1 >= NUM_PLAYERS {
            return safe;
        }
        let q = (self.seat as usize + 1) % NUM_PLAYERS;
        debug_assert_eq!(q, (self.leader as usize + me + 1) % NUM_PLAYERS);
        debug_assert!(self.opponent(q), "the next seat is an opponent");
        if s == TRUMP {
            if !self.void(q, TRUMP) {
                safe.trump = 0x200 | self.safe_top(TRUMP, mult, len).0;
            }
            return safe;
        }
        let unseen_s = self.unseen.any_in(self.order().suit_mask(s));
        if !self.void(q, s) && unseen_s {
            safe.side = 0x100 | self.safe_top(s, mult, len).0;
        }
        if self.may_ruff(q, s, unseen_s) {
            let (t, any) = self.safe_top(TRUMP, mult, len);
            if any {
                safe.side = NEVER;
            }
            safe.trump = 0x200 | t;
        }
        safe
    }

    /// Value of `c` less its points counted `weight` times (what giving it up costs: points
    /// lost to the opponents, or, with a negative weight, points won).
    #[inline]
    fn cost(&self, c: Card, weight: i32) -> i32 {
        self.value(c) + weight * points(c)
    }
}

/// The comparison key of a play of one kind against a one-kind lead in suit `led`: 0 when it
/// cannot win, else trump above the led suit, then the strength index.
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
    if (s != led && s != TRUMP) || !kinds.minus(o.suit_mask(s)).is_empty() {
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
    let trump_mask = o.suit_mask(TRUMP);
    let unseen_trumps = v.unseen.any_in(trump_mask);
    // Whether an opponent may ruff side suit s.
    let risky = |s: usize, unseen_s: bool| {
        unseen_trumps && opponents.iter().any(|&q| v.may_ruff(q, s, unseen_s))
    };
    // (1) The sure cards of a safe side suit, the most first.
    let mut best: Option<(usize, i32, Multiset)> = None;
    for s in 0..TRUMP {
        let mask = o.suit_mask(s);
        let hs = v.hand.restrict(mask);
        if hs.is_empty() || risky(s, v.unseen.any_in(mask)) {
            continue;
        }
        let sure = sure_cards(v, s, &hs);
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
    let ht = v.hand.restrict(trump_mask);
    if !ht.is_empty() && unseen_trumps && opponents.iter().any(|&q| !v.void(q, TRUMP)) {
        let mine = ht.len();
        if mine * 100 >= DRAW_TRUMPS * v.unseen.count_in(trump_mask) {
            let sure = sure_cards(v, TRUMP, &ht);
            if !sure.is_empty() {
                return lead_trumps(v, sure);
            }
            return lowest_card(v, &ht, true);
        }
    }
    // (3) A suit the partner can ruff and no opponent can.
    for s in 0..TRUMP {
        let mask = o.suit_mask(s);
        let hs = v.hand.restrict(mask);
        if hs.is_empty() || !v.void(partner, s) || v.void(partner, TRUMP) {
            continue;
        }
        if !risky(s, v.unseen.any_in(mask)) {
            return lowest_card(v, &hs, false);
        }
    }
    // (4) Low from the side suit with the lowest top card no opponent can ruff.
    let mut low: Option<(u32, usize)> = None;
    for s in 0..TRUMP {
        let mask = o.suit_mask(s);
        let kinds = v.hand.kinds().intersect(mask);
        if !kinds.is_empty() && !risky(s, v.unseen.any_in(mask)) {
            let top = top_of(o.index_mask(s, kinds)).unwrap_or(0);
            if low.is_none_or(|(t, _)| top < t) {
                low = Some((top, s));
            }
        }
    }
    if let Some((_, s)) = low {
        return lowest_card(v, &v.hand.restrict(o.suit_mask(s)), true);
    }
    // (5) The lowest card: side suits before trumps.
    let side = v.hand.restrict(!trump_mask);
    if !side.is_empty() {
        return lowest_card(v, &side, false);
    }
    lowest_card(v, &v.hand, false)
}

/// The sure cards of `hs` (the seat's cards of effective suit `s`): every copy of a kind above
/// every unseen card of `s`, and each pair (triple) above every unseen pair (triple). Several
/// units form a throw that stands (module docs).
fn sure_cards(v: &Seen, s: usize, hs: &Multiset) -> Multiset {
    let o = v.order();
    let mask = o.suit_mask(s);
    let singles = stronger(o, s, hs.kinds(), v.unseen.at_least(1).intersect(mask));
    let mut sure = hs.restrict(singles);
    for m in 2..=(v.tr.decks as usize).min(3) {
        let mine = hs.at_least(m).minus(singles);
        if mine.is_empty() {
            break;
        }
        for c in stronger(o, s, mine, v.unseen.at_least(m).intersect(mask)) {
            add_up_to(&mut sure, c, m);
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
        let pairs = cards.pairs().minus(POINT_KINDS);
        if let Some(c) = pairs.iter().min_by_key(|&c| low_key(o, c, false)) {
            return copies(c, 2);
        }
    }
    let kinds = cards.kinds();
    let plain = kinds.minus(POINT_KINDS);
    let pool = if plain.is_empty() { kinds } else { plain };
    let c = pool
        .iter()
        .min_by_key(|&c| low_key(o, c, v.hand.pairs().contains(c)))
        .expect("cards to lead");
    copies(c, 1)
}

/// `(is trump, paired, strength index)` of `c` packed in one word that orders as the triple
/// (strength indices are below 32).
#[inline]
fn low_key(o: &CardOrder, c: Card, paired: bool) -> u32 {
    debug_assert!(o.index(c) < MAX_INDEX);
    (o.is_trump(c) as u32) << 6 | (paired as u32) << 5 | o.index(c) as u32
}

// ------------------------------------------------------------------------------- following

/// The greedy follow (module docs): always a legal follow.
pub fn follow(v: &Seen) -> Result<Multiset> {
    let standard = v.tr.follow_shape_obligation == ShapeObligation::Standard;
    match one_kind_unit(v.lead) {
        Some(1) => Ok(follow_single(v)),
        Some(2) if standard => Ok(follow_pair(v)),
        _ => follow_general(v),
    }
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
    safe: SafeFrom,
}

impl Trick {
    /// The weight of points in the cost of the cards given up ([`Seen::cost`]): negative
    /// (points wanted) when the partner wins safely, else positive (points kept).
    fn weight(&self) -> i32 {
        if self.partner_safe {
            -2
        } else {
            3
        }
    }
}

/// The follow context of a one-kind lead of `mult` copies.
fn tuple_trick(v: &Seen, mult: usize) -> Trick {
    let o = v.order();
    let led = v.lead.suit as usize;
    let (mut best, mut best_key) = (0, 0);
    for (i, p) in v.plays.iter().enumerate() {
        // Every play holds `mult` cards (the lead's count): one kind is `mult` copies of it.
        debug_assert_eq!(p.len(), mult);
        let kinds = p.kinds();
        let k = match kinds.first() {
            Some(c) if one_bit(kinds.0) => key(o, led, c),
            _ => 0,
        };
        if i == 0 || k > best_key {
            (best, best_key) = (i, k);
        }
    }
    trick_of(v, best, best_key, mult, 1)
}

fn trick_of(v: &Seen, best: usize, best_key: u32, mult: usize, len: usize) -> Trick {
    let me = v.plays.len();
    // The deal counts the trick's points as they are played.
    let stake = v.stake;
    debug_assert_eq!(stake, v.plays.iter().map(points_of).sum::<i32>());
    let partner_winning = me >= 2 && best == me - 2;
    let safe = v.safe_from(v.lead.suit as usize, mult, len);
    let partner_safe = partner_winning && safe.safe(best_key);
    Trick { me, best_key, partner_winning, partner_safe, stake, safe }
}

/// Whether taking the trick with a winner holding `points` is worth it: points in the trick
/// or in the winner (a pointless trick is left, keeping the high cards for tricks with points).
fn worth_winning(t: &Trick, points: i32) -> bool {
    t.stake + points > 0
}

/// The follow to a single lead.
fn follow_single(v: &Seen) -> Multiset {
    let o = v.order();
    let t = tuple_trick(v, 1);
    let suited = v.hand.kinds().intersect(o.suit_mask(v.lead.suit as usize));
    let cands = if suited.is_empty() { v.hand.kinds() } else { suited };
    let c = if t.partner_safe {
        cheapest_kind(v, &t, cands)
    } else {
        pick_winner(v, &t, cands, 1).unwrap_or_else(|| cheapest_kind(v, &t, cands))
    };
    copies(c, 1)
}

/// The follow to a pair lead.
fn follow_pair(v: &Seen) -> Multiset {
    let o = v.order();
    let s = v.lead.suit as usize;
    let hs = v.hand.restrict(o.suit_mask(s));
    let t = tuple_trick(v, 2);
    if hs.len() > 2 {
        let pairs = hs.pairs();
        let must_pair = if v.tr.longer_tuples_protected {
            !hs.exactly(2).is_empty()
        } else {
            !pairs.is_empty()
        };
        if must_pair {
            let c = if t.partner_safe {
                cheapest_kind(v, &t, pairs)
            } else {
                pick_winner(v, &t, pairs, 2).unwrap_or_else(|| cheapest_kind(v, &t, pairs))
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
    let r = 2 - hs.len();
    if r == 2 && s != TRUMP && !t.partner_safe {
        let trump_pairs = v.hand.pairs().intersect(o.suit_mask(TRUMP));
        if let Some(c) = pick_winner(v, &t, trump_pairs, 2) {
            return copies(c, 2);
        }
    }
    let mut play = hs;
    let d = cheapest_cards(v, &t, &v.hand.restrict(!o.suit_mask(s)), r);
    play.add_all(&d).expect("a hand holds few copies");
    play
}

/// The cheapest kind of `cands` to give up ([`Trick::weight`]; short side suits first).
fn cheapest_kind(v: &Seen, t: &Trick, cands: CardSet) -> Card {
    let short = short_suits_among(v, cands);
    let w = t.weight();
    cands.iter().min_by_key(|&c| cost_key(discard_cost(v, c, w, short), c)).expect("a candidate")
}

/// The kind among `cands` (`mult` copies of it) that should take the trick of a one-kind lead
/// (module docs), if any.
fn pick_winner(v: &Seen, t: &Trick, cands: CardSet, mult: usize) -> Option<Card> {
    if t.partner_winning && t.stake < STAKE {
        return None; // no take-over from the partner for so few points (below)
    }
    let o = v.order();
    let led = v.lead.suit as usize;
    let held = v.hand.at_least(mult);
    // The cheapest safe winner (points first) and the strongest winner.
    let mut safe: Option<(i32, Card)> = None;
    let mut strongest: Option<(u32, Card)> = None;
    for c in cands.intersect(held) {
        let kc = key(o, led, c);
        if kc <= t.best_key {
            continue;
        }
        if strongest.is_none_or(|(sk, _)| kc > sk) {
            strongest = Some((kc, c));
        }
        if t.safe.safe(kc) {
            let score = v.cost(c, -2);
            if safe.is_none_or(|(sc, _)| score < sc) {
                safe = Some((score, c));
            }
        }
    }
    if t.partner_winning {
        // The partner wins but may be beaten: take over safely when it is worth it.
        return safe.filter(|_| t.stake >= STAKE).map(|(_, c)| c);
    }
    if let Some((_, c)) = safe {
        if worth_winning(t, points(c)) {
            return Some(c);
        }
    }
    strongest.filter(|&(_, c)| t.stake >= STAKE && !o.is_trump(c)).map(|(_, c)| c)
}

/// The kinds of the side suits of two cards or fewer in the hand: giving up their cards helps
/// void them.
fn short_suits(v: &Seen) -> CardSet {
    let o = v.order();
    let mut kinds = CardSet::EMPTY;
    for s in 0..TRUMP {
        let m = o.suit_mask(s);
        let k = v.hand.kinds().intersect(m).0;
        let rest = k & k.wrapping_sub(1); // without the lowest kind
        let short = if rest == 0 {
            v.hand.at_least(3).intersect(m).is_empty() // one kind (or none): at most a pair
        } else {
            rest & rest.wrapping_sub(1) == 0 && v.hand.pairs().intersect(m).is_empty()
        };
        if short {
            kinds = kinds | m;
        }
    }
    kinds
}

/// The kinds whose [`discard_cost`] is lowered for candidates `cands`: those of the short side
/// suits ([`short_suits`]) but the led suit; none needed when every candidate is of the led
/// suit or trump, the common follow.
#[inline]
fn short_suits_among(v: &Seen, cands: CardSet) -> CardSet {
    let o = v.order();
    let led = o.suit_mask(v.lead.suit as usize);
    if cands.minus(led | o.suit_mask(TRUMP)).is_empty() {
        CardSet::EMPTY
    } else {
        short_suits(v).minus(led)
    }
}

/// Bias making every cost of [`cost_key`] positive (costs are a few dozen at most).
const COST_BIAS: i32 = 1 << 16;

/// `(cost, c.index())` packed in one word that orders as the pair: one integer comparison per
/// candidate in the searches for the cheapest kind.
#[inline]
fn cost_key(cost: i32, c: Card) -> u32 {
    debug_assert!((-COST_BIAS..COST_BIAS).contains(&cost), "cost {cost} out of range");
    ((cost + COST_BIAS) as u32) << 6 | c.index() as u32
}

/// The cost of giving up `c` ([`Seen::cost`] with points weighted `w`), less when it is of a
/// short side suit other than the led suit (`short`, [`short_suits_among`]).
#[inline]
fn discard_cost(v: &Seen, c: Card, w: i32, short: CardSet) -> i32 {
    v.cost(c, w) - 4 * short.contains(c) as i32
}

/// The `r` cards of `pool` to give up ([`Trick::weight`]: the most points when the partner wins
/// safely, else the cheapest; short side suits first).
fn cheapest_cards(v: &Seen, t: &Trick, pool: &Multiset, r: usize) -> Multiset {
    let short = short_suits_among(v, pool.kinds());
    let w = t.weight();
    let mut left = *pool;
    let mut out = Multiset::EMPTY;
    for _ in 0..r {
        let Some(c) =
            left.kinds().iter().min_by_key(|&c| cost_key(discard_cost(v, c, w, short), c))
        else {
            break;
        };
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
    let mut t = trick_of(v, best, best_key, mult, len);
    if unit.is_none() {
        // A throw: judge the partner's hold by its suit (a valid throw is beaten only by ruffs).
        let unseen_s = v.unseen.any_in(o.suit_mask(s));
        t.partner_safe = t.partner_winning
            && !(t.me + 1..NUM_PLAYERS).any(|pos| {
                let q = (v.leader as usize + pos) % NUM_PLAYERS;
                v.opponent(q) && v.may_ruff(q, s, unseen_s)
            });
    }
    if hs.len() > n {
        // A choice inside the led suit: a winning unit of the lead's shape, else the cheapest
        // follow matching the lead's structure.
        if let (Some(u), false) = (unit, t.partner_safe) {
            if let Some(w) = winning_unit(v, &t, u.mult, u.len as usize) {
                return Ok(w);
            }
        }
        let moves = FollowMoves::new(v.tr, lead, &v.hand)?;
        let built = structured_follow(v, &t, &hs);
        if moves.check(&built).is_ok() {
            return Ok(built);
        }
        return Ok(listed_follow(v, &t, &moves));
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
    let d = cheapest_cards(v, &t, &v.hand.restrict(!o.suit_mask(s)), n - hs.len());
    play.add_all(&d)?;
    Ok(play)
}

/// The cheapest unit of `mult` × `len` of the led suit beating the current best (a one-unit
/// lead), when taking the trick with it is worth it (as [`pick_winner`]).
fn winning_unit(v: &Seen, t: &Trick, mult: u8, len: usize) -> Option<Multiset> {
    if t.partner_winning && t.stake < STAKE {
        return None;
    }
    let s = v.lead.suit as usize;
    let mut safe: Option<(i32, Multiset)> = None;
    let mut strongest: Option<(u32, Multiset)> = None;
    let _ = for_each_unit_of(v.tr, &v.hand, s, mult, len, &mut |u| {
        let k = if s == TRUMP { 0x200 } else { 0x100 } | u.top as u32;
        if k > t.best_key {
            let m = u.to_multiset();
            if t.safe.safe(k) {
                let cost: i32 = u.kinds.iter().map(|c| v.cost(c, -2)).sum();
                if safe.as_ref().is_none_or(|(sc, _)| cost < *sc) {
                    safe = Some((cost, m));
                }
            }
            if strongest.as_ref().is_none_or(|(sk, _)| k > *sk) {
                strongest = Some((k, m));
            }
        }
        ControlFlow::Continue(())
    });
    if t.partner_winning {
        return safe.map(|(_, m)| m);
    }
    if let Some((_, m)) = safe {
        if worth_winning(t, points_of(&m)) {
            return Some(m);
        }
    }
    strongest.filter(|_| t.stake >= STAKE && s != TRUMP).map(|(_, m)| m)
}

/// The cheapest follow matching the structure of the lead from `hs` (more cards of the led
/// suit than the lead): each unit, biggest first, matched by the cheapest unit of its shape
/// (a tractor by the cheapest run of its length, else of the longest length held; a triple by
/// a triple, else a pair), then pairs up to the lead's pair count, then single cards. Not
/// always legal (checked by the caller).
fn structured_follow(v: &Seen, t: &Trick, hs: &Multiset) -> Multiset {
    let o = v.order();
    let s = v.lead.suit as usize;
    let w = t.weight();
    let n = v.lead.cards as usize;
    let mut rem = *hs;
    let mut play = Multiset::EMPTY;
    let mut pairs_played = 0;
    let protected = v.tr.longer_tuples_protected;
    for u in v.lead.units.iter() {
        let (m, k) = (u.mult as usize, u.len as usize);
        if m == 1 {
            break; // singles come last (units are sorted bigger first)
        }
        if play.len() + m > n {
            break;
        }
        let avail = |rem: &Multiset, m: usize| {
            let set = if protected && m == 2 { rem.exactly(2) } else { rem.at_least(m) };
            set.intersect(o.suit_mask(s))
        };
        if k >= 2 {
            // The cheapest run of length k, else of the longest length available (≥ 2).
            let set = avail(&rem, m);
            let mask = o.index_mask(s, set);
            let links = o.links(s);
            let mut len = k;
            while len >= 2 && run_starts(mask, links, len) == 0 {
                len -= 1;
            }
            if len >= 2 && (len == k || v.tr.partial_tractor_follow) {
                if let Some(run) = cheapest_run(v, set, mask, m, len, w) {
                    if play.len() + run.len() <= n {
                        rem.remove_all(&run).expect("held");
                        play.add_all(&run).expect("few copies");
                        pairs_played += len;
                    }
                }
            }
            continue;
        }
        // A pair or a triple: the cheapest kind held so (a triple led: else a pair).
        for mm in (2..=m).rev() {
            if let Some(c) = avail(&rem, mm).iter().min_by_key(|&c| (v.cost(c, w), c.index())) {
                if play.len() + mm <= n {
                    for _ in 0..mm {
                        rem.remove(c);
                        play.add(c);
                    }
                    pairs_played += 1;
                }
                break;
            }
        }
    }
    // Pairs up to the lead's pair count.
    let want = v.lead.pair_count();
    while pairs_played < want && play.len() + 2 <= n {
        let Some(c) =
            avail_pairs(&rem, protected).iter().min_by_key(|&c| (v.cost(c, w), c.index()))
        else {
            break;
        };
        rem.remove(c);
        rem.remove(c);
        play.add(c);
        play.add(c);
        pairs_played += 1;
    }
    // Single cards: the cheapest, from kinds not paired first.
    while play.len() < n {
        let Some(c) =
            rem.kinds().iter().min_by_key(|&c| (rem.count(c) >= 2, v.cost(c, w), c.index()))
        else {
            break;
        };
        rem.remove(c);
        play.add(c);
    }
    play
}

/// Kinds of `rem` usable as pairs (kinds held exactly twice with `protected`).
fn avail_pairs(rem: &Multiset, protected: bool) -> CardSet {
    if protected {
        rem.exactly(2)
    } else {
        rem.pairs()
    }
}

/// The cheapest run of `len` linked indices of `mask` (the indices of `set`, kinds held `m`
/// times), `m` copies of one kind per index.
fn cheapest_run(
    v: &Seen,
    set: CardSet,
    mask: u32,
    m: usize,
    len: usize,
    w: i32,
) -> Option<Multiset> {
    let o = v.order();
    let s = v.lead.suit as usize;
    let mut starts = run_starts(mask, o.links(s), len);
    let mut best: Option<(i32, Multiset)> = None;
    while starts != 0 {
        let low = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let mut run = Multiset::EMPTY;
        let mut cost = 0;
        for i in low..low + len {
            let c = set
                .intersect(o.kinds_at(s, i))
                .iter()
                .min_by_key(|&c| v.cost(c, w))
                .expect("an index of the mask");
            cost += v.cost(c, w) * m as i32;
            for _ in 0..m {
                run.add(c);
            }
        }
        if best.as_ref().is_none_or(|(bc, _)| cost < *bc) {
            best = Some((cost, run));
        }
    }
    best.map(|(_, r)| r)
}

/// The cheapest of the first [`FOLLOW_LIMIT`] legal follows (the partner winning safely: the
/// one adding the most points).
fn listed_follow(v: &Seen, t: &Trick, moves: &FollowMoves) -> Multiset {
    let w = t.weight();
    let mut chosen: Option<(i32, Multiset)> = None;
    let mut seen = 0;
    moves.for_each(&mut |play| {
        seen += 1;
        let cost: i32 = play.iter().map(|c| v.cost(c, w)).sum();
        if chosen.as_ref().is_none_or(|(k, _)| cost < *k) {
            chosen = Some((cost, *play));
        }
        if seen >= FOLLOW_LIMIT {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    chosen.expect("some follow is always legal").1
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
    // One key per held kind (lower = buried first, the kind in the low byte); each kind's copies
    // are buried together.
    let mut keys = [0u32; NUM_KINDS];
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
            | suit_len[s].min(31) << 13
            | idx << 8;
        keys[n] = key | c.index() as u32;
        n += 1;
    }
    // The k cheapest cards: the cheapest kind left, k times at most (no sort).
    let keys = &mut keys[..n];
    let mut out = Multiset::EMPTY;
    let mut left = k;
    while left > 0 {
        let Some((i, &key)) = keys.iter().enumerate().min_by_key(|&(_, &key)| key) else { break };
        if key == u32::MAX {
            break;
        }
        keys[i] = u32::MAX;
        let c = Card::from_index((key & 0xff) as usize).expect("a kind");
        for _ in 0..hand.count(c).min(left) {
            out.add(c);
            left -= 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::deal::deal_rng;
    use crate::game::{DealSetup, Game, GameState};
    use crate::games::shengji::game::DealState;
    use crate::games::shengji::ShengjiRules;
    use crate::options::OptionValue;
    use crate::policy::Policy;
    use crate::simulator::DealSimulator;

    fn rules(preset: &str, decks: i64) -> ShengjiRules {
        ShengjiRules::from_preset(preset, &[("decks".to_string(), OptionValue::Int(decks))])
            .unwrap()
    }

    fn ms(text: &str) -> Multiset {
        text.parse().unwrap()
    }

    /// The checksum of `examples/shengji_deals.rs`: deals `0..n` of seed 42.
    fn checksum(r: &ShengjiRules, policy: Policy, n: u64) -> i64 {
        let mut row = vec![0i32; r.result_columns().len()];
        let mut sum = 0i64;
        for i in 0..n {
            r.play_deal(policy, &mut deal_rng(42, i), &mut row).unwrap();
            sum = sum.wrapping_mul(31).wrapping_add(row.iter().map(|&v| v as i64).sum::<i64>());
        }
        sum
    }

    #[test]
    fn basic_and_random_rows_are_those_of_before() {
        // Checksums of `shengji_deals 40 <preset> <decks> greedy|random` taken before the new
        // greedy player (commit cfed032): `basic` is that greedy player, unchanged, and the
        // random policy draws as it did.
        let cases = [
            ("tractor", 1, 2440767481813943631, -3753541275602273626),
            ("tractor", 2, -240146762086544552, 2552053475961256360),
            ("tractor", 3, -7027263415405074046, -9083404957560918861),
            ("tractor_jj", 2, 5093215215409243608, 1805306678557136656),
            ("eighty_points", 1, 2440767481813943631, -3753541275602273626),
            ("eighty_points", 2, -4064454408075322692, -5396206936306197367),
            ("eighty_points", 3, -7027263415405074046, 1421929497255715273),
        ];
        for (preset, decks, basic, random) in cases {
            let r = rules(preset, decks);
            assert_eq!(checksum(&r, Policy::Basic, 40), basic, "{preset} {decks} basic");
            assert_eq!(checksum(&r, Policy::Random, 40), random, "{preset} {decks} random");
        }
        assert_eq!(checksum(&rules("tractor", 2), Policy::Random, 2000), 9030870185733941596);
    }

    #[test]
    fn greedy_moves_are_legal_everywhere() {
        // Every greedy move checked before it is applied, greedy at every seat or against the
        // random policy, under rule sets that change following, throws and burials.
        let text = |v: &str| OptionValue::Str(v.to_string());
        let sets: Vec<(&str, Vec<(&str, OptionValue)>)> = vec![
            ("tractor", vec![("decks", OptionValue::Int(1))]),
            ("tractor", vec![]),
            ("tractor", vec![("decks", OptionValue::Int(3))]),
            ("tractor_jj", vec![]),
            ("eighty_points", vec![("decks", OptionValue::Int(3))]),
            ("tractor", vec![("chaodi", OptionValue::Bool(true))]),
            ("tractor", vec![("trump_throw_allowed", OptionValue::Bool(false))]),
            ("tractor", vec![("kitty_bury_restrictions", text("no_trumps"))]),
            ("tractor", vec![("partial_tractor_follow", OptionValue::Bool(false))]),
            (
                "tractor",
                vec![
                    ("longer_tuples_protected", OptionValue::Bool(true)),
                    ("decks", OptionValue::Int(3)),
                ],
            ),
            ("tractor", vec![("follow_throw_structure", text("pair_count_only"))]),
            (
                "tractor",
                vec![
                    ("trump_tier_tractors", text("no_cross_tier")),
                    ("level_gap_bridging", OptionValue::Bool(false)),
                ],
            ),
        ];
        for (preset, opts) in sets {
            let o: Vec<(String, OptionValue)> =
                opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            let r = ShengjiRules::from_preset(preset, &o).unwrap();
            for index in 0..16u64 {
                let mut s = r.new_deal(7, index).unwrap();
                while let Some(p) = s.current_player() {
                    let policy =
                        if index % 2 == 0 || p % 2 == 0 { Policy::Greedy } else { Policy::Random };
                    let mv = s.clone().builtin_move(policy).unwrap();
                    if let Err(e) = s.check_move(&mv) {
                        panic!("{preset} {opts:?} deal {index}: {policy:?} {mv} refused: {e}");
                    }
                    s.apply_move(&mv).unwrap();
                }
            }
        }
    }

    /// One deck, level 2, hearts trump, seat 0 deals and buried the six trumps of the kitty:
    /// seat 0 holds AS KS and low diamonds and clubs, seat 3 every plain heart.
    fn one_deck_position() -> DealState {
        let hands = [
            "AS KS 3S 4S 3D 4D 5D 6D 3C 4C 5C 6C",
            "QS JS 10S 9S 7D 8D 9D 10D 7C 8C 9C 10C",
            "8S 7S 6S 5S JD QD KD AD JC QC KC AC",
            "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ];
        let kitty = ms("2S 2H 2D 2C SJ BJ");
        let setup = DealSetup {
            hands: hands.iter().map(|h| ms(h)).collect(),
            kitty: Some(kitty),
            level: Some(Some(Rank::TWO)),
            trump: Some(Some(Suit::Hearts)),
            dealer: Some(0),
            ..DealSetup::default()
        };
        let mut s = rules("tractor", 1).deal_from(&setup).unwrap();
        s.apply_move(&Move::Bury(kitty)).unwrap();
        s
    }

    #[test]
    fn the_sure_cards_of_a_suit_are_thrown() {
        // AS is the top spade and KS is below only AS: both sure, led together (a throw that
        // stands); the low diamonds and clubs are not sure.
        let mut s = one_deck_position();
        assert_eq!(s.builtin_move(Policy::Greedy).unwrap(), Move::Play(ms("AS KS")));
        s.apply_builtin(Policy::Greedy).unwrap();
        assert_eq!(s.deal().current_trick()[0], ms("AS KS"), "the throw stands");
    }

    #[test]
    fn points_go_to_a_partner_winning_safely_and_a_ruff_takes_them() {
        let mut s = one_deck_position();
        s.apply_move(&Move::Play(ms("AS"))).unwrap();
        s.apply_move(&Move::Play(ms("9S"))).unwrap();
        // Seat 2: its partner's AS cannot be beaten in spades and nobody has shown a void:
        // it adds its point card.
        assert_eq!(s.builtin_move(Policy::Greedy).unwrap(), Move::Play(ms("5S")));
        s.apply_builtin(Policy::Greedy).unwrap();
        // Seat 3, void in spades, last to play: 5 points at stake; a ruff wins safely, and its
        // trump 10 wins too, adding 10 points.
        assert_eq!(s.builtin_move(Policy::Greedy).unwrap(), Move::Play(ms("10H")));
        // Seat 0 leads 4S and seat 1, an opponent of seat 2, takes the lead with QS: seat 2
        // cannot beat it and keeps its 5S from the opponents.
        let mut t = one_deck_position();
        for c in ["4S", "QS"] {
            t.apply_move(&Move::Play(ms(c))).unwrap();
        }
        assert_eq!(
            t.builtin_move(Policy::Greedy).unwrap(),
            Move::Play(ms("6S")),
            "the cheapest non-point spade"
        );
    }

    #[test]
    fn planes_add_and_complement_like_multisets() {
        let a: Multiset = "3S 3S 4H BJ 5D 5D".parse().unwrap();
        let b: Multiset = "3S 4H 4H SJ 5D".parse().unwrap();
        let mut sum = a;
        sum.add_all(&b).unwrap();
        assert_eq!(Planes::of(&a).plus(Planes::of(&b)), Planes::of(&sum));
        for decks in 3..=4 {
            let mut rest = Multiset::full_decks(decks, true).unwrap();
            rest.remove_all(&sum).unwrap();
            assert_eq!(Planes::of(&sum).pack_minus(decks), Planes::of(&rest));
            let hearts = crate::cards::Suit::Hearts.mask();
            assert_eq!(Planes::of(&rest).count_in(hearts), rest.count_in(hearts));
        }
    }
}
