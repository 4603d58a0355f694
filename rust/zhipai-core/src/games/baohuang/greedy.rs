//! The rule-based `greedy` player: the rollout policy of search players, so it must stay cheap
//! (no lookahead, a few counts per decision). It sees only what its seat knows: its hand, the
//! public roles (the emperor, a revealed guard; the guard knows himself) and the table.
//!
//! **Hand strength** (`strength`, in tenths): `24·BJ + 15·SJ + 6·(2s) + 3·(As) + 2·(Ks + Qs)
//! − 10·(natural ranks held)` — a least-squares fit of the finishing place on these counts over
//! 20,000 `basic` deals (each natural rank held is one more play to go out; a BJ-topped play
//! is never beaten): 10 points ≈ 0.21 of a place.
//!
//! * **accession**: 抢独 (grab, alone for ±40) with strength ≥ [`GRAB`] — as the scepter holder,
//!   or in a grab window counting the scepter BJ he would take; else ascend with a 3-copy card
//!   (first in kind order); with only a 4-copy card (独保: alone too, with a hand weaker than a
//!   grab's) abdicate; 逼位 takes the first option;
//! * **明保** with strength ≥ [`OPEN_GUARD`] (the emperor's side wins on average, and 明保 doubles
//!   it), else 暗保; **明独** with strength ≥ [`GRAB`], else 暗独;
//! * **lead**: the whole hand when it is one play; with as many BJ-topped (unbeatable) plays as
//!   natural groups left but one, a group with one BJ; else all naturals of the lowest rank
//!   (with no naturals, all SJ, then all BJ);
//! * **response**: go out when a beat takes every card left; pass (or 接风) when the play is a
//!   known partner's (the guard knows the emperor; the emperor knows a revealed guard; with the
//!   guard revealed the rebels know each other); else the cheapest beat — fewest jokers, a
//!   natural group played whole rather than split, lowest rank — with jokers only when holding at
//!   most [`SAVE_JOKERS`] cards or against a known opponent holding at most [`URGENT`] cards;
//!   apply for 接风 instead of passing when allowed; never yield.
//!
//! The thresholds were tuned with `examples/baohuang_duel.rs` (duplicate deals, one seat
//! changed): [`GRAB`] is the best of −40 … +40 for one seat among four greedy players who grab
//! from −30 (roughly the strongest 15–20% of dealt hands), the others likewise; against `basic`
//! players grabbing more often would pay even more, but `basic` rebels do not unite against a
//! lone emperor as greedy ones do. Leading bigger groups first, keeping 2s and As back, yielding
//! and beating with jokers in the yielders' second circle all measured worse.

use super::moves::{self, HandCounts, Shape};
use super::scoring::Mode;
use super::state::{Move, Phase, State};

/// Strength (tenths) from which a player grabs the scepter (抢独, ±40), and a 4-copy emperor
/// chooses 明独 (±32) over 暗独 (±24).
pub const GRAB: i32 = -30;
/// Strength from which the guard chooses 明保.
pub const OPEN_GUARD: i32 = -30;
/// Jokers are kept for the end: used in a beat only with at most this many cards in hand...
pub const SAVE_JOKERS: usize = 8;
/// ...or against a known opponent holding at most this many cards.
pub const URGENT: usize = 12;

/// Hand strength in tenths (module docs).
pub fn strength(h: &HandCounts) -> i32 {
    let n = h.nat();
    let tops = 24 * (h.big() + h.guard()) as i32 + 15 * h.small() as i32;
    let high = 6 * n[12] as i32 + 3 * n[11] as i32 + 2 * (n[10] + n[9]) as i32;
    tops + high - 10 * h.ranks_held().count_ones() as i32
}

/// The greedy player's move (module docs).
pub fn greedy(state: &State) -> Option<Move> {
    let seat = state.current_player()?;
    let counts = state.hand_counts(seat);
    match state.phase() {
        Phase::Accession => Some(accession(state, seat)),
        Phase::GrabWindow => {
            // The grabber takes the scepter BJ (with abdication_moves_card).
            let bonus = if state.rules().abdication_moves_card { 24 } else { 0 };
            Some(if strength(counts) + bonus >= GRAB { Move::Grab } else { Move::Decline })
        }
        Phase::Forced => state.nth_move(0),
        Phase::GuardChoice => {
            Some(if strength(counts) >= OPEN_GUARD { Move::OpenGuard } else { Move::SecretGuard })
        }
        Phase::SoloChoice => {
            Some(if strength(counts) >= GRAB { Move::OpenSolo } else { Move::SecretSolo })
        }
        Phase::Play => Some(match state.play_to_beat() {
            None => Move::Play(lead(counts)),
            Some(prev) => respond(state, seat, counts, &prev),
        }),
        Phase::Over | Phase::Void => None,
    }
}

fn accession(state: &State, seat: u8) -> Move {
    let counts = state.hand_counts(seat);
    let s = strength(counts);
    if s >= GRAB {
        return Move::Grab;
    }
    let hand = state.hand(seat);
    let three = |m: &Move| matches!(m, Move::Ascend(c) if hand.count(*c) < 4);
    state.legal_moves().into_iter().find(three).unwrap_or(Move::Abdicate)
}

/// The whole hand when it is one play (at most one natural rank).
fn whole_hand(h: &HandCounts) -> Option<Shape> {
    let ranks = h.ranks_held();
    if ranks.count_ones() > 1 {
        return None;
    }
    let rank = if ranks == 0 { moves::NO_RANK } else { ranks.trailing_zeros() as u8 };
    let naturals = if ranks == 0 { 0 } else { h.nat()[rank as usize] };
    Some(Shape { rank, naturals, small: h.small(), big: h.big(), guard: h.guard() })
}

fn lead(h: &HandCounts) -> Shape {
    if let Some(all) = whole_hand(h) {
        return all;
    }
    let ranks = h.ranks_held();
    let groups = ranks.count_ones() as u8;
    let lowest = ranks.trailing_zeros() as u8;
    // Enough unbeatable (BJ-topped) leads to keep the lead until one group is left: play the
    // lowest group under one BJ (or guard card).
    let tops = h.big() + h.guard();
    if groups > 0 && tops > 0 && groups <= tops + 1 {
        let (big, guard) = if h.big() > 0 { (1, 0) } else { (0, 1) };
        return Shape { rank: lowest, naturals: h.nat()[lowest as usize], small: 0, big, guard };
    }
    if groups > 0 {
        return Shape { rank: lowest, naturals: h.nat()[lowest as usize], ..Shape::default() };
    }
    let none = Shape { rank: moves::NO_RANK, ..Shape::default() };
    if h.small() > 0 {
        Shape { small: h.small(), ..none }
    } else if h.big() > 0 {
        Shape { big: h.big(), ..none }
    } else {
        Shape { guard: h.guard(), ..none }
    }
}

/// Whether `other` is known to `seat` to play on its side (`Some(true)`), known to be an
/// opponent (`Some(false)`) or unknown (`None`).
fn side(state: &State, seat: u8, other: u8) -> Option<bool> {
    let (Some(e), mode) = (state.emperor(), state.mode()) else { return None };
    if mode.is_solo() && mode != Mode::SecretSolo {
        // 抢独 / 明独: the emperor alone against four.
        return Some((seat == e) == (other == e));
    }
    let guard = state.guard();
    let revealed = state.guard_revealed();
    let team = |p: u8| p == e || Some(p) == guard;
    if seat == e {
        // The emperor knows his guard once revealed (暗独: he is alone).
        if mode == Mode::SecretSolo {
            return Some(false);
        }
        return revealed.then(|| team(other));
    }
    if Some(seat) == guard {
        // The guard knows the emperor, and that the others are rebels.
        return Some(team(other));
    }
    // A rebel: the emperor is an opponent; the others are known once the guard is revealed.
    if other == e {
        Some(false)
    } else if revealed {
        Some(!team(other))
    } else {
        None
    }
}

fn respond(state: &State, seat: u8, h: &HandCounts, prev: &Shape) -> Move {
    let bombs = state.rules().bombs;
    if let Some(all) = whole_hand(h) {
        if moves::beats(&all, prev, bombs) {
            return Move::Play(all);
        }
    }
    let owner = state.round().owner;
    let side = side(state, seat, owner);
    let beat = if side == Some(true) {
        None
    } else {
        let urgent = side == Some(false) && state.hand_counts(owner).len() <= URGENT;
        cheapest_beat(state, h, prev, h.len() <= SAVE_JOKERS || urgent)
    };
    match beat {
        Some(s) => Move::Play(s),
        None if state.round().may_apply_jiefeng(state.rules()) => Move::Jiefeng,
        None => Move::Pass,
    }
}

fn cheapest_beat(state: &State, h: &HandCounts, prev: &Shape, jokers: bool) -> Option<Shape> {
    let key = |s: &Shape| {
        let split = s.naturals > 0 && s.naturals < h.nat()[s.rank as usize];
        (s.jokers(), s.guard, s.big, split, s.rank, s.naturals)
    };
    let mut best: Option<Shape> = None;
    moves::for_each(h, Some(prev), state.rules().bombs, |s| {
        let better = match best {
            Some(b) => key(&s) < key(&b),
            None => true,
        };
        if (jokers || s.jokers() == 0) && better {
            best = Some(s);
        }
        true
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use crate::games::baohuang::BaohuangRules;

    #[test]
    fn strength_counts_tops_and_groups() {
        let h = |t: &str| HandCounts::of(&t.parse().unwrap(), None);
        assert_eq!(strength(&h("BJ SJ 2S 2H AS KS QS")), 24 + 15 + 12 + 3 + 2 + 2 - 40);
        assert_eq!(strength(&h("3S 3H 4S 5S")), -30);
    }

    #[test]
    fn the_whole_hand_goes_at_once_and_bj_tops_keep_the_lead() {
        let h = |t: &str| HandCounts::of(&t.parse().unwrap(), None);
        let s = |t: &str| moves::shape_of(&t.parse().unwrap(), None).unwrap();
        assert_eq!(lead(&h("9S 9H BJ SJ")), s("9S 9H BJ SJ"));
        assert_eq!(lead(&h("3S 3H 9S BJ")), s("3S 3H BJ"), "unbeatable, then the 9");
        assert_eq!(lead(&h("3S 3H 9S 10S BJ")), s("3S 3H"), "three groups, one BJ");
    }

    #[test]
    fn greedy_guard_does_not_beat_the_emperor() {
        let r = BaohuangRules::default();
        for i in 0..20 {
            let mut rng = deal_rng(8, i);
            let mut s = State::new(&r, &mut rng);
            while let Some(mv) = greedy(&s) {
                if s.phase() == Phase::Play {
                    if let (Some(owner), Some(g)) =
                        (s.play_to_beat().map(|_| s.round().owner), s.guard())
                    {
                        if s.current_player() == Some(g) && Some(owner) == s.emperor() {
                            let out = |p: &Shape| p.total() as usize == s.hand(g).len();
                            let beat = matches!(mv, Move::Play(p) if !out(&p));
                            assert!(!beat, "the guard beat the emperor without going out");
                        }
                    }
                }
                s.apply(mv).unwrap();
            }
        }
    }
}
