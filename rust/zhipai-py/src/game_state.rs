//! `zhipai.GameState`: one deal of any game (the core's `record::TrackedDeal`), speaking move
//! text and integer actions. Only conversion lives here: every rule, the move grammar, the
//! history and the observation are the core's (`zhipai_core::game::GameState`).

use crate::convert::{int_in, invalid, seed};
use crate::errors::{guard, guard_detached, to_py};
use crate::rules::PyRules;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use zhipai_core::game::{quoted, DealSetup, Value};
use zhipai_core::policy::Policy;
use zhipai_core::record::{Origin, TrackedDeal};
use zhipai_core::search::Player;
use zhipai_core::{Multiset, ZhipaiError};

/// Longest move text `apply` reads: a legal move is far shorter (a 3-deck throw or burial is
/// under 200 characters); longer text is refused without echoing it in full.
const MAX_MOVE_TEXT: usize = 1000;

/// Values longer than this are cut in error messages (first 80 characters + `…`).
const SHOWN_CHARS: usize = 80;

/// One deal in progress of any game. Made by `zhipai.Game(rules).new_deal(...)` or
/// `zhipai.Game.from_json(text)`; see `zhipai.game` for the whole API.
#[pyclass(name = "GameState", module = "zhipai._core")]
pub struct PyGameState {
    deal: TrackedDeal,
    /// A world drawn by `resample`: its record would replay the real deal, so it has none.
    world: bool,
    /// Per seat: its view of the history so far, kept as it grows (an observation copies it
    /// instead of rebuilding every entry).
    views: Vec<Option<View>>,
}

/// One seat's view of the history: the Python list, how many history entries it covers and
/// which deal (redeal) it shows.
struct View {
    list: Py<PyList>,
    done: usize,
    deal: u32,
}

impl PyGameState {
    fn wrap(deal: TrackedDeal) -> PyGameState {
        PyGameState { deal, views: Vec::new(), world: false }
    }

    /// The state of a deal made elsewhere in the binding (a Shengji match hand).
    pub(crate) fn from_tracked(deal: TrackedDeal) -> PyGameState {
        PyGameState::wrap(deal)
    }

    /// The deal with its origin.
    pub(crate) fn tracked(&self) -> &TrackedDeal {
        &self.deal
    }

    /// `seat`'s view of the current deal's history: `(mover, text)` tuples.
    fn history_view<'py>(&mut self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyList>> {
        let s = &self.deal.state;
        let (n, current) = (s.history_len(), s.deal_number());
        if self.views.len() <= seat {
            self.views.resize_with(seat + 1, || None);
        }
        let view = self.views[seat].take().filter(|v| v.deal == current);
        // A redeal (Baohuang 黄局) starts a new visible history: rebuild from its first move.
        let (list, mut done) = match view {
            Some(View { list, done, .. }) => (list.into_bound(py), done),
            None => (
                PyList::empty(py),
                (0..n).find(|&i| s.history_entry(i).deal == current).unwrap_or(n),
            ),
        };
        while done < n {
            let e = s.history_entry(done);
            if let Some(text) = e.seen_by(seat) {
                list.append((e.seat, text))?;
            }
            done += 1;
        }
        let copy = list.get_slice(0, list.len());
        self.views[seat] = Some(View { list: list.unbind(), done, deal: current });
        Ok(copy)
    }

    fn seat_arg(&self, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        int_in("seat", seat, 0, self.deal.state.num_players() as i128 - 1)
    }
}

#[pymethods]
impl PyGameState {
    /// `_new(rules, seed, index, previous_places)`: deal `index` of a `simulate(rules, ...,
    /// seed=seed)` run (Baohuang: after 进贡 from `previous_places`).
    #[staticmethod]
    fn _new(
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
        previous_places: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let seed = crate::convert::seed(seed)?;
        let index = int_in("index", index, 0, u64::MAX as i128)?;
        let previous_places = if previous_places.is_none() {
            None
        } else {
            let v = crate::convert::int_list("previous_places", previous_places, 1, 5)?;
            let places: [u8; 5] = v.try_into().map_err(|v: Vec<u8>| {
                invalid(
                    "previous_places",
                    previous_places,
                    format!("expected 5 places, got {}", v.len()),
                )
            })?;
            Some(places)
        };
        let origin = Origin::Simulated { seed, index, previous_places };
        guard(|| TrackedDeal::new(rules.0.clone(), origin)).map(PyGameState::wrap)
    }

    /// `_from_setup(rules, hands, kitty, level, trump, dealer, seed, index)`: a deal of given
    /// cards (or, without hands, shuffled at a level and dealer), its generator stream `index` of
    /// `seed`.
    #[staticmethod]
    #[pyo3(signature = (rules, hands, kitty, level, trump, dealer, seed_value, index))]
    #[allow(clippy::too_many_arguments)]
    fn _from_setup(
        rules: &PyRules,
        hands: &Bound<'_, PyAny>,
        kitty: &Bound<'_, PyAny>,
        level: &Bound<'_, PyAny>,
        trump: &Bound<'_, PyAny>,
        dealer: &Bound<'_, PyAny>,
        seed_value: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let setup = DealSetup {
            hands: if hands.is_none() { Vec::new() } else { card_lists("hands", hands)? },
            kitty: opt_cards("kitty", kitty)?,
            level: opt_level(level)?,
            trump: opt_trump(trump)?,
            dealer: if dealer.is_none() {
                None
            } else {
                let last = zhipai_core::arena::num_players(&rules.0) as i128 - 1;
                Some(int_in("dealer", dealer, 0, last)?)
            },
            seed: seed(seed_value)?,
            stream: int_in("index", index, 0, u64::MAX as i128)?,
            ..DealSetup::default()
        };
        guard(|| TrackedDeal::new(rules.0.clone(), Origin::Setup(setup))).map(PyGameState::wrap)
    }

    /// `_from_json(text)`: replay a deal record.
    #[staticmethod]
    fn _from_json(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text: String = crate::convert::text("record", text, "a JSON deal record (str)")?;
        guard(|| TrackedDeal::from_json(&text)).map(PyGameState::wrap)
    }

    /// The rule set of the deal.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules::of(self.deal.rules.clone())
    }

    /// Seats at the table (4, or 5 in Baohuang).
    #[getter]
    fn num_players(&self) -> usize {
        self.deal.state.num_players()
    }

    /// The phase: ``"play"`` and ``"done"`` in every game, the others per game.
    #[getter]
    fn phase(&self) -> &'static str {
        self.deal.state.phase().name()
    }

    /// The seat to decide, ``None`` once the deal is over.
    fn current_player(&self) -> Option<usize> {
        self.deal.state.current_player()
    }

    /// Whether the deal is over and scored.
    fn is_terminal(&self) -> bool {
        self.deal.state.is_terminal()
    }

    /// One float64 per seat, zeros before the end.
    fn returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let r: Vec<f64> = self.deal.state.returns().iter().map(|v| v + 0.0).collect();
        r.to_pyarray(py)
    }

    /// At most ``limit`` legal moves as text, in the game's order.
    #[pyo3(signature = (limit = None))]
    fn legal_moves(&self, limit: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        let limit = limit_arg(limit)?;
        Ok(self.deal.state.legal_moves(limit))
    }

    /// How many legal moves there are (all of them, listed or not).
    fn count_legal_moves(&self) -> u64 {
        self.deal.state.count_legal_moves()
    }

    /// Whether ``move`` is legal now (``False`` for text that is not a move).
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let text = move_arg(r#move)?;
        Ok(self.deal.state.check_move(&text).is_ok())
    }

    /// ``None`` when ``move`` is legal now, else why not (the message `apply` would raise).
    fn why_illegal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let text = move_arg(r#move)?;
        Ok(self.deal.state.check_move(&text).err().map(|e| move_error(e).to_string()))
    }

    /// Apply ``move`` for the seat to decide; returns its canonical text.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = move_arg(r#move)?;
        guard(|| self.deal.state.apply_move(&text).map_err(move_error))
    }

    /// The move ``policy`` would make now, not applied: a built-in policy draws from the deal's
    /// generator (which advances, as in ``simulate``; the record keeps it), a search player
    /// (``"pimc(...)"``, ``"ismcts(...)"``) from the deal's search generator.
    fn builtin_move(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = player_arg(policy)?;
        guard(|| self.deal.player_move(&p))
    }

    /// Apply ``policy``'s move as ``simulate`` does; returns its text.
    fn apply_builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = player_arg(policy)?;
        guard(|| self.deal.apply_player(&p))
    }

    /// Size of the fixed integer action space.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.deal.state.num_distinct_actions()
    }

    /// The legal actions now, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.deal.state.legal_actions()
    }

    /// Boolean mask of shape ``(num_distinct_actions,)``.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.deal.state.num_distinct_actions()];
        self.deal.state.legal_action_mask(&mut mask);
        mask.to_pyarray(py)
    }

    /// Apply integer action ``action``.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.deal.state.num_distinct_actions();
        let a: usize = int_in("action", action, 0, n as i128 - 1)?;
        guard(|| self.deal.state.apply_action(a))
    }

    /// The text of integer action ``action``.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.deal.state.num_distinct_actions();
        let a: usize = int_in("action", action, 0, n as i128 - 1)?;
        guard(|| self.deal.state.action_to_string(a))
    }

    /// The integer action of ``text``.
    fn string_to_action(&self, text: &Bound<'_, PyAny>) -> PyResult<usize> {
        let t = crate::convert::text("action", text, "an action name (str)")?;
        guard(|| self.deal.state.string_to_action(&t))
    }

    /// What ``seat`` knows now (with ``perfect``, every hand too) as a float32 array of shape
    /// ``(L,)``, ``L`` the length of ``observation_layout()`` (``zhipai.observation_shape``);
    /// written into ``out`` (a writable C-contiguous float32 array of shape ``(L,)``) and
    /// returned when given, without allocating. Errors: ``InvalidValueError`` for a bad seat or
    /// ``out``.
    #[pyo3(signature = (seat, perfect = None, out = None), text_signature = "($self, seat, perfect=False, out=None)")]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        perfect: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat_arg(seat)?;
        let perfect = match perfect {
            Some(p) => crate::convert::flag("perfect", p)?,
            None => false,
        };
        let len: usize = self.deal.state.observation_layout().iter().map(|f| f.len).sum();
        let arr = match out.filter(|o| !o.is_none()) {
            None => PyArray1::<f32>::zeros(py, len, false),
            Some(o) => {
                let want = format!(
                    "expected a writable C-contiguous float32 numpy array of shape ({len},)"
                );
                let a = o.cast::<PyArray1<f32>>().map_err(|_| invalid("out", o, &want))?.clone();
                if a.len() != len || !a.is_c_contiguous() {
                    return Err(invalid("out", o, want));
                }
                a
            }
        };
        {
            let mut rw = arr
                .try_readwrite()
                .map_err(|e| invalid("out", &arr, format!("not writable: {e}")))?;
            let buf = rw.as_slice_mut().map_err(|e| invalid("out", &arr, e))?;
            guard(|| self.deal.state.write_observation_tensor(seat, perfect, buf))?;
        }
        Ok(arr)
    }

    /// The fields of ``observation_tensor``: ``(name, offset, length, meaning)`` in order
    /// (offsets and lengths in float32 entries; the game's docs give the table).
    fn observation_layout(&self) -> Vec<(String, usize, usize, String)> {
        self.deal
            .state
            .observation_layout()
            .into_iter()
            .map(|f| (f.name.to_string(), f.offset, f.len, f.meaning.to_string()))
            .collect()
    }

    /// The cards of the first ``limit`` legal moves (``legal_moves(limit)``, in that order) as a
    /// uint8 array of shape ``(n_moves, 54)``: copies of each card kind in the order of
    /// ``zhipai.cards_to_array`` (♠2 … ♣A, SJ, BJ). A move without cards (a pass, a bid, a trump
    /// choice, ``"end exposure"``) has a zero row: tell those apart by index and
    /// ``legal_moves(limit)`` text. ``n_moves`` is 0 once over.
    #[pyo3(signature = (limit = None))]
    fn legal_move_features<'py>(
        &self,
        py: Python<'py>,
        limit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
        let limit = limit_arg(limit)?;
        let mut buf = Vec::new();
        let n = self.deal.state.legal_move_features(limit, &mut buf);
        numpy::PyArray1::from_vec(py, buf).reshape([n, zhipai_core::NUM_KINDS])
    }

    /// Apply move ``index`` of ``legal_moves(limit)``; returns its text. Errors:
    /// ``InvalidValueError`` for an index not below the number listed (the state unchanged).
    #[pyo3(signature = (index, limit = None))]
    fn apply_move_index(
        &mut self,
        index: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let limit = limit_arg(limit)?;
        let i: usize = int_in("move index", index, 0, u32::MAX as i128)?;
        guard(|| self.deal.state.apply_move_index(i, limit))
    }

    /// The cards of a move being built action by action (``""`` when none).
    #[getter]
    fn pending_cards(&self) -> String {
        self.deal.state.pending_cards().to_string()
    }

    /// What ``seat`` knows now, as a dict (keys per game; ``history`` = its view of the moves).
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat_arg(seat)?;
        let obs = guard(|| self.deal.state.observation(seat))?;
        let d = PyDict::new(py);
        for (k, v) in &obs.entries {
            d.set_item(*k, value(py, v)?)?;
        }
        d.set_item("history", self.history_view(py, seat)?)?;
        Ok(d)
    }

    /// Every move so far as dicts ``{seat, move, mover_view, public_view, builtin, deal}``
    /// (``seat=None``), or ``seat``'s view of the current deal as ``(mover, text)`` tuples.
    #[pyo3(signature = (seat = None))]
    fn history<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        if let Some(seat) = seat.filter(|s| !s.is_none()) {
            let seat = self.seat_arg(seat)?;
            return self.history_view(py, seat);
        }
        let out = PyList::empty(py);
        let s = &self.deal.state;
        for i in 0..s.history_len() {
            let e = s.history_entry(i);
            let d = PyDict::new(py);
            d.set_item("seat", e.seat)?;
            d.set_item("move", e.applied)?;
            d.set_item("mover_view", e.mover_view)?;
            d.set_item("public_view", e.public_view)?;
            d.set_item("builtin", e.builtin.map(|p| p.name()))?;
            d.set_item("deal", e.deal)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The deal's ``simulate`` row once over.
    fn result_row(&self) -> PyResult<Vec<i32>> {
        let mut row = vec![0; self.deal.rules.columns().len()];
        guard(|| self.deal.state.result_row(&mut row))?;
        Ok(row)
    }

    /// The result row as ``{column: value}`` once over, ``None`` before.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        if !self.deal.state.is_terminal() {
            return Ok(None);
        }
        let row = self.result_row()?;
        let d = PyDict::new(py);
        for (c, v) in self.deal.rules.columns().iter().zip(row) {
            d.set_item(c.name, v)?;
        }
        Ok(Some(d))
    }

    /// An independent copy (its generator too).
    fn clone(&self) -> Self {
        PyGameState { world: self.world, ..PyGameState::wrap(self.deal.clone()) }
    }

    /// A *world* of this deal as ``seat`` sees it: every card ``seat`` cannot see redrawn
    /// uniformly among the deals consistent with what it knows (its hand, the public history,
    /// exposed and known cards, voids shown), the world's generator drawn from ``seed``; the
    /// history and ``seat``'s observation are unchanged. A world has no record (``to_json`` and
    /// pickling raise ``InvalidValueError``). Errors: ``InvalidValueError`` for a bad seat or seed.
    fn resample(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let seat = self.seat_arg(seat)?;
        let mut rng = zhipai_core::deal::deal_rng(crate::convert::seed(seed)?, 0);
        let state = &self.deal.state;
        let world = guard_detached(py, || state.resample(seat, &mut rng))?;
        let deal =
            TrackedDeal::with_state(self.deal.rules.clone(), self.deal.origin.clone(), world);
        Ok(PyGameState { world: true, ..PyGameState::wrap(deal) })
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The deal as a JSON record (`zhipai.Game.from_json` replays it).
    fn to_json(&self) -> PyResult<String> {
        if self.world {
            return Err(to_py(ZhipaiError::invalid_value(
                "call",
                "to_json() of a resampled world",
                "a world has no record (its hidden cards were redrawn)",
            )));
        }
        Ok(self.deal.to_json())
    }

    /// Pickled as its record (replayed on load).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let cls = py.get_type::<PyGameState>().getattr("_from_json")?;
        Ok((cls, (self.to_json()?,)))
    }

    fn __repr__(&self) -> String {
        let s = &self.deal.state;
        let cp = s.current_player().map_or("None".to_string(), |p| p.to_string());
        format!(
            "GameState(preset='{}', phase='{}', current_player={cp})",
            self.deal.rules.preset(),
            s.phase().name()
        )
    }
}

/// The `limit` argument of the move listings: an integer from 1, 1000 by default.
fn limit_arg(limit: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match limit {
        Some(l) if !l.is_none() => int_in("limit", l, 1, u32::MAX as i128),
        _ => Ok(1000),
    }
}

/// An observation value in its Python form.
fn value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::None => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Text(t) => PyString::new(py, t).into_any(),
        Value::Cards(m) => PyString::new(py, &m.to_string()).into_any(),
        Value::Tuple(items) => {
            let items: Vec<Bound<'py, PyAny>> =
                items.iter().map(|x| value(py, x)).collect::<PyResult<_>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        Value::List(items) => {
            let items: Vec<Bound<'py, PyAny>> =
                items.iter().map(|x| value(py, x)).collect::<PyResult<_>>()?;
            PyList::new(py, items)?.into_any()
        }
    })
}

/// The `move` argument: a non-empty `str` of at most [`MAX_MOVE_TEXT`] characters.
fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let bad = |value: String, why: &str| to_py(ZhipaiError::invalid_value("move", value, why));
    let Ok(s) = obj.cast::<PyString>() else {
        let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
        let shown: String = shown.chars().take(SHOWN_CHARS).collect();
        return Err(bad(shown, "expected a move string as listed by legal_moves()"));
    };
    let text = s.to_str()?;
    if text.trim().is_empty() {
        return Err(bad(quoted(text), "empty; expected a move as listed by legal_moves()"));
    }
    if text.chars().count() > MAX_MOVE_TEXT {
        return Err(bad(quoted(text), "longer than any legal move"));
    }
    Ok(text.to_string())
}

/// An `apply` error as users read it: "illegal play BJ BJ BJ: …", not "illegal play play BJ …".
fn move_error(e: ZhipaiError) -> ZhipaiError {
    match e {
        ZhipaiError::IllegalPlay { play, reason } => ZhipaiError::IllegalPlay {
            play: play.strip_prefix("play ").map(str::to_string).unwrap_or(play),
            reason,
        },
        other => other,
    }
}

/// The `policy` argument of the built-in moves: a `str` naming a built-in policy.
pub(crate) fn policy_arg(obj: &Bound<'_, PyAny>) -> PyResult<Policy> {
    let name = crate::convert::text("policy", obj, "'random', 'greedy' or 'basic'")?;
    guard(|| name.parse::<Policy>())
}

/// A player's name (`"greedy"`, `"pimc(worlds=32)"`, …; `zhipai_core::search::player`).
pub(crate) fn player_arg(obj: &Bound<'_, PyAny>) -> PyResult<Player> {
    let name =
        crate::convert::text("policy", obj, "a policy name such as 'greedy' or 'pimc(worlds=32)'")?;
    guard(|| name.parse::<Player>())
}

fn cards(what: &str, obj: &Bound<'_, PyAny>) -> PyResult<Multiset> {
    let text = crate::convert::text(what, obj, "cards in notation (str)")?;
    guard(|| text.parse::<Multiset>())
}

fn opt_cards(what: &str, obj: &Bound<'_, PyAny>) -> PyResult<Option<Multiset>> {
    if obj.is_none() {
        Ok(None)
    } else {
        cards(what, obj).map(Some)
    }
}

fn card_lists(what: &str, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Multiset>> {
    crate::convert::text_list(what, obj, "hands in notation (str)")?
        .iter()
        .enumerate()
        .map(|(i, t)| {
            guard(|| {
                t.parse::<Multiset>()
                    .map_err(|e| ZhipaiError::invalid_value(format!("{what}[{i}]"), quoted(t), e))
            })
        })
        .collect()
}

fn opt_level(obj: &Bound<'_, PyAny>) -> PyResult<Option<Option<zhipai_core::Rank>>> {
    if obj.is_none() {
        return Ok(None);
    }
    let t = crate::convert::text("level", obj, "a rank such as '2', '10', 'A', or 'NT'")?;
    if t.trim().eq_ignore_ascii_case("NT") {
        return Ok(Some(None));
    }
    t.trim()
        .parse::<zhipai_core::Rank>()
        .map(|r| Some(Some(r)))
        .map_err(|_| invalid("level", obj, "expected a rank such as '2', '10', 'A', or 'NT'"))
}

fn opt_trump(obj: &Bound<'_, PyAny>) -> PyResult<Option<Option<zhipai_core::Suit>>> {
    if obj.is_none() {
        return Ok(None);
    }
    let t = crate::convert::text("trump", obj, "a suit letter S H D C, or 'NT'")?;
    if t.trim().eq_ignore_ascii_case("NT") {
        return Ok(Some(None));
    }
    t.trim()
        .parse::<zhipai_core::Suit>()
        .map(|s| Some(Some(s)))
        .map_err(|_| invalid("trump", obj, "expected a suit letter S H D C, or 'NT'"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGameState>()?;
    Ok(())
}
