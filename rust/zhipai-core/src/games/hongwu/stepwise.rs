//! Hong Wu's [`StepwiseEvaluation`]: whole-hand evaluation with any player, a candidate read as
//! [`DealSimulator::play_from_deal`](crate::simulator::DealSimulator::play_from_deal) reads it
//! (`policy.rs`): the starting state is [`crate::game::Game::deal_from`] of the sampled deal
//! (the opener drawn from the same generator when not given).

use super::auction::Bid;
use super::game::DealState;
use super::state::{Action, Phase};
use super::HongWuRules;
use crate::error::Result;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{CandidateStep, StartingDeal, StepwiseEvaluation};

impl StepwiseEvaluation for HongWuRules {
    /// As `play_from_deal`: `""` = pass at the seat's first bid; other cards = its burial if it
    /// becomes dealer, else its first lead or follow (not made where not legal).
    fn candidate_step(
        &self,
        state: &mut DealState,
        _start: &StartingDeal<'_>,
        m: &Multiset,
        _helper: Policy,
    ) -> Result<CandidateStep<Action>> {
        Ok(match (m.is_empty(), state.core().phase()) {
            (true, Phase::Auction) => CandidateStep::Try(Action::Bid(Bid::Pass)),
            (false, Phase::Kitty) => CandidateStep::Try(Action::Bury(*m)),
            (false, Phase::Play) => CandidateStep::Try(Action::Play(*m)),
            _ => CandidateStep::Wait,
        })
    }
}
