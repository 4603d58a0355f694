//! Turn order inside a round: 开牌, 顺牌, 过牌, 让牌, 底牌 and 接风 (baohuang.md §C.6, §C.7).
//!
//! Seats are 0..5 in playing (anticlockwise) order, so the next player is `seat + 1 mod 5`.
//! After a play, every other active player responds once in order (the first circle): beat,
//! pass, yield (让牌) or, on a finisher's 底牌, apply for 接风. A beat starts a fresh response
//! sequence in which everyone may respond again (unless `pass_is_final_for_round`). If nobody
//! beats in the first circle, the yielders — and only they — get a second circle to beat or pass.
//! When the response sequence ends with no beat, the round is over and [`Round::next_leader`]
//! names who opens the next one.

use super::moves::{beats, Shape};
use super::options::{BaohuangRules, JiefengApplicant};

/// A player's answer to the current play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Response {
    /// 顺牌 / 上牌: a play that beats the current one.
    Play(Shape),
    /// 过牌.
    Pass,
    /// 让牌: pass for now, with a second chance if nobody beats in the first circle.
    Yield,
    /// 申请接风: on a finisher's 底牌, claim the next lead if everyone else passes.
    Jiefeng,
}

/// The state of one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Seats still holding cards (bit per seat).
    pub active: u8,
    /// Who made the current play (`last`), or the leader before the lead.
    pub owner: u8,
    /// The play to beat (meaningless while `leading`).
    pub last: Shape,
    /// Waiting for the leader's lead (开牌).
    pub leading: bool,
    /// Whose turn it is.
    pub turn: u8,
    /// In the yielders' second circle.
    pub second_circle: bool,
    /// Seats still to respond in this circle.
    pending: u8,
    /// Seats that yielded in this first circle.
    yielders: u8,
    /// Seats that passed this round (only used with `pass_is_final_for_round`).
    passed: u8,
    /// The 接风 applicant on the current 底牌.
    pub applicant: Option<u8>,
    /// The round is over (nobody beat the last play).
    pub over: bool,
}

const fn bit(seat: u8) -> u8 {
    1 << seat
}

/// The first seat after `seat` in playing order that is in `mask`.
#[inline]
pub fn next_in(mask: u8, seat: u8) -> Option<u8> {
    // Looked up: every response asks, and the rotation below costs two divisions by 5.
    const NONE: u8 = u8::MAX;
    const TABLE: [[u8; 5]; 32] = {
        let mut t = [[NONE; 5]; 32];
        let mut m = 0;
        while m < 32 {
            let mut seat = 0;
            while seat < 5 {
                // Rotate the 5-seat mask so that bit 0 is seat + 1: the lowest set bit is the
                // distance - 1.
                let rotated = ((m | m << 5) >> ((seat + 1) % 5)) & 0b11111;
                if rotated != 0 {
                    t[m][seat] = ((seat as u32 + 1 + rotated.trailing_zeros()) % 5) as u8;
                }
                seat += 1;
            }
            m += 1;
        }
        t
    };
    let next = TABLE[(mask & 0b11111) as usize][(seat % 5) as usize];
    (next != NONE).then_some(next)
}

impl Round {
    /// A round opened by `leader`; `active` = seats still holding cards.
    pub fn new(leader: u8, active: u8) -> Round {
        Round {
            active,
            owner: leader,
            last: Shape::default(),
            leading: true,
            turn: leader,
            second_circle: false,
            pending: 0,
            yielders: 0,
            passed: 0,
            applicant: None,
            over: false,
        }
    }

    /// Whether `seat` may yield now (first circle only).
    pub fn may_yield(&self) -> bool {
        !self.leading && !self.second_circle && !self.over
    }

    /// Whether the player to act may apply for 接风: the play to answer is a finisher's 底牌,
    /// nobody has applied, it is the first circle, and (`next_player_only`) he is the finisher's
    /// next active player.
    pub fn may_apply_jiefeng(&self, rules: &BaohuangRules) -> bool {
        // The play to answer is a 底牌 rarely: test that first.
        if self.active & bit(self.owner) != 0 {
            return false;
        }
        if self.leading || self.second_circle || self.over || self.applicant.is_some() {
            return false;
        }
        match rules.jiefeng_applicant {
            JiefengApplicant::Any => true,
            JiefengApplicant::NextPlayerOnly => next_in(self.active, self.owner) == Some(self.turn),
        }
    }

    /// The leader's lead (开牌); `finished` when it was his last card.
    pub fn lead(&mut self, shape: Shape, finished: bool) {
        debug_assert!(self.leading);
        self.leading = false;
        self.passed = 0;
        self.new_play(self.turn, shape, finished);
    }

    /// Apply `response` by the player to act. `finished` when a play was his last card.
    /// Returns an error text when the response is not allowed here.
    pub fn respond(
        &mut self,
        response: Response,
        finished: bool,
        rules: &BaohuangRules,
    ) -> Result<(), String> {
        if self.leading || self.over {
            return Err("no play to respond to".into());
        }
        let seat = self.turn;
        match response {
            Response::Play(shape) => {
                if !beats(&shape, &self.last, rules.bombs) {
                    return Err(format!("{shape} does not beat {} (§C.5)", self.last));
                }
                self.new_play(seat, shape, finished);
                return Ok(());
            }
            Response::Pass => {}
            Response::Yield => {
                if !self.may_yield() {
                    return Err("让牌 only in the first circle after a play (§C.6)".into());
                }
            }
            Response::Jiefeng => {
                if !self.may_apply_jiefeng(rules) {
                    return Err(
                        "接风 only on a finisher's 底牌, first circle, one applicant (§C.7)".into(),
                    );
                }
            }
        }
        self.respond_trusted(response, rules);
        Ok(())
    }

    /// A pass, yield or 接风 by the player to act already known to be allowed (the rollout path:
    /// moves drawn from move generation); same as [`Round::respond`] without the checks.
    #[inline]
    pub fn respond_trusted(&mut self, response: Response, rules: &BaohuangRules) {
        debug_assert!(!self.leading && !self.over && !matches!(response, Response::Play(_)));
        let seat = self.turn;
        match response {
            Response::Pass if rules.pass_is_final_for_round => self.passed |= bit(seat),
            Response::Yield => self.yielders |= bit(seat),
            Response::Jiefeng => self.applicant = Some(seat),
            _ => {}
        }
        self.pending &= !bit(seat);
        self.advance();
    }

    /// A play by the player to act already known to beat the current one (the rollout path:
    /// plays drawn from move generation); same as `respond(Response::Play(shape), ..)` without
    /// checking [`beats`] again.
    pub fn respond_trusted_play(&mut self, shape: Shape, finished: bool) {
        debug_assert!(!self.leading && !self.over);
        self.new_play(self.turn, shape, finished);
    }

    fn new_play(&mut self, seat: u8, shape: Shape, finished: bool) {
        self.owner = seat;
        self.last = shape;
        if finished {
            self.active &= !bit(seat);
        }
        self.applicant = None; // 上牌 makes a pending 接风 fail (§C.7)
        self.second_circle = false;
        self.yielders = 0;
        self.pending = self.active & !self.passed & !bit(seat);
        self.turn = seat;
        self.advance();
    }

    fn advance(&mut self) {
        if self.pending == 0 && !self.second_circle && self.yielders != 0 {
            // Nobody beat in the first circle: the yielders' second chance, in order (§C.6).
            self.second_circle = true;
            self.pending = self.yielders;
            self.yielders = 0;
            self.turn = self.owner;
        }
        match next_in(self.pending, self.turn) {
            Some(s) => self.turn = s,
            None => self.over = true,
        }
    }

    /// Who opens the next round once this one is over: the last player if he still holds cards
    /// (seed: "其后每轮都由上一轮的最后一位玩家出牌"); after a 底牌, the 接风 applicant, or else the
    /// finisher's next active player (§C.7 [I]). `None` if nobody is active.
    pub fn next_leader(&self) -> Option<u8> {
        if self.active & bit(self.owner) != 0 {
            Some(self.owner)
        } else if let Some(a) = self.applicant.filter(|&a| self.active & bit(a) != 0) {
            Some(a)
        } else {
            next_in(self.active, self.owner)
        }
    }

    /// Seats (bits) still to respond in this circle.
    pub fn to_respond(&self) -> u8 {
        self.pending
    }

    /// Seats (bits) that yielded (让牌) in this first circle.
    pub fn yielders(&self) -> u8 {
        self.yielders
    }

    /// Seats (bits) out of this round by a pass (only with `pass_is_final_for_round`).
    pub fn passed(&self) -> u8 {
        self.passed
    }

    /// Seats still holding cards.
    pub fn active_count(&self) -> u32 {
        self.active.count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::baohuang::moves::shape_of;

    fn sh(s: &str) -> Shape {
        shape_of(&s.parse().unwrap(), None).unwrap()
    }

    #[test]
    fn next_in_is_the_first_seat_after_in_playing_order() {
        for mask in 0..32u8 {
            for seat in 0..5u8 {
                let naive = (1..=5).map(|d| (seat + d) % 5).find(|&s| mask & bit(s) != 0);
                assert_eq!(next_in(mask, seat), naive, "mask {mask:05b} seat {seat}");
            }
        }
    }

    #[test]
    fn b12_yielders_get_a_second_circle() {
        let r = BaohuangRules::default();
        let mut round = Round::new(0, 0b11111);
        round.lead(sh("7S 7H 7D"), false);
        for (seat, resp) in
            [(1, Response::Yield), (2, Response::Pass), (3, Response::Yield), (4, Response::Pass)]
        {
            assert_eq!(round.turn, seat);
            round.respond(resp, false, &r).unwrap();
        }
        assert!(round.second_circle);
        assert_eq!(round.turn, 1);
        round.respond(Response::Pass, false, &r).unwrap();
        assert_eq!(round.turn, 3);
        assert!(
            round.respond(Response::Yield, false, &r).is_err(),
            "no yield in the second circle"
        );
        round.respond(Response::Pass, false, &r).unwrap();
        assert!(round.over);
        assert_eq!(round.next_leader(), Some(0));
    }

    #[test]
    fn b13_jiefeng_and_its_failure() {
        let r = BaohuangRules::default();
        let mut round = Round::new(0, 0b11111);
        round.lead(sh("SJ 2S 2H"), true);
        assert!(round.may_apply_jiefeng(&r));
        round.respond(Response::Jiefeng, false, &r).unwrap();
        assert!(!round.may_apply_jiefeng(&r), "next_player_only: seat 2 may not apply");
        let mut blocked = round;
        for _ in 0..3 {
            round.respond(Response::Pass, false, &r).unwrap();
        }
        assert_eq!(round.next_leader(), Some(1));
        blocked.respond(Response::Pass, false, &r).unwrap();
        blocked.respond(Response::Pass, false, &r).unwrap();
        blocked.respond(Response::Play(sh("BJ SJ SJ")), false, &r).unwrap();
        assert_eq!(blocked.applicant, None);
        for seat in [1, 2, 3] {
            assert_eq!(blocked.turn, seat);
            blocked.respond(Response::Pass, false, &r).unwrap();
        }
        assert_eq!(blocked.next_leader(), Some(4));
    }

    #[test]
    fn pass_is_final_keeps_passers_out() {
        let r = BaohuangRules { pass_is_final_for_round: true, ..Default::default() };
        let mut round = Round::new(0, 0b11111);
        round.lead(sh("3S"), false);
        round.respond(Response::Pass, false, &r).unwrap(); // seat 1 passes for the round
        round.respond(Response::Play(sh("4S")), false, &r).unwrap(); // seat 2
        for seat in [3, 4, 0] {
            assert_eq!(round.turn, seat, "seat 1 is skipped");
            round.respond(Response::Pass, false, &r).unwrap();
        }
        assert!(round.over);
        assert_eq!(round.next_leader(), Some(2));
    }

    #[test]
    fn unclaimed_finish_passes_the_lead_on() {
        let r = BaohuangRules::default();
        let mut round = Round::new(2, 0b11111);
        round.lead(sh("5S"), true);
        for _ in 0..4 {
            round.respond(Response::Pass, false, &r).unwrap();
        }
        assert_eq!(round.next_leader(), Some(3));
    }
}
