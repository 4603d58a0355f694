//! Python binding of Gongzhu (zhipai-core `games::gongzhu`): scoring, legality, trick winner,
//! a playable deal state and matches. Conversions and error mapping only; the rules live in
//! the core.

use crate::errors::guard;
use crate::rules::PyRules;
use crate::simulate::{
    builtin_policy_arg, clean_return, finished_row, move_arg, move_error, quoted, seat_arg,
    seed_index, History, Step,
};
use pyo3::prelude::*;
use zhipai_core::games::gongzhu::{
    self, check_play, legal_plays, scoring, trick_winner, GongzhuRules, Move, Opening, Play,
    Position, State,
};
use zhipai_core::{parse_cards, Multiset, Result, Rules, Suit, ZhipaiError};

fn gongzhu_rules(rules: &PyRules) -> Result<GongzhuRules> {
    match &rules.0 {
        Rules::Gongzhu(r) => Ok(*r),
        other => Err(ZhipaiError::invalid_value(
            "rules",
            other.preset(),
            "expected a gongzhu rule set (zhipai.rules(\"gongzhu\", ...))",
        )),
    }
}

fn multiset(text: &str) -> Result<Multiset> {
    Multiset::from_cards(&parse_cards(text)?)
}

fn play(text: &str) -> Result<Play> {
    Play::from_cards(&parse_cards(text)?)
}

fn suits_mask(suits: &[String]) -> Result<u8> {
    let mut m = 0;
    for s in suits {
        m |= 1 << s.parse::<Suit>()?.index();
    }
    Ok(m)
}

/// Build a legality position from text arguments, validating that the play context fits.
fn position(
    r: &GongzhuRules,
    hand: &str,
    lead: Option<&str>,
    exposed: &str,
    suits_led: &[String],
    forced: bool,
) -> Result<Position> {
    let hand = multiset(hand)?;
    let exposed = multiset(exposed)?;
    for c in exposed.iter() {
        if scoring::exposable_index(c).is_none() {
            return Err(ZhipaiError::invalid_value("exposed card", c, "only QS, JD, 10C, AH"));
        }
    }
    let per = 13 * r.decks as usize;
    if hand.len() > per || hand.iter().any(|c| hand.count(c) > r.decks as usize || c.is_joker()) {
        return Err(ZhipaiError::invalid_value(
            "hand",
            hand,
            format!("at most {per} cards, each at most {} time(s), no jokers", r.decks),
        ));
    }
    let restricted = {
        // Only the exposed copies still held restrict play.
        let mut m = Multiset::EMPTY;
        for c in exposed.iter() {
            if m.count(c) < hand.count(c) {
                m.add(c);
            }
        }
        m
    };
    let lead = lead.map(play).transpose()?;
    if let Some(l) = lead {
        if l.len() == 2 && !l.is_pair() || r.decks == 1 && l.len() == 2 {
            return Err(ZhipaiError::invalid_value(
                "lead",
                l,
                "a lead is one card, or a pair in two decks",
            ));
        }
    }
    let forced = if forced && lead.is_none() {
        match r.first_lead_card {
            gongzhu::options::FirstLead::Card(c) => Some(c),
            gongzhu::options::FirstLead::Rotate => None,
        }
    } else {
        None
    };
    if let Some(c) = forced {
        if !hand.contains(c) {
            return Err(ZhipaiError::invalid_value(
                "hand",
                hand,
                format!("the first leader of a match holds {c}"),
            ));
        }
    }
    Ok(Position { hand, exposed: restricted, suits_led: suits_mask(suits_led)?, lead, forced })
}

/// `gongzhu_score(rules, taken, exposed, closed)` → `(raw, final)`: 4 ints each.
#[pyfunction]
#[pyo3(signature = (rules, taken, exposed="", closed=""))]
fn gongzhu_score(
    rules: &PyRules,
    taken: Vec<String>,
    exposed: &str,
    closed: &str,
) -> PyResult<(Vec<i64>, Vec<i64>)> {
    guard(|| {
        let r = gongzhu_rules(rules)?;
        if taken.len() != 4 {
            return Err(ZhipaiError::invalid_value("taken", taken.len(), "expected 4 card lists"));
        }
        let t: Vec<Multiset> = taken.iter().map(|s| multiset(s)).collect::<Result<_>>()?;
        let t: [Multiset; 4] = [t[0], t[1], t[2], t[3]];
        let s = scoring::score_deal(&r, &t, &multiset(exposed)?, &multiset(closed)?)?;
        Ok((s.raw.to_vec(), s.final_.to_vec()))
    })
}

/// `gongzhu_legal_plays(...)` → every legal play as a card list.
#[pyfunction]
#[pyo3(signature = (rules, hand, lead=None, exposed="", suits_led=vec![], first_trick_of_match=false))]
fn gongzhu_legal_plays(
    rules: &PyRules,
    hand: &str,
    lead: Option<&str>,
    exposed: &str,
    suits_led: Vec<String>,
    first_trick_of_match: bool,
) -> PyResult<Vec<String>> {
    guard(|| {
        let r = gongzhu_rules(rules)?;
        let pos = position(&r, hand, lead, exposed, &suits_led, first_trick_of_match)?;
        let mut out = Vec::new();
        legal_plays(&r, &pos, &mut out);
        Ok(out.iter().map(|p| p.to_string()).collect())
    })
}

/// `gongzhu_check_play(...)` → `None` when legal, else the reason.
#[pyfunction]
#[pyo3(signature = (rules, hand, play, lead=None, exposed="", suits_led=vec![], first_trick_of_match=false))]
fn gongzhu_check_play(
    rules: &PyRules,
    hand: &str,
    play: &str,
    lead: Option<&str>,
    exposed: &str,
    suits_led: Vec<String>,
    first_trick_of_match: bool,
) -> PyResult<Option<String>> {
    guard(|| {
        let r = gongzhu_rules(rules)?;
        let pos = position(&r, hand, lead, exposed, &suits_led, first_trick_of_match)?;
        let p = self::play(play)?;
        Ok(check_play(&r, &pos, &p).err())
    })
}

/// `gongzhu_trick_winner(rules, plays)` → index of the winning play (leader = 0).
#[pyfunction]
fn gongzhu_trick_winner(rules: &PyRules, plays: Vec<String>) -> PyResult<usize> {
    guard(|| {
        let r = gongzhu_rules(rules)?;
        let cards: Vec<_> = plays.iter().map(|p| parse_cards(p)).collect::<Result<_>>()?;
        let trick = gongzhu::play::parse_trick(&r, &cards)?;
        Ok(trick_winner(&r, &trick))
    })
}

/// Play whole matches: `(deals played, totals)`.
#[pyfunction]
#[pyo3(signature = (rules, deals, policy="random", seed=0))]
fn gongzhu_match(
    rules: &PyRules,
    deals: u32,
    policy: &str,
    seed: u64,
) -> PyResult<(u32, Vec<i64>)> {
    guard(|| {
        let r = gongzhu_rules(rules)?;
        let policy = policy.parse()?;
        let mut rng = zhipai_core::deal::deal_rng(seed, 0);
        let mut m = gongzhu::Match::new(&r);
        while m.deals_played() < deals && !m.is_over() {
            m.play_deal(policy, &mut rng);
        }
        Ok((m.deals_played(), m.totals().to_vec()))
    })
}

/// The Python name of a phase: `"exposure"`, `"play"` or `"done"`.
fn phase_name(p: gongzhu::Phase) -> &'static str {
    match p {
        gongzhu::Phase::Exposure => "exposure",
        gongzhu::Phase::Play => "play",
        gongzhu::Phase::Done => "done",
    }
}

fn parse_move(text: &str) -> Result<Move> {
    let t = text.trim().to_ascii_lowercase();
    if t == "end exposure" || t == "pass" {
        return Ok(Move::EndExposure);
    }
    if let Some(rest) = t.strip_prefix("expose closed ") {
        return Ok(Move::ExposeClosed(rest.parse()?));
    }
    if let Some(rest) = t.strip_prefix("expose ") {
        return Ok(Move::Expose(rest.parse()?));
    }
    Ok(Move::Play(play(text)?))
}

/// One Gongzhu deal. See `zhipai.gongzhu.Game` for the documented Python API.
#[pyclass(name = "GongzhuState", module = "zhipai._core", from_py_object)]
#[derive(Clone)]
pub struct PyGongzhuState(State);

#[pymethods]
impl PyGongzhuState {
    #[new]
    #[pyo3(signature = (rules, seed=0, hands=None, leader=None))]
    fn new(
        rules: &PyRules,
        seed: u64,
        hands: Option<Vec<String>>,
        leader: Option<usize>,
    ) -> PyResult<Self> {
        guard(|| {
            let r = gongzhu_rules(rules)?;
            let opening = leader.map_or(Opening::FirstOfMatch, Opening::LedBy);
            let state = match hands {
                None => {
                    let mut rng = zhipai_core::deal::deal_rng(seed, 0);
                    if let Opening::LedBy(s) = opening {
                        if s >= 4 {
                            return Err(ZhipaiError::invalid_value(
                                "leader",
                                s,
                                "expected a seat 0..4",
                            ));
                        }
                    }
                    State::deal(&r, &mut rng, opening)
                }
                Some(h) => {
                    if h.len() != 4 {
                        return Err(ZhipaiError::invalid_value(
                            "hands",
                            h.len(),
                            "expected 4 hands",
                        ));
                    }
                    let m: Vec<Multiset> = h.iter().map(|s| multiset(s)).collect::<Result<_>>()?;
                    State::from_hands(&r, [m[0], m[1], m[2], m[3]], opening)?
                }
            };
            Ok(PyGongzhuState(state))
        })
    }

    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.0.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.0.phase())
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_actions()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        guard(|| self.0.apply_action(action))
    }

    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        guard(|| self.0.apply(parse_move(text)?))
    }

    #[staticmethod]
    fn action_to_string(action: usize) -> PyResult<String> {
        guard(|| Ok(Move::from_action(action)?.to_string()))
    }

    #[staticmethod]
    fn string_to_action(text: &str) -> PyResult<usize> {
        guard(|| Ok(parse_move(text)?.action()))
    }

    #[staticmethod]
    fn num_actions() -> usize {
        gongzhu::NUM_ACTIONS
    }

    fn returns(&self) -> Vec<f64> {
        self.0.returns().to_vec()
    }

    fn scores(&self) -> (Vec<i64>, Vec<i64>) {
        let s = self.0.score();
        (s.raw.to_vec(), s.final_.to_vec())
    }

    fn hand(&self, seat: usize) -> PyResult<String> {
        guard(|| check_seat(seat).map(|_| self.0.hand(seat).to_string()))
    }

    fn taken(&self, seat: usize) -> PyResult<String> {
        guard(|| check_seat(seat).map(|_| self.0.taken(seat).to_string()))
    }

    fn exposed(&self, seat: usize) -> PyResult<(String, String)> {
        guard(|| {
            check_seat(seat)?;
            let (o, c) = self.0.exposed(seat);
            Ok((o.to_string(), c.to_string()))
        })
    }

    fn current_trick(&self) -> (usize, Vec<String>) {
        let (leader, plays) = self.0.current_trick();
        (leader, plays.iter().map(|p| p.to_string()).collect())
    }

    #[getter]
    fn tricks_played(&self) -> usize {
        self.0.tricks_played()
    }

    #[getter]
    fn first_leader(&self) -> usize {
        self.0.first_leader()
    }

    #[getter]
    fn next_deal_leader(&self) -> Option<usize> {
        self.0.next_deal_leader()
    }

    fn clone(&self) -> Self {
        PyGongzhuState(self.0.clone())
    }
}

/// One Gongzhu deal for step-by-step play by any mix of Python callables and built-in
/// policies, with its own generator (the first deal of a match, as `zhipai.simulate` plays it).
/// Move text: `expose QS`, `expose closed QS`, `end exposure`, a play as cards (`QS`,
/// `10C 10C`). See `zhipai.policy.GameState`.
#[pyclass(name = "GongzhuGameState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyGongzhuGameState {
    state: State,
    rng: rand_chacha::ChaCha8Rng,
    history: History,
    buf: Vec<Play>,
}

impl PyGongzhuGameState {
    fn record(&mut self, seat: usize, mv: Move) {
        self.history.push(match mv {
            Move::ExposeClosed(_) => Step::hidden(seat, "expose closed", mv.to_string()),
            _ => Step::public(seat, mv.to_string()),
        });
    }

    fn builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<Move> {
        let p = builtin_policy_arg(policy)?;
        if self.state.is_terminal() {
            return guard(|| Err(ZhipaiError::illegal_play("builtin move", "the deal is over")));
        }
        Ok(gongzhu::policy::choose(&self.state, p, &mut self.rng, &mut self.buf))
    }
}

#[pymethods]
impl PyGongzhuGameState {
    /// `new_deal(rules, seed, index)`: deal `index` of a `zhipai.simulate` run seeded with
    /// `seed` (same cards, first leader and generator), at the first exposure decision.
    #[staticmethod]
    fn new_deal(
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (seed, index) = seed_index(seed, index)?;
        let r = guard(|| gongzhu_rules(rules))?;
        let mut rng = zhipai_core::deal::deal_rng(seed, index);
        let state = State::deal(&r, &mut rng, Opening::FirstOfMatch);
        Ok(PyGongzhuGameState { state, rng, history: History::default(), buf: Vec::new() })
    }

    /// Number of seats (4).
    #[getter]
    fn num_players(&self) -> usize {
        4
    }

    fn current_player(&self) -> Option<usize> {
        self.state.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Every legal move of the seat to act, in action-code order (`[]` once over).
    fn legal_moves(&self) -> Vec<String> {
        self.state.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    /// Apply `move` (text as in `legal_moves`; letter case, spacing and card order are free).
    /// Raises `IllegalPlayError` naming the move and the rule (the state is then unchanged), or
    /// `InvalidCardError` / `InvalidValueError` for text that is not a move (`"pass"` included:
    /// Gongzhu has no pass, the end of one's exposures is `"end exposure"`).
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = move_arg(r#move)?;
        let seat = self.state.current_player().unwrap_or(0);
        let mv = guard(|| {
            if text.trim().eq_ignore_ascii_case("pass") {
                return Err(ZhipaiError::invalid_value(
                    "move",
                    quoted(&text),
                    "Gongzhu has no pass; 'end exposure' ends your exposures",
                ));
            }
            let mv = parse_move(&text)?;
            self.state.apply(mv).map_err(move_error)?;
            Ok(mv)
        })?;
        self.record(seat, mv);
        Ok(())
    }

    /// The move built-in `policy` ("random" or "greedy") chooses for the seat to act, without
    /// applying it (drawn from the deal's own generator).
    fn builtin_move(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.builtin(policy)?.to_string())
    }

    /// Apply the move of built-in `policy` (as `zhipai.simulate` does) and return its text.
    fn apply_builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let seat = self.state.current_player().unwrap_or(0);
        let mv = self.builtin(policy)?;
        match mv {
            Move::Play(p) => self.state.apply_play_unchecked(p),
            other => self.state.apply_exposure(other),
        }
        self.record(seat, mv);
        Ok(mv.to_string())
    }

    /// What `seat` sees, as a dict (keys documented in `zhipai.policy`).
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let seat = seat_arg(seat, 4)?;
        let s = &self.state;
        let o = pyo3::types::PyDict::new(py);
        o.set_item("game", "gongzhu")?;
        o.set_item("seat", seat)?;
        o.set_item("phase", phase_name(s.phase()))?;
        o.set_item("current_player", s.current_player())?;
        o.set_item("hand", s.hand(seat).to_string())?;
        o.set_item("hand_sizes", (0..4).map(|p| s.hand(p).len()).collect::<Vec<_>>())?;
        o.set_item("exposed", (0..4).map(|p| s.exposed(p).0.to_string()).collect::<Vec<_>>())?;
        o.set_item("closed", s.exposed(seat).1.to_string())?;
        o.set_item("taken", (0..4).map(|p| s.taken(p).to_string()).collect::<Vec<_>>())?;
        let (leader, plays) = s.current_trick();
        o.set_item(
            "current_trick",
            plays
                .iter()
                .enumerate()
                .map(|(i, p)| ((leader + i) % 4, p.to_string()))
                .collect::<Vec<_>>(),
        )?;
        o.set_item("first_leader", s.first_leader())?;
        o.set_item("tricks", s.tricks_played())?;
        o.set_item("history", self.history.view(py, seat)?)?;
        Ok(o)
    }

    /// The deal's result row (columns of `zhipai.simulate`), once over.
    fn result_row(&self) -> PyResult<Vec<i32>> {
        let rules = Rules::Gongzhu(*self.state.rules());
        finished_row(&rules, self.state.is_terminal(), |row| {
            gongzhu::row::write_row(self.state.rules(), &self.state.summary(), row);
            Ok(())
        })
    }

    /// Final (credited) scores per seat once over, zeros before.
    fn returns(&self) -> Vec<f64> {
        self.state.returns().iter().map(|&r| clean_return(r)).collect()
    }

    /// The phase as every game's `GameState` names it: `"exposure"`, `"play"` or `"done"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.state.phase())
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "GongzhuGameState(phase='{}', current_player={})",
            phase_name(self.state.phase()),
            crate::simulate::py_opt(self.state.current_player())
        )
    }
}

fn check_seat(seat: usize) -> Result<()> {
    if seat < 4 {
        Ok(())
    } else {
        Err(ZhipaiError::invalid_value("seat", seat, "expected 0..4"))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGongzhuState>()?;
    m.add_class::<PyGongzhuGameState>()?;
    m.add_function(wrap_pyfunction!(gongzhu_score, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_check_play, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_match, m)?)?;
    Ok(())
}
