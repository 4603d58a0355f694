//! INTERNAL test hooks, not part of the API (cargo feature `test-hooks`, built by `.ci/run` and
//! the README's test command): `_simulate` and `_evaluate` on the toy coin game of
//! `zhipai_core::toy`, so the Python tests can drive the simulation layer (interrupts, failing
//! deals, chunking, Ray) without a real game.

use crate::evaluate::{run_eval, Knowledge};
use crate::simulate::{options, run_sim};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zhipai_core::rollout::RunOptions;
use zhipai_core::toy;

/// INTERNAL test hook, not part of the API: `_simulate` on the toy coin game of
/// `zhipai_core::rollout::toy` (columns `heads`, `score`, `delta`, `greedy`), so the Python
/// layer can be tested before any real game implements simulation.
#[pyfunction]
#[pyo3(signature = (deals, policy, seed, threads=None, chunk_size=None, aggregate_only=false, progress=None, flips=10, fail_per_million=0, work=0, first_deal=0))]
#[allow(clippy::too_many_arguments)]
fn _simulate_toy<'py>(
    py: Python<'py>,
    deals: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    aggregate_only: bool,
    progress: Option<Bound<'py, PyAny>>,
    flips: u32,
    fail_per_million: u32,
    work: u32,
    first_deal: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = RunOptions { first_deal, ..options(deals, policy, seed, threads, chunk_size)? };
    let game = toy::CoinGame { flips, fail_per_million, work };
    run_sim(py, &game, opts, aggregate_only, progress.as_ref())
}

/// INTERNAL test hook, not part of the API: `_evaluate` on the toy coin game (4 seats of 12
/// cards from one deck without jokers, kitty 4; each ace kept raises the heads rate by 10%).
#[pyfunction]
#[pyo3(signature = (knowledge, samples, policy, seed, threads=None, chunk_size=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn _evaluate_toy<'py>(
    py: Python<'py>,
    knowledge: Knowledge,
    samples: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(samples, policy, seed, threads, chunk_size)?;
    run_eval(py, &knowledge, opts.deals, progress.as_ref(), |req, declared, ctl| {
        zhipai_core::eval::evaluate_declared(&toy::CoinGame::default(), req, declared, &opts, ctl)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_simulate_toy, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_toy, m)?)?;
    Ok(())
}
