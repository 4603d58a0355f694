//! One whole Shengji deal as a state machine (shengji.md §1–§8), a match of deals, and the
//! random-play simulator ([`DealSimulator`] for [`ShengjiRules`]).
//!
//! Phases of a [`Deal`]:
//! 1. **Dealing** (§1.1, §2.2): cards are drawn one at a time counter-clockwise from the first
//!    drawer (the dealer, or a random player in hand 1). After each card the receiver may declare
//!    or overcall with the cards received so far; after the last card every player gets one more
//!    chance (the final round). A decision is asked only when the player has a legal bid: a
//!    player without one passes automatically.
//! 2. **Burying** (§2.3–§2.4): trump is fixed (the final declaration; if nobody declared, the
//!    `no_declaration` rule), the dealer is fixed (hand 1: `first_hand_dealer`), the dealer takes
//!    the kitty and buries the same number of cards.
//! 3. **Playing** (§4–§7): the dealer leads trick 1; each trick's winner leads the next. A throw
//!    is checked at once against the other hands (full information) and reduced to its forced
//!    component when it fails. Points go to the attackers when an attacker wins the trick; the
//!    kitty's points × multiplier go to them when they win the last trick.
//! 4. **Done**: [`Deal::result`] has the attackers' total and the level change (§8).
//!
//! Moves: [`Move`] is the structured move (a bid, a burial, a play = card multiset). The same
//! decisions are also offered card by card ([`Deal::legal_action_mask`], [`Deal::apply_action`]):
//! action `c` in 0..54 adds one card of kind `c` to the bid/burial/play being built, action
//! [`STOP`] (54) ends a bid ("pass" when empty) or a lead. Burials and follows end by themselves
//! when they have the right number of cards. The mask has exactly the actions that can still be
//! completed to a legal move.
//!
//! Seats are 0..4 counter-clockwise; the partner of `p` is `(p + 2) % 4`.

use super::declare::{
    first_hand_dealer, flip_kitty_trump, next_dealer, Bid, Declaring, KittyBuryRestrictions,
    NoDeclaration,
};
use super::options::ThrowPenalty;
use super::policy;
use super::scoring::{Level, LevelChange, Side};
use super::ShengjiRules;
use crate::cards::{Card, CardSet, Rank, Suit, NUM_KINDS};
use crate::combos::{decompose_into, Format};
use crate::deal::DealShape;
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::order::TRUMP;
use crate::policy::Policy;
use crate::rollout::{Column, DealSimulator, StartingDeal};
use crate::trick::winner::trick_winner_of;
use crate::trick::{check_lead, check_lead_into, check_throw, FollowMoves, TrickRules};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;

/// Players at the table.
pub const NUM_PLAYERS: usize = 4;
/// The card-by-card action that ends a bid (a pass when nothing was added) or a lead.
pub const STOP: usize = NUM_KINDS;
/// Number of card-by-card actions (54 kinds + [`STOP`]).
pub const NUM_ACTIONS: usize = NUM_KINDS + 1;

/// Hand size and kitty size for `decks` decks (§1.1): 12+6, 25+8, 39+6.
pub fn hand_and_kitty(decks: u8) -> (usize, usize) {
    match decks {
        1 => (12, 6),
        2 => (25, 8),
        _ => (39, 6),
    }
}

/// The phase of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Dealing,
    Burying,
    Playing,
    Done,
}

/// A structured move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// No declaration now (dealing phase).
    Pass,
    /// Declare or overcall (dealing phase).
    Declare(Bid),
    /// The dealer's burial: exactly the kitty size of held cards.
    Bury(Multiset),
    /// A lead or a follow.
    Play(Multiset),
}

impl std::fmt::Display for Move {
    /// `pass`, `declare 2H 2H`, `bury …`, `play …` (cards in canonical notation).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Declare(b) => write!(f, "declare {b}"),
            Move::Bury(m) => write!(f, "bury {m}"),
            Move::Play(m) => write!(f, "play {m}"),
        }
    }
}

/// The end of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealResult {
    pub dealer: u8,
    /// `None` for no-trump.
    pub trump: Option<Suit>,
    /// Attacker points won in tricks.
    pub trick_points: i32,
    /// Points won in tricks by the dealer team (they count for nobody, §7.1).
    pub dealer_team_points: i32,
    /// Points in the buried kitty.
    pub kitty_points: i32,
    /// Kitty multiplier when the attackers won the last trick, 0 otherwise.
    pub kitty_multiplier: u32,
    /// Failed-throw penalties added to the attackers' total (negative when attackers threw).
    pub penalty: i32,
    /// The attackers' final total P = tricks + kitty bonus + penalty.
    pub attacker_points: i32,
    pub change: LevelChange,
    pub tricks: u16,
    pub failed_throws: u16,
    /// Accepted declarations (bids) in the deal.
    pub declarations: u16,
}

/// One deal from the shuffle to the level change. `Clone` gives an independent copy (chance
/// events after the clone are drawn from the copied generator, so both copies replay alike).
#[derive(Clone, Debug)]
pub struct Deal {
    rules: ShengjiRules,
    level: Rank,
    /// The shuffled pack (the first `54 × decks` entries); the last kitty-size cards are the kitty.
    stock: [Card; 3 * NUM_KINDS],
    dealt: usize,
    hand_size: usize,
    first_drawer: u8,
    /// The dealer: known from the start in later hands, fixed after declaring in hand 1.
    dealer: Option<u8>,
    hands: [Multiset; NUM_PLAYERS],
    declaring: Declaring,
    declarations: u16,
    /// Per player: (`declarations` when last checked, whether a legal bid existed). The legal
    /// bids change only when the player receives a level card or joker, or a bid is accepted.
    bid_cache: [Option<(u16, bool)>; NUM_PLAYERS],
    /// Remaining seats of the final declaration round (counted down).
    final_round: u8,
    phase: Phase,
    to_move: u8,
    trump: Option<Suit>,
    kitty: Multiset,
    tr: Option<Box<TrickRules>>,
    leader: u8,
    plays: [Multiset; NUM_PLAYERS],
    played: u8,
    /// The format of the current trick's lead (meaningful while `played > 0`), written in place.
    lead_format: Format,
    trick_points: i32,
    dealer_team_points: i32,
    penalty: i32,
    tricks: u16,
    failed_throws: u16,
    /// The bid / burial / play being built card by card.
    building: Multiset,
    result: Option<DealResult>,
    rng: ChaCha8Rng,
}

impl Deal {
    /// A new deal at `level` (the dealer team's level). `dealer` is `None` for hand 1 (the first
    /// drawer is random and the declaration decides the dealer) and the seat of the dealer in
    /// later hands. All chance (shuffle, random dealer, random suit) comes from `rng`.
    ///
    /// Errors: `InvalidValue` for a dealer seat outside 0..4; `InvalidOption` for
    /// `throw_fail_penalty=structured`, which the deal does not implement yet.
    pub fn new(
        rules: &ShengjiRules,
        level: Rank,
        dealer: Option<u8>,
        rng: &mut impl RngCore,
    ) -> Result<Deal> {
        check_start(rules, dealer)?;
        let mut rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        let decks = rules.decks;
        let mut stock = [Card::SMALL_JOKER; 3 * NUM_KINDS];
        let size = NUM_KINDS * decks as usize;
        for (i, slot) in stock[..size].iter_mut().enumerate() {
            *slot = Card::from_index(i % NUM_KINDS).expect("i % 54 is a kind");
        }
        stock[..size].shuffle(&mut rng);
        let first_drawer = dealer.unwrap_or_else(|| rng.random_range(0..4u8));
        Ok(Deal::start(rules, level, dealer, stock, first_drawer, rng))
    }

    /// A deal of the given `hands` (seat order) and `kitty` (Monte Carlo evaluation): each hand
    /// is received in a random order drawn from `rng` (so declarations happen as the cards come
    /// in, §2.2), the kitty is the end of the stock. `dealer` as in [`Deal::new`].
    ///
    /// Errors: `InvalidValue` for a dealer seat outside 0..4, a hand or kitty of the wrong size
    /// (§1.1) or cards that are not exactly the `decks` packs; `InvalidOption` as in
    /// [`Deal::new`].
    pub fn from_hands(
        rules: &ShengjiRules,
        level: Rank,
        dealer: Option<u8>,
        hands: &[Multiset; NUM_PLAYERS],
        kitty: &Multiset,
        rng: &mut impl RngCore,
    ) -> Result<Deal> {
        check_start(rules, dealer)?;
        let (hand_size, kitty_size) = hand_and_kitty(rules.decks);
        let mut all = *kitty;
        for (p, h) in hands.iter().enumerate() {
            if h.len() != hand_size {
                return Err(ZhipaiError::invalid_value(
                    format!("hand of seat {p}"),
                    h,
                    format!("expected {hand_size} cards with {} decks", rules.decks),
                ));
            }
            all.add_all(h)?;
        }
        if kitty.len() != kitty_size {
            return Err(ZhipaiError::invalid_value(
                "kitty",
                kitty,
                format!("expected {kitty_size} cards with {} decks", rules.decks),
            ));
        }
        if all != Multiset::full_decks(rules.decks as usize, true)? {
            return Err(ZhipaiError::invalid_value(
                "deal",
                all,
                format!("expected exactly {} full packs with jokers", rules.decks),
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        let first_drawer = dealer.unwrap_or_else(|| rng.random_range(0..4u8));
        let mut stock = [Card::SMALL_JOKER; 3 * NUM_KINDS];
        for (p, h) in hands.iter().enumerate() {
            let mut order: Vec<Card> = h.iter().collect();
            order.shuffle(&mut rng);
            // Seat p receives the draws first_drawer + i ≡ p (mod 4).
            let offset = (p + NUM_PLAYERS - first_drawer as usize) % NUM_PLAYERS;
            for (t, &c) in order.iter().enumerate() {
                stock[offset + t * NUM_PLAYERS] = c;
            }
        }
        for (j, c) in kitty.iter().enumerate() {
            stock[hand_size * NUM_PLAYERS + j] = c;
        }
        Ok(Deal::start(rules, level, dealer, stock, first_drawer, rng))
    }

    /// The deal after the shuffle: deal from `stock` until the first decision.
    fn start(
        rules: &ShengjiRules,
        level: Rank,
        dealer: Option<u8>,
        stock: [Card; 3 * NUM_KINDS],
        first_drawer: u8,
        rng: ChaCha8Rng,
    ) -> Deal {
        let (hand_size, _) = hand_and_kitty(rules.decks);
        let mut deal = Deal {
            rules: rules.clone(),
            level,
            stock,
            dealt: 0,
            hand_size,
            first_drawer,
            dealer,
            hands: [Multiset::EMPTY; NUM_PLAYERS],
            declaring: Declaring::new(rules.declare, level),
            declarations: 0,
            bid_cache: [None; NUM_PLAYERS],
            final_round: NUM_PLAYERS as u8,
            phase: Phase::Dealing,
            to_move: first_drawer,
            trump: None,
            kitty: Multiset::EMPTY,
            tr: None,
            leader: 0,
            plays: [Multiset::EMPTY; NUM_PLAYERS],
            played: 0,
            lead_format: Format::EMPTY,
            trick_points: 0,
            dealer_team_points: 0,
            penalty: 0,
            tricks: 0,
            failed_throws: 0,
            building: Multiset::EMPTY,
            result: None,
            rng,
        };
        deal.run_dealing();
        deal
    }

    /// The rule set of this deal.
    pub fn rules(&self) -> &ShengjiRules {
        &self.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The player to decide, `None` when the deal is over.
    pub fn current_player(&self) -> Option<u8> {
        (self.phase != Phase::Done).then_some(self.to_move)
    }

    /// The hand of `player` (cards received so far while dealing).
    pub fn hand(&self, player: u8) -> Multiset {
        self.hands[player as usize % NUM_PLAYERS]
    }

    /// The dealer, once known.
    pub fn dealer(&self) -> Option<u8> {
        self.dealer
    }

    /// The trump (`None` = no-trump) once the dealing phase is over.
    pub fn trump(&self) -> Option<Option<Suit>> {
        (self.phase != Phase::Dealing).then_some(self.trump)
    }

    /// The declaration state (current winner, first declarer).
    pub fn declaring(&self) -> &Declaring {
        &self.declaring
    }

    /// The trick rules of this deal (after dealing).
    pub fn trick_rules(&self) -> Option<&TrickRules> {
        self.tr.as_deref()
    }

    /// The plays of the current trick so far, leader first.
    pub fn current_trick(&self) -> &[Multiset] {
        &self.plays[..self.played as usize]
    }

    /// The result once the deal is over.
    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    /// Zero-sum returns once the deal is over: the gaining side's players get `+levels`, the
    /// others `-levels` (a take-over without levels is 0 for everyone).
    pub fn returns(&self) -> Option<[f64; NUM_PLAYERS]> {
        let r = self.result?;
        let mut out = [0.0; NUM_PLAYERS];
        for (p, v) in out.iter_mut().enumerate() {
            let dealer_team = (p as u8 + 4 - r.dealer).is_multiple_of(2);
            let gains = dealer_team == (r.change.side == Side::Dealer);
            *v = if gains { r.change.levels as f64 } else { -(r.change.levels as f64) };
        }
        Some(out)
    }

    fn is_attacker(&self, player: u8) -> bool {
        (player + 4 - self.dealer.unwrap_or(0)) % 2 == 1
    }

    // ---------------------------------------------------------------- dealing and declaring

    /// Draw cards until somebody has a declaration to decide, or the phase ends.
    fn run_dealing(&mut self) {
        let total = self.hand_size * NUM_PLAYERS;
        while self.dealt < total {
            let p = ((self.first_drawer as usize + self.dealt) % NUM_PLAYERS) as u8;
            let card = self.stock[self.dealt];
            self.hands[p as usize].add(card);
            self.dealt += 1;
            if card.is_joker() || card.rank() == Some(self.level) {
                self.bid_cache[p as usize] = None;
            }
            if self.can_declare(p) {
                self.to_move = p;
                return;
            }
        }
        while self.final_round > 0 {
            let p = (self.first_drawer + NUM_PLAYERS as u8 - self.final_round) % 4;
            self.final_round -= 1;
            if self.can_declare(p) {
                self.to_move = p;
                // Re-enter here after the decision: the seat is already counted.
                return;
            }
        }
        self.finish_declaring();
    }

    fn can_declare(&mut self, p: u8) -> bool {
        if let Some((at, any)) = self.bid_cache[p as usize] {
            if at == self.declarations {
                return any;
            }
        }
        let mut any = false;
        self.declaring.for_each_legal_bid(p, &self.hands[p as usize], |_| any = true);
        self.bid_cache[p as usize] = Some((self.declarations, any));
        any
    }

    /// The bids the player to move may show now (dealing phase), weakest first.
    pub fn legal_bids(&self) -> Vec<Bid> {
        if self.phase != Phase::Dealing {
            return Vec::new();
        }
        self.declaring.legal_bids(self.to_move, &self.hands[self.to_move as usize])
    }

    fn finish_declaring(&mut self) {
        let (_, kitty_size) = hand_and_kitty(self.rules.decks);
        let kitty_cards = &self.stock[self.dealt..self.dealt + kitty_size];
        self.trump = match self.declaring.trump() {
            Some(t) => t,
            None => match self.rules.declare.no_declaration {
                NoDeclaration::NoTrump => None,
                NoDeclaration::RandomSuit => Some(Suit::from_index(self.rng.random_range(0..4))),
                NoDeclaration::FlipKitty => flip_kitty_trump(kitty_cards, self.level),
            },
        };
        let mut kitty = Multiset::EMPTY;
        for &c in kitty_cards {
            kitty.add(c);
        }
        if self.dealer.is_none() {
            let d = first_hand_dealer(&self.rules.declare, &self.declaring, self.first_drawer);
            self.dealer = Some(d.unwrap_or_else(|| self.rng.random_range(0..4u8)));
        }
        let dealer = self.dealer.expect("set above");
        self.hands[dealer as usize].add_all(&kitty).expect("a hand holds ≤ 3 copies + kitty");
        self.tr =
            Some(Box::new(self.rules.play.trick_rules(self.rules.decks, self.level, self.trump)));
        self.phase = Phase::Burying;
        self.to_move = dealer;
    }

    // ---------------------------------------------------------------- structured moves

    /// Apply a structured move for the player to move. Errors with `IllegalPlay` naming the
    /// move and the rule when it is not legal here (the state is then unchanged).
    pub fn apply(&mut self, mv: Move) -> Result<()> {
        if !self.building.is_empty() {
            return Err(ZhipaiError::illegal_play(
                mv.to_string(),
                "a card-by-card move is being built; finish it with apply_action",
            ));
        }
        self.apply_move(mv)
    }

    fn apply_move(&mut self, mv: Move) -> Result<()> {
        match (self.phase, mv) {
            (Phase::Dealing, Move::Pass) => {
                self.run_dealing();
                Ok(())
            }
            (Phase::Dealing, Move::Declare(bid)) => {
                let p = self.to_move;
                if self.hands[p as usize].count(bid.card) < bid.count as usize {
                    return Err(ZhipaiError::illegal_play(
                        format!("declaration {bid} by player {p}"),
                        "the player has not received these cards",
                    ));
                }
                self.declaring.declare(p, bid)?;
                self.declarations += 1;
                self.run_dealing();
                Ok(())
            }
            (Phase::Burying, Move::Bury(cards)) => self.bury(cards),
            (Phase::Playing, Move::Play(cards)) => {
                if self.played == 0 {
                    self.lead(cards)
                } else {
                    self.follow(cards)
                }
            }
            (Phase::Done, _) => Err(ZhipaiError::illegal_play(mv.to_string(), "the deal is over")),
            (phase, _) => Err(ZhipaiError::illegal_play(
                mv.to_string(),
                format!("not a move of the {phase:?} phase"),
            )),
        }
    }

    fn bury(&mut self, cards: Multiset) -> Result<()> {
        let (_, k) = hand_and_kitty(self.rules.decks);
        let d = self.to_move as usize;
        if cards.len() != k {
            return Err(ZhipaiError::illegal_play(
                format!("burial {cards}"),
                format!("bury exactly {k} cards"),
            ));
        }
        if !self.hands[d].contains_all(&cards) {
            return Err(ZhipaiError::illegal_play(format!("burial {cards}"), "cards not held"));
        }
        if let Some(restricted) = self.bury_restricted() {
            let spare = self.hands[d].len() - self.hands[d].count_in(restricted);
            let must = k.saturating_sub(spare);
            if cards.count_in(restricted) > must {
                return Err(ZhipaiError::illegal_play(
                    format!("burial {cards}"),
                    "kitty_bury_restrictions forbid these cards while others can be buried",
                ));
            }
        }
        self.hands[d].remove_all(&cards)?;
        self.kitty = cards;
        self.phase = Phase::Playing;
        self.leader = self.to_move;
        Ok(())
    }

    /// The kinds the burial restriction avoids, if any.
    fn bury_restricted(&self) -> Option<CardSet> {
        match self.rules.declare.kitty_bury_restrictions {
            KittyBuryRestrictions::None => None,
            KittyBuryRestrictions::NoPoints => Some(point_kinds()),
            KittyBuryRestrictions::NoTrumps => {
                Some(self.tr.as_ref().expect("after dealing").order.suit_mask(TRUMP))
            }
        }
    }

    fn tr(&self) -> &TrickRules {
        self.tr.as_ref().expect("trick rules exist after dealing")
    }

    fn lead(&mut self, cards: Multiset) -> Result<()> {
        let p = self.to_move as usize;
        let tr = self.tr.as_deref().expect("trick rules exist after dealing");
        // Written in place: a format is too big to move around on the hot path.
        check_lead_into(tr, &cards, Some(&self.hands[p]), &mut self.lead_format)
            .map_err(|e| ZhipaiError::illegal_play(format!("lead {cards}"), e.to_string()))?;
        let format = &self.lead_format;
        let mut played = cards;
        if format.is_throw() {
            let others: [Multiset; 3] =
                std::array::from_fn(|i| self.hands[(p + 1 + i) % NUM_PLAYERS]);
            let r = check_throw(tr, format, &others);
            if !r.valid {
                played = r.played;
                let ok =
                    decompose_into(&played, &tr.order, tr.decomposition, &mut self.lead_format);
                debug_assert!(ok, "the forced part is one unit of the led suit");
                self.failed_throws += 1;
                let fine = match self.rules.play.throw_fail_penalty {
                    ThrowPenalty::TenPerAttempt => 10,
                    ThrowPenalty::TenPerCardReturned => 10 * r.beaten_cards as i32,
                    _ => 0,
                };
                self.penalty += if self.is_attacker(p as u8) { -fine } else { fine };
            }
        }
        self.hands[p].remove_all(&played)?;
        self.plays[0] = played;
        self.played = 1;
        self.to_move = ((p + 1) % NUM_PLAYERS) as u8;
        Ok(())
    }

    fn follow(&mut self, cards: Multiset) -> Result<()> {
        let p = self.to_move as usize;
        let format = &self.lead_format;
        let moves = FollowMoves::new(self.tr(), format, &self.hands[p])?;
        moves
            .check(&cards)
            .map_err(|e| ZhipaiError::illegal_play(format!("follow {cards}"), e.to_string()))?;
        self.record_follow(cards)
    }

    /// Record a follow known to be legal (checked, or drawn from the legal follows).
    fn record_follow(&mut self, cards: Multiset) -> Result<()> {
        let p = self.to_move as usize;
        self.hands[p].remove_all(&cards)?;
        self.plays[self.played as usize] = cards;
        self.played += 1;
        self.to_move = ((p + 1) % NUM_PLAYERS) as u8;
        if self.played as usize == NUM_PLAYERS {
            self.finish_trick()?;
        }
        Ok(())
    }

    fn finish_trick(&mut self) -> Result<()> {
        let format = &self.lead_format;
        let w = trick_winner_of(self.tr(), format, &self.plays)?;
        let winner = (self.leader + w as u8) % 4;
        let points: i32 = self.plays.iter().map(points_of).sum();
        if self.is_attacker(winner) {
            self.trick_points += points;
        } else {
            self.dealer_team_points += points;
        }
        self.tricks += 1;
        self.played = 0;
        self.leader = winner;
        self.to_move = winner;
        if self.hands.iter().all(|h| h.is_empty()) {
            self.finish_deal(winner, w)?;
        }
        Ok(())
    }

    fn finish_deal(&mut self, last_winner: u8, w: usize) -> Result<()> {
        let kitty_points = points_of(&self.kitty);
        let kitty_multiplier = if self.is_attacker(last_winner) {
            super::kitty::kitty_multiplier(
                self.rules.play.kitty_multiplier,
                self.rules.play.kitty_multiplier_basis,
                self.tr(),
                &self.plays[0],
                Some(&self.plays[w]),
            )?
        } else {
            0
        };
        let attacker_points =
            self.trick_points + kitty_points * kitty_multiplier as i32 + self.penalty;
        self.result = Some(DealResult {
            dealer: self.dealer.expect("set after dealing"),
            trump: self.trump,
            trick_points: self.trick_points,
            dealer_team_points: self.dealer_team_points,
            kitty_points,
            kitty_multiplier,
            penalty: self.penalty,
            attacker_points,
            change: self.rules.scoring.level_change(attacker_points),
            tricks: self.tricks,
            failed_throws: self.failed_throws,
            declarations: self.declarations,
        });
        self.phase = Phase::Done;
        Ok(())
    }

    // ---------------------------------------------------------------- card-by-card actions

    /// The cards added so far to the move being built card by card.
    pub fn building(&self) -> Multiset {
        self.building
    }

    /// Bit `a` set = action `a` (card kind 0..54, or [`STOP`] = 54) is legal now.
    pub fn legal_action_mask(&self) -> u64 {
        let b = self.building;
        let p = self.to_move as usize;
        let hand = self.hands[p];
        match self.phase {
            Phase::Done => 0,
            Phase::Dealing => {
                let mut mask = 0u64;
                let k = b.len();
                let built = b.kinds().first();
                self.declaring.for_each_legal_bid(self.to_move, &hand, |bid| {
                    if built.is_none_or(|c| c == bid.card) && bid.count as usize > k {
                        mask |= bid.card.bit();
                    }
                    if built == Some(bid.card) && bid.count as usize == k {
                        mask |= 1 << STOP;
                    }
                });
                if k == 0 {
                    mask |= 1 << STOP; // pass
                }
                mask
            }
            Phase::Burying => self.bury_mask(),
            Phase::Playing if self.played == 0 => self.lead_mask(),
            Phase::Playing => self.follow_mask(),
        }
    }

    /// Legal actions as a list of action ids (see [`Deal::legal_action_mask`]).
    pub fn legal_actions(&self) -> Vec<usize> {
        let m = self.legal_action_mask();
        (0..NUM_ACTIONS).filter(|a| m & (1 << a) != 0).collect()
    }

    /// Kinds with copies left in `hand` beyond those already in the move being built.
    fn remaining(&self, hand: &Multiset) -> CardSet {
        let mut out = CardSet::EMPTY;
        for c in hand.kinds() {
            if hand.count(c) > self.building.count(c) {
                out.insert(c);
            }
        }
        out
    }

    fn bury_mask(&self) -> u64 {
        let hand = self.hands[self.to_move as usize];
        let mut mask = self.remaining(&hand);
        if let Some(restricted) = self.bury_restricted() {
            let (_, k) = hand_and_kitty(self.rules.decks);
            let spare = hand.len() - hand.count_in(restricted);
            let budget = k.saturating_sub(spare);
            if self.building.count_in(restricted) >= budget {
                mask = mask.minus(restricted);
            }
        }
        mask.0
    }

    fn lead_mask(&self) -> u64 {
        let hand = self.hands[self.to_move as usize];
        let tr = self.tr();
        let rem = self.remaining(&hand);
        let Some(first) = self.building.kinds().first() else { return rem.0 };
        let suit = tr.order.suit(first);
        let mut mask = rem.intersect(tr.order.suit_mask(suit)).0;
        if !tr.trump_throw_allowed && suit == TRUMP {
            // Only single units may be led in trump: keep the cards that can still complete one.
            mask = 0;
            for c in rem.intersect(tr.order.suit_mask(TRUMP)) {
                let mut next = self.building;
                next.add(c);
                if self.completes_to_trump_unit(&next) {
                    mask |= c.bit();
                }
            }
        }
        if check_lead(tr, &self.building, Some(&hand)).is_ok() {
            mask |= 1 << STOP;
        }
        mask
    }

    /// Whether some single trump unit held by the leader contains `part`.
    fn completes_to_trump_unit(&self, part: &Multiset) -> bool {
        let hand = self.hands[self.to_move as usize];
        let tr = self.tr();
        let trumps = hand.restrict(tr.order.suit_mask(TRUMP));
        let mut found = false;
        let _ = for_each_unit_lead(tr, &trumps, &mut |u| {
            if u.contains_all(part) {
                found = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        found
    }

    fn follow_mask(&self) -> u64 {
        let p = self.to_move as usize;
        let format = &self.lead_format;
        let Ok(moves) = FollowMoves::new(self.tr(), format, &self.hands[p]) else { return 0 };
        let mut mask = 0u64;
        let b = self.building;
        moves.for_each(&mut |play| {
            if play.contains_all(&b) {
                for c in play.kinds() {
                    if play.count(c) > b.count(c) {
                        mask |= c.bit();
                    }
                }
            }
            ControlFlow::Continue(())
        });
        mask
    }

    /// Apply card-by-card action `action` (0..54 a card kind, 54 [`STOP`]). Errors with
    /// `IllegalPlay` naming the action when it is not in [`Deal::legal_action_mask`].
    pub fn apply_action(&mut self, action: usize) -> Result<()> {
        if action >= NUM_ACTIONS || self.legal_action_mask() & (1 << action) == 0 {
            return Err(ZhipaiError::illegal_play(
                format!("action {action}"),
                format!("not legal now; legal: {:?}", self.legal_actions()),
            ));
        }
        if action != STOP {
            let card = Card::from_index(action).expect("action < 54 is a kind");
            self.building.add(card);
        }
        let b = self.building;
        let done = match self.phase {
            Phase::Dealing => action == STOP,
            Phase::Burying => b.len() == hand_and_kitty(self.rules.decks).1,
            Phase::Playing if self.played == 0 => action == STOP,
            Phase::Playing => b.len() == self.lead_format.cards as usize,
            Phase::Done => false,
        };
        if !done {
            return Ok(());
        }
        self.building = Multiset::EMPTY;
        let mv = match self.phase {
            Phase::Dealing => match b.kinds().first() {
                None => Move::Pass,
                Some(card) => Move::Declare(Bid { card, count: b.len() as u8 }),
            },
            Phase::Burying => Move::Bury(b),
            _ => Move::Play(b),
        };
        self.apply_move(mv)
    }

    // ---------------------------------------------------------------- random policy

    /// Draw the player-to-move's move under [`Policy::Random`]: a uniform choice among pass and
    /// the legal bids; a uniformly random set of physical cards to bury (within the burial
    /// restriction); a lead drawn uniformly from the lead candidates ([`for_each_lead_candidate`]);
    /// a follow drawn uniformly from the legal follows (`FollowMoves::sample`).
    pub fn random_move(&mut self) -> Result<Move> {
        let p = self.to_move as usize;
        Ok(match self.phase {
            Phase::Done => {
                return Err(ZhipaiError::illegal_play("random move", "the deal is over"))
            }
            Phase::Dealing => {
                let mut bids = [None; 24];
                let mut n = 0;
                self.declaring.for_each_legal_bid(self.to_move, &self.hands[p], |b| {
                    bids[n] = Some(b);
                    n += 1;
                });
                let pick = self.rng.random_range(0..=n);
                if pick == n {
                    Move::Pass
                } else {
                    Move::Declare(bids[pick].expect("filled"))
                }
            }
            Phase::Burying => Move::Bury(self.random_burial()),
            Phase::Playing if self.played == 0 => {
                let tr = self.tr.as_deref().expect("after dealing");
                Move::Play(sample_lead(tr, &self.hands[p], &mut self.rng))
            }
            Phase::Playing => {
                let format = &self.lead_format;
                let tr = self.tr.as_deref().expect("after dealing");
                let hand = &self.hands[p];
                if format.cards == 1 {
                    // Same distribution as `FollowMoves::sample` for a single lead (uniform over
                    // the legal one-card plays: a held kind of the led suit, else any held kind),
                    // without its tables; `follow` still checks the play.
                    let suited = hand.kinds().intersect(tr.order.suit_mask(format.suit as usize));
                    let pool = if suited.is_empty() { hand.kinds() } else { suited };
                    let k = self.rng.random_range(0..pool.len() as usize);
                    let card = pool.iter().nth(k).expect("k < pool size");
                    Move::Play(Multiset::from_set(CardSet::single(card)))
                } else {
                    Move::Play(FollowMoves::new(tr, format, hand)?.sample(&mut self.rng))
                }
            }
        })
    }

    fn random_burial(&mut self) -> Multiset {
        let (_, k) = hand_and_kitty(self.rules.decks);
        let hand = self.hands[self.to_move as usize];
        let restricted = self.bury_restricted().unwrap_or(CardSet::EMPTY);
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
        buf[..n_free].shuffle(&mut self.rng);
        buf[n_free..n].shuffle(&mut self.rng);
        let mut out = Multiset::EMPTY;
        for &c in buf[..n].iter().take(k) {
            out.add(c);
        }
        out
    }

    /// The move of the greedy player for the seat to move (rules in [`super::policy`]); it
    /// sees only that seat's hand, the cards played and its own burial. Errors with
    /// `IllegalPlay` when the deal is over.
    pub fn greedy_move(&self) -> Result<Move> {
        let p = self.to_move as usize;
        let hand = &self.hands[p];
        Ok(match self.phase {
            Phase::Done => {
                return Err(ZhipaiError::illegal_play("greedy move", "the deal is over"));
            }
            Phase::Dealing => policy::declare(&policy::DeclareView {
                seat: self.to_move,
                hand,
                level: self.level,
                declaring: &self.declaring,
            }),
            Phase::Burying => {
                let (_, k) = hand_and_kitty(self.rules.decks);
                let restricted = self.bury_restricted().unwrap_or(CardSet::EMPTY);
                Move::Bury(policy::bury(self.tr(), hand, k, restricted))
            }
            Phase::Playing => {
                // Not seen by this seat = the other hands, plus the kitty unless it buried it
                // (the pack minus its hand, the cards played and its own burial).
                let mut unseen =
                    if Some(self.to_move) == self.dealer { Multiset::EMPTY } else { self.kitty };
                for (q, h) in self.hands.iter().enumerate() {
                    if q != p {
                        unseen.add_all(h)?;
                    }
                }
                let view = policy::PlayView {
                    tr: self.tr(),
                    hand,
                    unseen: &unseen,
                    plays: self.current_trick(),
                    lead: &self.lead_format,
                };
                Move::Play(if self.played == 0 {
                    policy::lead(&view)
                } else {
                    policy::follow(&view)?
                })
            }
        })
    }

    /// The burial `policy` chooses for the dealer while keeping `keep` (a forced first lead)
    /// in hand; when `keep` is not held the burial is chosen from the whole hand (the lead is
    /// then refused when played).
    fn burial_keeping(&mut self, policy: Policy, keep: &Multiset) -> Result<Move> {
        let p = self.to_move as usize;
        let held = self.hands[p];
        let (_, k) = hand_and_kitty(self.rules.decks);
        if held.contains_all(keep) && held.len() - keep.len() >= k {
            self.hands[p].remove_all(keep)?;
        }
        let mv = match policy {
            Policy::Random => self.random_move(),
            Policy::Greedy => self.greedy_move(),
        };
        self.hands[p] = held;
        mv
    }

    /// Play the deal to the end with `policy` for every seat.
    pub fn play_out(&mut self, policy: Policy) -> Result<&DealResult> {
        while self.phase != Phase::Done {
            self.policy_step(policy)?;
        }
        Ok(self.result.as_ref().expect("done"))
    }

    /// Apply the move `policy` chooses for the seat to move.
    fn policy_step(&mut self, policy: Policy) -> Result<()> {
        let mv = match policy {
            Policy::Random => self.random_move()?,
            Policy::Greedy => self.greedy_move()?,
        };
        match mv {
            // Both policies draw follows from the legal follows: no second check.
            Move::Play(cards) if self.phase == Phase::Playing && self.played > 0 => {
                self.record_follow(cards)
            }
            _ => self.apply_move(mv),
        }
    }
}

/// The checks of [`Deal::new`] before any card is dealt.
fn check_start(rules: &ShengjiRules, dealer: Option<u8>) -> Result<()> {
    if let Some(d) = dealer.filter(|d| *d >= 4) {
        return Err(ZhipaiError::invalid_value("dealer", d, "players are 0..=3"));
    }
    if rules.play.throw_fail_penalty == ThrowPenalty::Structured {
        return Err(ZhipaiError::invalid_option(
            "throw_fail_penalty",
            "structured",
            "not implemented in the deal state yet",
        ));
    }
    Ok(())
}

fn point_kinds() -> CardSet {
    CardSet::rank_mask(Rank::FIVE) | CardSet::rank_mask(Rank::TEN) | CardSet::rank_mask(Rank::KING)
}

/// Card points of `m` (§7.1: 5 → 5, 10 and K → 10), by popcount over the count planes.
fn points_of(m: &Multiset) -> i32 {
    const FIVES: u64 = CardSet::rank_mask(Rank::FIVE).0;
    const TENS: u64 = CardSet::rank_mask(Rank::TEN).0 | CardSet::rank_mask(Rank::KING).0;
    m.planes()
        .iter()
        .map(|p| 5 * (p & FIVES).count_ones() + 10 * (p & TENS).count_ones())
        .sum::<u32>() as i32
}

/// Call `f` on every single-unit lead of `cards` (all of one effective suit or several): each
/// held kind as a single, each pair, each triple, then the runs of [`for_each_run`].
fn for_each_unit_lead(
    tr: &TrickRules,
    cards: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for mult in 1..=(tr.decks as usize).min(3) {
        for c in cards.at_least(mult) {
            let mut u = Multiset::EMPTY;
            for _ in 0..mult {
                u.add(c);
            }
            f(&u)?;
        }
    }
    for_each_run(tr, cards, f)
}

/// Call `f` on every tractor / Titanic run of `cards`: for multiplicity 2 and 3, from every held
/// kind, each extension along linked strength indices (one kind per index; §4.1–§4.2).
fn for_each_run(
    tr: &TrickRules,
    cards: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for mult in 2..=(tr.decks as usize).min(3) {
        let held = cards.at_least(mult);
        for start in held {
            let s = tr.order.suit(start);
            let mut run = Multiset::EMPTY;
            for _ in 0..mult {
                run.add(start);
            }
            let mut idx = tr.order.index(start);
            while tr.order.linked(s, idx) {
                let Some(next) = tr.order.kinds_at(s, idx + 1).intersect(held).first() else {
                    break;
                };
                for _ in 0..mult {
                    run.add(next);
                }
                idx += 1;
                f(&run)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of runs [`for_each_run`] visits, from index masks alone: a start kind at index `i`
/// of a maximal linked run of held indices `low..=top` extends to `top - i` runs.
fn count_runs(tr: &TrickRules, cards: &Multiset) -> u32 {
    let mut n = 0u32;
    for mult in 2..=(tr.decks as usize).min(3) {
        let held = cards.at_least(mult);
        if held.len() < 2 {
            break;
        }
        for s in 0..crate::order::NUM_EFFECTIVE_SUITS {
            let hs = held.intersect(tr.order.suit_mask(s));
            if hs.len() < 2 {
                continue;
            }
            let mask = tr.order.index_mask(s, hs);
            crate::combos::for_each_run(mask, tr.order.links(s), |low, len| {
                for k in 0..len.saturating_sub(1) {
                    let kinds = hs.intersect(tr.order.kinds_at(s, low + k)).len();
                    n += kinds * (len - 1 - k) as u32;
                }
            });
        }
    }
    n
}

/// Bit `s` set = the whole holding of effective suit `s` is a throw that may be led.
fn throw_suits(tr: &TrickRules, hand: &Multiset) -> u8 {
    let mut bits = 0u8;
    for s in 0..crate::order::NUM_EFFECTIVE_SUITS {
        let part = hand.restrict(tr.order.suit_mask(s));
        if part.len() < 2 || (s == TRUMP && !tr.trump_throw_allowed) {
            continue;
        }
        if !is_single_unit(tr, s, &part) {
            bits |= 1 << s;
        }
    }
    bits
}

/// Whether `part` (cards of effective suit `suit`) is one unit: one kind, or every kind held the
/// same number m ≥ 2 of times at distinct, consecutive, linked strength indices (a tractor or
/// Titanic, §4.1–§4.2). Anything else decomposes into several units, i.e. is a throw.
fn is_single_unit(tr: &TrickRules, suit: usize, part: &Multiset) -> bool {
    let kinds = part.kinds();
    let n = kinds.len() as usize;
    let Some(first) = kinds.first() else { return false };
    if n == 1 {
        return true;
    }
    let m = part.count(first);
    if m < 2 || part.exactly(m) != kinds {
        return false;
    }
    let idx = tr.order.index_mask(suit, kinds);
    if idx.count_ones() as usize != n {
        return false; // two kinds share an index (equal off-suit level cards)
    }
    let low = idx.trailing_zeros();
    let run = idx >> low;
    let need = ((1u32 << (n - 1)) - 1) << low;
    run & (run + 1) == 0 && tr.order.links(suit) & need == need
}

/// Call `f` on every lead candidate of the random policy: the single-unit leads of
/// [`for_each_unit_lead`], plus, per effective suit, the whole holding of that suit when it is a
/// throw (several units) and such a throw may be led.
pub fn for_each_lead_candidate(
    tr: &TrickRules,
    hand: &Multiset,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) {
    lead_candidates(tr, hand, throw_suits(tr, hand), f)
}

fn lead_candidates(
    tr: &TrickRules,
    hand: &Multiset,
    throws: u8,
    f: &mut dyn FnMut(&Multiset) -> ControlFlow<()>,
) {
    if for_each_unit_lead(tr, hand, f).is_break() {
        return;
    }
    for s in 0..crate::order::NUM_EFFECTIVE_SUITS {
        if throws & (1 << s) != 0 && f(&hand.restrict(tr.order.suit_mask(s))).is_break() {
            return;
        }
    }
}

/// A lead drawn uniformly from [`for_each_lead_candidate`]: singles, pairs and triples are
/// counted by popcount, only tractor runs are enumerated (no allocation).
pub fn sample_lead<R: Rng + ?Sized>(tr: &TrickRules, hand: &Multiset, rng: &mut R) -> Multiset {
    let throws = throw_suits(tr, hand);
    let tuples: [CardSet; 3] = std::array::from_fn(|m| {
        if m < tr.decks as usize {
            hand.at_least(m + 1)
        } else {
            CardSet::EMPTY
        }
    });
    let fixed: u32 = tuples.iter().map(|t| t.len()).sum();
    let runs = count_runs(tr, hand);
    let total = fixed + runs + throws.count_ones();
    let mut pick = rng.random_range(0..total.max(1));
    for (m, t) in tuples.iter().enumerate() {
        if pick < t.len() {
            let card = t.iter().nth(pick as usize).expect("pick < len");
            let mut u = Multiset::EMPTY;
            for _ in 0..=m {
                u.add(card);
            }
            return u;
        }
        pick -= t.len();
    }
    let mut out = Multiset::EMPTY;
    if pick < runs {
        let _ = for_each_run(tr, hand, &mut |r| {
            if pick == 0 {
                out = *r;
                return ControlFlow::Break(());
            }
            pick -= 1;
            ControlFlow::Continue(())
        });
        return out;
    }
    pick -= runs;
    for s in 0..crate::order::NUM_EFFECTIVE_SUITS {
        if throws & (1 << s) != 0 {
            if pick == 0 {
                return hand.restrict(tr.order.suit_mask(s));
            }
            pick -= 1;
        }
    }
    out
}

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

/// Result columns of [`DealSimulator`] for Shengji (one random hand 1 at level 2).
const COLUMNS: [Column; 13] = [
    Column { name: "dealer", doc: "dealer seat 0..3" },
    Column { name: "trump", doc: "trump suit 0..3 (S H D C), 4 = no-trump" },
    Column { name: "level", doc: "level rank index 0..12 (0 = 2)" },
    Column { name: "declarations", doc: "accepted declarations during the deal" },
    Column { name: "attacker_points", doc: "attackers' final total P (tricks + kitty + penalty)" },
    Column { name: "trick_points", doc: "attacker points won in tricks" },
    Column { name: "kitty_points", doc: "points buried in the kitty" },
    Column {
        name: "kitty_multiplier",
        doc: "kitty multiplier, 0 when the dealer team won the last trick",
    },
    Column { name: "side", doc: "0 = dealer team gains, 1 = attackers take over" },
    Column { name: "levels", doc: "levels gained by that side" },
    Column { name: "take_over", doc: "1 when the attackers deal next" },
    Column { name: "tricks", doc: "tricks played" },
    Column { name: "failed_throws", doc: "throws reduced to their forced component" },
];

/// The JJ column, present when `jj_scoring` is on.
const JJ_COLUMN: Column =
    Column { name: "jj_score", doc: "JJ 防方计分 in units of 基数 (S001, shengji.md §8.4)" };

impl DealSimulator for ShengjiRules {
    /// The 13 columns of [`COLUMNS`], plus `jj_score` when `jj_scoring` is on.
    fn columns(&self) -> Vec<Column> {
        let mut cols = COLUMNS.to_vec();
        if self.scoring.jj_scoring {
            cols.push(JJ_COLUMN);
        }
        cols
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
    fn deal_shape(&self) -> Option<DealShape> {
        let (hand, kitty) = hand_and_kitty(self.decks);
        DealShape::new(self.decks as usize, true, &[hand; NUM_PLAYERS], kitty).ok()
    }

    /// Shengji reading of the hook (hand 1 at level 2, as [`DealSimulator::play_deal`]): the
    /// given hands are received card by card in a random order, with declarations as they come
    /// in ([`Deal::from_hands`]). `start.dealer = Some(s)` makes seat `s` the dealer and first
    /// drawer (a later hand); `None` lets the declarations decide (hand 1).
    ///
    /// A candidate (`start.first_action`) is a card multiset for `start.seat`:
    /// * empty: pass at its first declaration opportunity;
    /// * exactly the kitty size (8 with 2 decks) while the seat is the dealer: its burial (§2.4);
    /// * anything else: its first play (its lead when it is the dealer leading trick 1, else its
    ///   first follow or lead), after the policy's burial when it is the dealer (chosen from
    ///   the cards other than the candidate's, so that the lead stays possible).
    ///
    /// An illegal forced action is an `IllegalPlay` naming it; a deal that does not have the
    /// shape of [`DealSimulator::deal_shape`] or a dealer outside 0..4 is an `InvalidValue`.
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<()> {
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
        let mut deal = Deal::from_hands(self, Rank::TWO, dealer, &hands, &start.deal.kitty, rng)?;
        let (_, kitty_size) = hand_and_kitty(self.decks);
        let mut forced = start.first_action.copied();
        while !deal.is_terminal() {
            let mv = match forced {
                Some(m) if deal.to_move as usize == start.seat => match deal.phase {
                    Phase::Dealing => m.is_empty().then_some(Move::Pass),
                    Phase::Burying if m.len() == kitty_size => Some(Move::Bury(m)),
                    Phase::Burying => Some(deal.burial_keeping(policy, &m)?),
                    Phase::Playing => Some(Move::Play(m)),
                    Phase::Done => None,
                },
                _ => None,
            };
            match mv {
                Some(Move::Bury(b)) if forced.is_some_and(|m| m.len() != kitty_size) => {
                    deal.apply(Move::Bury(b))?; // the policy's burial; the lead is still forced
                }
                Some(mv) => {
                    forced = None;
                    deal.apply(mv)?;
                }
                None => deal.policy_step(policy)?,
            }
        }
        let r = *deal.result().expect("done");
        self.write_row(&r, row);
        Ok(())
    }
}

impl ShengjiRules {
    fn check_row(&self, row: &[i32]) -> Result<()> {
        let n = COLUMNS.len() + self.scoring.jj_scoring as usize;
        if row.len() != n {
            return Err(ZhipaiError::invalid_value(
                "row length",
                row.len(),
                format!("expected {n}"),
            ));
        }
        Ok(())
    }

    /// One result row of [`COLUMNS`] (plus `jj_score`).
    fn write_row(&self, r: &DealResult, row: &mut [i32]) {
        let values = [
            r.dealer as i32,
            r.trump.map_or(4, |s| s.index() as i32),
            0,
            r.declarations as i32,
            r.attacker_points,
            r.trick_points,
            r.kitty_points,
            r.kitty_multiplier as i32,
            (r.change.side == Side::Attackers) as i32,
            r.change.levels as i32,
            r.change.take_over as i32,
            r.tricks as i32,
            r.failed_throws as i32,
        ];
        row[..COLUMNS.len()].copy_from_slice(&values);
        if let Some(jj) = self.scoring.jj_score(r.attacker_points) {
            row[COLUMNS.len()] = jj;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::OptionValue;
    use crate::rollout::deal_rng;
    use proptest::prelude::*;
    use rand::Rng;

    fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
        let o: Vec<(String, OptionValue)> =
            opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        ShengjiRules::from_preset(preset, &o).unwrap()
    }

    fn conserved(deal: &Deal) {
        let r = deal.result().unwrap();
        // Every card went somewhere: hands empty, kitty of the right size.
        assert!(deal.hands.iter().all(|h| h.is_empty()));
        let (_, k) = hand_and_kitty(deal.rules.decks);
        assert_eq!(deal.kitty.len(), k);
        assert_eq!(
            r.trick_points + r.dealer_team_points + r.kitty_points,
            100 * deal.rules.decks as i32
        );
        assert_eq!(
            r.attacker_points,
            r.trick_points + r.kitty_points * r.kitty_multiplier as i32 + r.penalty
        );
    }

    #[test]
    fn random_deals_terminate_for_every_deck_count() {
        for (preset, decks) in
            [("tractor", 1), ("tractor", 2), ("eighty_points", 3), ("tractor_jj", 2)]
        {
            let r = rules(preset, &[("decks", OptionValue::Int(decks))]);
            for i in 0..20 {
                let mut rng = deal_rng(7, i);
                let mut d = Deal::new(&r, Rank::TWO, None, &mut rng).unwrap();
                d.play_out(Policy::Random).unwrap();
                conserved(&d);
            }
        }
    }

    #[test]
    fn dealing_gives_every_card_once() {
        let r = rules("tractor", &[]);
        let mut d = Deal::new(&r, Rank::FIVE, Some(2), &mut deal_rng(1, 0)).unwrap();
        while d.phase() == Phase::Dealing {
            d.apply(Move::Pass).unwrap();
        }
        assert_eq!(d.dealer(), Some(2));
        let mut all = Multiset::EMPTY;
        for h in &d.hands {
            all.add_all(h).unwrap();
        }
        assert_eq!(all.len(), 25 * 4 + 8);
        assert_eq!(all, Multiset::full_decks(2, true).unwrap());
        // Nobody declared: no-trump; the dealer holds 33 cards.
        assert_eq!(d.trump(), Some(None));
        assert_eq!(d.hand(2).len(), 33);
    }

    #[test]
    fn declaration_decides_the_hand_one_dealer_and_trump() {
        let r = rules("tractor", &[]);
        for seed in 0..30 {
            let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(3, seed)).unwrap();
            let mut last = None;
            while d.phase() == Phase::Dealing {
                let bids = d.legal_bids();
                assert!(!bids.is_empty(), "a decision is asked only with a legal bid");
                let bid = *bids.last().unwrap();
                last = Some((d.current_player().unwrap(), bid));
                d.apply(Move::Declare(bid)).unwrap();
            }
            let (p, bid) = last.unwrap();
            assert_eq!(d.dealer(), Some(p));
            assert_eq!(d.trump(), Some(bid.trump()));
        }
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason() {
        let r = rules("tractor", &[]);
        let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(5, 0)).unwrap();
        while d.phase() == Phase::Dealing {
            d.apply(Move::Pass).unwrap();
        }
        let err = d.apply(Move::Bury("2H".parse().unwrap())).unwrap_err();
        assert!(err.to_string().contains("exactly 8"), "{err}");
        let err = d.apply(Move::Play("2H".parse().unwrap())).unwrap_err();
        assert!(err.to_string().contains("Burying"), "{err}");
        let bury = d.random_move().unwrap();
        d.apply(bury).unwrap();
        assert_eq!(d.phase(), Phase::Playing);
        let hand = d.hand(0);
        let missing = Card::all().find(|c| hand.count(*c) == 0).unwrap();
        let err = d.apply(Move::Play(Multiset::from_set(CardSet::single(missing)))).unwrap_err();
        assert!(err.to_string().contains("does not hold"), "{err}");
    }

    #[test]
    fn card_by_card_matches_structured_moves() {
        let r = rules("tractor", &[]);
        for seed in 0..6 {
            let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(11, seed)).unwrap();
            let mut guard = 0;
            while !d.is_terminal() {
                guard += 1;
                assert!(guard < 5000);
                // Build the random policy's move card by card.
                let mv = d.random_move().unwrap();
                let (cards, stop) = match mv {
                    Move::Pass => (Multiset::EMPTY, true),
                    Move::Declare(b) => {
                        (Multiset::from_cards(&vec![b.card; b.count as usize]).unwrap(), true)
                    }
                    Move::Bury(m) => (m, false),
                    Move::Play(m) => (m, d.current_trick().is_empty()),
                };
                let mut want = cards;
                // A failed throw is reduced by the engine; the lead as built is the whole throw.
                while !want.is_empty() {
                    let c = want.kinds().first().unwrap();
                    let mask = d.legal_action_mask();
                    assert!(mask & c.bit() != 0, "{c} not offered while building {mv:?}");
                    want.remove(c);
                    d.apply_action(c.index()).unwrap();
                }
                if stop {
                    assert!(d.legal_action_mask() & (1 << STOP) != 0);
                    d.apply_action(STOP).unwrap();
                }
            }
            assert!(d.result().is_some());
        }
    }

    #[test]
    fn follow_mask_is_the_union_of_legal_follows() {
        let r = rules("tractor", &[]);
        let mut d = Deal::new(&r, Rank::TWO, Some(1), &mut deal_rng(2, 9)).unwrap();
        while d.phase() != Phase::Playing {
            let mv = d.random_move().unwrap();
            d.apply(mv).unwrap();
        }
        let mv = d.random_move().unwrap();
        d.apply(mv).unwrap();
        let format = d.lead_format;
        let hand = d.hand(d.current_player().unwrap());
        let moves = FollowMoves::new(d.tr(), &format, &hand).unwrap();
        let mut union = 0u64;
        for p in moves.enumerate(usize::MAX) {
            union |= p.kinds().0;
        }
        assert_eq!(d.legal_action_mask(), union);
    }

    #[test]
    fn single_unit_check_agrees_with_decompose() {
        let r = rules("tractor", &[("decks", OptionValue::Int(3))]);
        let mut rng = deal_rng(8, 0);
        for level in [Rank::TWO, Rank::FIVE, Rank::ACE] {
            for trump in [None, Some(Suit::Hearts)] {
                let tr = r.play.trick_rules(3, level, trump);
                for _ in 0..300 {
                    // Random small holdings of one effective suit.
                    let s = rng.random_range(0..5usize);
                    let kinds: Vec<Card> = tr.order.suit_mask(s).iter().collect();
                    if kinds.is_empty() {
                        continue; // the trump suit's own side suit
                    }
                    let mut part = Multiset::EMPTY;
                    let n = rng.random_range(1..7).min(kinds.len());
                    let start = rng.random_range(0..kinds.len());
                    let m = rng.random_range(1..=3);
                    for c in kinds.iter().cycle().skip(start).take(n) {
                        for _ in 0..rng.random_range(m..=3).min(3) {
                            part.add(*c);
                        }
                    }
                    let want = !crate::combos::decompose(&part, &tr.order, tr.decomposition)
                        .unwrap()
                        .is_throw();
                    assert_eq!(is_single_unit(&tr, s, &part), want, "{part} level {level}");
                }
            }
        }
    }

    #[test]
    fn single_lead_fast_follow_covers_the_legal_follows() {
        let r = rules("tractor", &[]);
        for seed in 0..40 {
            let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(6, seed)).unwrap();
            while d.phase() != Phase::Playing {
                let mv = d.random_move().unwrap();
                d.apply(mv).unwrap();
            }
            let lead = d.hand(0).kinds().first().unwrap();
            d.apply(Move::Play(Multiset::from_set(CardSet::single(lead)))).unwrap();
            let format = d.lead_format;
            let hand = d.hand(1);
            let legal: Vec<Multiset> =
                FollowMoves::new(d.tr(), &format, &hand).unwrap().enumerate(usize::MAX);
            let mut seen = std::collections::HashSet::new();
            for _ in 0..400 {
                let Move::Play(p) = d.random_move().unwrap() else { panic!() };
                assert!(legal.contains(&p), "{p} not legal");
                seen.insert(p);
            }
            assert_eq!(seen.len(), legal.len(), "every legal single follow is drawn");
        }
    }

    /// Play a deal with `greedy[seat]` choosing the greedy move (checked through `apply`, which
    /// refuses illegal moves) and random moves elsewhere; returns the attackers' total.
    fn mixed_deal(r: &ShengjiRules, seed: u64, greedy: impl Fn(u8, u8) -> bool) -> i32 {
        let mut d =
            Deal::new(r, Rank::TWO, Some((seed % 4) as u8), &mut deal_rng(seed, 7)).unwrap();
        while !d.is_terminal() {
            let p = d.current_player().unwrap();
            let mv = if greedy(p, d.dealer().unwrap()) {
                d.greedy_move().unwrap()
            } else {
                d.random_move().unwrap()
            };
            d.apply(mv).unwrap_or_else(|e| panic!("seed {seed}: {mv:?} refused: {e}"));
        }
        d.result().unwrap().attacker_points
    }

    #[test]
    fn greedy_moves_are_legal_under_many_rules() {
        let cases: [(&str, Vec<(&str, OptionValue)>); 5] = [
            ("tractor", vec![]),
            ("tractor", vec![("decks", OptionValue::Int(1))]),
            ("eighty_points", vec![("decks", OptionValue::Int(3))]),
            ("tractor_jj", vec![("kitty_bury_restrictions", OptionValue::Str("no_points".into()))]),
            ("tractor", vec![("trump_throw_allowed", OptionValue::Bool(false))]),
        ];
        for (preset, opts) in cases {
            let r = rules(preset, &opts);
            for seed in 0..6 {
                let pts = mixed_deal(&r, seed, |_, _| true);
                assert!(pts % 5 == 0, "{preset}: {pts}");
            }
        }
    }

    #[test]
    fn greedy_burial_avoids_points_and_trumps() {
        let r = rules("tractor", &[]);
        for seed in 0..20 {
            let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(seed, 3)).unwrap();
            while d.phase() == Phase::Dealing {
                let mv = d.greedy_move().unwrap();
                d.apply(mv).unwrap();
            }
            let hand = d.hand(0);
            let Move::Bury(b) = d.greedy_move().unwrap() else { panic!("a burial") };
            let tr = d.tr();
            let plain = hand.iter().filter(|&c| !tr.order.is_trump(c) && c.points() == 0).count();
            let buried_plain =
                b.iter().filter(|&c| !tr.order.is_trump(c) && c.points() == 0).count();
            assert_eq!(buried_plain, plain.min(8), "seed {seed}: {b} from {hand}");
            d.apply(Move::Bury(b)).unwrap();
        }
    }

    /// Mean and standard error of the attackers' totals.
    fn mean_se(v: &[i32]) -> (f64, f64) {
        let n = v.len() as f64;
        let m = v.iter().map(|&x| x as f64).sum::<f64>() / n;
        let var = v.iter().map(|&x| (x as f64 - m).powi(2)).sum::<f64>() / (n - 1.0);
        (m, (var / n).sqrt())
    }

    #[test]
    fn greedy_teams_beat_random_teams() {
        let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
        let n = 300;
        let attackers = |p: u8, dealer: u8| (p + 4 - dealer) % 2 == 1;
        let random: Vec<i32> = (0..n).map(|s| mixed_deal(&r, s, |_, _| false)).collect();
        let greedy_defence: Vec<i32> =
            (0..n).map(|s| mixed_deal(&r, s, |p, d| !attackers(p, d))).collect();
        let greedy_attack: Vec<i32> = (0..n).map(|s| mixed_deal(&r, s, attackers)).collect();
        let (m0, s0) = mean_se(&random);
        let (m1, s1) = mean_se(&greedy_defence);
        let (m2, s2) = mean_se(&greedy_attack);
        let z = |a: f64, sa: f64, b: f64, sb: f64| (a - b) / (sa * sa + sb * sb).sqrt();
        assert!(z(m0, s0, m1, s1) > 3.0, "greedy defenders keep points: {m0:.1} vs {m1:.1}");
        assert!(z(m2, s2, m0, s0) > 3.0, "greedy attackers win points: {m2:.1} vs {m0:.1}");
    }

    /// A deal of `rules` split as `play_from_deal` expects, from a shuffled pack.
    fn sampled_deal(r: &ShengjiRules, seed: u64) -> crate::deal::Deal {
        crate::deal::deal(&r.deal_shape().unwrap(), &mut deal_rng(seed, 0))
    }

    #[test]
    fn play_from_deal_uses_the_hands_and_forces_the_first_action() {
        let r = rules("tractor", &[]);
        let deal = sampled_deal(&r, 5);
        let hands: [Multiset; 4] = deal.hands.clone().try_into().unwrap();
        // The hands are dealt unchanged, whatever the order of reception.
        let d = Deal::from_hands(&r, Rank::TWO, Some(2), &hands, &deal.kitty, &mut deal_rng(1, 1))
            .unwrap();
        let mut d2 = d.clone();
        while d2.phase() == Phase::Dealing {
            d2.apply(Move::Pass).unwrap();
        }
        for p in 0..4u8 {
            let mut want = hands[p as usize];
            if p == 2 {
                want.add_all(&deal.kitty).unwrap();
            }
            assert_eq!(d2.hand(p), want, "seat {p}");
        }
        let cols = r.columns().len();
        let run = |start: &StartingDeal<'_>, policy: Policy| {
            let mut row = vec![0; cols];
            r.play_from_deal(policy, start, &mut deal_rng(9, 9), &mut row).map(|_| row)
        };
        let base = StartingDeal::new(&deal, 2).with_dealer(Some(2));
        for policy in [Policy::Random, Policy::Greedy] {
            assert_eq!(run(&base, policy).unwrap(), run(&base, policy).unwrap(), "reproducible");
            assert_eq!(run(&base, policy).unwrap()[0], 2, "the dealer is fixed");
        }
        // A burial of 8 held cards is applied: the kitty then holds their points.
        let mut burial = Multiset::EMPTY;
        for c in hands[2].iter().filter(|c| c.points() > 0).take(8) {
            burial.add(c);
        }
        if burial.len() == 8 {
            let row = run(&base.with_first_action(Some(&burial)), Policy::Greedy).unwrap();
            assert_eq!(row[6] as u32, burial.iter().map(|c| c.points()).sum::<u32>());
        }
        // A single-card first lead from the dealer's hand is applied; one it lacks is refused.
        let card = hands[2].kinds().first().unwrap();
        let lead = Multiset::from_set(CardSet::single(card));
        assert!(run(&base.with_first_action(Some(&lead)), Policy::Random).is_ok());
        let missing = Card::all().find(|&c| hands[2].count(c) == 0 && deal.kitty.count(c) == 0);
        if let Some(c) = missing {
            let bad = Multiset::from_set(CardSet::single(c));
            let e = run(&base.with_first_action(Some(&bad)), Policy::Random).unwrap_err();
            assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
        }
        // Wrong shapes are refused.
        let wrong = crate::deal::Deal { hands: deal.hands[..3].to_vec(), kitty: deal.kitty };
        assert!(run(&StartingDeal::new(&wrong, 0), Policy::Random).is_err());
        assert!(run(&base.with_dealer(Some(4)), Policy::Random).is_err());
    }

    #[test]
    fn count_runs_matches_the_enumeration() {
        for seed in 0..300u64 {
            let decks = 1 + (seed % 3) as i64;
            let r = rules("tractor", &[("decks", OptionValue::Int(decks))]);
            let mut d = Deal::new(
                &r,
                Rank::from_index((seed % 13) as u8).unwrap(),
                Some(0),
                &mut deal_rng(seed, 1),
            )
            .unwrap();
            while d.phase() == Phase::Dealing {
                let mv = d.random_move().unwrap();
                d.apply(mv).unwrap();
            }
            let tr = d.tr().clone();
            for p in 0..4 {
                let hand = d.hand(p);
                let mut n = 0u32;
                let _ = for_each_run(&tr, &hand, &mut |_| {
                    n += 1;
                    ControlFlow::Continue(())
                });
                assert_eq!(count_runs(&tr, &hand), n, "seed {seed} hand {hand}");
            }
        }
    }

    #[test]
    fn sample_lead_draws_every_candidate() {
        let r = rules("tractor", &[]);
        let tr = r.play.trick_rules(2, Rank::TWO, Some(Suit::Spades));
        let hand: Multiset = "3H 3H 4H 4H 5H 9H 2S 2S AS AS SJ BJ BJ 7C".parse().unwrap();
        let mut cands = Vec::new();
        for_each_lead_candidate(&tr, &hand, &mut |c| {
            cands.push(*c);
            ControlFlow::Continue(())
        });
        // The tractor 3H3H4H4H and the whole heart holding (a throw) are candidates; AS AS and
        // 2S 2S do not chain (trump A → off-suit level → trump level, §4.2).
        assert!(cands.contains(&"3H 3H 4H 4H".parse().unwrap()));
        assert!(cands.contains(&"3H 3H 4H 4H 5H 9H".parse().unwrap()));
        assert!(!cands.contains(&"AS AS 2S 2S".parse().unwrap()));
        let mut rng = deal_rng(3, 3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..3000 {
            let l = sample_lead(&tr, &hand, &mut rng);
            assert!(cands.contains(&l), "{l} is not a candidate");
            seen.insert(l);
        }
        assert_eq!(seen.len(), cands.len());
    }

    #[test]
    fn points_by_planes_match_card_points() {
        for text in ["", "5H", "5H 5H 10S KD KD KD 3C BJ", "AS 2S 4D"] {
            let m: Multiset = text.parse().unwrap();
            assert_eq!(points_of(&m), m.iter().map(|c| c.points() as i32).sum::<i32>(), "{text}");
        }
        assert_eq!(points_of(&Multiset::full_decks(3, true).unwrap()), 300);
    }

    #[test]
    fn no_declaration_and_dealer_options() {
        // Everybody passes: random_suit gives a suit, flip_kitty the kitty's first level card.
        let pass_all = |r: &ShengjiRules, seed: u64| {
            let mut d = Deal::new(r, Rank::TWO, None, &mut deal_rng(21, seed)).unwrap();
            while d.phase() == Phase::Dealing {
                d.apply(Move::Pass).unwrap();
            }
            d
        };
        let r = rules("tractor", &[("no_declaration", OptionValue::Str("random_suit".into()))]);
        let suits: std::collections::HashSet<_> =
            (0..40).map(|i| pass_all(&r, i).trump().unwrap()).collect();
        assert!(!suits.contains(&None) && suits.len() == 4, "{suits:?}");
        let r = rules("tractor", &[("no_declaration", OptionValue::Str("flip_kitty".into()))]);
        for i in 0..20 {
            let d = pass_all(&r, i);
            let kitty = &d.stock[100..108];
            assert_eq!(d.trump().unwrap(), flip_kitty_trump(kitty, Rank::TWO));
        }
        // first_hand_dealer=first_declarer: the first bidder deals even when overcalled.
        let r =
            rules("tractor", &[("first_hand_dealer", OptionValue::Str("first_declarer".into()))]);
        for seed in 0..20 {
            let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(22, seed)).unwrap();
            let mut first = None;
            while d.phase() == Phase::Dealing {
                let bid = *d.legal_bids().last().unwrap();
                first.get_or_insert(d.current_player().unwrap());
                d.apply(Move::Declare(bid)).unwrap();
            }
            assert_eq!(d.dealer(), first);
        }
        // no_declaration_dealer=first_drawer: the first drawer deals hand 1.
        let r =
            rules("tractor", &[("no_declaration_dealer", OptionValue::Str("first_drawer".into()))]);
        for seed in 0..10 {
            let d = pass_all(&r, seed);
            assert_eq!(d.dealer(), Some(d.first_drawer));
        }
    }

    #[test]
    fn jj_column() {
        let r = rules("tractor_jj", &[]);
        let cols = r.columns();
        assert_eq!(cols.last().unwrap().name, "jj_score");
        let mut row = vec![0; cols.len()];
        r.play_deal(Policy::Random, &mut deal_rng(5, 5), &mut row).unwrap();
        assert_eq!(row[13], super::super::scoring::jj_score(row[4], r.scoring.jj_small_score));
        assert!(r.play_deal(Policy::Random, &mut deal_rng(5, 5), &mut row[..13]).is_err());
    }

    #[test]
    fn burial_restriction_is_enforced() {
        let r =
            rules("tractor", &[("kitty_bury_restrictions", OptionValue::Str("no_points".into()))]);
        for seed in 0..10 {
            let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(4, seed)).unwrap();
            while d.phase() == Phase::Dealing {
                d.apply(Move::Pass).unwrap();
            }
            let mv = d.random_move().unwrap();
            let Move::Bury(b) = mv else { panic!() };
            assert_eq!(b.count_in(point_kinds()), 0);
            let pts: Vec<Card> = d.hand(0).restrict(point_kinds()).iter().take(8).collect();
            if pts.len() == 8 {
                let bad = Multiset::from_cards(&pts).unwrap();
                assert!(d.apply(Move::Bury(bad)).is_err());
            }
            d.apply(mv).unwrap();
        }
    }

    #[test]
    fn a_match_ends_and_rotates_the_deal() {
        let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
        let mut m = Match::new(&r);
        let mut rng = deal_rng(9, 0);
        while m.winner.is_none() && m.hands < 400 {
            let mut d = m.next_deal(&mut rng).unwrap();
            let dealer_before = m.dealer;
            d.play_out(Policy::Random).unwrap();
            let res = *d.result().unwrap();
            m.record(&d).unwrap();
            if let Some(prev) = dealer_before {
                assert_eq!(res.dealer, prev);
            }
            let next = m.dealer.unwrap();
            let expect =
                if res.change.take_over { (res.dealer + 1) % 4 } else { (res.dealer + 2) % 4 };
            assert_eq!(next, expect);
        }
        assert!(m.winner.is_some(), "a random 1-deck match ends within 400 hands");
        assert!(m.next_deal(&mut rng).is_err());
    }

    #[test]
    fn simulator_row() {
        let r = rules("tractor", &[]);
        let mut row = vec![0; r.columns().len()];
        r.play_deal(Policy::Random, &mut deal_rng(1, 1), &mut row).unwrap();
        assert!((0..4).contains(&row[0]) && (0..=4).contains(&row[1]));
        let mut greedy = vec![0; row.len()];
        r.play_deal(Policy::Greedy, &mut deal_rng(1, 1), &mut greedy).unwrap();
        let mut greedy_again = vec![0; row.len()];
        r.play_deal(Policy::Greedy, &mut deal_rng(1, 1), &mut greedy_again).unwrap();
        assert_eq!(greedy, greedy_again, "the greedy player is deterministic");
        let mut again = vec![0; row.len()];
        r.play_deal(Policy::Random, &mut deal_rng(1, 1), &mut again).unwrap();
        assert_eq!(row, again, "reproducible from the seed");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn every_random_deal_terminates_and_conserves(seed in any::<u64>(), decks in 1i64..=3, jj in any::<bool>()) {
            let preset = if jj && decks == 2 { "tractor_jj" } else { "tractor" };
            let r = rules(preset, &[("decks", OptionValue::Int(decks))]);
            let mut d = Deal::new(&r, Rank::from_index((seed % 13) as u8).unwrap(), None, &mut deal_rng(seed, 0)).unwrap();
            d.play_out(Policy::Random).unwrap();
            conserved(&d);
            let res = d.result().unwrap();
            // A hand of n cards needs between n / (longest play) and n tricks.
            prop_assert!(res.tricks as usize <= hand_and_kitty(r.decks).0);
            prop_assert!(res.tricks >= 1);
        }
    }
}
