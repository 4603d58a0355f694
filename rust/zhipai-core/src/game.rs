//! The contract every game meets: [`GameState`] (one deal in progress) and [`Game`] (the
//! factory of deals of one rule set). Algorithms — simulation, evaluation, search, arenas,
//! environments — are written once against these traits.
//!
//! Verbs and meanings follow OpenSpiel's `State` (`current_player`, `legal_actions`,
//! `apply_action`, `is_terminal`, `returns`, `clone`, `observation`), so AI users feel at home.
//! A state speaks two move vocabularies on the same rules:
//!
//! * **Whole moves** ([`GameState::Move`]): a bid, a declaration, a burial, a play as a card
//!   multiset. Listing them all can be impossible (a void Shengji follower may discard any k of
//!   25 cards), so there are four operations kept consistent by tests: [`GameState::check_move`]
//!   (exact, with the reason), [`GameState::legal_moves`] (deterministic order, at most `limit`),
//!   [`GameState::count_legal_moves`] and [`GameState::sample_legal_move`]. Text:
//!   [`GameState::move_to_string`] / [`GameState::parse_move`] (the grammar lives in the game).
//! * **Integer actions** in a fixed space `0..num_distinct_actions()`: multi-card moves are built
//!   card by card (an action adds one card kind to the move being built, the game's *stop* action
//!   ends a variable-size one), so the action space stays small and fixed, and the legal-action
//!   mask is exact: it holds exactly the actions that can still be completed to a legal move.
//!   While a move is being built, [`GameState::apply_move`] is refused.
//!
//! Information: [`GameState::observation`] is what one seat knows (never another seat's hidden
//! cards); [`GameState::history_entry`] records every move with what the mover and the other
//! seats saw of it, and whether a built-in policy chose it (a replay asks the policy again, since
//! it draws from the deal's own generator).
//!
//! Randomness: a state owns the generator of its deal ([`GameRng`]); chance events inside the
//! deal (a random dealer, a redeal) and the built-in policies ([`GameState::builtin_move`]) draw
//! from it, exactly as `simulate` does, so a deal stepped through this trait with built-in moves
//! gives `simulate`'s row. Algorithms that need their own draws pass a generator explicitly
//! ([`GameState::sample_legal_move`]).

use crate::cards::{Rank, Suit};
use crate::deal::Deal;
use crate::error::{Result, ZhipaiError};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand_chacha::ChaCha8Rng;
use std::fmt::Debug;

/// The generator every deal and algorithm draws from (ChaCha8: fast, portable, reproducible).
pub type GameRng = ChaCha8Rng;

/// The phase of a deal, in one vocabulary for every game. The trick play is [`Phase::Play`] and
/// the end [`Phase::Done`] everywhere; the other phases belong to one game each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Shengji family: cards are dealt one at a time and may be declared (shengji.md §2.2).
    Dealing,
    /// Shengji family: the kitty owner buries (shengji.md §2.4).
    Burying,
    /// Shengji family, option `chaodi`: overcalls after a burial (shengji.md §2.2).
    Chaodi,
    /// Hong Wu: bidding 叫分 (hongwu.md §B.2).
    Auction,
    /// Hong Wu: the dealer names the trump 叫主 (hongwu.md §B.3).
    Trump,
    /// Hong Wu: the dealer buries 8 扣底 (hongwu.md §B.3).
    Kitty,
    /// Gongzhu: exposures 亮牌 (gongzhu.md §A.6).
    Exposure,
    /// Baohuang: 登基 / 让位 (baohuang.md §C.3).
    Accession,
    /// Baohuang: the others may grab 抢独 after a 让位.
    GrabWindow,
    /// Baohuang: 逼位, the forced accession.
    Forced,
    /// Baohuang: the guard chooses 明保 / 暗保.
    GuardChoice,
    /// Baohuang: a 4-copy emperor chooses 明独 / 暗独.
    SoloChoice,
    /// Tricks or rounds of play.
    Play,
    /// The deal is over and scored.
    Done,
}

impl Phase {
    /// The phase in snake_case, as the Python API and error messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Dealing => "dealing",
            Phase::Burying => "burying",
            Phase::Chaodi => "chaodi",
            Phase::Auction => "auction",
            Phase::Trump => "trump",
            Phase::Kitty => "kitty",
            Phase::Exposure => "exposure",
            Phase::Accession => "accession",
            Phase::GrabWindow => "grab_window",
            Phase::Forced => "forced",
            Phase::GuardChoice => "guard_choice",
            Phase::SoloChoice => "solo_choice",
            Phase::Play => "play",
            Phase::Done => "done",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One value of an [`Observation`]: the shapes a card game's public and private information
/// takes. The binding converts each to its Python form (`Cards` → card text, `Tuple` → tuple,
/// `List` → list).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Text(String),
    Cards(Multiset),
    Tuple(Vec<Value>),
    List(Vec<Value>),
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}
impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(v as i64)
    }
}
impl From<u8> for Value {
    fn from(v: u8) -> Value {
        Value::Int(v as i64)
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::Int(v as i64)
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(v as i64)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl From<Multiset> for Value {
    fn from(v: Multiset) -> Value {
        Value::Cards(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::None, Into::into)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}
impl<A: Into<Value>, B: Into<Value>> From<(A, B)> for Value {
    fn from((a, b): (A, B)) -> Value {
        Value::Tuple(vec![a.into(), b.into()])
    }
}

/// What one seat knows, as ordered `(key, value)` pairs (the Python observation dict). Keys
/// common to every game: `game`, `seat`, `phase`, `current_player` (`None` once over, or while
/// who is asked is hidden from this seat), `hand`, `hand_sizes`; the rest per game (each game's
/// `observation` documents its keys). The public history is not in it: see
/// [`GameState::history_seen_by`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    pub entries: Vec<(&'static str, Value)>,
}

impl Observation {
    /// Append `key = value`.
    pub fn set(&mut self, key: &'static str, value: impl Into<Value>) {
        self.entries.push((key, value.into()));
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// One move of a deal's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The seat that moved.
    pub seat: usize,
    /// The move as applied, in move text ([`GameState::move_to_string`]): what a replay applies.
    pub applied: String,
    /// What the mover sees of it: `applied`, or more (a failed throw: what was actually played).
    pub mover_view: String,
    /// What every other seat sees: the move, only its kind (`"bury"`), or nothing (`None`: a
    /// secret move, such as Baohuang's 暗保 or a Shengji pass while dealing).
    pub public_view: Option<String>,
    /// The built-in policy that chose the move, if one did ([`GameState::apply_builtin`]).
    pub builtin: Option<Policy>,
    /// Which deal of the state the move belongs to: 0, or `n` after the `n`-th redeal
    /// (Baohuang 黄局). The visible history is that of the current deal.
    pub deal: u32,
}

impl HistoryEntry {
    /// The text `seat` sees of this move, `None` when the move is secret to it.
    pub fn seen_by(&self, seat: usize) -> Option<&str> {
        if seat == self.seat {
            Some(&self.mover_view)
        } else {
            self.public_view.as_deref()
        }
    }
}

/// One result column of a deal (all values `i32`): its name (snake_case, in the field's terms)
/// and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub doc: &'static str,
}

/// The cards and known facts of a deal built for analysis ([`Game::deal_from`]). Fields a game
/// has no use for must be `None` (the game refuses them by name rather than ignoring them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DealSetup {
    /// Every seat's hand, in seat order.
    pub hands: Vec<Multiset>,
    /// The kitty (games with one; `None` elsewhere).
    pub kitty: Option<Multiset>,
    /// The level rank (Shengji family); `Some(None)` = the joker-only level; `None` = level 2.
    pub level: Option<Option<Rank>>,
    /// The trump when known (`Some(None)` = no-trump): the deal starts after the declaring.
    pub trump: Option<Option<Suit>>,
    /// The dealer / first player when fixed; `None` = chosen as `simulate` does.
    pub dealer: Option<usize>,
    /// The deal's own generator (chance events and built-in policies, and the shuffle when no
    /// hands are given): stream `stream` of `seed` ([`crate::deal::deal_rng`]), from word
    /// `word_pos` of that stream (0 = its start; a match hand starts after the seating draw).
    pub seed: u64,
    pub stream: u64,
    pub word_pos: u128,
}

impl DealSetup {
    /// The deal's generator (see [`DealSetup::seed`]).
    pub fn rng(&self) -> GameRng {
        let mut rng = crate::deal::deal_rng(self.seed, self.stream);
        rng.set_word_pos(self.word_pos);
        rng
    }
}

/// One deal in progress. `Clone` gives an independent copy with its own copy of the generator
/// (both copies then replay alike).
///
/// Seats are `0..num_players()`. Every method that takes a move or an action leaves the state
/// unchanged when it returns an error.
pub trait GameState: Clone + Debug + Send + Sync + 'static {
    /// A whole move of this game (bid, declaration, burial, exposure, play, …).
    type Move: Clone + Copy + Debug + PartialEq + Send + Sync + 'static;

    // ----------------------------------------------------------------- who and when

    /// Seats at the table.
    fn num_players(&self) -> usize;

    /// The seat to decide, `None` once the deal is over.
    fn current_player(&self) -> Option<usize>;

    /// The phase, in the vocabulary shared by every game.
    fn phase(&self) -> Phase;

    /// Whether the deal is over and scored.
    fn is_terminal(&self) -> bool {
        self.phase() == Phase::Done
    }

    /// One value per seat, zeros before the end. The unit is the game's: levels gained by the
    /// seat's team (Shengji family), settled score (Hong Wu, Gongzhu, Baohuang); each game
    /// documents its sum rule (zero-sum, or not).
    fn returns(&self) -> Vec<f64>;

    // ----------------------------------------------------------------- whole moves

    /// At most `limit` legal moves of the seat to act, in the game's documented deterministic
    /// order (`[]` once over). Where the move set can be huge the game documents which moves come
    /// first; [`GameState::count_legal_moves`] tells whether the list is complete.
    fn legal_moves(&self, limit: usize) -> Vec<Self::Move>;

    /// How many legal moves there are (saturating at `u64::MAX`; 0 once over). The count is of
    /// distinct moves as [`GameState::Move`] tells them apart.
    fn count_legal_moves(&self) -> u64;

    /// One legal move drawn from `rng` with the game's documented distribution (that of its
    /// `random` policy); `None` once over.
    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<Self::Move>;

    /// `Ok` when `mv` is legal for the seat to act, else `IllegalPlay` with the rule it breaks.
    fn check_move(&self, mv: &Self::Move) -> Result<()>;

    /// Whether `mv` is legal for the seat to act.
    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Apply `mv` for the seat to act after checking it (`IllegalPlay` naming the move and the
    /// rule otherwise, the state unchanged).
    fn apply_move(&mut self, mv: &Self::Move) -> Result<()>;

    /// Apply a move known to be legal (drawn from [`GameState::legal_moves`],
    /// [`GameState::sample_legal_move`] or a built-in policy) without checking it again: the
    /// fast path of rollouts. An illegal move here is a bug of the caller; the state is then
    /// unspecified (debug builds assert).
    fn apply_move_unchecked(&mut self, mv: &Self::Move);

    /// The move in move text (`"play 9C 9C"`, `"bid 60"`, `"expose QS"`, …).
    fn move_to_string(&self, mv: &Self::Move) -> String;

    /// The move of `text`, read in any letter case, spacing and card order. Errors:
    /// `InvalidValue` / `InvalidCard` for text that is not a move of this game. A parsed move
    /// may still be illegal here ([`GameState::check_move`]).
    fn parse_move(&self, text: &str) -> Result<Self::Move>;

    /// The move `policy` chooses for the seat to act, drawn from the deal's own generator as
    /// `simulate` draws it (so the generator advances); not applied. `IllegalPlay` once over.
    fn builtin_move(&mut self, policy: Policy) -> Result<Self::Move>;

    /// Choose with `policy` and apply, as `simulate` does; returns the move.
    fn apply_builtin(&mut self, policy: Policy) -> Result<Self::Move>;

    // ----------------------------------------------------------------- integer actions

    /// Size of the fixed action space (the game documents each action's meaning).
    fn num_distinct_actions(&self) -> usize;

    /// The legal actions now, ascending (`[]` once over), into `out` (cleared first): a vector
    /// env lists them at every step into one buffer per env, with no allocation.
    fn legal_actions_into(&self, out: &mut Vec<usize>);

    /// The legal actions now, ascending (`[]` once over).
    fn legal_actions(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// `out[a]` = whether action `a` is legal now (`out.len() == num_distinct_actions()`).
    fn legal_action_mask(&self, out: &mut [bool]) {
        out.fill(false);
        for a in self.legal_actions() {
            out[a] = true;
        }
    }

    /// Apply action `action` (`IllegalPlay` naming it when it is not legal, the state unchanged).
    fn apply_action(&mut self, action: usize) -> Result<()>;

    /// Apply an action the caller took from this very state's `legal_actions` or mask (the
    /// vector env checks every agent action against its list first). Games whose check is a
    /// separate pass skip it here; the default checks anyway.
    fn apply_legal_action(&mut self, action: usize) -> Result<()> {
        self.apply_action(action)
    }

    /// The action as text (`"9C"`, `"stop"`, `"bid 60"`), whether legal now or not; errors for an
    /// action outside `0..num_distinct_actions()`.
    fn action_to_string(&self, action: usize) -> Result<String>;

    /// The action of `text` (the inverse of [`GameState::action_to_string`]).
    fn string_to_action(&self, text: &str) -> Result<usize> {
        let wanted = text.trim();
        (0..self.num_distinct_actions())
            .find(|&a| self.action_to_string(a).is_ok_and(|t| t.eq_ignore_ascii_case(wanted)))
            .ok_or_else(|| {
                ZhipaiError::invalid_value("action", format!("{text:?}"), "not an action name")
            })
    }

    /// The cards of a move being built card by card (empty when none is pending).
    fn pending_cards(&self) -> Multiset;

    // ----------------------------------------------------------------- information

    /// What `seat` knows now (see [`Observation`]); `InvalidValue` for a seat out of range.
    fn observation(&self, seat: usize) -> Result<Observation>;

    /// Moves recorded since the state was made (every deal, see [`HistoryEntry::deal`]).
    fn history_len(&self) -> usize;

    /// Move `i` of the history, `i < history_len()`.
    fn history_entry(&self, i: usize) -> HistoryEntry;

    /// Every recorded move.
    fn history(&self) -> Vec<HistoryEntry> {
        (0..self.history_len()).map(|i| self.history_entry(i)).collect()
    }

    /// The deal being played ([`HistoryEntry::deal`]): 0, or `n` after the `n`-th redeal. Only
    /// a game that redeals (Baohuang 黄局) overrides it; a fresh redeal has no move yet, so the
    /// last entry's deal cannot tell.
    fn deal_number(&self) -> u32 {
        0
    }

    /// The current deal's moves as `seat` sees them: `(mover, text)`, secret moves left out.
    fn history_seen_by(&self, seat: usize) -> Vec<(usize, String)> {
        let current = self.deal_number();
        self.history()
            .iter()
            .filter(|e| e.deal == current)
            .filter_map(|e| e.seen_by(seat).map(|t| (e.seat, t.to_string())))
            .collect()
    }

    /// Write the deal's `simulate` row (one value per [`Game::columns`] column) into `row`.
    /// `InvalidValue` while the deal is not over.
    fn result_row(&self, row: &mut [i32]) -> Result<()>;

    // ----------------------------------------------------------------- search support

    /// What `seat` knows now of the cards it cannot see ([`SeatView`]): the cards out of play,
    /// how many cards each place still holds (`holding[s]` for the seats in order; a game with
    /// cards still to be dealt adds one more place after the seats, its stock), the kitty's size,
    /// the cards known in place (its own hand, the kitty it buried, cards exposed or revealed)
    /// and the voids shown by play. The hidden cards are dealt uniformly among the deals
    /// consistent with it ([`SeatView::dealer`]). `InvalidValue` for a seat out of range.
    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        let _ = seat;
        Err(not_available("seat_view"))
    }

    /// A *world*: this state with every card `seat` cannot see replaced by `hidden` (one draw of
    /// the dealer of `seat_view(seat)`: `hidden.hands[s]` for each place of the view, and the
    /// kitty), its generator drawn from `rng`. The public history and all `seat` knows are
    /// unchanged; play continues from it as in the real deal. Errors name a `hidden` that does
    /// not fit the view.
    fn with_hidden(&self, seat: usize, hidden: &Deal, rng: &mut GameRng) -> Result<Self> {
        let _ = (seat, hidden, rng);
        Err(not_available("with_hidden"))
    }

    /// Play to the end with `policy` for every seat on the game's fast path, drawing from the
    /// state's own generator as `simulate` does (the history is not recorded). The default steps
    /// with [`GameState::apply_builtin`].
    fn play_out(&mut self, policy: Policy) -> Result<()> {
        while !self.is_terminal() {
            self.apply_builtin(policy)?;
        }
        Ok(())
    }

    // ----------------------------------------------------------------- tensors

    /// The fields of the observation tensor of this rule set, in order (their lengths add up to
    /// the tensor's length; documented per game).
    fn observation_layout(&self) -> Vec<TensorField> {
        Vec::new()
    }

    /// Write what `seat` knows (or, with `perfect`, every hand too) as the float32 tensor of
    /// [`GameState::observation_layout`] into `out` (`out.len()` = the layout's length), without
    /// allocating.
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        let _ = (seat, perfect, out);
        Err(not_available("observation tensors"))
    }

    /// The points each seat has won in play so far, for reward shaping (`None` in a game
    /// without such points). Each game documents its unit: card points of the tricks the seat
    /// won (Shengji family, Hong Wu), the raw score of the cards the seat took with the exposure
    /// so far (Gongzhu).
    fn points_won(&self) -> Option<Vec<f64>> {
        None
    }

    /// The cards a move puts on the table (or buries, declares, exposes; empty for a move
    /// without cards such as a pass or a bid): the features of whole moves.
    fn move_cards(&self, mv: &Self::Move) -> Multiset {
        let _ = mv;
        Multiset::EMPTY
    }
}

/// One field of an observation tensor: `len` floats at `offset`, what they mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorField {
    pub name: &'static str,
    pub offset: usize,
    pub len: usize,
    pub meaning: &'static str,
}

/// Writes an observation tensor's fields in order, every entry of each, so the tensor needs no
/// clearing first: a count field is written dense ([`Multiset::write_counts`]), any other field
/// is cleared as it is handed out. (Clearing a whole 1457-float tensor and then scattering the
/// counts into it was the larger part of a vector-env step.)
pub struct TensorWriter<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl<'a> TensorWriter<'a> {
    pub fn new(out: &'a mut [f32]) -> TensorWriter<'a> {
        TensorWriter { out, at: 0 }
    }

    /// The next `len` entries, cleared.
    pub fn take(&mut self, len: usize) -> &mut [f32] {
        let s = &mut self.out[self.at..self.at + len];
        self.at += len;
        s.fill(0.0);
        s
    }

    /// A count field: the counts of `m` per card kind ([`crate::cards::NUM_KINDS`] entries).
    pub fn cards(&mut self, m: &Multiset) {
        let k = crate::cards::NUM_KINDS;
        m.write_counts(&mut self.out[self.at..self.at + k]);
        self.at += k;
    }

    /// A one-hot field of `len` entries (all zeros for `None`).
    pub fn one_hot(&mut self, len: usize, hot: Option<usize>) {
        let s = self.take(len);
        if let Some(i) = hot {
            s[i] = 1.0;
        }
    }

    /// A field of `len` ≤ 8 flags: entry `i` is bit `i` of `bits` (0.0 or 1.0).
    pub fn flags(&mut self, bits: u8, len: usize) {
        let s = &mut self.out[self.at..self.at + len];
        self.at += len;
        s.copy_from_slice(&crate::multiset::ones_of_byte(bits)[..len]);
    }

    pub fn scalar(&mut self, x: f32) {
        self.take(1)[0] = x;
    }

    /// Entries written so far.
    pub fn written(&self) -> usize {
        self.at
    }
}

/// A game's observation tensor declared once: its fields in order as (name, length, meaning);
/// the offsets follow from the lengths.
pub type TensorFields = [(&'static str, usize, &'static str)];

impl TensorField {
    /// The fields of `table` with their offsets ([`GameState::observation_layout`]).
    pub fn layout(table: &TensorFields) -> Vec<TensorField> {
        let mut offset = 0;
        table
            .iter()
            .map(|&(name, len, meaning)| {
                let f = TensorField { name, offset, len, meaning };
                offset += len;
                f
            })
            .collect()
    }

    /// The tensor's length (usable in constants).
    pub const fn total_len(table: &TensorFields) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < table.len() {
            n += table[i].1;
            i += 1;
        }
        n
    }

    /// The offset of field `name` (usable in constants, where a name not in `table` fails the
    /// build).
    pub const fn offset_of(table: &TensorFields, name: &str) -> usize {
        let mut off = 0;
        let mut i = 0;
        while i < table.len() {
            if same_text(table[i].0, name) {
                return off;
            }
            off += table[i].1;
            i += 1;
        }
        panic!("no such tensor field")
    }
}

/// `a == b` for `const fn`s.
const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The error of a contract method a game does not implement yet.
pub fn not_available(what: &str) -> ZhipaiError {
    ZhipaiError::invalid_option("game", what, "not available for this game yet")
}

/// The deals of one rule set: the factory of [`GameState`]s.
pub trait Game: Send + Sync {
    type State: GameState;

    /// The state of deal `index` of a run seeded `seed`: the same cards, chance events and
    /// generator as deal `index` of `simulate(rules, …, seed)`, at its first decision.
    fn new_deal(&self, seed: u64, index: u64) -> Result<Self::State>;

    /// A deal of given cards and facts, for analysis; errors name the field a game cannot take
    /// or a setup no deal matches.
    fn deal_from(&self, setup: &DealSetup) -> Result<Self::State>;

    /// The columns of a result row ([`GameState::result_row`]), as `simulate` returns them.
    fn columns(&self) -> Vec<Column>;
}

/// The error of a move or action asked of a finished deal.
pub fn deal_over(what: impl std::fmt::Display) -> ZhipaiError {
    ZhipaiError::illegal_play(what, "the deal is over")
}

/// The error of [`GameState::result_row`] while the deal is running.
pub fn not_over() -> ZhipaiError {
    ZhipaiError::invalid_value(
        "call",
        "result_row() during the deal",
        "the deal is not over yet (is_terminal() is false)",
    )
}

/// Values longer than this are cut in error messages (first 80 characters + `…`).
const SHOWN_CHARS: usize = 80;

/// `text` quoted as Python would (`'play 2S'`, `''`), control characters escaped, cut to 80
/// characters + `…` and its length when longer: how a [`GameState::parse_move`] error names
/// text that is not a move.
pub fn quoted(text: &str) -> String {
    let n = text.chars().count();
    let head: String = text.chars().take(SHOWN_CHARS).collect::<String>().escape_debug().collect();
    if n > SHOWN_CHARS {
        format!("'{head}…' ({n} characters)")
    } else {
        format!("'{head}'")
    }
}

/// The actions whose bits are set in `bits` (bit `a` = action `a`), ascending, into `out`
/// (cleared first): the `legal_actions_into` of games that keep their legal actions as a bit
/// mask.
pub fn actions_of_bits(mut bits: u128, out: &mut Vec<usize>) {
    out.clear();
    while bits != 0 {
        out.push(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Check a seat argument against `num_players`.
pub fn check_seat(seat: usize, num_players: usize) -> Result<()> {
    if seat < num_players {
        Ok(())
    } else {
        Err(ZhipaiError::invalid_value("seat", seat, format!("seats are 0 to {}", num_players - 1)))
    }
}
