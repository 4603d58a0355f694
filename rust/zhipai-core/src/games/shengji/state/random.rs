//! The random policy of a [`Deal`] (shengji.md §2.2, §2.4, §4–§5), written once for any
//! generator: the deal's own ([`Deal::random_move`], what `simulate` draws) and a caller's
//! ([`Deal::random_move_with`], the game contract's `sample_legal_move`).

use super::{hand_and_kitty, restricted_kinds, Deal, Move, Phase, NUM_PLAYERS};
use crate::cards::{Card, CardSet, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use crate::games::shengji::declare::Declaring;
use crate::games::shengji::ShengjiRules;
use crate::multiset::Multiset;
use crate::sample::below;
use crate::tricks::combos::Format;
use crate::tricks::lead_candidates::sample_lead;
use crate::tricks::{sample_follow, TrickRules};
use rand_chacha::ChaCha8Rng;

/// What the random policy reads of a deal: everything but the generator, borrowed apart from
/// it so that [`Deal::random_move`] draws from the deal's own generator without cloning it.
/// Only references, read when needed (the view costs nothing on the hot path of `simulate`).
struct RandomView<'a> {
    phase: &'a Phase,
    seat: &'a u8,
    hands: &'a [Multiset; NUM_PLAYERS],
    declaring: &'a Declaring,
    tr: &'a Option<Box<TrickRules>>,
    /// The current trick's lead (meaningful once `played > 0`).
    lead: &'a Format,
    played: &'a u8,
    rules: &'a ShengjiRules,
}

/// The [`RandomView`] of a deal (`&Deal` or `&mut Deal`), field by field: a method would borrow
/// the whole deal, its generator included.
macro_rules! random_view {
    ($deal:expr) => {
        RandomView {
            phase: &$deal.phase,
            seat: &$deal.to_move,
            hands: &$deal.hands,
            declaring: &$deal.declaring,
            tr: &$deal.tr,
            lead: &$deal.lead_format,
            played: &$deal.played,
            rules: &$deal.rules,
        }
    };
}

impl Deal {
    /// Draw the player-to-move's move under [`crate::policy::Policy::Random`] from the deal's
    /// own generator: a uniform choice among pass and the legal bids; a uniformly random set of
    /// physical cards to bury (within the burial restriction); a lead drawn uniformly from the
    /// lead candidates ([`crate::tricks::lead_candidates::for_each_lead_candidate`]: not uniform
    /// over all legal leads); a follow drawn uniformly from the legal follows ([`sample_follow`],
    /// the distribution of `FollowMoves::sample`). `IllegalPlay` once the deal is over.
    #[inline(always)]
    pub fn random_move(&mut self) -> Result<Move> {
        random_view!(self).draw(&mut self.rng)
    }

    /// [`Deal::random_move`] drawn from `rng` instead (the deal's generator is left alone).
    pub fn random_move_with(&self, rng: &mut ChaCha8Rng) -> Result<Move> {
        random_view!(self).draw(rng)
    }
}

impl RandomView<'_> {
    fn tr(&self) -> &TrickRules {
        self.tr.as_deref().expect("trick rules exist after dealing")
    }

    fn hand(&self) -> &Multiset {
        &self.hands[*self.seat as usize]
    }

    #[inline(always)]
    fn draw(&self, rng: &mut ChaCha8Rng) -> Result<Move> {
        Ok(match *self.phase {
            Phase::Done => {
                return Err(ZhipaiError::illegal_play("random move", "the deal is over"))
            }
            Phase::Dealing | Phase::Chaodi => self.bid(rng),
            Phase::Burying => Move::Bury(self.burial(rng)),
            Phase::Playing if *self.played == 0 => {
                Move::Play(sample_lead(self.tr(), self.hand(), rng))
            }
            Phase::Playing => Move::Play(sample_follow(self.tr(), self.lead, self.hand(), rng)?),
        })
    }

    /// Pass or one of the legal bids, uniformly.
    fn bid(&self, rng: &mut ChaCha8Rng) -> Move {
        let mut bids = [None; 24];
        let mut n = 0;
        self.declaring.for_each_legal_bid(*self.seat, self.hand(), |b| {
            bids[n] = Some(b);
            n += 1;
        });
        let pick = below(rng, n as u32 + 1) as usize;
        if pick == n {
            Move::Pass
        } else {
            Move::Declare(bids[pick].expect("filled"))
        }
    }

    fn burial(&self, rng: &mut ChaCha8Rng) -> Multiset {
        let (_, k) = hand_and_kitty(self.rules.decks);
        let hand = *self.hand();
        let rule = self.rules.declare.kitty_bury_restrictions;
        let restricted = restricted_kinds(rule, self.tr.as_deref()).unwrap_or(CardSet::EMPTY);
        // Stack buffers (a dealer holds at most 45 cards): the free cards, then the restricted.
        let mut buf = [Card::SMALL_JOKER; 3 * NUM_KINDS];
        let mut n_free = 0;
        for c in hand.restrict(!restricted).iter() {
            buf[n_free] = c;
            n_free += 1;
        }
        let mut n = n_free;
        for c in hand.restrict(restricted).iter() {
            buf[n] = c;
            n += 1;
        }
        // A uniform k-subset of the physical free cards, topped up with a uniform subset of the
        // restricted ones when there are fewer than k free cards: only the chosen positions are
        // drawn (a partial Fisher–Yates shuffle).
        let take_free = k.min(n_free);
        draw_front(&mut buf[..n_free], take_free, rng);
        draw_front(&mut buf[n_free..n], k - take_free, rng);
        let mut out = Multiset::EMPTY;
        for &c in buf[..take_free].iter().chain(&buf[n_free..n_free + k - take_free]) {
            out.add(c);
        }
        out
    }
}

/// Move a uniformly random `k`-subset of `items` to the front, in random order (the first `k`
/// steps of a Fisher–Yates shuffle, exactly uniform draws).
fn draw_front<T>(items: &mut [T], k: usize, rng: &mut ChaCha8Rng) {
    let n = items.len();
    for i in 0..k.min(n) {
        let j = i + below(rng, (n - i) as u32) as usize;
        items.swap(i, j);
    }
}
