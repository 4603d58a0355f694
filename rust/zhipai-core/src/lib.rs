//! zhipai-core: the pure-Rust engine of zhipai (纸牌), a simulation engine for Chinese card games.
//!
//! No Python here: the `zhipai-py` crate binds this crate for the `zhipai` Python package.
//! Rules follow the digests in `shared/rules/` (cited per rule as `shengji.md §x.y` etc.).

pub mod cards;
pub mod combos;
pub mod deal;
pub mod error;
pub mod eval;
pub mod games;
pub mod multiset;
pub mod options;
pub mod order;
pub mod policy;
pub mod rollout;
pub mod rules;
pub mod trick;

pub use cards::{format_cards, parse_cards, Card, CardSet, Rank, Suit, NUM_KINDS};
pub use error::{Result, ZhipaiError};
pub use multiset::Multiset;
pub use options::{OptionInfo, OptionValue, PresetInfo};
pub use rules::{rules, Rules};
