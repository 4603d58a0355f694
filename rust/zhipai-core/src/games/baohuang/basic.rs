//! The first-generation rule-based player (`basic`), kept unchanged as a baseline: it was
//! `greedy` until the hand-strength player of [`super::greedy`] replaced it, and its rows equal
//! the old `greedy` rows (checksum test in `policy.rs`).
//!
//! * accession: ascend with a 3-copy card if he has one (first in kind order), else with a
//!   4-copy card (then 暗独), else abdicate; never grab; a guard plays 暗保; 逼位 takes the first
//!   option;
//! * lead: all naturals of his lowest rank; with no naturals, all his SJ, then all his BJ;
//! * response: pass when the play to beat is his partner's (the guard always knows the
//!   emperor; the emperor knows the guard once revealed); otherwise the smallest beating play
//!   — fewest jokers, then lowest rank — but jokers only when he holds at most 12 cards ("save
//!   jokers"); apply for 接风 instead of passing when allowed; never yield.

use super::moves::{self, Shape};
use super::state::{Move, Phase, State};

/// The basic player's move (module docs).
pub fn basic(state: &State) -> Option<Move> {
    let seat = state.current_player()?;
    let legal = |m: &Move| state.check_move(m).is_ok();
    match state.phase() {
        Phase::Accession => {
            let moves = state.legal_moves();
            let hand = state.hand(seat);
            let ascend = |want_guard: bool| {
                moves
                    .iter()
                    .copied()
                    .find(|m| matches!(m, Move::Ascend(c) if (hand.count(*c) < 4) == want_guard))
            };
            ascend(true).or_else(|| ascend(false)).or(Some(Move::Abdicate))
        }
        Phase::GrabWindow => Some(Move::Decline),
        Phase::Forced => state.nth_move(0),
        Phase::GuardChoice => Some(Move::SecretGuard),
        Phase::SoloChoice => Some(Move::SecretSolo),
        Phase::Play => {
            let counts = state.hand_counts(seat);
            match state.play_to_beat() {
                None => Some(Move::Play(greedy_lead(counts))),
                Some(prev) => {
                    let owner = state.round().owner;
                    let partner = is_partner(state, seat, owner);
                    let best = if partner { None } else { cheapest_beat(state, seat, &prev) };
                    best.map(Move::Play).or_else(|| {
                        if legal(&Move::Jiefeng) {
                            Some(Move::Jiefeng)
                        } else {
                            Some(Move::Pass)
                        }
                    })
                }
            }
        }
        Phase::Over | Phase::Void => None,
    }
}

fn is_partner(state: &State, seat: u8, owner: u8) -> bool {
    if state.mode().is_solo() || seat == owner {
        return false;
    }
    let (Some(e), Some(g)) = (state.emperor(), state.guard()) else { return false };
    (seat == g && owner == e) || (seat == e && owner == g && state.guard_revealed())
}

fn greedy_lead(counts: &moves::HandCounts) -> Shape {
    if let Some(r) = counts.nat().iter().position(|&n| n > 0) {
        return Shape { rank: r as u8, naturals: counts.nat()[r], ..Shape::default() };
    }
    let none = Shape { rank: moves::NO_RANK, ..Shape::default() };
    if counts.small() > 0 {
        Shape { small: counts.small(), ..none }
    } else if counts.big() > 0 {
        Shape { big: counts.big(), ..none }
    } else {
        Shape { guard: counts.guard(), ..none }
    }
}

fn cheapest_beat(state: &State, seat: u8, prev: &Shape) -> Option<Shape> {
    let counts = state.hand_counts(seat);
    let save_jokers = counts.len() > 12;
    let key = |s: &Shape| (s.jokers(), s.guard, s.big, s.rank, s.naturals);
    let mut best: Option<Shape> = None;
    moves::for_each(counts, Some(prev), state.rules().bombs, |s| {
        // Strictly better only: the first of equal keys wins, as with `min_by_key`.
        let better = !matches!(best, Some(b) if key(&b) <= key(&s));
        if !(save_jokers && s.jokers() > 0) && better {
            best = Some(s);
        }
        true
    });
    best
}
