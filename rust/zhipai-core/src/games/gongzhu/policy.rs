//! Built-in Gongzhu players and how a deal is played with them.
//!
//! * `random`: uniform over the legal moves at every decision (exposure decisions included).
//! * `greedy`: the rule-based player of [`super::greedy`] (the rollout policy of search).
//! * `basic`: the first-generation rule-based player, kept as a baseline ([`super::basic`]).

use super::basic::{basic_exposure, basic_play};
use super::greedy::{greedy_exposure, greedy_play};
use super::play::{pick_legal_play, Play};
use super::state::{Move, Phase, State};
use crate::policy::Policy;
use rand::Rng;

/// A uniform index in `0..n` (`n ≥ 1`), exactly uniform ([`crate::sample::below_always`]: one `u32`),
/// shared by the general state and the fast rollout so both draw the same numbers. A forced
/// choice (`n = 1`) draws too: skipping the draw would be a data-dependent branch, mispredicted
/// often enough to cost more than the draw.
#[inline(always)]
pub fn pick_index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    crate::sample::below_always(rng, n as u32) as usize
}

/// Choose a move for the seat to act with `policy`, drawing randomness from `rng`. `buf` is a
/// reusable buffer for the legal plays.
pub fn choose<R: Rng + ?Sized>(
    state: &State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) -> Move {
    if state.phase() == Phase::Exposure {
        return match policy {
            Policy::Greedy => greedy_exposure(state),
            Policy::Basic => basic_exposure(state),
            Policy::Random => {
                let moves = state.legal_moves();
                moves[pick_index(rng, moves.len())]
            }
        };
    }
    Move::Play(match policy {
        Policy::Random => {
            // Singles (most decisions) are picked without listing the legal plays.
            let pos = state.position();
            let pick = |n| pick_index(rng, n);
            pick_legal_play(state.rules(), &pos, pick).unwrap_or_else(|| {
                state.legal_plays_into(buf);
                buf[pick_index(rng, buf.len())]
            })
        }
        Policy::Greedy => greedy_play(state, buf),
        Policy::Basic => {
            state.legal_plays_into(buf);
            basic_play(state, buf)
        }
    })
}

/// Play `state` to the end with `policy` for every seat.
pub fn play_out<R: Rng + ?Sized>(
    state: &mut State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) {
    while !state.is_terminal() {
        match choose(state, policy, rng, buf) {
            Move::Play(p) => state.apply_play_unchecked(p),
            mv => state.apply_exposure(mv),
        }
    }
}
