//! A whole deal as an OpenSpiel-style state: deal, accession, play, scoring.
//!
//! Seats are 0..5 in playing (anticlockwise) order: play passes from seat `s` to `s + 1`. The
//! accession phases run clockwise (§C.3: "顺时针"), i.e. from `s` to `s + 4 mod 5`.
//!
//! Phases and who decides (baohuang.md §C.3; timing of 抢独 is [I]):
//! 1. `Accession`: the scepter holder may `Ascend(card)` with 3/4 identical cards, `Grab` (take
//!    the emperorship alone, 抢独) or `Abdicate` (让位).
//! 2. `GrabWindow`: after an abdication the other four, clockwise from the holder
//!    (`grab_priority = clockwise_from_scepter_holder`), may each `Grab` or `Decline`; then the
//!    scepter passes clockwise. After five abdications, 逼位 (3).
//! 3. `Forced` (逼位): clockwise from the first holder, the first player holding exactly 3
//!    identical cards must `Ascend` with one; nobody → `Void` (黄局, redeal; returns all 0).
//! 4. `GuardChoice`: the guard picks `OpenGuard` (明保, scores doubled) or `SecretGuard` (暗保);
//!    `SoloChoice`: a 4-copy emperor picks `OpenSolo` (明独) or `SecretSolo` (暗独).
//! 5. `Play`: the emperor leads the first round; rounds as in [`super::round`]; the deal ends
//!    when one player is left (§C.8).

use super::accession::{ascension_options, forced_options};
use super::moves::{self, card_strength, cards_for, shape_of, HandCounts, Shape};
use super::options::{BaohuangRules, Deck, ExtraCardTo, GuardCardRank};
use super::round::{Response, Round};
use super::scoring::{score, Mode};
use crate::cards::{format_cards, Card, CardSet, Rank};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use rand::Rng;
use std::fmt;

/// Number of players.
pub const PLAYERS: usize = 5;

/// The phase of a deal (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Accession,
    GrabWindow,
    Forced,
    GuardChoice,
    SoloChoice,
    Play,
    /// The deal is over and scored.
    Over,
    /// 黄局: nobody could be forced to ascend; the deal is void and must be redealt.
    Void,
}

impl Phase {
    /// The phase in the vocabulary every game shares (the game trait's): a void deal is over
    /// (redealt at once, or scored 0 when its hands were given).
    pub fn shared(self) -> crate::game::Phase {
        use crate::game::Phase as Shared;
        match self {
            Phase::Accession => Shared::Accession,
            Phase::GrabWindow => Shared::GrabWindow,
            Phase::Forced => Shared::Forced,
            Phase::GuardChoice => Shared::GuardChoice,
            Phase::SoloChoice => Shared::SoloChoice,
            Phase::Play => Shared::Play,
            Phase::Over | Phase::Void => Shared::Done,
        }
    }

    /// The phase in snake_case (`"grab_window"`), as error messages and the Python API name it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Accession => "accession",
            Phase::GrabWindow => "grab_window",
            Phase::Forced => "forced",
            Phase::GuardChoice => "guard_choice",
            Phase::SoloChoice => "solo_choice",
            Phase::Play => "play",
            Phase::Over => "over",
            Phase::Void => "void",
        }
    }
}

/// One decision of a deal. A play carries `P`: its [`Shape`] (suits left out: the rules and the
/// rollouts, which need nothing more) or its cards ([`Multiset`]: the game trait's move, where
/// the suits tell a play with the 登基 card from one without it, §C.3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move<P = Shape> {
    /// 登基 (or forced 逼位) with this card.
    Ascend(Card),
    /// 让位: pass the scepter clockwise.
    Abdicate,
    /// 抢独: take the scepter and play alone.
    Grab,
    /// Let a grab chance go.
    Decline,
    /// 明保.
    OpenGuard,
    /// 暗保.
    SecretGuard,
    /// 明独.
    OpenSolo,
    /// 暗独.
    SecretSolo,
    /// Lead or beat with these cards (a [`Shape`]: up to suits, see [`State::cards_of`]).
    Play(P),
    /// 过牌.
    Pass,
    /// 让牌.
    Yield,
    /// 申请接风.
    Jiefeng,
}

impl<P> Move<P> {
    /// The same decision with the play's payload mapped by `f` (shape → cards and back).
    pub fn map_play<Q>(self, f: impl FnOnce(P) -> Q) -> Move<Q> {
        match self {
            Move::Ascend(c) => Move::Ascend(c),
            Move::Abdicate => Move::Abdicate,
            Move::Grab => Move::Grab,
            Move::Decline => Move::Decline,
            Move::OpenGuard => Move::OpenGuard,
            Move::SecretGuard => Move::SecretGuard,
            Move::OpenSolo => Move::OpenSolo,
            Move::SecretSolo => Move::SecretSolo,
            Move::Play(p) => Move::Play(f(p)),
            Move::Pass => Move::Pass,
            Move::Yield => Move::Yield,
            Move::Jiefeng => Move::Jiefeng,
        }
    }
}

impl<P: fmt::Display> fmt::Display for Move<P> {
    /// `ascend 9C`, `abdicate`, `grab`, `decline`, `open_guard`, `secret_guard`, `open_solo`,
    /// `secret_solo`, `pass`, `yield`, `jiefeng`, or the play: a shape high→low without suits
    /// (`BJ 9 9`), cards in card order (`9S 9H BJ`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Ascend(c) => write!(f, "ascend {c}"),
            Move::Abdicate => f.write_str("abdicate"),
            Move::Grab => f.write_str("grab"),
            Move::Decline => f.write_str("decline"),
            Move::OpenGuard => f.write_str("open_guard"),
            Move::SecretGuard => f.write_str("secret_guard"),
            Move::OpenSolo => f.write_str("open_solo"),
            Move::SecretSolo => f.write_str("secret_solo"),
            Move::Play(s) => write!(f, "{s}"),
            Move::Pass => f.write_str("pass"),
            Move::Yield => f.write_str("yield"),
            Move::Jiefeng => f.write_str("jiefeng"),
        }
    }
}

/// A dealt deck: five hands, the seat holding the scepter BJ and the seat dealt first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub hands: [Multiset; PLAYERS],
    pub scepter: u8,
    pub first_dealt: u8,
}

/// The full deck of `rules` (§C.1): 4 copies of each kind; `deck = 168` drops 3s, 4s and 5s.
pub fn full_deck(rules: &BaohuangRules) -> Multiset {
    let mut m = Multiset::full_decks(4, true).expect("4 decks");
    if rules.deck == Deck::Rizhao168 {
        for rank in 1..=3 {
            let r = Rank::from_index(rank).expect("rank");
            for c in crate::cards::CardSet::rank_mask(r) {
                for _ in 0..4 {
                    m.remove(c);
                }
            }
        }
    }
    m
}

/// Shuffle and deal (§C.1): cards go round the table from a random first seat, which gets the
/// extra card (`first_dealt_seat`); with `scepter_last` the scepter BJ is held back and dealt as
/// the last card, to the seat whose turn it is (with 216 cards the first seat, which is random).
/// With `first_dealt_seat` the scepter is a uniformly random one of the 4 BJ.
pub fn deal<R: Rng + ?Sized>(rules: &BaohuangRules, rng: &mut R) -> Deal {
    // The deck in kind order, each kind repeated by its count (the order `Multiset::iter` gives).
    const DECK_216: [u8; 216] = {
        let mut d = [0u8; 216];
        let mut i = 0;
        while i < 216 {
            d[i] = (i / 4) as u8;
            i += 1;
        }
        d
    };
    let mut deck = DECK_216;
    let mut n = 216;
    if rules.deck != Deck::Full216 {
        n = 0;
        for c in full_deck(rules).iter() {
            deck[n] = c.index() as u8;
            n += 1;
        }
    }
    let scepter_last = rules.extra_card_to == ExtraCardTo::ScepterLast;
    if scepter_last {
        // Move one BJ (the last kind in iteration order) out of the shuffled part.
        n -= 1;
    }
    let cards = &mut deck[..n];
    for i in (1..cards.len()).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
    let first = rng.random_range(0..PLAYERS as u8);
    let mut hands = [Multiset::EMPTY; PLAYERS];
    let mut bj_seats = [0u8; 4];
    let mut bjs = 0;
    let mut seat = first as usize; // round the table from the first seat
    for &k in cards.iter() {
        let card = Card::from_index(k as usize).expect("kind");
        if card == Card::BIG_JOKER {
            bj_seats[bjs] = seat as u8;
            bjs += 1;
        }
        hands[seat].add(card);
        seat = if seat + 1 == PLAYERS { 0 } else { seat + 1 };
    }
    let scepter = if scepter_last {
        // Dealt last, round the table like the others: to a random seat (the first seat is
        // random), and the hand sizes stay a round-the-table deal's (168 cards: 34/34/34/33/33).
        hands[seat].add(Card::BIG_JOKER);
        seat as u8
    } else {
        bj_seats[rng.random_range(0..bjs)]
    };
    Deal { hands, scepter, first_dealt: first }
}

/// A deal in progress. `Clone` is cheap (fixed arrays only).
#[derive(Clone, Debug)]
pub struct State {
    rules: BaohuangRules,
    hands: [Multiset; PLAYERS],
    counts: [HandCounts; PLAYERS],
    phase: Phase,
    current: u8,
    first_dealt: u8,
    scepter_holder: u8,
    scepter_card_at: u8,
    first_holder: u8,
    abdications: u8,
    grab_from: u8,
    emperor: u8,
    guard: Option<u8>,
    dengji: Option<Card>,
    mode: Mode,
    guard_revealed: bool,
    round: Round,
    finish: [u8; PLAYERS],
    finished: u8,
    plays: u32,
    stop_when_decided: bool,
    returns: [i32; PLAYERS],
    /// The previous places 进贡 was made from, once made.
    tribute: Option<[u8; PLAYERS]>,
    /// The cards of that 进贡, pair by pair (大拉 → 大客, then 二拉 → 二客): the card given and the
    /// card returned (`None` for a card a hand could not give).
    tribute_cards: [TributeCards; 2],
}

/// The cards of one 进贡 pair: the giver's highest card and the receiver's lowest, returned.
pub type TributeCards = (Option<Card>, Option<Card>);

/// The highest (or lowest) card of `hand` by play strength, ties by kind index (the card 进贡
/// gives, or returns); the scepter BJ is skipped when it is the only BJ and `skip_scepter`.
pub fn extreme_card(hand: &Multiset, highest: bool, skip_scepter: bool) -> Option<Card> {
    let ok = |c: &Card| !(skip_scepter && *c == Card::BIG_JOKER && hand.count(*c) == 1);
    let key = |c: &Card| (card_strength(*c), c.index());
    if highest {
        hand.kinds().iter().filter(ok).max_by_key(key)
    } else {
        hand.kinds().iter().filter(ok).min_by_key(key)
    }
}

const fn clockwise(seat: u8) -> u8 {
    (seat + 4) % 5
}

/// The previous deal's places assumed for 进贡 when none are given: seat `s` finished `s + 1`-th
/// (seat 0 大客 … seat 4 大拉). A fresh deal treats the seats alike (random first-dealt seat,
/// random scepter), so this convention only fixes which seat numbers give and receive.
pub const SEAT_ORDER_PLACES: [u8; PLAYERS] = [1, 2, 3, 4, 5];

impl State {
    /// Deal with `rng` and start the accession phase. With `tribute_between_deals = on` the deal
    /// opens with 进贡 from [`SEAT_ORDER_PLACES`] (see [`State::apply_tribute`]); use
    /// [`State::new_after`] for other previous places.
    pub fn new<R: Rng + ?Sized>(rules: &BaohuangRules, rng: &mut R) -> State {
        State::new_after(rules, rng, None).expect("seat-order places are a permutation")
    }

    /// Deal with `rng` as a deal following one that ended with `previous_places` (`[seat]` =
    /// place 1..=5): with `tribute_between_deals = on` the deal opens with 进贡 from those places
    /// (`None` = [`SEAT_ORDER_PLACES`]); with it off `previous_places` must be `None`. Errors as
    /// [`State::apply_tribute`]. The generator is used exactly as by [`State::new`].
    pub fn new_after<R: Rng + ?Sized>(
        rules: &BaohuangRules,
        rng: &mut R,
        previous_places: Option<[u8; PLAYERS]>,
    ) -> Result<State> {
        let mut state = State::from_deal(rules, deal(rules, rng));
        if rules.tribute_between_deals || previous_places.is_some() {
            state.apply_tribute(previous_places.unwrap_or(SEAT_ORDER_PLACES))?;
        }
        Ok(state)
    }

    /// Start from a given deal. Errors: `InvalidValue` if the hands are not exactly the deck of
    /// `rules` (cards are conserved), a hand is empty, or the scepter seat holds no BJ.
    pub fn from_hands(
        rules: &BaohuangRules,
        hands: [Multiset; PLAYERS],
        scepter: u8,
        first_dealt: u8,
    ) -> Result<State> {
        if scepter as usize >= PLAYERS || first_dealt as usize >= PLAYERS {
            return Err(ZhipaiError::invalid_value(
                "seat",
                scepter.max(first_dealt),
                "expected a seat 0 to 4",
            ));
        }
        let mut all = Multiset::EMPTY;
        for h in &hands {
            all.add_all(h)?;
        }
        let deck = full_deck(rules);
        if all != deck {
            let missing = all.missing_from(&deck);
            let extra = deck.missing_from(&all);
            return Err(ZhipaiError::invalid_value(
                "hands",
                format!("missing [{}], extra [{}]", format_cards(&missing), format_cards(&extra)),
                format!("the five hands must hold exactly the {}-card deck", deck.len()),
            ));
        }
        // The deck is dealt round the table one card at a time (baohuang.md §C.1: four hands of
        // 43 and one of 44 with 216 cards), so every hand holds ⌊n/5⌋ or ⌈n/5⌉ cards.
        let (low, high) = (deck.len() / PLAYERS, deck.len().div_ceil(PLAYERS));
        if let Some(seat) = hands.iter().position(|h| h.len() < low || h.len() > high) {
            return Err(ZhipaiError::invalid_value(
                format!("hand of seat {seat}"),
                format!("{} cards", hands[seat].len()),
                format!(
                    "a round-the-table deal of {} cards gives {low} or {high} (§C.1)",
                    deck.len()
                ),
            ));
        }
        if !hands[scepter as usize].contains(Card::BIG_JOKER) {
            return Err(ZhipaiError::invalid_value("scepter", scepter, "that seat holds no BJ"));
        }
        Ok(State::from_deal(rules, Deal { hands, scepter, first_dealt }))
    }

    fn from_deal(rules: &BaohuangRules, d: Deal) -> State {
        let counts = d.hands.map(|h| HandCounts::of(&h, None));
        State {
            rules: rules.clone(),
            hands: d.hands,
            counts,
            phase: Phase::Accession,
            current: d.scepter,
            first_dealt: d.first_dealt,
            scepter_holder: d.scepter,
            scepter_card_at: d.scepter,
            first_holder: d.scepter,
            abdications: 0,
            grab_from: d.scepter,
            emperor: d.scepter,
            guard: None,
            dengji: None,
            mode: Mode::Normal,
            guard_revealed: false,
            round: Round::new(d.scepter, 0b11111),
            finish: [0; PLAYERS],
            finished: 0,
            plays: 0,
            stop_when_decided: false,
            returns: [0; PLAYERS],
            tribute: None,
            tribute_cards: [(None, None); 2],
        }
    }

    /// End the deal as soon as every score is known (§C.8 engine note): solo — once the first
    /// player is out; otherwise once emperor and guard are both out, or all three rebels are.
    /// The places of the players still holding cards are then reported as 0.
    pub fn set_stop_when_decided(&mut self, on: bool) {
        self.stop_when_decided = on;
    }

    /// 进贡 between deals (`tribute_between_deals = on`, [OPEN]: the digest names it without
    /// rules, §C.9 Alt). Before any decision, with `previous_places[seat]` = 1..=5 from the
    /// previous deal: 大拉 gives his highest card to 大客 and 二拉 his highest to 二客 (never the
    /// scepter BJ); each receiver returns his lowest card. [`State::new`] and
    /// [`State::new_after`] make it already; this is for deals built with
    /// [`State::from_hands`]. Errors: `InvalidOption` when the option is off, `InvalidValue` for
    /// places that are not a permutation of 1..=5, after the first decision, or when the deal
    /// already had its tribute.
    pub fn apply_tribute(&mut self, previous_places: [u8; PLAYERS]) -> Result<()> {
        if !self.rules.tribute_between_deals {
            return Err(ZhipaiError::invalid_option(
                "tribute_between_deals",
                "off",
                "tribute needs tribute_between_deals=on",
            ));
        }
        let mut sorted = previous_places;
        sorted.sort_unstable();
        if sorted != [1, 2, 3, 4, 5] {
            return Err(ZhipaiError::invalid_value(
                "previous_places",
                format!("{previous_places:?}"),
                "expected a permutation of 1..=5",
            ));
        }
        if self.phase != Phase::Accession || self.abdications > 0 {
            return Err(ZhipaiError::invalid_value(
                "tribute",
                format!("{previous_places:?}"),
                format!("进贡 comes before accession; the deal is in phase {}", self.phase.name()),
            ));
        }
        if let Some(done) = self.tribute {
            return Err(ZhipaiError::invalid_value(
                "tribute",
                format!("{previous_places:?}"),
                format!("this deal already had its tribute, from places {done:?}"),
            ));
        }
        self.tribute = Some(previous_places);
        let seat_of =
            |p: u8| previous_places.iter().position(|&x| x == p).expect("permutation") as u8;
        for (pair, (giver, taker)) in
            [(seat_of(5), seat_of(1)), (seat_of(4), seat_of(2))].into_iter().enumerate()
        {
            let skip_scepter = self.scepter_card_at == giver;
            let high = extreme_card(&self.hands[giver as usize], true, skip_scepter);
            if let Some(c) = high {
                self.move_card(giver, taker, c);
            }
            let skip_scepter = self.scepter_card_at == taker;
            let low = extreme_card(&self.hands[taker as usize], false, skip_scepter);
            if let Some(c) = low {
                self.move_card(taker, giver, c);
            }
            self.tribute_cards[pair] = (high, low);
        }
        Ok(())
    }

    fn move_card(&mut self, from: u8, to: u8, card: Card) {
        self.hands[from as usize].remove(card);
        self.hands[to as usize].add(card);
        self.recount(from);
        self.recount(to);
    }

    /// The guard card kind of `seat` when it ranks above BJ (his copies of the 登基 card).
    fn guard_card_of(&self, seat: u8) -> Option<Card> {
        match (self.rules.guard_card_rank, self.guard) {
            (GuardCardRank::AboveBigJoker, Some(g)) if g == seat => self.dengji,
            _ => None,
        }
    }

    fn recount(&mut self, seat: u8) {
        self.counts[seat as usize] =
            HandCounts::of(&self.hands[seat as usize], self.guard_card_of(seat));
    }

    /// A world of the determinisation ([`super::search`]): the same deal with the hands `hands`
    /// and the 进贡 cards `tribute_cards` (the caller keeps the cards in play and what they make
    /// certain), and the roles these hands make where the rules keep them secret. While the guard
    /// is unknown to the other seats (暗保 not yet revealed, 暗独, or the secret 明保/暗保 /
    /// 明独/暗独 choice under way) the guard is the seat other than the emperor holding the 登基
    /// card, and with none the emperor is alone: the mode reads 暗保 or 暗独 and the secret
    /// choice is the guard's or the emperor's. A finished deal is scored again.
    pub(super) fn set_world(
        &mut self,
        hands: [Multiset; PLAYERS],
        tribute_cards: [TributeCards; 2],
    ) {
        self.hands = hands;
        self.tribute_cards = tribute_cards;
        let hidden = !self.guard_revealed && matches!(self.mode, Mode::Normal | Mode::SecretSolo);
        if let Some(card) = self.dengji.filter(|_| hidden && self.phase_index() >= 3) {
            let e = self.emperor;
            self.guard =
                (0..PLAYERS as u8).find(|&s| s != e && self.hands[s as usize].contains(card));
            match self.phase {
                Phase::GuardChoice | Phase::SoloChoice => {
                    self.phase =
                        if self.guard.is_some() { Phase::GuardChoice } else { Phase::SoloChoice };
                    self.current = self.guard.unwrap_or(e);
                }
                _ => self.mode = if self.guard.is_some() { Mode::Normal } else { Mode::SecretSolo },
            }
        }
        for seat in 0..PLAYERS as u8 {
            self.recount(seat);
        }
        if self.phase == Phase::Over {
            self.end();
        }
    }

    // ----- queries -------------------------------------------------------------------------

    pub fn rules(&self) -> &BaohuangRules {
        &self.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act, `None` when the deal is over or void.
    pub fn current_player(&self) -> Option<u8> {
        match self.phase {
            Phase::Over | Phase::Void => None,
            _ => Some(self.current),
        }
    }

    pub fn is_terminal(&self) -> bool {
        matches!(self.phase, Phase::Over | Phase::Void)
    }

    /// Whether the deal was void (黄局).
    pub fn is_void(&self) -> bool {
        self.phase == Phase::Void
    }

    /// Scores per seat (all 0 until the deal is over, and for a void deal).
    pub fn returns(&self) -> [i32; PLAYERS] {
        self.returns
    }

    pub fn hand(&self, seat: u8) -> &Multiset {
        &self.hands[seat as usize]
    }

    pub fn hand_counts(&self, seat: u8) -> &HandCounts {
        &self.counts[seat as usize]
    }

    /// The emperor, once there is one.
    pub fn emperor(&self) -> Option<u8> {
        (self.phase_index() >= 3).then_some(self.emperor)
    }

    /// The guard (`None` in solo modes and before accession).
    pub fn guard(&self) -> Option<u8> {
        self.guard
    }

    /// The 登基 card (`None` for 抢独 and before accession).
    pub fn dengji_card(&self) -> Option<Card> {
        self.dengji
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the guard is known to all (明保, or 暗保 after playing the 登基 card).
    pub fn guard_revealed(&self) -> bool {
        self.guard_revealed
    }

    /// `(mark holder, seat physically holding the scepter BJ)`; they differ only with
    /// `abdication_moves_card = false`.
    pub fn scepter(&self) -> (u8, u8) {
        (self.scepter_holder, self.scepter_card_at)
    }

    pub fn first_dealt(&self) -> u8 {
        self.first_dealt
    }

    /// Number of 让位 so far.
    pub fn abdications(&self) -> u8 {
        self.abdications
    }

    /// Seats in finishing order so far (大客 first).
    pub fn finishing_order(&self) -> &[u8] {
        &self.finish[..self.finished as usize]
    }

    /// Place of each seat, 1 (大客) … 5 (大拉), 0 while unknown.
    pub fn places(&self) -> [u8; PLAYERS] {
        let mut p = [0; PLAYERS];
        for (i, &s) in self.finishing_order().iter().enumerate() {
            p[s as usize] = i as u8 + 1;
        }
        p
    }

    /// The current round (turn, play to beat, 接风 applicant).
    pub fn round(&self) -> &Round {
        &self.round
    }

    /// The play to beat, `None` when the player to act leads.
    pub fn play_to_beat(&self) -> Option<Shape> {
        (self.phase == Phase::Play && !self.round.leading).then_some(self.round.last)
    }

    /// The previous places 进贡 was made from (`None`: no tribute in this deal).
    pub fn tribute(&self) -> Option<[u8; PLAYERS]> {
        self.tribute
    }

    /// The cards of 进贡, pair by pair (大拉 → 大客, 二拉 → 二客): `(given, returned)`; `None`s
    /// when there was no tribute.
    pub fn tribute_cards(&self) -> [TributeCards; 2] {
        self.tribute_cards
    }

    /// The seat dealt the scepter BJ (the first to decide on accession).
    pub fn first_holder(&self) -> u8 {
        self.first_holder
    }

    /// Plays made so far.
    pub fn plays(&self) -> u32 {
        self.plays
    }

    fn phase_index(&self) -> u8 {
        match self.phase {
            Phase::Accession | Phase::GrabWindow | Phase::Forced => 0,
            Phase::Void => 1,
            _ => 3,
        }
    }

    // ----- legal moves ---------------------------------------------------------------------

    fn scepter_in_hand(&self, seat: u8) -> bool {
        self.scepter_card_at == seat
    }

    /// Number of legal moves of the player to act (0 when terminal).
    pub fn count_moves(&self) -> u32 {
        let seat = self.current as usize;
        match self.phase {
            Phase::Play => {
                let prev = self.play_to_beat();
                let plays = moves::count(&self.counts[seat], prev.as_ref(), self.rules.bombs);
                plays + self.extras().len() as u32
            }
            Phase::Over | Phase::Void => 0,
            _ => self.decision_moves().len() as u32,
        }
    }

    /// The `k`-th legal move (order of [`State::legal_moves`]).
    pub fn nth_move(&self, k: u32) -> Option<Move> {
        let seat = self.current as usize;
        match self.phase {
            Phase::Play => {
                let prev = self.play_to_beat();
                let plays = moves::count(&self.counts[seat], prev.as_ref(), self.rules.bombs);
                if k < plays {
                    moves::nth(&self.counts[seat], prev.as_ref(), self.rules.bombs, k)
                        .map(Move::Play)
                } else {
                    self.extras().get((k - plays) as usize).copied()
                }
            }
            Phase::Over | Phase::Void => None,
            _ => self.decision_moves().get(k as usize).copied(),
        }
    }

    /// A legal move drawn uniformly, `None` when terminal.
    pub fn sample_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.phase != Phase::Play {
            let n = self.count_moves();
            return (n > 0).then(|| self.nth_move(rng.random_range(0..n))).flatten();
        }
        Some(self.draw_in_play(rng).into())
    }

    /// A move of the play phase drawn uniformly: the hot path of random rollouts counts the
    /// plays once and decodes only the drawn one.
    #[inline(always)]
    fn draw_in_play<R: Rng + ?Sized>(&self, rng: &mut R) -> Response {
        let hand = &self.counts[self.current as usize];
        let prev = (!self.round.leading).then_some(self.round.last);
        let all = moves::Plays::new(hand, prev.as_ref(), self.rules.bombs);
        let plays = all.count();
        let k = rng.random_range(0..plays + self.extras_count());
        if k < plays {
            Response::Play(all.nth(k).expect("k below the count"))
        } else {
            self.extra_at(k - plays)
        }
    }

    /// Draw a move as [`State::sample_move`] does (the same draws, so the same deal) and apply
    /// it; `false` when the deal is over. The random rollout's loop: a pass, yield or 接风 — most
    /// decisions — goes straight to the round, without building and matching a [`Move`].
    #[inline]
    pub fn step_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        if self.phase != Phase::Play {
            let Some(mv) = self.sample_move(rng) else { return false };
            self.apply_unchecked(mv);
            return true;
        }
        match self.draw_in_play(rng) {
            Response::Play(shape) => {
                let revealed = self.take_cards(&shape);
                self.after_play(shape, revealed);
            }
            r => {
                self.round.respond_trusted(r, &self.rules);
                self.next_turn(); // nobody went out: only the round may be over
            }
        }
        true
    }

    /// Every legal move: plays first (order of [`moves::enumerate`]), then pass, yield, 接风; in
    /// accession the ascension cards, then grab, then abdicate.
    pub fn legal_moves(&self) -> Vec<Move> {
        (0..self.count_moves()).filter_map(|k| self.nth_move(k)).collect()
    }

    /// `self.extras().len()` without building the list (the random rollout's hot path).
    #[inline]
    fn extras_count(&self) -> u32 {
        let r = &self.round;
        if r.leading {
            return 0;
        }
        if r.second_circle {
            return 1; // pass only: no 让牌 and no 接风 in the yielders' second circle
        }
        2 + r.may_apply_jiefeng(&self.rules) as u32 // pass, yield, maybe 接风
    }

    /// The `i`-th of [`State::extras`] (`i < extras_count()`) without building the list.
    #[inline]
    fn extra_at(&self, i: u32) -> Response {
        match i {
            0 => Response::Pass,
            1 if self.round.may_yield() => Response::Yield,
            _ => Response::Jiefeng,
        }
    }

    /// Pass, yield and 接风 where allowed (none when leading).
    fn extras(&self) -> ExtraMoves {
        let mut e = ExtraMoves::default();
        if self.round.leading {
            return e;
        }
        e.push(Move::Pass);
        if self.round.may_yield() {
            e.push(Move::Yield);
        }
        if self.round.may_apply_jiefeng(&self.rules) {
            e.push(Move::Jiefeng);
        }
        e
    }

    fn decision_moves(&self) -> Vec<Move> {
        let seat = self.current;
        let hand = &self.hands[seat as usize];
        match self.phase {
            Phase::Accession => {
                let mut v: Vec<Move> =
                    ascension_options(hand, self.scepter_in_hand(seat), &self.rules)
                        .into_iter()
                        .map(|(c, _)| Move::Ascend(c))
                        .collect();
                v.push(Move::Grab);
                v.push(Move::Abdicate);
                v
            }
            Phase::GrabWindow => vec![Move::Grab, Move::Decline],
            Phase::Forced => forced_options(hand, self.scepter_in_hand(seat), &self.rules)
                .into_iter()
                .map(Move::Ascend)
                .collect(),
            Phase::GuardChoice => vec![Move::OpenGuard, Move::SecretGuard],
            Phase::SoloChoice => vec![Move::OpenSolo, Move::SecretSolo],
            Phase::Play | Phase::Over | Phase::Void => Vec::new(),
        }
    }

    /// Why `mv` is not legal now, or `Ok(())`.
    pub fn check_move(&self, mv: &Move) -> std::result::Result<(), String> {
        if self.is_terminal() {
            return Err("the deal is over".into());
        }
        match (self.phase, mv) {
            (Phase::Play, Move::Play(s)) => moves::check(
                &self.counts[self.current as usize],
                s,
                self.play_to_beat().as_ref(),
                self.rules.bombs,
            ),
            (Phase::Play, m) => {
                if self.extras().contains(m) {
                    Ok(())
                } else if self.round.leading {
                    Err("the leader must play (开牌)".into())
                } else {
                    Err(format!("{m} is not allowed now (§C.6/§C.7)"))
                }
            }
            (phase, m) => {
                if self.decision_moves().contains(m) {
                    Ok(())
                } else {
                    Err(format!("{m} is not a choice in phase {}", phase.name()))
                }
            }
        }
    }

    /// The cards a `Play(shape)` of the player to act takes from his hand: naturals suit by suit
    /// (S, H, D, C) with the 登基 card's suit last.
    pub fn cards_of(&self, shape: &Shape) -> Option<Multiset> {
        let seat = self.current;
        cards_for(&self.hands[seat as usize], shape, self.dengji, self.guard_card_of(seat))
    }

    // ----- applying moves ------------------------------------------------------------------

    /// Apply a legal move. Errors with `IllegalPlay` naming the move and the rule.
    pub fn apply(&mut self, mv: Move) -> Result<()> {
        self.check_move(&mv).map_err(|why| ZhipaiError::illegal_play(mv, why))?;
        self.apply_unchecked(mv);
        Ok(())
    }

    /// Apply a move known to be legal (from [`State::legal_moves`], [`State::nth_move`],
    /// [`State::sample_move`] or a built-in policy) without checking it again: the rollout hot
    /// path. Checked in debug builds; an illegal move here is a bug of the caller.
    pub fn apply_unchecked(&mut self, mv: Move) {
        debug_assert!(self.check_move(&mv).is_ok(), "illegal {mv}: {:?}", self.check_move(&mv));
        match mv {
            Move::Play(shape) => {
                let revealed = self.take_cards(&shape);
                self.after_play(shape, revealed);
            }
            _ => self.apply_decision(mv),
        }
    }

    /// Why the player to act may not play exactly `cards` (suits as given) now, or `None`: not
    /// held, not one well-formed play, or does not beat the play to beat.
    pub fn cards_error(&self, cards: &Multiset) -> Option<String> {
        self.cards_shape(cards).err()
    }

    /// The shape of `cards` as a legal play of the player to act.
    fn cards_shape(&self, cards: &Multiset) -> std::result::Result<Shape, String> {
        if self.phase != Phase::Play {
            return Err(format!("no card play in phase {}", self.phase.name()));
        }
        let seat = self.current;
        if !self.hands[seat as usize].contains_all(cards) {
            let short = self.hands[seat as usize].shortfall(cards);
            return Err(format!("seat {seat} does not hold {short}"));
        }
        let shape = shape_of(cards, self.guard_card_of(seat))?;
        self.check_move(&Move::Play(shape))?;
        Ok(shape)
    }

    /// Play exactly `cards` (suits as given). Errors with `IllegalPlay` when they are not held,
    /// not one well-formed play, or do not beat the play to beat.
    pub fn apply_cards(&mut self, cards: &Multiset) -> Result<()> {
        let shape = self.cards_shape(cards).map_err(|why| ZhipaiError::illegal_play(cards, why))?;
        self.play_cards(cards, shape);
        Ok(())
    }

    /// Play exactly `cards`, known to be a legal play of the player to act: [`State::apply_cards`]
    /// without the checks (the game trait's unchecked path; checked in debug builds).
    pub fn apply_cards_unchecked(&mut self, cards: &Multiset) {
        debug_assert!(self.cards_error(cards).is_none(), "illegal {cards}");
        let shape = shape_of(cards, self.guard_card_of(self.current)).expect("a legal play");
        self.play_cards(cards, shape);
    }

    /// Take `cards` (of `shape`) from the hand of the player to act and play them.
    fn play_cards(&mut self, cards: &Multiset, shape: Shape) {
        let seat = self.current as usize;
        let held = self.hands[seat].remove_all(cards);
        debug_assert!(held.is_ok(), "checked: the hand holds the cards");
        self.counts[seat].remove(&shape);
        let revealed = self.dengji.is_some_and(|d| cards.contains(d));
        self.after_play(shape, revealed);
    }

    fn apply_decision(&mut self, mv: Move) {
        let seat = self.current;
        match mv {
            Move::Ascend(card) => self.ascend(seat, card),
            Move::Grab => {
                self.take_scepter(seat);
                self.emperor = seat;
                self.mode = Mode::Grab;
                self.start_play();
            }
            Move::Abdicate => {
                self.grab_from = seat;
                self.phase = Phase::GrabWindow;
                self.current = clockwise(seat);
            }
            Move::Decline => {
                let next = clockwise(seat);
                if next != self.grab_from {
                    self.current = next;
                } else {
                    self.pass_scepter();
                }
            }
            Move::OpenGuard | Move::SecretGuard => {
                self.mode = if mv == Move::OpenGuard { Mode::OpenGuard } else { Mode::Normal };
                self.guard_revealed = mv == Move::OpenGuard;
                self.start_play();
            }
            Move::OpenSolo | Move::SecretSolo => {
                self.mode = if mv == Move::OpenSolo { Mode::OpenSolo } else { Mode::SecretSolo };
                self.start_play();
            }
            Move::Pass | Move::Yield | Move::Jiefeng => {
                let r = match mv {
                    Move::Pass => Response::Pass,
                    Move::Yield => Response::Yield,
                    _ => Response::Jiefeng,
                };
                // Checked by `apply`, or drawn from the legal moves.
                self.round.respond_trusted(r, &self.rules);
                // Nobody went out, so the deal goes on; only the round may be over.
                self.next_turn();
            }
            Move::Play(_) => unreachable!("plays go through State::play"),
        }
    }

    /// 让位 done and nobody grabbed: the scepter moves clockwise; after five, 逼位.
    fn pass_scepter(&mut self) {
        let to = clockwise(self.grab_from);
        self.scepter_holder = to;
        if self.rules.abdication_moves_card {
            self.move_card(self.scepter_card_at, to, Card::BIG_JOKER);
            self.scepter_card_at = to;
        }
        self.abdications += 1;
        if self.abdications < PLAYERS as u8 {
            self.phase = Phase::Accession;
            self.current = to;
            return;
        }
        // 逼位 (§C.3.3): clockwise from the first holder, the first with exactly 3 identical cards.
        let mut seat = self.first_holder;
        for _ in 0..PLAYERS {
            if !forced_options(&self.hands[seat as usize], self.scepter_in_hand(seat), &self.rules)
                .is_empty()
            {
                self.phase = Phase::Forced;
                self.current = seat;
                return;
            }
            seat = clockwise(seat);
        }
        self.phase = Phase::Void; // 黄局 (§C.3.4)
    }

    fn take_scepter(&mut self, seat: u8) {
        self.scepter_holder = seat;
        if self.rules.abdication_moves_card && self.scepter_card_at != seat {
            self.move_card(self.scepter_card_at, seat, Card::BIG_JOKER);
            self.scepter_card_at = seat;
        }
    }

    fn ascend(&mut self, seat: u8, card: Card) {
        self.take_scepter(seat);
        self.emperor = seat;
        self.dengji = Some(card);
        self.current = seat;
        if self.hands[seat as usize].count(card) == 4 {
            self.phase = Phase::SoloChoice; // 独保 (§C.3.1)
            return;
        }
        let guard =
            (0..PLAYERS as u8).find(|&s| s != seat && self.hands[s as usize].contains(card));
        self.guard = guard;
        match guard {
            Some(g) => {
                self.recount(g); // the guard card may rank above BJ
                self.phase = Phase::GuardChoice;
                self.current = g;
            }
            None => self.phase = Phase::SoloChoice, // unreachable with a full deck
        }
    }

    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.round = Round::new(self.emperor, 0b11111);
        self.current = self.emperor; // 默认每局最初都由皇帝出牌 (§C.6)
    }

    /// Remove the cards of `shape` from the hand of the player to act, choosing suits as
    /// [`cards_for`] does; returns whether a copy of the 登基 card was among them.
    fn take_cards(&mut self, shape: &Shape) -> bool {
        let seat = self.current as usize;
        let guard_card = self.guard_card_of(self.current);
        let hand = &mut self.hands[seat];
        let mut revealed = false;
        let remove = |hand: &mut Multiset, card: Card, n: u8| {
            hand.remove_up_to(card, n as usize);
        };
        if shape.jokers() > 0 {
            if let Some(g) = guard_card {
                remove(hand, g, shape.guard);
                revealed |= shape.guard > 0;
            }
            remove(hand, Card::BIG_JOKER, shape.big);
            remove(hand, Card::SMALL_JOKER, shape.small);
            if let Some(d) = self.dengji.filter(|d| d.is_joker() && guard_card.is_none()) {
                revealed |= (d == Card::BIG_JOKER && shape.big > 0)
                    || (d == Card::SMALL_JOKER && shape.small > 0);
            }
        }
        if shape.naturals > 0 {
            let rank = moves::strength_rank(shape.rank);
            let last = self.dengji.filter(|d| d.rank() == Some(rank));
            let mut left = shape.naturals as usize;
            // The held kinds of the rank in suit order (kind index = suit × 13 + rank), the
            // guard card (never a natural) and the 登基 card (taken last) left out.
            let skip = last.map_or(0, Card::bit) | guard_card.map_or(0, Card::bit);
            let mut kinds = CardSet::rank_mask(rank).0 & hand.kinds().0 & !skip;
            while left > 0 && kinds != 0 {
                let card = Card::from_index(kinds.trailing_zeros() as usize).expect("a kind");
                kinds &= kinds - 1;
                left -= hand.remove_up_to(card, left);
            }
            if let Some(d) = last.filter(|_| left > 0) {
                hand.remove_up_to(d, left);
                revealed = true;
            }
        }
        self.counts[seat].remove(shape);
        revealed
    }

    fn after_play(&mut self, shape: Shape, revealed: bool) {
        let seat = self.current;
        let s = seat as usize;
        if Some(seat) == self.guard {
            self.guard_revealed |= revealed;
        }
        self.plays += 1;
        let finished = self.counts[s].is_empty();
        if finished {
            self.finish[self.finished as usize] = seat;
            self.finished += 1;
        }
        if self.round.leading {
            self.round.lead(shape, finished);
        } else {
            // Checked by `apply` / `apply_cards`, or drawn from move generation.
            self.round.respond_trusted_play(shape, finished);
        }
        self.after_response();
    }

    fn after_response(&mut self) {
        if self.round.active_count() <= 1 {
            if let Some(last) = (0..PLAYERS as u8).find(|&s| self.round.active & (1 << s) != 0) {
                self.finish[self.finished as usize] = last;
                self.finished += 1;
            }
            self.end();
            return;
        }
        if self.stop_when_decided && self.decided() {
            self.end();
            return;
        }
        self.next_turn();
    }

    /// The next player to act, opening a new round when this one is over (two or more players
    /// still hold cards).
    #[inline]
    fn next_turn(&mut self) {
        if self.round.over {
            let leader = self.round.next_leader().expect("two or more active");
            self.round = Round::new(leader, self.round.active);
        }
        self.current = self.round.turn;
    }

    fn decided(&self) -> bool {
        let out = |s: u8| self.round.active & (1 << s) == 0;
        if self.mode.is_solo() {
            return self.finished > 0;
        }
        let g = self.guard.expect("normal modes have a guard");
        let team_out = out(self.emperor) && out(g);
        let rebels_out = (0..5).filter(|&s| s != self.emperor && s != g).all(out);
        team_out || rebels_out
    }

    fn end(&mut self) {
        self.phase = Phase::Over;
        let places = self.places();
        let e = self.emperor as usize;
        let mut ep = places[e];
        let mut gp = self.guard.map(|g| places[g as usize]);
        // Cut short (stop_when_decided): unknown team places only occur when all rebels are out
        // (places 4 and 5, same group score either way) or, solo, when the emperor lost.
        if ep == 0 {
            ep = if self.mode.is_solo() {
                2
            } else if gp == Some(4) {
                5
            } else {
                4
            };
        }
        if gp == Some(0) {
            gp = Some(if ep == 4 { 5 } else { 4 });
        }
        let sc = score(&self.rules, self.mode, ep, gp).expect("places are valid");
        for seat in 0..PLAYERS {
            self.returns[seat] = if seat == e {
                sc.emperor
            } else if Some(seat as u8) == self.guard {
                sc.guard.unwrap_or(0)
            } else {
                sc.rebel
            };
        }
    }
}

impl From<Response> for Move {
    fn from(r: Response) -> Move {
        match r {
            Response::Play(shape) => Move::Play(shape),
            Response::Pass => Move::Pass,
            Response::Yield => Move::Yield,
            Response::Jiefeng => Move::Jiefeng,
        }
    }
}

/// Up to three non-play moves, without allocating.
#[derive(Clone, Copy, Default)]
struct ExtraMoves {
    moves: [Option<Move>; 3],
    len: usize,
}

impl ExtraMoves {
    fn push(&mut self, m: Move) {
        self.moves[self.len] = Some(m);
        self.len += 1;
    }
    fn len(&self) -> usize {
        self.len
    }
    fn get(&self, i: usize) -> Option<&Move> {
        self.moves.get(i).and_then(|m| m.as_ref()).filter(|_| i < self.len)
    }
    fn contains(&self, m: &Move) -> bool {
        self.moves[..self.len].contains(&Some(*m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;

    #[test]
    fn a_deal_has_216_cards_43_or_44_each() {
        let r = BaohuangRules::default();
        let mut rng = deal_rng(1, 0);
        let d = deal(&r, &mut rng);
        let sizes: Vec<usize> = d.hands.iter().map(|h| h.len()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), 216);
        assert_eq!(sizes[d.first_dealt as usize], 44);
        assert_eq!(sizes.iter().filter(|&&n| n == 43).count(), 4);
        assert!(d.hands[d.scepter as usize].contains(Card::BIG_JOKER));
        let r168 = BaohuangRules { deck: Deck::Rizhao168, ..Default::default() };
        let d = deal(&r168, &mut rng);
        let mut sizes: Vec<usize> = d.hands.iter().map(|h| h.len()).collect();
        sizes.sort();
        assert_eq!(sizes, vec![33, 33, 34, 34, 34]);
        assert!(d.hands.iter().all(|h| !h.contains("3S".parse().unwrap())));
    }

    #[test]
    fn scepter_last_gives_the_scepter_holder_44() {
        let r = BaohuangRules { extra_card_to: ExtraCardTo::ScepterLast, ..Default::default() };
        let r168 = BaohuangRules { deck: Deck::Rizhao168, ..r.clone() };
        let mut scepter_seats = [0; PLAYERS];
        for i in 0..200 {
            let d = deal(&r, &mut deal_rng(3, i));
            assert_eq!(d.hands[d.scepter as usize].len(), 44);
            scepter_seats[d.scepter as usize] += 1;
            // 168 cards: still a round-the-table deal (34/34/34/33/33), the scepter dealt last.
            let d = deal(&r168, &mut deal_rng(3, i));
            let mut sizes = d.hands.map(|h| h.len());
            assert!(d.hands[d.scepter as usize].contains(Card::BIG_JOKER));
            sizes.sort();
            assert_eq!(sizes, [33, 33, 34, 34, 34], "deal {i}");
            let hands = d.hands;
            assert!(State::from_hands(&r168, hands, d.scepter, d.first_dealt).is_ok());
        }
        assert!(scepter_seats.iter().all(|&n| n > 20), "any seat: {scepter_seats:?}");
    }

    fn hands_from(texts: [&str; 5]) -> [Multiset; 5] {
        texts.map(|t| t.parse().unwrap())
    }

    /// A fixed deal: seat 0 holds the scepter and 3 ♣9 (4th ♣9 at seat 2) and 4 ♦K.
    fn fixed_state(rules: &BaohuangRules) -> State {
        let mut rest = full_deck(rules);
        let mut hands = [Multiset::EMPTY; 5];
        for c in ["BJ", "9C", "9C", "9C", "KD", "KD", "KD", "KD"] {
            let c: Card = c.parse().unwrap();
            rest.remove(c);
            hands[0].add(c);
        }
        let nine: Card = "9C".parse().unwrap();
        rest.remove(nine);
        hands[2].add(nine);
        // Fill seat 0 to 44 cards with no further BJ (its accession options stay ♣9 and ♦K),
        // then deal the rest to seats 1-4, always to the shortest hand (43 each, §C.1).
        let fill: Vec<Card> =
            rest.iter().filter(|&c| c != Card::BIG_JOKER).take(44 - hands[0].len()).collect();
        for c in fill {
            rest.remove(c);
            hands[0].add(c);
        }
        for c in rest.iter() {
            let seat = (1..5).min_by_key(|&p| hands[p].len()).expect("four seats");
            hands[seat].add(c);
        }
        State::from_hands(rules, hands, 0, 0).unwrap()
    }

    #[test]
    fn accession_with_a_guard_and_open_guard_doubles() {
        let r = BaohuangRules::default();
        let mut s = fixed_state(&r);
        let mv = s.legal_moves();
        assert!(mv.contains(&Move::Ascend("9C".parse().unwrap())));
        assert!(mv.contains(&Move::Ascend("KD".parse().unwrap())));
        s.apply(Move::Ascend("9C".parse().unwrap())).unwrap();
        assert_eq!(s.phase(), Phase::GuardChoice);
        assert_eq!(s.current_player(), Some(2));
        assert_eq!(s.guard(), Some(2));
        s.apply(Move::OpenGuard).unwrap();
        assert_eq!(s.mode(), Mode::OpenGuard);
        assert_eq!(s.current_player(), Some(0), "the emperor leads");
        assert!(s.apply(Move::Pass).is_err(), "the leader must play");
    }

    #[test]
    fn accession_solo_and_grab() {
        let r = BaohuangRules::default();
        let mut s = fixed_state(&r);
        s.apply(Move::Ascend("KD".parse().unwrap())).unwrap();
        assert_eq!(s.phase(), Phase::SoloChoice);
        s.apply(Move::SecretSolo).unwrap();
        assert_eq!(s.mode(), Mode::SecretSolo);
        assert_eq!(s.guard(), None);

        let mut s = fixed_state(&r);
        s.apply(Move::Abdicate).unwrap();
        assert_eq!(s.phase(), Phase::GrabWindow);
        assert_eq!(s.current_player(), Some(4), "clockwise from the holder");
        s.apply(Move::Decline).unwrap();
        s.apply(Move::Grab).unwrap(); // seat 3 grabs
        assert_eq!(s.mode(), Mode::Grab);
        assert_eq!(s.emperor(), Some(3));
        assert!(s.hand(3).contains(Card::BIG_JOKER));
        assert_eq!(
            s.hand(0).len(),
            43,
            "the scepter card moved away from seat 0 (44 cards before)"
        );
    }

    /// The strongest card of `hand` by play strength (any copy), the scepter BJ kept when it is
    /// the seat's only BJ.
    fn strongest(hand: &Multiset, keep_scepter: bool) -> Card {
        hand.iter()
            .filter(|&c| !(keep_scepter && c == Card::BIG_JOKER && hand.count(c) == 1))
            .max_by_key(|&c| (card_strength(c), c.index()))
            .expect("a card")
    }

    #[test]
    fn tribute_opens_every_deal_when_on() {
        let off = BaohuangRules::default();
        let on = BaohuangRules { tribute_between_deals: true, ..Default::default() };
        for i in 0..20 {
            let plain = State::new(&off, &mut deal_rng(3, i));
            let s = State::new(&on, &mut deal_rng(3, i));
            assert_eq!((plain.tribute(), s.tribute()), (None, Some(SEAT_ORDER_PLACES)));
            // Seat order: 大拉 = seat 4 pays 大客 = seat 0, 二拉 = seat 3 pays 二客 = seat 1.
            // Cards a seat holds after the tribute and did not before.
            let gained = |seat: u8| plain.hand(seat).missing_from(s.hand(seat));
            for (giver, taker) in [(4u8, 0u8), (3, 1)] {
                assert_eq!(s.hand(giver).len(), plain.hand(giver).len());
                assert_eq!(s.hand(taker).len(), plain.hand(taker).len());
                let paid = strongest(plain.hand(giver), plain.scepter_card_at == giver);
                // No net change when the taker returns a copy of the card he was paid.
                if let [got] = gained(taker)[..] {
                    assert_eq!(got, paid, "deal {i}: seat {taker} gets seat {giver}'s best");
                    let [low] = gained(giver)[..] else { panic!("one card returned") };
                    let mut with = *plain.hand(taker);
                    with.add(paid);
                    assert!(with.iter().all(|c| card_strength(c) >= card_strength(low)));
                }
            }
            for seat in 0..5u8 {
                assert_eq!(s.hand_counts(seat), &HandCounts::of(s.hand(seat), None));
            }
            let mut again = s.clone();
            let err = again.apply_tribute(SEAT_ORDER_PLACES).unwrap_err().to_string();
            assert!(err.contains("already"), "{err}");
        }
        let mut rng = deal_rng(3, 0);
        let err = State::new_after(&off, &mut rng, Some(SEAT_ORDER_PLACES)).unwrap_err();
        assert!(err.to_string().contains("tribute_between_deals"), "{err}");
        let err = State::new_after(&on, &mut rng, Some([1, 1, 3, 4, 5])).unwrap_err();
        assert!(err.to_string().contains("permutation"), "{err}");
        // Other previous places: 大拉 = seat 0 pays 大客 = seat 2.
        let plain = State::new(&off, &mut deal_rng(3, 5));
        let s = State::new_after(&on, &mut deal_rng(3, 5), Some([5, 4, 1, 2, 3])).unwrap();
        let paid = strongest(plain.hand(0), plain.scepter_card_at == 0);
        let received = plain.hand(2).missing_from(s.hand(2));
        assert!(received.is_empty() || received == vec![paid]);
        assert_ne!(s.hand(2), plain.hand(2));
        assert_eq!(s.tribute(), Some([5, 4, 1, 2, 3]));
    }

    #[test]
    fn five_abdications_force_or_void() {
        let r = BaohuangRules::default();
        let mut s = fixed_state(&r);
        for _ in 0..5 {
            s.apply(Move::Abdicate).unwrap();
            for _ in 0..4 {
                s.apply(Move::Decline).unwrap();
            }
        }
        // Back at seat 0 (the card went round the table); seat 0 has exactly three ♣9.
        assert_eq!(s.phase(), Phase::Forced);
        assert_eq!(s.current_player(), Some(0));
        assert_eq!(s.legal_moves(), vec![Move::Ascend("9C".parse().unwrap())]);
        s.apply(Move::Ascend("9C".parse().unwrap())).unwrap();
        assert_eq!(s.guard(), Some(2));
    }

    #[test]
    fn bad_hands_are_rejected() {
        let r = BaohuangRules::default();
        let hands = hands_from(["BJ", "", "", "", ""]);
        let e = State::from_hands(&r, hands, 0, 0).unwrap_err();
        assert!(e.to_string().contains("missing"), "{e}");
    }

    #[test]
    fn random_deals_terminate_conserve_cards_and_sum_to_zero() {
        let r = BaohuangRules::default();
        for i in 0..30 {
            let mut rng = deal_rng(9, i);
            let mut s = State::new(&r, &mut rng);
            let mut steps = 0;
            while let Some(mv) = s.sample_move(&mut rng) {
                s.apply(mv).unwrap();
                steps += 1;
                assert!(steps < 100_000);
                let total: usize = (0..5).map(|p| s.hand(p).len()).sum();
                let counted: usize = (0..5).map(|p| s.hand_counts(p).len()).sum();
                assert_eq!(total, counted);
            }
            assert!(s.is_terminal());
            assert_eq!(s.returns().iter().sum::<i32>(), 0, "deal {i}");
            if !s.is_void() {
                let mut p = s.places();
                p.sort();
                assert_eq!(p, [1, 2, 3, 4, 5]);
            }
        }
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Under any options: every random deal terminates, cards are conserved, the legal-move
        /// operations agree with `check_move`, and the scores sum to zero.
        #[test]
        fn random_deals_under_any_options(seed in any::<u64>(), deck168 in any::<bool>(), above in any::<bool>(),
                                          bombs in any::<bool>(), final_pass in any::<bool>(), any_jf in any::<bool>(),
                                          moves_card in any::<bool>(), scepter_last in any::<bool>()) {
            use super::super::options::JiefengApplicant;
            let r = BaohuangRules {
                deck: if deck168 { Deck::Rizhao168 } else { Deck::Full216 },
                guard_card_rank: if above { GuardCardRank::AboveBigJoker } else { GuardCardRank::Face },
                bombs,
                pass_is_final_for_round: final_pass,
                jiefeng_applicant: if any_jf { JiefengApplicant::Any } else { JiefengApplicant::NextPlayerOnly },
                abdication_moves_card: moves_card,
                extra_card_to: if scepter_last { ExtraCardTo::ScepterLast } else { ExtraCardTo::FirstDealtSeat },
                ..Default::default()
            };
            let mut rng = deal_rng(seed, 0);
            let mut s = State::new(&r, &mut rng);
            let deck = full_deck(&r).len();
            let mut steps = 0;
            let mut played = 0usize;
            while let Some(mv) = s.sample_move(&mut rng) {
                if let Move::Play(sh) = mv {
                    played += sh.total() as usize;
                }
                if s.phase() == Phase::Play {
                    // The rollout shortcuts agree with the listed non-play moves.
                    let extras = s.extras();
                    prop_assert_eq!(s.extras_count() as usize, extras.len());
                    for i in 0..extras.len() {
                        prop_assert_eq!(Some(&s.extra_at(i as u32).into()), extras.get(i));
                    }
                }
                if steps % 7 == 0 {
                    let all = s.legal_moves();
                    prop_assert_eq!(all.len() as u32, s.count_moves());
                    for m in &all {
                        prop_assert!(s.check_move(m).is_ok(), "{} listed but illegal", m);
                    }
                }
                prop_assert!(s.check_move(&mv).is_ok());
                s.apply(mv).unwrap();
                steps += 1;
                prop_assert!(steps < 100_000);
                let held: usize = (0..5).map(|p| s.hand(p).len()).sum();
                prop_assert_eq!(held + played, deck, "cards are conserved");
                let counted: usize = (0..5).map(|p| s.hand_counts(p).len()).sum();
                prop_assert_eq!(held, counted);
            }
            prop_assert!(s.is_terminal());
            prop_assert_eq!(s.returns().iter().sum::<i32>(), 0);
            if !s.is_void() {
                let mut p = s.places();
                p.sort();
                prop_assert_eq!(p, [1, 2, 3, 4, 5]);
                prop_assert_eq!((0..5).map(|p| s.hand(p).len()).filter(|&n| n > 0).count() <= 1, true);
            }
            // The rollout loop (`step_random`, in place) makes the same draws and moves.
            let mut rng = deal_rng(seed, 0);
            let mut fast = State::new(&r, &mut rng);
            while fast.step_random(&mut rng) {}
            prop_assert_eq!(fast.plays(), s.plays());
            prop_assert_eq!(fast.returns(), s.returns());
            prop_assert_eq!(fast.finishing_order(), s.finishing_order());
            prop_assert_eq!((fast.mode(), fast.guard_revealed()), (s.mode(), s.guard_revealed()));
            for p in 0..5 {
                prop_assert_eq!(fast.hand(p), s.hand(p));
            }
        }
    }
}
