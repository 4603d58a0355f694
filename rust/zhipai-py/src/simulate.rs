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

// ------------------------------------------------------------------------------------------
// Shared pieces of the step-wise game states (`zhipai.Game(rules).new_deal(seed, index)`),
// the slow path of `zhipai.simulate` with Python callables as policies. Each game's binding
// file has one `<Game>GameState` class with the same methods; these helpers keep them alike.

/// Most moves `legal_moves()` lists where a decision can have millions of legal choices
/// (Shengji-family burials and follows): the first ones in a deterministic order.
pub const MOVE_LIST_LIMIT: usize = 1000;

/// One recorded move: who made it, what the other seats see (`None`: not even that a move was
/// made, e.g. Baohuang's secret guard choice), and what the mover sees when that differs (the
/// cards of a burial).
#[derive(Clone, Debug)]
pub struct Step {
    pub seat: usize,
    pub public: Option<String>,
    pub private: Option<String>,
}

impl Step {
    pub fn public(seat: usize, text: impl Into<String>) -> Step {
        Step { seat, public: Some(text.into()), private: None }
    }

    /// A move whose details only the mover sees; the others see `public` (e.g. `"bury"`).
    pub fn hidden(seat: usize, public: impl Into<String>, private: impl Into<String>) -> Step {
        Step { seat, public: Some(public.into()), private: Some(private.into()) }
    }

    /// A move only the mover knows was made.
    pub fn secret(seat: usize, private: impl Into<String>) -> Step {
        Step { seat, public: None, private: Some(private.into()) }
    }
}

/// The visible text of `step` for `seat`: another seat's hidden move shows only its public
/// text (e.g. `"bury"`), a secret one not at all.
fn seen_by(step: &Step, seat: usize) -> Option<&str> {
    match (&step.private, &step.public) {
        (Some(p), _) if step.seat == seat => Some(p),
        (_, Some(p)) => Some(p),
        (_, None) => None,
    }
}

/// The moves of a deal, with each seat's view kept as a Python list that grows with the deal:
/// an observation then copies a list of shared tuples instead of building every entry again
/// (the history is the biggest part of an observation, and it is asked for at every decision).
#[derive(Debug, Default)]
pub struct History {
    steps: Vec<Step>,
    /// Per seat: its view so far and how many steps it covers.
    views: Vec<Option<(Py<PyList>, usize)>>,
}

impl Clone for History {
    /// The steps; the views are rebuilt on demand (a Python list is not cloned without the GIL).
    fn clone(&self) -> Self {
        History { steps: self.steps.clone(), views: Vec::new() }
    }
}

impl History {
    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// Forget every move (a redealt deal).
    pub fn clear(&mut self) {
        self.steps.clear();
        self.views.clear();
    }

    /// A new list of `(seat, move text)` as `seat` sees the history (see [`seen_by`]).
    pub fn view<'py>(&mut self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyList>> {
        if self.views.len() <= seat {
            self.views.resize_with(seat + 1, || None);
        }
        let (list, done) = match self.views[seat].take() {
            Some((l, n)) => (l.into_bound(py), n),
            None => (PyList::empty(py), 0),
        };
        for s in &self.steps[done..] {
            if let Some(text) = seen_by(s, seat) {
                list.append((s.seat, text))?;
            }
        }
        let copy = list.get_slice(0, list.len());
        self.views[seat] = Some((list.unbind(), self.steps.len()));
        Ok(copy)
    }
}

/// An optional value as Python writes it (`None` or the value), for `__repr__`.
pub fn py_opt(v: Option<impl std::fmt::Display>) -> String {
    v.map_or_else(|| "None".to_string(), |v| v.to_string())
}

/// The built-in policy named `name` (`"random"` or `"greedy"`), else `InvalidValueError`.
pub fn builtin_policy(name: &str) -> PyResult<Policy> {
    guard(|| name.parse::<Policy>())
}

/// The `policy` argument of `GameState.builtin_move` / `apply_builtin`: a `str` naming a
/// built-in policy, else `InvalidValueError` naming the value (never a plain `TypeError`).
pub fn builtin_policy_arg(obj: &Bound<'_, PyAny>) -> PyResult<Policy> {
    match obj.cast::<pyo3::types::PyString>() {
        Ok(s) => builtin_policy(s.to_str()?),
        Err(_) => Err(crate::errors::to_py(ZhipaiError::invalid_value(
            "policy",
            shown(obj),
            "expected 'random' or 'greedy'",
        ))),
    }
}

/// Longest move text `GameState.apply` reads: a legal move is far shorter (a 3-deck throw or
/// burial is under 200 characters); longer text is refused without echoing it in full.
pub const MAX_MOVE_TEXT: usize = 1000;

/// Values longer than this are cut in error messages (first 80 characters + `…`).
const SHOWN_CHARS: usize = 80;

/// `text` quoted as Python would (`'play 2S'`, `''`), cut to 80 characters + `…` and its length
/// when longer, for error messages.
pub fn quoted(text: &str) -> String {
    let n = text.chars().count();
    // Control characters escaped (`\0`, `\n`) so the message stays one readable line.
    let head: String = text.chars().take(SHOWN_CHARS).collect::<String>().escape_debug().collect();
    if n > SHOWN_CHARS {
        format!("'{head}…' ({n} characters)")
    } else {
        format!("'{head}'")
    }
}

/// `repr(obj)` cut as in [`quoted`], for error messages.
pub fn shown(obj: &Bound<'_, PyAny>) -> String {
    let r = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    if r.chars().count() > SHOWN_CHARS {
        format!("{}…", r.chars().take(SHOWN_CHARS).collect::<String>())
    } else {
        r
    }
}

/// The `move` argument of `GameState.apply`: a non-empty `str` of at most [`MAX_MOVE_TEXT`]
/// characters, else `InvalidValueError` naming the value (quoted, cut when long).
pub fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let bad = |value: String, why: &str| {
        crate::errors::to_py(ZhipaiError::invalid_value("move", value, why))
    };
    let Ok(s) = obj.cast::<pyo3::types::PyString>() else {
        return Err(bad(shown(obj), "expected a move string as listed by legal_moves()"));
    };
    let text = s.to_str()?;
    if text.trim().is_empty() {
        return Err(bad(quoted(text), "empty; expected a move as listed by legal_moves()"));
    }
    if text.chars().count() > MAX_MOVE_TEXT {
        return Err(bad(quoted(text), "longer than any legal move"));
    }
    Ok(text.to_string())
}

/// A `GameState.apply` error as users read it: "illegal play BJ BJ BJ: …", not "illegal play
/// play BJ BJ BJ: …" (the core names the move, whose text already starts with its kind).
pub fn move_error(e: ZhipaiError) -> ZhipaiError {
    match e {
        ZhipaiError::IllegalPlay { play, reason } => ZhipaiError::IllegalPlay {
            play: play.strip_prefix("play ").map(str::to_string).unwrap_or(play),
            reason,
        },
        other => other,
    }
}

/// A return value with `-0.0` normalised to `0.0` (a zero-sum split can produce `-0.0`).
pub fn clean_return(v: f64) -> f64 {
    v + 0.0
}

/// A seat argument in `0..seats`, else `InvalidValueError` naming it.
pub fn seat_arg(seat: &Bound<'_, PyAny>, seats: usize) -> PyResult<usize> {
    crate::convert::int_in("seat", seat, 0, seats as i128 - 1)
}

/// `(seed, index)` arguments of `new_deal`: ints in 0..2**64.
pub fn seed_index(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
    let s = crate::convert::int_in("seed", seed, 0, u64::MAX as i128)?;
    let i = crate::convert::int_in("index", index, 0, u64::MAX as i128)?;
    Ok((s, i))
}

/// The result row of a finished deal, or `InvalidValueError` while it is still running.
pub fn finished_row(
    rules: &zhipai_core::Rules,
    terminal: bool,
    write: impl FnOnce(&mut [i32]) -> Result<(), ZhipaiError>,
) -> PyResult<Vec<i32>> {
    guard(|| {
        if !terminal {
            return Err(ZhipaiError::invalid_value(
                "call",
                "result_row() during the deal",
                "the deal is not over yet (is_terminal() is false)",
            ));
        }
        let mut row = vec![0; rollout::simulator(rules)?.columns().len()];
        write(&mut row)?;
        Ok(row)
    })
}

/// `_columns(rules) -> list[(name, doc)]`: the result columns of `rules`' simulation, in row
/// order (what `result_row()` of a step-wise state fills).
#[pyfunction]
fn _columns(rules: PyRules) -> PyResult<Vec<(&'static str, &'static str)>> {
    guard(|| Ok(rollout::simulator(&rules.0)?.columns().iter().map(|c| (c.name, c.doc)).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_steps_show_their_text_only_to_the_mover() {
        let pass = Step::public(0, "pass");
        let bury = Step::hidden(1, "bury", "bury 2S 3S");
        let secret = Step::secret(2, "secret_guard");
        assert_eq!(seen_by(&pass, 2), Some("pass"));
        assert_eq!(seen_by(&bury, 1), Some("bury 2S 3S"));
        assert_eq!(seen_by(&bury, 0), Some("bury"));
        assert_eq!(seen_by(&secret, 2), Some("secret_guard"));
        assert_eq!(seen_by(&secret, 0), None, "a secret move is not seen at all");
    }
}
