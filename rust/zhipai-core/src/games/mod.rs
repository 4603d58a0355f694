//! One module per game. Each has its own options (`*Rules::from_preset`), state and scoring.

pub mod baohuang;
pub mod gongzhu;
pub mod hongwu;
pub mod shengji;
