//! Gongzhu's [`DealSimulator`]: whole deals for `simulate` (the fast one-deck random rollout where
//! it applies) and the hand-evaluation hook.

use super::options::GongzhuRules;
use super::policy::play_out;
use super::row::write_row;
use super::state::{Opening, State};
use crate::deal::DealShape;
use crate::error::Result;
use crate::game::Column;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use rand_chacha::ChaCha8Rng;

impl DealSimulator for GongzhuRules {
    /// Per-deal columns (all `i32`): raw and final scores per seat, takers of the special
    /// cards, exposure levels, the all-hearts / grand-slam seats, the first leader, the number
    /// of tricks and the next deal's leader; two decks add the second copies' takers.
    fn columns(&self) -> Vec<Column> {
        super::row::columns(self)
    }

    /// One first-of-match deal (§A.8 first lead), exposure, all tricks and scoring. One deck
    /// with the random policy runs the allocation-free bitboard rollout of [`super::fast`],
    /// which draws the same random numbers and gives the same row as the general [`State`].
    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        if self.decks == 1 && policy == Policy::Random {
            super::fast::random_deal_row(self, rng, row);
            return Ok(());
        }
        let mut state = State::deal(self, rng, Opening::FirstOfMatch);
        let mut buf = Vec::with_capacity(64);
        play_out(&mut state, policy, rng, &mut buf);
        write_row(self, &state.summary(), row);
        Ok(())
    }

    /// Four hands of `13 · decks` cards, no kitty (see [`super::evaluate::deal_shape`]).
    fn deal_shape(&self) -> Result<DealShape> {
        super::evaluate::deal_shape(self)
    }

    /// Play the given deal; `start.dealer` = the first leader (a later deal), a candidate is
    /// the seat's exposure decision or its first play: see [`super::evaluate`].
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
        super::evaluate::play_from_deal(self, policy, start, rng, row)
    }
}
