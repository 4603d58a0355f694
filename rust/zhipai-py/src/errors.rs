//! Python exception hierarchy and the one guard every entry point goes through.
//!
//! `zhipai.ZhipaiError` is the base class; each `ZhipaiError` variant of the core maps to a
//! subclass. A Rust panic never reaches Python as a `PanicException`: [`guard`] turns it into a
//! `ZhipaiError` whose message says it is an internal error.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use zhipai_core::ZhipaiError;

create_exception!(zhipai._core, ZhipaiErrorPy, PyException, "Base class of every zhipai error.");
create_exception!(
    zhipai._core,
    InvalidCardError,
    ZhipaiErrorPy,
    "A card in notation could not be parsed."
);
create_exception!(
    zhipai._core,
    InvalidValueError,
    ZhipaiErrorPy,
    "An argument has a value outside its domain."
);
create_exception!(
    zhipai._core,
    InvalidOptionError,
    ZhipaiErrorPy,
    "Unknown preset or option, or a value the option does not take."
);
create_exception!(
    zhipai._core,
    IllegalPlayError,
    ZhipaiErrorPy,
    "A play, bid or action the rules do not allow here."
);
create_exception!(
    zhipai._core,
    ImpossibleDealError,
    ZhipaiErrorPy,
    "Dealing constraints that no deal satisfies."
);

/// Convert a core error to the matching Python exception.
pub fn to_py(err: ZhipaiError) -> PyErr {
    let msg = err.to_string();
    match err {
        ZhipaiError::InvalidCard { .. } => InvalidCardError::new_err(msg),
        ZhipaiError::InvalidValue { .. } => InvalidValueError::new_err(msg),
        ZhipaiError::InvalidOption { .. } => InvalidOptionError::new_err(msg),
        ZhipaiError::IllegalPlay { .. } => IllegalPlayError::new_err(msg),
        ZhipaiError::ImpossibleDeal { .. } => ImpossibleDealError::new_err(msg),
        ZhipaiError::Interrupted { .. } => PyKeyboardInterrupt::new_err(msg),
    }
}

/// Run `f`, mapping its error to a Python exception and any panic to `ZhipaiError`.
pub fn guard<T>(f: impl FnOnce() -> Result<T, ZhipaiError>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(e)),
        Err(panic) => Err(ZhipaiErrorPy::new_err(format!(
            "internal error (please report): {}",
            panic_message(&panic)
        ))),
    }
}

#[allow(dead_code)] // used by the long-running entry points (deal batches, simulate)
/// Like [`guard`], with the GIL released while `f` runs (for long computations).
pub fn guard_detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, ZhipaiError> + Send,
) -> PyResult<T> {
    py.detach(|| guard(f))
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Register the exception classes on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ZhipaiError", py.get_type::<ZhipaiErrorPy>())?;
    m.add("InvalidCardError", py.get_type::<InvalidCardError>())?;
    m.add("InvalidValueError", py.get_type::<InvalidValueError>())?;
    m.add("InvalidOptionError", py.get_type::<InvalidOptionError>())?;
    m.add("IllegalPlayError", py.get_type::<IllegalPlayError>())?;
    m.add("ImpossibleDealError", py.get_type::<ImpossibleDealError>())?;
    Ok(())
}
