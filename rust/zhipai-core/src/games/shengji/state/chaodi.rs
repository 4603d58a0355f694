//! The 炒底 phase of a [`Deal`] ([`Phase::Chaodi`]; the sequence is documented in
//! [`crate::games::shengji::chaodi`]).

use super::{Deal, Phase};
use crate::error::{Result, ZhipaiError};
use crate::games::shengji::declare::Bid;

impl Deal {
    /// Offer the next seats of the current 炒底 round: stop at the first one with a legal
    /// overcall (a decision), or start play when the round is over. Seats without a legal bid
    /// pass by themselves, as while dealing.
    pub(super) fn run_chaodi(&mut self) {
        let mut round = self.chaodi_round.expect("a 炒底 round is in progress");
        while let Some(seat) = round.next_seat(self.declaring.winner().map(|(p, _)| p)) {
            let mut any = false;
            self.declaring.for_each_legal_bid(seat, &self.hands[seat as usize], |_| any = true);
            if any {
                self.chaodi_round = Some(round);
                self.phase = Phase::Chaodi;
                self.to_move = seat;
                return;
            }
        }
        self.chaodi_round = None;
        self.start_play();
    }

    /// The player to move overcalls with `bid` after a burial: the bid's trump holds at once,
    /// the player takes the kitty and buries next (the dealer does not change, TH "反底不反庄").
    pub(super) fn overcall_after_burial(&mut self, bid: Bid) -> Result<()> {
        let p = self.to_move;
        if self.hands[p as usize].count(bid.card) < bid.count as usize {
            return Err(ZhipaiError::illegal_play(
                format!("炒底 {bid} by player {p}"),
                "the player does not hold these cards",
            ));
        }
        self.declaring.declare(p, bid)?;
        self.declarations += 1;
        self.chaodis += 1;
        self.note_shown_bid(p, bid);
        self.trump = bid.trump();
        self.set_trick_rules();
        let kitty = std::mem::replace(&mut self.kitty, crate::multiset::Multiset::EMPTY);
        self.hands[p as usize].add_all(&kitty)?;
        self.chaodi_round = None;
        self.phase = Phase::Burying;
        Ok(())
    }
}
