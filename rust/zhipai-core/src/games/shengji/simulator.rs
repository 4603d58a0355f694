//! Shengji as a [`DealSimulator`]: one random hand 1 at level 2 per row, and the Monte Carlo
//! evaluation hook (shengji.md §1–§8).

use super::declare::Bid;
use super::scoring::Level;
use super::state::{hand_and_kitty, Deal, Move, Phase, NUM_PLAYERS};
use super::ShengjiRules;
use crate::cards::Rank;
use crate::deal::DealShape;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use rand_chacha::ChaCha8Rng;

impl DealSimulator for ShengjiRules {
    /// The columns of [`ShengjiRules::result_columns`].
    fn columns(&self) -> Vec<Column> {
        self.result_columns()
    }

    /// Play hand 1 (level 2, random first drawer) with `policy` for every seat. Errors:
    /// `InvalidValue` for a row of the wrong length.
    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        self.check_row(row)?;
        let mut deal = Deal::new(self, Rank::TWO, None, rng)?;
        let r = *deal.play_out(policy)?;
        self.write_row(&r, row);
        Ok(())
    }

    /// Two packs (or one, or three) with jokers, four hands of 12 / 25 / 39 cards and a kitty of
    /// 6 / 8 / 6 (§1.1).
    fn deal_shape(&self) -> Result<DealShape> {
        let (hand, kitty) = hand_and_kitty(self.decks);
        DealShape::new(self.decks as usize, true, &[hand; NUM_PLAYERS], kitty)
    }

    /// Level and trump may be fixed by the caller ([`StartingDeal::level`],
    /// [`StartingDeal::trump`]).
    fn fixes_declaration(&self) -> bool {
        true
    }

    /// Shengji reading of the hook (by default hand 1 at level 2, as
    /// [`DealSimulator::play_deal`]): the given hands are received card by card in a random
    /// order, with declarations as they come in ([`Deal::from_hands`]). `start.dealer = Some(s)`
    /// makes seat `s` the dealer and first drawer (a later hand); `None` lets the declarations
    /// decide (hand 1). `start.level` sets the level rank (`Some(None)`:
    /// the joker-only level, under `after_A = no_trump_level` only); `start.trump = Some(t)` fixes the
    /// trump and skips declaring ([`Deal::from_hands_declared`]; the dealer is then random when
    /// not given).
    ///
    /// A candidate (`start.first_action`) is a card multiset for `start.seat`:
    /// * empty: pass at its first declaration opportunity; when the seat has none in a sample
    ///   (it never holds a legal bid) the whole deal is the policy's (with a known trump there
    ///   is no declaring: an empty candidate is then an illegal play);
    /// * a declaration shape while the trump is not known: identical level cards, or identical
    ///   jokers (never a single joker), at most one copy per deck ([`Bid::from_cards`], §2.2):
    ///   that declaration, made at the seat's first declaring chance at which the bid is legal
    ///   (held in full, and allowed then by the overcall ladder); at its earlier chances the
    ///   seat passes. When the bid never becomes legal in a sample the seat passes at all its
    ///   chances there, and the rest of the deal (burial, play) is the policy's;
    /// * exactly the kitty size (8 with 2 decks) while the seat is the dealer: its burial (§2.4);
    /// * anything else: its first play (its lead when it is the dealer leading trick 1, else its
    ///   first follow or lead), after the policy's burial when it is the dealer (chosen from
    ///   the cards other than the candidate's, so that the lead stays possible).
    ///
    /// A play that is not legal at the seat's first play in a sample (a card of another suit
    /// while it must follow, a burial that breaks a restriction) is not made there: the policy
    /// decides and `false` is returned, as when a bid never becomes legal. A declaration the seat
    /// does not hold is an `IllegalPlay` naming it; a deal that does not have the shape of
    /// [`DealSimulator::deal_shape`] or a dealer outside 0..4 is an `InvalidValue`.
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
        self.check_row(row)?;
        let hands: [Multiset; NUM_PLAYERS] =
            start.deal.hands.clone().try_into().map_err(|h: Vec<_>| {
                ZhipaiError::invalid_value("deal", format!("{} hands", h.len()), "Shengji deals 4")
            })?;
        let dealer = match start.dealer {
            Some(d) if d >= NUM_PLAYERS => {
                return Err(ZhipaiError::invalid_value("dealer", d, "players are 0..=3"))
            }
            d => d.map(|d| d as u8),
        };
        let level = start_level(start);
        let mut deal = match start.trump {
            Some(trump) => Deal::from_hands_declared(
                self,
                level,
                trump,
                dealer,
                &hands,
                &start.deal.kitty,
                rng,
            )?,
            None => Deal::from_hands(self, level, dealer, &hands, &start.deal.kitty, rng)?,
        };
        let (_, kitty_size) = hand_and_kitty(self.decks);
        let mut forced = start.first_action.copied();
        let mut played = false;
        let bid = candidate_bid(self, start, &hands[start.seat])?;
        while !deal.is_terminal() {
            // Declaring is over and the bid never became legal, or the seat never had a chance
            // to pass: the rest of the deal is the policy's.
            let declaring_candidate = bid.is_some() || forced.is_some_and(|m| m.is_empty());
            if declaring_candidate && start.trump.is_none() && deal.phase() != Phase::Dealing {
                forced = None;
            }
            let mv = match forced {
                Some(m) if deal.current_player() == Some(start.seat as u8) => match deal.phase() {
                    Phase::Dealing => match bid {
                        Some(b) if deal.legal_bids().contains(&b) => Some(Move::Declare(b)),
                        Some(_) => {
                            deal.apply(Move::Pass)?; // not legal yet: pass, try again later
                            continue;
                        }
                        None => m.is_empty().then_some(Move::Pass),
                    },
                    Phase::Burying if m.len() == kitty_size => Some(Move::Bury(m)),
                    Phase::Burying => Some(deal.burial_keeping(policy, &m)?),
                    Phase::Playing => Some(Move::Play(m)),
                    // 炒底 offers are left to the policy: the candidate is the first
                    // declaration decision, burial or play.
                    Phase::Chaodi | Phase::Done => None,
                },
                _ => None,
            };
            match mv {
                Some(Move::Bury(b)) if forced.is_some_and(|m| m.len() != kitty_size) => {
                    deal.apply(Move::Bury(b))?; // the policy's burial; the lead is still forced
                }
                Some(mv) => {
                    forced = None;
                    // A refused move leaves the deal unchanged: the policy decides instead.
                    match deal.apply(mv) {
                        Ok(()) => played = true,
                        Err(ZhipaiError::IllegalPlay { .. }) => deal.policy_step(policy)?,
                        Err(e) => return Err(e),
                    }
                }
                None => deal.policy_step(policy)?,
            }
        }
        let r = *deal.result().expect("done");
        self.write_row_at(&r, level.rank(), row);
        Ok(played)
    }
}

/// The level of an evaluated deal: `start.level`, by default 2 (`Some(None)`: the joker-only
/// level, checked against after_A by `Deal::from_hands`).
pub(super) fn start_level(start: &StartingDeal<'_>) -> Level {
    match start.level {
        None => Level::from(Rank::TWO),
        Some(Some(rank)) => Level::from(rank),
        Some(None) => Level::NO_TRUMP,
    }
}

/// The declaration a candidate of `start` is, while the trump is not known: a
/// declaration-shaped candidate is a bid (never a play), tried while declaring lasts. Errors:
/// `IllegalPlay` when `hand` (the seat's) does not hold it.
pub(super) fn candidate_bid(
    rules: &ShengjiRules,
    start: &StartingDeal<'_>,
    hand: &Multiset,
) -> Result<Option<Bid>> {
    let level = start_level(start);
    let bid = start
        .first_action
        .filter(|_| start.trump.is_none())
        .and_then(|m| Bid::from_cards(&m.to_vec(), level.rank()?, rules.decks).ok());
    if let (Some(b), Some(m)) = (bid, start.first_action) {
        if !hand.contains_all(m) {
            return Err(ZhipaiError::illegal_play(
                format!("declare {m}"),
                format!("seat {} does not hold {} copies of {}", start.seat, b.count, b.card),
            ));
        }
    }
    Ok(bid)
}
