//! Python binding of Gongzhu (zhipai-core `games::gongzhu`): scoring, legality, trick winner,
//! a playable deal state and matches. Conversions and error mapping only; the rules live in
//! the core.

use crate::errors::guard;
use crate::rules::PyRules;
use pyo3::prelude::*;
use zhipai_core::games::gongzhu::{
    self, check_play, legal_plays, scoring, trick_winner, GongzhuRules, Play, Position,
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gongzhu_score, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_check_play, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(gongzhu_match, m)?)?;
    Ok(())
}
