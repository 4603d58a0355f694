//! Python binding: Qingdao Baohuang mechanics and the deal state (`zhipai.baohuang` wraps these).
//!
//! Card lists are strings in the notation of shared/cases/FORMAT.md; every rule lives in
//! `zhipai_core::games::baohuang`.

use crate::convert;
use crate::errors::{guard, to_py};
use crate::rules::PyRules;
use crate::simulate::{
    builtin_policy_arg, clean_return, finished_row, move_arg, move_error, seed_index, History, Step,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use zhipai_core::deal::deal_rng;
use zhipai_core::games::baohuang::{
    self as bh, moves, BaohuangRules, Mode, Move, Phase, RoundAction, State,
};
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

/// A Baohuang deal in progress (OpenSpiel-style verbs). Build with `new_deal` or `from_hands`.
#[pyclass(name = "BaohuangState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyState(State);

impl PyState {
    fn action_text(&self, m: &Move) -> String {
        match m {
            Move::Play(s) => self.0.cards_of(s).map(|c| c.to_string()).unwrap_or_default(),
            other => other.to_string(),
        }
    }

    /// A move word in any letter case (`"Pass"`, `"ASCEND 9C"`), `None` when the text is not
    /// one (then it is read as cards).
    fn parse_decision(&self, text: &str) -> Result<Option<Move>> {
        let text = text.trim();
        let t = text.to_ascii_lowercase();
        Ok(Some(match t.as_str() {
            "abdicate" => Move::Abdicate,
            "grab" => Move::Grab,
            "decline" => Move::Decline,
            "open_guard" => Move::OpenGuard,
            "secret_guard" => Move::SecretGuard,
            "open_solo" => Move::OpenSolo,
            "secret_solo" => Move::SecretSolo,
            "pass" => Move::Pass,
            "yield" => Move::Yield,
            "jiefeng" => Move::Jiefeng,
            // The card from the text as given, so an error quotes it unchanged.
            _ if t.starts_with("ascend ") => Move::Ascend(text["ascend ".len()..].parse()?),
            _ => return Ok(None),
        }))
    }
}

/// A previous deal's places: 5 ints, `[seat]` = place 1..=5 (the permutation is checked by the
/// core).
fn places_arg(previous_places: &Bound<'_, PyAny>) -> PyResult<[u8; 5]> {
    let expected = "expected the 5 places 1..=5 of the previous deal, one per seat";
    let list = items("previous_places", previous_places)?;
    let mut places = [0u8; 5];
    if list.len() != 5 {
        return Err(bad("previous_places", previous_places, expected));
    }
    for (p, item) in places.iter_mut().zip(&list) {
        let v = int("previous_places", item, expected)?;
        *p = u8::try_from(v).map_err(|_| bad("previous_places", previous_places, expected))?;
    }
    Ok(places)
}

#[pymethods]
impl PyState {
    /// Deal `index` of a run seeded with `seed` (reproducible) and start the accession. `seed`
    /// and `index` are ints in 0..2**64 (None = 0); anything else is an InvalidValueError.
    /// With `tribute_between_deals=on` the deal opens with 进贡 from `previous_places` (5 ints,
    /// the place 1..=5 each seat took in the previous deal; None = seat order, seat 0 大客 …
    /// seat 4 大拉, as `zhipai.simulate` does). `previous_places` with the option off is an
    /// InvalidOptionError; places that are not a permutation of 1..=5 an InvalidValueError.
    #[staticmethod]
    #[pyo3(signature = (rules=None, seed=None, index=None, previous_places=None))]
    fn new_deal(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        index: Option<&Bound<'_, PyAny>>,
        previous_places: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyState> {
        let rules = rules_arg(rules)?;
        let seed = seed.map_or(Ok(0), |s| self::seed("seed", s))?;
        let index = index.map_or(Ok(0), |i| self::seed("index", i))?;
        let places = previous_places.map(places_arg).transpose()?;
        guard(|| {
            let r = bh_rules(rules.as_ref())?;
            Ok(PyState(State::new_after(&r, &mut deal_rng(seed, index), places)?))
        })
    }

    /// Start from five hands (card lists, seats in playing order) that hold exactly the deck;
    /// `scepter` = seat holding the scepter BJ. Raises InvalidValueError otherwise.
    #[staticmethod]
    #[pyo3(signature = (hands, scepter, rules=None, first_dealt=None))]
    fn from_hands(
        hands: &Bound<'_, PyAny>,
        scepter: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        first_dealt: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyState> {
        let hands =
            items("hands", hands)?.iter().map(|h| text("hand", h)).collect::<PyResult<Vec<_>>>()?;
        let scepter = seat("scepter", scepter)?;
        let first_dealt = first_dealt.map_or(Ok(0), |f| seat("first_dealt", f))?;
        let rules = rules_arg(rules)?;
        guard(|| {
            let r = bh_rules(rules.as_ref())?;
            if hands.len() != 5 {
                return Err(ZhipaiError::invalid_value("hands", hands.len(), "expected 5 hands"));
            }
            let mut hs = [Multiset::EMPTY; 5];
            for (i, h) in hands.iter().enumerate() {
                hs[i] = ms(h)?;
            }
            Ok(PyState(State::from_hands(&r, hs, scepter, first_dealt)?))
        })
    }

    /// The seat to act (0..5), None when the deal is over.
    fn current_player(&self) -> Option<u8> {
        self.0.current_player()
    }

    /// accession, grab_window, forced, guard_choice, solo_choice, play, over or void (黄局).
    #[getter]
    fn phase(&self) -> &'static str {
        Phase::name(self.0.phase())
    }

    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    /// Scores per seat (list of 5 ints; zeros until the end and for a void deal).
    fn returns(&self) -> Vec<i32> {
        self.0.returns().to_vec()
    }

    /// Legal actions as text: plays as card lists, else `ascend 9C`, `abdicate`, `grab`,
    /// `decline`, `open_guard`, `secret_guard`, `open_solo`, `secret_solo`, `pass`, `yield`,
    /// `jiefeng`.
    fn legal_actions(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(|m| self.action_text(m)).collect()
    }

    fn count_actions(&self) -> u32 {
        self.0.count_moves()
    }

    /// A legal action drawn uniformly with a generator seeded by `seed`.
    fn sample_action(&self, seed: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let mut rng = deal_rng(self::seed("seed", seed)?, 0);
        Ok(self.0.sample_move(&mut rng).map(|m| self.action_text(&m)))
    }

    /// Apply an action given as text (see `legal_actions`); a card list plays exactly those
    /// cards. Raises IllegalPlayError naming the action and the rule it breaks.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = text("action", action)?;
        guard(|| match self.parse_decision(&action)? {
            Some(m) => self.0.apply(m),
            None => self.0.apply_cards(&ms(&action)?),
        })
    }

    /// Why `action` is illegal now, or None.
    fn action_error(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let action = text("action", action)?;
        guard(|| {
            let mut copy = self.0.clone();
            Ok(match self.parse_decision(&action)? {
                Some(m) => self.0.check_move(&m).err(),
                None => copy.apply_cards(&ms(&action)?).err().map(|e| e.to_string()),
            })
        })
    }

    /// 进贡 from the previous deal's places (tribute_between_deals=on; [OPEN] rule), for a deal
    /// built with `from_hands` (`new_deal` makes it already; a second tribute is an
    /// InvalidValueError).
    fn apply_tribute(&mut self, previous_places: &Bound<'_, PyAny>) -> PyResult<()> {
        let places = places_arg(previous_places)?;
        guard(|| self.0.apply_tribute(places))
    }

    /// The previous places 进贡 was made from (list of 5 ints), or None when there was none.
    #[getter]
    fn tribute(&self) -> Option<Vec<u32>> {
        self.0.tribute().map(|p| p.map(u32::from).to_vec())
    }

    /// End the deal once every score is known (§C.8 engine note).
    fn set_stop_when_decided(&mut self, on: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.set_stop_when_decided(flag("on", on)?);
        Ok(())
    }

    fn clone(&self) -> PyState {
        PyState(self.0.clone())
    }

    /// The hand of `seat` as a card list.
    fn hand(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.0.hand(self::seat("seat", seat)?).to_string())
    }

    #[getter]
    fn emperor(&self) -> Option<u8> {
        self.0.emperor()
    }

    #[getter]
    fn guard(&self) -> Option<u8> {
        self.0.guard()
    }

    /// normal, open_guard, grab, open_solo or secret_solo (meaningful once play starts).
    #[getter]
    fn mode(&self) -> &'static str {
        self.0.mode().name()
    }

    #[getter]
    fn dengji_card(&self) -> Option<String> {
        self.0.dengji_card().map(|c| c.to_string())
    }

    #[getter]
    fn guard_revealed(&self) -> bool {
        self.0.guard_revealed()
    }

    /// Seats in finishing order so far (大客 first).
    #[getter]
    fn finishing_order(&self) -> Vec<u32> {
        // u32, not u8: pyo3 turns a Vec<u8> into `bytes`, and these are lists of seats.
        self.0.finishing_order().iter().map(|&s| u32::from(s)).collect()
    }

    /// Place of each seat 1..5 (0 while unknown).
    #[getter]
    fn places(&self) -> Vec<u32> {
        self.0.places().iter().map(|&p| u32::from(p)).collect()
    }

    /// The play to beat (suitless, high→low, e.g. `BJ 9 9`), None when the player to act leads.
    #[getter]
    fn play_to_beat(&self) -> Option<String> {
        self.0.play_to_beat().map(|s| s.to_string())
    }

    fn __repr__(&self) -> String {
        format!(
            "BaohuangState(phase={}, current_player={}, hand_sizes={:?})",
            Phase::name(self.0.phase()),
            self.0.current_player().map_or("None".to_string(), |s| s.to_string()),
            (0..5).map(|s| self.0.hand(s).len()).collect::<Vec<_>>()
        )
    }
}

/// Void deals (黄局) redealt in a row before giving up, as `BaohuangRules::play_out`.
const MAX_REDEALS: i32 = 1000;

/// One Baohuang deal for step-by-step play by any mix of Python callables and built-in
/// policies, with its own generator (as `zhipai.simulate` plays it: a void deal 黄局 is redealt
/// from the same generator at once). Move text as `BaohuangState.legal_actions`. See
/// `zhipai.policy.GameState`.
#[pyclass(name = "BaohuangGameState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyBaohuangGameState {
    st: PyState,
    rules: BaohuangRules,
    rng: rand_chacha::ChaCha8Rng,
    redeals: i32,
    history: History,
}

/// The phase names of `BaohuangGameState`, shared by every game's `GameState`: the end is
/// `"done"` everywhere (`BaohuangState.phase` says `"over"`).
fn state_phase(p: Phase) -> &'static str {
    match p {
        Phase::Over => "done",
        other => Phase::name(other),
    }
}

impl PyBaohuangGameState {
    /// `cards` (a legal play of `seat` without the 登基 card, as `State::cards_of` chooses them)
    /// with one natural swapped for the 登基 card when `seat` holds it: the same play up to
    /// suits, but for a guard a revealing one. `None` when there is no such choice (no 登基
    /// card of that rank in hand, `cards` holds it already, or the guard's 登基 card is its own
    /// tier above BJ with `guard_card_rank = above_big_joker`, so the plays differ already).
    fn with_dengji(&self, seat: u8, cards: &Multiset) -> Option<Multiset> {
        let s = &self.st.0;
        let d = s.dengji_card().filter(|d| !d.is_joker())?;
        let above = self.rules.guard_card_rank == bh::options::GuardCardRank::AboveBigJoker;
        if (above && s.guard() == Some(seat)) || cards.contains(d) || !s.hand(seat).contains(d) {
            return None;
        }
        let swap = cards.iter().find(|c| c.rank() == d.rank())?;
        let mut with = *cards;
        with.remove(swap);
        with.add(d);
        Some(with)
    }

    /// Record the move just made by `seat`; redeal a void deal.
    fn after(&mut self, seat: u8, text: String, mv: Option<Move>) -> Result<()> {
        let seat = usize::from(seat);
        self.history.push(match mv {
            // 暗保 / 暗独 are secret: the others do not even learn that a choice was made (it
            // would name the guard, or tell a solo emperor from one with a guard).
            Some(Move::SecretGuard) | Some(Move::SecretSolo) => Step::secret(seat, text),
            _ => Step::public(seat, text),
        });
        if self.st.0.is_void() {
            self.redeals += 1;
            if self.redeals >= MAX_REDEALS {
                return Err(ZhipaiError::impossible_deal(format!(
                    "{MAX_REDEALS} void deals (黄局) in a row"
                )));
            }
            // A redeal follows the same previous deal: the same tribute, if any.
            let places = self.st.0.tribute();
            self.st.0 = State::new_after(&self.rules, &mut self.rng, places)?;
            self.history.clear();
        }
        Ok(())
    }

    fn builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<Move> {
        let p = builtin_policy_arg(policy)?;
        guard(|| {
            zhipai_core::games::baohuang::policy::choose(p, &self.st.0, &mut self.rng)
                .ok_or_else(|| ZhipaiError::illegal_play("builtin move", "the deal is over"))
        })
    }
}

#[pymethods]
impl PyBaohuangGameState {
    /// `new_deal(rules, seed, index)`: deal `index` of a `zhipai.simulate` run seeded with
    /// `seed` (same cards and generator), at the scepter holder's accession decision.
    #[staticmethod]
    fn new_deal(
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (seed, index) = seed_index(seed, index)?;
        let r = guard(|| bh_rules(Some(rules)))?;
        let mut rng = deal_rng(seed, index);
        let st = PyState(State::new(&r, &mut rng));
        Ok(PyBaohuangGameState { st, rules: r, rng, redeals: 0, history: History::default() })
    }

    /// Number of seats (5).
    #[getter]
    fn num_players(&self) -> usize {
        5
    }

    fn current_player(&self) -> Option<u8> {
        self.st.0.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.st.0.is_terminal()
    }

    /// Every legal move of the seat to act: plays first (card lists), then `pass`, `yield`,
    /// `jiefeng`; in accession `ascend <card>`, `grab`, `abdicate`, … (`[]` once over).
    ///
    /// Complete up to suits that the rules ignore (§C.2: suits matter only for the 登基 card):
    /// each legal play — n naturals of one rank + x SJ + y BJ — is listed once, with one choice of
    /// suits, except that a play with the 登基 card and one without it are both listed whenever
    /// both are legal (a guard playing it reveals himself, §C.3.6). Any other suits of the same
    /// play may be applied too.
    fn legal_moves(&self) -> Vec<String> {
        let s = &self.st.0;
        if s.phase() != Phase::Play {
            return self.st.legal_actions();
        }
        let Some(seat) = s.current_player() else { return Vec::new() };
        let mut out = Vec::new();
        for m in s.legal_moves() {
            let Move::Play(shape) = m else {
                out.push(m.to_string());
                continue;
            };
            let Some(cards) = s.cards_of(&shape) else { continue };
            out.push(cards.to_string());
            if let Some(with) = self.with_dengji(seat, &cards) {
                out.push(with.to_string());
            }
        }
        out
    }

    /// Apply `move` (text as in `legal_moves`; a card list plays exactly those cards, in any
    /// order, any letter case). Raises `IllegalPlayError` naming the move and the rule (the
    /// state is then unchanged), `InvalidValueError` / `InvalidCardError` for text that is not a
    /// move.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = self.st.0.current_player().unwrap_or(0);
        let text = move_arg(r#move)?;
        let decision = guard(|| self.st.parse_decision(&text))?;
        guard(|| {
            match decision {
                Some(m) => self.st.0.apply(m),
                None => self.st.0.apply_cards(&ms(&text)?),
            }
            .map_err(move_error)
        })?;
        let shown = match decision {
            Some(m) => m.to_string(),
            None => ms(&text).map(|m| m.to_string()).unwrap_or(text),
        };
        guard(|| self.after(seat, shown, decision))
    }

    /// The move built-in `policy` ("random" or "greedy") chooses for the seat to act, without
    /// applying it (drawn from the deal's own generator).
    fn builtin_move(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let mv = self.builtin(policy)?;
        Ok(self.st.action_text(&mv))
    }

    /// Apply the move of built-in `policy` (as `zhipai.simulate` does) and return its text.
    fn apply_builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let seat = self.st.0.current_player().unwrap_or(0);
        let mv = self.builtin(policy)?;
        let text = self.st.action_text(&mv);
        self.st.0.apply_unchecked(mv);
        guard(|| self.after(seat, text.clone(), Some(mv)))?;
        Ok(text)
    }

    /// What `seat` sees, as a dict (keys documented in `zhipai.policy`).
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let seat = crate::simulate::seat_arg(seat, 5)?;
        let s = &self.st.0;
        let me = seat as u8;
        let o = pyo3::types::PyDict::new(py);
        o.set_item("game", "baohuang")?;
        o.set_item("seat", seat)?;
        // The guard's 明保/暗保 and the 4-copy emperor's 明独/暗独 choice are made in secret: to
        // the other seats the deal is in "hidden_choice" with nobody named to act.
        let secret = matches!(s.phase(), Phase::GuardChoice | Phase::SoloChoice)
            && s.current_player() != Some(me);
        o.set_item("phase", if secret { "hidden_choice" } else { state_phase(s.phase()) })?;
        o.set_item("current_player", if secret { None } else { s.current_player() })?;
        o.set_item("hand", s.hand(me).to_string())?;
        o.set_item("hand_sizes", (0..5).map(|p| s.hand(p).len()).collect::<Vec<_>>())?;
        o.set_item("scepter", s.scepter().0)?;
        o.set_item("emperor", s.emperor())?;
        o.set_item("dengji_card", s.dengji_card().map(|c| c.to_string()))?;
        // The guard knows himself; the others once he is revealed (明保, or the 登基 card played).
        let guard_seen = s.guard().filter(|&g| g == me || s.guard_revealed());
        o.set_item("guard", guard_seen)?;
        // 暗独 looks like 暗保 to everyone but the emperor.
        let mode = match s.mode() {
            Mode::SecretSolo if s.emperor() != Some(me) => Mode::Normal,
            m => m,
        };
        o.set_item("mode", mode.name())?;
        o.set_item("play_to_beat", s.play_to_beat().map(|p| p.to_string()))?;
        o.set_item("finishing_order", self.st.finishing_order())?;
        o.set_item("abdications", s.abdications())?;
        o.set_item("redeals", self.redeals)?;
        // The previous deal's places are public; the cards exchanged are not shown.
        o.set_item("tribute", s.tribute().map(|p| p.map(u32::from).to_vec()))?;
        o.set_item("history", self.history.view(py, seat)?)?;
        Ok(o)
    }

    /// The deal's result row (columns of `zhipai.simulate`), once over.
    fn result_row(&self) -> PyResult<Vec<i32>> {
        let rules = Rules::Baohuang(self.rules.clone());
        finished_row(&rules, self.st.0.is_terminal(), |row| {
            zhipai_core::games::baohuang::policy::write_row(&self.st.0, self.redeals, row);
            Ok(())
        })
    }

    /// Scores per seat (5 values; zeros until the end).
    fn returns(&self) -> Vec<f64> {
        self.st.0.returns().iter().map(|&r| clean_return(f64::from(r))).collect()
    }

    /// The phase as every game's `GameState` names it: `"accession"`, `"grab_window"`,
    /// `"forced"` (逼位), `"guard_choice"`, `"solo_choice"`, `"play"` or `"done"` (the
    /// observation of a seat not making a secret choice reads `"hidden_choice"` instead of
    /// `"guard_choice"`/`"solo_choice"`; a void deal 黄局 is redealt at once, so it never shows).
    #[getter]
    fn phase(&self) -> &'static str {
        state_phase(self.st.0.phase())
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "BaohuangGameState(phase='{}', current_player={})",
            state_phase(self.st.0.phase()),
            crate::simulate::py_opt(self.st.0.current_player())
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_class::<PyBaohuangGameState>()?;
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
