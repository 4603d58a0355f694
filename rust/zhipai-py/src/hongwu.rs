//! Python binding: Hong Wu 红五 (auction, settlement, tables, card order).
//!
//! Every rule lives in `zhipai_core::games::hongwu`; this file converts arguments and results.
//! Arguments are taken as Python objects and converted here, so that a wrong type or range
//! (a negative seat, `None`, a float, a bool, an int too large) raises `InvalidValueError`
//! naming the value instead of a raw `TypeError` / `OverflowError`. Ints are read with
//! `operator.index`, so NumPy integers work.

use crate::cards::PyCard;
use crate::errors::{guard, to_py};
use crate::rules::PyRules;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use zhipai_core::games::hongwu::auction::{Auction, Bid};
use zhipai_core::games::hongwu::settle::{self, DealPoints, Settlement, LEVELS};
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::tricks::order::{CardOrder, TRUMP};
use zhipai_core::{Card, Rules, Suit, ZhipaiError};

fn invalid(what: &str, value: impl std::fmt::Display, reason: &str) -> PyErr {
    to_py(ZhipaiError::invalid_value(what, value, reason))
}

fn repr(v: &Bound<'_, PyAny>) -> String {
    v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".into())
}

/// `operator.index(v)` for an int argument `what`: ints and NumPy ints, not bools, floats or
/// `None` (`InvalidValueError` naming the value).
fn index_of<'py>(what: &str, v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if v.is_instance_of::<PyBool>() {
        return Err(invalid(what, repr(v), "expected an int, not a bool"));
    }
    let index = v.py().import("operator")?.getattr("index")?;
    index.call1((v,)).map_err(|_| invalid(what, repr(v), "expected an int"))
}

/// An int argument in `lo..=hi` (`InvalidValueError` otherwise, with `reason`).
fn int_arg(what: &str, v: &Bound<'_, PyAny>, lo: i64, hi: i64, reason: &str) -> PyResult<i64> {
    let i = index_of(what, v)?;
    match i.extract::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(invalid(what, repr(&i), reason)),
    }
}

/// A seat 0 to 3.
fn seat_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(int_arg(what, v, 0, 3, "expected a seat 0 to 3")? as usize)
}

/// A text argument.
fn str_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    match v.cast::<PyString>() {
        Ok(s) => Ok(s.to_str()?.to_string()),
        Err(_) => Err(invalid(what, repr(v), "expected a string")),
    }
}

/// The Hong Wu rules of a `rules` argument (`InvalidValueError` for anything else).
fn rules_arg(v: &Bound<'_, PyAny>) -> PyResult<HongWuRules> {
    match v.cast::<PyRules>() {
        Ok(r) => hong_wu(&r.borrow()),
        Err(_) => Err(invalid("rules", repr(v), "expected zhipai.rules(\"hong_wu\")")),
    }
}

/// The Hong Wu rules inside `rules`, or `InvalidValueError` for another game's rules.
fn hong_wu(rules: &PyRules) -> PyResult<HongWuRules> {
    guard(|| match &rules.0 {
        Rules::HongWu(r) => Ok(r.clone()),
        other => {
            Err(ZhipaiError::invalid_value("rules", other.preset(), "expected the hong_wu preset"))
        }
    })
}

/// A bid from Python: an int number of points (NumPy ints too) or the string `"pass"`.
fn bid_of(value: &Bound<'_, PyAny>) -> PyResult<Bid> {
    if let Ok(s) = value.cast::<PyString>() {
        return match s.to_str()? {
            "pass" => Ok(Bid::Pass),
            _ => Err(invalid("bid", repr(value), "expected points or \"pass\"")),
        };
    }
    let reason = "expected points 60…200 (a multiple of 5) or \"pass\"";
    let i = index_of("bid", value).map_err(|_| invalid("bid", repr(value), reason))?;
    match i.extract::<u32>() {
        Ok(n) => Ok(Bid::Points(n)),
        Err(_) => Err(invalid("bid", repr(&i), reason)),
    }
}

fn card_of(v: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = v.cast::<PyCard>() {
        return Ok(c.borrow().0);
    }
    let text = str_arg("card", v)?;
    guard(|| text.parse::<Card>())
}

fn trump_of(v: &Bound<'_, PyAny>) -> PyResult<Suit> {
    let text = str_arg("trump", v)?;
    let text = text.as_str();
    guard(|| {
        if text.eq_ignore_ascii_case("NT") {
            return Err(ZhipaiError::invalid_value(
                "trump",
                text,
                "Hong Wu has no no-trump; expected S, H, D or C (hongwu.md §B.3)",
            ));
        }
        text.parse::<Suit>()
    })
}

/// A Hong Wu auction 叫分 (hongwu.md §B.2). `HongWuAuction(rules, first)`: seat `first` (0 to
/// 3) opens. Bids are ints (points) or `"pass"`. Illegal actions raise `IllegalPlayError` with
/// the rule they break; bad seats, bids and rules raise `InvalidValueError`.
#[pyclass(name = "HongWuAuction", module = "zhipai._core", from_py_object)]
#[derive(Clone)]
pub struct PyHongWuAuction(Auction);

#[pymethods]
impl PyHongWuAuction {
    #[new]
    fn new(rules: &Bound<'_, PyAny>, first: &Bound<'_, PyAny>) -> PyResult<Self> {
        let r = rules_arg(rules)?;
        let first = seat_arg("first bidder", first)?;
        guard(|| Ok(PyHongWuAuction(r.auction(first)?)))
    }

    /// The seat to act, or `None` once the auction is over.
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.0.to_act()
    }

    /// `(seat, bid)` of the highest bid so far, or `None`.
    #[getter]
    fn high(&self) -> Option<(usize, u32)> {
        self.0.high().map(|c| (c.dealer, c.bid))
    }

    /// `(dealer, bid)` once the auction is over, else `None`.
    #[getter]
    fn result(&self) -> Option<(usize, u32)> {
        self.0.result().map(|c| (c.dealer, c.bid))
    }

    /// Whether the auction is over.
    fn is_over(&self) -> bool {
        self.0.result().is_some()
    }

    /// Whether `seat` has passed (a pass is final).
    fn has_passed(&self, seat: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.has_passed(seat_arg("seat", seat)?))
    }

    /// The legal actions of the seat to act: `"pass"` then the bids low to high (`[]` when over).
    fn legal_bids<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.0
            .legal_bids()
            .into_iter()
            .map(|b| match b {
                Bid::Pass => Ok(PyString::new(py, "pass").into_any()),
                Bid::Points(n) => Ok(n.into_pyobject(py)?.into_any()),
            })
            .collect()
    }

    /// Raise `IllegalPlayError` (with the reason) unless `seat` may make `bid` now.
    fn check(&self, seat: &Bound<'_, PyAny>, bid: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg("seat", seat)?;
        let bid = bid_of(bid)?;
        guard(|| self.0.check(seat, bid))
    }

    /// Make `bid` (points or `"pass"`) for `seat`; raises `IllegalPlayError` if not allowed.
    fn bid(&mut self, seat: &Bound<'_, PyAny>, bid: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg("seat", seat)?;
        let bid = bid_of(bid)?;
        guard(|| self.0.act(seat, bid))
    }

    /// An independent copy.
    #[pyo3(name = "clone")]
    fn copy(&self) -> Self {
        PyHongWuAuction(self.0.clone())
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        let pair = |c: Option<zhipai_core::games::hongwu::auction::Contract>| {
            opt(c.map(|c| format!("({}, {})", c.dealer, c.bid)))
        };
        format!(
            "HongWuAuction(to_act={}, high={}, result={})",
            opt(self.0.to_act().map(|s| s.to_string())),
            pair(self.0.high()),
            pair(self.0.result())
        )
    }
}

fn settlement_dict<'py>(py: Python<'py>, s: &Settlement) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("attacker_points", s.attacker_points)?;
    d.set_item("dealer_points", s.dealer_points)?;
    d.set_item("red5_penalty", s.red5_penalty)?;
    d.set_item("score", s.score)?;
    d.set_item("dealer", s.dealer)?;
    d.set_item("each_other", s.each_other)?;
    Ok(d)
}

/// Settle from the 闲家's points X (kitty included): S = (200 − X) − bid − red5_penalty
/// (hongwu.md §B.11). Returns `{"attacker_points", "dealer_points", "red5_penalty", "score",
/// "dealer", "each_other"}`; `dealer`/`each_other` are in points (units of k × base_score_k).
/// Raises `InvalidValueError` for a bid outside 60…200 / not a multiple of 5, or a negative or
/// non-multiple-of-5 X or penalty; `InvalidOptionError` with `dealer_points=own_tricks`.
#[pyfunction]
#[pyo3(signature = (rules, bid, attacker_points, red5_penalty=None))]
fn hongwu_settle<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    bid: &Bound<'py, PyAny>,
    attacker_points: &Bound<'py, PyAny>,
    red5_penalty: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules_arg(rules)?;
    let bid = bid_arg(bid)?;
    let x = points_arg("attacker_points", attacker_points)?;
    let r5 = red5_penalty.map_or(Ok(0), |v| points_arg("red5_penalty", v))?;
    let s = guard(|| r.options.settle_points(bid, x, r5))?;
    settlement_dict(py, &s)
}

/// Settle a deal from its parts (hongwu.md §B.10–§B.11): trick points of each side, the
/// kitty's points, who won the last trick and its multiplier (2/4/8), and the number of ♥5s
/// that count for the red-5 penalty. Same result dict and errors as `hongwu_settle` (except
/// that `dealer_points=own_tricks` is allowed here).
#[pyfunction]
#[pyo3(signature = (rules, bid, *, xianjia_tricks, dealer_tricks, kitty, xianjia_won_last, last_multiplier, red5_captured=None))]
#[allow(clippy::too_many_arguments)]
fn hongwu_settle_deal<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    bid: &Bound<'py, PyAny>,
    xianjia_tricks: &Bound<'py, PyAny>,
    dealer_tricks: &Bound<'py, PyAny>,
    kitty: &Bound<'py, PyAny>,
    xianjia_won_last: &Bound<'py, PyAny>,
    last_multiplier: &Bound<'py, PyAny>,
    red5_captured: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules_arg(rules)?;
    let bid = bid_arg(bid)?;
    let won_last = match xianjia_won_last.cast::<PyBool>() {
        Ok(b) => b.is_true(),
        Err(_) => {
            return Err(invalid("xianjia_won_last", repr(xianjia_won_last), "expected a bool"))
        }
    };
    let p = DealPoints {
        xianjia_tricks: points_arg("xianjia_tricks", xianjia_tricks)?,
        dealer_tricks: points_arg("dealer_tricks", dealer_tricks)?,
        kitty: points_arg("kitty", kitty)?,
        xianjia_won_last: won_last,
        last_multiplier: points_arg("last_multiplier", last_multiplier)?,
        red5_captured: red5_captured.map_or(Ok(0), |v| points_arg("red5_captured", v))?,
    };
    let s = guard(|| r.options.settle_deal(bid, &p))?;
    settlement_dict(py, &s)
}

/// A bid for settlement: an int (the core checks 60…200 and multiples of 5).
fn bid_arg(v: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(int_arg("bid", v, 0, u32::MAX as i64, "expected a multiple of 5 in 60…200")? as u32)
}

/// A points-like int that fits an i32 (the core checks its domain).
fn points_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<i32> {
    let (lo, hi) = (i32::MIN as i64, i32::MAX as i64);
    Ok(int_arg(what, v, lo, hi, "out of range")? as i32)
}

/// `(dealer, each 闲家)` in units of k for dealer score `score` (hongwu.md §B.11 table).
/// Raises `InvalidValueError` for a score that is not a multiple of 5 (no deal gives one).
#[pyfunction]
fn hongwu_result_units(score: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let s = int_arg("score", score, i64::MIN, i64::MAX, "out of range")?;
    guard(|| settle::checked_result_units(s))
}

/// The level table of seed 002 as `[(level, name, threshold)]`, rows 1…20, row 20 per the
/// rules' `level20_threshold` (default: the seed's 15728640) (hongwu.md §B.12).
#[pyfunction]
#[pyo3(signature = (rules=None))]
fn hongwu_levels(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(usize, &'static str, i64)>> {
    let r = match rules {
        Some(r) if !r.is_none() => rules_arg(r)?,
        _ => HongWuRules::default(),
    };
    LEVELS
        .iter()
        .enumerate()
        .map(|(i, &(name, _))| Ok((i + 1, name, guard(|| r.options.level_threshold(i + 1))?)))
        .collect()
}

/// The Hong Wu card order of one deal (hongwu.md §B.4, §B.6). `HongWuOrder(rules, trump)` with
/// trump `S H D C` (no no-trump: `"NT"` raises `InvalidValueError`). Cards are notation strings.
#[pyclass(name = "HongWuOrder", module = "zhipai._core", frozen)]
pub struct PyHongWuOrder {
    order: CardOrder,
    trump: Suit,
}

fn suit_name(s: usize) -> String {
    if s == TRUMP {
        "trump".into()
    } else {
        Suit::from_index(s).letter().to_string()
    }
}

#[pymethods]
impl PyHongWuOrder {
    #[new]
    fn new(rules: &Bound<'_, PyAny>, trump: &Bound<'_, PyAny>) -> PyResult<Self> {
        let r = rules_arg(rules)?;
        let trump = trump_of(trump)?;
        Ok(PyHongWuOrder { order: r.order(trump), trump })
    }

    /// The trump suit letter.
    #[getter]
    fn trump(&self) -> String {
        self.trump.letter().to_string()
    }

    /// `"trump"` or the plain suit letter `S H D C` the card plays as.
    fn effective_suit(&self, card: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(suit_name(self.order.suit(card_of(card)?)))
    }

    /// Strength index inside the card's effective suit (0 = lowest; equal = tie).
    fn strength(&self, card: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.order.index(card_of(card)?))
    }

    fn is_trump(&self, card: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.order.is_trump(card_of(card)?))
    }

    /// Whether `a` and `b` are equally strong (same effective suit and strength).
    fn ties(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.order.ties(card_of(a)?, card_of(b)?))
    }

    /// Whether a pair of `a` and a pair of `b` are adjacent, i.e. form a tractor (§B.6).
    fn adjacent(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (a, b) = (card_of(a)?, card_of(b)?);
        let o = &self.order;
        let (lo, hi) = if o.index(a) <= o.index(b) { (a, b) } else { (b, a) };
        Ok(o.suit(lo) == o.suit(hi)
            && o.index(hi) == o.index(lo) + 1
            && o.linked(o.suit(lo), o.index(lo)))
    }

    /// The kinds of effective suit `suit` (`"trump"` or a letter) as tiers from lowest to
    /// highest; cards in one tier tie.
    fn tiers(&self, suit: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<PyCard>>> {
        let text = str_arg("suit", suit)?;
        let s = if text == "trump" { TRUMP } else { trump_of(suit)?.index() };
        Ok((0..self.order.len(s))
            .map(|i| self.order.kinds_at(s, i).into_iter().map(PyCard).collect())
            .collect())
    }

    fn __repr__(&self) -> String {
        format!("HongWuOrder(trump='{}')", self.trump.letter())
    }
}

/// The Python name of a phase: `"auction"`, `"trump"`, `"kitty"`, `"play"` or `"over"`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHongWuAuction>()?;
    m.add_class::<PyHongWuOrder>()?;
    m.add_function(wrap_pyfunction!(hongwu_settle, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_settle_deal, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_result_units, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_levels, m)?)?;
    Ok(())
}
