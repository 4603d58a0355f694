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
use crate::simulate::{
    builtin_policy_arg, clean_return, finished_row, move_arg, move_error, seed_index, History,
    Step, MOVE_LIST_LIMIT,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use zhipai_core::deal::deal_rng;
use zhipai_core::games::hongwu::auction::{Auction, Bid};
use zhipai_core::games::hongwu::policy::{choose, play_out};
use zhipai_core::games::hongwu::settle::{self, DealPoints, Settlement, LEVELS};
use zhipai_core::games::hongwu::{Action, HongWuRules, HongWuState, Phase};
use zhipai_core::multiset::Multiset;
use zhipai_core::policy::Policy;
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

/// A seed: an int in 0…2⁶⁴ − 1.
fn seed_arg(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    let i = index_of("seed", v)?;
    i.extract::<u64>().map_err(|_| invalid("seed", repr(&i), "expected an int in 0…2**64 - 1"))
}

/// A text argument.
fn str_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    match v.cast::<PyString>() {
        Ok(s) => Ok(s.to_str()?.to_string()),
        Err(_) => Err(invalid(what, repr(v), "expected a string")),
    }
}

/// A card list: notation text (`"KC KC JC"`) or a list of `Card`s / card strings, with at most
/// two copies of a card (hongwu.md §B.1).
fn cards_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<Multiset> {
    let text = match v.cast::<PyString>() {
        Ok(s) => s.to_str()?.to_string(),
        Err(_) => {
            let bad = || invalid(what, repr(v), "expected card notation or a list of cards");
            let mut parts = Vec::new();
            for item in v.try_iter().map_err(|_| bad())? {
                let item = item?;
                if item.cast::<PyString>().is_err() && item.cast::<PyCard>().is_err() {
                    return Err(bad());
                }
                parts.push(item.str()?.to_string());
            }
            parts.join(" ")
        }
    };
    guard(|| zhipai_core::games::hongwu::parse_cards(what, &text))
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
#[pyclass(name = "HongWuAuction", module = "zhipai", from_py_object)]
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
#[pyclass(name = "HongWuOrder", module = "zhipai", frozen)]
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

fn cards_of(m: &Multiset) -> Vec<PyCard> {
    m.to_vec().into_iter().map(PyCard).collect()
}

/// The Python name of a phase: `"auction"`, `"trump"`, `"kitty"`, `"play"` or `"over"`.
fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Auction => "auction",
        Phase::Trump => "trump",
        Phase::Kitty => "kitty",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

fn policy_of(v: &Bound<'_, PyAny>) -> PyResult<Policy> {
    let text = str_arg("policy", v)?;
    guard(|| text.parse::<Policy>())
}

/// One whole Hong Wu deal (hongwu.md §B.1–§B.11) as a state machine.
///
/// `HongWuState(rules, seed=s)` shuffles two decks with the generator of `(s, 0)`, deals 25
/// cards to each seat and 8 to the kitty, and draws the first bidder; `HongWuState(rules,
/// hands=[4 card lists], kitty="…", first=0)` starts from fixed cards. Phases: `"auction"` →
/// `"trump"` → `"kitty"` → `"play"` → `"over"`. The seat to act acts with `bid`,
/// `choose_trump`, `bury`, `play`; an action the rules forbid raises `IllegalPlayError` with
/// the reason and changes nothing. Card lists are notation strings (`"KC KC JC"`) in, lists of
/// `Card` out.
#[pyclass(name = "HongWuState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyHongWuState(HongWuState);

impl PyHongWuState {
    fn act(&mut self, action: Action) -> PyResult<Option<(Vec<PyCard>, bool)>> {
        let played = guard(|| self.0.apply(&action))?;
        Ok(played.map(|p| (cards_of(&p.cards), p.failed_throw.is_some())))
    }
}

#[pymethods]
impl PyHongWuState {
    #[new]
    #[pyo3(signature = (rules, seed=None, hands=None, kitty=None, first=None))]
    fn new<'py>(
        rules: &Bound<'py, PyAny>,
        seed: Option<&Bound<'py, PyAny>>,
        hands: Option<&Bound<'py, PyAny>>,
        kitty: Option<&Bound<'py, PyAny>>,
        first: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let r = rules_arg(rules)?;
        fn given<'py>(v: Option<&Bound<'py, PyAny>>) -> Option<Bound<'py, PyAny>> {
            v.filter(|v| !v.is_none()).cloned()
        }
        let first = match given(first) {
            Some(f) => Some(seat_arg("first bidder", &f)?),
            None => None,
        };
        match (given(seed), given(hands), given(kitty)) {
            (Some(seed), None, None) => {
                let seed = seed_arg(&seed)?;
                guard(|| HongWuState::deal_opened_by(&r, &mut deal_rng(seed, 0), first))
                    .map(PyHongWuState)
            }
            (None, Some(hands), Some(kitty)) => {
                let bad = || invalid("hands", repr(&hands), "expected a list of 4 card lists");
                let list: Vec<Bound<'_, PyAny>> = if hands.cast::<PyString>().is_ok() {
                    return Err(bad());
                } else {
                    hands.try_iter().map_err(|_| bad())?.collect::<PyResult<_>>()?
                };
                if list.len() != 4 {
                    return Err(invalid(
                        "hands",
                        format!("({} hands)", list.len()),
                        "expected 4 hands",
                    ));
                }
                let mut hs = [Multiset::EMPTY; 4];
                for (seat, (h, v)) in hs.iter_mut().zip(&list).enumerate() {
                    *h = cards_arg(&format!("hand of seat {seat}"), v)?;
                }
                let k = cards_arg("kitty", &kitty)?;
                guard(|| HongWuState::with_hands(&r, hs, k, first.unwrap_or(0))).map(PyHongWuState)
            }
            _ => Err(crate::errors::InvalidValueError::new_err(
                "invalid deal: give either seed, or hands and kitty",
            )),
        }
    }

    /// `"auction"`, `"trump"`, `"kitty"`, `"play"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.0.phase())
    }

    /// The seat to act, or `None` once the deal is over.
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.0.to_act()
    }

    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The cards of `seat` (0 to 3). Raises `InvalidValueError` for another seat.
    fn hand(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        Ok(cards_of(&self.0.hand(seat_arg("seat", seat)?)))
    }

    /// The kitty: as dealt until the dealer takes it, then as buried.
    #[getter]
    fn kitty(&self) -> Vec<PyCard> {
        cards_of(&self.0.kitty())
    }

    /// `(dealer, bid)` once the auction is over.
    #[getter]
    fn contract(&self) -> Option<(usize, u32)> {
        self.0.contract().map(|c| (c.dealer, c.bid))
    }

    /// The trump suit letter once chosen.
    #[getter]
    fn trump(&self) -> Option<String> {
        self.0.trump().map(|t| t.letter().to_string())
    }

    /// The leader of the current trick.
    #[getter]
    fn leader(&self) -> usize {
        self.0.leader()
    }

    /// The plays of the current trick, leader first.
    #[getter]
    fn current_trick(&self) -> Vec<Vec<PyCard>> {
        self.0.current_trick().iter().map(cards_of).collect()
    }

    /// Tricks completed.
    #[getter]
    fn tricks(&self) -> u32 {
        self.0.tricks()
    }

    /// Card points won in tricks by each seat.
    #[getter]
    fn points_won(&self) -> [i32; 4] {
        self.0.points_won()
    }

    /// The legal auction actions of the seat to act (`"pass"`, then bids), `[]` otherwise.
    fn legal_bids<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        if self.0.phase() != Phase::Auction {
            return Ok(Vec::new());
        }
        PyHongWuAuction(self.0.auction().clone()).legal_bids(py)
    }

    /// Candidate leads of the seat to act: every single, pair and tractor held, plus the whole
    /// holding of each plain suit that is a throw (hongwu.md §B.7) — the leads the `"random"`
    /// policy draws from uniformly. Other throws (part of a suit) are legal too but not listed.
    /// `[]` outside a lead.
    fn lead_candidates(&self) -> Vec<Vec<PyCard>> {
        if self.0.phase() != Phase::Play || !self.0.current_trick().is_empty() {
            return Vec::new();
        }
        self.0.lead_candidates().iter().map(cards_of).collect()
    }

    /// Up to `limit` legal follows of the seat to act, in a deterministic order (`[]` unless
    /// following).
    #[pyo3(signature = (limit=None))]
    fn legal_follows(&self, limit: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<PyCard>>> {
        let limit = match limit {
            Some(l) => int_arg("limit", l, 0, i64::MAX, "expected an int ≥ 0")? as usize,
            None => 10_000,
        };
        Ok(self
            .0
            .follow_moves()
            .map_or(Vec::new(), |m| m.enumerate(limit).iter().map(cards_of).collect()))
    }

    /// Number of legal follows of the seat to act (0 unless following).
    fn count_follows(&self) -> u64 {
        self.0.follow_moves().map_or(0, |m| m.count())
    }

    /// Bid `bid` (points or `"pass"`) for the seat to act.
    fn bid(&mut self, bid: &Bound<'_, PyAny>) -> PyResult<()> {
        let b = bid_of(bid)?;
        self.act(Action::Bid(b)).map(|_| ())
    }

    /// The dealer chooses trump `suit` (`S H D C`; no no-trump) and takes the kitty.
    fn choose_trump(&mut self, suit: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = trump_of(suit)?;
        self.act(Action::Trump(t)).map(|_| ())
    }

    /// The dealer buries `cards` (8 of his 33; notation or a list of cards).
    fn bury(&mut self, cards: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = cards_arg("bury", cards)?;
        self.act(Action::Bury(m)).map(|_| ())
    }

    /// Lead or follow with `cards`. Returns `(cards actually played, failed_throw)`: a throw
    /// that another hand can beat is reduced per `failed_throw_play` (hongwu.md §B.7).
    fn play(&mut self, cards: &Bound<'_, PyAny>) -> PyResult<(Vec<PyCard>, bool)> {
        let m = cards_arg("play", cards)?;
        Ok(self.act(Action::Play(m))?.expect("a play returns its cards"))
    }

    /// Apply one action chosen by the built-in `policy` (`"random"` or `"greedy"`), drawing
    /// randomness from the generator of `(seed, 0)`. Returns `(kind, value)`: `("bid", 60 or
    /// "pass")`, `("trump", "S")`, `("bury", cards)`, `("play", cards actually played)`.
    /// Raises `InvalidValueError` for an unknown policy or a finished deal.
    #[pyo3(signature = (policy=None, seed=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        policy: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(String, Bound<'py, PyAny>)> {
        let (p, seed) = policy_and_seed(policy, seed)?;
        if self.0.is_over() {
            return Err(crate::errors::InvalidValueError::new_err(
                "invalid step: the deal is over",
            ));
        }
        let a = choose(&self.0, p, &mut deal_rng(seed, 0));
        let played = self.act(a)?;
        Ok(match a {
            Action::Bid(b) => (
                "bid".into(),
                match b {
                    zhipai_core::games::hongwu::auction::Bid::Pass => {
                        PyString::new(py, "pass").into_any()
                    }
                    zhipai_core::games::hongwu::auction::Bid::Points(n) => {
                        n.into_pyobject(py)?.into_any()
                    }
                },
            ),
            Action::Trump(t) => {
                ("trump".into(), PyString::new(py, &t.letter().to_string()).into_any())
            }
            Action::Bury(m) => ("bury".into(), cards_of(&m).into_pyobject(py)?.into_any()),
            Action::Play(_) => {
                ("play".into(), played.expect("a play").0.into_pyobject(py)?.into_any())
            }
        })
    }

    /// Play the deal to its end with `policy` for every seat (generator of `(seed, 0)`); the GIL
    /// is released meanwhile. Returns the settlement dict (see `settlement`).
    #[pyo3(signature = (policy=None, seed=None))]
    fn play_out<'py>(
        &mut self,
        py: Python<'py>,
        policy: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (p, seed) = policy_and_seed(policy, seed)?;
        let mut st = self.0.clone();
        let st = crate::errors::guard_detached(py, move || {
            play_out(&mut st, p, &mut deal_rng(seed, 0))?;
            Ok(st)
        })?;
        self.0 = st;
        let s = self.0.settlement().expect("a finished deal is settled");
        settlement_dict(py, &s)
    }

    /// The settlement once over (dict as `hongwu.settle` returns), else `None`.
    fn settlement<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.settlement().map(|s| settlement_dict(py, &s)).transpose()
    }

    /// An independent copy.
    #[pyo3(name = "clone")]
    fn copy(&self) -> Self {
        PyHongWuState(self.0.clone())
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        format!(
            "HongWuState(phase='{}', to_act={}, contract={}, trump={})",
            self.phase(),
            opt(self.0.to_act().map(|s| s.to_string())),
            opt(self.contract().map(|(d, b)| format!("({d}, {b})"))),
            opt(self.trump().map(|t| format!("'{t}'")))
        )
    }
}

/// `policy` (default `"random"`) and `seed` (default 0) of `step` / `play_out`.
fn policy_and_seed(
    policy: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Policy, u64)> {
    let p = match policy {
        Some(p) => policy_of(p)?,
        None => Policy::Random,
    };
    Ok((p, seed.map_or(Ok(0), seed_arg)?))
}

// ------------------------------------------------------------------------------------------
// Step-wise play for Python policies (`zhipai.Game(rules).new_deal(seed, index)`). Move text:
// `pass`, `bid 60`, `trump S`, `bury <8 cards>`, `play <cards>`.

/// One Hong Wu deal for step-by-step play by any mix of Python callables and built-in
/// policies, with its own generator (as `zhipai.simulate` plays it). See
/// `zhipai.policy.GameState`.
#[pyclass(name = "HongWuGameState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyHongWuGameState {
    state: HongWuState,
    rng: rand_chacha::ChaCha8Rng,
    history: History,
    /// The current trick as (seat, cards played).
    trick: Vec<(usize, Multiset)>,
}

fn action_text(a: &Action) -> String {
    match a {
        Action::Play(m) => format!("play {m}"),
        other => other.to_string(),
    }
}

fn parse_action(text: &str) -> zhipai_core::Result<Action> {
    let t = text.trim();
    let (kind, rest) = t.split_once(' ').unwrap_or((t, ""));
    let rest = rest.trim();
    Ok(match kind.to_ascii_lowercase().as_str() {
        "pass" if rest.is_empty() => Action::Bid(Bid::Pass),
        "bid" => Action::Bid(Bid::Points(rest.parse().map_err(|_| {
            ZhipaiError::invalid_value("bid", rest, "expected points such as 'bid 60'")
        })?)),
        "trump" => Action::Trump(rest.parse()?),
        "bury" => Action::Bury(rest.parse()?),
        "play" => Action::Play(rest.parse()?),
        _ => return Err(ZhipaiError::invalid_value(
            "move",
            crate::simulate::quoted(text),
            "expected 'pass', 'bid <points>', 'trump <S|H|D|C>', 'bury <cards>' or 'play <cards>'",
        )),
    })
}

impl PyHongWuGameState {
    fn step(&mut self, a: Action) -> zhipai_core::Result<()> {
        let seat = self.state.to_act().unwrap_or(0);
        let played = self.state.apply(&a)?;
        match (a, played) {
            (Action::Bury(m), _) => {
                self.history.push(Step::hidden(seat, "bury", format!("bury {m}")));
            }
            (Action::Play(m), Some(p)) => {
                let text = match p.failed_throw {
                    Some(tried) => format!("play {} (failed throw {tried})", p.cards),
                    None => format!("play {m}"),
                };
                self.history.push(Step::public(seat, text));
                self.trick.push((seat, p.cards));
                if self.trick.len() == 4 {
                    self.trick.clear();
                }
            }
            (other, _) => self.history.push(Step::public(seat, action_text(&other))),
        }
        Ok(())
    }

    fn builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<Action> {
        let p = builtin_policy_arg(policy)?;
        if self.state.is_over() {
            return Err(to_py(ZhipaiError::illegal_play("builtin move", "the deal is over")));
        }
        Ok(choose(&self.state, p, &mut self.rng))
    }
}

#[pymethods]
impl PyHongWuGameState {
    /// `new_deal(rules, seed, index)`: deal `index` of a `zhipai.simulate` run seeded with
    /// `seed` (same cards, opener and generator), before the first bid.
    #[staticmethod]
    fn new_deal(
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (seed, index) = seed_index(seed, index)?;
        let r = hong_wu(rules)?;
        let mut rng = deal_rng(seed, index);
        let state = HongWuState::deal(&r, &mut rng);
        Ok(PyHongWuGameState { state, rng, history: History::default(), trick: Vec::new() })
    }

    /// Number of seats (4).
    #[getter]
    fn num_players(&self) -> usize {
        4
    }

    fn current_player(&self) -> Option<usize> {
        self.state.to_act()
    }

    fn is_terminal(&self) -> bool {
        self.state.is_over()
    }

    /// Legal moves of the seat to act, in a deterministic order: every bid (`pass` first), the
    /// four trump suits, the first 1000 burials in card order (any 8 held cards may be buried),
    /// every legal lead when there are at most 1000, else the lead candidates (every single,
    /// pair, tractor and each plain suit's whole holding when it is a throw; other throws are
    /// legal too), the first 1000 legal follows.
    fn legal_moves(&self) -> Vec<String> {
        let s = &self.state;
        let Some(seat) = s.to_act() else { return Vec::new() };
        match s.phase() {
            Phase::Auction => {
                s.auction().legal_bids().iter().map(|b| action_text(&Action::Bid(*b))).collect()
            }
            Phase::Trump => "SHDC".chars().map(|c| format!("trump {c}")).collect(),
            Phase::Kitty => {
                let mut ok = |m: &Multiset| s.check(&Action::Bury(*m)).is_ok();
                zhipai_core::multiset::sub_multisets(
                    &s.hand(seat),
                    8,
                    MOVE_LIST_LIMIT,
                    50 * MOVE_LIST_LIMIT,
                    &mut ok,
                )
                .iter()
                .map(|m| format!("bury {m}"))
                .collect()
            }
            Phase::Play => match s.follow_moves() {
                Some(m) => {
                    m.enumerate(MOVE_LIST_LIMIT).iter().map(|m| format!("play {m}")).collect()
                }
                None => {
                    let tr = s.trick_rules().expect("trump chosen in play");
                    zhipai_core::tricks::lead_candidates::all_leads(
                        tr,
                        &s.hand(seat),
                        MOVE_LIST_LIMIT,
                    )
                    .unwrap_or_else(|| s.lead_candidates())
                    .iter()
                    .map(|m| format!("play {m}"))
                    .collect()
                }
            },
            Phase::Over => Vec::new(),
        }
    }

    /// Apply `move` (text as in `legal_moves`, any legal move) for the seat to act. Raises
    /// `IllegalPlayError` naming the move and the rule (the state is then unchanged), or
    /// `InvalidCardError` / `InvalidValueError` for text that is not a move.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = move_arg(r#move)?;
        guard(|| {
            let a = parse_action(&text)?;
            self.step(a).map_err(move_error)
        })
    }

    /// The move built-in `policy` ("random" or "greedy") chooses for the seat to act, without
    /// applying it (drawn from the deal's own generator).
    fn builtin_move(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(action_text(&self.builtin(policy)?))
    }

    /// Apply the move of built-in `policy` and return its text.
    fn apply_builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = self.builtin(policy)?;
        guard(|| self.step(a))?;
        Ok(action_text(&a))
    }

    /// What `seat` sees, as a dict (keys documented in `zhipai.policy`).
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = seat_arg("seat", seat)?;
        let s = &self.state;
        let o = PyDict::new(py);
        o.set_item("game", "hong_wu")?;
        o.set_item("seat", seat)?;
        o.set_item("phase", self.phase())?;
        o.set_item("current_player", s.to_act())?;
        o.set_item("contract", s.contract().map(|c| (c.dealer, c.bid)))?;
        o.set_item("trump", s.trump().map(|t| t.letter().to_string()))?;
        o.set_item("hand", s.hand(seat).to_string())?;
        let buried = s.phase() == Phase::Play || s.phase() == Phase::Over;
        o.set_item("kitty", (buried && s.is_dealer(seat)).then(|| s.kitty().to_string()))?;
        o.set_item("hand_sizes", (0..4).map(|p| s.hand(p).len()).collect::<Vec<_>>())?;
        o.set_item(
            "current_trick",
            self.trick.iter().map(|(p, m)| (*p, m.to_string())).collect::<Vec<_>>(),
        )?;
        o.set_item("points_won", s.points_won().to_vec())?;
        o.set_item("tricks", s.tricks())?;
        o.set_item("history", self.history.view(py, seat)?)?;
        Ok(o)
    }

    /// The phase as every game's `GameState` names it: `"auction"`, `"trump"`, `"kitty"`,
    /// `"play"` or `"done"` (`zhipai.hongwu` states say `"over"` for the end).
    #[getter]
    fn phase(&self) -> &'static str {
        match self.state.phase() {
            Phase::Over => "done",
            p => phase_name(p),
        }
    }

    /// The deal's result row (columns of `zhipai.simulate`), once over.
    fn result_row(&self) -> PyResult<Vec<i32>> {
        let rules = Rules::HongWu(self.state.rules().clone());
        finished_row(&rules, self.state.is_over(), |row| {
            zhipai_core::games::hongwu::policy::write_row(&self.state, row);
            Ok(())
        })
    }

    /// Each seat's result once over (the dealer's and each 闲家's table units × `base_score_k`,
    /// zero-sum), zeros before.
    fn returns(&self) -> Vec<f64> {
        let (s, c) = (self.state.settlement(), self.state.contract());
        (0..4)
            .map(|p| match (s, c) {
                (Some(s), Some(c)) if c.dealer == p => clean_return(s.dealer as f64),
                (Some(s), Some(_)) => clean_return(s.each_other as f64),
                _ => 0.0,
            })
            .collect()
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "HongWuGameState(phase='{}', current_player={})",
            self.phase(),
            crate::simulate::py_opt(self.state.to_act())
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHongWuState>()?;
    m.add_class::<PyHongWuGameState>()?;
    m.add_class::<PyHongWuAuction>()?;
    m.add_class::<PyHongWuOrder>()?;
    m.add_function(wrap_pyfunction!(hongwu_settle, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_settle_deal, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_result_units, m)?)?;
    m.add_function(wrap_pyfunction!(hongwu_levels, m)?)?;
    Ok(())
}
