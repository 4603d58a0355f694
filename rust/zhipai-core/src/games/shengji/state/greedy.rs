//! The greedy policy of a [`Deal`] ([`crate::policy::Policy::Greedy`], rules in
//! [`crate::games::shengji::greedy`]): what the seat to move knows, read from the deal without
//! copying it.

use super::{hand_and_kitty, Deal, Move, Phase, NUM_PLAYERS};
use crate::cards::CardSet;
use crate::error::{Result, ZhipaiError};
use crate::games::shengji::greedy::{self, Planes, Seen};

impl Deal {
    /// The move of the greedy player for the seat to move (rules in
    /// [`crate::games::shengji::greedy`]); it sees only what that seat knows: its hand, the
    /// cards out of play, its own burial, the shown voids and the current trick. Errors with
    /// `IllegalPlay` when the deal is over.
    pub fn greedy_move(&self) -> Result<Move> {
        let p = self.to_move as usize;
        let hand = &self.hands[p];
        Ok(match self.phase {
            Phase::Done => {
                return Err(ZhipaiError::illegal_play("greedy move", "the deal is over"));
            }
            Phase::Dealing => greedy::declare(self.to_move, hand, self.level, &self.declaring),
            Phase::Chaodi => self.basic_move()?,
            Phase::Burying => {
                let (_, k) = hand_and_kitty(self.rules.decks);
                let restricted = self.bury_restricted().unwrap_or(CardSet::EMPTY);
                Move::Bury(greedy::bury(self.tr(), hand, k, restricted))
            }
            Phase::Playing => {
                let view = self.seen(p);
                Move::Play(if self.played == 0 {
                    greedy::lead(&view)
                } else {
                    greedy::follow(&view)?
                })
            }
        })
    }

    /// What seat `p` sees in the play ([`Seen`]).
    fn seen(&self, p: usize) -> Seen<'_> {
        Seen {
            tr: self.tr(),
            seat: p as u8,
            hand: self.hands[p],
            unseen: self.unseen_by(p),
            plays: self.current_trick(),
            stake: self.trick_card_points,
            leader: self.leader,
            lead: &self.lead_format,
            voids: self.shown_voids,
        }
    }

    /// The cards seat `p` cannot see in the play: the pack minus its hand, the cards out of play
    /// and its own burial, i.e. the other hands plus the kitty unless `p` buried it (three or
    /// four sums instead of six and a complement: this runs at every greedy decision).
    fn unseen_by(&self, p: usize) -> Planes {
        let unseen = if self.rules.decks <= 2 {
            // No count of the pack reaches 3: the two-plane sum.
            self.sum_unseen(p, Planes::plus_below_three)
        } else {
            self.sum_unseen(p, Planes::plus)
        };
        debug_assert_eq!(unseen, self.unseen_by_complement(p), "the pack is hands, kitty, out");
        unseen
    }

    /// The other hands plus the kitty unless `p` buried it, summed with `plus`.
    #[inline(always)]
    fn sum_unseen(&self, p: usize, plus: impl Fn(Planes, Planes) -> Planes) -> Planes {
        let h = |i: usize| Planes::of(&self.hands[(p + i) % NUM_PLAYERS]);
        let unseen = plus(plus(h(1), h(2)), h(3));
        if self.kitty_owner as usize != p {
            return plus(unseen, Planes::of(&self.kitty));
        }
        unseen
    }

    /// [`Deal::unseen_by`] as the definition reads (debug check).
    fn unseen_by_complement(&self, p: usize) -> Planes {
        let [a, b, c, d] = self.played_by.map(|m| Planes::of(&m));
        let mut known = Planes::of(&self.hands[p]).plus(a.plus(b)).plus(c.plus(d));
        if self.kitty_owner as usize == p {
            known = known.plus(Planes::of(&self.kitty));
        }
        known.pack_minus(self.rules.decks as usize)
    }
}
