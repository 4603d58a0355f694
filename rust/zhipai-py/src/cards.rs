//! Card, card lists and their numpy form.
//!
//! numpy form of a card list: a 1-D `uint8` array of kind indices 0 to 53 (`suit * 13 + rank`,
//! suits S H D C, rank 0 = `2` … 12 = `A`; 52 = SJ, 53 = BJ), in the list's order.

use crate::convert;
use crate::errors::guard;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyString;
use zhipai_core::{Card, NUM_KINDS};

/// One card kind. `Card("10H")`, `Card(34)`; `str()` gives canonical notation.
#[pyclass(name = "Card", module = "zhipai._core", frozen, eq, ord, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    /// Build from notation (`"10H"`, `"T♥"`, `"sj"`) or from a kind index 0 to 53 (an int or a
    /// numpy integer; not a bool or float). Raises `InvalidCardError` for bad notation,
    /// `InvalidValueError` for an index outside 0 to 53 or another type.
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        if card.is_instance_of::<PyString>() {
            let text: String = card.extract()?;
            return guard(|| Ok(PyCard(text.parse()?)));
        }
        if let Ok(c) = card.cast::<PyCard>() {
            return Ok(*c.get());
        }
        if !convert::is_int(card) {
            return Err(convert::invalid(
                "card",
                card,
                "expected notation such as 'AS' or a kind index from 0 to 53",
            ));
        }
        card_index("card", card)
    }

    /// Kind index 0 to 53.
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// Suit letter `S H D C`, or `None` for a joker.
    #[getter]
    fn suit(&self) -> Option<String> {
        self.0.suit().map(|s| s.letter().to_string())
    }

    /// Rank symbol `2`…`10`, `J`, `Q`, `K`, `A`, or `None` for a joker.
    #[getter]
    fn rank(&self) -> Option<&'static str> {
        self.0.rank().map(|r| r.symbol())
    }

    /// Card points in the trick games: 5 → 5, 10 → 10, K → 10 (shengji.md §7.1).
    #[getter]
    fn points(&self) -> u32 {
        self.0.points()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    fn __int__(&self) -> usize {
        self.0.index()
    }
}

/// A kind index 0 to 53 as a `Card`, or `InvalidValueError` naming `what` and the value.
pub fn card_index(what: &str, value: &Bound<'_, PyAny>) -> PyResult<PyCard> {
    let i: usize = convert::int_in(what, value, 0, NUM_KINDS as i128 - 1)?;
    Ok(PyCard(Card::from_index(i).expect("index checked above")))
}

/// Parse a card list (a string in notation) into `Card`s. Raises `InvalidCardError` naming the
/// first bad token, `InvalidValueError` when `text` is not a string.
#[pyfunction]
pub fn cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    let text = convert::text("card list", text, "a string of cards such as 'AS 10H SJ'")?;
    guard(|| Ok(zhipai_core::parse_cards(&text)?.into_iter().map(PyCard).collect()))
}

/// Card list → 1-D `uint8` numpy array of kind indices (module docs). The list is a string in
/// notation or an iterable of `Card`s, card strings and kind indices. Raises `InvalidCardError`
/// / `InvalidValueError` naming a bad card.
#[pyfunction]
pub fn cards_to_array<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let list: Vec<PyCard> = if cards.is_instance_of::<PyString>() {
        self::cards(cards)?
    } else {
        let items = cards.try_iter().map_err(|_| {
            convert::invalid("card list", cards, "expected a string or an iterable of cards")
        })?;
        items.map(|item| PyCard::new(&item?)).collect::<PyResult<_>>()?
    };
    Ok(PyArray1::from_vec(py, list.iter().map(|c| c.0.index() as u8).collect()))
}

/// 1-D array of kind indices (a numpy array of any integer dtype, or a list of ints) → list of
/// `Card`. Raises `InvalidValueError` for an index outside 0 to 53, a non-integer dtype or
/// element, or an array that is not 1-D.
#[pyfunction]
pub fn cards_from_array(array: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    let ndim = array.getattr("ndim").ok().and_then(|n| n.extract::<usize>().ok());
    // A string is not an array of kind indices (iterated, it named one of its characters).
    if ndim.is_some_and(|n| n != 1) || array.is_instance_of::<PyString>() {
        return Err(convert::invalid("card array", array, "expected a 1-D array of kind indices"));
    }
    if let Ok(kind) = array.getattr("dtype").and_then(|d| d.getattr("kind")) {
        let kind: String = kind.extract()?;
        if kind != "i" && kind != "u" {
            return Err(convert::invalid(
                "card array",
                array,
                format!("expected an integer dtype, not dtype kind '{kind}'"),
            ));
        }
    }
    let items = array.try_iter().map_err(|_| {
        convert::invalid("card array", array, "expected a 1-D array of kind indices")
    })?;
    items.map(|item| card_index("card index", &item?)).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_function(wrap_pyfunction!(cards, m)?)?;
    m.add_function(wrap_pyfunction!(cards_to_array, m)?)?;
    m.add_function(wrap_pyfunction!(cards_from_array, m)?)?;
    Ok(())
}
