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
