//! Python binding of batch simulation (`zhipai-core` `rollout.rs`).
//!
//! The driver runs on its own rayon pool in a scoped thread that never holds the GIL; the
//! calling thread waits with the GIL released, waking every [`POLL`] to check Python signals
//! (Ctrl-C) and to call the progress callback. A signal, a callback that raises, or a callback
//! that returns `False` sets the driver's stop flag; the completed prefix of deals is still
//! returned (with the pending exception, which `zhipai.simulate` raises with the result attached).

use crate::errors::guard;
use crate::rules::PyRules;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use zhipai_core::deal::Constraints;
use zhipai_core::eval::{self, EvalRequest, Evaluation, KnownDeclaration};
use zhipai_core::game::Column;
use zhipai_core::policy::Policy;
use zhipai_core::rollout::{self, toy, ColumnStats, Control, Run, RunOptions};
use zhipai_core::simulator::DealSimulator;
use zhipai_core::{Multiset, Rank, Suit, ZhipaiError};

/// How often the waiting thread checks signals and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Run `job` on a worker thread with the GIL released; poll signals and `progress` meanwhile.
/// Returns the job's value and the Python exception that stopped it, if any.
pub fn run_polled<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce(Control<'_>) -> Result<T, ZhipaiError> + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let stop = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let ctl = Control { stop: &stop, progress: &done };
    std::thread::scope(|s| {
        let (tx, mut rx) = mpsc::channel::<()>();
        let handle = s.spawn(move || {
            let r = guard(|| job(ctl));
            let _ = tx.send(());
            r
        });
        let mut pending: Option<PyErr> = None;
        loop {
            // Wait with the GIL released; the receiver moves in and out (it is not Sync).
            let (finished, back) = py.detach(move || {
                let finished =
                    !matches!(rx.recv_timeout(POLL), Err(mpsc::RecvTimeoutError::Timeout));
                (finished, rx)
            });
            rx = back;
            if finished {
                break;
            }
            if pending.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                pending = Some(e);
            } else if let Some(cb) = progress {
                if let Err(e) = report(cb, done.load(Ordering::Relaxed), total, &stop) {
                    pending = Some(e);
                }
            }
        }
        let value = handle.join().unwrap_or_else(|_| {
            Err(crate::errors::ZhipaiErrorPy::new_err(
                "internal error (please report): worker thread died",
            ))
        })?;
        if let (None, Some(cb)) = (&pending, progress) {
            pending = report(cb, done.load(Ordering::Relaxed), total, &stop).err();
        }
        Ok((value, pending))
    })
}

/// Call `cb(done, total)`; `False` sets `stop`, an exception sets `stop` and is returned.
fn report(cb: &Bound<'_, PyAny>, done: u64, total: u64, stop: &AtomicBool) -> PyResult<()> {
    match cb.call1((done, total)) {
        Ok(v) => {
            if v.is(pyo3::types::PyBool::new(cb.py(), false).as_any()) {
                stop.store(true, Ordering::Relaxed);
            }
            Ok(())
        }
        Err(e) => {
            stop.store(true, Ordering::Relaxed);
            Err(e)
        }
    }
}

/// The column statistics as a dict: `count`, `sum`, `sum_sq` (exact ints), `min`, `max`,
/// `histogram` (list of `(value, count)`, or `None` when a value fell outside -256..256).
pub fn stats_dict<'py>(py: Python<'py>, s: &ColumnStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("count", s.count)?;
    d.set_item("sum", s.sum)?;
    d.set_item("sum_sq", s.sum_sq)?;
    d.set_item("min", s.min)?;
    d.set_item("max", s.max)?;
    d.set_item("histogram", s.histogram())?;
    Ok(d)
}

pub(crate) fn columns_into(d: &Bound<'_, PyDict>, columns: &[Column]) -> PyResult<()> {
    d.set_item("columns", columns.iter().map(|c| c.name).collect::<Vec<_>>())?;
    d.set_item("docs", columns.iter().map(|c| c.doc).collect::<Vec<_>>())?;
    Ok(())
}

/// Run `sim` and build the result dict: `columns`, `docs`, `requested`, `completed`,
/// `interrupted`, then `data` (list of int32 arrays, rows mode) or `stats` (list of dicts),
/// and `exception` (the Python exception that stopped the run, or `None`).
fn run_sim<'py>(
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
        let data = PyList::empty(py);
        for col in run.value.data {
            // numpy takes ownership of the Vec: no copy.
            data.append(PyArray1::from_vec(py, col))?;
        }
        d.set_item("data", data)?;
        (run.requested, run.completed, run.interrupted, exc)
    };
    d.set_item("requested", requested)?;
    d.set_item("completed", completed)?;
    d.set_item("interrupted", interrupted)?;
    d.set_item("exception", exc.map(|e| e.into_value(py)))?;
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

/// What the evaluated seat knows, as passed from Python (card lists in notation).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Knowledge {
    seat: usize,
    hand: String,
    /// `(seat, cards)` known to be in other hands.
    hands: Vec<(usize, String)>,
    /// Cards known to be in the kitty.
    kitty: String,
    /// `(seat, cards)`: the seat holds no card of these kinds.
    voids: Vec<(usize, String)>,
    dealer: Option<usize>,
    /// The level rank ("2".."A"), when known (Shengji family).
    level: Option<String>,
    /// The trump ("S", "H", "D", "C" or "NT"), when the declaration is known (Shengji family).
    trump: Option<String>,
    /// Candidate first actions; `None` = the policy decides.
    candidates: Vec<Option<String>>,
}

fn eval_request(k: &Knowledge) -> Result<EvalRequest, ZhipaiError> {
    let cards = |text: &str| text.parse::<Multiset>();
    let mut known = Constraints::new().in_kitty(cards(&k.kitty)?);
    for (seat, text) in &k.hands {
        known = known.fix_hand(*seat, cards(text)?);
    }
    for (seat, text) in &k.voids {
        known = known.void(*seat, cards(text)?.kinds());
    }
    let candidates = k
        .candidates
        .iter()
        .map(|c| c.as_deref().map(cards).transpose())
        .collect::<Result<_, _>>()?;
    Ok(EvalRequest { seat: k.seat, hand: cards(&k.hand)?, known, dealer: k.dealer, candidates })
}

/// The known level and trump of `k` (`InvalidValue` naming a bad one).
fn declaration(k: &Knowledge) -> Result<KnownDeclaration, ZhipaiError> {
    let level = k
        .level
        .as_deref()
        .map(|t| {
            if t.trim().eq_ignore_ascii_case("NT") {
                return Ok(None); // the joker-only level: the game checks after_A
            }
            Rank::parse(t.trim()).map(Some).ok_or_else(|| {
                ZhipaiError::invalid_value(
                    "level",
                    t,
                    "expected 2-10, J, Q, K, A, or NT (the joker-only level, which needs \
                     after_A=no_trump_level)",
                )
            })
        })
        .transpose()?;
    let trump =
        k.trump
            .as_deref()
            .map(|t| match t.trim().to_ascii_uppercase().as_str() {
                "NT" => Ok(None),
                s => s.parse::<Suit>().map(Some).map_err(|_| {
                    ZhipaiError::invalid_value("trump", t, "expected S, H, D, C or NT")
                }),
            })
            .transpose()?;
    Ok(KnownDeclaration { level, trump })
}

/// Run an evaluation; the dict has `columns`, `docs`, `candidates` (labels), `data` (list of
/// int32 arrays, index `candidate * len(columns) + column`), `requested`, `completed`,
/// `interrupted`, `exception`.
fn run_eval<'py>(
    py: Python<'py>,
    game: &dyn DealSimulator,
    knowledge: &Knowledge,
    opts: RunOptions,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let req = guard(|| eval_request(knowledge))?;
    let declared = guard(|| declaration(knowledge))?;
    let (run, exc) = run_polled(py, opts.deals, progress, |ctl| {
        eval::evaluate_declared(game, &req, declared, &opts, ctl)
    })?;
    evaluation_dict(py, run, exc)
}

/// The result dict of an evaluation (see [`run_eval`]).
pub(crate) fn evaluation_dict<'py>(
    py: Python<'py>,
    run: Run<Evaluation>,
    exc: Option<PyErr>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    columns_into(&d, &run.value.columns)?;
    let labels: Vec<Option<String>> =
        run.value.candidates.iter().map(|c| c.map(|m| m.to_string())).collect();
    d.set_item("candidates", labels)?;
    let data = PyList::empty(py);
    for col in run.value.data {
        data.append(PyArray1::from_vec(py, col))?;
    }
    d.set_item("data", data)?;
    d.set_item("requested", run.requested)?;
    d.set_item("completed", run.completed)?;
    d.set_item("interrupted", run.interrupted)?;
    d.set_item("exception", exc.map(|e| e.into_value(py)))?;
    Ok(d)
}

/// `_evaluate(rules, knowledge, samples, policy, seed, threads=None, chunk_size=None,
/// progress=None) -> dict`: internal engine of `zhipai.evaluate`. `knowledge` is a dict with
/// `seat, hand, hands, kitty, voids, dealer, level, trump, candidates` (see `Knowledge`).
#[pyfunction]
#[pyo3(signature = (rules, knowledge, samples, policy, seed, threads=None, chunk_size=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn _evaluate<'py>(
    py: Python<'py>,
    rules: PyRules,
    knowledge: Knowledge,
    samples: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(samples, policy, seed, threads, chunk_size)?;
    let game = guard(|| rollout::simulator(&rules.0))?;
    run_eval(py, game, &knowledge, opts, progress.as_ref())
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
    run_eval(py, &toy::CoinGame::default(), &knowledge, opts, progress.as_ref())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(_simulate_toy, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_toy, m)?)?;
    m.add_function(wrap_pyfunction!(_columns, m)?)?;
    Ok(())
}

/// `_columns(rules) -> list[(name, doc)]`: the result columns of `rules`' simulation, in row
/// order (what `GameState.result_row()` fills).
#[pyfunction]
fn _columns(rules: PyRules) -> PyResult<Vec<(&'static str, &'static str)>> {
    Ok(zhipai_core::record::columns(&rules.0).iter().map(|c| (c.name, c.doc)).collect())
}
