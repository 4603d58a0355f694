//! Python binding of Monte Carlo evaluation (`zhipai-core` `eval.rs`): of a whole hand
//! (`_evaluate`, wrapped by `zhipai.evaluate`) and from a position (`_evaluate_position`, Shengji
//! `state/position.rs`, wrapped by `zhipai.evaluate_position`).

use crate::errors::guard;
use crate::game_state::PyGameState;
use crate::rules::PyRules;
use crate::run::{arrays, columns_into, run_polled, status_into};
use crate::simulate::options;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zhipai_core::deal::Constraints;
use zhipai_core::eval::{self, EvalRequest, Evaluation, KnownDeclaration};
use zhipai_core::eval_state::{evaluate_tracked, StateRequest};
use zhipai_core::knowledge::SeatView;
use zhipai_core::rollout::{Control, Run};
use zhipai_core::search::Player;
use zhipai_core::{Multiset, ZhipaiError};
use zhipai_core::{Rank, Suit};

/// What the evaluated seat knows, as passed from Python (card lists in notation).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Knowledge {
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

/// Run an evaluation: `evaluate` on the request and declaration of `knowledge` over `deals`
/// samples, the GIL released; the dict has `columns`, `docs`, `candidates` (labels), `data`
/// (list of int32 arrays, index `candidate * len(columns) + column`), `requested`,
/// `completed`, `interrupted`, `exception`.
pub(crate) fn run_eval<'py>(
    py: Python<'py>,
    knowledge: &Knowledge,
    deals: u64,
    progress: Option<&Bound<'py, PyAny>>,
    evaluate: impl FnOnce(&EvalRequest, KnownDeclaration, Control<'_>) -> Result<Run<Evaluation>, ZhipaiError>
        + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let req = guard(|| eval_request(knowledge))?;
    let declared = guard(|| declaration(knowledge))?;
    let (run, exc) = run_polled(py, deals, progress, |ctl| evaluate(&req, declared, ctl))?;
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
    d.set_item("data", arrays(py, run.value.data)?)?;
    status_into(py, &d, (run.requested, run.completed, run.interrupted), exc)?;
    Ok(d)
}

/// `_evaluate(rules, knowledge, samples, policy, seed, threads=None, chunk_size=None,
/// progress=None) -> dict`: internal engine of `zhipai.evaluate`. `knowledge` is a dict with
/// `seat, hand, hands, kitty, voids, dealer, level, trump, candidates` (see `Knowledge`);
/// `policy` any player name (`"greedy"`, `"pimc(...)"`: `eval::evaluate_player`).
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
    let player: Player = guard(|| policy.parse())?;
    // `evaluate_player` plays `player`; the options' own policy is not read.
    let opts = options(samples, "random", seed, threads, chunk_size)?;
    run_eval(py, &knowledge, opts.deals, progress.as_ref(), |req, declared, ctl| {
        eval::evaluate_player(&rules.0, &player, req, declared, &opts, ctl)
    })
}

fn cards(text: &str) -> Result<Multiset, ZhipaiError> {
    text.parse()
}

/// The `zhipai.GameState` argument of the position functions; anything else is an
/// `InvalidValue` naming it.
fn game_state<'py>(deal: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, PyGameState>> {
    match deal.cast::<PyGameState>() {
        Ok(s) => Ok(s.borrow()),
        Err(_) => Err(crate::convert::invalid("deal", deal, "expected a zhipai.GameState")),
    }
}

/// What `seat` knows in `deal` (the game's `seat_view`), the seat checked against the table.
fn view_of(deal: &Bound<'_, PyAny>, seat: usize) -> PyResult<SeatView> {
    let s = game_state(deal)?;
    guard(|| {
        let state = &s.tracked().state;
        zhipai_core::game::check_seat(seat, state.num_players())?;
        state.seat_view(seat)
    })
}

/// `_evaluate_position(deal, seat, candidates, limit, samples, policy, seed, threads=None,
/// chunk_size=None, progress=None, hands=[], kitty="", voids=[]) -> dict`: internal engine of
/// `zhipai.evaluate_position` (`zhipai_core::eval_state`). `deal` is a `zhipai.GameState` of any
/// game; `candidates` a list of move text (`None` entries = the rollout policy decides) or
/// `None` for the seat's legal moves (at most `limit`); `policy` any player name (`"greedy"`,
/// `"pimc(...)"`); `hands` / `kitty` / `voids` add knowledge beyond the deal's record
/// (`(seat, cards)` held, kitty cards, `(seat, kinds)` held none of). The dict is that of
/// `_evaluate` plus `legal` (the number of legal moves of the seat).
#[pyfunction]
#[pyo3(signature = (deal, seat, candidates, limit, samples, policy, seed, threads=None, chunk_size=None, progress=None, hands=vec![], kitty=String::new(), voids=vec![]))]
#[allow(clippy::too_many_arguments)]
fn _evaluate_position<'py>(
    py: Python<'py>,
    deal: Bound<'py, PyAny>,
    seat: usize,
    candidates: Option<Vec<Option<String>>>,
    limit: usize,
    samples: u64,
    policy: &str,
    seed: u64,
    threads: Option<usize>,
    chunk_size: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
    hands: Vec<(usize, String)>,
    kitty: String,
    voids: Vec<(usize, String)>,
) -> PyResult<Bound<'py, PyDict>> {
    let player: Player = guard(|| policy.parse())?;
    let opts = options(samples, "random", seed, threads, chunk_size)?;
    let extra = guard(|| {
        let mut known = Constraints::new().in_kitty(cards(&kitty)?);
        for (s, text) in &hands {
            known = known.fix_hand(*s, cards(text)?);
        }
        for (s, text) in &voids {
            known = known.void(*s, cards(text)?.kinds());
        }
        Ok(known)
    })?;
    let state = game_state(&deal)?;
    let tracked = state.tracked().clone();
    drop(state);
    let req = StateRequest { seat, candidates, limit, extra: &extra, rollout: &player };
    let (run, exc) = run_polled(py, opts.deals, progress.as_ref(), |ctl| {
        evaluate_tracked(&tracked, &req, &opts, ctl)
    })?;
    let d = PyDict::new(py);
    columns_into(&d, &run.value.columns)?;
    d.set_item("candidates", &run.value.candidates)?;
    d.set_item("legal", run.value.legal)?;
    d.set_item("data", arrays(py, run.value.data)?)?;
    status_into(py, &d, (run.requested, run.completed, run.interrupted), exc)?;
    Ok(d)
}

/// `_position_view(deal, seat) -> dict`: what `seat` knows in `deal` (see `eval::SeatView`):
/// `holding` (cards per seat), `kitty` (size), `gone` (cards played), `fixed` (per seat, the
/// cards known in its hand), `known_kitty`, `voids` (per seat, the kinds it holds none of).
#[pyfunction]
fn _position_view<'py>(
    py: Python<'py>,
    deal: Bound<'py, PyAny>,
    seat: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let view = view_of(&deal, seat)?;
    let d = PyDict::new(py);
    d.set_item("holding", &view.holding)?;
    d.set_item("kitty", view.kitty)?;
    d.set_item("gone", view.gone.to_string())?;
    let n = view.holding.len();
    let fixed: Vec<String> = (0..n)
        .map(|s| view.known.fixed.get(s).copied().unwrap_or(Multiset::EMPTY).to_string())
        .collect();
    d.set_item("fixed", fixed)?;
    d.set_item("known_kitty", view.known.kitty.to_string())?;
    let voids: Vec<String> = (0..n)
        .map(|s| {
            let v = view.known.voids.get(s).copied().unwrap_or_default();
            Multiset::from_set(v).to_string()
        })
        .collect();
    d.set_item("voids", voids)?;
    Ok(d)
}

/// `_position_samples(deal, seat, count, seed) -> list[(hands, kitty)]`: `count` hidden deals
/// drawn as `zhipai.evaluate_position` draws them (sample `i` from `(seed, i)`), for tests and
/// inspection.
#[pyfunction]
fn _position_samples(
    deal: Bound<'_, PyAny>,
    seat: usize,
    count: u64,
    seed: u64,
) -> PyResult<Vec<(Vec<String>, String)>> {
    let view = view_of(&deal, seat)?;
    guard(|| {
        let hidden = view.dealer()?;
        Ok((0..count.min(100_000))
            .map(|i| {
                let d = hidden.deal(&mut zhipai_core::deal::deal_rng(seed, i));
                (d.hands.iter().map(|h| h.to_string()).collect(), d.kitty.to_string())
            })
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_position, m)?)?;
    m.add_function(wrap_pyfunction!(_position_view, m)?)?;
    m.add_function(wrap_pyfunction!(_position_samples, m)?)?;
    Ok(())
}
