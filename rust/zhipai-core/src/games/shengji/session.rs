//! A Shengji match: deals in sequence with both teams' levels and the dealer rotation
//! (shengji.md §2.3, §8.5).

use super::declare::next_dealer;
use super::scoring::Level;
use super::state::Deal;
use super::ShengjiRules;
use crate::error::{Result, ZhipaiError};
use rand::RngCore;

/// A match: deals in sequence with both teams' levels and the dealer rotation (§2.3, §8.5).
/// Team 0 = seats 0 and 2, team 1 = seats 1 and 3.
#[derive(Clone, Debug)]
pub struct Match {
    rules: ShengjiRules,
    /// Each team's level.
    pub levels: [Level; 2],
    /// The dealer of the next hand (`None` before hand 1).
    pub dealer: Option<u8>,
    /// Hands played.
    pub hands: u32,
    /// The winning team once the match is over.
    pub winner: Option<u8>,
}

impl Match {
    /// A match at level 2 for both teams.
    pub fn new(rules: &ShengjiRules) -> Match {
        Match {
            rules: rules.clone(),
            levels: [Level::TWO; 2],
            dealer: None,
            hands: 0,
            winner: None,
        }
    }

    /// The next deal (call [`Match::record`] with it when it is over). Errors when the match is
    /// over, or the dealer team stands on the no-trump level (the deal state plays only level
    /// ranks 2..A).
    pub fn next_deal(&self, rng: &mut impl RngCore) -> Result<Deal> {
        if let Some(t) = self.winner {
            return Err(ZhipaiError::illegal_play("next deal", format!("team {t} won the match")));
        }
        let team = self.dealer.map_or(0, |d| d % 2) as usize;
        // Hand 1: both teams are at 2, whichever team ends up dealing.
        let level = self.levels[team].rank().ok_or_else(|| {
            ZhipaiError::invalid_value("level", "NT", "the joker-only level is not playable yet")
        })?;
        Deal::new(&self.rules, level, self.dealer, rng)
    }

    /// Apply a finished deal: levels (with mandatory levels and after_A) and the next dealer.
    pub fn record(&mut self, deal: &Deal) -> Result<()> {
        let r = deal
            .result()
            .ok_or_else(|| ZhipaiError::illegal_play("record", "the deal is not over"))?;
        let dealer_team = (r.dealer % 2) as usize;
        let adv = self.rules.scoring.level_advance(
            self.levels[dealer_team],
            self.levels[1 - dealer_team],
            r.attacker_points,
            false,
        );
        self.levels[dealer_team] = adv.dealer_level;
        self.levels[1 - dealer_team] = adv.attacker_level;
        self.dealer = Some(next_dealer(&self.rules.declare, r.dealer, !adv.change.take_over));
        self.hands += 1;
        if adv.match_won {
            self.winner = Some(dealer_team as u8);
        }
        Ok(())
    }
}
