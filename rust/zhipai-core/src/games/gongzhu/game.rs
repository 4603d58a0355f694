//! Gongzhu through the one game contract ([`crate::game`]): [`DealState`] (one deal in
//! progress, with its own generator and history) and `impl Game for GongzhuRules`.
//!
//! The rules live in [`super::state::State`] (exposure §A.6, trick play §A.2/§A.7/§A.12, scoring
//! §A.4–A.13); this module adds the deal's generator, the typed history, the move text
//! ([`super::text`]) and the observation, exactly as `zhipai.Game("gongzhu").new_deal` showed
//! them before the contract existed.

use super::evaluate::starting_state;
use super::options::GongzhuRules;
use super::play::Play;
use super::policy::{choose, play_out};
use super::row::{columns, write_row};
use super::state::{Move, Opening, State, NUM_ACTIONS};
use super::tensor;
use super::text;
use super::view;
use crate::deal::deal_rng;
use crate::deal::Deal;
use crate::error::{Result, ZhipaiError};
use crate::game::{
    check_seat, deal_over, not_over, Column, DealSetup, Game, GameRng, GameState, HistoryEntry,
    Observation, Phase, TensorField, Value,
};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand::SeedableRng;

/// The name of the game in observations (`observation["game"]`).
const GAME: &str = "gongzhu";

/// The public text of another seat's closed declaration: only its kind (§A.6 `closed_open`).
const CLOSED_PUBLIC: &str = "expose closed";

/// One move of the history, as applied: rendered as text only when asked
/// ([`GameState::history_entry`]), so applying a move never formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    seat: u8,
    mv: Move,
    builtin: Option<Policy>,
}

/// One Gongzhu deal in progress (gongzhu.md §A): the deal's [`State`], its own generator (the
/// two-deck first-leader draw and the built-in policies draw from it, as `simulate` does) and the
/// moves so far.
///
/// **Moves** ([`Move`]) and their text: `expose QS` (open exposure 亮牌, §A.6), `expose closed QS`
/// (`exposure_mode = closed_open` only), `end exposure` (the seat is done exposing), and a play
/// as its cards: `QS`, two decks also `10C 10C` (a pair lead or a pair follow, §A.12). Any letter
/// case, spacing and card order is read; `pass` is refused (Gongzhu has no pass).
///
/// **`legal_moves` order** (always complete: at most 325 moves, two decks void of a led pair):
/// * exposure phase: for ♠Q, ♦J, ♣10, ♥A in that order, `expose X` (then `expose closed X` under
///   `closed_open`) when the seat holds a copy of X not yet declared; `end exposure` last;
/// * a lead: every single card, ascending card index (♠2…♠A, ♥2…♥A, ♦2…♦A, ♣2…♣A), then (two
///   decks) every pair in the same order; the first lead of a match is the first-lead card
///   (and its pair); exposed cards barred by §A.7 are left out;
/// * following a single: the cards of the led suit ascending, or every card when void;
/// * following a pair (§A.12): the pairs of the led suit; else every two distinct cards of the
///   suit; else its one card with each other card; else every two distinct cards, then every
///   pair.
///
/// **Integer actions**: the existing action codes of [`Move::action`], `0..1439`
/// ([`NUM_ACTIONS`]). Every action is a whole move (at most two cards), so nothing is built card
/// by card: [`GameState::pending_cards`] is always empty and an action is legal iff its move is.
///
/// | actions | move | text |
/// |---|---|---|
/// | `0..52` | play one card of index `a` (`suit · 13 + rank`, suits ♠ ♥ ♦ ♣, ranks 2…A) | `2S`, `QS` |
/// | `52..1430` | play two cards `a ≤ b` (two decks; `a = b` a pair): `52 + 52a − a(a−1)/2 + (b − a)` | `2S 2S` (52), `10C 10C` |
/// | `1430..1434` | open exposure of ♠Q, ♦J, ♣10, ♥A | `expose QS` |
/// | `1434..1438` | closed declaration of ♠Q, ♦J, ♣10, ♥A (`closed_open`) | `expose closed QS` |
/// | `1438` | end of the seat's exposures | `end exposure` |
///
/// **Observation tensor** ([`GameState::write_observation_tensor`], 1457 float32, one layout
/// for every Gongzhu rule set; [`super::tensor`]): count planes over the 54 card kinds (index
/// `suit · 13 + rank`, suits ♠ ♥ ♦ ♣, ranks 2…A; 0, 1 or 2 copies) and scaled scalars; per-seat
/// fields are in seat order relative to the observer (entry `k` = seat `(observer + k) % 4`).
///
/// | field | offset | len | meaning |
/// |---|---|---|---|
/// | `hand` | 0 | 54 | the observer's hand (counts per card kind) |
/// | `played` | 54 | 216 | cards each seat has played so far (completed tricks and the current one), per relative seat |
/// | `current_trick` | 270 | 216 | the cards of the trick in progress, per relative seat |
/// | `taken` | 486 | 216 | cards each seat has taken in won tricks, per relative seat |
/// | `exposed` | 702 | 216 | copies each seat exposed openly (§A.6, the automatic exposure included), per relative seat |
/// | `known_held` | 918 | 216 | cards each seat is known to hold: the observer's hand; another seat's open exposed copies not played since and the first-lead card it must still lead |
/// | `own_closed` | 1134 | 54 | the observer's own closed declarations (exposure_mode = closed_open) |
/// | `perfect_hands` | 1188 | 216 | every seat's hand, per relative seat, when `perfect`; zeros otherwise |
/// | `hand_sizes` | 1404 | 4 | cards each relative seat holds / (13 · decks) |
/// | `closed_counts` | 1408 | 4 | closed declarations each relative seat made / 4 (their cards are secret) |
/// | `exposure_levels` | 1412 | 4 | exposure level e of ♠Q ♦J ♣10 ♥A as the observer knows it (open ones and its own closed ones) / 4 |
/// | `voids` | 1416 | 16 | suit s (♠ ♥ ♦ ♣) at 4·k + s: relative seat k has shown it holds no card of the suit beyond its known exposed copies |
/// | `phase` | 1432 | 3 | one-hot: exposure, play, done |
/// | `to_act` | 1435 | 4 | one-hot: the relative seat to act (zeros once over) |
/// | `trick_leader` | 1439 | 4 | one-hot: the relative seat that led (or leads) the trick in progress |
/// | `first_leader` | 1443 | 4 | one-hot: the relative seat that led the first trick |
/// | `tricks_played` | 1447 | 1 | completed tricks / (13 · decks) |
/// | `lead_shape` | 1448 | 2 | one-hot: the trick in progress was led with one card / a pair (zeros before its lead) |
/// | `raw_scores` | 1450 | 4 | each relative seat's raw score from its taken cards and the known exposure levels / 400 |
/// | `two_decks` | 1454 | 1 | 1 with two decks |
/// | `partnership` | 1455 | 1 | 1 in partnership play (seats 0+2 against 1+3) |
/// | `closed_open` | 1456 | 1 | 1 under exposure_mode = closed_open |
///
/// **Returns**: each seat's credited result of the deal (the `final_*` columns: §A.11
/// normalisation, §A.13 partnership), in points. Zero-sum depends on the options:
/// * individual play: zero-sum under `normalize = exact` only; the default `qq_trunc_then_x12`
///   (truncation, §A.11 E10: a sum of +12), `round_then_x12` and `floor_then_x12` need not sum
///   to zero, and `none` credits the raw scores, whose sum is not zero (the hearts alone are
///   −200 per deck);
/// * partnership: zero-sum under every normalisation but `none` (which credits each seat its
///   team's raw total): every raw score is a multiple of 10, so the half-difference of the team
///   totals is an integer and the two teams get `±x` whatever the rounding.
#[derive(Clone, Debug)]
pub struct DealState {
    state: State,
    rng: GameRng,
    history: Vec<Record>,
    /// Reusable buffer of legal plays for the built-in policies.
    buf: Vec<Play>,
}

impl DealState {
    /// A deal at its first decision, drawing from `rng` from now on.
    pub fn new(state: State, rng: GameRng) -> DealState {
        DealState { state, rng, history: Vec::new(), buf: Vec::with_capacity(64) }
    }

    /// The rules state of the deal (hands, taken cards, exposures, scores).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// How far the deal's generator has advanced (tests: the same draws as `simulate`).
    #[cfg(test)]
    pub(super) fn word_pos(&self) -> u128 {
        self.rng.get_word_pos()
    }

    fn record(&mut self, seat: usize, mv: Move, builtin: Option<Policy>) {
        self.history.push(Record { seat: seat as u8, mv, builtin });
    }

    /// The seat to act (0 once over: a move is then refused before it is recorded).
    fn mover(&self) -> usize {
        self.state.current_player().unwrap_or(0)
    }
}

impl GameState for DealState {
    type Move = Move;

    fn num_players(&self) -> usize {
        4
    }

    fn current_player(&self) -> Option<usize> {
        self.state.current_player()
    }

    fn phase(&self) -> Phase {
        self.state.phase().shared()
    }

    /// The credited results (see [`DealState`] for the sum rule), zeros before the end.
    fn returns(&self) -> Vec<f64> {
        self.state.returns().to_vec()
    }

    fn legal_moves(&self, limit: usize) -> Vec<Move> {
        let mut moves = self.state.legal_moves();
        moves.truncate(limit);
        moves
    }

    fn count_legal_moves(&self) -> u64 {
        self.state.legal_moves().len() as u64
    }

    /// Uniform over the legal moves: the `random` policy's draw from `rng`.
    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<Move> {
        if self.state.is_terminal() {
            return None;
        }
        Some(choose(&self.state, Policy::Random, rng, &mut Vec::new()))
    }

    fn check_move(&self, mv: &Move) -> Result<()> {
        self.state.check(*mv)
    }

    fn apply_move(&mut self, mv: &Move) -> Result<()> {
        self.state.check(*mv)?;
        self.apply_move_unchecked(mv);
        Ok(())
    }

    fn apply_move_unchecked(&mut self, mv: &Move) {
        debug_assert!(self.state.check(*mv).is_ok(), "illegal move {mv}");
        let seat = self.mover();
        self.state.apply_unchecked(*mv);
        self.record(seat, *mv, None);
    }

    fn move_to_string(&self, mv: &Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        text::parse_move(text)
    }

    fn builtin_move(&mut self, policy: Policy) -> Result<Move> {
        if self.state.is_terminal() {
            return Err(deal_over("builtin move"));
        }
        Ok(choose(&self.state, policy, &mut self.rng, &mut self.buf))
    }

    /// As `simulate` plays: the policy's move applied without a second legality check.
    fn apply_builtin(&mut self, policy: Policy) -> Result<Move> {
        let seat = self.mover();
        let mv = self.builtin_move(policy)?;
        debug_assert!(self.state.check(mv).is_ok(), "{policy:?} chose the illegal move {mv}");
        self.state.apply_unchecked(mv);
        self.record(seat, mv, Some(policy));
        Ok(mv)
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        self.state.legal_actions_into(out);
    }

    fn legal_action_mask(&self, out: &mut [bool]) {
        out.fill(false);
        for mv in self.state.legal_moves() {
            out[mv.action()] = true;
        }
    }

    fn apply_action(&mut self, action: usize) -> Result<()> {
        self.apply_move(&Move::from_action(action)?)
    }

    /// Skips [`State::check`], which lists the legal plays again.
    fn apply_legal_action(&mut self, action: usize) -> Result<()> {
        self.apply_move_unchecked(&Move::from_action(action)?);
        Ok(())
    }

    fn action_to_string(&self, action: usize) -> Result<String> {
        Ok(Move::from_action(action)?.to_string())
    }

    /// Any move text of an action (letter case, spacing and card order free).
    fn string_to_action(&self, text: &str) -> Result<usize> {
        text::action_of(text)
    }

    /// Always empty: every action is a whole move.
    fn pending_cards(&self) -> Multiset {
        Multiset::EMPTY
    }

    /// Keys: `game`, `seat`, `phase`, `current_player`, `hand`, `hand_sizes`, `exposed` (open
    /// exposures per seat, the automatic 3-of-4 one included), `closed` (this seat's own closed
    /// declarations), `taken` (cards each seat took; no running score, which would reveal closed
    /// declarations through their factor), `current_trick` (`(seat, cards)` from the leader),
    /// `first_leader`, `tricks` (completed).
    fn observation(&self, seat: usize) -> Result<Observation> {
        check_seat(seat, 4)?;
        let s = &self.state;
        let per_seat = |f: &dyn Fn(usize) -> Value| Value::List((0..4).map(f).collect());
        let mut o = Observation::default();
        o.set("game", GAME);
        o.set("seat", seat);
        o.set("phase", self.phase().name());
        o.set("current_player", s.current_player());
        o.set("hand", *s.hand(seat));
        o.set("hand_sizes", per_seat(&|p| s.hand(p).len().into()));
        o.set("exposed", per_seat(&|p| (*s.exposed(p).0).into()));
        o.set("closed", *s.exposed(seat).1);
        o.set("taken", per_seat(&|p| (*s.taken(p)).into()));
        o.set("current_trick", current_trick(s));
        o.set("first_leader", s.first_leader());
        o.set("tricks", s.tricks_played());
        Ok(o)
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Everyone sees every move, except another seat's closed declaration: only
    /// `expose closed`, not the card (§A.6 `closed_open`).
    fn history_entry(&self, i: usize) -> HistoryEntry {
        let r = self.history[i];
        let text = r.mv.to_string();
        let public_view = match r.mv {
            Move::ExposeClosed(_) => CLOSED_PUBLIC.to_string(),
            _ => text.clone(),
        };
        HistoryEntry {
            seat: r.seat as usize,
            applied: text.clone(),
            mover_view: text,
            public_view: Some(public_view),
            builtin: r.builtin,
            deal: 0,
        }
    }

    /// What `seat` knows of the cards it cannot see: see [`super::view`] for what it is
    /// conditioned on and what not.
    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        check_seat(seat, 4)?;
        Ok(view::seat_view(&self.state, seat))
    }

    /// The world of `hidden` (a draw of [`GameState::seat_view`]): the hands replaced, the
    /// history and everything public unchanged, the world's generator drawn first from `rng`,
    /// then (`closed_open`) the other seats' closed declarations redrawn from `rng` — in the
    /// world's state and in the world's record of those moves (their public text is unchanged:
    /// `expose closed`). See [`super::view`].
    fn with_hidden(&self, seat: usize, hidden: &Deal, rng: &mut GameRng) -> Result<DealState> {
        check_seat(seat, 4)?;
        let world_rng = GameRng::from_rng(rng);
        let state = view::world(&self.state, seat, hidden, rng)?;
        let mut history = self.history.clone();
        if view::has_closed(state.rules()) {
            for s in (0..4).filter(|&s| s != seat) {
                let mut cards = state.exposed(s).1.iter();
                for r in history.iter_mut().filter(|r| r.seat as usize == s) {
                    if let Move::ExposeClosed(c) = &mut r.mv {
                        *c = cards.next().unwrap_or(*c);
                    }
                }
            }
        }
        Ok(DealState { state, rng: world_rng, history, buf: Vec::with_capacity(64) })
    }

    /// Plays on the general state with the policies' allocation-free path (no history), drawing
    /// from the deal's generator exactly as [`GameState::apply_builtin`] does.
    fn play_out(&mut self, policy: Policy) -> Result<()> {
        play_out(&mut self.state, policy, &mut self.rng, &mut self.buf);
        Ok(())
    }

    /// Each seat's raw score of the cards it took so far, with the exposure levels so far
    /// (gongzhu.md §A.4–A.10, §A.12; before the final multipliers and normalisation of the
    /// result row).
    fn points_won(&self) -> Option<Vec<f64>> {
        let st = &self.state;
        let exposure = st.exposure();
        Some(
            (0..4)
                .map(|s| super::scoring::raw_score(st.rules(), st.taken(s), &exposure) as f64)
                .collect(),
        )
    }

    /// The fields of the observation tensor (see [`DealState`]).
    fn observation_layout(&self) -> Vec<TensorField> {
        tensor::layout()
    }

    /// What `seat` knows (every hand too with `perfect`) in the layout of [`DealState`]; no
    /// allocation. Errors: a seat out of range, `out` not of the layout's length.
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        tensor::write(&self.state, seat, perfect, out)
    }

    /// The cards a move plays or declares (`expose QS` → QS; `end exposure` → none).
    fn move_cards(&self, mv: &Move) -> Multiset {
        match mv {
            Move::Play(p) => p.to_multiset(),
            Move::Expose(c) | Move::ExposeClosed(c) => {
                Multiset::from_cards(&[*c]).unwrap_or_default()
            }
            Move::EndExposure => Multiset::EMPTY,
        }
    }

    fn result_row(&self, row: &mut [i32]) -> Result<()> {
        if !self.state.is_terminal() {
            return Err(not_over());
        }
        let n = columns(self.state.rules()).len();
        if row.len() != n {
            return Err(ZhipaiError::invalid_value(
                "row",
                row.len(),
                format!("expected {n} columns"),
            ));
        }
        write_row(self.state.rules(), &self.state.summary(), row);
        Ok(())
    }
}

/// The trick in progress as `(seat, cards)` pairs from its leader, in playing order (§A.2
/// direction).
fn current_trick(s: &State) -> Value {
    let (leader, plays) = s.current_trick();
    let mut seat = leader;
    let mut out = Vec::with_capacity(plays.len());
    for p in plays {
        out.push(Value::from((seat, p.to_multiset())));
        seat = s.rules().next_seat(seat);
    }
    Value::List(out)
}

impl Game for GongzhuRules {
    type State = DealState;

    /// Deal `index` of `simulate(rules, …, seed)`: the first deal of a match (§A.8 first lead;
    /// two decks with two ♣2 holders: the leader drawn from the deal's generator), at its first
    /// decision (exposure, or the first lead under `exposure_mode = none`).
    fn new_deal(&self, seed: u64, index: u64) -> Result<DealState> {
        let mut rng = deal_rng(seed, index);
        let state = State::deal(self, &mut rng, Opening::FirstOfMatch);
        Ok(DealState::new(state, rng))
    }

    /// The given hands (4 × `13 · decks` cards, together the deck(s)). `dealer = Some(s)`: seat
    /// `s` leads the first trick with any card (a later deal of a match, led by the previous
    /// pig-taker, §A.8); `None`: the first deal of a match (the holder of `first_lead_card` leads
    /// it; two holders in two decks: one drawn from the deal's generator `deal_rng(seed, 0)`),
    /// exactly as hand evaluation builds its deals ([`super::evaluate`]). Gongzhu has no kitty,
    /// level nor trump: giving one is an error naming it.
    ///
    /// No hands: the cards are shuffled from the setup's generator (as `new_deal` shuffles),
    /// with the same choice of first leader.
    fn deal_from(&self, setup: &DealSetup) -> Result<DealState> {
        refuse_unused(setup)?;
        if let Some(s) = setup.dealer.filter(|&s| s >= 4) {
            return Err(ZhipaiError::invalid_value("dealer", s, "expected a seat 0..4"));
        }
        if setup.hands.is_empty() {
            let mut rng = setup.rng();
            let opening = setup.dealer.map_or(Opening::FirstOfMatch, Opening::LedBy);
            let state = State::deal(self, &mut rng, opening);
            return Ok(DealState::new(state, rng));
        }
        let deal = Deal { hands: setup.hands.clone(), kitty: Multiset::EMPTY };
        let mut rng = setup.rng();
        let state = starting_state(self, &deal, setup.dealer, &mut rng)?;
        Ok(DealState::new(state, rng))
    }

    fn columns(&self) -> Vec<Column> {
        columns(self)
    }
}

/// Refuse the [`DealSetup`] fields Gongzhu has no use for, by name.
fn refuse_unused(setup: &DealSetup) -> Result<()> {
    if let Some(k) = setup.kitty {
        return Err(ZhipaiError::invalid_value("kitty", k, "Gongzhu has no kitty"));
    }
    if let Some(level) = setup.level {
        let shown = level.map_or("joker-only".to_string(), |r| r.symbol().to_string());
        return Err(ZhipaiError::invalid_value("level", shown, "Gongzhu has no level rank"));
    }
    if let Some(trump) = setup.trump {
        let shown = trump.map_or("NT".to_string(), |s| s.letter().to_string());
        return Err(ZhipaiError::invalid_value("trump", shown, "Gongzhu has no trump"));
    }
    Ok(())
}
