//! `zhipai._core`: the thin PyO3 binding of `zhipai-core`.
//!
//! Only conversions, GIL release and error mapping live here; every rule is in `zhipai-core`.
//! One file per concept or game, each with a `register` function called below.

use pyo3::prelude::*;

mod baohuang;
mod cards;
mod convert;
mod deal;
mod errors;
mod evaluate;
mod game_state;
mod gongzhu;
mod hongwu;
mod rules;
mod shengji_play;
mod shengji_scoring;
mod simulate;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    evaluate::register(m)?;
    baohuang::register(m)?;
    cards::register(m)?;
    convert::register(m)?;
    deal::register(m)?;
    game_state::register(m)?;
    gongzhu::register(m)?;
    hongwu::register(m)?;
    rules::register(m)?;
    shengji_play::register(m)?;
    shengji_scoring::register(m)?;
    simulate::register(m)?;
    Ok(())
}
