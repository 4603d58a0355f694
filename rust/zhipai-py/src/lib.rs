//! `zhipai._core`: the thin PyO3 binding of `zhipai-core`.
//!
//! Only conversions, GIL release and error mapping live here; every rule is in `zhipai-core`.
//! One file per concept or game, each with a `register` function called below.

use pyo3::prelude::*;

mod cards;
mod errors;
mod rules;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    cards::register(m)?;
    rules::register(m)?;
    Ok(())
}
