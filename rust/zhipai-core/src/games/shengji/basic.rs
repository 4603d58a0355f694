//! The first-generation greedy Shengji player, kept unchanged as the baseline
//! [`crate::policy::Policy::Basic`] (the `greedy` policy is now [`super::greedy`]): a documented
//! rule-based player that uses only what its seat may know (its hand, the cards played so far,
//! the kitty when it buried it) and never looks at other hands. Every decision is deterministic.
//!
//! * **Declaring** (§2.2): among the legal bids, take the one whose trump would make the largest
//!   share of the cards received so far; show it when that share is at least [`DECLARE_SHARE`]
//!   (and at least [`DECLARE_MIN_TRUMPS`] trumps), else pass.
//! * **炒底** (§2.2 option `chaodi`): the declaring rule on the whole hand, shown only when its
//!   trump gives strictly more trumps than the current trump.
//! * **Burying** (§2.4): bury the cheapest cards: side-suit cards before trumps, non-point cards
//!   before points (points only when forced), cards not in a pair before paired cards, then
//!   short side suits before long ones (to void them), then the lowest strength.
//! * **Leading**: cash a sure winner — a side-suit tractor, pair or single that no unseen
//!   combination of its shape can beat (biggest first) — else lead the lowest card of the longest
//!   side suit (a non-point card when there is one), else the lowest trump. Never throws.
//! * **Following**: among the legal follows (at most [`FOLLOW_LIMIT`], in the machinery's
//!   deterministic order): when the partner is winning, give the most points at the lowest cost;
//!   otherwise, when some follow wins the trick, take the cheapest winning follow; otherwise play
//!   the cheapest losing follow, avoiding points. A card's cost is its strength index, plus
//!   [`TRUMP_COST`] for trumps.

use super::declare::{Bid, Declaring};
use super::moves::Move;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::error::Result;
use crate::multiset::Multiset;
use crate::tricks::combos::Format;
use crate::tricks::order::TRUMP;
use crate::tricks::winner::trick_winner_of;
use crate::tricks::{FollowMoves, TrickRules};
use std::ops::ControlFlow;

/// Smallest share of the hand (trumps / cards received) that makes the greedy player declare.
pub const DECLARE_SHARE: f64 = 0.3;
/// Fewest trumps the greedy player declares with.
pub const DECLARE_MIN_TRUMPS: usize = 2;
/// Most legal follows the greedy player compares (the first ones of the deterministic order).
pub const FOLLOW_LIMIT: usize = 4096;
/// Extra cost of playing a trump when following.
pub const TRUMP_COST: u32 = 40;

/// What the greedy player sees when declaring.
pub struct DeclareView<'a> {
    pub seat: u8,
    pub hand: &'a Multiset,
    /// The level rank (`None` on the joker-only level, where nobody declares).
    pub level: Option<Rank>,
    pub declaring: &'a Declaring,
}

/// The greedy declaration: a bid, or `Move::Pass`.
pub fn declare(v: &DeclareView) -> Move {
    let total = v.hand.len().max(1);
    let mut best: Option<(usize, Bid)> = None;
    v.declaring.for_each_legal_bid(v.seat, v.hand, |bid| {
        let n = trumps_if(v.hand, v.level, bid);
        // Ties: the later (stronger) bid, which is harder to overcall.
        if best.is_none_or(|(m, _)| n >= m) {
            best = Some((n, bid));
        }
    });
    match best {
        Some((n, bid)) if n >= DECLARE_MIN_TRUMPS && n as f64 >= DECLARE_SHARE * total as f64 => {
            Move::Declare(bid)
        }
        _ => Move::Pass,
    }
}

/// The greedy 炒底 (overcall after a burial, [`super::chaodi`]): the greedy declaration on
/// the whole hand, shown only when its trump would give strictly more trumps than the current
/// trump `current` (`None` = no-trump) does; else pass.
pub fn chaodi(v: &DeclareView, current: Option<Suit>) -> Move {
    match declare(v) {
        Move::Declare(bid)
            if trumps_if(v.hand, v.level, bid) > trumps_under(v.hand, v.level, current) =>
        {
            Move::Declare(bid)
        }
        _ => Move::Pass,
    }
}

/// Trumps in `hand` if `bid` fixed the trump: jokers, level cards and the bid's suit.
fn trumps_if(hand: &Multiset, level: Option<Rank>, bid: Bid) -> usize {
    trumps_under(hand, level, bid.trump())
}

/// Trumps in `hand` under trump suit `trump` (`None` = no-trump).
fn trumps_under(hand: &Multiset, level: Option<Rank>, trump: Option<Suit>) -> usize {
    let mut mask = CardSet::JOKERS | level.map_or(CardSet::EMPTY, CardSet::rank_mask);
    if let Some(s) = trump {
        mask = mask | s.mask();
    }
    hand.count_in(mask)
}

/// The greedy burial of `k` cards from `hand` (module docs). `restricted` kinds (the burial
/// restriction) are buried only when nothing else is left.
pub fn bury(tr: &TrickRules, hand: &Multiset, k: usize, restricted: CardSet) -> Multiset {
    let o = &tr.order;
    let suit_len = |c: Card| hand.count_in(o.suit_mask(o.suit(c)));
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.sort_by_key(|&c| {
        (
            restricted.contains(c),
            o.is_trump(c),
            c.points() > 0,
            hand.count(c) >= 2,
            suit_len(c),
            o.index(c),
            c.index(),
        )
    });
    let mut out = Multiset::EMPTY;
    for &c in cards.iter().take(k) {
        out.add(c);
    }
    out
}

/// What the greedy player sees when playing.
pub struct PlayView<'a> {
    pub tr: &'a TrickRules,
    /// The seat's hand.
    pub hand: &'a Multiset,
    /// Cards the seat cannot see: the pack minus its hand, the cards played, and the kitty when
    /// the seat buried it.
    pub unseen: &'a Multiset,
    /// The plays of the current trick so far, leader first (empty when leading).
    pub plays: &'a [Multiset],
    /// The lead's format (meaningful when `plays` is not empty).
    pub lead: &'a Format,
}

/// The greedy lead (module docs): always a single unit held by the leader.
pub fn lead(v: &PlayView) -> Multiset {
    if let Some(u) = sure_winner(v) {
        return u;
    }
    let o = &v.tr.order;
    let mut best_suit = None;
    let mut best_len = 0;
    for s in 0..TRUMP {
        let n = v.hand.count_in(o.suit_mask(s));
        if n > best_len {
            best_len = n;
            best_suit = Some(s);
        }
    }
    let pool = match best_suit {
        Some(s) => v.hand.kinds().intersect(o.suit_mask(s)),
        None => v.hand.kinds(),
    };
    let plain = pool.iter().filter(|c| c.points() == 0).min_by_key(|&c| (o.index(c), c.index()));
    let card = plain
        .or_else(|| pool.iter().min_by_key(|&c| (o.index(c), c.index())))
        .expect("a leader holds cards");
    Multiset::from_set(CardSet::single(card))
}

/// A side-suit unit of the hand no unseen combination of its shape can beat: tractors, then
/// pairs, then singles.
fn sure_winner(v: &PlayView) -> Option<Multiset> {
    let o = &v.tr.order;
    let mut best: Option<(usize, Multiset)> = None;
    for s in 0..TRUMP {
        let mine = v.hand.restrict(o.suit_mask(s));
        if mine.is_empty() {
            continue;
        }
        let theirs = v.unseen.restrict(o.suit_mask(s));
        for mult in (1..=(v.tr.decks as usize).min(3)).rev() {
            // The highest index where the unseen cards hold `mult` copies of a kind.
            let threat = theirs.at_least(mult).iter().map(|c| o.index(c)).max();
            for c in mine.at_least(mult) {
                if threat.is_some_and(|t| t >= o.index(c)) {
                    continue;
                }
                // A pair at the top may extend down into a tractor of sure pairs.
                let mut unit = Multiset::EMPTY;
                for _ in 0..mult {
                    unit.add(c);
                }
                if mult >= 2 {
                    let mut idx = o.index(c);
                    while idx > 0 && o.linked(s, idx - 1) {
                        let below = mine.at_least(mult).intersect(o.kinds_at(s, idx - 1)).first();
                        let Some(b) = below else { break };
                        for _ in 0..mult {
                            unit.add(b);
                        }
                        idx -= 1;
                    }
                }
                if best.as_ref().is_none_or(|(n, _)| unit.len() > *n) {
                    best = Some((unit.len(), unit));
                }
            }
        }
    }
    best.map(|(_, u)| u)
}

/// Cost of giving up `play` (module docs).
fn cost(tr: &TrickRules, play: &Multiset) -> u32 {
    play.iter()
        .map(|c| tr.order.index(c) as u32 + if tr.order.is_trump(c) { TRUMP_COST } else { 0 })
        .sum()
}

fn points(play: &Multiset) -> u32 {
    play.iter().map(|c| c.points()).sum()
}

/// The greedy follow (module docs): always one of the legal follows.
pub fn follow(v: &PlayView) -> Result<Multiset> {
    let me = v.plays.len();
    let mut trick = [Multiset::EMPTY; 4];
    trick[..me].copy_from_slice(v.plays);
    let winner_now = trick_winner_of(v.tr, v.lead, v.plays)?;
    // Seats are counter-clockwise from the leader: the partner played two places before.
    let partner_winning = me >= 2 && winner_now == me - 2;
    let moves = FollowMoves::new(v.tr, v.lead, v.hand)?;
    // Key: lower is better.
    let mut best: Option<((u32, u32, u32), Multiset)> = None;
    let mut seen = 0usize;
    let mut err = None;
    moves.for_each(&mut |play| {
        seen += 1;
        let key = if partner_winning {
            (0, u32::MAX - points(play), cost(v.tr, play))
        } else {
            trick[me] = *play;
            match trick_winner_of(v.tr, v.lead, &trick[..=me]) {
                Ok(w) if w == me => (0, cost(v.tr, play), 0),
                Ok(_) => (1, points(play), cost(v.tr, play)),
                Err(e) => {
                    err = Some(e);
                    return ControlFlow::Break(());
                }
            }
        };
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, *play));
        }
        if seen >= FOLLOW_LIMIT {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(best.expect("some follow is always legal").1)
}
