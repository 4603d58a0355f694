//! The game trait for Baohuang: [`DealState`] (one deal in progress, [`GameState`]) and
//! `impl Game for BaohuangRules`.
//!
//! A deal is the core [`State`] plus the deal's own generator, the typed history and the play
//! being built card by card. It behaves as `zhipai.simulate` plays a deal: a void deal (黄局,
//! baohuang.md §C.3.4) is redealt at once from the same generator (with the same 进贡, if any),
//! the history records which deal each move belongs to and the visible history is the current
//! deal's.

use super::actions::{self, Action, NUM_ACTIONS};
use super::history::{set_secret_choice, DealParts, Record};
use super::observe;
use super::play_cards::{self, decision, parse_move, to_cards, CardMove};
use super::policy::{self as builtin, write_row};
use super::search;
use super::state::{Move, Phase as BhPhase, State, PLAYERS};
use super::tensor;
use super::BaohuangRules;
use crate::deal::{deal_rng, Deal};
use crate::error::{Result, ZhipaiError};
use crate::game::{
    check_seat, deal_over, not_over, Column, DealSetup, Game, GameRng, GameState, HistoryEntry,
    Observation, Phase, TensorField,
};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;

/// Void deals (黄局) redealt in a row before giving up, as [`BaohuangRules::play_out`].
const MAX_REDEALS: u32 = 1000;

/// One deal of Baohuang in progress, for the game trait.
///
/// **Moves** ([`CardMove`]): `Play(cards)` — a play with its suits, so a play with the 登基
/// card and the same play without it are two moves (a guard playing it reveals himself,
/// §C.3.6) — or a word: `pass`, `yield`, `jiefeng`, `ascend <card>`, `abdicate`, `grab`,
/// `decline`, `open_guard`, `secret_guard`, `open_solo`, `secret_solo`. Text: a play is its
/// cards (`"9S 9H BJ"`), read in any order and letter case; words in any letter case.
///
/// **Move list** ([`GameState::legal_moves`]): each legal play up to suits once, with the
/// suits [`State::cards_of`] takes (the 登基 card last), directly followed by the same play with
/// the 登基 card when the seat holds it; then `pass`, `yield`, `jiefeng`. In the accession phases:
/// `ascend <card>` in card order, `grab`, `abdicate` (or `grab`, `decline`; `open_*`,
/// `secret_*`). [`GameState::count_legal_moves`] counts every distinct card multiset, so it
/// exceeds the list's length whenever a play has another choice of suits (any of which may be
/// applied).
///
/// **Actions** (a fixed space of 119, see [`super::actions`]):
///
/// | actions   | meaning |
/// |-----------|---------|
/// | `0..54`   | add one card of kind `k` (♠2 … ♣A = `suit × 13 + rank`, 52 SJ, 53 BJ) to the play being built |
/// | `54`      | `stop`: play the cards built so far |
/// | `55..65`  | `pass`, `yield`, `jiefeng`, `abdicate`, `grab`, `decline`, `open_guard`, `secret_guard`, `open_solo`, `secret_solo` |
/// | `65..119` | `ascend <kind a − 65>` |
///
/// A card action is legal iff the cards built so far plus that card can still be completed to a
/// legal play; `stop` iff the cards built so far are a legal play; nothing else while cards are
/// pending, and `apply_move` / `apply_builtin` are refused then (the move list, count and
/// sample ignore the pending cards: they are the whole moves of the seat to act).
///
/// **Random moves** ([`GameState::sample_legal_move`], the `random` policy): uniform over the
/// legal moves up to suits (each shape once, `pass`, `yield`, `jiefeng`, accession words), the
/// cards then chosen as in the list (the 登基 card last).
///
/// **Observation tensor** ([`GameState::observation_layout`], float32; seats relative to the
/// observer: row `i` = the seat `i` places after him in playing order; card planes in kind order
/// ♠2 … ♣A, SJ, BJ holding copies 0–4; see [`super::tensor`]):
///
/// | field | offset | len | meaning |
/// |-------|--------|-----|---------|
/// | `hand` | 0 | 54 | the observer's hand: copies of each card kind (0-4) |
/// | `played` | 54 | 270 | cards each seat played in this deal (row i = the seat i places after the observer) |
/// | `known` | 324 | 270 | cards the observer knows in each other hand: the scepter BJ, the 登基 card's copies the rules make certain, 进贡 cards (row 0 empty) |
/// | `voids` | 594 | 270 | 1 = the seat is known to hold no card of that kind (进贡: nothing above the card given, nothing below the card returned) |
/// | `hands` | 864 | 270 | every seat's hand, with `perfect` only (zeros otherwise) |
/// | `play_to_beat` | 1134 | 54 | the cards of the play to beat (zeros when the seat to act leads) |
/// | `play_owner` | 1188 | 5 | one-hot: who made the play to beat |
/// | `pending` | 1193 | 54 | the cards of the play being built card by card (pending_cards) |
/// | `phase` | 1247 | 8 | one-hot: accession, grab_window, forced, guard_choice, solo_choice, hidden_choice (another seat's secret 明保/暗保 or 明独/暗独), play, over (a void deal too) |
/// | `to_act` | 1255 | 5 | one-hot: the seat to act (none once over, or while hidden_choice) |
/// | `scepter` | 1260 | 5 | one-hot: the holder of the scepter mark (权杖) |
/// | `scepter_card` | 1265 | 5 | one-hot: the seat holding the physical scepter BJ (differs with abdication_moves_card = false) |
/// | `first_dealt` | 1270 | 5 | one-hot: the seat dealt first (the extra card) |
/// | `emperor` | 1275 | 5 | one-hot: the emperor |
/// | `guard` | 1280 | 5 | one-hot: the guard, when the observer knows him (himself, 明保, or the 登基 card played) |
/// | `dengji` | 1285 | 54 | one-hot: the 登基 card |
/// | `mode` | 1339 | 5 | one-hot as the observer sees it: normal (暗保), open_guard (明保), grab (抢独), open_solo (明独), secret_solo (暗独; reads normal to all but the emperor); zeros before accession |
/// | `guard_revealed` | 1344 | 1 | 1 once the guard is known to all |
/// | `hand_sizes` | 1345 | 5 | cards each seat holds / 44 |
/// | `places` | 1350 | 25 | row i one-hot: the finishing place 1-5 of seat i (zeros while it holds cards) |
/// | `round` | 1375 | 4 | flags: the seat to act leads; the yielders' second circle; the seat to act may yield; may apply for 接风 |
/// | `to_respond` | 1379 | 5 | seats still to respond to the play to beat in this circle |
/// | `yielded` | 1384 | 5 | seats that yielded (让牌) in this first circle |
/// | `passed` | 1389 | 5 | seats out of this round by a pass (pass_is_final_for_round = true) |
/// | `jiefeng` | 1394 | 5 | one-hot: the 接风 applicant |
/// | `counters` | 1399 | 3 | abdications / 5, plays / 216, min(redeals, 10) / 10 |
/// | `tribute_places` | 1402 | 25 | row i one-hot: the previous deal's place 1-5 of seat i that 进贡 was made from (zeros without 进贡) |
/// | `tribute_gave` | 1427 | 54 | the card the observer gave in 进贡 (a giver: his highest; a receiver: the card he returned) |
/// | `tribute_got` | 1481 | 54 | the card the observer received in 进贡 |
///
/// 1535 floats in all.
///
/// **Returns**: the settled score of each seat (§C.9 group scores split 2/3, 1/3, −1/3 each
/// rebel, doubled by 明保; §C.10 solo tables), integers; they sum to 0 in every deal (with the
/// default `solo_loss_literal_minus40 = false`; the literal −40 is not zero-sum).
#[derive(Clone, Debug)]
pub struct DealState {
    state: State,
    pub(super) rng: GameRng,
    /// 黄局 redeals so far: the number of the deal being played.
    pub(super) redeals: u32,
    /// A void deal is redealt (dealt deals) or ends the deal (given hands: a redeal would lose
    /// them; scored 0 with emperor −1, as hand evaluation reports it).
    redeal_void: bool,
    history: Vec<Record>,
    /// The play being built card by card (actions).
    pending: Multiset,
    /// [`GameState::play_out`] made moves without recording them: what each seat played is no
    /// longer known from the history (`seat_view` refuses then).
    unrecorded: bool,
}

impl DealState {
    /// Deal `index` of a `simulate` run seeded `seed`: the same cards (with 进贡 from seat-order
    /// places when `tribute_between_deals = on`) and generator.
    pub fn new_deal(rules: &BaohuangRules, seed: u64, index: u64) -> DealState {
        let mut rng = deal_rng(seed, index);
        let state = State::new(rules, &mut rng);
        DealState::start(state, rng, true)
    }

    /// Deal `index` of seed `seed` following a deal that ended with `previous_places` (`[seat]`
    /// = place 1..=5): with `tribute_between_deals = on` it opens with 进贡 from those places
    /// (`None` = seat order, as [`DealState::new_deal`]); a redeal keeps them. Errors as
    /// [`State::new_after`] (the option off, places that are not a permutation of 1..=5).
    pub fn new_after(
        rules: &BaohuangRules,
        seed: u64,
        index: u64,
        previous_places: Option<[u8; PLAYERS]>,
    ) -> Result<DealState> {
        let mut rng = deal_rng(seed, index);
        let state = State::new_after(rules, &mut rng, previous_places)?;
        Ok(DealState::start(state, rng, true))
    }

    /// A deal of given hands (seats in playing order), `scepter` = the seat holding the scepter
    /// BJ, `first_dealt` = the seat dealt first (it holds the extra card), drawing chance and
    /// built-in moves from `rng`. A void deal (黄局) ends it (phase `Done`, returns 0, row with
    /// emperor −1), as hand evaluation reports it. Errors as [`State::from_hands`].
    pub fn from_hands(
        rules: &BaohuangRules,
        hands: [Multiset; PLAYERS],
        scepter: u8,
        first_dealt: u8,
        rng: GameRng,
    ) -> Result<DealState> {
        let state = State::from_hands(rules, hands, scepter, first_dealt)?;
        Ok(DealState::start(state, rng, false))
    }

    fn start(state: State, rng: GameRng, redeal_void: bool) -> DealState {
        DealState {
            state,
            rng,
            redeals: 0,
            redeal_void,
            history: Vec::new(),
            pending: Multiset::EMPTY,
            unrecorded: false,
        }
    }

    /// The core state of the deal being played (emperor, guard, mode, places, …).
    pub fn core(&self) -> &State {
        &self.state
    }

    /// The deal as the search support and the tensor read it.
    pub(super) fn parts(&self) -> DealParts<'_> {
        DealParts {
            state: &self.state,
            history: &self.history,
            redeals: self.redeals,
            pending: self.pending,
            unrecorded: self.unrecorded,
        }
    }

    /// The moves recorded (every deal), as the search tests replay them.
    #[cfg(test)]
    pub(super) fn records(&self) -> &[Record] {
        &self.history
    }

    /// 黄局 redeals so far.
    pub fn redeals(&self) -> u32 {
        self.redeals
    }

    /// Refuse a whole move while a play is being built card by card.
    fn check_no_pending(&self, what: impl std::fmt::Display) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        Err(ZhipaiError::illegal_play(
            what,
            format!("a play is being built card by card ({}): finish it with stop", self.pending),
        ))
    }

    /// Record `mv` as made by the seat to act (before it is applied).
    fn record(&mut self, mv: CardMove, builtin: Option<Policy>) {
        let seat = self.state.current_player().expect("a seat to act");
        self.history.push(Record { seat, deal: self.redeals, mv, builtin });
    }

    /// Apply a legal move: a play takes exactly its cards.
    fn apply_legal(&mut self, mv: &CardMove) {
        match mv {
            Move::Play(cards) => self.state.apply_cards_unchecked(cards),
            m => self.state.apply_unchecked(decision(m).expect("a non-play move")),
        }
    }

    /// After a move: a void deal is redealt from the deal's generator, after the same previous
    /// deal (the same 进贡); `ImpossibleDeal` after 1000 in a row (the state then stays void,
    /// scored 0), as `simulate`.
    fn after_move(&mut self) -> Result<()> {
        if !(self.state.is_void() && self.redeal_void) {
            return Ok(());
        }
        self.redeals += 1;
        if self.redeals >= MAX_REDEALS {
            return Err(ZhipaiError::impossible_deal(format!(
                "{MAX_REDEALS} void deals (黄局) in a row"
            )));
        }
        let rules = self.state.rules().clone();
        self.state = State::new_after(&rules, &mut self.rng, self.state.tribute())?;
        Ok(())
    }

    fn choose(&mut self, policy: Policy) -> Result<Move> {
        builtin::choose(policy, &self.state, &mut self.rng).ok_or_else(|| deal_over("builtin move"))
    }

    fn apply_card_action(&mut self, a: usize, card: crate::cards::Card) -> Result<()> {
        if !actions::legal(&self.state, &self.pending).contains(&a) {
            let why = if self.state.phase() == BhPhase::Play {
                format!(
                    "the cards so far ({}) and {card} cannot be completed to a legal play",
                    self.pending
                )
            } else {
                format!("no card play in phase {}", self.phase())
            };
            return Err(ZhipaiError::illegal_play(format!("action {a} ({card})"), why));
        }
        self.pending.add(card);
        Ok(())
    }

    fn apply_stop(&mut self) -> Result<()> {
        let cards = self.pending;
        if cards.is_empty() {
            return Err(ZhipaiError::illegal_play("action 54 (stop)", "no card built yet"));
        }
        if let Some(why) = self.state.cards_error(&cards) {
            return Err(ZhipaiError::illegal_play(format!("action 54 (stop) {cards}"), why));
        }
        self.pending = Multiset::EMPTY;
        self.apply_move(&Move::Play(cards))
    }
}

impl GameState for DealState {
    type Move = CardMove;

    fn num_players(&self) -> usize {
        PLAYERS
    }

    fn current_player(&self) -> Option<usize> {
        self.state.current_player().map(usize::from)
    }

    fn phase(&self) -> Phase {
        self.state.phase().shared()
    }

    /// Settled scores (see [`DealState`]); `+ 0.0` keeps a zero from being `-0.0`.
    fn returns(&self) -> Vec<f64> {
        self.state.returns().iter().map(|&r| f64::from(r) + 0.0).collect()
    }

    fn legal_moves(&self, limit: usize) -> Vec<CardMove> {
        play_cards::listed(&self.state, limit)
    }

    fn count_legal_moves(&self) -> u64 {
        play_cards::count(&self.state)
    }

    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<CardMove> {
        self.state.sample_move(rng).map(|m| to_cards(&self.state, m))
    }

    fn check_move(&self, mv: &CardMove) -> Result<()> {
        if self.state.is_terminal() {
            return Err(deal_over(mv));
        }
        // The errors of `BaohuangGameState.apply`: the cards, or the word, and the rule.
        if let Move::Play(cards) = mv {
            return match self.state.cards_error(cards) {
                Some(why) => Err(ZhipaiError::illegal_play(cards, why)),
                None => Ok(()),
            };
        }
        let d = decision(mv).expect("a non-play move");
        self.state.check_move(&d).map_err(|why| ZhipaiError::illegal_play(mv, why))
    }

    fn apply_move(&mut self, mv: &CardMove) -> Result<()> {
        self.check_no_pending(mv)?;
        self.check_move(mv)?;
        self.record(*mv, None);
        self.apply_legal(mv);
        self.after_move()
    }

    fn apply_move_unchecked(&mut self, mv: &CardMove) {
        debug_assert!(self.pending.is_empty(), "a play is being built: {}", self.pending);
        self.record(*mv, None);
        self.apply_legal(mv);
        // Only 1000 void deals in a row fail; the state then stays void (scored 0).
        let _ = self.after_move();
    }

    fn move_to_string(&self, mv: &CardMove) -> String {
        mv.to_string()
    }

    /// A word in any letter case (`"Pass"`, `"ASCEND 9C"`), else the text read as the cards of
    /// a play. Errors: `InvalidCard` for a token that is no card.
    fn parse_move(&self, text: &str) -> Result<CardMove> {
        parse_move(text)
    }

    fn builtin_move(&mut self, policy: Policy) -> Result<CardMove> {
        let mv = self.choose(policy)?;
        Ok(to_cards(&self.state, mv))
    }

    fn apply_builtin(&mut self, policy: Policy) -> Result<CardMove> {
        self.check_no_pending("builtin move")?;
        let mv = self.choose(policy)?;
        let cards = to_cards(&self.state, mv);
        self.record(cards, Some(policy));
        // The shape-level move, as `simulate` applies it (it takes the same cards, `cards_of`).
        self.state.apply_unchecked(mv);
        self.after_move()?;
        Ok(cards)
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        *out = actions::legal(&self.state, &self.pending);
    }

    fn apply_action(&mut self, action: usize) -> Result<()> {
        let Some(what) = actions::decode(action) else {
            return Err(bad_action(action));
        };
        if self.state.is_terminal() {
            return Err(deal_over(format!("action {action}")));
        }
        match what {
            Action::Card(card) => self.apply_card_action(action, card),
            Action::Stop => self.apply_stop(),
            Action::Move(mv) => self.apply_move(&mv),
        }
    }

    fn action_to_string(&self, action: usize) -> Result<String> {
        actions::name(action).ok_or_else(|| bad_action(action))
    }

    fn pending_cards(&self) -> Multiset {
        self.pending
    }

    /// Keys: `game`, `seat`, `phase` (`"hidden_choice"` for the seats not making a secret
    /// 明保/暗保 or 明独/暗独 choice), `current_player` (`None` then too), `hand`, `hand_sizes`,
    /// `scepter` (the mark holder), `emperor`, `dengji_card`, `guard` (only to the guard
    /// himself until revealed by 明保 or by playing the 登基 card), `mode` (`secret_solo` reads
    /// `normal` to all but the emperor), `play_to_beat` (suitless, `"BJ 9 9"`),
    /// `finishing_order`, `abdications`, `redeals`, `tribute` (the previous places 进贡 was made
    /// from, or `None`).
    fn observation(&self, seat: usize) -> Result<Observation> {
        check_seat(seat, PLAYERS)?;
        Ok(observe::observe(&self.state, self.redeals, seat as u8))
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    /// A play reads as its cards; 暗保 and 暗独 are secret to the other seats (they would name
    /// the guard, or tell a solo emperor from one with a guard), every other move is public.
    fn history_entry(&self, i: usize) -> HistoryEntry {
        let r = &self.history[i];
        let text = r.mv.to_string();
        let secret = matches!(r.mv, Move::SecretGuard | Move::SecretSolo);
        HistoryEntry {
            seat: usize::from(r.seat),
            applied: text.clone(),
            public_view: (!secret).then(|| text.clone()),
            mover_view: text,
            builtin: r.builtin,
            deal: r.deal,
        }
    }

    fn deal_number(&self) -> u32 {
        self.redeals
    }

    /// `simulate`'s row (`redeals` = the 黄局 redeals before this deal).
    fn result_row(&self, row: &mut [i32]) -> Result<()> {
        if !self.state.is_terminal() {
            return Err(not_over());
        }
        write_row(&self.state, self.redeals as i32, row);
        Ok(())
    }

    /// What `seat` knows of the cards it cannot see (see [`super::search`] for what is and is not
    /// conditioned on): its hand, the cards played, the hand sizes, the scepter BJ, the 登基
    /// card's copies, the cards of a 进贡 it took part in; the voids of 进贡 (play shows none).
    /// Kitty 0, no stock. The cards the 168-card deck leaves out are among the cards out of play
    /// (`gone`). Some facts the view cannot express (逼位's triples, an exact count, the unknown
    /// 登基 copy, a tribute between two other seats) are checked by [`GameState::with_hidden`].
    /// Errors: `InvalidValue` for a seat out of range, or once [`GameState::play_out`] played on
    /// (it records no history).
    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        check_seat(seat, PLAYERS)?;
        Ok(search::knowledge(&self.parts(), seat as u8)?.view)
    }

    /// The world of `seat` with the hidden cards `hidden` (a draw of `seat_view(seat)`'s
    /// dealer): the same deal, history and redeal count, the hands replaced, and the roles the
    /// hands make where they are secret (the seat other than the emperor holding the 登基 card is
    /// the guard, none: 暗独; the secret choice and its history record follow). When the hands
    /// fail a fact the view cannot express, the hidden cards are drawn again from the view's
    /// dealer with `rng` until they pass (rejection, so the worlds stay uniform over the
    /// consistent deals; see [`super::search`]). The play being built card by card is kept only
    /// when it is `seat`'s own; the world's generator is drawn from `rng`. Errors:
    /// `InvalidValue` naming what of `hidden` does not fit the view (hand sizes, known cards,
    /// voids, the deck); `ImpossibleDeal` when 200,000 draws fail.
    fn with_hidden(&self, seat: usize, hidden: &Deal, rng: &mut GameRng) -> Result<Self> {
        check_seat(seat, PLAYERS)?;
        let world = search::draw_world(&self.parts(), seat as u8, hidden, rng)?;
        let mut w = self.clone();
        w.state.set_world(world.hands, world.tribute_cards);
        let (guard, emperor) = (w.state.guard(), w.state.emperor());
        set_secret_choice(&mut w.history, self.redeals, guard, emperor);
        if w.state.current_player() != Some(seat as u8) {
            w.pending = Multiset::EMPTY; // another seat's unfinished play is its own
        }
        w.rng = rand::SeedableRng::from_rng(rng);
        Ok(w)
    }

    /// The fields of [`super::tensor::FIELDS`] (see [`DealState`]).
    fn observation_layout(&self) -> Vec<TensorField> {
        tensor::layout()
    }

    /// What `seat` knows as the tensor of [`DealState`]'s table (with `perfect`, every hand in
    /// the `hands` field too); no allocation. Errors: `InvalidValue` for a seat out of range,
    /// `out` of another length, or once [`GameState::play_out`] played on (it records no history).
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        tensor::write(&self.parts(), seat, perfect, out)
    }

    /// A play's cards; `ascend <card>` names one card (the 登基 card, one copy); every other
    /// word puts no card on the table.
    fn move_cards(&self, mv: &CardMove) -> Multiset {
        match mv {
            Move::Play(cards) => *cards,
            Move::Ascend(card) => Multiset::from_cards(&[*card]).expect("one card"),
            _ => Multiset::EMPTY,
        }
    }

    /// The rollout loop of `simulate` on the core state (random: [`State::step_random`], the
    /// draws of `sample_move` in place; the rule-based players: their shape-level moves), a void
    /// deal redealt as [`GameState::apply_builtin`] redeals it; the history is not recorded.
    /// Refused while a play is being built card by card.
    fn play_out(&mut self, policy: Policy) -> Result<()> {
        self.check_no_pending("play_out")?;
        self.unrecorded |= !self.state.is_terminal();
        loop {
            if policy == Policy::Random {
                while self.state.step_random(&mut self.rng) {}
            } else {
                builtin::play_rule_based(policy, &mut self.state);
            }
            if !(self.state.is_void() && self.redeal_void) {
                return Ok(());
            }
            self.after_move()?;
        }
    }
}

fn bad_action(action: usize) -> ZhipaiError {
    ZhipaiError::invalid_value("action", action, format!("expected 0 to {}", NUM_ACTIONS - 1))
}

impl Game for BaohuangRules {
    type State = DealState;

    fn new_deal(&self, seed: u64, index: u64) -> Result<DealState> {
        Ok(DealState::new_deal(self, seed, index))
    }

    /// Five hands in playing order making the deck, dealt round the table (216 cards: one of
    /// 44, the seat dealt first, and four of 43, §C.1). `dealer` = the seat holding the scepter BJ (it must hold a BJ), as hand
    /// evaluation reads it; `None` = one of the BJ copies drawn uniformly from the deal's
    /// generator (`deal_rng(seed, 0)`), as the shuffle makes it. `kitty`, `level` and `trump`
    /// are refused by name (Baohuang has none: every card is dealt, suits never rank, §C.1,
    /// §C.2). A void deal ends the deal (see [`DealState::from_hands`]).
    fn deal_from(&self, setup: &DealSetup) -> Result<DealState> {
        refuse_foreign_fields(setup)?;
        if let (true, Some(d)) = (setup.hands.is_empty(), setup.dealer) {
            return Err(ZhipaiError::invalid_value(
                "dealer",
                d,
                "a chosen scepter holder needs the 5 hands (hands=...); a shuffled Baohuang deal \
                 is deal `index` of `seed` as simulate plays it (new_deal(seed, index))",
            ));
        }
        let hands: [Multiset; PLAYERS] = setup.hands.clone().try_into().map_err(|h: Vec<_>| {
            ZhipaiError::invalid_value("hands", format!("{} hands", h.len()), "Baohuang deals 5")
        })?;
        let mut rng = setup.rng();
        let scepter = match setup.dealer {
            Some(d) => builtin::dealer_scepter(&hands, d)?,
            None => builtin::draw_scepter(&hands, &mut rng)?,
        };
        // The first-dealt seat holds the most cards (the lowest such seat, as evaluation).
        let first_dealt = (0..PLAYERS).max_by_key(|&s| (hands[s].len(), PLAYERS - s)).unwrap_or(0);
        DealState::from_hands(self, hands, scepter, first_dealt as u8, rng)
    }

    fn columns(&self) -> Vec<Column> {
        builtin::columns()
    }
}

/// `kitty`, `level` and `trump` have no meaning in Baohuang: named, not ignored.
fn refuse_foreign_fields(setup: &DealSetup) -> Result<()> {
    if let Some(k) = &setup.kitty {
        return Err(ZhipaiError::invalid_value(
            "kitty",
            k,
            "Baohuang has no kitty: all cards are dealt (baohuang.md §C.1)",
        ));
    }
    if let Some(level) = setup.level {
        let shown = level.map_or("NT".to_string(), |r| r.symbol().to_string());
        return Err(ZhipaiError::invalid_value(
            "level",
            shown,
            "Baohuang has no level rank (baohuang.md §C.2)",
        ));
    }
    if let Some(trump) = setup.trump {
        let shown = trump.map_or("NT".to_string(), |s| s.letter().to_string());
        return Err(ZhipaiError::invalid_value(
            "trump",
            shown,
            "Baohuang has no trump: suits never rank (baohuang.md §C.2)",
        ));
    }
    Ok(())
}
