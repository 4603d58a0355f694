//! Questions about a [`Deal`] that change nothing: whether a move is legal (with the error
//! [`Deal::apply`] would give), the current lead, the trick leader, the tricks played.

use super::{hand_and_kitty, Deal, Move, Phase};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::tricks::combos::Format;
use crate::tricks::{check_lead, FollowMoves};

impl Deal {
    /// `Ok` when [`Deal::apply`] would accept `mv` now, else the very error it would return
    /// (`IllegalPlay` naming the move and the rule); the deal is not changed. The bid rules
    /// are those of shengji.md §2.2, the burial §2.4, leads §4.3 (whether a throw stands is
    /// decided when it is led: a throw that fails is still a legal lead, §4.4) and follows §5.
    pub fn check(&self, mv: Move) -> Result<()> {
        if !self.building.is_empty() {
            return Err(ZhipaiError::illegal_play(
                mv.to_string(),
                "a card-by-card move is being built; finish it with apply_action",
            ));
        }
        let p = self.to_move;
        let hand = &self.hands[p as usize];
        match (self.phase, mv) {
            (Phase::Dealing | Phase::Chaodi, Move::Pass) => Ok(()),
            (Phase::Dealing | Phase::Chaodi, Move::Declare(bid)) => {
                if hand.count(bid.card) < bid.count as usize {
                    let (what, why) = if self.phase == Phase::Dealing {
                        (format!("declaration {bid}"), "the player has not received these cards")
                    } else {
                        (format!("炒底 {bid}"), "the player does not hold these cards")
                    };
                    return Err(ZhipaiError::illegal_play(format!("{what} by player {p}"), why));
                }
                // A copy (`Declaring` is small and `Copy`): the ladder check of `declare`.
                let mut declaring = self.declaring;
                declaring.declare(p, bid)
            }
            (Phase::Burying, Move::Bury(cards)) => self.check_burial(&cards),
            (Phase::Playing, Move::Play(cards)) if self.played == 0 => {
                check_lead(self.tr(), &cards, Some(hand))
                    .map(drop)
                    .map_err(|e| ZhipaiError::illegal_play(format!("lead {cards}"), e))
            }
            (Phase::Playing, Move::Play(cards)) => {
                FollowMoves::new(self.tr(), &self.lead_format, hand)?
                    .check(&cards)
                    .map_err(|e| ZhipaiError::illegal_play(format!("follow {cards}"), e))
            }
            (Phase::Done, _) => Err(ZhipaiError::illegal_play(mv.to_string(), "the deal is over")),
            (phase, _) => Err(ZhipaiError::illegal_play(
                mv.to_string(),
                format!("not a move of the {} phase", phase.shared().name()),
            )),
        }
    }

    /// The checks of a burial by the player to move (shengji.md §2.4): exactly the kitty size,
    /// held, and within `kitty_bury_restrictions` (restricted cards only when too few others).
    pub(super) fn check_burial(&self, cards: &Multiset) -> Result<()> {
        let (_, k) = hand_and_kitty(self.rules.decks);
        let hand = &self.hands[self.to_move as usize];
        if cards.len() != k {
            return Err(ZhipaiError::illegal_play(
                format!("burial {cards}"),
                format!("bury exactly {k} cards"),
            ));
        }
        if !hand.contains_all(cards) {
            return Err(ZhipaiError::illegal_play(format!("burial {cards}"), "cards not held"));
        }
        if let Some(restricted) = self.bury_restricted() {
            let spare = hand.len() - hand.count_in(restricted);
            let must = k.saturating_sub(spare);
            if cards.count_in(restricted) > must {
                return Err(ZhipaiError::illegal_play(
                    format!("burial {cards}"),
                    "kitty_bury_restrictions forbid these cards while others can be buried",
                ));
            }
        }
        Ok(())
    }

    /// The kinds `kitty_bury_restrictions` keeps out of the burial now, if any (shengji.md
    /// §2.4): `None` without a restriction or before the trump is known.
    pub fn burial_restricted(&self) -> Option<crate::cards::CardSet> {
        self.tr.as_ref()?;
        self.bury_restricted()
    }

    /// The format of the current trick's lead (after a failed throw: of its forced part), while
    /// a trick is under way.
    pub fn lead_format(&self) -> Option<&Format> {
        (self.phase == Phase::Playing && self.played > 0).then_some(&self.lead_format)
    }

    /// In the play: the seat that led the current trick; between tricks and at the end, the
    /// winner of the last trick (the dealer before the first). Meaningless before the play.
    pub fn leader(&self) -> u8 {
        self.leader
    }

    /// Tricks completed so far.
    pub fn tricks_played(&self) -> u16 {
        self.tricks
    }
}
