//! Dealing: one deal (card lists + count matrix) and batches of deals as one numpy array.
//!
//! Count matrix of a deal: `uint8`, shape `(hands + 1, 54)`; row `h` counts hand `h`'s cards per
//! kind (column = kind index, `suit * 13 + rank`, 52 = SJ, 53 = BJ), the last row is the kitty.
//! A batch stacks these: shape `(n, hands + 1, 54)`. Deal `i` of seed `s` is drawn with
//! `zhipai_core::deal::deal_rng(s, i)`, so a batch row equals the single deal with that index.
//!
//! The public Python API is `zhipai.deal` / `zhipai.deal_batch` (python/zhipai/deal.py), which
//! normalises arguments and calls the functions here.

use crate::cards::PyCard;
use crate::errors::{guard, guard_detached};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use zhipai_core::cards::CardSet;
use zhipai_core::deal::deal_rng;
use zhipai_core::deal::{ConstrainedDealer, Constraints, Deal, DealShape};
use zhipai_core::{Multiset, Result, ZhipaiError, NUM_KINDS};

/// A non-negative count argument, or `InvalidValue` naming it.
fn count(what: &str, value: i64) -> Result<usize> {
    usize::try_from(value)
        .map_err(|_| ZhipaiError::invalid_value(what, value, "must not be negative"))
}

/// The dealer for the arguments shared by `deal` and `deal_batch`.
#[allow(clippy::too_many_arguments)]
fn dealer(
    decks: i64,
    hand_sizes: &[i64],
    kitty: i64,
    jokers: bool,
    fixed: &[String],
    kitty_cards: &str,
    voids: &[u64],
) -> Result<ConstrainedDealer> {
    let decks = count("decks", decks)?;
    let sizes = hand_sizes.iter().map(|&s| count("hand size", s)).collect::<Result<Vec<_>>>()?;
    let shape = DealShape::new(decks, jokers, &sizes, count("kitty", kitty)?)?;
    let mut c = Constraints::new();
    for (h, text) in fixed.iter().enumerate() {
        c = c.fix_hand(h, known_cards(&format!("fixed cards of hand {h}"), text, decks)?);
    }
    c = c.in_kitty(known_cards("kitty cards", kitty_cards, decks)?);
    for (h, &mask) in voids.iter().enumerate() {
        if mask & !CardSet::ALL.0 != 0 {
            return Err(ZhipaiError::invalid_value(
                format!("void mask of hand {h}"),
                format!("{mask:#x}"),
                "bits above 53 are not card kinds",
            ));
        }
        c = c.void(h, CardSet(mask));
    }
    ConstrainedDealer::new(&shape, &c)
}

/// `_deal(decks, hand_sizes, kitty, jokers, seed, index, fixed, kitty_cards, voids)`: deal
/// `index` of `seed`. Returns `(hands, kitty, counts)`: card lists (ascending kind index) and the
/// `(hands + 1, 54)` `uint8` count matrix. `fixed[h]` / `kitty_cards` are card lists in notation,
/// `voids[h]` a 54-bit kind mask. Raises `InvalidValueError`, `InvalidCardError`,
/// `ImpossibleDealError` (see `zhipai.deal`).
#[pyfunction]
#[pyo3(name = "_deal")]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn deal<'py>(
    py: Python<'py>,
    decks: i64,
    hand_sizes: Vec<i64>,
    kitty: i64,
    jokers: bool,
    seed: &Bound<'py, PyAny>,
    index: u64,
    fixed: Vec<String>,
    kitty_cards: &str,
    voids: Vec<u64>,
) -> PyResult<(Vec<Vec<PyCard>>, Vec<PyCard>, Bound<'py, PyArray2<u8>>)> {
    let seed = crate::convert::seed(seed)?;
    let d: Deal = guard(|| {
        let dealer = dealer(decks, &hand_sizes, kitty, jokers, &fixed, kitty_cards, &voids)?;
        Ok(dealer.deal(&mut deal_rng(seed, index)))
    })?;
    let cards = |m: &Multiset| m.iter().map(PyCard).collect::<Vec<_>>();
    let rows = d.hands.len() + 1;
    let mut counts = vec![0u8; rows * NUM_KINDS];
    d.write_counts(&mut counts);
    let counts = PyArray1::from_vec(py, counts).reshape([rows, NUM_KINDS])?;
    Ok((d.hands.iter().map(cards).collect(), cards(&d.kitty), counts))
}

/// `_deal_batch(decks, hand_sizes, kitty, jokers, seed, start, n, fixed, kitty_cards, voids)`:
/// deals `start .. start + n` of `seed` as a `uint8` array of shape `(n, hands + 1, 54)` (module
/// docs). The constraints are checked once; the GIL is released while dealing.
#[pyfunction]
#[pyo3(name = "_deal_batch")]
#[allow(clippy::too_many_arguments)]
fn deal_batch<'py>(
    py: Python<'py>,
    decks: i64,
    hand_sizes: Vec<i64>,
    kitty: i64,
    jokers: bool,
    seed: &Bound<'py, PyAny>,
    start: u64,
    n: u64,
    fixed: Vec<String>,
    kitty_cards: &str,
    voids: Vec<u64>,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let seed = crate::convert::seed(seed)?;
    let rows = hand_sizes.len() + 1;
    let (n, counts) = guard_detached(py, || {
        // Deals start .. start + n: the last one, start + n - 1, must be a u64.
        if n > 0 && start.checked_add(n - 1).is_none() {
            return Err(ZhipaiError::invalid_value(
                "start",
                start,
                format!("start + n = {start} + {n} exceeds the 2**64 deals of a seed"),
            ));
        }
        let dealer = dealer(decks, &hand_sizes, kitty, jokers, &fixed, kitty_cards, &voids)?;
        let per_deal = rows * NUM_KINDS;
        // Allocation failure would abort the interpreter: report it as a bad `n` instead.
        let too_big = || {
            ZhipaiError::invalid_value(
                "n",
                n,
                format!("the result ({rows} x 54 bytes per deal) does not fit in memory"),
            )
        };
        let n = usize::try_from(n).map_err(|_| too_big())?;
        let total = n.checked_mul(per_deal).ok_or_else(too_big)?;
        let mut counts = Vec::new();
        counts.try_reserve_exact(total).map_err(|_| too_big())?;
        counts.resize(total, 0u8);
        let mut d = Deal::default();
        for (i, out) in counts.chunks_exact_mut(per_deal).enumerate() {
            dealer.deal_into(&mut deal_rng(seed, start + i as u64), &mut d);
            d.write_counts(out);
        }
        Ok((n, counts))
    })?;
    PyArray1::from_vec(py, counts).reshape([n, rows, NUM_KINDS])
}

/// Parse a list of known cards. More copies of a card than any deck holds is an impossible
/// deal, as the core says for 3 copies in 2 decks; a `Multiset` cannot even hold 5, so say it here.
fn known_cards(what: &str, text: &str, decks: usize) -> Result<Multiset> {
    let cards = zhipai_core::parse_cards(text)?;
    for &card in &cards {
        let n = cards.iter().filter(|&&c| c == card).count();
        if n > zhipai_core::multiset::MAX_COPIES {
            return Err(ZhipaiError::impossible_deal(format!(
                "{card} is fixed {n} times ({what}) but the deck has {decks} copies"
            )));
        }
    }
    Multiset::from_cards(&cards)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(deal_batch, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::{ImpossibleDealError, ZhipaiErrorPy};

    /// No panic crosses into Python: `guard` (used by every entry point here) turns one into
    /// `zhipai.ZhipaiError` with the panic message. No input of `_deal` is known to panic, so the
    /// guard is exercised directly.
    #[test]
    fn a_panic_becomes_zhipai_error() {
        Python::initialize();
        Python::attach(|py| {
            let err = guard::<()>(|| panic!("deliberate test panic")).unwrap_err();
            assert!(err.is_instance_of::<ZhipaiErrorPy>(py));
            assert!(
                err.to_string().contains("internal error")
                    && err.to_string().contains("deliberate")
            );
            let err =
                guard_detached(py, || -> Result<()> { panic!("in detached code") }).unwrap_err();
            assert!(err.is_instance_of::<ZhipaiErrorPy>(py));
        });
    }

    #[test]
    fn core_errors_keep_their_class() {
        Python::initialize();
        Python::attach(|py| {
            let err = guard(|| dealer(1, &[13, 13, 13, 13], 2, true, &["AS AS".into()], "", &[]))
                .unwrap_err();
            assert!(err.is_instance_of::<ImpossibleDealError>(py), "{err}");
            assert!(err.is_instance_of::<ZhipaiErrorPy>(py));
        });
    }
}
