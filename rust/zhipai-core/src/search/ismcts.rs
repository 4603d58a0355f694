//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse, "Information Set Monte Carlo Tree Search", 2012) with UCT.
//!
//! One tree over the moves of every seat, seen from the seat to act (the observer). Each
//! iteration draws a world consistent with the observer's knowledge, descends the tree through
//! the children whose move is legal in that world (UCB1 with *availability* counts: a child's
//! exploration term counts the iterations in which it could have been chosen), expands one move
//! not tried yet, plays the world out with the rollout policy and credits every node on the path
//! with the return of the seat that made its move. Returns are scaled to `[0, 1]` by the range
//! seen so far, so the exploration constant does not depend on the game's units. The move of the
//! root child visited most is played (ties: the game's order).
//!
//! Moves per node: the first `candidates` legal moves in the game's order plus up to `widen`
//! drawn with the random policy's distribution when more are legal ([`super::pimc::candidates`]).
//! Reproducible from the caller's generator; a time budget makes it depend on timing.

use super::determinize::Determinizer;
use super::pimc::candidates;
use crate::error::{Result, ZhipaiError};
use crate::game::{GameRng, GameState};
use crate::policy::Policy;
use rand::Rng;
use std::time::{Duration, Instant};

/// The parameters of an ISMCTS decision (`ismcts(iterations=1000,rollout=greedy,c=0.7)`).
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (worlds) per decision, ≥ 1.
    pub iterations: u32,
    /// The policy every seat plays in the rollouts.
    pub rollout: Policy,
    /// UCB1 exploration constant, on returns scaled to [0, 1].
    pub c: f64,
    /// Legal moves considered per node in the game's order (≥ 1).
    pub candidates: usize,
    /// Extra moves per node drawn with the random policy's distribution when more are legal.
    pub widen: usize,
    /// Stop iterating once this much time is spent (at least one iteration runs).
    pub time: Option<Duration>,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: 1000,
            rollout: Policy::Greedy,
            c: 0.7,
            candidates: 12,
            widen: 4,
            time: None,
        }
    }
}

/// One tree node: the move that leads to it and who made it, and its statistics.
#[derive(Debug)]
struct Node<M> {
    mv: Option<M>,
    mover: usize,
    children: Vec<usize>,
    visits: u32,
    /// Iterations in which this node's move was legal at its parent.
    avail: u32,
    /// Sum of the mover's returns.
    reward: f64,
}

/// The result of a search: the move and the visits of every root child.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsDecision<M> {
    pub choice: M,
    /// `(move, visits, mean return of the observer)` per root child, in expansion order.
    pub children: Vec<(M, u32, f64)>,
    pub iterations: u32,
}

/// Choose a move for the seat to act in `state` by SO-ISMCTS (module docs), drawing from `rng`.
/// Errors as [`super::pimc::pimc`].
pub fn ismcts<S: GameState>(
    state: &S,
    cfg: &IsmctsConfig,
    rng: &mut GameRng,
) -> Result<IsmctsDecision<S::Move>> {
    let seat = state
        .current_player()
        .ok_or_else(|| ZhipaiError::illegal_play("ismcts move", "the deal is over"))?;
    let (root_moves, _) = candidates(state, cfg.candidates, cfg.widen, rng);
    if root_moves.len() == 1 {
        return Ok(IsmctsDecision {
            choice: root_moves[0],
            children: vec![(root_moves[0], 0, 0.0)],
            iterations: 0,
        });
    }
    let sampler = Determinizer::new(state, seat)?;
    let mut tree =
        vec![Node { mv: None, mover: seat, children: vec![], visits: 0, avail: 0, reward: 0.0 }];
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let start = Instant::now();
    let mut done = 0;
    while done < cfg.iterations {
        iterate(&mut tree, &sampler, cfg, rng, (&mut lo, &mut hi))?;
        done += 1;
        if cfg.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    let children: Vec<(S::Move, u32, f64)> = tree[0]
        .children
        .iter()
        .map(|&c| {
            let n = &tree[c];
            (n.mv.expect("a child has a move"), n.visits, n.reward / n.visits.max(1) as f64)
        })
        .collect();
    let best =
        children.iter().enumerate().fold(0, |b, (i, c)| if c.1 > children[b].1 { i } else { b });
    Ok(IsmctsDecision { choice: children[best].0, children, iterations: done })
}

/// One iteration: world, selection, expansion, rollout, backpropagation.
fn iterate<S: GameState>(
    tree: &mut Vec<Node<S::Move>>,
    sampler: &Determinizer<'_, S>,
    cfg: &IsmctsConfig,
    rng: &mut GameRng,
    (lo, hi): (&mut f64, &mut f64),
) -> Result<()> {
    let mut world = sampler.world(rng)?;
    let mut path = vec![0usize];
    let mut node = 0;
    while let Some(mover) = world.current_player() {
        let (moves, _) = candidates(&world, cfg.candidates, cfg.widen, rng);
        let mut available = Vec::with_capacity(moves.len());
        let mut untried = Vec::new();
        for mv in moves {
            match tree[node].children.iter().find(|&&c| tree[c].mv == Some(mv)) {
                Some(&c) => available.push(c),
                None => untried.push(mv),
            }
        }
        for &c in &available {
            tree[c].avail += 1;
        }
        if !untried.is_empty() {
            let mv = untried[rng.random_range(0..untried.len())];
            tree.push(Node {
                mv: Some(mv),
                mover,
                children: vec![],
                visits: 0,
                avail: 1,
                reward: 0.0,
            });
            let child = tree.len() - 1;
            tree[node].children.push(child);
            world.apply_move_unchecked(&mv);
            path.push(child);
            break;
        }
        let scale = |r: f64| if *hi > *lo { (r - *lo) / (*hi - *lo) } else { 0.5 };
        let ucb = |c: usize| {
            let n = &tree[c];
            let mean = scale(n.reward / n.visits.max(1) as f64);
            mean + cfg.c * ((n.avail.max(1) as f64).ln() / n.visits.max(1) as f64).sqrt()
        };
        let next =
            available
                .iter()
                .copied()
                .fold(available[0], |b, c| if ucb(c) > ucb(b) { c } else { b });
        world.apply_move_unchecked(&tree[next].mv.expect("a child has a move"));
        path.push(next);
        node = next;
    }
    world.play_out(cfg.rollout)?;
    let returns = world.returns();
    for &r in &returns {
        *lo = lo.min(r);
        *hi = hi.max(r);
    }
    for &n in &path {
        tree[n].visits += 1;
        tree[n].reward += returns[tree[n].mover];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use crate::game::Game;
    use crate::games::gongzhu::GongzhuRules;

    #[test]
    fn decisions_are_legal_reproducible_and_refused_once_the_deal_is_over() {
        let rules = GongzhuRules::default();
        let cfg = IsmctsConfig { iterations: 40, ..IsmctsConfig::default() };
        let mut st = rules.new_deal(3, 0).unwrap();
        let mut decisions = 0;
        while st.current_player().is_some() {
            let a = ismcts(&st, &cfg, &mut deal_rng(5, decisions)).unwrap();
            let b = ismcts(&st, &cfg, &mut deal_rng(5, decisions)).unwrap();
            assert_eq!(a.choice, b.choice, "the same generator gives the same decision");
            st.check_move(&a.choice).unwrap();
            st.apply_move(&a.choice).unwrap();
            decisions += 1;
        }
        assert!(decisions >= 52, "{decisions}");
        let e = ismcts(&st, &cfg, &mut deal_rng(5, 0)).unwrap_err();
        assert!(e.to_string().contains("over"), "{e}");
    }
}
