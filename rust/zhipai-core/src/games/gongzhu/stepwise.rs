//! Gongzhu's [`StepwiseEvaluation`]: whole-hand evaluation with any player, a candidate read as
//! [`DealSimulator::play_from_deal`](crate::simulator::DealSimulator::play_from_deal) reads it
//! ([`super::evaluate`]): the starting state is [`crate::game::Game::deal_from`] of the sampled
//! deal (the same first leader).

use super::evaluate::FirstAction;
use super::game::DealState;
use super::options::GongzhuRules;
use super::state::{Move, Phase};
use crate::error::Result;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{CandidateStep, StartingDeal, StepwiseEvaluation};

impl StepwiseEvaluation for GongzhuRules {
    /// A candidate that is neither an exposure nor a play is an `IllegalPlay`
    /// ([`FirstAction::read`]).
    fn check_candidate(
        &self,
        _state: &DealState,
        _start: &StartingDeal<'_>,
        cards: &Multiset,
    ) -> Result<()> {
        FirstAction::read(self, cards).map(|_| ())
    }

    /// The seat's whole exposure decision (these copies exposed, then the end of its exposure),
    /// or its first play (not made where it is not legal).
    fn candidate_step(
        &self,
        state: &mut DealState,
        _start: &StartingDeal<'_>,
        cards: &Multiset,
        _helper: Policy,
    ) -> Result<CandidateStep<Move>> {
        Ok(match (FirstAction::read(self, cards)?, state.state().phase()) {
            (FirstAction::Exposure(m), Phase::Exposure) => CandidateStep::Force(
                m.iter().map(Move::Expose).chain([Move::EndExposure]).collect(),
            ),
            (FirstAction::Play(play), Phase::Play) => CandidateStep::Try(Move::Play(play)),
            _ => CandidateStep::Wait,
        })
    }
}
