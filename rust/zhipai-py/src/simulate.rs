//! Python binding of batch simulation (`zhipai-core` `rollout.rs`): `_simulate` and `_columns`,
//! run through [`crate::run::run_polled`] (GIL released, Ctrl-C and progress polled).

use crate::errors::guard;
use crate::rules::PyRules;
use crate::run::{arrays, columns_into, run_polled, stats_dict, status_into};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use zhipai_core::policy::Policy;
use zhipai_core::rollout::{self, RunOptions};
use zhipai_core::simulator::DealSimulator;
use zhipai_core::ZhipaiError;

/// Run `sim` and build the result dict: `columns`, `docs`, `requested`, `completed`,
/// `interrupted`, then `data` (list of int32 arrays, rows mode) or `stats` (list of dicts),
/// and `exception` (the Python exception that stopped the run, or `None`).
pub(crate) fn run_sim<'py>(
    py: Python<'py>,
    sim: &dyn DealSimulator,
    opts: RunOptions,
    aggregate_only: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    columns_into(&d, &sim.columns())?;
    let (requested, completed, interrupted, exc) = if aggregate_only {
        let (run, exc) = run_polled(py, opts.deals, progress, |ctl| {
            rollout::simulate_aggregates(sim, &opts, ctl)
        })?;
        let stats = PyList::empty(py);
        for s in &run.value.stats {
            stats.append(stats_dict(py, s)?)?;
        }
        d.set_item("stats", stats)?;
        (run.requested, run.completed, run.interrupted, exc)
    } else {
        let (run, exc) =
            run_polled(py, opts.deals, progress, |ctl| rollout::simulate_rows(sim, &opts, ctl))?;
        d.set_item("data", arrays(py, run.value.data)?)?;
        (run.requested, run.completed, run.interrupted, exc)
    };
    status_into(py, &d, (requested, completed, interrupted), exc)?;
    Ok(d)
}

/// Most worker threads (`zhipai.simulate.MAX_THREADS`).
const MAX_THREADS: usize = 256;

pub(crate) fn options(
    deals: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
) -> PyResult<RunOptions> {
    let policy: Policy = guard(|| policy.parse())?;
    // `zhipai.simulate` checks these too (`MAX_THREADS`); repeated here so no caller can ask the
    // pool for thousands of threads: 1..=256, and never more threads than deals.
    if let Some(t) = threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
        return guard(|| {
            Err(ZhipaiError::invalid_value("threads", t, format!("expected 1 to {MAX_THREADS}")))
        });
    }
    let threads = threads.map(|t| t.min(usize::try_from(deals.max(1)).unwrap_or(usize::MAX)));
    Ok(RunOptions { threads, chunk_size, ..RunOptions::new(deals, seed, policy) })
}

/// `_simulate(rules, deals, policy, seed, threads=None, chunk_size=None, aggregate_only=False,
/// progress=None, first_deal=0) -> dict`: internal engine of `zhipai.simulate` (see `run_sim`
/// for the dict); plays deals `first_deal..first_deal + deals` of `seed`.
/// Raises `InvalidOptionError` when the game cannot be simulated yet, `InvalidValueError` for a
/// bad count, policy or `first_deal + deals` past 2**64 - 1, and the game's error for a failing
/// deal (naming its index).
#[pyfunction]
#[pyo3(signature = (rules, deals, policy, seed, threads=None, chunk_size=None, aggregate_only=false, progress=None, first_deal=0))]
#[allow(clippy::too_many_arguments)]
fn _simulate<'py>(
    py: Python<'py>,
    rules: PyRules,
    deals: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    aggregate_only: bool,
    progress: Option<Bound<'py, PyAny>>,
    first_deal: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = RunOptions { first_deal, ..options(deals, policy, seed, threads, chunk_size)? };
    let sim = guard(|| rollout::simulator(&rules.0))?;
    run_sim(py, sim, opts, aggregate_only, progress.as_ref())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(_columns, m)?)?;
    Ok(())
}

/// `_columns(rules) -> list[(name, doc)]`: the result columns of `rules`' simulation, in row
/// order (what `GameState.result_row()` fills).
#[pyfunction]
fn _columns(rules: PyRules) -> PyResult<Vec<(&'static str, &'static str)>> {
    Ok(rules.0.columns().iter().map(|c| (c.name, c.doc)).collect())
}
