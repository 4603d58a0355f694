//! A Gongzhu match: a series of deals with the leader rule of §A.8 and accumulated results.

use super::options::{FirstLead, GongzhuRules, MatchEnd};
use super::policy::play_out;
use super::state::{Opening, State};
use crate::policy::Policy;
use rand::Rng;

/// A match in progress: how many deals were played, the accumulated credited results, and who
/// leads the next deal.
#[derive(Clone, Debug)]
pub struct Match {
    rules: GongzhuRules,
    deals: u32,
    totals: [i64; 4],
    next_leader: Option<usize>,
}

impl Match {
    pub fn new(rules: &GongzhuRules) -> Match {
        Match { rules: *rules, deals: 0, totals: [0; 4], next_leader: None }
    }

    /// How the next deal opens (§A.8): the first deal by `first_lead_card`, later deals by the
    /// previous pig-taker; under `rotate` the first leader moves one seat per deal.
    pub fn next_opening(&self) -> Opening {
        match (self.rules.first_lead_card, self.deals, self.next_leader) {
            (_, 0, _) => Opening::FirstOfMatch,
            (FirstLead::Rotate, n, _) => {
                let mut seat = 0;
                for _ in 0..n % 4 {
                    seat = self.rules.next_seat(seat);
                }
                Opening::LedBy(seat)
            }
            (_, _, Some(s)) => Opening::LedBy(s),
            (_, _, None) => Opening::FirstOfMatch,
        }
    }

    /// Deal the next deal (not yet played).
    pub fn start_deal<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        State::deal(&self.rules, rng, self.next_opening())
    }

    /// Record a finished deal: add its credited results and remember its pig-taker.
    pub fn record(&mut self, deal: &State) {
        let score = deal.score();
        for s in 0..4 {
            self.totals[s] += score.final_[s];
        }
        self.next_leader = deal.next_deal_leader();
        self.deals += 1;
    }

    /// Deal and play one deal with `policy` for every seat; returns the finished deal.
    pub fn play_deal<R: Rng + ?Sized>(&mut self, policy: Policy, rng: &mut R) -> State {
        let mut state = self.start_deal(rng);
        let mut buf = Vec::with_capacity(64);
        play_out(&mut state, policy, rng, &mut buf);
        self.record(&state);
        state
    }

    /// Accumulated credited results per seat.
    pub fn totals(&self) -> [i64; 4] {
        self.totals
    }

    pub fn deals_played(&self) -> u32 {
        self.deals
    }

    /// Whether the `match_end` condition holds (§A.11 "Match end"): never for `none`; some
    /// total ≤ −1000 for `−1000`; some total ≤ −1000 or ≥ +1000 for `±1000`.
    pub fn is_over(&self) -> bool {
        match self.rules.match_end {
            MatchEnd::None => false,
            MatchEnd::MinusThousand => self.totals.iter().any(|&t| t <= -1000),
            MatchEnd::PlusMinusThousand => self.totals.iter().any(|&t| t.abs() >= 1000),
        }
    }
}
