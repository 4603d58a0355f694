//! Python binding of deals played by a player per seat (`zhipai-core` `arena.rs`):
//! `_simulate_players` (the rows of `simulate` with a player per seat, search players included)
//! and `_arena` (duplicate-deal tournaments), run through [`crate::run::run_polled`].

use crate::errors::guard;
use crate::rules::PyRules;
use crate::run::{arrays, columns_into, run_polled, status_into};
use crate::simulate::options;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zhipai_core::arena::{lineups, num_players, play_arena, simulate_players};
use zhipai_core::rollout::RunOptions;
use zhipai_core::search::Player;

/// Player names (`"greedy"`, `"pimc(worlds=32)"`, …) parsed, naming a bad one.
fn players(names: &[String]) -> PyResult<Vec<Player>> {
    guard(|| names.iter().map(|n| n.parse::<Player>()).collect())
}

/// The clock per player as `[(seconds, decisions)]`.
fn clock(c: &[(u64, u64)]) -> Vec<(f64, u64)> {
    c.iter().map(|&(ns, d)| (ns as f64 * 1e-9, d)).collect()
}

/// `_simulate_players(rules, players, deals, seed, threads=None, chunk_size=None, progress=None,
/// first_deal=0) -> dict`: `simulate`'s rows with `players[seat]` at each seat (names of
/// `zhipai_core::search::player`): `columns`, `docs`, `data` (int32 arrays), `clock` (per seat
/// `(seconds, decisions)`), `requested`, `completed`, `interrupted`, `exception`.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, seed, threads=None, chunk_size=None, progress=None, first_deal=0))]
#[allow(clippy::too_many_arguments)]
fn _simulate_players<'py>(
    py: Python<'py>,
    rules: PyRules,
    players: Vec<String>,
    deals: u64,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
    first_deal: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let list = self::players(&players)?;
    let opts = RunOptions { first_deal, ..options(deals, "random", seed, threads, chunk_size)? };
    let (run, exc) = run_polled(py, opts.deals, progress.as_ref(), |ctl| {
        simulate_players(&rules.0, &list, &opts, ctl)
    })?;
    let d = PyDict::new(py);
    columns_into(&d, &rules.0.columns())?;
    d.set_item("data", arrays(py, run.value.data)?)?;
    d.set_item("clock", clock(&run.value.clock))?;
    status_into(py, &d, (run.requested, run.completed, run.interrupted), exc)?;
    Ok(d)
}

/// `_arena(rules, players, deals, seed, threads=None, chunk_size=None, progress=None,
/// first_deal=0) -> dict`: a duplicate-deal tournament (`zhipai_core::arena`): `lineups`
/// (`lineups[l][seat]` = player index), `returns` (int32 arrays, `returns[l * seats + seat][i]`),
/// `clock` (per player `(seconds, decisions)`), `requested`, `completed`, `interrupted`,
/// `exception`.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, seed, threads=None, chunk_size=None, progress=None, first_deal=0))]
#[allow(clippy::too_many_arguments)]
fn _arena<'py>(
    py: Python<'py>,
    rules: PyRules,
    players: Vec<String>,
    deals: u64,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
    first_deal: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let list = self::players(&players)?;
    let opts = RunOptions { first_deal, ..options(deals, "random", seed, threads, chunk_size)? };
    let (run, exc) = run_polled(py, opts.deals, progress.as_ref(), |ctl| {
        play_arena(&rules.0, &list, &opts, ctl)
    })?;
    let d = PyDict::new(py);
    d.set_item("lineups", &run.value.lineups)?;
    d.set_item("returns", arrays(py, run.value.returns)?)?;
    d.set_item("clock", clock(&run.value.clock))?;
    status_into(py, &d, (run.requested, run.completed, run.interrupted), exc)?;
    Ok(d)
}

/// `_player_name(text) -> str`: the canonical name of a player (`InvalidValueError` naming a bad
/// name or parameter).
#[pyfunction]
fn _player_name(text: &str) -> PyResult<String> {
    guard(|| text.parse::<Player>().map(|p| p.to_string()))
}

/// `_arena_lineups(rules, players) -> list[list[int]]`: the lineups `_arena` plays for `players`
/// players at the table of `rules` (`lineups[l][seat]` = player index), so a Python loop plays
/// the same ones. `InvalidValueError` unless 2 <= players <= seats.
#[pyfunction]
fn _arena_lineups(rules: PyRules, players: usize) -> PyResult<Vec<Vec<usize>>> {
    let n = num_players(&rules.0);
    if !(2..=n).contains(&players) {
        return guard(|| {
            Err(zhipai_core::error::ZhipaiError::invalid_value(
                "players",
                players,
                format!("an arena takes 2 to {n} players"),
            ))
        });
    }
    Ok(lineups(n, players))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_arena_lineups, m)?)?;
    m.add_function(wrap_pyfunction!(_simulate_players, m)?)?;
    m.add_function(wrap_pyfunction!(_arena, m)?)?;
    m.add_function(wrap_pyfunction!(_player_name, m)?)?;
    Ok(())
}
