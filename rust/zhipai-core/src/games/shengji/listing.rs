//! The legal whole moves of a [`Deal`], listed (deterministic order, at most `limit`) and
//! counted (exactly, saturating): the list and count of the game contract
//! ([`super::game::DealState`]), which keeps the order and limits of today's
//! `zhipai.Game(rules).new_deal(...).legal_moves()`.
//!
//! Orders (shengji.md §2.2, §2.4, §4.3, §5):
//! * declaring (dealing, 炒底): `pass`, then the legal bids weakest first;
//! * burials: sorted card lists in card-kind order (lexicographic, lowest kinds first);
//! * leads: every legal lead suit by suit (the four side suits, then trump), fewer cards first,
//!   when there are at most `limit` sub-multisets of single suits, else the random policy's lead
//!   candidates (every single-unit lead, then each suit's whole holding when it is a throw);
//! * follows: the order of [`FollowMoves::for_each`].

use super::moves::Move;
use super::state::{hand_and_kitty, Deal, Phase};
use crate::cards::{Card, CardSet};
use crate::multiset::Multiset;
use crate::tricks::lead_candidates::{all_leads, for_each_lead_candidate};
use crate::tricks::order::{NUM_EFFECTIVE_SUITS, TRUMP};
use crate::tricks::{FollowMoves, TrickRules};
use std::ops::ControlFlow;

/// At most `limit` legal moves of the player to move, in the order of the module docs (`[]`
/// once over).
pub fn legal_moves(deal: &Deal, limit: usize) -> Vec<Move> {
    let Some(p) = deal.current_player() else { return Vec::new() };
    let hand = deal.hand(p);
    match deal.phase() {
        Phase::Dealing | Phase::Chaodi => std::iter::once(Move::Pass)
            .chain(deal.legal_bids().into_iter().map(Move::Declare))
            .take(limit)
            .collect(),
        Phase::Burying => {
            let (_, k) = hand_and_kitty(deal.rules().decks);
            burials(&hand, k, deal.burial_restricted(), limit).into_iter().map(Move::Bury).collect()
        }
        Phase::Playing => {
            let tr = deal.trick_rules().expect("trick rules exist in play");
            let plays = match deal.lead_format() {
                None => leads(tr, &hand, limit),
                Some(lead) => FollowMoves::new(tr, lead, &hand)
                    .map(|moves| moves.enumerate(limit))
                    .unwrap_or_default(),
            };
            plays.into_iter().map(Move::Play).collect()
        }
        Phase::Done => Vec::new(),
    }
}

/// The number of legal moves of the player to move (saturating; 0 once over).
pub fn count_legal_moves(deal: &Deal) -> u64 {
    let Some(p) = deal.current_player() else { return 0 };
    let hand = deal.hand(p);
    match deal.phase() {
        Phase::Dealing | Phase::Chaodi => 1 + deal.legal_bids().len() as u64,
        Phase::Burying => {
            let (_, k) = hand_and_kitty(deal.rules().decks);
            count_burials(&hand, k, deal.burial_restricted())
        }
        Phase::Playing => {
            let tr = deal.trick_rules().expect("trick rules exist in play");
            match deal.lead_format() {
                None => count_leads(tr, &hand),
                Some(lead) => FollowMoves::new(tr, lead, &hand).map_or(0, |m| m.count()),
            }
        }
        Phase::Done => 0,
    }
}

/// Every legal lead when there are few enough ([`all_leads`]), else the random policy's
/// candidates; at most `limit`.
fn leads(tr: &TrickRules, hand: &Multiset, limit: usize) -> Vec<Multiset> {
    if let Some(all) = all_leads(tr, hand, limit) {
        return all;
    }
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    for_each_lead_candidate(tr, hand, &mut |m| {
        out.push(*m);
        if out.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

/// Legal burials of `k` cards from `hand` (shengji.md §2.4): at most `limit`, as sorted card
/// lists in lexicographic kind order. With a restriction, a burial holds at most as many
/// restricted cards as there are too few other cards (`must`).
pub fn burials(
    hand: &Multiset,
    k: usize,
    restricted: Option<CardSet>,
    limit: usize,
) -> Vec<Multiset> {
    let restricted = restricted.unwrap_or(CardSet::EMPTY);
    let spare = hand.len() - hand.count_in(restricted);
    let mut walk = BurialWalk {
        kinds: hand.kinds().iter().map(|c| (c.index(), hand.count(c))).collect(),
        restricted,
        out: Vec::new(),
        limit,
    };
    let mut suffix = vec![0; walk.kinds.len() + 1];
    for i in (0..walk.kinds.len()).rev() {
        suffix[i] = suffix[i + 1] + walk.kinds[i].1;
    }
    walk.go(&suffix, 0, k, k.saturating_sub(spare), Multiset::EMPTY);
    walk.out
}

/// The depth-first walk of [`burials`]: kind by kind, most copies first (the lexicographically
/// smallest card list first).
struct BurialWalk {
    /// (kind index, copies held), ascending.
    kinds: Vec<(usize, usize)>,
    restricted: CardSet,
    out: Vec<Multiset>,
    limit: usize,
}

impl BurialWalk {
    /// Extend `cur` with `need` more cards of kinds `i..`, at most `budget` of them restricted.
    fn go(&mut self, suffix: &[usize], i: usize, need: usize, budget: usize, cur: Multiset) {
        if self.out.len() >= self.limit {
            return;
        }
        if need == 0 {
            self.out.push(cur);
            return;
        }
        if i == self.kinds.len() || suffix[i] < need {
            return;
        }
        let (kind, held) = self.kinds[i];
        let card = Card::from_index(kind).expect("a held kind");
        let limited = self.restricted.contains(card);
        let most = if limited { held.min(need).min(budget) } else { held.min(need) };
        for take in (0..=most).rev() {
            let mut next = cur;
            for _ in 0..take {
                next.add(card);
            }
            let left = if limited { budget - take } else { budget };
            self.go(suffix, i + 1, need - take, left, next);
        }
    }
}

/// The number of legal burials (distinct multisets; shengji.md §2.4), saturating: the
/// coefficient of `x^k` in the product of `(1 + x + … + x^c)` over the free kinds, combined
/// with at most `must` restricted cards (the restricted kinds' product).
pub fn count_burials(hand: &Multiset, k: usize, restricted: Option<CardSet>) -> u64 {
    let restricted = restricted.unwrap_or(CardSet::EMPTY);
    let free = sizes(&hand.restrict(!restricted), k);
    let limited = sizes(&hand.restrict(restricted), k);
    let must = k.saturating_sub(hand.len() - hand.count_in(restricted));
    (0..=must.min(k)).fold(0u64, |n, j| n.saturating_add(limited[j].saturating_mul(free[k - j])))
}

/// `out[j]` = the number of `j`-card sub-multisets of `m`, for `j` in `0..=k` (saturating).
fn sizes(m: &Multiset, k: usize) -> Vec<u64> {
    let mut out = vec![0u64; k + 1];
    out[0] = 1;
    for c in m.kinds() {
        let copies = m.count(c);
        // Multiply by 1 + x + … + x^copies, highest degree first so each term is read once.
        for j in (1..=k).rev() {
            let add = (1..=copies.min(j)).fold(0u64, |s, t| s.saturating_add(out[j - t]));
            out[j] = out[j].saturating_add(add);
        }
    }
    out
}

/// The number of legal leads (shengji.md §4.3; saturating): any non-empty sub-multiset of the
/// cards of one effective suit, except that where trump throws are barred only single trump
/// units count.
pub fn count_leads(tr: &TrickRules, hand: &Multiset) -> u64 {
    (0..NUM_EFFECTIVE_SUITS).fold(0u64, |n, s| {
        let part = hand.restrict(tr.order.suit_mask(s));
        let count = if s == TRUMP && !tr.trump_throw_allowed {
            count_units(tr, &part)
        } else {
            part.kinds().iter().fold(1u64, |p, c| p.saturating_mul(part.count(c) as u64 + 1)) - 1
        };
        n.saturating_add(count)
    })
}

/// The distinct single units (shengji.md §4.1–§4.2) among the sub-multisets of `trumps`: each
/// kind once, twice, three times (as decks allow), and the runs of `m ≥ 2` copies at linked
/// consecutive strength indices, one kind per index (equal kinds, such as off-suit level
/// cards, give one run per choice).
fn count_units(tr: &TrickRules, trumps: &Multiset) -> u64 {
    let most = (tr.decks as usize).min(3);
    let mut n: u64 = (1..=most).map(|m| trumps.at_least(m).len() as u64).sum();
    for m in 2..=most {
        let held = trumps.at_least(m);
        // `ending` = runs (one or more indices) ending at the previous index.
        let mut ending = 0u64;
        for i in 0..tr.order.len(TRUMP) {
            let w = tr.order.kinds_at(TRUMP, i).intersect(held).len() as u64;
            let linked = i > 0 && tr.order.linked(TRUMP, i - 1);
            let longer = if linked { w.saturating_mul(ending) } else { 0 };
            n = n.saturating_add(longer);
            ending = w.saturating_add(longer);
        }
    }
    n
}
