//! Search players written once on the game contract, for every game: determinisation
//! ([`determinize`]), perfect-information Monte Carlo ([`pimc`]), single-observer
//! information-set MCTS ([`ismcts`]), and players by name ([`player`]).

pub mod determinize;
pub mod ismcts;
pub mod pimc;
pub mod player;

pub use determinize::{resample, Determinizer};
pub use ismcts::{ismcts, IsmctsConfig, IsmctsDecision};
pub use pimc::{pimc, PimcConfig, PimcDecision};
pub use player::Player;

use crate::deal::deal_rng;
use crate::game::GameRng;

/// Mixed into the seed of a run for the search generators.
pub const SEARCH_SALT: u64 = 0x5EA4_C400_0000_0001;

/// The search generator of deal `index` of a run seeded `seed`.
pub fn search_rng(seed: u64, index: u64) -> GameRng {
    deal_rng(seed ^ SEARCH_SALT, index)
}
