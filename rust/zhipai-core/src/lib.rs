//! zhipai-core: the pure-Rust engine of zhipai (纸牌), a simulation engine for Chinese card games.
//!
//! No Python here: the `zhipai-py` crate binds this crate for the `zhipai` Python package.
//! Rules follow the digests in `shared/rules/` (cited per rule as `shengji.md §x.y` etc.).
//!
//! Layers, bottom to top; a module uses only those below it (CI checks that no file-level import
//! cycle exists):
//!
//! 1. vocabulary: [`error`], [`cards`], [`multiset`], [`sample`] (exact bounded draws), [`options`]
//! 2. dealing: [`deal`], and what a seat knows of a deal: [`knowledge`]
//! 3. trick machinery shared by the Shengji family and Hong Wu: [`tricks`]
//! 4. the contract every game meets: [`game`] ([`game::GameState`], [`game::Game`]), its fast
//!    whole-deal path [`simulator`] ([`simulator::DealSimulator`]) and the built-in [`policy`] names
//! 5. the games, one folder each: [`games`]
//! 6. algorithms written once over the games: [`rules`] (presets → a game), [`rollout`]
//!    (batch simulation), [`eval`] and [`eval_state`] (Monte Carlo evaluation of a hand, and of a deal in progress of any game), [`any_state`] and [`record`] (a deal
//!    of any game behind one type, with its origin and JSON record), [`search`] (determinisation,
//!    PIMC, ISMCTS, players by name), [`arena`] (a player per seat;
//!    duplicate-deal tournaments), [`env`] (vectorised environments for reinforcement learning)

pub mod any_state;
pub mod arena;
pub mod cards;
pub mod deal;
pub mod env;
pub mod error;
pub mod eval;
pub mod eval_state;
pub mod game;
pub mod games;
pub mod knowledge;
pub mod multiset;
pub mod options;
pub mod policy;
pub mod record;
pub mod rollout;
pub mod rules;
pub mod sample;
pub mod search;
pub mod simulator;
#[cfg(any(test, feature = "toy"))]
pub mod toy;
pub mod tricks;

pub use cards::{format_cards, parse_cards, Card, CardSet, Rank, Suit, NUM_KINDS};
pub use error::{Result, ZhipaiError};
pub use multiset::Multiset;
pub use options::{OptionInfo, OptionValue, PresetInfo};
pub use rules::{rules, Rules};
