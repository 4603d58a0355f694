//! Python binding: Shengji declaring (shengji.md §2.2–§2.3) and scoring (§8).
//!
//! Plain tuples out; `zhipai.shengji.scoring` turns them into documented dicts.

use crate::errors::guard;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::games::shengji::declare::check_declarations;
use zhipai_core::games::shengji::declare::NoDeclaration;
use zhipai_core::games::shengji::scoring::Level;
use zhipai_core::games::shengji::ShengjiRules;
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

fn points(p: i64) -> Result<i32> {
    i32::try_from(p)
        .ok()
        .filter(|p| p.abs() <= 1_000_000)
        .ok_or_else(|| ZhipaiError::invalid_value("attacker_points", p, "expected |P| ≤ 1000000"))
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
    attacker_points: i64,
) -> PyResult<(&'static str, u8, bool, Option<i32>)> {
    guard(|| {
        let r = shengji(rules)?;
        let p = points(attacker_points)?;
        let c = r.scoring.level_change(p);
        Ok((c.side.name(), c.levels, c.take_over, r.scoring.jj_score(p)))
    })
}

/// `shengji_jj_score(rules, attacker_points)` → (计分 in units of 基数, 积分 = 计分 × 基数),
/// with the rules' `jj_small_score` and `base` (whether or not `jj_scoring` is on).
#[pyfunction]
pub fn shengji_jj_score(rules: &PyRules, attacker_points: i64) -> PyResult<(i64, i64)> {
    guard(|| {
        let r = shengji(rules)?;
        let s = zhipai_core::games::shengji::scoring::jj_score(
            points(attacker_points)?,
            r.scoring.jj_small_score,
        ) as i64;
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
    attacker_points: i64,
    last_trick_single_jack: bool,
) -> PyResult<AdvanceTuple> {
    guard(|| {
        let r = shengji(rules)?;
        let lv: Level = r.scoring.parse_level("level", level)?;
        let al: Level = r.scoring.parse_level("attacker_level", attacker_level)?;
        let a = r.scoring.level_advance(lv, al, points(attacker_points)?, last_trick_single_jack);
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shengji_declare, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_change, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_jj_score, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_advance, m)?)?;
    Ok(())
}
