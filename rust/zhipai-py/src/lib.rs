//! `zhipai._core`: the thin PyO3 binding of `zhipai-core`.
//!
//! Only conversions, GIL release and error mapping live here; every rule is in `zhipai-core`.
//! One file per core concept, each with a `register` function called below: `cards`, `deal`,
//! `rules`, `game_state` (the one deal state of every game), `simulate`, `arena` (a player per seat, tournaments), `evaluate`, `errors`,
//! `convert` (argument conversion), `run` (GIL release, Ctrl-C, progress), `tricks` (the trick
//! machinery of the Shengji family and Hong Wu) and the per-game mechanics (`shengji`, `hongwu`,
//! `gongzhu`, `baohuang`); `test_hooks` only with the cargo feature of that name.

use pyo3::prelude::*;

mod arena;
mod baohuang;
mod cards;
mod convert;
mod deal;
mod env;
mod errors;
mod evaluate;
mod game_state;
mod gongzhu;
mod hongwu;
mod rules;
mod run;
mod shengji;
mod simulate;
#[cfg(feature = "test-hooks")]
mod test_hooks;
mod tricks;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    arena::register(m)?;
    evaluate::register(m)?;
    baohuang::register(m)?;
    cards::register(m)?;
    convert::register(m)?;
    deal::register(m)?;
    env::register(m)?;
    game_state::register(m)?;
    gongzhu::register(m)?;
    hongwu::register(m)?;
    rules::register(m)?;
    tricks::register(m)?;
    shengji::register(m)?;
    simulate::register(m)?;
    #[cfg(feature = "test-hooks")]
    test_hooks::register(m)?;
    Ok(())
}
