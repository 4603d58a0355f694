//! Argument conversion shared by every binding: integers and card lists arrive as arbitrary
//! Python objects and are checked here, so each entry point accepts exactly the documented types
//! and reports a bad one as a zhipai exception naming the argument and the value.
//!
//! Integers: a Python `int` or anything with `__index__` (numpy integers), never a `bool` (it
//! would silently mean 0/1) and never a `float` (it would be truncated). A value of the wrong
//! type or outside the allowed range raises `InvalidValueError` — never a raw `TypeError` or
//! `OverflowError`.

use crate::errors::InvalidValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

/// `value` as an integer via `operator.index`, or `None` when it is not an integer (bools and
/// floats included).
pub(crate) fn as_index<'py>(value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if value.is_instance_of::<PyBool>() {
        return None;
    }
    // SAFETY: PyNumber_Index takes a valid object pointer and returns a new reference or NULL
    // with an exception set (fetched and dropped by `from_owned_ptr_or_err`).
    unsafe { Bound::from_owned_ptr_or_err(value.py(), ffi::PyNumber_Index(value.as_ptr())) }.ok()
}

/// Whether `value` is an integer in the sense of the module docs (bools excluded).
pub fn is_int(value: &Bound<'_, PyAny>) -> bool {
    as_index(value).is_some()
}

/// The value as the message shows it: integers (numpy ones too) as plain numbers.
fn describe(value: &Bound<'_, PyAny>) -> String {
    let value = as_index(value).unwrap_or_else(|| value.clone());
    value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".to_string())
}

/// The `InvalidValueError` "invalid {what} {value!r}: {reason}".
pub fn invalid(what: &str, value: &Bound<'_, PyAny>, reason: impl std::fmt::Display) -> PyErr {
    InvalidValueError::new_err(format!("invalid {what} {}: {reason}", describe(value)))
}

/// An integer argument in `lo..=hi` (module docs), converted to `T`.
pub fn int_in<T: TryFrom<i128>>(
    what: &str,
    value: &Bound<'_, PyAny>,
    lo: i128,
    hi: i128,
) -> PyResult<T> {
    let reason = || {
        let kind = if value.is_instance_of::<PyBool>() { " (not a bool)" } else { "" };
        format!("expected an integer from {lo} to {hi}{kind}")
    };
    let int = as_index(value).ok_or_else(|| invalid(what, value, reason()))?;
    let v: i128 = int.extract().map_err(|_| invalid(what, value, reason()))?;
    if !(lo..=hi).contains(&v) {
        return Err(invalid(what, value, reason()));
    }
    T::try_from(v).map_err(|_| invalid(what, value, reason()))
}

/// Like [`int_in`] for an optional argument (`None` passes through).
pub fn opt_int_in<T: TryFrom<i128>>(
    what: &str,
    value: Option<&Bound<'_, PyAny>>,
    lo: i128,
    hi: i128,
) -> PyResult<Option<T>> {
    match value {
        Some(v) if !v.is_none() => int_in(what, v, lo, hi).map(Some),
        _ => Ok(None),
    }
}

/// A seed: an integer in `0..=2**64 - 1`.
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in("seed", value, 0, u64::MAX as i128)
}

/// A text argument (card list in notation, rank, suit, ...), or `InvalidValueError` naming it.
pub fn text<'py>(what: &str, value: &Bound<'py, PyAny>, expected: &str) -> PyResult<String> {
    if value.is_instance_of::<PyString>() {
        return value.extract();
    }
    Err(invalid(what, value, format!("expected {expected}")))
}

/// A flag: a Python `bool` or a numpy bool (not an int, not a string).
pub fn flag(what: &str, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(b.is_true());
    }
    let numpy_bool = value
        .get_type()
        .fully_qualified_name()
        .is_ok_and(|n| n == "numpy.bool" || n == "numpy.bool_");
    if numpy_bool {
        return value.is_truthy();
    }
    Err(invalid(what, value, "expected a bool"))
}

/// A list of strings (e.g. the plays of a trick); a single string is refused rather than read
/// as a list of one-character strings.
pub fn text_list(what: &str, value: &Bound<'_, PyAny>, expected: &str) -> PyResult<Vec<String>> {
    let err = || invalid(what, value, format!("expected a list of {expected}"));
    if value.is_instance_of::<PyString>() {
        return Err(err());
    }
    let items = value.try_iter().map_err(|_| err())?;
    items
        .map(|item| {
            let item = item?;
            text(&format!("item of {what}"), &item, expected)
        })
        .collect()
}

/// A list of integers in `lo..=hi` (numpy ints accepted; a single int or a string refused).
pub fn int_list<T: TryFrom<i128>>(
    what: &str,
    value: &Bound<'_, PyAny>,
    lo: i128,
    hi: i128,
) -> PyResult<Vec<T>> {
    let err = || invalid(what, value, format!("expected a list of integers from {lo} to {hi}"));
    if value.is_instance_of::<PyString>() || is_int(value) {
        return Err(err());
    }
    let items = value.try_iter().map_err(|_| err())?;
    items.map(|item| int_in(&format!("item of {what}"), &item?, lo, hi)).collect()
}

/// `_check_int(what, value, lo, hi)`: `value` as an `int` when it is an integer in `lo..=hi`
/// (numpy ints accepted; bools and floats refused), else `InvalidValueError` naming `what`. The
/// Python layer uses this so its checks match the binding's.
#[pyfunction]
#[pyo3(name = "_check_int")]
fn check_int(
    what: &str,
    value: &Bound<'_, PyAny>,
    lo: &Bound<'_, PyAny>,
    hi: &Bound<'_, PyAny>,
) -> PyResult<i128> {
    let bound = |b: &Bound<'_, PyAny>| -> PyResult<i128> {
        b.extract().map_err(|_| pyo3::exceptions::PyValueError::new_err("bad bound"))
    };
    int_in(what, value, bound(lo)?, bound(hi)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_int, m)?)?;
    Ok(())
}
