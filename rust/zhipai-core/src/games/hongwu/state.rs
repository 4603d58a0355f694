//! A whole Hong Wu deal as a state machine (hongwu.md §B.1–§B.11): deal 25 each + 8 kitty from
//! 108 cards, auction, trump choice, kitty pickup and burial, tricks, settlement.
//!
//! Verbs follow OpenSpiel where they fit: [`HongWuState::to_act`], [`HongWuState::check`],
//! [`HongWuState::apply`], [`HongWuState::is_over`], [`HongWuState::settlement`]. Seats are
//! 0 to 3, numbered anticlockwise; the turn moves per the `direction` option.

use super::auction::{Auction, Bid, Contract, PLAYERS};
use super::order::RED_FIVE;
use super::settle::{DealPoints, Settlement};
use super::{follow_error_reason, lead_error_reason};
use super::{options::Red5PenaltyScope, HongWuRules, HAND_SIZE, KITTY_SIZE};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::tricks::combos::{Format, Unit};
use crate::tricks::lead_candidates::for_each_lead_candidate;
use crate::tricks::order::CardOrder;
use crate::tricks::winner::{trick_winner_of, tuple_winner};
use crate::tricks::{
    check_follow, check_lead_into, check_throw, FollowMoves, LeadError, TrickRules,
};
use rand::seq::SliceRandom;
use rand::Rng;
use std::ops::ControlFlow;

/// The phase of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Bidding 叫分 (§B.2).
    Auction,
    /// The dealer chooses the trump suit 叫主 (§B.3).
    Trump,
    /// The dealer, holding 33 cards, buries 8 扣底 (§B.3).
    Kitty,
    /// Tricks (§B.7–§B.9).
    Play,
    /// Settled (§B.11).
    Over,
}

/// One action of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Bid(Bid),
    Trump(Suit),
    /// The 8 cards buried.
    Bury(Multiset),
    /// A lead or a follow.
    Play(Multiset),
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Bid(Bid::Pass) => f.write_str("pass"),
            Action::Bid(b) => write!(f, "bid {b}"),
            Action::Trump(t) => write!(f, "trump {t}"),
            Action::Bury(m) => write!(f, "bury {m}"),
            Action::Play(m) => write!(f, "{m}"),
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Auction => "auction",
            Phase::Trump => "trump choice",
            Phase::Kitty => "kitty burial",
            Phase::Play => "play",
            Phase::Over => "finished",
        })
    }
}

/// What happened to a lead: the cards actually led (a failed throw is reduced, §B.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub seat: usize,
    pub cards: Multiset,
    /// The cards attempted when a throw failed and was reduced to `cards`.
    pub failed_throw: Option<Multiset>,
}

/// The state of one Hong Wu deal.
#[derive(Clone, Debug)]
pub struct HongWuState {
    rules: HongWuRules,
    hands: [Multiset; PLAYERS],
    /// The dealt kitty until the dealer picks it up, then the buried kitty.
    kitty: Multiset,
    auction: Auction,
    contract: Option<Contract>,
    trump: Option<Suit>,
    tr: Option<Box<TrickRules>>,
    phase: Phase,
    to_act: usize,
    leader: usize,
    /// The current trick, leader first, `n_plays` of them.
    plays: [Multiset; PLAYERS],
    n_plays: usize,
    /// The current lead's format, meaningful while `led` (one buffer per deal, written in place:
    /// a format is several hundred bytes, too big to move around on the hot path).
    lead: Format,
    led: bool,
    /// Card points won in tricks by each seat.
    won: [i32; PLAYERS],
    /// ♥5s captured by the 闲家: all of them, and those the dealer played.
    red5_any: i32,
    red5_dealer: i32,
    tricks: u32,
    last_multiplier: i32,
    last_winner: Option<usize>,
    settlement: Option<Settlement>,
    /// What every seat knows of the others (public): the cards each seat has played (completed
    /// tricks and the current one), the kinds each seat is known not to hold (voids shown by
    /// follows, and what a successful throw proved), and the cards each seat showed in a failed
    /// throw and still holds.
    played_by: [TwoDecks; PLAYERS],
    not_held: [CardSet; PLAYERS],
    shown: [Multiset; PLAYERS],
    /// Whether some throw failed (`shown` is then worth updating).
    any_shown: bool,
}

/// A multiset of at most two copies per kind as two bit planes (kinds held at least once, and
/// twice): adding a play is a few bit operations (no per-card loop, no popcount on the hot path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TwoDecks {
    once: u64,
    twice: u64,
}

impl TwoDecks {
    /// Add `m` (the total stays within two copies per kind: both decks hold no more).
    #[inline]
    fn add(&mut self, m: &Multiset) {
        let [p0, p1, ..] = m.planes();
        self.twice |= p1 | (self.once & p0);
        self.once |= p0;
    }

    fn to_multiset(self) -> Multiset {
        let mut m = Multiset::from_set(CardSet(self.once));
        for c in CardSet(self.twice) {
            m.add(c);
        }
        m
    }
}

impl HongWuState {
    /// Shuffle two decks with `rng`, deal 25 cards to each seat and 8 to the kitty, and draw the
    /// first bidder uniformly (hongwu.md §B.1–§B.2).
    pub fn deal<R: Rng + ?Sized>(rules: &HongWuRules, rng: &mut R) -> HongWuState {
        Self::deal_opened_by(rules, rng, None).expect("a drawn opener is a seat")
    }

    /// [`HongWuState::deal`] with the first bidder fixed to `first` when given (the opener is
    /// still drawn, so the cards of a seed do not depend on `first`). Errors with
    /// `InvalidValue` for a seat outside 0 to 3.
    pub fn deal_opened_by<R: Rng + ?Sized>(
        rules: &HongWuRules,
        rng: &mut R,
        first: Option<usize>,
    ) -> Result<HongWuState> {
        let mut deck = [Card::BIG_JOKER; 2 * 54];
        for (i, c) in Card::all().chain(Card::all()).enumerate() {
            deck[i] = c;
        }
        deck.shuffle(rng);
        let mut hands = [Multiset::EMPTY; PLAYERS];
        for (i, &c) in deck[..PLAYERS * HAND_SIZE].iter().enumerate() {
            hands[i % PLAYERS].add(c);
        }
        let mut kitty = Multiset::EMPTY;
        for &c in &deck[PLAYERS * HAND_SIZE..] {
            kitty.add(c);
        }
        let drawn = rng.random_range(0..PLAYERS);
        // Two shuffled decks: no need for the card count checks of `with_hands`.
        Self::from_parts(rules, hands, kitty, first.unwrap_or(drawn))
    }

    /// A deal with fixed `hands` (25 cards each), `kitty` (8) and first bidder `first`. Errors
    /// with `InvalidValue` unless the hands and kitty together are exactly two decks.
    pub fn with_hands(
        rules: &HongWuRules,
        hands: [Multiset; PLAYERS],
        kitty: Multiset,
        first: usize,
    ) -> Result<HongWuState> {
        for (seat, h) in hands.iter().enumerate() {
            if h.len() != HAND_SIZE {
                return Err(ZhipaiError::invalid_value(
                    format!("hand of seat {seat}"),
                    h,
                    format!("has {} cards, expected {HAND_SIZE}", h.len()),
                ));
            }
        }
        if kitty.len() != KITTY_SIZE {
            return Err(ZhipaiError::invalid_value(
                "kitty",
                kitty,
                format!("has {} cards, expected {KITTY_SIZE}", kitty.len()),
            ));
        }
        // Name the difference from two decks rather than the 108 cards.
        let parts = [&hands[0], &hands[1], &hands[2], &hands[3], &kitty];
        if let Some(diff) = crate::multiset::deck_difference(&parts, 2, true) {
            return Err(ZhipaiError::invalid_value(
                "deal",
                format!("({diff})"),
                "hands and kitty must be exactly two decks with jokers (hongwu.md §B.1)",
            ));
        }
        Self::from_parts(rules, hands, kitty, first)
    }

    /// A deal of `hands` and `kitty`, known to be two decks, opened by `first`. Errors with
    /// `InvalidValue` for a seat outside 0 to 3.
    fn from_parts(
        rules: &HongWuRules,
        hands: [Multiset; PLAYERS],
        kitty: Multiset,
        first: usize,
    ) -> Result<HongWuState> {
        Ok(HongWuState {
            rules: rules.clone(),
            hands,
            kitty,
            auction: rules.auction(first)?,
            contract: None,
            trump: None,
            tr: None,
            phase: Phase::Auction,
            to_act: first,
            leader: first,
            plays: [Multiset::EMPTY; PLAYERS],
            n_plays: 0,
            lead: Format::EMPTY,
            led: false,
            won: [0; PLAYERS],
            red5_any: 0,
            red5_dealer: 0,
            tricks: 0,
            last_multiplier: 0,
            last_winner: None,
            settlement: None,
            played_by: [TwoDecks::default(); PLAYERS],
            not_held: [CardSet::EMPTY; PLAYERS],
            shown: [Multiset::EMPTY; PLAYERS],
            any_shown: false,
        })
    }

    pub fn rules(&self) -> &HongWuRules {
        &self.rules
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat to act, or `None` when the deal is over.
    pub fn to_act(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn hand(&self, seat: usize) -> Multiset {
        self.hands[seat % PLAYERS]
    }
    /// The kitty: as dealt until the dealer picks it up, then as buried.
    pub fn kitty(&self) -> Multiset {
        self.kitty
    }
    pub fn auction(&self) -> &Auction {
        &self.auction
    }
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }
    /// The trick rules of this deal once trump is chosen.
    pub fn trick_rules(&self) -> Option<&TrickRules> {
        self.tr.as_deref()
    }
    /// The plays of the current trick, leader first.
    pub fn current_trick(&self) -> &[Multiset] {
        &self.plays[..self.n_plays]
    }
    /// The leader of the current trick.
    pub fn leader(&self) -> usize {
        self.leader
    }
    /// The current lead's format, once led.
    pub fn lead_format(&self) -> Option<&Format> {
        self.led.then_some(&self.lead)
    }
    /// Card points won in tricks by each seat so far.
    pub fn points_won(&self) -> [i32; PLAYERS] {
        self.won
    }
    /// Every card played so far.
    pub fn played(&self) -> Multiset {
        if !matches!(self.phase, Phase::Play | Phase::Over) {
            return Multiset::EMPTY;
        }
        // The two decks are the hands, the buried kitty and the cards played (not tracked card
        // by card on the hot path).
        let mut m = two_decks();
        for h in self.hands.iter().chain(std::iter::once(&self.kitty)) {
            m.remove_all(h).expect("hands and kitty are part of the two decks");
        }
        m
    }
    /// Tricks completed.
    pub fn tricks(&self) -> u32 {
        self.tricks
    }
    /// The settled result once the deal is over.
    pub fn settlement(&self) -> Option<Settlement> {
        self.settlement
    }
    /// The seat after `seat` in the direction of play.
    pub fn next_seat(&self, seat: usize) -> usize {
        match self.rules.options.direction {
            super::options::Direction::Anticlockwise => (seat + 1) % PLAYERS,
            super::options::Direction::Clockwise => (seat + PLAYERS - 1) % PLAYERS,
        }
    }
    /// Whether `seat` is the dealer (once known).
    pub fn is_dealer(&self, seat: usize) -> bool {
        self.contract.is_some_and(|c| c.dealer == seat)
    }

    fn illegal<T>(&self, action: &Action, reason: impl std::fmt::Display) -> Result<T> {
        Err(ZhipaiError::illegal_play(format!("{action} by seat {}", self.to_act), reason))
    }

    /// Whether `action` is legal for the seat to act; the error (`IllegalPlay`) gives the rule.
    pub fn check(&self, action: &Action) -> Result<()> {
        self.resolve(action, false)
    }

    /// Check `action` (a follow only when not `trusted`).
    fn resolve(&self, action: &Action, trusted: bool) -> Result<()> {
        match (self.phase, action) {
            (Phase::Auction, Action::Bid(b)) => self.auction.check(self.to_act, *b),
            (Phase::Trump, Action::Trump(_)) => Ok(()),
            (Phase::Kitty, Action::Bury(cards)) => {
                if cards.len() != KITTY_SIZE {
                    return self.illegal(action, format!("bury exactly {KITTY_SIZE} cards"));
                }
                if !self.hands[self.to_act].contains_all(cards) {
                    return self.illegal(action, "the dealer does not hold these cards");
                }
                Ok(())
            }
            (Phase::Play, Action::Play(cards)) if !self.led => {
                // `check` is not the hot path: a local format buffer is fine here.
                self.resolve_lead(action, cards, &mut Format::default()).map(|_| ())
            }
            (Phase::Play, Action::Play(cards)) if !trusted => self.check_follow(action, cards),
            (Phase::Play, Action::Play(_)) => Ok(()),
            (Phase::Over, _) => self.illegal(action, "the deal is over"),
            (phase, _) => self.illegal(action, format!("not an action of the {phase} phase")),
        }
    }

    /// The seats after the one to act, in playing order: the hands a throw is checked against.
    fn others(&self) -> [usize; PLAYERS - 1] {
        let mut others = [0; PLAYERS - 1];
        let mut s = self.to_act;
        for o in others.iter_mut() {
            s = self.next_seat(s);
            *o = s;
        }
        others
    }

    /// Check a lead; return the cards actually led (a failed throw is reduced, §B.7) and write
    /// their format into `out`.
    fn resolve_lead(&self, action: &Action, cards: &Multiset, out: &mut Format) -> Result<Played> {
        let tr = self.tr.as_deref().expect("trick rules set in the play phase");
        resolve_lead_into(tr, &self.hands, self.to_act, self.others(), cards, out)
            .or_else(|e| self.illegal(action, lead_error_reason(&e)))
    }

    /// Check a follow of the current lead.
    fn check_follow(&self, action: &Action, cards: &Multiset) -> Result<()> {
        let tr = self.tr.as_deref().expect("trick rules set in the play phase");
        match check_follow(tr, &self.lead, &self.hands[self.to_act], cards) {
            Ok(()) => Ok(()),
            Err(e) => self.illegal(action, follow_error_reason(&e)),
        }
    }

    /// Apply `action` for the seat to act. Errors with `IllegalPlay` (and the reason) when it is
    /// not legal; the state is then unchanged. Returns what was played for a play action.
    pub fn apply(&mut self, action: &Action) -> Result<Option<Played>> {
        self.apply_inner(action, false)
    }

    /// [`HongWuState::apply`] without the follow-legality check, for follows drawn from this
    /// state's own [`HongWuState::follow_moves`] (the simulator's hot path). Everything else is
    /// still checked; a follow that breaks the follow rules is *not* detected here.
    pub fn apply_trusted(&mut self, action: &Action) -> Result<Option<Played>> {
        self.apply_inner(action, true)
    }

    fn apply_inner(&mut self, action: &Action, trusted: bool) -> Result<Option<Played>> {
        if let (Phase::Play, Action::Play(cards)) = (self.phase, action) {
            let p = if !self.led {
                let tr = self.tr.as_deref().expect("trick rules set in the play phase");
                let others = self.others();
                // The format is written in place; on an error `led` stays false, so the state
                // is unchanged.
                match resolve_lead_into(tr, &self.hands, self.to_act, others, cards, &mut self.lead)
                {
                    Ok(p) => {
                        self.led = true;
                        self.note_lead(&p, others);
                        p
                    }
                    Err(e) => return self.illegal(action, lead_error_reason(&e)),
                }
            } else {
                if !trusted {
                    self.check_follow(action, cards)?;
                }
                Played { seat: self.to_act, cards: *cards, failed_throw: None }
            };
            self.play_cards(&p)?;
            return Ok(Some(p));
        }
        // A bid is checked by `Auction::act` itself (nothing changes when it is refused).
        if !matches!((self.phase, action), (Phase::Auction, Action::Bid(_))) {
            self.resolve(action, trusted)?;
        }
        match *action {
            Action::Bid(b) => {
                self.auction.act(self.to_act, b)?;
                match self.auction.result() {
                    Some(c) => {
                        self.contract = Some(c);
                        self.phase = Phase::Trump;
                        self.to_act = c.dealer;
                    }
                    None => self.to_act = self.auction.to_act().expect("auction open"),
                }
            }
            Action::Trump(t) => {
                self.trump = Some(t);
                self.tr = Some(Box::new(self.rules.trick_rules(Some(t))?));
                let kitty = self.kitty;
                self.hands[self.to_act].add_all(&kitty)?;
                self.kitty = Multiset::EMPTY;
                self.phase = Phase::Kitty;
            }
            Action::Bury(cards) => {
                self.hands[self.to_act].remove_all(&cards)?;
                self.kitty = cards;
                self.phase = Phase::Play;
                self.leader = self.to_act; // the dealer leads the first trick (§B.7)
            }
            Action::Play(_) => unreachable!("plays are handled above"),
        }
        Ok(None)
    }

    /// Record what a lead shows everyone (hongwu.md §B.7): a failed throw's cards are known to
    /// be in the leader's hand; a throw that stands proves that none of the `others` holds a
    /// single above any of its single components (`throw_check = component`) or above its lowest
    /// card (`literal`). What a throw proves about pairs and tractors is not recorded (no
    /// per-kind count bound fits the knowledge).
    fn note_lead(&mut self, p: &Played, others: [usize; PLAYERS - 1]) {
        if let Some(tried) = p.failed_throw {
            self.shown[p.seat] = max_counts(&self.shown[p.seat], &tried);
            self.any_shown = true;
            return;
        }
        if !self.lead.is_throw() {
            return;
        }
        let tr = self.tr.as_deref().expect("trick rules set in the play phase");
        let s = self.lead.suit as usize;
        let literal = tr.throw_check == crate::tricks::ThrowCheck::Literal;
        let mut above = CardSet::EMPTY;
        for u in self.lead.units.iter() {
            let from = if literal {
                u.low()
            } else if u.mult == 1 {
                u.top
            } else {
                continue;
            };
            for i in from as usize + 1..crate::tricks::order::MAX_INDEX {
                above = above.union(tr.order.kinds_at(s, i));
            }
        }
        for o in others {
            self.not_held[o] = self.not_held[o].union(above);
        }
    }

    fn play_cards(&mut self, p: &Played) -> Result<()> {
        let hand = &mut self.hands[p.seat];
        let one = single_card(&p.cards);
        match one {
            // One card (most plays): a plain bit removal.
            Some(c) if hand.remove(c) => {}
            _ => hand.remove_all(&p.cards)?,
        }
        // Public knowledge: the seat's played cards, a void shown by a short follow (§B.8: a
        // follower plays as many cards of the led suit class as it holds, up to the lead's
        // count), the failed-throw cards it still holds.
        self.played_by[p.seat].add(&p.cards);
        if self.n_plays > 0 {
            let tr = self.tr.as_deref().expect("trick rules in play");
            let led = tr.order.suit_mask(self.lead.suit as usize);
            let short = match one {
                Some(c) => !led.contains(c),
                None => p.cards.count_in(led) < self.lead.cards as usize,
            };
            if short {
                self.not_held[p.seat] = self.not_held[p.seat].union(led);
            }
        }
        if self.any_shown && !self.shown[p.seat].is_empty() {
            let shown = &mut self.shown[p.seat];
            p.cards.iter().for_each(|c| {
                shown.remove(c);
            });
        }
        self.plays[self.n_plays] = p.cards;
        self.n_plays += 1;
        if self.n_plays < PLAYERS {
            self.to_act = self.next_seat(self.to_act);
            return Ok(());
        }
        self.finish_trick()
    }

    fn finish_trick(&mut self) -> Result<()> {
        let (w, multiplier) = {
            let tr = self.tr.as_deref().expect("trick rules in play");
            let w = if self.lead.cards == 1 {
                tuple_winner(tr, self.lead.suit as usize, 1, &self.plays)
            } else {
                trick_winner_of(tr, &self.lead, &self.plays)?
            };
            (w, kitty_multiplier_of(&self.lead))
        };
        let mut winner = self.leader;
        for _ in 0..w {
            winner = self.next_seat(winner);
        }
        let dealer = self.contract.expect("dealer known").dealer;
        self.won[winner] += self.plays.iter().map(points_of).sum::<i32>();
        if winner != dealer {
            // ♥5s captured by a 闲家 (§B.11 R5): all of them, and those the dealer played.
            let mut seat = self.leader;
            for play in &self.plays {
                let red5 = play.count(RED_FIVE) as i32;
                self.red5_any += red5;
                if seat == dealer {
                    self.red5_dealer += red5;
                }
                seat = self.next_seat(seat);
            }
        }
        self.tricks += 1;
        self.led = false;
        self.n_plays = 0;
        self.leader = winner;
        self.to_act = winner;
        if self.hands[winner].is_empty() {
            // Every hand holds as many cards as the winner's after a full trick.
            self.last_winner = Some(winner);
            self.last_multiplier = multiplier;
            self.settle()?;
        }
        Ok(())
    }

    fn settle(&mut self) -> Result<()> {
        let c = self.contract.expect("dealer known");
        let opts = &self.rules.options;
        let xianjia_won_last = self.last_winner != Some(c.dealer);
        let kitty_points = points_of(&self.kitty);
        let kitty_to_xianjia = xianjia_won_last
            && matches!(
                opts.kitty,
                super::options::KittyRule::LastTrickMultiplied
                    | super::options::KittyRule::LastTrickUnmultiplied
            );
        let kitty_red5 = if kitty_to_xianjia { self.kitty.count(RED_FIVE) as i32 } else { 0 };
        let red5_captured = kitty_red5
            + match opts.red5_penalty_scope {
                Red5PenaltyScope::DealerOwned => self.red5_dealer,
                Red5PenaltyScope::AnyRed5WonByXianjia => self.red5_any,
            };
        let p = DealPoints {
            xianjia_tricks: (0..PLAYERS).filter(|&s| s != c.dealer).map(|s| self.won[s]).sum(),
            dealer_tricks: self.won[c.dealer],
            kitty: kitty_points,
            xianjia_won_last,
            last_multiplier: self.last_multiplier,
            red5_captured,
        };
        self.settlement = Some(opts.settle_deal(c.bid, &p)?);
        self.phase = Phase::Over;
        Ok(())
    }

    /// The cards `seat` has played so far (completed tricks and the current one).
    pub fn played_by(&self, seat: usize) -> Multiset {
        self.played_by[seat % PLAYERS].to_multiset()
    }

    /// The kinds `seat` is publicly known not to hold: every kind of an effective suit in which
    /// it followed short (a void, §B.8), and the kinds above a single component of a throw that
    /// stood while it held cards (§B.7; above the throw's lowest card with `throw_check =
    /// literal`). Only the other seats' knowledge is meaningful (a seat knows its own hand).
    pub fn not_held(&self, seat: usize) -> CardSet {
        self.not_held[seat % PLAYERS]
    }

    /// Effective suits (bit `s`: 0..4 plain suits S H D C, 4 trump) in which `seat` has shown a
    /// void by a short follow (0 before trump is chosen).
    pub fn shown_voids(&self, seat: usize) -> u8 {
        let Some(tr) = self.tr.as_deref() else { return 0 };
        let nh = self.not_held[seat % PLAYERS];
        (0..crate::tricks::order::NUM_EFFECTIVE_SUITS)
            .filter(|&s| {
                let m = tr.order.suit_mask(s);
                !m.is_empty() && m.minus(nh).is_empty()
            })
            .fold(0, |b, s| b | 1 << s)
    }

    /// The cards `seat` showed in a failed throw (§B.7) and has not played since: known to be
    /// in its hand. Counted kind by kind (a seat that played one of two shown copies is known
    /// to hold the other).
    pub fn shown(&self, seat: usize) -> Multiset {
        self.shown[seat % PLAYERS]
    }

    /// Replace the hidden cards: `hands` for every seat and the `kitty` (the caller keeps the
    /// public record consistent: same sizes, same played cards; [`super::game::DealState`]'s
    /// `with_hidden` checks them against the seat's view).
    pub(crate) fn set_cards(&mut self, hands: [Multiset; PLAYERS], kitty: Multiset) {
        self.hands = hands;
        self.kitty = kitty;
    }

    /// The kitty multiplier of the last trick (2 / 4 / 8), 0 before the deal ends.
    pub fn last_multiplier(&self) -> i32 {
        self.last_multiplier
    }

    /// Whether a 闲家 won the last trick (false before the deal ends).
    pub fn last_winner_is_xianjia(&self) -> bool {
        self.last_winner.is_some_and(|w| !self.is_dealer(w))
    }

    /// Points in the buried kitty.
    pub fn kitty_points(&self) -> i32 {
        points_of(&self.kitty)
    }

    /// The legal follows of the seat to act (play phase, after the lead).
    pub fn follow_moves(&self) -> Option<FollowMoves<'_>> {
        let tr = self.tr.as_deref()?;
        let lead = self.lead_format()?;
        FollowMoves::new(tr, lead, &self.hands[self.to_act]).ok()
    }

    /// Candidate leads of the seat to act, in a deterministic order: every single, pair and
    /// tractor it holds (each run of ≥ 2 adjacent pairs, every length and start), plus, per plain
    /// suit, the whole holding of that suit when it is a throw (several units, hongwu.md §B.7;
    /// trumps cannot be thrown). These are the leads the random policy draws from uniformly
    /// ([`crate::tricks::lead_candidates::for_each_lead_candidate`], shared with Shengji). Other
    /// throws (part of a suit) are legal too ([`HongWuState::check`]) but are not listed.
    pub fn lead_candidates(&self) -> Vec<Multiset> {
        let Some(tr) = self.tr.as_deref() else { return Vec::new() };
        let mut out = Vec::new();
        for_each_lead_candidate(tr, &self.hands[self.to_act], &mut |m| {
            out.push(*m);
            ControlFlow::Continue(())
        });
        out
    }
}

/// Check the lead `cards` of seat `seat` against `hands` (hongwu.md §B.6–§B.7) and write the
/// format of the cards actually led into `out`: the whole lead, or for a throw that one of the
/// `others` (seats in playing order) can beat, the forced part (`failed_throw_play`, §B.7).
/// On an error `out` is unspecified.
fn resolve_lead_into(
    tr: &TrickRules,
    hands: &[Multiset; PLAYERS],
    seat: usize,
    others: [usize; PLAYERS - 1],
    cards: &Multiset,
    out: &mut Format,
) -> std::result::Result<Played, LeadError> {
    if let Some(unit) = one_unit_lead(&tr.order, cards, &hands[seat]) {
        // A held single or pair: its format without a decomposition.
        out.suit = unit.suit;
        out.cards = unit.cards() as u8;
        out.units.clear();
        out.units.push(unit);
        return Ok(Played { seat, cards: *cards, failed_throw: None });
    }
    check_lead_into(tr, cards, Some(&hands[seat]), out)?;
    if !out.is_throw() {
        return Ok(Played { seat, cards: *cards, failed_throw: None });
    }
    let r = check_throw(tr, out, &others.map(|s| hands[s]));
    if r.valid {
        return Ok(Played { seat, cards: *cards, failed_throw: None });
    }
    // The forced part is one unit of the led suit: always a legal lead.
    check_lead_into(tr, &r.played, None, out)?;
    Ok(Played { seat, cards: r.played, failed_throw: Some(*cards) })
}

/// Two decks with jokers (built once).
pub(crate) fn two_decks() -> Multiset {
    static FULL: std::sync::OnceLock<Multiset> = std::sync::OnceLock::new();
    *FULL.get_or_init(|| Multiset::full_decks(2, true).expect("two decks"))
}

/// Kind by kind the larger count of `a` and `b`.
pub(crate) fn max_counts(a: &Multiset, b: &Multiset) -> Multiset {
    let mut out = *a;
    for c in b.kinds() {
        for _ in a.count(c)..b.count(c) {
            out.add(c);
        }
    }
    out
}

/// The one kind of `m` when `m` is exactly one card.
fn single_card(m: &Multiset) -> Option<Card> {
    let [p0, p1, ..] = m.planes();
    (p1 == 0 && p0.is_power_of_two()).then(|| m.kinds().first().expect("one kind"))
}

/// The unit of `cards` when they are one held single or one held pair (one kind, one or two
/// copies, all in `hand`), as [`crate::tricks::combos::decompose`] would give it; `None` otherwise.
pub(crate) fn one_unit_lead(order: &CardOrder, cards: &Multiset, hand: &Multiset) -> Option<Unit> {
    let [p0, p1, p2, _] = cards.planes();
    if !p0.is_power_of_two() || p2 != 0 || (p1 != 0 && p1 != p0) || !hand.contains_all(cards) {
        return None;
    }
    let c = cards.kinds().first().expect("one kind");
    Some(Unit {
        suit: order.suit(c) as u8,
        mult: 1 + (p1 != 0) as u8,
        len: 1,
        top: order.index(c) as u8,
        kinds: CardSet::single(c),
    })
}

/// Card points of `m` (hongwu.md §B.5: 5 → 5, 10 and K → 10), by popcount over the count planes
/// (a card without points, the common play, costs one test).
pub(crate) fn points_of(m: &Multiset) -> i32 {
    const FIVES: u64 = CardSet::rank_mask(Rank::FIVE).0;
    const TENS: u64 = CardSet::rank_mask(Rank::TEN).0 | CardSet::rank_mask(Rank::KING).0;
    let planes = m.planes();
    if planes[0] & (FIVES | TENS) == 0 {
        return 0;
    }
    planes.iter().map(|p| 5 * (p & FIVES).count_ones() + 10 * (p & TENS).count_ones()).sum::<u32>()
        as i32
}

/// The kitty multiplier of a last trick led with `lead` (hongwu.md §B.10, Lu'an "单x2，对x4，
/// 拖拉机x8"): 8 if it holds a tractor, else 4 if it holds a pair, else 2. A throw counts by its
/// largest unit.
pub fn kitty_multiplier_of(lead: &Format) -> i32 {
    let u = lead.largest();
    match (u.mult, u.len) {
        (1, _) => 2,
        (_, 1) => 4,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::deal::deal_rng;
    use crate::policy::Policy;
    use crate::tricks::order::TRUMP;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    /// Auction won by the opener at 60, trump ♠, kitty buried: the state at the first lead.
    fn to_play(seed: u64) -> HongWuState {
        let mut rng = deal_rng(seed, 0);
        let mut s = HongWuState::deal(&HongWuRules::default(), &mut rng);
        let first = s.to_act().unwrap();
        s.apply(&Action::Bid(Bid::Points(60))).unwrap();
        for _ in 0..3 {
            s.apply(&Action::Bid(Bid::Pass)).unwrap();
        }
        assert_eq!(s.contract(), Some(Contract { dealer: first, bid: 60 }));
        assert_eq!((s.phase(), s.to_act()), (Phase::Trump, Some(first)));
        s.apply(&Action::Trump(Suit::Spades)).unwrap();
        assert_eq!(s.hand(first).len(), HAND_SIZE + KITTY_SIZE);
        let bury = Multiset::from_cards(&s.hand(first).iter().take(8).collect::<Vec<_>>()).unwrap();
        s.apply(&Action::Bury(bury)).unwrap();
        assert_eq!((s.phase(), s.to_act(), s.kitty()), (Phase::Play, Some(first), bury));
        s
    }

    #[test]
    fn deal_sizes_and_phases() {
        let s = to_play(3);
        let dealer = s.contract().unwrap().dealer;
        for seat in 0..PLAYERS {
            assert_eq!(s.hand(seat).len(), HAND_SIZE, "seat {seat}");
        }
        assert!(s.is_dealer(dealer) && s.trick_rules().is_some());
    }

    #[test]
    fn wrong_phase_and_bad_burial_are_illegal() {
        let mut rng = deal_rng(1, 0);
        let mut r = HongWuRules::default();
        r.options.first_bid_range = super::super::options::FirstBidRange::To200;
        let mut s = HongWuState::deal(&r, &mut rng);
        let e = s.check(&Action::Trump(Suit::Hearts)).unwrap_err().to_string();
        assert!(e.contains("trump H by seat") && e.contains("auction phase"), "{e}");
        s.apply(&Action::Bid(Bid::Points(200))).unwrap();
        assert_eq!(s.phase(), Phase::Trump);
        s.apply(&Action::Trump(Suit::Hearts)).unwrap();
        let dealer = s.to_act().unwrap();
        let seven =
            Multiset::from_cards(&s.hand(dealer).iter().take(7).collect::<Vec<_>>()).unwrap();
        assert!(s.check(&Action::Bury(seven)).unwrap_err().to_string().contains("exactly 8"));
        let before = s.clone().hand(dealer);
        assert!(s.apply(&Action::Play(seven)).is_err());
        assert_eq!(s.hand(dealer), before, "a refused action changes nothing");
    }

    #[test]
    fn trump_throws_and_unheld_cards_are_refused() {
        let s = to_play(5);
        let hand = s.hand(s.to_act().unwrap());
        let missing = Card::all().find(|&c| hand.count(c) == 0).unwrap();
        let e = s.check(&Action::Play(Multiset::from_set(CardSet::single(missing)))).unwrap_err();
        assert!(e.to_string().contains("does not hold"), "{e}");
        let tr = s.trick_rules().unwrap();
        let trumps = hand.restrict(tr.order.suit_mask(TRUMP));
        let singles: Vec<Card> = trumps.kinds().iter().take(2).collect();
        if singles.len() == 2 && !tr.order.ties(singles[0], singles[1]) {
            let e = s.check(&Action::Play(Multiset::from_cards(&singles).unwrap())).unwrap_err();
            assert!(e.to_string().contains("cannot be thrown"), "{e}");
        }
    }

    #[test]
    fn fixed_hands_are_validated() {
        let r = HongWuRules::default();
        let hands = [Multiset::EMPTY; PLAYERS];
        let e = HongWuState::with_hands(&r, hands, Multiset::EMPTY, 0).unwrap_err().to_string();
        assert!(e.contains("hand of seat 0"), "{e}");
        let mut rng = deal_rng(9, 0);
        let s = HongWuState::deal(&r, &mut rng);
        let mut hands = [s.hand(0), s.hand(1), s.hand(2), s.hand(3)];
        let mut kitty = s.kitty();
        // Swap one card of the kitty for a third copy of a card: no longer two decks.
        let c = kitty.iter().next().unwrap();
        kitty.remove(c);
        let other = Card::all().find(|&k| k != c).unwrap();
        kitty.add(other);
        assert!(HongWuState::with_hands(&r, hands, kitty, 0).is_err());
        hands.swap(0, 1);
        assert!(HongWuState::with_hands(&r, hands, s.kitty(), 4).is_err(), "seat 4 opens");
        assert!(HongWuState::with_hands(&r, hands, s.kitty(), 2).is_ok());
    }

    #[test]
    fn deal_errors_name_the_extra_and_missing_cards() {
        let r = HongWuRules::default();
        let s = HongWuState::deal(&r, &mut deal_rng(9, 0));
        let mut hands = [s.hand(0), s.hand(1), s.hand(2), s.hand(3)];
        // Seat 0 gives up one card for a third big joker.
        let gone = hands[0].iter().find(|&c| c != Card::BIG_JOKER).unwrap();
        hands[0].remove(gone);
        hands[0].add(Card::BIG_JOKER);
        let e = HongWuState::with_hands(&r, hands, s.kitty(), 0).unwrap_err().to_string();
        assert!(e.contains("extra cards: BJ;") && e.contains(&format!("missing cards: {gone})")));
        assert!(e.len() < 200, "no 108-card dump: {e}");
    }

    #[test]
    fn an_opener_given_to_the_deal_opens() {
        let r = HongWuRules::default();
        let drawn = HongWuState::deal(&r, &mut deal_rng(4, 0));
        for first in 0..PLAYERS {
            let s = HongWuState::deal_opened_by(&r, &mut deal_rng(4, 0), Some(first)).unwrap();
            assert_eq!(s.to_act(), Some(first));
            assert_eq!(s.hand(2), drawn.hand(2), "same cards whoever opens");
        }
        let e = HongWuState::deal_opened_by(&r, &mut deal_rng(4, 0), Some(4)).unwrap_err();
        assert!(e.to_string().contains("first bidder 4: expected a seat 0 to 3"), "{e}");
    }

    #[test]
    fn refusals_name_the_cards_and_cite_hong_wu() {
        let mut s = to_play(5);
        let seat = s.to_act().unwrap();
        let hand = s.hand(seat);
        let tr = s.trick_rules().unwrap().clone();
        let plain: Vec<Card> = hand.kinds().iter().filter(|&c| !tr.order.is_trump(c)).collect();
        let trump: Vec<Card> = hand.kinds().iter().filter(|&c| tr.order.is_trump(c)).collect();
        let mixed = Multiset::from_cards(&[plain[0], trump[0]]).unwrap();
        let e = s.check(&Action::Play(mixed)).unwrap_err().to_string();
        assert!(e.starts_with(&format!("illegal play {mixed} by seat {seat}")), "{e}");
        assert!(e.contains("hongwu.md §B.6") && !e.contains("shengji"), "{e}");
        // Lead a single of some plain suit, then follow off-suit while holding that suit.
        let lead = Multiset::from_cards(&[plain[0]]).unwrap();
        s.apply(&Action::Play(lead)).unwrap();
        let next = s.to_act().unwrap();
        let h = s.hand(next);
        let led = tr.order.suit(plain[0]);
        let off = h.iter().find(|&c| tr.order.suit(c) != led);
        if h.iter().any(|c| tr.order.suit(c) == led) {
            let off = Multiset::from_cards(&[off.unwrap()]).unwrap();
            let e = s.check(&Action::Play(off)).unwrap_err().to_string();
            assert!(e.contains("hongwu.md §B.8") && !e.contains("shengji"), "{e}");
        }
    }

    #[test]
    fn failed_throw_plays_the_lowest_card() {
        // Hands built so that seat 0 leads ♣K♣K♣J♣J♣8 while seat 3 holds ♣9 (H12).
        let r = HongWuRules::default();
        let mut deck = Multiset::full_decks(2, true).unwrap();
        let throw = ms("KC KC JC JC 8C");
        let mut h0 = throw;
        deck.remove_all(&throw).unwrap();
        let mut h3 = ms("9C");
        deck.remove_all(&h3).unwrap();
        let rest: Vec<Card> = deck.iter().filter(|c| c.suit() != Some(Suit::Clubs)).collect();
        let clubs: Vec<Card> = deck.iter().filter(|c| c.suit() == Some(Suit::Clubs)).collect();
        let mut pool = rest.into_iter().chain(clubs);
        for _ in 0..20 {
            h0.add(pool.next().unwrap());
        }
        let mut hands = [h0, Multiset::EMPTY, Multiset::EMPTY, Multiset::EMPTY];
        for _ in 0..24 {
            h3.add(pool.next().unwrap());
        }
        hands[3] = h3;
        for h in &mut hands[1..3] {
            for _ in 0..25 {
                h.add(pool.next().unwrap());
            }
        }
        let kitty = Multiset::from_cards(&pool.collect::<Vec<_>>()).unwrap();
        let mut s = HongWuState::with_hands(&r, hands, kitty, 0).unwrap();
        s.apply(&Action::Bid(Bid::Points(60))).unwrap();
        for _ in 0..3 {
            s.apply(&Action::Bid(Bid::Pass)).unwrap();
        }
        s.apply(&Action::Trump(Suit::Spades)).unwrap();
        let bury: Vec<Card> = s.hand(0).iter().filter(|c| !throw.contains(*c)).take(8).collect();
        s.apply(&Action::Bury(Multiset::from_cards(&bury).unwrap())).unwrap();
        let before = s.hand(0);
        let p = s.apply(&Action::Play(throw)).unwrap().unwrap();
        assert_eq!(p.cards, ms("8C"));
        assert_eq!(p.failed_throw, Some(throw));
        assert_eq!(s.current_trick(), &[ms("8C")]);
        assert_eq!(s.hand(0).len(), before.len() - 1, "only the forced card leaves the hand");
        assert_eq!(s.to_act(), Some(1));
    }

    #[test]
    fn trusted_and_checked_apply_agree() {
        let r = HongWuRules::default();
        for i in 0..6 {
            let mut out = Vec::new();
            for trusted in [false, true] {
                let mut rng = deal_rng(31, i);
                let mut s = HongWuState::deal(&r, &mut rng);
                while !s.is_over() {
                    let a = crate::games::hongwu::policy::choose(&s, Policy::Greedy, &mut rng);
                    if trusted {
                        s.apply_trusted(&a).unwrap();
                    } else {
                        s.apply(&a).unwrap();
                    }
                }
                out.push((s.settlement(), s.points_won(), s.tricks()));
            }
            assert_eq!(out[0], out[1], "deal {i}");
        }
    }

    /// Play deal `i` to the end with `rules` (random policy; the policies ignore the kitty and
    /// red-5 options, so the same deal is played under every value of them).
    fn finished(rules: &HongWuRules, i: u64) -> HongWuState {
        let mut rng = deal_rng(55, i);
        let mut s = HongWuState::deal(rules, &mut rng);
        crate::games::hongwu::policy::play_out(&mut s, Policy::Random, &mut rng).unwrap();
        s
    }

    #[test]
    fn red5_penalty_scopes() {
        use crate::games::hongwu::options::Red5PenaltyScope;
        let mut own = HongWuRules::default();
        own.options.red5_penalty_per_card = 20;
        let mut any = own.clone();
        any.options.red5_penalty_scope = Red5PenaltyScope::AnyRed5WonByXianjia;
        let mut seen_any = 0;
        for i in 0..40 {
            let (a, b) = (finished(&own, i), finished(&any, i));
            assert_eq!(a.points_won(), b.points_won(), "same play");
            let (pa, pb) =
                (a.settlement().unwrap().red5_penalty, b.settlement().unwrap().red5_penalty);
            assert!(pa <= pb && pa % 20 == 0 && pb % 20 == 0 && pb <= 40, "deal {i}: {pa} {pb}");
            seen_any += (pb > 0) as i32;
            let plain = finished(&HongWuRules::default(), i).settlement().unwrap();
            assert_eq!(plain.score - pa, a.settlement().unwrap().score, "S drops by R5");
        }
        assert!(seen_any > 0, "some ♥5 is captured in 40 random deals");
    }

    #[test]
    fn kitty_options_in_play() {
        use crate::games::hongwu::options::KittyRule;
        let mut ignored = HongWuRules::default();
        ignored.options.kitty = KittyRule::Ignored;
        let mut xianjia_last = 0;
        for i in 0..30 {
            let (d, g) = (finished(&HongWuRules::default(), i), finished(&ignored, i));
            let (xd, xg) =
                (d.settlement().unwrap().attacker_points, g.settlement().unwrap().attacker_points);
            if d.last_winner_is_xianjia() {
                xianjia_last += 1;
                assert!([2, 4, 8].contains(&d.last_multiplier()));
                assert_eq!(xd - xg, d.kitty_points() * d.last_multiplier(), "deal {i}");
            } else {
                assert_eq!(xd, xg, "deal {i}: the dealer won the last trick");
            }
        }
        assert!(xianjia_last > 0);
    }

    #[test]
    fn clockwise_turns_in_play() {
        let mut r = HongWuRules::default();
        r.options.direction = crate::games::hongwu::options::Direction::Clockwise;
        let mut rng = deal_rng(8, 0);
        let mut s = HongWuState::deal(&r, &mut rng);
        let first = s.to_act().unwrap();
        s.apply(&Action::Bid(Bid::Points(60))).unwrap();
        assert_eq!(s.to_act(), Some((first + 3) % 4));
        for _ in 0..3 {
            s.apply(&Action::Bid(Bid::Pass)).unwrap();
        }
        s.apply(&Action::Trump(Suit::Clubs)).unwrap();
        let bury = Multiset::from_cards(&s.hand(first).iter().take(8).collect::<Vec<_>>()).unwrap();
        s.apply(&Action::Bury(bury)).unwrap();
        let lead = s.lead_candidates()[0];
        s.apply(&Action::Play(lead)).unwrap();
        assert_eq!(s.to_act(), Some((first + 3) % 4), "the next player is to the right");
        crate::games::hongwu::policy::play_out(&mut s, Policy::Random, &mut rng).unwrap();
        assert!(s.is_over());
    }

    #[test]
    fn random_and_greedy_deals_conserve_points() {
        let r = HongWuRules::default();
        for policy in [Policy::Random, Policy::Greedy] {
            for i in 0..12 {
                let mut rng = deal_rng(77, i);
                let mut s = HongWuState::deal(&r, &mut rng);
                crate::games::hongwu::policy::play_out(&mut s, policy, &mut rng).unwrap();
                let st = s.settlement().unwrap();
                let won: i32 = s.points_won().iter().sum();
                assert_eq!(won + s.kitty_points(), 200, "{policy:?} deal {i}");
                assert_eq!(s.played().len(), 100);
                assert_eq!(st.dealer + 3 * st.each_other, 0);
                assert_eq!(
                    st.score,
                    st.dealer_points - s.contract().unwrap().bid as i32 - st.red5_penalty
                );
                assert!((1..=25).contains(&s.tricks()));
                assert!(s.to_act().is_none() && s.check(&Action::Bid(Bid::Pass)).is_err());
            }
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use crate::deal::deal_rng;
    use crate::games::hongwu::options::OtherThrees;
    use crate::policy::Policy;
    use crate::tricks::{check_lead, trick_winner};
    use proptest::prelude::*;

    fn rules_with(other_threes: bool) -> HongWuRules {
        let mut r = HongWuRules::default();
        if other_threes {
            r.options.other_threes = OtherThrees::TrumpBelowFuCanmou;
        }
        r
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Any random deal ends settled: every card played once, 200 points accounted for, and
        /// each action taken was one the state called legal; `played()` is every card played
        /// so far (summed from what each play returned).
        #[test]
        fn random_deals_settle(seed in any::<u64>()) {
            let r = HongWuRules::default();
            let mut rng = deal_rng(seed, 0);
            let mut s = HongWuState::deal(&r, &mut rng);
            let mut steps = 0;
            let mut played = Multiset::EMPTY;
            while !s.is_over() {
                let a = crate::games::hongwu::policy::choose(&s, Policy::Random, &mut rng);
                prop_assert!(s.check(&a).is_ok());
                if let Some(p) = s.apply(&a).unwrap() {
                    played.add_all(&p.cards).unwrap();
                    prop_assert_eq!(s.played(), played);
                }
                steps += 1;
                prop_assert!(steps < 400);
            }
            prop_assert_eq!(s.played().len(), 4 * HAND_SIZE);
            prop_assert_eq!(s.points_won().iter().sum::<i32>() + s.kitty_points(), 200);
            for seat in 0..PLAYERS {
                prop_assert!(s.hand(seat).is_empty());
            }
        }

        /// The shared one-kind winner agrees with the general `trick_winner` on any four cards under
        /// Hong Wu's order (hongwu.md §B.9).
        #[test]
        fn single_lead_winner_matches_trick_winner(
            trump in 0usize..4,
            threes in any::<bool>(),
            kinds in proptest::array::uniform4(0usize..54),
        ) {
            let tr = rules_with(threes).trick_rules(Some(Suit::from_index(trump))).unwrap();
            let plays = kinds.map(|k| Multiset::from_set(CardSet::single(Card::from_index(k).unwrap())));
            let led = tr.order.suit(plays[0].kinds().first().unwrap());
            prop_assert_eq!(tuple_winner(&tr, led, 1, &plays), trick_winner(&tr, &plays).unwrap());
        }

        /// The single/pair lead format agrees with `check_lead`'s decomposition, and any other
        /// card list (or one not held) is left to `check_lead`.
        #[test]
        fn one_unit_lead_matches_check_lead(
            trump in 0usize..4,
            threes in any::<bool>(),
            kinds in proptest::collection::vec(0usize..54, 1..4),
            copies in 1usize..3,
        ) {
            let tr = rules_with(threes).trick_rules(Some(Suit::from_index(trump))).unwrap();
            let mut cards = Multiset::EMPTY;
            for &k in &kinds {
                for _ in 0..copies {
                    if cards.count(Card::from_index(k).unwrap()) < 2 {
                        cards.add(Card::from_index(k).unwrap());
                    }
                }
            }
            let full = Multiset::full_decks(2, true).unwrap();
            match one_unit_lead(&tr.order, &cards, &full) {
                Some(u) => {
                    let f = check_lead(&tr, &cards, Some(&full)).unwrap();
                    prop_assert_eq!((f.suit, f.cards as usize), (u.suit, cards.len()));
                    prop_assert_eq!(f.units.as_slice(), &[u][..]);
                }
                None => prop_assert!(cards.kinds().len() > 1),
            }
            // Not held: never a fast-path unit.
            prop_assert!(one_unit_lead(&tr.order, &cards, &Multiset::EMPTY).is_none());
        }
    }
}
