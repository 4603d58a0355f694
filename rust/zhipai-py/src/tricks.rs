//! `TrickMechanics`: the trick machinery of the Shengji family (and, later, Hong Wu) for one
//! deal's level and trump. Thin: parsing, error mapping; every rule is in `zhipai_core::tricks`.

use crate::convert;
use crate::errors::guard;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::games::shengji::options::throw_penalty;
use zhipai_core::tricks::combos::{decompose, Format};
use zhipai_core::tricks::{self, FollowMoves, TrickRules};
use zhipai_core::{Multiset, Rank, Rules, Suit, ZhipaiError};

/// Players at a Shengji-family table (shengji.md §1.1; Hong Wu too): a trick has 4 plays.
const NUM_PLAYERS: usize = 4;

/// Trick mechanics of one deal: `TrickMechanics(rules, level, trump)`; see
/// `zhipai.shengji.Mechanics` for the documented Python API.
#[pyclass(name = "TrickMechanics", module = "zhipai._core", frozen)]
pub struct PyTrickMechanics {
    rules: Rules,
    tr: TrickRules,
    /// `None`: the joker-only level after A (Shengji `after_A = no_trump_level`).
    level: Option<Rank>,
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
    /// A refused lead in the words of the game's digest (Hong Wu cites hongwu.md §B.6–§B.7).
    fn lead_reason(&self, e: &tricks::LeadError) -> String {
        match self.rules {
            Rules::HongWu(_) => zhipai_core::games::hongwu::lead_error_reason(e),
            _ => e.to_string(),
        }
    }

    /// A refused follow in the words of the game's digest (Hong Wu cites hongwu.md §B.8).
    fn follow_reason(&self, e: &tricks::FollowError) -> String {
        match self.rules {
            Rules::HongWu(_) => zhipai_core::games::hongwu::follow_error_reason(e),
            _ => e.to_string(),
        }
    }

    /// Parse a card list, checking the number of copies against the decks.
    fn cards(&self, what: &str, text: &str) -> Result<Multiset, ZhipaiError> {
        let m = Multiset::from_cards(&zhipai_core::parse_cards(text)?)
            .map_err(|_| ZhipaiError::invalid_value(what, text, "more than 4 copies of a card"))?;
        self.tr.check_copies(what, &m)?;
        Ok(m)
    }

    /// A card-list argument (a string in notation), parsed and checked against the decks.
    fn arg(&self, what: &str, value: &Bound<'_, PyAny>) -> PyResult<Multiset> {
        let text = convert::text(what, value, "a string of cards such as 'AS AS KH'")?;
        guard(|| self.cards(what, &text))
    }

    /// A list-of-card-lists argument (plays of a trick, other hands): exactly `count` lists
    /// (the players of a trick) when given, each parsed and checked.
    fn args(
        &self,
        what: &str,
        value: &Bound<'_, PyAny>,
        count: Option<usize>,
    ) -> PyResult<Vec<Multiset>> {
        let texts = convert::text_list(what, value, "card lists such as 'AS AS'")?;
        if let Some(n) = count.filter(|&n| n != texts.len()) {
            return Err(convert::invalid(
                what,
                value,
                format!("expected {n} card lists (4 players), got {}", texts.len()),
            ));
        }
        guard(|| texts.iter().map(|t| self.cards(what, t)).collect())
    }

    /// Card lists held by different players (disjoint physical cards of one deal) may together
    /// hold each card at most `decks` times; else `InvalidValue` naming the card and its count.
    fn check_total(&self, what: &str, lists: &[&Multiset]) -> Result<(), ZhipaiError> {
        let mut total = [0u32; zhipai_core::NUM_KINDS];
        for m in lists {
            for (t, c) in total.iter_mut().zip(m.counts()) {
                *t += u32::from(c);
            }
        }
        let decks = u32::from(self.tr.decks);
        if let Some((k, &n)) = total.iter().enumerate().find(|(_, &n)| n > decks) {
            let card = zhipai_core::Card::from_index(k).expect("kind index");
            let all: Vec<String> = lists.iter().map(|m| format!("'{m}'")).collect();
            return Err(ZhipaiError::invalid_value(
                what,
                format!("[{}]", all.join(", ")),
                format!("{card} appears {n} times in all, but {decks} decks hold only {decks}"),
            ));
        }
        Ok(())
    }

    /// The format of a lead as played (one effective suit, non-empty).
    fn format(&self, what: &str, m: &Multiset) -> Result<Format, ZhipaiError> {
        decompose(m, &self.tr.order, self.tr.throw_decomposition).ok_or_else(|| {
            ZhipaiError::invalid_value(what, m, "expected a non-empty lead of one effective suit")
        })
    }

    /// The follows of `hand` to `lead` (lead and hand together within the decks' copies).
    fn with_moves<T>(
        &self,
        lead: &Bound<'_, PyAny>,
        hand: &Bound<'_, PyAny>,
        f: impl FnOnce(&FollowMoves<'_>) -> Result<T, ZhipaiError>,
    ) -> PyResult<T> {
        let lead_m = self.arg("lead", lead)?;
        let hand = self.arg("hand", hand)?;
        guard(|| {
            self.check_total("lead and hand", &[&lead_m, &hand])?;
            let format = self.format("lead", &lead_m)?;
            let moves = FollowMoves::new(&self.tr, &format, &hand)?;
            f(&moves)
        })
    }
}

#[pymethods]
impl PyTrickMechanics {
    #[new]
    #[pyo3(signature = (rules, level = "2", trump = "NT"))]
    fn new(rules: PyRules, level: &str, trump: &str) -> PyResult<Self> {
        guard(|| {
            let tp = parse_trump(trump)?;
            if let Rules::Shengji(r) = &rules.0 {
                // "NT" = the joker-only level, which exists only under after_A=no_trump_level.
                let lv = r.scoring.parse_level("level", level)?.rank();
                let tr = r.play.trick_rules_at(r.decks, lv, tp);
                return Ok(PyTrickMechanics { rules: rules.0, tr, level: lv, trump: tp });
            }
            let lv: Rank = level.parse()?;
            let tr = rules.0.trick_rules(lv, tp)?;
            Ok(PyTrickMechanics { rules: rules.0, tr, level: Some(lv), trump: tp })
        })
    }

    #[getter]
    fn level(&self) -> &'static str {
        self.level.map_or("NT", |r| r.symbol())
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
    fn classify(&self, cards: &Bound<'_, PyAny>) -> PyResult<(String, Vec<String>)> {
        let m = self.arg("cards", cards)?;
        Ok(match decompose(&m, &self.tr.order, self.tr.throw_decomposition) {
            None => ("invalid".to_string(), Vec::new()),
            Some(f) => {
                (f.kind().name().to_string(), f.units.iter().map(|u| u.to_string()).collect())
            }
        })
    }

    /// `None` when the lead is structurally legal, else the reason.
    #[pyo3(signature = (cards, hand = None))]
    fn check_lead(
        &self,
        cards: &Bound<'_, PyAny>,
        hand: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        let m = self.arg("cards", cards)?;
        let h = hand.filter(|h| !h.is_none()).map(|h| self.arg("hand", h)).transpose()?;
        Ok(tricks::check_lead(&self.tr, &m, h.as_ref()).err().map(|e| self.lead_reason(&e)))
    }

    /// `(valid, played, beaten_cards)` for a throw checked against the 3 other hands.
    fn check_throw(
        &self,
        cards: &Bound<'_, PyAny>,
        others: &Bound<'_, PyAny>,
    ) -> PyResult<(bool, String, usize)> {
        let m = self.arg("cards", cards)?;
        let others = self.args("others", others, Some(NUM_PLAYERS - 1))?;
        guard(|| {
            let all: Vec<&Multiset> = std::iter::once(&m).chain(others.iter()).collect();
            self.check_total("cards and others", &all)?;
            let format = tricks::check_lead(&self.tr, &m, None)
                .map_err(|e| ZhipaiError::illegal_play(m, e))?;
            let r = tricks::check_throw(&self.tr, &format, &others);
            Ok((r.valid, r.played.to_string(), r.beaten_cards))
        })
    }

    /// The points a failed throw of `cards` against `others` costs under the rules'
    /// `throw_fail_penalty` (shengji.md §4.5; 0 for a valid throw). Shengji presets only.
    fn throw_penalty(&self, cards: &Bound<'_, PyAny>, others: &Bound<'_, PyAny>) -> PyResult<i32> {
        let m = self.arg("cards", cards)?;
        let others = self.args("others", others, Some(NUM_PLAYERS - 1))?;
        guard(|| {
            let Rules::Shengji(r) = &self.rules else {
                return Err(ZhipaiError::invalid_value(
                    "rules",
                    self.rules.preset(),
                    "throw_fail_penalty is a Shengji option",
                ));
            };
            let all: Vec<&Multiset> = std::iter::once(&m).chain(others.iter()).collect();
            self.check_total("cards and others", &all)?;
            let format = tricks::check_lead(&self.tr, &m, None)
                .map_err(|e| ZhipaiError::illegal_play(m, e))?;
            Ok(throw_penalty(r.play.throw_fail_penalty, &self.tr, &format, &others))
        })
    }

    /// `None` when `play` legally follows `lead` from `hand`, else the reason.
    fn check_follow(
        &self,
        lead: &Bound<'_, PyAny>,
        hand: &Bound<'_, PyAny>,
        play: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let p = self.arg("play", play)?;
        self.with_moves(lead, hand, |moves| {
            Ok(moves.check(&p).err().map(|e| self.follow_reason(&e)))
        })
    }

    /// Every legal follow (up to `limit`, an integer ≥ 0), in a deterministic order.
    #[pyo3(signature = (lead, hand, limit = None))]
    fn follows(
        &self,
        lead: &Bound<'_, PyAny>,
        hand: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let limit: Option<usize> = convert::opt_int_in("limit", limit, 0, u32::MAX as i128)?;
        self.with_moves(lead, hand, |moves| {
            Ok(moves.enumerate(limit.unwrap_or(usize::MAX)).iter().map(|m| m.to_string()).collect())
        })
    }

    /// Number of legal follows (distinct card multisets).
    fn count_follows(&self, lead: &Bound<'_, PyAny>, hand: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.with_moves(lead, hand, |moves| Ok(moves.count()))
    }

    /// One legal follow drawn uniformly, reproducible from `seed` (0 to 2**64 - 1).
    fn sample_follow(
        &self,
        lead: &Bound<'_, PyAny>,
        hand: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let seed = convert::seed(seed)?;
        self.with_moves(lead, hand, |moves| {
            let mut rng = zhipai_core::deal::deal_rng(seed, 0);
            Ok(moves.sample(&mut rng).to_string())
        })
    }

    /// Index of the winning play among the 4 plays (index 0 = the lead as played).
    fn winner(&self, plays: &Bound<'_, PyAny>) -> PyResult<usize> {
        let plays = self.args("plays", plays, Some(NUM_PLAYERS))?;
        guard(|| {
            self.check_total("plays", &plays.iter().collect::<Vec<_>>())?;
            tricks::trick_winner(&self.tr, &plays)
        })
    }

    /// The kitty multiplier when the attackers win the last trick.
    #[pyo3(signature = (lead, winning_play = None))]
    fn kitty_multiplier(
        &self,
        lead: &Bound<'_, PyAny>,
        winning_play: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u32> {
        let l = self.arg("lead", lead)?;
        let w = winning_play
            .filter(|w| !w.is_none())
            .map(|w| self.arg("winning_play", w))
            .transpose()?;
        // No copy check across the two: the winning play may be the lead itself.
        guard(|| self.rules.kitty_multiplier(&self.tr, &l, w.as_ref()))
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
