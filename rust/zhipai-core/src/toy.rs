//! A toy game for tests and benches of the simulation layer. **Not part of the API**: it plays
//! no real game. Each deal flips `flips` coins and draws a few numbers so every column path
//! (small values, large values, negative values, policy-dependent values, errors) is exercised.
//!
//! Compiled only for the crate's own tests and with the cargo feature `toy` (the benches and the
//! binding's `test-hooks` feature): the product does not ship it.

use crate::cards::{Card, Rank};
use crate::deal::DealShape;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::DealSimulator;
use crate::simulator::StartingDeal;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The toy "coin" game: see the module docs.
#[derive(Clone, Debug)]
pub struct CoinGame {
    /// Coins flipped per deal (the `heads` column is 0..=flips).
    pub flips: u32,
    /// A deal fails (InvalidValue) when its first draw in 0..1_000_000 is below this.
    pub fail_per_million: u32,
    /// Extra random draws per deal, to make deals slower (interruption tests, benches).
    pub work: u32,
}

impl Default for CoinGame {
    fn default() -> Self {
        CoinGame { flips: 10, fail_per_million: 0, work: 0 }
    }
}

pub const COLUMNS: [Column; 4] = [
    Column { name: "heads", doc: "coins that came up heads (0..=flips)" },
    Column { name: "score", doc: "a wide-range value, -100000..100000" },
    Column { name: "delta", doc: "heads minus tails" },
    Column { name: "greedy", doc: "1 when the policy is greedy" },
];

impl CoinGame {
    fn play(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32], bias: u32) -> Result<()> {
        let gate: u32 = rng.random_range(0..1_000_000);
        if gate < self.fail_per_million {
            return Err(ZhipaiError::invalid_value("coin", gate, "the toy game failed on purpose"));
        }
        let mut heads = 0i32;
        for _ in 0..self.flips {
            heads += (rng.random_range(0..100u32) < 50 + bias) as i32;
        }
        let mut score: i32 = rng.random_range(-100_000..100_000);
        for _ in 0..self.work {
            score ^= rng.random_range(0..2);
        }
        row[0] = heads;
        row[1] = score;
        row[2] = 2 * heads - self.flips as i32;
        row[3] = (policy == Policy::Greedy) as i32;
        Ok(())
    }
}

impl DealSimulator for CoinGame {
    fn columns(&self) -> Vec<Column> {
        COLUMNS.to_vec()
    }

    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        self.play(policy, rng, row, 0)
    }

    /// One deck without jokers: four seats of 12 cards, a kitty of 4.
    fn deal_shape(&self) -> Result<DealShape> {
        DealShape::equal(1, false, 4, 12, 4)
    }

    /// Toy evaluation: each ace left in the evaluated seat's hand (after the forced first
    /// action discards its cards) biases the coins by 10 points per ace; `score` becomes the
    /// number of aces in the kitty and `greedy` the dealer (-1 when not fixed), so tests can
    /// see the sampled deal and the fixings.
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
        let mut hand = start.deal.hands[start.seat];
        if let Some(action) = start.first_action {
            if !hand.contains_all(action) {
                return Err(ZhipaiError::illegal_play(
                    action,
                    "the toy seat does not hold these cards",
                ));
            }
            hand.remove_all(action)?;
        }
        let aces = |m: &Multiset| m.iter().filter(|c: &Card| c.rank() == Some(Rank::ACE)).count();
        self.play(policy, rng, row, 10 * aces(&hand) as u32)?;
        row[1] = aces(&start.deal.kitty) as i32;
        row[3] = start.dealer.map_or(-1, |d| d as i32);
        Ok(start.first_action.is_some())
    }
}
