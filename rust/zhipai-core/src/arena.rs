//! Deals played by a player per seat, written once for every game: per-seat simulation
//! ([`simulate_players`]) and duplicate-deal tournaments ([`play_arena`]).
//!
//! Deal `i` of a run seeded `s` is the deal of `simulate` (`Game::new_deal(s, i)`); built-in
//! players draw from the deal's own generator exactly as `simulate` does, search players from the
//! deal's *search generator* `deal_rng(s ^ SEARCH_SALT, i)` ([`crate::search::search_rng`]), so results are
//! reproducible from the seed and identical for any number of threads (the simulation driver of
//! [`crate::rollout`] runs the deals, with its Ctrl-C and progress handling).
//!
//! **Duplicate deals.** With `k` players at `n` seats, every deal is played once per *lineup*: the
//! distinct assignments "seat `s` gets player `((s + r) mod n) mod k`" for `r` in `0..n`. With two
//! players at a 4-seat table that is `A B A B` and `B A B A`: each player holds every hand (and, in
//! the partnership games, every team) once per deal. Returns are whole numbers in every game
//! (levels, points), kept as `i32`.

use crate::error::{Result, ZhipaiError};
use crate::game::{Game, GameRng, GameState};
use crate::rollout::{run_rows, Control, Run, RunOptions};
use crate::rules::Rules;
use crate::search::{search_rng, Player};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The lineups of `k` players at `n` seats (module docs): `lineups[l][seat]` = player index.
pub fn lineups(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for r in 0..n {
        let l: Vec<usize> = (0..n).map(|s| ((s + r) % n) % k.max(1)).collect();
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// Seats at the table of `rules`.
pub fn num_players(rules: &Rules) -> usize {
    match rules {
        Rules::Baohuang(_) => 5,
        _ => 4,
    }
}

/// Play `state` to the end with `players[lineup[seat]]` at each seat; time spent and decisions
/// made per player are added to `clock`.
fn play_out<S: GameState>(
    state: &mut S,
    players: &[Player],
    lineup: &[usize],
    search: &mut GameRng,
    clock: &[(AtomicU64, AtomicU64)],
) -> Result<()> {
    while let Some(seat) = state.current_player() {
        let p = lineup[seat];
        let t = Instant::now();
        players[p].play(state, search)?;
        clock[p].0.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        clock[p].1.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// A return as `i32`: every game's returns are whole numbers (levels, points); anything else is
/// an `InvalidValue` naming it rather than a rounded value.
pub fn whole_return(r: f64) -> Result<i32> {
    if r.fract() == 0.0 && r.abs() <= i32::MAX as f64 {
        Ok(r as i32)
    } else {
        Err(ZhipaiError::invalid_value("return", r, "returns are kept as whole numbers in i32"))
    }
}

/// The result of [`simulate_players`]: the result rows and each player's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRun {
    /// `data[c][i]` = column `c` of deal `i` (the columns of `simulate`).
    pub data: Vec<Vec<i32>>,
    /// Per seat: nanoseconds spent choosing and decisions made.
    pub clock: Vec<(u64, u64)>,
}

/// Play deals `opts.first_deal..` of `opts.seed` with `players[seat]` at each seat and keep
/// `simulate`'s rows (`opts.policy` is not read). With every seat a built-in policy `p` the rows
/// equal `simulate(p)`'s. Errors: a wrong number of players; the game's; `InvalidValue` options.
pub fn simulate_players(
    rules: &Rules,
    players: &[Player],
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<SeatRun>> {
    let n = num_players(rules);
    if players.len() != n {
        return Err(ZhipaiError::invalid_value(
            "players",
            players.len(),
            format!("expected one per seat ({n})"),
        ));
    }
    let lineup: Vec<usize> = (0..n).collect();
    let clock: Vec<(AtomicU64, AtomicU64)> = (0..n).map(|_| Default::default()).collect();
    let width = rules.columns().len();
    let run = crate::with_game!(rules, g => {
        let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| -> Result<()> {
            // The driver hands deal i the generator deal_rng(seed, i): its stream is i.
            let index = rng.get_stream();
            let mut state = g.new_deal(opts.seed, index)?;
            let mut search = search_rng(opts.seed, index);
            play_out(&mut state, players, &lineup, &mut search, &clock)?;
            state.result_row(row)
        };
        run_rows(width, opts, ctl, &play)?
    });
    let clock =
        clock.iter().map(|(t, d)| (t.load(Ordering::Relaxed), d.load(Ordering::Relaxed))).collect();
    Ok(run.map(|data| SeatRun { data, clock }))
}

/// The result of [`play_arena`].
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaRun {
    /// `lineups[l][seat]` = the player at `seat` in lineup `l`.
    pub lineups: Vec<Vec<usize>>,
    /// `returns[l * seats + seat][i]` = the return of `seat` in lineup `l` of deal `i`.
    pub returns: Vec<Vec<i32>>,
    /// Per player: nanoseconds spent choosing and decisions made (every lineup).
    pub clock: Vec<(u64, u64)>,
}

/// A duplicate-deal tournament (module docs): deals `opts.first_deal..` of `opts.seed`, each
/// played once per lineup of `players`. Errors: fewer than 2 or more players than seats; the
/// game's; `InvalidValue` options.
pub fn play_arena(
    rules: &Rules,
    players: &[Player],
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<ArenaRun>> {
    let n = num_players(rules);
    if !(2..=n).contains(&players.len()) {
        return Err(ZhipaiError::invalid_value(
            "players",
            players.len(),
            format!("an arena takes 2 to {n} players"),
        ));
    }
    let lineups = lineups(n, players.len());
    let clock: Vec<(AtomicU64, AtomicU64)> = players.iter().map(|_| Default::default()).collect();
    let width = lineups.len() * n;
    let run = crate::with_game!(rules, g => {
        let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| -> Result<()> {
            let index = rng.get_stream();
            for (l, lineup) in lineups.iter().enumerate() {
                let mut state = g.new_deal(opts.seed, index)?;
                let mut search = search_rng(opts.seed, index);
                play_out(&mut state, players, lineup, &mut search, &clock)?;
                for (s, r) in state.returns().into_iter().enumerate() {
                    row[l * n + s] = whole_return(r)?;
                }
            }
            Ok(())
        };
        run_rows(width, opts, ctl, &play)?
    });
    let clock =
        clock.iter().map(|(t, d)| (t.load(Ordering::Relaxed), d.load(Ordering::Relaxed))).collect();
    Ok(run.map(|returns| ArenaRun { lineups, returns, clock }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_holds_every_seat_across_the_lineups() {
        assert_eq!(lineups(4, 2), vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
        assert_eq!(lineups(4, 4).len(), 4);
        for l in lineups(5, 5) {
            let mut seen = l.clone();
            seen.sort();
            assert_eq!(seen, vec![0, 1, 2, 3, 4]);
        }
        // Every seat is held by each of 2 players in some lineup, at 5 seats too.
        let l5 = lineups(5, 2);
        for s in 0..5 {
            assert!(l5.iter().any(|l| l[s] == 0) && l5.iter().any(|l| l[s] == 1));
        }
    }
}
