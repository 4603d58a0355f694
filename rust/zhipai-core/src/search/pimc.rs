//! Perfect-information Monte Carlo (PIMC): sample worlds consistent with what the seat to act
//! knows, play every candidate move out in each world with a rollout policy, choose the best mean
//! of the seat's own return ([`GameState::returns`]: team levels in the Shengji family, score in
//! Hong Wu, Gongzhu and Baohuang).
//!
//! * **Common random numbers**: in each world every candidate starts from the same hidden cards
//!   and the same generator, so the differences between candidates are paired.
//! * **Candidates** ([`candidates`]): the first `candidates` legal moves in the game's order, then
//!   — when there are more legal moves — `widen` more drawn with the game's random-policy
//!   distribution. Nothing is cut silently: the decision reports how many moves were legal.
//! * **The rollout policy's own move** is always a candidate (when the rollout is not
//!   `random`), chosen in one sampled world so that it uses only what the seat knows; and it is
//!   kept unless the best candidate beats it by more than [`ACCEPT_Z`] standard errors of the
//!   paired difference over the worlds (the lower-confidence-bound acceptance of the strongest
//!   public Tractor bot). With few worlds the means are noisy; this keeps PIMC from trading the
//!   policy's sound move for a lucky one, and it never considers fewer moves than before.
//! * **Reproducible**: world `w` draws from its own stream of a seed taken once from the caller's
//!   generator, so the decision is the same for any number of threads. A time budget stops adding
//!   worlds once it is spent (at least one world is played); the decision then depends on timing.

use super::determinize::Determinizer;
use crate::deal::deal_rng;
use crate::error::{Result, ZhipaiError};
use crate::game::{GameRng, GameState};
use crate::policy::Policy;
use rand::RngCore;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// How many standard errors of the paired difference (over the worlds) the best candidate must
/// beat the rollout policy's own move by to replace it (module docs).
pub const ACCEPT_Z: f64 = 1.0;

/// The stream of the world the rollout policy's own move is chosen in (worlds use `0..worlds`).
const POLICY_WORLD: u64 = u64::MAX;

/// The parameters of a PIMC decision (`pimc(worlds=24,rollout=greedy,candidates=12,widen=4)`).
#[derive(Clone, Debug, PartialEq)]
pub struct PimcConfig {
    /// Worlds sampled per decision (≥ 1).
    pub worlds: u32,
    /// The policy every seat plays in the rollouts.
    pub rollout: Policy,
    /// Legal moves considered in the game's order (≥ 1).
    pub candidates: usize,
    /// Extra candidates drawn with the random policy's distribution when more moves are legal.
    pub widen: usize,
    /// Stop adding worlds once this much time is spent (`None`: play every world).
    pub time: Option<Duration>,
    /// Threads for one decision: 1 = the calling thread, 0 = every thread of the current rayon
    /// pool.
    pub threads: usize,
}

impl Default for PimcConfig {
    fn default() -> Self {
        PimcConfig {
            worlds: 24,
            rollout: Policy::Greedy,
            candidates: 12,
            widen: 4,
            time: None,
            threads: 1,
        }
    }
}

/// The value of one candidate over the worlds played.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateValue<M> {
    pub mv: M,
    /// Mean of the seat's return.
    pub mean: f64,
    /// Standard deviation of the seat's return over the worlds.
    pub sd: f64,
}

/// A PIMC decision: the chosen move and every candidate's value.
#[derive(Clone, Debug, PartialEq)]
pub struct PimcDecision<M> {
    pub choice: M,
    pub values: Vec<CandidateValue<M>>,
    /// Legal moves in the position (`count_legal_moves`).
    pub legal: u64,
    /// Worlds played (fewer than asked when the time budget ran out; 0 for a forced move).
    pub worlds: u32,
}

/// The moves a search considers at `state`: the first `cap` legal moves in the game's order,
/// then, when the game reports more legal moves than listed, up to `widen` distinct others drawn
/// with its random-policy distribution from `rng`. Also returns the number of legal moves.
pub fn candidates<S: GameState>(
    state: &S,
    cap: usize,
    widen: usize,
    rng: &mut GameRng,
) -> (Vec<S::Move>, u64) {
    let mut moves = state.legal_moves(cap.max(1));
    let legal = state.count_legal_moves();
    if (moves.len() as u64) < legal {
        let mut tries = 0;
        let goal = moves.len() + widen;
        while moves.len() < goal && tries < 8 * widen {
            tries += 1;
            if let Some(m) = state.sample_legal_move(rng) {
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
        }
    }
    (moves, legal)
}

/// Choose a move for the seat to act in `state` by PIMC (module docs), drawing from `rng`.
///
/// Errors: `IllegalPlay` once the deal is over; the game's determinisation errors (a game
/// without it, knowledge no deal satisfies); a rollout's error.
pub fn pimc<S: GameState>(
    state: &S,
    cfg: &PimcConfig,
    rng: &mut GameRng,
) -> Result<PimcDecision<S::Move>> {
    let seat = state
        .current_player()
        .ok_or_else(|| ZhipaiError::illegal_play("pimc move", "the deal is over"))?;
    let (mut moves, legal) = candidates(state, cfg.candidates, cfg.widen, rng);
    if moves.len() == 1 {
        let only = CandidateValue { mv: moves[0], mean: 0.0, sd: 0.0 };
        return Ok(PimcDecision { choice: moves[0], values: vec![only], legal, worlds: 0 });
    }
    let sampler = Determinizer::new(state, seat)?;
    let seed = rng.next_u64();
    let policy_move = match cfg.rollout {
        Policy::Random => None,
        policy => {
            let mut w = sampler.world(&mut deal_rng(seed, POLICY_WORLD))?;
            let mv = w.builtin_move(policy)?;
            Some(moves.iter().position(|m| *m == mv).unwrap_or_else(|| {
                moves.push(mv);
                moves.len() - 1
            }))
        }
    };
    let world = |w: u32| -> Result<Vec<f64>> {
        let mut wr = deal_rng(seed, w as u64);
        let base = sampler.world(&mut wr)?;
        moves
            .iter()
            .map(|mv| {
                let mut s = base.clone(); // same hidden cards and generator: common random numbers
                s.apply_move_unchecked(mv);
                s.play_out(cfg.rollout)?;
                Ok(s.returns()[seat])
            })
            .collect()
    };
    let start = Instant::now();
    let out_of_time = || cfg.time.is_some_and(|t| start.elapsed() >= t);
    let mut results: Vec<Vec<f64>> = Vec::with_capacity(cfg.worlds as usize);
    if cfg.threads == 1 {
        for w in 0..cfg.worlds {
            results.push(world(w)?);
            if out_of_time() {
                break;
            }
        }
    } else {
        // Batches of one world per thread, kept in world order, so the sums do not depend on
        // the number of threads.
        let batch = if cfg.threads == 0 { rayon::current_num_threads() } else { cfg.threads };
        let mut w = 0;
        while w < cfg.worlds {
            let end = (w + batch as u32).min(cfg.worlds);
            let done: Vec<Result<Vec<f64>>> = (w..end).into_par_iter().map(world).collect();
            for r in done {
                results.push(r?);
            }
            w = end;
            if out_of_time() {
                break;
            }
        }
    }
    let values = summarize(&moves, &results);
    let mut best = best_index(&values);
    if let Some(p) = policy_move.filter(|&p| p != best && !clearly_better(&results, best, p)) {
        best = p;
    }
    Ok(PimcDecision { choice: moves[best], values, legal, worlds: results.len() as u32 })
}

/// Whether candidate `a` beats candidate `b` by more than [`ACCEPT_Z`] standard errors of their
/// paired difference over the worlds.
fn clearly_better(results: &[Vec<f64>], a: usize, b: usize) -> bool {
    let n = results.len() as f64;
    if n < 2.0 {
        return false;
    }
    let diffs = results.iter().map(|r| r[a] - r[b]);
    let mean = diffs.clone().sum::<f64>() / n;
    let var = diffs.map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    mean > ACCEPT_Z * (var / n).sqrt()
}

/// Mean and standard deviation of each candidate over the worlds (summed in world order).
fn summarize<M: Copy>(moves: &[M], results: &[Vec<f64>]) -> Vec<CandidateValue<M>> {
    let n = results.len().max(1) as f64;
    moves
        .iter()
        .enumerate()
        .map(|(c, &mv)| {
            let mean = results.iter().map(|r| r[c]).sum::<f64>() / n;
            let var = results.iter().map(|r| (r[c] - mean).powi(2)).sum::<f64>() / n;
            CandidateValue { mv, mean, sd: var.sqrt() }
        })
        .collect()
}

/// The candidate with the best mean (the first of equals: the game's order breaks ties).
fn best_index<M>(values: &[CandidateValue<M>]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if v.mean > values[best].mean {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::gongzhu::GongzhuRules;

    #[test]
    fn clearly_better_needs_the_paired_difference_above_one_standard_error() {
        // Candidate 0 beats 1 by 1 in every world: no spread, clearly better.
        let same = vec![vec![1.0, 0.0]; 4];
        assert!(clearly_better(&same, 0, 1) && !clearly_better(&same, 1, 0));
        // Differences +3, -1, +3, -1: mean 1, sd 2.31, se 1.15 > 1: not clearly better.
        let noisy = vec![vec![3.0, 0.0], vec![-1.0, 0.0], vec![3.0, 0.0], vec![-1.0, 0.0]];
        assert!(!clearly_better(&noisy, 0, 1));
        // One world decides nothing.
        assert!(!clearly_better(&[vec![5.0, 0.0]], 0, 1));
    }

    #[test]
    fn with_one_world_pimc_plays_the_rollout_policys_move() {
        // One world gives no standard error, so the policy's own move is always kept: the
        // decision is greedy's move (which depends only on what the seat knows) wherever PIMC
        // has a choice.
        let rules = GongzhuRules::default();
        let cfg = PimcConfig { worlds: 1, ..PimcConfig::default() };
        let mut rng = deal_rng(8, 1);
        let mut checked = 0;
        for seed in 0..3 {
            let mut st = rules.new_deal(seed, 0).unwrap();
            while st.current_player().is_some() {
                let greedy = st.clone().builtin_move(Policy::Greedy).unwrap();
                let d = pimc(&st, &cfg, &mut rng).unwrap();
                assert_eq!(d.choice, greedy, "seed {seed}");
                assert!(d.values.iter().any(|v| v.mv == greedy));
                checked += 1;
                st.apply_builtin(Policy::Random).unwrap();
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
