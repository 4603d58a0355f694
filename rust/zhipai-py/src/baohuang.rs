//! Python binding: Qingdao Baohuang mechanics and the deal state (`zhipai.baohuang` wraps these).
//!
//! Card lists are strings in the notation of shared/cases/FORMAT.md; every rule lives in
//! `zhipai_core::games::baohuang`.

use crate::convert;
use crate::errors::{guard, to_py};
use crate::rules::PyRules;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use zhipai_core::deal::deal_rng;
use zhipai_core::games::baohuang::{self as bh, moves, BaohuangRules, Mode, RoundAction};
use zhipai_core::{Card, Multiset, Result, Rules, ZhipaiError};

fn bh_rules(rules: Option<&PyRules>) -> Result<BaohuangRules> {
    match rules.map(|r| &r.0) {
        None => Ok(BaohuangRules::default()),
        Some(Rules::Baohuang(b)) => Ok(b.clone()),
        Some(other) => Err(ZhipaiError::invalid_option(
            "rules",
            other.preset(),
            "these functions need the rules of preset baohuang",
        )),
    }
}

fn ms(text: &str) -> Result<Multiset> {
    text.parse()
}

// ----- arguments: every bad type or range is an InvalidValueError naming the value -----------

/// `InvalidValueError` "invalid {name} {repr}: {expected}".
fn bad(name: &str, obj: &Bound<'_, PyAny>, expected: &str) -> PyErr {
    let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    to_py(ZhipaiError::invalid_value(name, shown, expected))
}

/// A `str` argument (card lists, actions, modes).
fn text(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if obj.is_instance_of::<PyString>() {
        return obj.extract::<String>();
    }
    Err(bad(name, obj, "expected a string"))
}

/// An optional `str` argument (`None` allowed).
fn opt_text(name: &str, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    obj.filter(|o| !o.is_none()).map(|o| text(name, o)).transpose()
}

/// An integer argument as `i64` (the shared rules of `convert`: ints and numpy integers, no bool
/// or float), reported with this call's own `expected` wording.
fn int(name: &str, obj: &Bound<'_, PyAny>, expected: &str) -> PyResult<i64> {
    convert::int_in(name, obj, i64::MIN.into(), i64::MAX.into())
        .map_err(|_| bad(name, obj, expected))
}

/// A seat 0 to 4.
fn seat(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    convert::int_in(name, obj, 0, 4)
}

/// A seed or deal index: an int from 0 to 2**64 - 1.
fn seed(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    convert::int_in(name, obj, 0, u64::MAX.into())
}

/// A `bool` argument (ints and other truthy values refused).
fn flag(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() {
        return obj.extract::<bool>();
    }
    Err(bad(name, obj, "expected True or False"))
}

/// `rules=`: `None` (defaults) or a `zhipai.Rules` (of preset baohuang, checked by `bh_rules`).
fn rules_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<PyRules>> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(None),
        Some(o) => o
            .extract::<PyRules>()
            .map(Some)
            .map_err(|_| bad("rules", o, "expected zhipai.rules(\"baohuang\", ...) or None")),
    }
}

/// The items of an iterable argument.
fn items<'py>(name: &str, obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(bad(name, obj, "expected a list"));
    }
    let it = obj.try_iter().map_err(|_| bad(name, obj, "expected a list"))?;
    it.collect()
}

/// The play to beat, as cards or as the suitless text `State.play_to_beat` gives (`"BJ 9 9"`);
/// empty or None = a lead.
fn prev_shape(previous: Option<&str>, r: &BaohuangRules) -> Result<Option<moves::Shape>> {
    previous.filter(|p| !p.trim().is_empty()).map(|p| shape_arg(p, r)).transpose()
}

/// A play as cards or written without suits; `G` (a guard card above BJ) only with
/// `guard_card_rank = above_big_joker` (§C.2).
fn shape_arg(text: &str, r: &BaohuangRules) -> Result<moves::Shape> {
    let shape: moves::Shape = text.parse()?;
    if shape.guard > 0 && r.guard_card_rank != bh::options::GuardCardRank::AboveBigJoker {
        return Err(ZhipaiError::illegal_play(
            text,
            "G is a guard card above BJ, which needs guard_card_rank=above_big_joker (§C.2)",
        ));
    }
    Ok(shape)
}

/// `(ok, reason)`: whether `cards` (with or without suits) form one well-formed play (§C.4).
#[pyfunction]
fn baohuang_play_error(cards: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let cards = text("cards", cards)?;
    guard(|| match cards.parse::<moves::Shape>() {
        Ok(_) => Ok(None),
        Err(ZhipaiError::IllegalPlay { reason, .. }) => Ok(Some(reason)),
        Err(e) => Err(e),
    })
}

/// Whether `play` beats `previous` (§C.5), each as cards or suitless (`"BJ 9 9"`). Raises
/// IllegalPlayError for a malformed play.
#[pyfunction]
#[pyo3(signature = (play, previous, rules=None))]
fn baohuang_beats(
    play: &Bound<'_, PyAny>,
    previous: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let (play, previous) = (text("play", play)?, text("previous", previous)?);
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let (a, b) = (shape_arg(&play, &r)?, shape_arg(&previous, &r)?);
        Ok(bh::beats(&a, &b, r.bombs))
    })
}

/// `[(card, "guard" | "solo")]`: the cards the scepter holder may ascend with (§C.3.1).
#[pyfunction]
#[pyo3(signature = (hand, rules=None, scepter_in_hand=None))]
fn baohuang_ascension_options(
    hand: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    scepter_in_hand: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, String)>> {
    let hand = text("hand", hand)?;
    let rules = rules_arg(rules)?;
    let scepter_in_hand = scepter_in_hand.map_or(Ok(true), |f| flag("scepter_in_hand", f))?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let h = ms(&hand)?;
        if scepter_in_hand && !h.contains(Card::BIG_JOKER) {
            return Err(ZhipaiError::invalid_value(
                "hand",
                hand,
                "the scepter holder's hand must contain a BJ (the scepter)",
            ));
        }
        Ok(bh::ascension_options(&h, scepter_in_hand, &r)
            .into_iter()
            .map(|(c, a)| (c.to_string(), a.name().to_string()))
            .collect())
    })
}

/// Who opens the next round after `actions` (§C.6, §C.7).
#[pyfunction]
#[pyo3(signature = (actions, out=None, rules=None))]
fn baohuang_next_leader(
    actions: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<u8> {
    let mut parsed: Vec<(u8, String)> = Vec::new();
    for item in items("actions", actions)? {
        let pair = items("action", &item).ok().filter(|p| p.len() == 2);
        let pair = pair.ok_or_else(|| bad("action", &item, "expected a (seat, action) pair"))?;
        parsed.push((seat("action seat", &pair[0])?, text("action", &pair[1])?));
    }
    let actions = parsed;
    let out = match out.filter(|o| !o.is_none()) {
        None => Vec::new(),
        Some(o) => items("out", o)?.iter().map(|s| seat("out seat", s)).collect::<PyResult<_>>()?,
    };
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let acts = actions
            .iter()
            .map(|(seat, a)| {
                let action = match a.trim() {
                    "pass" => RoundAction::Pass,
                    "yield" => RoundAction::Yield,
                    "jiefeng" => RoundAction::Jiefeng,
                    cards => RoundAction::Play(ms(cards)?),
                };
                Ok((*seat, action))
            })
            .collect::<Result<Vec<_>>>()?;
        bh::round_next_leader(&r, &acts, &out)
    })
}

/// `(emperor, guard or None, each rebel)` for a mode and finishing places (§C.9, §C.10).
#[pyfunction]
#[pyo3(signature = (mode, emperor_place, guard_place=None, rules=None))]
fn baohuang_score(
    mode: &Bound<'_, PyAny>,
    emperor_place: &Bound<'_, PyAny>,
    guard_place: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<(i32, Option<i32>, i32)> {
    let mode = text("mode", mode)?;
    let emperor_place = int("emperor_place", emperor_place, "expected a place 1..=5")?;
    let guard_place = guard_place
        .filter(|g| !g.is_none())
        .map(|g| int("guard_place", g, "expected a place 1..=5"))
        .transpose()?;
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let place = |what: &str, p: i64| {
            u8::try_from(p).map_err(|_| ZhipaiError::invalid_value(what, p, "expected 1..=5"))
        };
        let e = place("emperor_place", emperor_place)?;
        let g = guard_place.map(|g| place("guard_place", g)).transpose()?;
        let s = bh::score(&r, Mode::parse(&mode)?, e, g)?;
        Ok((s.emperor, s.guard, s.rebel))
    })
}

fn shape_cards(hand: &Multiset, shape: &moves::Shape) -> String {
    moves::cards_for(hand, shape, None, None).map(|m| m.to_string()).unwrap_or_default()
}

/// Every legal play of `hand` after `previous` (None = a lead), at most `limit`, as card lists
/// with suits taken from the hand in S, H, D, C order.
#[pyfunction]
#[pyo3(signature = (hand, previous=None, rules=None, limit=None))]
fn baohuang_legal_plays(
    hand: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let (hand, previous) = (text("hand", hand)?, opt_text("previous", previous)?);
    let rules = rules_arg(rules)?;
    let limit = match limit.filter(|l| !l.is_none()) {
        None => None,
        Some(l) => {
            let n = int("limit", l, "expected an int >= 0 or None").or_else(|e| {
                // An int too large for i64 is as good as no limit.
                if l.is_instance_of::<PyInt>() && l.gt(0)? {
                    Ok(i64::MAX)
                } else {
                    Err(e)
                }
            })?;
            Some(usize::try_from(n).map_err(|_| bad("limit", l, "expected an int >= 0 or None"))?)
        }
    };
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let h = ms(&hand)?;
        let p = prev_shape(previous.as_deref(), &r)?;
        let counts = moves::HandCounts::of(&h, None);
        Ok(moves::enumerate(&counts, p.as_ref(), r.bombs, limit.unwrap_or(usize::MAX))
            .iter()
            .map(|s| shape_cards(&h, s))
            .collect())
    })
}

/// Number of legal plays of `hand` after `previous`.
#[pyfunction]
#[pyo3(signature = (hand, previous=None, rules=None))]
fn baohuang_count_plays(
    hand: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<u32> {
    let (hand, previous) = (text("hand", hand)?, opt_text("previous", previous)?);
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let p = prev_shape(previous.as_deref(), &r)?;
        Ok(moves::count(&moves::HandCounts::of(&ms(&hand)?, None), p.as_ref(), r.bombs))
    })
}

/// One legal play drawn uniformly with a generator seeded by `seed`; None if there is none.
#[pyfunction]
#[pyo3(signature = (hand, previous, seed, rules=None))]
fn baohuang_sample_play(
    hand: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let (hand, previous) = (text("hand", hand)?, opt_text("previous", previous)?);
    let seed = match seed {
        Some(s) => self::seed("seed", s)?,
        None => {
            return Err(to_py(ZhipaiError::invalid_value(
                "seed",
                "None",
                "expected an int in 0..2**64",
            )))
        }
    };
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let h = ms(&hand)?;
        let p = prev_shape(previous.as_deref(), &r)?;
        let counts = moves::HandCounts::of(&h, None);
        let mut rng = deal_rng(seed, 0);
        Ok(moves::sample(&counts, p.as_ref(), r.bombs, &mut rng).map(|s| shape_cards(&h, &s)))
    })
}

/// Why `play` may not be played from `hand` after `previous`, or None when it is legal.
#[pyfunction]
#[pyo3(signature = (hand, play, previous=None, rules=None))]
fn baohuang_play_reason(
    hand: &Bound<'_, PyAny>,
    play: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let (hand, play) = (text("hand", hand)?, text("play", play)?);
    let previous = opt_text("previous", previous)?;
    let rules = rules_arg(rules)?;
    guard(|| {
        let r = bh_rules(rules.as_ref())?;
        let h = ms(&hand)?;
        let cards = ms(&play)?;
        if !h.contains_all(&cards) {
            return Ok(Some(format!("not held: {}", h.shortfall(&cards))));
        }
        let shape = match moves::shape_of(&cards, None) {
            Ok(s) => s,
            Err(why) => return Ok(Some(why)),
        };
        let p = prev_shape(previous.as_deref(), &r)?;
        Ok(moves::check(&moves::HandCounts::of(&h, None), &shape, p.as_ref(), r.bombs).err())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(baohuang_play_error, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_beats, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_ascension_options, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_next_leader, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_score, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_count_plays, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_sample_play, m)?)?;
    m.add_function(wrap_pyfunction!(baohuang_play_reason, m)?)?;
    Ok(())
}
