//! One whole Shengji deal as a state machine (shengji.md §1–§8). A match of deals is in
//! [`super::session`], the simulator rows in [`super::simulator`], the random policy's lead
//! candidates in [`crate::tricks::lead_candidates`].
//!
//! Phases of a [`Deal`]:
//! 1. **Dealing** (§1.1, §2.2): cards are drawn one at a time counter-clockwise from the first
//!    drawer (the dealer, or a random player in hand 1). After each card the receiver may declare
//!    or overcall with the cards received so far; after the last card every player gets one more
//!    chance (the final round). A decision is asked only when the player has a legal bid: a
//!    player without one passes automatically.
//!    On the joker-only level (`after_A = no_trump_level`) nobody declares: no decisions here.
//! 2. **Burying** (§2.3–§2.4): trump is fixed (the final declaration; if nobody declared, the
//!    `no_declaration` rule), the dealer is fixed (hand 1: `first_hand_dealer`), the dealer takes
//!    the kitty and buries the same number of cards.
//! 3. **Chaodi** (only with option `chaodi`, §2.2; sequence in [`super::chaodi`]): after a
//!    burial the other seats with a legal overcall are offered in turn; an overcall changes the
//!    trump and sends the overcaller back to phase 2 with the kitty; the dealer never changes.
//! 4. **Playing** (§4–§7): the dealer leads trick 1; each trick's winner leads the next. A throw
//!    is checked at once against the other hands (full information) and reduced to its forced
//!    component when it fails, charged `throw_fail_penalty`. Points go to the attackers when an
//!    attacker wins the trick; the kitty's points × multiplier go to them when they win the last
//!    trick.
//! 5. **Done**: [`Deal::result`] has the attackers' total and the level change (§8).
//!
//! Moves: [`Move`] is the structured move (a bid, a burial, a play = card multiset). The same
//! decisions are also offered card by card ([`Deal::legal_action_mask`], [`Deal::apply_action`]):
//! action `c` in 0..54 adds one card of kind `c` to the bid/burial/play being built, action
//! [`STOP`] (54) ends a bid, while dealing or in a 炒底 offer ("pass" when empty), or a lead.
//! Burials and follows end by themselves when they have the right number of cards. The mask has
//! exactly the actions that can still be completed to a legal move.
//!
//! Seats are 0..4 counter-clockwise; the partner of `p` is `(p + 2) % 4`.

use super::basic;
use super::chaodi::{chaodi_follows, ChaodiRound};
use super::declare::{
    first_hand_dealer, flip_kitty_trump, Bid, Declaring, KittyBuryRestrictions, NoDeclaration,
};
pub use super::moves::Move;
use super::options::throw_penalty;
use super::scoring::{AfterA, Level, LevelChange, Side};
use super::ShengjiRules;
use crate::cards::{Card, CardSet, Rank, Suit, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::sample::below;
use crate::tricks::building;
use crate::tricks::combos::{decompose_into, single_card, Format};
use crate::tricks::order::TRUMP;
use crate::tricks::winner::{one_kind_unit, trick_winner_of, tuple_winner};
use crate::tricks::{check_lead_into, check_throw, FollowMoves, TrickRules};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
    /// 炒底 offers after a burial (option `chaodi`, [`super::chaodi`]): the player to move
    /// may overcall (then takes the kitty and buries) or pass.
    Chaodi,
    Playing,
    Done,
}

impl Phase {
    /// The contract's phase (one vocabulary for every game; its `name()` is what messages show).
    pub fn shared(self) -> crate::game::Phase {
        use crate::game::Phase as P;
        match self {
            Phase::Dealing => P::Dealing,
            Phase::Burying => P::Burying,
            Phase::Chaodi => P::Chaodi,
            Phase::Playing => P::Play,
            Phase::Done => P::Done,
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
    /// Accepted declarations (bids) in the deal, 炒底 overcalls included.
    pub declarations: u16,
    /// 炒底 overcalls after the first burial (option `chaodi`).
    pub chaodi: u16,
    /// The attackers won the last trick with a single J (read by `jack_back_to_two`, §8.5).
    pub last_trick_single_jack: bool,
}

/// One deal from the shuffle to the level change. `Clone` gives an independent copy (chance
/// events after the clone are drawn from the copied generator, so both copies replay alike).
#[derive(Clone, Debug)]
pub struct Deal {
    rules: ShengjiRules,
    /// The level rank; `None` on the joker-only level after A (`after_A = no_trump_level`).
    level: Option<Rank>,
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
    /// The seat that buried the kitty (the dealer, or the last 炒底 overcaller).
    kitty_owner: u8,
    /// The 炒底 round in progress (phase [`Phase::Chaodi`]).
    chaodi_round: Option<ChaodiRound>,
    /// 炒底 overcalls so far.
    chaodis: u16,
    tr: Option<Box<TrickRules>>,
    leader: u8,
    plays: [Multiset; NUM_PLAYERS],
    played: u8,
    /// The format of the current trick's lead (meaningful while `played > 0`), written in place.
    lead_format: Format,
    /// Card points of the current trick's plays so far, added as each play is taken (where a
    /// single card's points are one look-up), so the trick's end reads one number.
    trick_card_points: i32,
    trick_points: i32,
    dealer_team_points: i32,
    penalty: i32,
    tricks: u16,
    failed_throws: u16,
    /// The bid / burial / play being built card by card.
    building: Multiset,
    /// Per player: effective suits (bit s) it has shown void in, in completed tricks
    /// (position evaluation, [`position`]).
    shown_voids: [u8; NUM_PLAYERS],
    /// Per seat, every card it has played (completed tricks and the current one): out of play.
    played_by: [Multiset; NUM_PLAYERS],
    /// Per player: cards every seat knows to be in its hand — shown in a declaration (until the
    /// player buries: they may be in the kitty then) or in a failed throw — minus what it has
    /// played since (one copy per card played, [`Deal::known_in_hand`]).
    shown: [Multiset; NUM_PLAYERS],
    /// Card points won in completed tricks, per seat (§7.1).
    won: [i32; NUM_PLAYERS],
    /// The declarations made while dealing, in order, with the number of cards dealt then
    /// (worlds place the declared cards among those received by then).
    bids: BidLog,
    /// The last burial made (by `kitty_owner`): the kitty while it lies buried, or what a 炒底
    /// overcaller picked up while it buries again; empty before the first burial.
    last_burial: Multiset,
    result: Option<DealResult>,
    rng: ChaCha8Rng,
    /// The ticket [`super::Match::next_deal`] gave this deal (`None` for deals made elsewhere),
    /// so the match records only the deal it handed out, once.
    pub(crate) match_ticket: Option<u64>,
}

impl Deal {
    /// A new deal at `level` (the dealer team's level: a [`Rank`], or a [`Level`], which may be
    /// the joker-only level [`Level::NO_TRUMP`] after A). `dealer` is `None` for hand 1 (the
    /// first drawer is random and the declaration decides the dealer) and the seat of the dealer
    /// in later hands. All chance (shuffle, random dealer, random suit) comes from `rng`.
    ///
    /// On the joker-only level (§8.5 `after_A = no_trump_level`; RB `MaxRank = NoTrump`, 3DM
    /// "打王，即无主") nobody declares (RB: no bidding), there is no level rank and the hand is
    /// no-trump with only the jokers as trumps ([`super::options::PlayOptions::trick_rules_at`]);
    /// `no_declaration` does not apply there.
    ///
    /// Errors: `InvalidValue` for a dealer seat outside 0..4, or the joker-only level when
    /// `after_A` is not `no_trump_level`.
    pub fn new(
        rules: &ShengjiRules,
        level: impl Into<Level>,
        dealer: Option<u8>,
        rng: &mut impl RngCore,
    ) -> Result<Deal> {
        let level = check_start(rules, level.into(), dealer)?;
        let mut rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        let decks = rules.decks;
        let mut stock = [Card::SMALL_JOKER; 3 * NUM_KINDS];
        let size = NUM_KINDS * decks as usize;
        for (i, slot) in stock[..size].iter_mut().enumerate() {
            *slot = Card::from_index(i % NUM_KINDS).expect("i % 54 is a kind");
        }
        shuffle(&mut stock[..size], &mut rng);
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
        level: impl Into<Level>,
        dealer: Option<u8>,
        hands: &[Multiset; NUM_PLAYERS],
        kitty: &Multiset,
        rng: &mut impl RngCore,
    ) -> Result<Deal> {
        let level = check_start(rules, level.into(), dealer)?;
        let (hand_size, kitty_size) = hand_and_kitty(rules.decks);
        for (p, h) in hands.iter().enumerate() {
            if h.len() != hand_size {
                return Err(ZhipaiError::invalid_value(
                    format!("hand of seat {p}"),
                    h,
                    format!("expected {hand_size} cards with {} decks", rules.decks),
                ));
            }
        }
        if kitty.len() != kitty_size {
            return Err(ZhipaiError::invalid_value(
                "kitty",
                kitty,
                format!("expected {kitty_size} cards with {} decks", rules.decks),
            ));
        }
        let parts = [&hands[0], &hands[1], &hands[2], &hands[3], kitty];
        if let Some(diff) = crate::multiset::deck_difference(&parts, rules.decks as usize, true) {
            return Err(ZhipaiError::invalid_value(
                "deal",
                format!("({diff})"),
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
        level: Option<Rank>,
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
            declaring: Declaring::at_level(rules.declare, level),
            declarations: 0,
            bid_cache: [None; NUM_PLAYERS],
            final_round: NUM_PLAYERS as u8,
            phase: Phase::Dealing,
            to_move: first_drawer,
            trump: None,
            kitty: Multiset::EMPTY,
            kitty_owner: 0,
            chaodi_round: None,
            chaodis: 0,
            tr: None,
            leader: 0,
            plays: [Multiset::EMPTY; NUM_PLAYERS],
            played: 0,
            lead_format: Format::EMPTY,
            trick_card_points: 0,
            trick_points: 0,
            dealer_team_points: 0,
            penalty: 0,
            tricks: 0,
            failed_throws: 0,
            building: Multiset::EMPTY,
            shown_voids: [0; NUM_PLAYERS],
            played_by: [Multiset::EMPTY; NUM_PLAYERS],
            shown: [Multiset::EMPTY; NUM_PLAYERS],
            won: [0; NUM_PLAYERS],
            last_burial: Multiset::EMPTY,
            bids: BidLog::default(),
            result: None,
            rng,
            match_ticket: None,
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

    /// The level rank of the deal, `None` on the joker-only level (`after_A = no_trump_level`).
    pub fn level(&self) -> Option<Rank> {
        self.level
    }

    /// The seat that buried the kitty (the dealer, or the last 炒底 overcaller); `None` while no
    /// kitty lies buried (dealing, burying).
    pub fn kitty_owner(&self) -> Option<u8> {
        matches!(self.phase, Phase::Chaodi | Phase::Playing | Phase::Done)
            .then_some(self.kitty_owner)
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
        // (Never past the stock: the bound lets the loop below index it unchecked.)
        let total = (self.hand_size * NUM_PLAYERS).min(self.stock.len());
        // Only level cards and jokers can make a new bid possible.
        let bid_cards = self.level.map_or(CardSet::EMPTY, CardSet::rank_mask) | CardSet::JOKERS;
        // Bit p: seat p is known to have no legal bid, so its next card needs no look-up unless
        // it is a bid card. The loop keeps its position in a local (a hundred cards a deal).
        let mut quiet = self.quiet_seats();
        let first = self.first_drawer as usize;
        let mut dealt = self.dealt;
        while dealt < total {
            let p = (first + dealt) % NUM_PLAYERS;
            let card = self.stock[dealt];
            self.hands[p].add(card);
            dealt += 1;
            if bid_cards.contains(card) {
                self.bid_cache[p] = None;
                quiet &= !(1 << p);
            }
            if quiet & 1 << p == 0 {
                self.dealt = dealt;
                if self.can_declare(p as u8) {
                    self.to_move = p as u8;
                    return;
                }
                quiet |= 1 << p;
            }
        }
        self.dealt = dealt;
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

    /// Bit p set: the cached answer for seat p holds and is "no legal bid" (see
    /// [`Deal::can_declare`]).
    fn quiet_seats(&self) -> u8 {
        let mut quiet = 0;
        for (p, cached) in self.bid_cache.iter().enumerate() {
            if *cached == Some((self.declarations, false)) {
                quiet |= 1 << p;
            }
        }
        quiet
    }

    /// Whether `p` has a legal bid now: the cached answer while it holds, else
    /// [`Deal::find_bid`].
    #[inline(always)]
    fn can_declare(&mut self, p: u8) -> bool {
        match self.bid_cache[p as usize] {
            Some((at, any)) if at == self.declarations => any,
            _ => self.find_bid(p),
        }
    }

    #[inline(never)]
    fn find_bid(&mut self, p: u8) -> bool {
        let mut any = false;
        self.declaring.for_each_legal_bid(p, &self.hands[p as usize], |_| any = true);
        self.bid_cache[p as usize] = Some((self.declarations, any));
        any
    }

    /// The bids the player to move may show now (dealing and 炒底 phases), weakest first.
    pub fn legal_bids(&self) -> Vec<Bid> {
        if !matches!(self.phase, Phase::Dealing | Phase::Chaodi) {
            return Vec::new();
        }
        self.declaring.legal_bids(self.to_move, &self.hands[self.to_move as usize])
    }

    fn finish_declaring(&mut self) {
        let (_, kitty_size) = hand_and_kitty(self.rules.decks);
        let kitty_cards = &self.stock[self.dealt..self.dealt + kitty_size];
        self.trump = match (self.declaring.trump(), self.level) {
            (Some(t), _) => t,
            (None, None) => None, // the joker-only level: jokers are the only trumps
            (None, Some(level)) => match self.rules.declare.no_declaration {
                NoDeclaration::NoTrump => None,
                NoDeclaration::RandomSuit => Some(Suit::from_index(self.rng.random_range(0..4))),
                NoDeclaration::FlipKitty => flip_kitty_trump(kitty_cards, level),
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
        self.set_trick_rules();
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
                self.note_shown_bid(p, bid);
                self.bids.push(self.dealt as u8, p, bid);
                self.run_dealing();
                Ok(())
            }
            (Phase::Burying, Move::Bury(cards)) => self.bury(cards),
            (Phase::Chaodi, Move::Pass) => {
                self.run_chaodi();
                Ok(())
            }
            (Phase::Chaodi, Move::Declare(bid)) => self.overcall_after_burial(bid),
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
                format!("not a move of the {} phase", phase.shared().name()),
            )),
        }
    }

    fn bury(&mut self, cards: Multiset) -> Result<()> {
        self.check_burial(&cards)?;
        let d = self.to_move as usize;
        self.hands[d].remove_all(&cards)?;
        self.kitty = cards;
        self.kitty_owner = d as u8;
        self.last_burial = cards;
        // Cards it showed may lie in the kitty now: no longer known to be in its hand.
        self.shown[d] = Multiset::EMPTY;
        if chaodi_follows(&self.rules.declare, &self.declaring) {
            self.chaodi_round = Some(ChaodiRound::after_burial(d as u8));
            self.run_chaodi();
        } else {
            self.start_play();
        }
        Ok(())
    }

    /// Trick 1: the dealer leads (§2.4), whoever buried last.
    fn start_play(&mut self) {
        let dealer = self.dealer.expect("set after dealing");
        self.phase = Phase::Playing;
        self.leader = dealer;
        self.to_move = dealer;
    }

    /// The kinds the burial restriction avoids, if any.
    fn bury_restricted(&self) -> Option<CardSet> {
        restricted_kinds(self.rules.declare.kitty_bury_restrictions, self.tr.as_deref())
    }

    fn tr(&self) -> &TrickRules {
        self.tr.as_ref().expect("trick rules exist after dealing")
    }

    /// (Re)build the trick rules for the level and the current trump (after dealing, and after
    /// every 炒底 overcall).
    fn set_trick_rules(&mut self) {
        let tr = self.rules.play.trick_rules_at(self.rules.decks, self.level, self.trump);
        self.tr = Some(Box::new(tr));
    }

    fn lead(&mut self, cards: Multiset) -> Result<()> {
        let p = self.to_move as usize;
        let tr = self.tr.as_deref().expect("trick rules exist after dealing");
        // Written in place: a format is too big to move around on the hot path.
        check_lead_into(tr, &cards, Some(&self.hands[p]), &mut self.lead_format)
            .map_err(|e| ZhipaiError::illegal_play(format!("lead {cards}"), e.to_string()))?;
        let format = &self.lead_format;
        let mut played = cards;
        let mut failed = false;
        if format.is_throw() {
            let others: [Multiset; 3] =
                std::array::from_fn(|i| self.hands[(p + 1 + i) % NUM_PLAYERS]);
            let r = check_throw(tr, format, &others);
            if !r.valid {
                // The penalty reads the whole throw: before the format becomes the forced part.
                let fine = throw_penalty(self.rules.play.throw_fail_penalty, tr, format, &others);
                let sign = if self.is_attacker(p as u8) { -1 } else { 1 };
                played = r.played;
                let ok = decompose_into(
                    &played,
                    &tr.order,
                    tr.throw_decomposition,
                    &mut self.lead_format,
                );
                debug_assert!(ok, "the forced part is one unit of the led suit");
                self.failed_throws += 1;
                self.penalty += sign * fine;
                failed = true;
            }
        }
        if failed {
            // The table saw the whole attempt: what was not played stays known (§4.5).
            self.shown[p] = max_counts(&self.shown[p], &cards);
        }
        self.trick_card_points = 0;
        self.take_play(p, &played)?;
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
        self.take_play(p, &cards)?;
        self.plays[self.played as usize] = cards;
        self.played += 1;
        self.to_move = ((p + 1) % NUM_PLAYERS) as u8;
        if self.played as usize == NUM_PLAYERS {
            self.finish_trick()?;
        }
        Ok(())
    }

    fn finish_trick(&mut self) -> Result<()> {
        self.note_voids();
        let format = &self.lead_format;
        let w = if let Some(mult) = one_kind_unit(format) {
            // A single, pair or triple lead; every play was checked or drawn from the legal
            // follows, so the size checks of `trick_winner_of` are skipped.
            tuple_winner(self.tr(), format.suit as usize, mult, &self.plays)
        } else {
            trick_winner_of(self.tr(), format, &self.plays)?
        };
        let winner = (self.leader + w as u8) % 4;
        let points = self.trick_card_points;
        debug_assert_eq!(points, self.plays.iter().map(points_of).sum::<i32>());
        self.won[winner as usize] += points;
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
            chaodi: self.chaodis,
            last_trick_single_jack: self.is_attacker(last_winner)
                && self.plays[w].len() == 1
                && self.plays[w].kinds().first().and_then(|c| c.rank()) == Some(Rank::JACK),
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
            Phase::Dealing | Phase::Chaodi => {
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
        let mut out = Vec::new();
        crate::game::actions_of_bits(u128::from(self.legal_action_mask()), &mut out);
        out
    }

    fn bury_mask(&self) -> u64 {
        let hand = self.hands[self.to_move as usize];
        let mut mask = building::remaining(&hand, &self.building);
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
        building::lead_mask(self.tr(), &self.hands[self.to_move as usize], &self.building)
    }

    fn follow_mask(&self) -> u64 {
        let hand = &self.hands[self.to_move as usize];
        building::follow_mask(self.tr(), &self.lead_format, hand, &self.building)
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
            Phase::Dealing | Phase::Chaodi => action == STOP,
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
            Phase::Dealing | Phase::Chaodi => match b.kinds().first() {
                None => Move::Pass,
                Some(card) => Move::Declare(Bid { card, count: b.len() as u8 }),
            },
            Phase::Burying => Move::Bury(b),
            _ => Move::Play(b),
        };
        self.apply_move(mv)
    }

    /// The move of the first-generation greedy player ([`Policy::Basic`], rules in
    /// [`super::basic`]) for the seat to move; it sees only that seat's hand, the cards played
    /// and its own burial. Errors with `IllegalPlay` when the deal is over.
    pub fn basic_move(&self) -> Result<Move> {
        let p = self.to_move as usize;
        let hand = &self.hands[p];
        Ok(match self.phase {
            Phase::Done => {
                return Err(ZhipaiError::illegal_play("basic move", "the deal is over"));
            }
            Phase::Dealing => basic::declare(&basic::DeclareView {
                seat: self.to_move,
                hand,
                level: self.level,
                declaring: &self.declaring,
            }),
            Phase::Chaodi => basic::chaodi(
                &basic::DeclareView {
                    seat: self.to_move,
                    hand,
                    level: self.level,
                    declaring: &self.declaring,
                },
                self.trump,
            ),
            Phase::Burying => {
                let (_, k) = hand_and_kitty(self.rules.decks);
                let restricted = self.bury_restricted().unwrap_or(CardSet::EMPTY);
                Move::Bury(basic::bury(self.tr(), hand, k, restricted))
            }
            Phase::Playing => {
                // Not seen by this seat = the other hands, plus the kitty unless it buried it
                // (the pack minus its hand, the cards played and its own burial).
                let mut unseen =
                    if self.to_move == self.kitty_owner { Multiset::EMPTY } else { self.kitty };
                for (q, h) in self.hands.iter().enumerate() {
                    if q != p {
                        unseen.add_all(h)?;
                    }
                }
                let view = basic::PlayView {
                    tr: self.tr(),
                    hand,
                    unseen: &unseen,
                    plays: self.current_trick(),
                    lead: &self.lead_format,
                };
                Move::Play(if self.played == 0 {
                    basic::lead(&view)
                } else {
                    basic::follow(&view)?
                })
            }
        })
    }

    /// The burial `policy` chooses for the dealer while keeping `keep` (a forced first lead)
    /// in hand; when `keep` is not held the burial is chosen from the whole hand (the lead is
    /// then refused when played).
    pub(crate) fn burial_keeping(&mut self, policy: Policy, keep: &Multiset) -> Result<Move> {
        let p = self.to_move as usize;
        let held = self.hands[p];
        let (_, k) = hand_and_kitty(self.rules.decks);
        if held.contains_all(keep) && held.len() - keep.len() >= k {
            self.hands[p].remove_all(keep)?;
        }
        let mv = self.policy_move(policy);
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
    pub(crate) fn policy_step(&mut self, policy: Policy) -> Result<()> {
        let mv = match policy {
            Policy::Random => self.random_move()?,
            Policy::Greedy => self.greedy_move()?,
            Policy::Basic => self.basic_move()?,
        };
        self.apply_policy_move(mv)
    }

    /// The move `policy` chooses for the seat to move (not applied): the random policy draws
    /// from the deal's generator. `IllegalPlay` once the deal is over.
    #[inline]
    pub fn policy_move(&mut self, policy: Policy) -> Result<Move> {
        match policy {
            Policy::Random => self.random_move(),
            Policy::Greedy => self.greedy_move(),
            Policy::Basic => self.basic_move(),
        }
    }

    /// Apply a move drawn by a policy (or from the legal moves) as `simulate` does: a follow
    /// is recorded without checking it again; every other move is checked (a lead's check also
    /// builds the trick's format). Moves known to be legal only: an illegal follow leaves the
    /// deal inconsistent.
    #[inline]
    pub(crate) fn apply_policy_move(&mut self, mv: Move) -> Result<()> {
        match mv {
            // Both policies draw follows from the legal follows: no second check.
            Move::Play(cards) if self.phase == Phase::Playing && self.played > 0 => {
                self.record_follow(cards)
            }
            _ => self.apply_move(mv),
        }
    }
}

impl Deal {
    /// Move a play from seat `p`'s hand to the cards it played (one card by its count planes,
    /// the common case) and add its points to the trick's; one copy of each card played is no
    /// longer known in its hand. Errors (changing nothing) when the cards are not held.
    #[inline(always)]
    fn take_play(&mut self, p: usize, cards: &Multiset) -> Result<()> {
        match single_card(cards) {
            Some(card) if self.hands[p].remove(card) => {
                self.trick_card_points += POINTS[card.index()] as i32;
                self.played_by[p].add(card);
                if !self.shown[p].is_empty() {
                    self.shown[p].remove(card);
                }
            }
            _ => {
                self.hands[p].remove_all(cards)?;
                self.trick_card_points += points_of(cards);
                self.note_played(p, cards);
            }
        }
        Ok(())
    }

    /// The bookkeeping of [`Deal::take_play`] for several cards.
    #[inline(never)]
    fn note_played(&mut self, p: usize, cards: &Multiset) {
        let shown = !self.shown[p].is_empty();
        // Plane by plane: adding the kinds of plane k once more adds the k-th copies.
        for plane in cards.planes() {
            if plane == 0 {
                break;
            }
            let mut bits = plane;
            while bits != 0 {
                let c = Card::from_index(bits.trailing_zeros() as usize).expect("a kind");
                bits &= bits - 1;
                self.played_by[p].add(c);
                if shown {
                    self.shown[p].remove(c);
                }
            }
        }
    }

    /// Seat `p` showed `bid` (while dealing or in a 炒底 offer): its cards are in its hand.
    fn note_shown_bid(&mut self, p: u8, bid: Bid) {
        let mut cards = Multiset::EMPTY;
        for _ in 0..bid.count {
            cards.add(bid.card);
        }
        self.shown[p as usize] = max_counts(&self.shown[p as usize], &cards);
    }

    /// The cards every seat knows to be in `player`'s hand now (shown in a declaration since
    /// its last burial, or in a failed throw, and not played since: one copy less per copy
    /// played).
    pub fn known_in_hand(&self, player: u8) -> Multiset {
        self.shown[player as usize % NUM_PLAYERS]
    }

    /// The kitty lying buried (empty while dealing, and while the kitty is in the hand of the
    /// seat burying it).
    pub fn kitty(&self) -> Multiset {
        self.kitty
    }

    /// Every card played so far (completed tricks and the current one).
    pub fn cards_out(&self) -> Multiset {
        let mut out = Multiset::EMPTY;
        for m in &self.played_by {
            out.add_all(m).expect("played cards are of the pack");
        }
        out
    }

    /// The cards `player` has played so far (completed tricks and the current one).
    pub fn played_by(&self, player: u8) -> Multiset {
        self.played_by[player as usize % NUM_PLAYERS]
    }

    /// Card points won in completed tricks by each seat (§7.1).
    pub fn points_won(&self) -> [i32; NUM_PLAYERS] {
        self.won
    }

    /// The last burial and the seat that made it (the kitty while it lies buried, or what a
    /// 炒底 overcaller picked up while it buries again); `None` before the first burial.
    pub fn last_burial(&self) -> Option<(u8, Multiset)> {
        (!self.last_burial.is_empty()).then_some((self.kitty_owner, self.last_burial))
    }
}

/// The declarations made while dealing: (cards dealt then, seat, bid), in order. Every bid is
/// strictly stronger than the one before, so a deal has few (at most 4 per count of a bid card
/// with reinforcements: [`BID_LOG`] covers every ladder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BidLog {
    len: u8,
    at: [(u8, u8, Option<Bid>); BID_LOG],
}

/// Most declarations a deal can see while dealing: every bid is strictly stronger than the
/// last (§2.2): 3 counts × (a level card or 2 joker kinds) in steps, with one reinforcement
/// each; 24 leaves room.
const BID_LOG: usize = 24;

impl BidLog {
    fn push(&mut self, dealt: u8, seat: u8, bid: Bid) {
        if (self.len as usize) < BID_LOG {
            self.at[self.len as usize] = (dealt, seat, Some(bid));
            self.len += 1;
        }
    }

    /// The logged declarations: (cards dealt then, seat, bid).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u8, u8, Bid)> + '_ {
        self.at[..self.len as usize].iter().filter_map(|&(d, s, b)| b.map(|b| (d, s, b)))
    }
}

/// Kind by kind the larger count of `a` and `b`.
pub(crate) fn max_counts(a: &Multiset, b: &Multiset) -> Multiset {
    let mut out = *a;
    // Plane k of the result is the union of the planes k; add what `b` has beyond `a`, plane
    // by plane (each addition takes the next copy of its kind).
    for (pa, pb) in a.planes().into_iter().zip(b.planes()) {
        let mut extra = pb & !pa;
        while extra != 0 {
            out.add(Card::from_index(extra.trailing_zeros() as usize).expect("a kind"));
            extra &= extra - 1;
        }
    }
    out
}

/// The checks of [`Deal::new`] before any card is dealt; the level rank (`None` = the
/// joker-only level).
fn check_start(rules: &ShengjiRules, level: Level, dealer: Option<u8>) -> Result<Option<Rank>> {
    if let Some(d) = dealer.filter(|d| *d >= 4) {
        return Err(ZhipaiError::invalid_value("dealer", d, "players are 0..=3"));
    }
    if level == Level::NO_TRUMP && rules.scoring.after_A != AfterA::NoTrumpLevel {
        return Err(ZhipaiError::invalid_value(
            "level",
            level,
            "the joker-only level exists only with after_A=no_trump_level",
        ));
    }
    Ok(level.rank())
}

/// The kinds `rule` keeps out of a burial while other cards can be buried (shengji.md §2.4
/// `kitty_bury_restrictions`), if any; `tr` is the deal's trick rules (set after dealing).
pub(crate) fn restricted_kinds(
    rule: KittyBuryRestrictions,
    tr: Option<&TrickRules>,
) -> Option<CardSet> {
    match rule {
        KittyBuryRestrictions::None => None,
        KittyBuryRestrictions::NoPoints => Some(point_kinds()),
        KittyBuryRestrictions::NoTrumps => {
            Some(tr.expect("trick rules exist after dealing").order.suit_mask(TRUMP))
        }
    }
}

fn point_kinds() -> CardSet {
    CardSet::rank_mask(Rank::FIVE) | CardSet::rank_mask(Rank::TEN) | CardSet::rank_mask(Rank::KING)
}

/// Points of each card kind (§7.1), by kind index.
const POINTS: [u8; NUM_KINDS] = {
    let mut t = [0u8; NUM_KINDS];
    let mut i = 0;
    while i < NUM_KINDS {
        if let Some(c) = Card::from_index(i) {
            t[i] = c.points() as u8;
        }
        i += 1;
    }
    t
};

/// Card points of `m` (§7.1: 5 → 5, 10 and K → 10), counted over the count planes. Point
/// cards are few, so the bits are counted one by one (cheaper than a software popcount); the
/// planes are nested, so the first empty one ends the count.
fn points_of(m: &Multiset) -> i32 {
    const FIVES: u64 = CardSet::rank_mask(Rank::FIVE).0;
    const TENS: u64 = CardSet::rank_mask(Rank::TEN).0 | CardSet::rank_mask(Rank::KING).0;
    let sparse_count = |mut bits: u64| {
        let mut n = 0;
        while bits != 0 {
            bits &= bits - 1;
            n += 1;
        }
        n
    };
    if let Some(card) = single_card(m) {
        return POINTS[card.index()] as i32;
    }
    let mut total = 0;
    for p in m.planes() {
        if p == 0 {
            break;
        }
        total += 5 * sparse_count(p & FIVES) + 10 * sparse_count(p & TENS);
    }
    total
}

/// A uniform random permutation of `items` (Fisher–Yates with the exactly uniform one-word draws
/// of [`below`]: no division on the common path).
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

mod chaodi;
mod greedy;
pub mod position;
mod query;
mod random;
#[cfg(test)]
mod rule_tests;
pub mod tensor;
#[cfg(test)]
mod tests;
mod world;
