//! Python binding of Monte Carlo evaluation from a position (`zhipai-core` `eval.rs`
//! `evaluate_position`, Shengji `state/position.rs`). `zhipai.evaluate_position` wraps it.

use crate::errors::guard;
use crate::game_state::PyGameState;
use crate::simulate::{evaluation_dict, options, run_polled};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zhipai_core::deal::Constraints;
use zhipai_core::eval;
use zhipai_core::games::shengji::state::position::ShengjiPosition;
use zhipai_core::games::shengji::DealState;
use zhipai_core::knowledge::SeatView;
use zhipai_core::simulator::Position;
use zhipai_core::{Multiset, ZhipaiError};

fn cards(text: &str) -> Result<Multiset, ZhipaiError> {
    text.parse()
}

/// The position of a Shengji-family `zhipai.GameState` as `seat` sees it; anything else is an
/// `InvalidValue` naming it.
fn position(deal: &Bound<'_, PyAny>, seat: usize) -> PyResult<ShengjiPosition> {
    let wrong = |what: String| {
        guard(|| -> Result<ShengjiPosition, ZhipaiError> {
            Err(ZhipaiError::invalid_value(
                "deal",
                what,
                "expected the zhipai.GameState of a Shengji-family deal (tractor, tractor_jj, \
                 eighty_points); position evaluation of the other games is not available yet",
            ))
        })
    };
    let Ok(s) = deal.cast::<PyGameState>() else {
        return wrong(deal.get_type().name().map(|n| n.to_string()).unwrap_or_default());
    };
    let s = s.borrow();
    match s.tracked().state.as_any().downcast_ref::<DealState>() {
        Some(d) => guard(|| ShengjiPosition::new(d.deal(), seat)),
        None => wrong(format!("GameState of {}", s.tracked().rules.preset())),
    }
}

/// `_evaluate_position(deal, seat, candidates, limit, samples, policy, seed, threads=None,
/// chunk_size=None, progress=None) -> dict`: internal engine of `zhipai.evaluate_position`.
/// `deal` is the `zhipai.GameState` of a Shengji-family deal; `candidates` a list of card strings (`None` entries = the policy
/// decides) or `None` for the seat's legal plays (at most `limit`); `hands` / `kitty` / `voids`
/// add knowledge beyond the deal's record (`(seat, cards)` held, kitty cards, `(seat, kinds)`
/// held none of; merged by `SeatView::merge_known`). The dict is that of
/// `_evaluate` (`columns`, `docs`, `candidates`, `data`, `requested`, `completed`,
/// `interrupted`, `exception`).
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
    let opts = options(samples, policy, seed, threads, chunk_size)?;
    let pos = position(&deal, seat)?;
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
    let candidates = guard(|| {
        candidates
            .map(|list| list.iter().map(|c| c.as_deref().map(cards).transpose()).collect())
            .transpose()
    })?;
    let (run, exc) = run_polled(py, opts.deals, progress.as_ref(), |ctl| {
        eval::evaluate_position(&pos, &extra, candidates, limit, &opts, ctl)
    })?;
    evaluation_dict(py, run, exc)
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
    let pos = position(&deal, seat)?;
    let view: SeatView = guard(|| pos.view())?;
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
    let pos = position(&deal, seat)?;
    guard(|| {
        let hidden = pos.view()?.dealer()?;
        Ok((0..count.min(100_000))
            .map(|i| {
                let d = hidden.deal(&mut zhipai_core::deal::deal_rng(seed, i));
                (d.hands.iter().map(|h| h.to_string()).collect(), d.kitty.to_string())
            })
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_evaluate_position, m)?)?;
    m.add_function(wrap_pyfunction!(_position_view, m)?)?;
    m.add_function(wrap_pyfunction!(_position_samples, m)?)?;
    Ok(())
}
