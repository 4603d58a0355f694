//! Baohuang's [`StepwiseEvaluation`]: whole-hand evaluation with any player, a candidate read as
//! [`DealSimulator::play_from_deal`](crate::simulator::DealSimulator::play_from_deal) reads it
//! (`policy.rs`): the scepter holder is the given dealer, else the evaluated seat when it holds
//! a BJ, else drawn among the other BJ ([`crate::game::Game::deal_from`]).

use super::game::DealState;
use super::play_cards::{to_cards, CardMove};
use super::policy::{accession_move, check_play_candidate, play_candidate_legal};
use super::state::{Move, Phase};
use super::BaohuangRules;
use crate::cards::Card;
use crate::error::Result;
use crate::game::{DealSetup, Game};
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{CandidateStep, StartingDeal, StepwiseEvaluation};

/// Whether the evaluated seat of `start` holds the scepter at the start of the deal.
fn holder(start: &StartingDeal<'_>) -> bool {
    match start.dealer {
        Some(d) => d == start.seat,
        None => start.deal.hands[start.seat].contains(Card::BIG_JOKER),
    }
}

impl StepwiseEvaluation for BaohuangRules {
    /// `setup` with the evaluated seat as the scepter holder when no dealer is given and it
    /// holds a BJ (as `play_from_deal`).
    fn evaluation_state(&self, start: &StartingDeal<'_>, setup: &DealSetup) -> Result<DealState> {
        if start.dealer.is_none() && holder(start) {
            return self.deal_from(&DealSetup { dealer: Some(start.seat), ..setup.clone() });
        }
        self.deal_from(setup)
    }

    /// A non-holder's candidate must be a pass or one play it holds (`IllegalPlay`).
    fn check_candidate(
        &self,
        state: &DealState,
        start: &StartingDeal<'_>,
        cards: &Multiset,
    ) -> Result<()> {
        if holder(start) {
            return Ok(());
        }
        check_play_candidate(state.core(), start.seat as u8, cards)
    }

    /// The holder's accession decision (an `IllegalPlay` when it is not one), or a non-holder's
    /// play / pass at its first card-play decision where it is legal.
    fn candidate_step(
        &self,
        state: &mut DealState,
        start: &StartingDeal<'_>,
        cards: &Multiset,
        _helper: Policy,
    ) -> Result<CandidateStep<CardMove>> {
        let core = state.core();
        let mv = match core.phase() {
            Phase::Accession if holder(start) => to_cards(core, accession_move(core, cards)?),
            Phase::Play if !holder(start) && play_candidate_legal(core, cards) => {
                if cards.is_empty() {
                    Move::Pass
                } else {
                    Move::Play(*cards)
                }
            }
            _ => return Ok(CandidateStep::Wait),
        };
        Ok(CandidateStep::Force(vec![mv]))
    }
}
