//! Card, card lists and their numpy form.
//!
//! numpy form of a card list: a 1-D `uint8` array of kind indices 0..54 (`suit * 13 + rank`,
//! suits S H D C, rank 0 = `2` … 12 = `A`; 52 = SJ, 53 = BJ), in the list's order.

use crate::errors::guard;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use zhipai_core::{Card, ZhipaiError};

/// One card kind. `Card("10H")`, `Card(34)`; `str()` gives canonical notation.
#[pyclass(name = "Card", module = "zhipai", frozen, eq, ord, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    /// Build from notation (`"10H"`, `"T♥"`, `"sj"`) or from a kind index 0..54.
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(i) = card.extract::<i64>() {
            return guard(|| {
                usize::try_from(i)
                    .ok()
                    .and_then(Card::from_index)
                    .map(PyCard)
                    .ok_or_else(|| ZhipaiError::invalid_value("card index", i, "expected 0..54"))
            });
        }
        let text: String = card.extract()?;
        guard(|| Ok(PyCard(text.parse()?)))
    }

    /// Kind index 0..54.
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

    /// Card points in the trick games: 5 → 5, 10 → 10, K → 10 (shengji.md §6).
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

/// Parse a card list into `Card`s. Raises `InvalidCardError` naming the first bad token.
#[pyfunction]
pub fn cards(text: &str) -> PyResult<Vec<PyCard>> {
    guard(|| Ok(zhipai_core::parse_cards(text)?.into_iter().map(PyCard).collect()))
}

/// Card list → 1-D `uint8` numpy array of kind indices (module docs).
#[pyfunction]
pub fn cards_to_array<'py>(py: Python<'py>, cards: Vec<PyCard>) -> Bound<'py, PyArray1<u8>> {
    let idx: Vec<u8> = cards.iter().map(|c| c.0.index() as u8).collect();
    PyArray1::from_vec(py, idx)
}

/// 1-D integer numpy array of kind indices → list of `Card`. Raises `InvalidValueError` for an
/// index outside 0..54.
#[pyfunction]
pub fn cards_from_array(array: PyReadonlyArray1<'_, i64>) -> PyResult<Vec<PyCard>> {
    let view = array.as_array();
    guard(|| {
        view.iter()
            .map(|&i| {
                usize::try_from(i)
                    .ok()
                    .and_then(Card::from_index)
                    .map(PyCard)
                    .ok_or_else(|| ZhipaiError::invalid_value("card index", i, "expected 0..54"))
            })
            .collect()
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_function(wrap_pyfunction!(cards, m)?)?;
    m.add_function(wrap_pyfunction!(cards_to_array, m)?)?;
    m.add_function(wrap_pyfunction!(cards_from_array, m)?)?;
    Ok(())
}
