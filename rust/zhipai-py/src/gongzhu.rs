//! Python binding of Gongzhu (zhipai-core `games::gongzhu`): scoring, legality, trick winner,
//! a playable deal state and matches. Conversions and error mapping only; the rules live in
//! the core.

use crate::errors::guard;
use crate::rules::PyRules;
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
        let mut rng = zhipai_core::rollout::deal_rng(seed, 0);
        let mut m = gongzhu::Match::new(&r);
        while m.deals_played() < deals && !m.is_over() {
            m.play_deal(policy, &mut rng);
        }
        Ok((m.deals_played(), m.totals().to_vec()))
    })
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
                    let mut rng = zhipai_core::rollout::deal_rng(seed, 0);
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
        match self.0.phase() {
            gongzhu::Phase::Exposure => "exposure",
            gongzhu::Phase::Play => "play",
            gongzhu::Phase::Done => "done",
        }
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

fn check_seat(seat: usize) -> Result<()> {
    if seat < 4 {
        Ok(())
    } else {
        Err(ZhipaiError::invalid_value("seat", seat, "expected 0..4"))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGongzhuState>()?;
    m.add_function(wrap_pyfunction!(gongzhu_score, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_check_play, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_match, m)?)?;
    Ok(())
}
