//! A Shengji match: deals in sequence with the levels, the dealer rotation and the seating
//! (shengji.md §1.1, §2.3, §8.5).
//!
//! Players are identities 0..4; a hand seats them at seats 0..4 (counter-clockwise; partners
//! opposite). Without `random_partners_each_hand` player p always sits at seat p, so players p
//! and p + 2 are partners for the whole match and share the team level of §2.1.
//!
//! With `random_partners_each_hand = true` (JJ, S001 §一 "每副牌早先前，系统会主动为玩家拣选队友并
//! 主动分座"), the digest does not say how levels are kept; the reading implemented here:
//! 1. before every hand (hand 1 included) the seating is redrawn uniformly among the 24
//!    permutations, from the generator given to [`Match::next_deal`] and before the shuffle;
//! 2. levels are kept **per player** (every player starts at 2); the hand's level is the
//!    dealer's own level (S004 "当前庄家的级别就是级牌");
//! 3. after the hand each player moves by [`ScoringOptions::player_advance`]: the dealer (and a
//!    partner at the same level) as the dealer team of §8.5, a partner at another level rises
//!    from their own level without leaving a gate, each attacker as the attackers of §8.5;
//! 4. the next dealer is chosen in the seating of the hand just played (§2.3: the dealer's
//!    partner when the dealer team held, the attacker on the dealer's right when the attackers
//!    took over) and deals the next hand from whatever seat the new draw gives them;
//! 5. the match is won by the dealer and partner of the hand in which the dealer holds at the
//!    last level.
//!
//! With `jj_scoring` on, every player also accumulates JJ 积分 (S001 "玩家将依据本方输赢级数得到
//! 积分 … 积分=基数×防方计分"): each attacker of a hand gains 基数 × 防方计分 and each dealer-team
//! player loses as much (the seed states only the attackers' side; zero-sum is this engine's
//! reading).
//!
//! [`ScoringOptions::player_advance`]: super::scoring::ScoringOptions::player_advance

use super::declare::next_dealer;
use super::scoring::Level;
use super::state::{Deal, NUM_PLAYERS};
use super::ShengjiRules;
use crate::deal::deal_rng;
use crate::error::{Result, ZhipaiError};
use crate::game::DealSetup;
use rand::seq::SliceRandom;
use rand::RngCore;
use std::sync::atomic::{AtomicU64, Ordering};

/// Source of deal tickets, unique across all matches in the process: a deal from another
/// match (or a clone of this one) never carries this match's pending ticket.
static NEXT_TICKET: AtomicU64 = AtomicU64::new(1);

/// A match: deals in sequence with every player's level, the seating and the dealer rotation.
#[derive(Clone, Debug)]
pub struct Match {
    rules: ShengjiRules,
    /// Each player's level (players 0..4). With fixed partners, players p and p + 2 always share
    /// one (the team level).
    pub levels: [Level; NUM_PLAYERS],
    /// Seat → player of the hand last issued by [`Match::next_deal`] (identity with fixed
    /// partners).
    pub seating: [u8; NUM_PLAYERS],
    /// The player who deals the next hand (`None` before hand 1).
    pub dealer: Option<u8>,
    /// Hands played.
    pub hands: u32,
    /// The two players who won the match (ascending) once it is over.
    pub winners: Option<[u8; 2]>,
    /// Each player's JJ 积分 so far (all 0 unless `jj_scoring` is on).
    pub jj_totals: [i64; NUM_PLAYERS],
    /// Ticket of the deal last handed out by [`Match::next_deal`] and not yet recorded.
    pending: Option<u64>,
    /// Ticket of the deal last recorded (to name a second `record` of it).
    recorded: Option<u64>,
}

impl Match {
    /// A match with every player at level 2, seated at their own seat.
    pub fn new(rules: &ShengjiRules) -> Match {
        Match {
            rules: rules.clone(),
            levels: [Level::TWO; NUM_PLAYERS],
            seating: [0, 1, 2, 3],
            dealer: None,
            hands: 0,
            winners: None,
            jj_totals: [0; NUM_PLAYERS],
            pending: None,
            recorded: None,
        }
    }

    /// The seat of `player` in the current seating.
    pub fn seat_of(&self, player: u8) -> u8 {
        self.seating.iter().position(|&p| p == player).expect("a permutation of 0..4") as u8
    }

    /// The next deal (call [`Match::record`] with it when it is over): redraws the seating
    /// first under `random_partners_each_hand`, then deals at the dealer's level (2 in hand 1),
    /// which may be the joker-only level under `after_A = no_trump_level`. Errors with
    /// `IllegalPlay` when the match is over. Under `after_A = cycle_to_2` a match never ends by
    /// itself: the caller decides when to stop. Only the deal returned last can be recorded (a
    /// new call replaces the pending one, whose seating is no longer current).
    pub fn next_deal(&mut self, rng: &mut impl RngCore) -> Result<Deal> {
        let (level, dealer_seat) = self.next_hand(rng)?;
        self.issue(Deal::new(&self.rules, level, dealer_seat, rng)?)
    }

    /// [`Match::next_deal`] drawing from stream `stream` of `seed`, with the deal's setup under
    /// the game contract (no hands: shuffled at the dealer's level from the generator position
    /// after the seating draw), so the deal can be recorded and replayed on its own.
    pub fn next_deal_setup(&mut self, seed: u64, stream: u64) -> Result<(Deal, DealSetup)> {
        let mut rng = deal_rng(seed, stream);
        let (level, dealer_seat) = self.next_hand(&mut rng)?;
        let setup = DealSetup {
            level: (level != Level::TWO).then(|| level.rank()),
            dealer: dealer_seat.map(usize::from),
            seed,
            stream,
            word_pos: rng.get_word_pos(),
            ..DealSetup::default()
        };
        Ok((self.issue(Deal::new(&self.rules, level, dealer_seat, &mut rng)?)?, setup))
    }

    /// The seating draw of the next hand (under `random_partners_each_hand`) and its level and
    /// dealer seat; `IllegalPlay` once the match is over.
    fn next_hand(&mut self, rng: &mut impl RngCore) -> Result<(Level, Option<u8>)> {
        if let Some([a, b]) = self.winners {
            return Err(ZhipaiError::illegal_play(
                "next deal",
                format!("players {a} and {b} won the match"),
            ));
        }
        if self.rules.declare.random_partners_each_hand {
            self.seating.shuffle(rng);
        }
        Ok(match self.dealer {
            Some(p) => (self.levels[p as usize], Some(self.seat_of(p))),
            None => (Level::TWO, None), // hand 1: everybody is at 2
        })
    }

    /// The rules of the match.
    pub fn rules(&self) -> &ShengjiRules {
        &self.rules
    }

    /// Give `deal` this match's next ticket: only it can be recorded.
    fn issue(&mut self, mut deal: Deal) -> Result<Deal> {
        let ticket = NEXT_TICKET.fetch_add(1, Ordering::Relaxed);
        deal.match_ticket = Some(ticket);
        self.pending = Some(ticket);
        Ok(deal)
    }

    /// Apply a finished deal (the last one from [`Match::next_deal`]): every player's level
    /// (mandatory levels, after_A, 勾J) and the next dealer. Errors with `IllegalPlay` when the
    /// deal is not over, was already recorded ("deal already recorded"), or is not the deal the
    /// match last handed out ("not the match's current deal": made elsewhere, or superseded by a
    /// later `next_deal`); the match is unchanged then.
    pub fn record(&mut self, deal: &Deal) -> Result<()> {
        match deal.match_ticket {
            Some(t) if self.pending == Some(t) => {}
            Some(t) if self.recorded == Some(t) => {
                return Err(ZhipaiError::illegal_play("record", "deal already recorded"));
            }
            _ => {
                return Err(ZhipaiError::illegal_play(
                    "record",
                    "not the match's current deal (record only the deal from the last next_deal)",
                ));
            }
        }
        let r = deal
            .result()
            .ok_or_else(|| ZhipaiError::illegal_play("record", "the deal is not over"))?;
        let player_at = |seat: u8| self.seating[(seat % 4) as usize];
        let dealer = player_at(r.dealer);
        let hand_level = self.levels[dealer as usize];
        let mut won = false;
        let mut levels = self.levels;
        for seat in 0..NUM_PLAYERS as u8 {
            let p = player_at(seat) as usize;
            let on_dealer_team = (seat + 4 - r.dealer) % 2 == 0;
            let (to, w) = self.rules.scoring.player_advance(
                hand_level,
                self.levels[p],
                on_dealer_team,
                r.attacker_points,
                r.last_trick_single_jack,
            );
            levels[p] = to;
            won |= w && p as u8 == dealer;
        }
        self.levels = levels;
        if let Some(score) = self.rules.scoring.jj_score(r.attacker_points) {
            let stake = score as i64 * self.rules.scoring.base;
            for seat in 0..NUM_PLAYERS as u8 {
                let attacker = (seat + 4 - r.dealer) % 2 == 1;
                self.jj_totals[player_at(seat) as usize] += if attacker { stake } else { -stake };
            }
        }
        let held = !r.change.take_over;
        self.dealer = Some(player_at(next_dealer(&self.rules.declare, r.dealer, held)));
        self.hands += 1;
        self.recorded = self.pending.take();
        if won {
            let partner = player_at(r.dealer + 2);
            self.winners = Some([dealer.min(partner), dealer.max(partner)]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use crate::policy::Policy;

    fn tractor() -> ShengjiRules {
        ShengjiRules::from_preset("tractor", &[]).unwrap()
    }

    fn illegal_reason(e: ZhipaiError) -> String {
        assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
        e.to_string()
    }

    #[test]
    fn a_deal_is_recorded_once() {
        let mut m = Match::new(&tractor());
        let mut rng = deal_rng(1, 0);
        let mut d = m.next_deal(&mut rng).unwrap();
        d.play_out(Policy::Random).unwrap();
        m.record(&d).unwrap();
        let (levels, dealer) = (m.levels, m.dealer);
        let e = m.record(&d).unwrap_err();
        assert!(illegal_reason(e).contains("deal already recorded"));
        // A clone of the recorded deal is the same deal.
        assert!(m.record(&d.clone()).is_err());
        assert_eq!((m.hands, m.levels, m.dealer), (1, levels, dealer));
    }

    #[test]
    fn only_the_match_s_current_deal_is_recorded() {
        let r = tractor();
        let mut m = Match::new(&r);
        let mut rng = deal_rng(1, 0);
        // A deal made outside the match, even a finished one at a plausible level.
        let mut other = Deal::new(&r, Level::TWO, Some(1), &mut deal_rng(9, 0)).unwrap();
        other.play_out(Policy::Random).unwrap();
        let e = m.record(&other).unwrap_err();
        assert!(illegal_reason(e).contains("not the match's current deal"));
        // A deal of another match.
        let mut m2 = Match::new(&r);
        let mut d2 = m2.next_deal(&mut deal_rng(1, 0)).unwrap();
        d2.play_out(Policy::Random).unwrap();
        assert!(illegal_reason(m.record(&d2).unwrap_err()).contains("not the match's current deal"));
        // A deal superseded by a later next_deal.
        let mut old = m.next_deal(&mut rng).unwrap();
        old.play_out(Policy::Random).unwrap();
        let mut new = m.next_deal(&mut rng).unwrap();
        assert!(
            illegal_reason(m.record(&old).unwrap_err()).contains("not the match's current deal")
        );
        assert_eq!((m.hands, m.dealer), (0, None));
        // An unfinished current deal is refused and stays pending.
        assert!(illegal_reason(m.record(&new).unwrap_err()).contains("not over"));
        new.play_out(Policy::Random).unwrap();
        m.record(&new).unwrap();
        assert_eq!(m.hands, 1);
    }
}
