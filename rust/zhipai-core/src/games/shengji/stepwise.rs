//! Shengji's [`StepwiseEvaluation`]: whole-hand evaluation with any player, a candidate read as
//! [`DealSimulator::play_from_deal`](crate::simulator::DealSimulator::play_from_deal) reads it
//! (see `simulator.rs`): the starting state is [`crate::game::Game::deal_from`] of the sampled
//! deal (the same calls as the hook).

use super::game::DealState;
use super::moves::Move;
use super::simulator::candidate_bid;
use super::state::{hand_and_kitty, Phase};
use super::ShengjiRules;
use crate::error::Result;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{CandidateStep, StartingDeal, StepwiseEvaluation};

impl StepwiseEvaluation for ShengjiRules {
    /// A declaration-shaped candidate the seat does not hold is an `IllegalPlay`.
    fn check_candidate(
        &self,
        _state: &DealState,
        start: &StartingDeal<'_>,
        _cards: &Multiset,
    ) -> Result<()> {
        candidate_bid(self, start, &start.deal.hands[start.seat]).map(|_| ())
    }

    /// As `play_from_deal`: a declaration at the seat's first declaring chance where it is
    /// legal (passing before; never once declaring is over), a pass at its first declaring
    /// chance for `""`, a burial of the kitty size for the dealer, else its first play (the
    /// dealer's burial before it is `helper`'s, keeping the candidate's cards).
    fn candidate_step(
        &self,
        state: &mut DealState,
        start: &StartingDeal<'_>,
        m: &Multiset,
        helper: Policy,
    ) -> Result<CandidateStep<Move>> {
        let bid = candidate_bid(self, start, &start.deal.hands[start.seat])?;
        let phase = state.deal().phase();
        if (bid.is_some() || m.is_empty()) && start.trump.is_none() && phase != Phase::Dealing {
            // Declaring is over and the bid never became legal, or the seat never had a chance
            // to pass: the rest of the deal is the player's.
            return Ok(CandidateStep::Wait);
        }
        let (_, kitty_size) = hand_and_kitty(self.decks);
        Ok(match phase {
            Phase::Dealing => match bid {
                Some(b) if state.deal().legal_bids().contains(&b) => {
                    CandidateStep::Try(Move::Declare(b))
                }
                Some(_) => CandidateStep::Before(Move::Pass), // not legal yet: pass, try later
                None if m.is_empty() => CandidateStep::Try(Move::Pass),
                None => CandidateStep::Wait,
            },
            Phase::Burying if m.len() == kitty_size => CandidateStep::Try(Move::Bury(*m)),
            Phase::Burying => CandidateStep::Before(state.burial_keeping(helper, m)?),
            Phase::Playing => CandidateStep::Try(Move::Play(*m)),
            // 炒底 offers are left to the player, as in `play_from_deal`.
            Phase::Chaodi | Phase::Done => CandidateStep::Wait,
        })
    }
}
