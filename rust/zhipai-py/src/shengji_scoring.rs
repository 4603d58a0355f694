//! Python binding: Shengji declaring (shengji.md §2.2–§2.3) and scoring (§8).
//!
//! Plain tuples out; `zhipai.shengji.scoring` turns them into documented dicts.

use crate::convert;
use crate::errors::guard;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::games::shengji::declare::check_declarations;
use zhipai_core::games::shengji::declare::Bid;
use zhipai_core::games::shengji::declare::NoDeclaration;
use zhipai_core::games::shengji::scoring::Level;
use zhipai_core::games::shengji::scoring::Side;
use zhipai_core::games::shengji::state::{Deal, Move, Phase};
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::{parse_cards, Card, Multiset, Rank, Result, Rules, ZhipaiError};

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

/// One Shengji deal as a state machine (`zhipai.shengji.Deal` wraps it; shengji.md §1–§8).
#[pyclass(name = "ShengjiDeal", module = "zhipai")]
#[derive(Clone)]
pub struct PyDeal(pub(crate) Deal);

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Dealing => "dealing",
        Phase::Burying => "burying",
        Phase::Playing => "playing",
        Phase::Done => "done",
    }
}

#[pymethods]
impl PyDeal {
    /// `ShengjiDeal(rules, level="2", dealer=None, seed=0)`: shuffle and deal up to the first
    /// decision. `dealer=None` is hand 1 (the declaration decides the dealer).
    #[new]
    #[pyo3(signature = (rules, level="2", dealer=None, seed=None))]
    fn new(
        rules: &PyRules,
        level: &str,
        dealer: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let dealer: Option<u8> = convert::opt_int_in("dealer", dealer, 0, 3)?;
        let seed = convert::opt_int_in("seed", seed, 0, u64::MAX as i128)?.unwrap_or(0);
        guard(|| {
            let r = shengji(rules)?;
            let level = level_rank(level)?;
            let mut rng = zhipai_core::rollout::deal_rng(seed, 0);
            Ok(PyDeal(Deal::new(r, level, dealer, &mut rng)?))
        })
    }

    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.0.phase())
    }

    fn current_player(&self) -> Option<u8> {
        self.0.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    /// Zero-sum level returns per seat once over, else `None`.
    fn returns(&self) -> Option<[f64; 4]> {
        self.0.returns()
    }

    fn hand(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let player: u8 = convert::int_in("player", player, 0, 3)?;
        Ok(self.0.hand(player).to_string())
    }

    #[getter]
    fn dealer(&self) -> Option<u8> {
        self.0.dealer()
    }

    /// Trump letter or "NT" after dealing, `None` while dealing.
    #[getter]
    fn trump(&self) -> Option<String> {
        self.0.trump().map(|t| t.map_or("NT".to_string(), |s| s.letter().to_string()))
    }

    fn current_trick(&self) -> Vec<String> {
        self.0.current_trick().iter().map(|m| m.to_string()).collect()
    }

    /// Legal card-by-card actions (0..54 card kinds, 54 = stop/pass).
    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_actions()
    }

    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action: usize = convert::int_in("action", action, 0, u16::MAX as i128)?;
        guard(|| self.0.apply_action(action))
    }

    /// Legal bids of the player to move (dealing phase).
    fn legal_bids(&self) -> Vec<String> {
        self.0.legal_bids().iter().map(|b| b.to_string()).collect()
    }

    /// Structured move: `kind` is "pass", "declare", "bury" or "play"; `cards` in notation.
    #[pyo3(signature = (kind, cards=""))]
    fn apply(&mut self, kind: &str, cards: &str) -> PyResult<()> {
        guard(|| {
            let ms: Multiset = cards.parse()?;
            let mv = match kind {
                "pass" => Move::Pass,
                "declare" => {
                    let level = self.0.declaring().level();
                    let decks = self.0.rules().decks;
                    Move::Declare(Bid::from_cards(&parse_cards(cards)?, level, decks)?)
                }
                "bury" => Move::Bury(ms),
                "play" => Move::Play(ms),
                other => {
                    return Err(ZhipaiError::invalid_value(
                        "move kind",
                        other,
                        "expected pass, declare, bury or play",
                    ))
                }
            };
            self.0.apply(mv)
        })
    }

    /// The random policy's move for the player to move, as (kind, cards), without applying it.
    fn random_move(&mut self) -> PyResult<(&'static str, String)> {
        guard(|| {
            Ok(match self.0.random_move()? {
                Move::Pass => ("pass", String::new()),
                Move::Declare(b) => ("declare", b.to_string()),
                Move::Bury(m) => ("bury", m.to_string()),
                Move::Play(m) => ("play", m.to_string()),
            })
        })
    }

    /// Play to the end with the random policy.
    fn play_out(&mut self) -> PyResult<()> {
        guard(|| self.0.play_out(Policy::Random).map(|_| ()))
    }

    /// The result once over: a dict-ready list of (name, value).
    fn result(&self) -> Option<Vec<(&'static str, i64)>> {
        self.0.result().map(|r| {
            vec![
                ("dealer", r.dealer as i64),
                ("trump", r.trump.map_or(4, |s| s.index() as i64)),
                ("attacker_points", r.attacker_points as i64),
                ("trick_points", r.trick_points as i64),
                ("dealer_team_points", r.dealer_team_points as i64),
                ("kitty_points", r.kitty_points as i64),
                ("kitty_multiplier", r.kitty_multiplier as i64),
                ("penalty", r.penalty as i64),
                ("side_attackers", (r.change.side == Side::Attackers) as i64),
                ("levels", r.change.levels as i64),
                ("take_over", r.change.take_over as i64),
                ("tricks", r.tricks as i64),
                ("failed_throws", r.failed_throws as i64),
                ("declarations", r.declarations as i64),
            ]
        })
    }

    fn clone(&self) -> Self {
        PyDeal(self.0.clone())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_function(wrap_pyfunction!(shengji_declare, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_change, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_jj_score, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_advance, m)?)?;
    Ok(())
}
