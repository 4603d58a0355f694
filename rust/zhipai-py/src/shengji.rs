//! Python binding: Shengji declaring (shengji.md §2.2–§2.3) and scoring (§8).
//!
//! Plain tuples out; `zhipai.shengji.scoring` turns them into documented dicts.

use crate::convert;
use crate::errors::guard;
use crate::game_state::PyGameState;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::game::DealSetup;
use zhipai_core::games::shengji::chaodi::check_chaodi;
use zhipai_core::games::shengji::declare::check_declarations;
use zhipai_core::games::shengji::declare::NoDeclaration;
use zhipai_core::games::shengji::game::DealState;
use zhipai_core::games::shengji::scoring::Level;
use zhipai_core::games::shengji::session::Match;
use zhipai_core::games::shengji::state::Deal;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::record::{Origin, TrackedDeal};
use zhipai_core::{parse_cards, Card, Rank, Result, Rules, ZhipaiError};

fn shengji(rules: &PyRules) -> Result<&ShengjiRules> {
    match &rules.0 {
        Rules::Shengji(r) => Ok(r),
        other => Err(ZhipaiError::invalid_value(
            "rules",
            other.preset(),
            "expected a Shengji preset (tractor, tractor_jj, eighty_points)",
        )),
    }
}

/// The attackers' points: an integer (numpy ints too; not bool or float) with |P| ≤ 10**6.
fn points(p: &Bound<'_, PyAny>) -> PyResult<i32> {
    convert::int_in("attacker_points", p, -1_000_000, 1_000_000)
}

fn level_rank(text: &str) -> Result<Rank> {
    text.parse::<Rank>()
        .map_err(|_| ZhipaiError::invalid_value("level", text, "expected 2-10, J, Q, K, A"))
}

/// (final (player, cards) | None, trump "S|H|D|C|NT" | None, first declarer | None,
///  illegal_at | None, reason | None)
type DeclareTuple =
    (Option<(u8, String)>, Option<String>, Option<u8>, Option<usize>, Option<String>);

/// `shengji_declare(rules, level, bids)`: check a declaration sequence (see
/// `zhipai.shengji.declare`).
#[pyfunction]
pub fn shengji_declare(
    rules: &PyRules,
    level: &str,
    bids: Vec<(i64, String)>,
) -> PyResult<DeclareTuple> {
    guard(|| {
        let r = shengji(rules)?;
        let level = level_rank(level)?;
        let mut parsed: Vec<(u8, Vec<Card>)> = Vec::with_capacity(bids.len());
        for (player, cards) in &bids {
            let p = u8::try_from(*player)
                .ok()
                .filter(|p| *p < 4)
                .ok_or_else(|| ZhipaiError::invalid_value("player", player, "players are 0..=3"))?;
            parsed.push((p, parse_cards(cards)?));
        }
        let out = check_declarations(r.declare, level, &parsed)?;
        let trump = match out.winner {
            Some((_, bid)) => {
                Some(bid.trump().map_or("NT".to_string(), |s| s.letter().to_string()))
            }
            None if r.declare.no_declaration == NoDeclaration::NoTrump => Some("NT".to_string()),
            None => None,
        };
        let (illegal_at, reason) = match out.illegal {
            Some((i, e)) => (Some(i), Some(e.to_string())),
            None => (None, None),
        };
        Ok((out.winner.map(|(p, b)| (p, b.to_string())), trump, out.first, illegal_at, reason))
    })
}

/// `shengji_level_change(rules, attacker_points)` → (side, levels, take_over, jj_score | None).
#[pyfunction]
pub fn shengji_level_change(
    rules: &PyRules,
    attacker_points: &Bound<'_, PyAny>,
) -> PyResult<(&'static str, u8, bool, Option<i32>)> {
    let p = points(attacker_points)?;
    guard(|| {
        let r = shengji(rules)?;
        let c = r.scoring.level_change(p);
        Ok((c.side.name(), c.levels, c.take_over, r.scoring.jj_score(p)))
    })
}

/// `shengji_jj_score(rules, attacker_points)` → (计分 in units of 基数, 积分 = 计分 × 基数),
/// with the rules' `jj_small_score` and `base` (whether or not `jj_scoring` is on).
#[pyfunction]
pub fn shengji_jj_score(
    rules: &PyRules,
    attacker_points: &Bound<'_, PyAny>,
) -> PyResult<(i64, i64)> {
    let p = points(attacker_points)?;
    guard(|| {
        let r = shengji(rules)?;
        let s = zhipai_core::games::shengji::scoring::jj_score(p, r.scoring.jj_small_score) as i64;
        Ok((s, s * r.scoring.base))
    })
}

/// (side, levels, take_over, new_level, dealer_level, attacker_level, match_won)
type AdvanceTuple = (&'static str, u8, bool, String, String, String, bool);

/// `shengji_level_advance(rules, level, attacker_level, attacker_points, last_trick_single_jack)`.
#[pyfunction]
#[pyo3(signature = (rules, level, attacker_level, attacker_points, last_trick_single_jack=false))]
pub fn shengji_level_advance(
    rules: &PyRules,
    level: &str,
    attacker_level: &str,
    attacker_points: &Bound<'_, PyAny>,
    last_trick_single_jack: bool,
) -> PyResult<AdvanceTuple> {
    let p = points(attacker_points)?;
    guard(|| {
        let r = shengji(rules)?;
        let lv: Level = r.scoring.parse_level("level", level)?;
        let al: Level = r.scoring.parse_level("attacker_level", attacker_level)?;
        let a = r.scoring.level_advance(lv, al, p, last_trick_single_jack);
        Ok((
            a.change.side.name(),
            a.change.levels,
            a.change.take_over,
            a.new_level().to_string(),
            a.dealer_level.to_string(),
            a.attacker_level.to_string(),
            a.match_won,
        ))
    })
}

/// (final (player, cards) | None, trump "S|H|D|C|NT" | None, kitty holder, done, overcalls,
///  illegal_at | None, reason | None)
type ChaodiTuple =
    (Option<(u8, String)>, Option<String>, u8, bool, usize, Option<usize>, Option<String>);

/// `shengji_chaodi(rules, level, declaration, dealer, actions)`: check a 炒底 exchange (see
/// `zhipai.shengji.chaodi`). `declaration` is `(player, cards)` or `None`; each action is
/// `(player, "pass" | cards)`.
#[pyfunction]
pub fn shengji_chaodi(
    rules: &PyRules,
    level: &str,
    declaration: Option<(i64, String)>,
    dealer: &Bound<'_, PyAny>,
    actions: Vec<(i64, String)>,
) -> PyResult<ChaodiTuple> {
    let dealer: u8 = convert::int_in("dealer", dealer, 0, 3)?;
    guard(|| {
        let r = shengji(rules)?;
        let level = level_rank(level)?;
        let seat = |p: i64| {
            u8::try_from(p)
                .ok()
                .filter(|p| *p < 4)
                .ok_or_else(|| ZhipaiError::invalid_value("player", p, "players are 0..=3"))
        };
        let declaration = match declaration {
            Some((p, cards)) => Some((seat(p)?, parse_cards(&cards)?)),
            None => None,
        };
        let mut parsed = Vec::with_capacity(actions.len());
        for (p, what) in &actions {
            let cards = match what.trim() {
                "pass" => None,
                text => Some(parse_cards(text)?),
            };
            parsed.push((seat(*p)?, cards));
        }
        let out = check_chaodi(r.declare, level, declaration, dealer, &parsed)?;
        let trump =
            out.winner.map(|(_, b)| b.trump().map_or("NT".to_string(), |s| s.letter().to_string()));
        let (illegal_at, reason) = match out.illegal {
            Some((i, e)) => (Some(i), Some(e.to_string())),
            None => (None, None),
        };
        Ok((
            out.winner.map(|(p, b)| (p, b.to_string())),
            trump,
            out.kitty_holder,
            out.done,
            out.overcalls,
            illegal_at,
            reason,
        ))
    })
}

/// A Shengji match (`zhipai.shengji.Match` wraps it; shengji.md §1.1, §2.3, §8.5): deals in
/// sequence with every player's level, the seating and the dealer rotation.
#[pyclass(name = "ShengjiMatch", module = "zhipai._core")]
pub struct PyMatch {
    m: Match,
    seed: u64,
    /// Deals issued: deal i draws its seating and shuffle from `deal_rng(seed, i)`.
    issued: u64,
}

impl PyMatch {
    /// A match hand as the one deal state, with its setup as origin.
    fn state(&self, deal: Deal, setup: DealSetup) -> PyGameState {
        PyGameState::from_tracked(TrackedDeal::with_state(
            Rules::Shengji(self.m.rules().clone()),
            Origin::Setup(setup),
            Box::new(DealState::new(deal)),
        ))
    }
}

#[pymethods]
impl PyMatch {
    /// `ShengjiMatch(rules, seed=0)`: everybody at level 2; all chance (seating, shuffles) from
    /// `seed` (deal i from stream i).
    #[new]
    #[pyo3(signature = (rules, seed=None))]
    fn new(rules: &PyRules, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = convert::opt_int_in("seed", seed, 0, u64::MAX as i128)?.unwrap_or(0);
        guard(|| {
            let r = shengji(rules)?;
            Ok(PyMatch { m: Match::new(r), seed, issued: 0 })
        })
    }

    /// The next deal (redraws the seating under `random_partners_each_hand`), a
    /// `zhipai.GameState` whose record replays it on its own.
    fn next_deal(&mut self) -> PyResult<PyGameState> {
        let (deal, setup) = guard(|| self.m.next_deal_setup(self.seed, self.issued))?;
        self.issued += 1;
        Ok(self.state(deal, setup))
    }

    /// Apply a finished deal of this match: only the deal the last `next_deal` returned, once
    /// (`IllegalPlayError` "deal already recorded" / "not the match's current deal").
    fn record(&mut self, deal: PyRef<'_, PyGameState>) -> PyResult<()> {
        let state = deal.tracked().state.as_any().downcast_ref::<DealState>();
        guard(|| match state {
            Some(s) => self.m.record(s.deal()),
            None => Err(ZhipaiError::illegal_play("record", "not the match's current deal")),
        })
    }

    /// Deal, play to the end with `policy` ("random" or "greedy") and record; returns the deal.
    #[pyo3(signature = (policy=None))]
    fn play_hand(&mut self, policy: Option<&Bound<'_, PyAny>>) -> PyResult<PyGameState> {
        let policy = match policy {
            Some(p) if !p.is_none() => crate::game_state::policy_arg(p)?,
            _ => Policy::Random,
        };
        let (mut deal, setup) = guard(|| self.m.next_deal_setup(self.seed, self.issued))?;
        self.issued += 1;
        guard(|| {
            deal.play_out(policy)?;
            self.m.record(&deal)
        })?;
        Ok(self.state(deal, setup))
    }

    /// Each player's level ("2".."A", or "NT" for the joker-only level).
    #[getter]
    fn levels(&self) -> Vec<String> {
        self.m.levels.iter().map(|l| l.to_string()).collect()
    }

    /// Seat -> player of the last hand dealt.
    #[getter]
    fn seating(&self) -> [u8; 4] {
        self.m.seating
    }

    /// The player who deals next (`None` before hand 1).
    #[getter]
    fn dealer(&self) -> Option<u8> {
        self.m.dealer
    }

    #[getter]
    fn hands(&self) -> u32 {
        self.m.hands
    }

    /// Each player's JJ 积分 so far (all 0 unless `jj_scoring` is on).
    #[getter]
    fn jj_totals(&self) -> [i64; 4] {
        self.m.jj_totals
    }

    /// The two players who won, once the match is over.
    #[getter]
    fn winners(&self) -> Option<[u8; 2]> {
        self.m.winners
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMatch>()?;
    m.add_function(wrap_pyfunction!(shengji_declare, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_chaodi, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_change, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_jj_score, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_advance, m)?)?;
    Ok(())
}
