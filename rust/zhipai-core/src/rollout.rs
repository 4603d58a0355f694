//! Batch simulation of complete deals: the contract every game implements, and (from the
//! simulation issue) the rayon driver with per-deal seeds.
//!
//! Deal `i` of a run with seed `s` uses [`deal_rng`]`(s, i)`, so results do not depend on the
//! thread count or on how deals are chunked.

use crate::error::Result;
use crate::policy::Policy;
use rand_chacha::ChaCha8Rng;

/// The generator of deal `index` in a run seeded with `seed`: ChaCha8 keyed by `seed`, on stream
/// `index` (independent streams, reproducible from `(seed, index)` alone).
pub fn deal_rng(seed: u64, index: u64) -> ChaCha8Rng {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// One result column: its name (snake_case, in the field's terms) and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub doc: &'static str,
}

/// A game that can play complete deals for simulation. Implemented by each game's rules type.
pub trait DealSimulator: Sync {
    /// The columns of one result row (all `i32`), fixed for this rule set.
    fn columns(&self) -> Vec<Column>;

    /// Play one complete deal (deal, bidding/declaring, kitty, tricks/rounds, scoring) with
    /// `policy` for every seat, drawing all randomness from `rng`, and write one value per
    /// column into `row` (`row.len() == self.columns().len()`).
    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()>;
}
