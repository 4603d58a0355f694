//! `TrickMechanics`: the trick machinery of the Shengji family (and, later, Hong Wu) for one
//! deal's level and trump. Thin: parsing, error mapping; every rule is in `zhipai_core::trick`.

use crate::errors::guard;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::combos::{decompose, Format};
use zhipai_core::trick::{self, FollowMoves, TrickRules};
use zhipai_core::{Multiset, Rank, Rules, Suit, ZhipaiError};

/// Trick mechanics of one deal: `TrickMechanics(rules, level, trump)`; see
/// `zhipai.shengji.Mechanics` for the documented Python API.
#[pyclass(name = "TrickMechanics", module = "zhipai", frozen)]
pub struct PyTrickMechanics {
    rules: Rules,
    tr: TrickRules,
    level: Rank,
    trump: Option<Suit>,
}

fn parse_trump(text: &str) -> Result<Option<Suit>, ZhipaiError> {
    if text.trim().eq_ignore_ascii_case("NT") {
        return Ok(None);
    }
    text.parse::<Suit>()
        .map(Some)
        .map_err(|_| ZhipaiError::invalid_value("trump", text, "expected S, H, D, C or NT"))
}

impl PyTrickMechanics {
    /// Parse a card list, checking the number of copies against the decks.
    fn cards(&self, what: &str, text: &str) -> Result<Multiset, ZhipaiError> {
        let m = Multiset::from_cards(&zhipai_core::parse_cards(text)?)
            .map_err(|_| ZhipaiError::invalid_value(what, text, "more than 4 copies of a card"))?;
        self.tr.check_copies(what, &m)?;
        Ok(m)
    }

    /// The format of a lead as played (one effective suit, non-empty).
    fn format(&self, what: &str, m: &Multiset) -> Result<Format, ZhipaiError> {
        decompose(m, &self.tr.order, self.tr.decomposition).ok_or_else(|| {
            ZhipaiError::invalid_value(what, m, "expected a non-empty lead of one effective suit")
        })
    }

    fn with_moves<T>(
        &self,
        lead: &str,
        hand: &str,
        f: impl FnOnce(&FollowMoves<'_>) -> Result<T, ZhipaiError>,
    ) -> Result<T, ZhipaiError> {
        let lead_m = self.cards("lead", lead)?;
        let format = self.format("lead", &lead_m)?;
        let hand = self.cards("hand", hand)?;
        let moves = FollowMoves::new(&self.tr, &format, &hand)?;
        f(&moves)
    }
}

#[pymethods]
impl PyTrickMechanics {
    #[new]
    #[pyo3(signature = (rules, level = "2", trump = "NT"))]
    fn new(rules: PyRules, level: &str, trump: &str) -> PyResult<Self> {
        guard(|| {
            let lv: Rank = level.parse()?;
            let tp = parse_trump(trump)?;
            let tr = trick::trick_rules(&rules.0, lv, tp)?;
            Ok(PyTrickMechanics { rules: rules.0, tr, level: lv, trump: tp })
        })
    }

    #[getter]
    fn level(&self) -> &'static str {
        self.level.symbol()
    }

    #[getter]
    fn trump(&self) -> String {
        self.trump.map_or("NT".to_string(), |s| s.letter().to_string())
    }

    #[getter]
    fn decks(&self) -> u8 {
        self.tr.decks
    }

    /// `(kind, units)`: kind `single pair triple tractor titanic throw`, or `invalid` for an empty
    /// or mixed-suit card list (then `units` is empty).
    fn classify(&self, cards: &str) -> PyResult<(String, Vec<String>)> {
        guard(|| {
            let m = self.cards("cards", cards)?;
            Ok(match decompose(&m, &self.tr.order, self.tr.decomposition) {
                None => ("invalid".to_string(), Vec::new()),
                Some(f) => {
                    (f.kind().name().to_string(), f.units.iter().map(|u| u.to_string()).collect())
                }
            })
        })
    }

    /// `None` when the lead is structurally legal, else the reason.
    #[pyo3(signature = (cards, hand = None))]
    fn check_lead(&self, cards: &str, hand: Option<&str>) -> PyResult<Option<String>> {
        guard(|| {
            let m = self.cards("cards", cards)?;
            let h = hand.map(|h| self.cards("hand", h)).transpose()?;
            Ok(trick::check_lead(&self.tr, &m, h.as_ref()).err().map(|e| e.to_string()))
        })
    }

    /// `(valid, played, beaten_cards)` for a throw checked against the other hands.
    fn check_throw(&self, cards: &str, others: Vec<String>) -> PyResult<(bool, String, usize)> {
        guard(|| {
            let m = self.cards("cards", cards)?;
            let format = trick::check_lead(&self.tr, &m, None)
                .map_err(|e| ZhipaiError::illegal_play(m, e))?;
            let others: Vec<Multiset> =
                others.iter().map(|o| self.cards("others", o)).collect::<Result<_, _>>()?;
            let r = trick::check_throw(&self.tr, &format, &others);
            Ok((r.valid, r.played.to_string(), r.beaten_cards))
        })
    }

    /// `None` when `play` legally follows `lead` from `hand`, else the reason.
    fn check_follow(&self, lead: &str, hand: &str, play: &str) -> PyResult<Option<String>> {
        guard(|| {
            self.with_moves(lead, hand, |moves| {
                let p = self.cards("play", play)?;
                Ok(moves.check(&p).err().map(|e| e.to_string()))
            })
        })
    }

    /// Every legal follow (up to `limit`), in a deterministic order.
    #[pyo3(signature = (lead, hand, limit = None))]
    fn follows(&self, lead: &str, hand: &str, limit: Option<usize>) -> PyResult<Vec<String>> {
        guard(|| {
            self.with_moves(lead, hand, |moves| {
                Ok(moves
                    .enumerate(limit.unwrap_or(usize::MAX))
                    .iter()
                    .map(|m| m.to_string())
                    .collect())
            })
        })
    }

    /// Number of legal follows (distinct card multisets).
    fn count_follows(&self, lead: &str, hand: &str) -> PyResult<u64> {
        guard(|| self.with_moves(lead, hand, |moves| Ok(moves.count())))
    }

    /// One legal follow drawn uniformly, reproducible from `seed`.
    fn sample_follow(&self, lead: &str, hand: &str, seed: u64) -> PyResult<String> {
        guard(|| {
            self.with_moves(lead, hand, |moves| {
                let mut rng = zhipai_core::rollout::deal_rng(seed, 0);
                Ok(moves.sample(&mut rng).to_string())
            })
        })
    }

    /// Index of the winning play (index 0 = the lead as played).
    fn winner(&self, plays: Vec<String>) -> PyResult<usize> {
        guard(|| {
            let plays: Vec<Multiset> =
                plays.iter().map(|p| self.cards("plays", p)).collect::<Result<_, _>>()?;
            trick::trick_winner(&self.tr, &plays)
        })
    }

    /// The kitty multiplier when the attackers win the last trick.
    #[pyo3(signature = (lead, winning_play = None))]
    fn kitty_multiplier(&self, lead: &str, winning_play: Option<&str>) -> PyResult<u32> {
        guard(|| {
            let l = self.cards("lead", lead)?;
            let w = winning_play.map(|w| self.cards("winning_play", w)).transpose()?;
            trick::kitty_multiplier(&self.rules, &self.tr, &l, w.as_ref())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "TrickMechanics('{}', level='{}', trump='{}')",
            self.rules.preset(),
            self.level(),
            self.trump()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTrickMechanics>()?;
    Ok(())
}
