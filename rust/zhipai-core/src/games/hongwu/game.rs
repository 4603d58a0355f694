//! Hong Wu under the game contract ([`crate::game`]): [`DealState`] (one deal in progress) and
//! `impl Game for HongWuRules` (hongwu.md §B).

use super::actions::{self, Step, NUM_ACTIONS};
use super::history::Record;
use super::move_text::{move_text, parse_move_text};
use super::moves;
use super::policy::{choose, write_row, COLUMNS};
use super::state::{Action, HongWuState, Phase as CorePhase};
use super::world;
use super::{HongWuRules, HAND_SIZE, KITTY_SIZE};
use crate::deal::{deal_rng, Deal};
use crate::error::{Result, ZhipaiError};
use crate::game::{
    check_seat, deal_over, not_over, Column, DealSetup, Game, GameRng, GameState, HistoryEntry,
    Observation, Phase, TensorField, Value,
};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand::{Rng, RngCore, SeedableRng};

/// Seats at a Hong Wu table (hongwu.md §B.1).
const PLAYERS: usize = 4;

/// One Hong Wu deal in progress (hongwu.md §B.1–§B.11): the core [`HongWuState`], the deal's own
/// generator and the typed history.
///
/// **Moves** ([`Action`]): `pass`, `bid 60`, `trump S`, `bury <8 cards>`, `play <cards>`
/// ([`super::move_text`]). `legal_moves(limit)` lists bids (`pass` first, then low to high), the
/// trumps S H D C, the first burials in card order, every legal lead when there are at most
/// `limit` (else the random policy's lead candidates), the first follows ([`super::moves`]).
///
/// **Integer actions** (the same 89 for every rule set; [`super::actions`]):
///
/// | actions | meaning |
/// |---|---|
/// | `0..54` | add one card of kind `k` to the burial or play being built; a burial ends by itself at 8 cards (§B.3), a follow at the lead's size (§B.8) |
/// | `54` | `stop`: end the lead being built (any held cards of one plain suit, or one trump single, pair or tractor; §B.6–§B.7) |
/// | `55` | `pass` (§B.2) |
/// | `56..85` | `bid 60` … `bid 200` in steps of 5: action `56 + (points − 60) / 5` (§B.2) |
/// | `85..89` | `trump S`, `trump H`, `trump D`, `trump C` (§B.3; no no-trump) |
///
/// While a burial or play is being built ([`GameState::pending_cards`] not empty), whole-move
/// calls that would apply something (`apply_move`, `builtin_move`, `apply_builtin`) are refused;
/// the listing, counting and sampling of whole moves ignore the cards being built.
///
/// **Returns**: each seat's settled result (hongwu.md §B.11 table units × `base_score_k`): the
/// dealer's, and each 闲家's; zero-sum (dealer + 3 × each 闲家 = 0).
///
/// **Search support**: `seat_view` / `with_hidden` draw *worlds* (the hidden cards redrawn
/// consistently with what one seat knows; [`super::world`] says what is conditioned on and what
/// is not); `play_out` plays to the end on the fast path (no history).
///
/// **Observation tensor** (1388 float32, [`super::tensor`]): seats relative to the observer in
/// playing order (row 0 the observer, row 1 the next to play, …); card rows are 54 counts in
/// card-kind order (S 2…A, H 2…A, D 2…A, C 2…A, SJ, BJ); unknown one-hot facts are zeros.
///
/// | field | offset | len | meaning |
/// |---|---|---|---|
/// | `hand` | 0 | 54 | the observer's hand: count per card kind (33 cards for the dealer while it buries) |
/// | `played` | 54 | 216 | cards each seat has played (completed tricks and the current one), 4 rows of 54 by relative seat |
/// | `trick` | 270 | 216 | the current trick: each seat's play, 4 rows of 54 by relative seat (empty rows for seats yet to play) |
/// | `kitty` | 486 | 54 | the buried kitty when the observer knows it (the dealer after burying it; every seat once the deal is over), else zeros |
/// | `shown` | 540 | 216 | cards each seat showed in a failed throw (§B.7) and still holds, 4 rows of 54 by relative seat |
/// | `not_held` | 756 | 216 | 1 for each kind a seat is publicly known not to hold (voids shown by follows, kinds above a standing throw's single), 4 rows by relative seat |
/// | `voids` | 972 | 20 | 1 where a seat has shown a void by a short follow (§B.8): 4 rows by relative seat of S H D C trump (plain suits by their letter, trumps one suit) |
/// | `pending` | 992 | 54 | the burial or play the observer is building card by card (pending_cards), when it is to act; else zeros |
/// | `hand_sizes` | 1046 | 4 | cards each seat holds / 25, by relative seat |
/// | `kitty_size` | 1050 | 1 | cards in the kitty / 8 (0 while the dealer holds it to bury) |
/// | `phase` | 1051 | 5 | one-hot phase: auction, trump, kitty, play, done |
/// | `to_act` | 1056 | 4 | one-hot relative seat to act (zeros once over) |
/// | `opener` | 1060 | 4 | one-hot relative seat that opened the auction (dealer at 60 if all pass, §B.2) |
/// | `passed` | 1064 | 4 | 1 for each seat that has passed in the auction, by relative seat |
/// | `high_bid` | 1068 | 29 | one-hot highest bid so far, then the contract: bid 60, 65, …, 200 |
/// | `high_bidder` | 1097 | 4 | one-hot relative seat of the highest bid so far (the dealer once the auction is over) |
/// | `dealer` | 1101 | 4 | one-hot relative seat of the dealer 庄家 once the auction is over |
/// | `trump` | 1105 | 4 | one-hot trump suit S H D C once chosen |
/// | `leader` | 1109 | 4 | one-hot relative seat that leads the current trick (play phase: the seat to lead while none is led yet) |
/// | `points_won` | 1113 | 4 | card points each seat has won in tricks / 200, by relative seat |
/// | `tricks` | 1117 | 1 | completed tricks / 25 |
/// | `perfect_hands` | 1118 | 216 | perfect information only (else zeros): every seat's hand, 4 rows of 54 by relative seat |
/// | `perfect_kitty` | 1334 | 54 | perfect information only (else zeros): the kitty, as dealt or as buried |
#[derive(Clone, Debug)]
pub struct DealState {
    state: HongWuState,
    rng: GameRng,
    history: Vec<Record>,
    /// The burial or play being built action by action.
    building: Multiset,
}

impl DealState {
    /// A deal at `state` whose chance events and built-in policies draw from `rng`.
    pub fn new(state: HongWuState, rng: GameRng) -> DealState {
        DealState { state, rng, history: Vec::new(), building: Multiset::EMPTY }
    }

    /// The core state (auction, contract, settlement, …).
    pub fn core(&self) -> &HongWuState {
        &self.state
    }

    /// The recorded moves (tests replay them).
    #[cfg(test)]
    pub(super) fn records(&self) -> &[Record] {
        &self.history
    }

    /// This deal with the hands and kitty replaced, unchecked (tests build candidate worlds).
    #[cfg(test)]
    pub(super) fn with_cards(&self, hands: [Multiset; PLAYERS], kitty: Multiset) -> DealState {
        let mut w = self.clone();
        w.state.set_cards(hands, kitty);
        w
    }

    /// The deal's own generator (tests compare it).
    #[cfg(test)]
    pub(super) fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// The seat to act (0 once over: only used to name a refused move).
    fn seat(&self) -> usize {
        self.state.to_act().unwrap_or(0)
    }

    /// `IllegalPlay` for `what` while a move is being built action by action.
    fn refuse_while_building(&self, what: impl std::fmt::Display) -> Result<()> {
        if self.building.is_empty() {
            return Ok(());
        }
        Err(ZhipaiError::illegal_play(
            format!("{what} by seat {}", self.seat()),
            format!(
                "a move is being built action by action ({} so far); finish it with actions",
                self.building
            ),
        ))
    }

    /// Check and apply `mv` for the seat to act and record it.
    fn apply_checked(&mut self, mv: Action, builtin: Option<Policy>) -> Result<()> {
        let seat = self.seat();
        let played = self.state.apply(&mv)?;
        self.history.push(Record::new(seat, mv, played, builtin));
        Ok(())
    }

    /// Apply `mv` as `simulate` does (follows not checked again) and record it.
    fn apply_trusted(&mut self, mv: Action, builtin: Option<Policy>) -> Result<()> {
        let seat = self.seat();
        let played = self.state.apply_trusted(&mv)?;
        self.history.push(Record::new(seat, mv, played, builtin));
        Ok(())
    }

    /// Why action `action` is refused now.
    fn action_refusal(&self, action: usize, name: &str) -> ZhipaiError {
        let what = format!("action {action} ({name}) by seat {}", self.seat());
        if self.state.is_over() {
            return deal_over(what);
        }
        let phase = self.phase().name();
        let reason = if self.building.is_empty() {
            format!("it cannot begin a legal move in the {phase} phase")
        } else {
            format!("no legal move of the {phase} phase adds it to {}", self.building)
        };
        ZhipaiError::illegal_play(what, reason)
    }

    /// The current trick as `(seat, cards)`, leader first.
    fn trick(&self) -> Vec<Value> {
        let mut seat = self.state.leader();
        let mut out = Vec::new();
        for cards in self.state.current_trick() {
            out.push(Value::from((seat, *cards)));
            seat = self.state.next_seat(seat);
        }
        out
    }
}

/// The shared phase of a core phase.
fn phase_of(p: CorePhase) -> Phase {
    match p {
        CorePhase::Auction => Phase::Auction,
        CorePhase::Trump => Phase::Trump,
        CorePhase::Kitty => Phase::Kitty,
        CorePhase::Play => Phase::Play,
        CorePhase::Over => Phase::Done,
    }
}

impl GameState for DealState {
    type Move = Action;

    fn num_players(&self) -> usize {
        PLAYERS
    }

    fn current_player(&self) -> Option<usize> {
        self.state.to_act()
    }

    fn phase(&self) -> Phase {
        phase_of(self.state.phase())
    }

    /// The settled result per seat (§B.11 units × `base_score_k`), zero-sum; zeros before.
    fn returns(&self) -> Vec<f64> {
        let (Some(s), Some(c)) = (self.state.settlement(), self.state.contract()) else {
            return vec![0.0; PLAYERS];
        };
        // `+ 0.0` turns a -0.0 into 0.0.
        (0..PLAYERS)
            .map(|p| if p == c.dealer { s.dealer as f64 } else { s.each_other as f64 } + 0.0)
            .collect()
    }

    fn legal_moves(&self, limit: usize) -> Vec<Action> {
        moves::legal_moves(&self.state, limit)
    }

    fn count_legal_moves(&self) -> u64 {
        moves::count_legal_moves(&self.state)
    }

    /// The `random` policy's move ([`super::policy`]), drawn from `rng`.
    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<Action> {
        (!self.state.is_over()).then(|| choose(&self.state, Policy::Random, rng))
    }

    fn check_move(&self, mv: &Action) -> Result<()> {
        self.state.check(mv)
    }

    fn apply_move(&mut self, mv: &Action) -> Result<()> {
        self.refuse_while_building(move_text(mv))?;
        self.apply_checked(*mv, None)
    }

    fn apply_move_unchecked(&mut self, mv: &Action) {
        debug_assert!(self.check_move(mv).is_ok(), "illegal {mv:?}: {:?}", self.check_move(mv));
        if let Err(e) = self.apply_trusted(*mv, None) {
            // Only a lead or a burial the caller should not have passed gets here.
            if cfg!(debug_assertions) {
                panic!("apply_move_unchecked of an illegal move: {e}");
            }
        }
    }

    fn move_to_string(&self, mv: &Action) -> String {
        move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Action> {
        parse_move_text(text)
    }

    /// [`choose`] from the deal's own generator, as `simulate` draws.
    fn builtin_move(&mut self, policy: Policy) -> Result<Action> {
        if self.state.is_over() {
            return Err(deal_over("builtin move"));
        }
        self.refuse_while_building("builtin move")?;
        Ok(choose(&self.state, policy, &mut self.rng))
    }

    /// As `simulate`'s loop: the policy's move applied without checking a follow again.
    fn apply_builtin(&mut self, policy: Policy) -> Result<Action> {
        let mv = self.builtin_move(policy)?;
        self.apply_trusted(mv, Some(policy))?;
        Ok(mv)
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        crate::game::actions_of_bits(actions::legal_bits(&self.state, &self.building), out);
    }

    fn legal_action_mask(&self, out: &mut [bool]) {
        let bits = actions::legal_bits(&self.state, &self.building);
        for (a, o) in out.iter_mut().enumerate() {
            *o = a < NUM_ACTIONS && bits >> a & 1 == 1;
        }
    }

    fn apply_action(&mut self, action: usize) -> Result<()> {
        let step = actions::step(action)?;
        if actions::legal_bits(&self.state, &self.building) >> action & 1 == 0 {
            return Err(self.action_refusal(action, &actions::action_name(action)?));
        }
        match step {
            Step::Whole(mv) => self.apply_checked(mv, None),
            Step::Stop => {
                self.apply_checked(Action::Play(self.building), None)?;
                self.building = Multiset::EMPTY;
                Ok(())
            }
            Step::Card(c) => {
                let mut next = self.building;
                next.add(c);
                match actions::completed(&self.state, &next) {
                    Some(mv) => {
                        self.apply_checked(mv, None)?;
                        self.building = Multiset::EMPTY;
                    }
                    None => self.building = next,
                }
                Ok(())
            }
        }
    }

    fn action_to_string(&self, action: usize) -> Result<String> {
        actions::action_name(action)
    }

    fn pending_cards(&self) -> Multiset {
        self.building
    }

    /// Keys (besides the common ones): `contract` (`(dealer, bid)` or `None`), `trump` (suit
    /// letter or `None`), `kitty` (the buried kitty, to the dealer alone, once buried; else
    /// `None`), `current_trick` (`(seat, cards)`, leader first), `points_won` (card points per
    /// seat in tricks), `tricks` (completed).
    fn observation(&self, seat: usize) -> Result<Observation> {
        check_seat(seat, PLAYERS)?;
        let s = &self.state;
        let buried = matches!(s.phase(), CorePhase::Play | CorePhase::Over);
        let mut o = Observation::default();
        o.set("game", "hong_wu");
        o.set("seat", seat);
        o.set("phase", self.phase().name());
        o.set("current_player", s.to_act());
        o.set("contract", s.contract().map(|c| (c.dealer, c.bid)));
        o.set("trump", s.trump().map(|t| t.letter().to_string()));
        o.set("hand", s.hand(seat));
        o.set("kitty", (buried && s.is_dealer(seat)).then(|| s.kitty()));
        o.set("hand_sizes", (0..PLAYERS).map(|p| s.hand(p).len()).collect::<Vec<_>>());
        o.set("current_trick", Value::List(self.trick()));
        o.set("points_won", s.points_won().to_vec());
        o.set("tricks", s.tricks());
        Ok(o)
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn history_entry(&self, i: usize) -> HistoryEntry {
        self.history[i].entry()
    }

    /// What `seat` knows of the hidden cards ([`super::world`] lists what the view holds and
    /// what it is not conditioned on).
    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        check_seat(seat, PLAYERS)?;
        Ok(world::seat_view(&self.state, seat))
    }

    /// The world of `hidden` for `seat` (checked against `seat_view(seat)`): the same deal with
    /// the other hands and, unless `seat` knows it, the kitty replaced; the burial in the
    /// history shows the world's kitty (to the dealer; the others see `bury` as before); its
    /// generator seeded from `rng`. Refused (`InvalidValue`) while another seat has a move
    /// half built card by card (its pending cards need not be in the world's hand).
    fn with_hidden(&self, seat: usize, hidden: &Deal, rng: &mut GameRng) -> Result<DealState> {
        check_seat(seat, PLAYERS)?;
        if !self.building.is_empty() && self.state.to_act() != Some(seat) {
            return Err(ZhipaiError::invalid_value(
                "position",
                format!("half-built move {}", self.building),
                format!("seat {} is building a move; finish it first", self.seat()),
            ));
        }
        let view = world::seat_view(&self.state, seat);
        let (hands, kitty) = world::fit_hidden(&self.state, seat, &view, hidden)?;
        let mut w = self.clone();
        w.state.set_cards(hands, kitty);
        w.rng = GameRng::seed_from_u64(rng.next_u64());
        for r in &mut w.history {
            if let Action::Bury(_) = r.mv {
                r.mv = Action::Bury(kitty);
            }
        }
        Ok(w)
    }

    /// [`super::policy::play_out`] on the core state with the deal's own generator: the moves
    /// and draws of `apply_builtin` stepping, without the history.
    fn play_out(&mut self, policy: Policy) -> Result<()> {
        self.refuse_while_building(format!("play_out({})", policy.name()))?;
        super::policy::play_out(&mut self.state, policy, &mut self.rng)
    }

    /// Card points of the tricks each seat won so far (the kitty's points are added at the
    /// end of the deal, not here).
    fn points_won(&self) -> Option<Vec<f64>> {
        Some(self.state.points_won().iter().map(|&p| p as f64).collect())
    }

    /// The fields of [`super::tensor::LAYOUT`] (the table in [`DealState`]'s docs).
    fn observation_layout(&self) -> Vec<TensorField> {
        super::tensor::layout()
    }

    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        super::tensor::write(&self.state, &self.building, seat, perfect, out)
    }

    fn move_cards(&self, mv: &Action) -> Multiset {
        super::tensor::move_cards(mv)
    }

    fn result_row(&self, row: &mut [i32]) -> Result<()> {
        if !self.state.is_over() {
            return Err(not_over());
        }
        if row.len() != COLUMNS.len() {
            return Err(ZhipaiError::invalid_value(
                "row",
                format!("of {} values", row.len()),
                format!("Hong Wu rows have {} columns", COLUMNS.len()),
            ));
        }
        write_row(&self.state, row);
        Ok(())
    }
}

impl Game for HongWuRules {
    type State = DealState;

    /// Deal `index` of `simulate(rules, …, seed)`: the cards and opener drawn from
    /// `deal_rng(seed, index)`, which the built-in policies go on drawing from.
    fn new_deal(&self, seed: u64, index: u64) -> Result<DealState> {
        let mut rng = deal_rng(seed, index);
        let state = HongWuState::deal(self, &mut rng);
        Ok(DealState::new(state, rng))
    }

    /// Four hands of 25 and the kitty of 8 (exactly two decks, §B.1); `dealer` is the seat that
    /// opens the auction, as in evaluation's `play_from_deal` (the dealer 庄家 is then found by
    /// bidding, §B.2; `None` draws it from the generator of `seed` first). `level` is refused
    /// (Hong Wu has none), and so is `trump` (the dealer names it after the auction, §B.3).
    ///
    /// No hands and no kitty: the cards are shuffled from the setup's generator (as
    /// `new_deal` shuffles) and `dealer`, when given, opens the auction.
    fn deal_from(&self, setup: &DealSetup) -> Result<DealState> {
        if setup.hands.is_empty() && setup.kitty.is_none() {
            check_fixed(setup)?;
            let mut rng = setup.rng();
            let state = HongWuState::deal_opened_by(self, &mut rng, setup.dealer)?;
            return Ok(DealState::new(state, rng));
        }
        check_setup(setup)?;
        let hands: [Multiset; PLAYERS] = setup.hands.clone().try_into().expect("checked: 4");
        let kitty = setup.kitty.expect("checked: a kitty");
        let mut rng = setup.rng();
        let first = match setup.dealer {
            Some(d) => d,
            None => rng.random_range(0..PLAYERS),
        };
        let state = HongWuState::with_hands(self, hands, kitty, first)?;
        Ok(DealState::new(state, rng))
    }

    fn columns(&self) -> Vec<Column> {
        COLUMNS.to_vec()
    }
}

/// Refuse a level or a trump: a Hong Wu deal has neither at its start (named).
fn check_fixed(setup: &DealSetup) -> Result<()> {
    if let Some(level) = setup.level {
        let shown = level.map_or("NT".to_string(), |r| r.symbol().to_string());
        return Err(ZhipaiError::invalid_value(
            "level",
            shown,
            "Hong Wu has no level: its trump order is fixed (hongwu.md §B.4)",
        ));
    }
    if let Some(trump) = setup.trump {
        let shown = trump.map_or("NT".to_string(), |s| s.letter().to_string());
        return Err(ZhipaiError::invalid_value(
            "trump",
            shown,
            "Hong Wu's dealer names the trump after the auction (hongwu.md §B.3); a deal starts \
             at the auction",
        ));
    }
    Ok(())
}

/// Refuse the fields of `setup` a Hong Wu deal cannot honour, naming them.
fn check_setup(setup: &DealSetup) -> Result<()> {
    check_fixed(setup)?;
    if setup.hands.len() != PLAYERS {
        return Err(ZhipaiError::invalid_value(
            "hands",
            format!("({} hands)", setup.hands.len()),
            format!("Hong Wu deals 4 hands of {HAND_SIZE} (hongwu.md §B.1)"),
        ));
    }
    if setup.kitty.is_none() {
        return Err(ZhipaiError::invalid_value(
            "kitty",
            "None",
            format!("Hong Wu deals a kitty of {KITTY_SIZE} cards (hongwu.md §B.1)"),
        ));
    }
    if let Some(d) = setup.dealer.filter(|&d| d >= PLAYERS) {
        return Err(ZhipaiError::invalid_value(
            "dealer",
            d,
            "expected a seat 0 to 3 (the seat that opens the auction, hongwu.md §B.2)",
        ));
    }
    Ok(())
}
