//! A deal of any game together with where it came from ([`TrackedDeal`]): the rule set, the
//! origin (deal `index` of a run seeded `seed`, or a setup of given cards) and the state. It is
//! what the Python `GameState` holds, and it writes and replays deal records as JSON
//! ([`TrackedDeal::to_json`], [`TrackedDeal::from_json`]).
//!
//! A record keeps every move with whether a built-in policy chose it: the built-in policies draw
//! from the deal's own generator, so a replay asks the policy again (and checks it gives the
//! recorded move) instead of applying the text — otherwise later chance events of the deal would
//! come out differently. For the same reason a built-in policy asked without its move being
//! applied (a *peek*, `builtin_move`) is recorded, and the position of the deal's search
//! generator (the draws of search players, [`crate::search::search_rng`]). The replay must end in
//! the recorded state: the same phase and, for a finished deal, the same result row; a record
//! that was cut short or altered is refused, naming the field.

use crate::any_state::AnyState;
use crate::cards::{Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::game::GameRng;
use crate::game::{DealSetup, Game};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::rules::{rules, Rules};
use crate::search::Player;
use serde_json::{json, Map, Value};

/// The version of the record format written by [`TrackedDeal::to_json`].
pub const RECORD_VERSION: u32 = 1;

/// Longest record text [`TrackedDeal::from_json`] reads (a 3-deck deal with every move recorded
/// is well under 100 kB).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// Where a deal came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// Deal `index` of a `simulate` run seeded `seed`. `previous_places`: Baohuang with
    /// `tribute_between_deals = on` only, the places (1 = 大客 … 5 = 大拉, per seat) the 进贡 is
    /// made from (`None`: seat order, as `simulate`).
    Simulated { seed: u64, index: u64, previous_places: Option<[u8; 5]> },
    /// A deal of given cards and facts.
    Setup(DealSetup),
}

/// The state of a new deal of `rules` from `origin`.
pub fn new_state(rules: &Rules, origin: &Origin) -> Result<Box<dyn AnyState>> {
    fn make<G: Game>(g: &G, origin: &Origin) -> Result<Box<dyn AnyState>> {
        Ok(Box::new(match origin {
            Origin::Simulated { seed, index, .. } => g.new_deal(*seed, *index)?,
            Origin::Setup(setup) => g.deal_from(setup)?,
        }))
    }
    match (rules, origin) {
        (Rules::Baohuang(r), Origin::Simulated { seed, index, previous_places: Some(p) }) => {
            Ok(Box::new(crate::games::baohuang::DealState::new_after(r, *seed, *index, Some(*p))?))
        }
        (_, Origin::Simulated { previous_places: Some(p), .. }) => {
            Err(ZhipaiError::invalid_option(
                "previous_places",
                format!("{p:?}"),
                "only Baohuang's tribute between deals (进贡) reads the previous places",
            ))
        }
        _ => crate::with_game!(rules, g => make(g, origin)),
    }
}

/// A deal in progress with its rule set, its origin and what a replay needs beyond the moves.
#[derive(Clone, Debug)]
pub struct TrackedDeal {
    pub rules: Rules,
    pub origin: Origin,
    pub state: Box<dyn AnyState>,
    /// Built-in policies asked without their move being applied: (history length then, policy).
    peeks: Vec<(usize, Policy)>,
    /// The generator of search players ([`crate::search::search_rng`] of the origin).
    search: GameRng,
}

impl TrackedDeal {
    /// A new deal of `rules` from `origin`, at its first decision.
    pub fn new(rules: Rules, origin: Origin) -> Result<TrackedDeal> {
        let state = new_state(&rules, &origin)?;
        Ok(TrackedDeal::new_search(rules, origin, state))
    }

    /// A deal whose state was made elsewhere (a Shengji match hand: the match's ticket is in the
    /// state) with the origin that rebuilds it.
    pub fn with_state(rules: Rules, origin: Origin, state: Box<dyn AnyState>) -> TrackedDeal {
        TrackedDeal::new_search(rules, origin, state)
    }

    fn new_search(rules: Rules, origin: Origin, state: Box<dyn AnyState>) -> TrackedDeal {
        let search = match &origin {
            Origin::Simulated { seed, index, .. } => crate::search::search_rng(*seed, *index),
            Origin::Setup(s) => crate::search::search_rng(s.seed, s.stream),
        };
        TrackedDeal { rules, origin, state, peeks: Vec::new(), search }
    }

    /// The move built-in `policy` would make now, not applied; the deal's generator advances (as
    /// it would in `simulate`), which the record keeps.
    pub fn builtin_move(&mut self, policy: Policy) -> Result<String> {
        let mv = self.state.builtin_move(policy)?;
        self.peeks.push((self.state.history_len(), policy));
        Ok(mv)
    }

    /// The move `player` chooses now, not applied (a built-in policy: as [`Self::builtin_move`];
    /// a search draws from the deal's search generator).
    pub fn player_move(&mut self, player: &Player) -> Result<String> {
        match player {
            Player::Builtin(p) => self.builtin_move(*p),
            _ => self.state.player_move(player, &mut self.search),
        }
    }

    /// Choose with `player` and apply; the move's text.
    pub fn apply_player(&mut self, player: &Player) -> Result<String> {
        self.state.apply_player(player, &mut self.search)
    }

    /// The deal as a JSON record (see the module docs): `{"format": "zhipai-deal", "version",
    /// "preset", "options" (every option's value as text), "origin", "moves" (`{"seat", "move",
    /// "builtin"?}` or a peek `{"seat", "peek"}`), "pending" (card kinds of a move being built),
    /// "search_word_pos", "phase", "result" (the row, or `null` while running)}`.
    pub fn to_json(&self) -> String {
        let s = &self.state;
        let mut moves = Vec::new();
        let mut peeks = self.peeks.iter().peekable();
        for i in 0..=s.history_len() {
            while let Some(&&(at, p)) = peeks.peek() {
                if at != i {
                    break;
                }
                let seat = if i < s.history_len() {
                    s.history_entry(i).seat
                } else {
                    s.current_player().unwrap_or(0)
                };
                moves.push(json!({"seat": seat, "peek": p.name()}));
                peeks.next();
            }
            if i < s.history_len() {
                let e = s.history_entry(i);
                let mut m = json!({"seat": e.seat, "move": e.applied});
                if let Some(p) = e.builtin {
                    m["builtin"] = json!(p.name());
                }
                moves.push(m);
            }
        }
        let options: Vec<Value> =
            self.rules.options().into_iter().map(|o| json!([o.name, o.value])).collect();
        let record = json!({
            "format": FORMAT,
            "version": RECORD_VERSION,
            "preset": self.rules.preset(),
            "options": options,
            "origin": origin_json(&self.origin),
            "moves": moves,
            "pending": s.pending_cards().iter().map(|c| c.index()).collect::<Vec<_>>(),
            "search_word_pos": self.search.get_word_pos().to_string(),
            "phase": s.phase().name(),
            "result": self.result_row(),
        });
        record.to_string()
    }

    fn result_row(&self) -> Option<Vec<i32>> {
        self.state.is_terminal().then(|| {
            let mut row = vec![0; self.rules.columns().len()];
            self.state.result_row(&mut row).map(|_| row).unwrap_or_default()
        })
    }

    /// Replay a record of [`TrackedDeal::to_json`]. Errors (`InvalidValue` naming the field, or
    /// the engine's error naming the move): text that is not a record, a missing, unknown or
    /// mistyped field, another format or version, unknown preset or option values, a move that is
    /// not legal at its turn or by another seat than recorded, a built-in move that the policy no
    /// longer chooses, and a replay that does not end in the recorded phase and result.
    pub fn from_json(text: &str) -> Result<TrackedDeal> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(bad(
                "",
                format!("of {} bytes", text.len()),
                "larger than any deal record (4 MiB)",
            ));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| bad("", quoted(text), format!("not JSON: {e}")))?;
        let r = Fields::of(&value, "")?;
        r.only(&[
            "format",
            "version",
            "preset",
            "options",
            "origin",
            "moves",
            "pending",
            "search_word_pos",
            "phase",
            "result",
        ])?;
        let format = r.text("format")?;
        if format != FORMAT {
            return Err(bad("format", quoted(format), format!("expected {FORMAT:?}")));
        }
        let version = r.uint("version")?;
        if version != RECORD_VERSION as u64 {
            return Err(bad(
                "version",
                version,
                format!("this zhipai reads version {RECORD_VERSION}"),
            ));
        }
        let mut overrides = Vec::new();
        for (i, o) in r.list("options")?.iter().enumerate() {
            let pair = o.as_array().filter(|p| p.len() == 2 && p.iter().all(Value::is_string));
            let pair =
                pair.ok_or_else(|| bad(format!("options[{i}]"), o, "expected [name, value text]"))?;
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            overrides.push((text(&pair[0]), OptionValue::Text(text(&pair[1]))));
        }
        let rules = rules(r.text("preset")?, &overrides)?;
        let origin = origin_of(&Fields::of(r.get("origin")?, "origin")?)?;
        let mut deal = TrackedDeal::new(rules, origin)?;
        for (i, m) in r.list("moves")?.iter().enumerate() {
            deal.replay(i, &Fields::of(m, &format!("moves[{i}]"))?)?;
        }
        for (i, kind) in r.list("pending")?.iter().enumerate() {
            let k = kind
                .as_u64()
                .ok_or_else(|| bad(format!("pending[{i}]"), kind, "expected a card kind 0..53"))?;
            deal.state.apply_action(k as usize).map_err(|e| {
                bad(format!("pending[{i}]"), k, format!("not legal in the replay: {e}"))
            })?;
        }
        let pos = r.text("search_word_pos")?;
        let pos: u128 = pos
            .parse()
            .map_err(|_| bad("search_word_pos", quoted(pos), "expected a non-negative integer"))?;
        deal.search.set_word_pos(pos);
        deal.check_end(r.text("phase")?, r.get("result")?)?;
        Ok(deal)
    }

    /// Apply recorded move `i` (or repeat a peek).
    fn replay(&mut self, i: usize, m: &Fields<'_>) -> Result<()> {
        let at = |f: &str| format!("moves[{i}].{f}");
        let Some(seat) = self.state.current_player() else {
            return Err(bad(
                format!("moves[{i}]"),
                m.value,
                "the deal is already over in the replay",
            ));
        };
        let recorded = m.uint("seat")?;
        if recorded != seat as u64 {
            return Err(bad(at("seat"), recorded, format!("seat {seat} is to move in the replay")));
        }
        let policy = |name: &str, field: &str| -> Result<Policy> {
            name.parse::<Policy>().map_err(|e| bad(at(field), quoted(name), e))
        };
        if m.has("peek") {
            m.only(&["seat", "peek"])?;
            let p = policy(m.text("peek")?, "peek")?;
            self.builtin_move(p)?;
            return Ok(());
        }
        m.only(&["seat", "move", "builtin"])?;
        let text = m.text("move")?;
        if m.has("builtin") {
            let name = m.text("builtin")?;
            let p = policy(name, "builtin")?;
            let wanted =
                self.state.normalize_move(text).map_err(|e| bad(at("move"), quoted(text), e))?;
            // The policy draws from the deal's generator: apply its choice, then compare.
            let chosen = self.state.apply_builtin(p)?;
            if chosen != wanted {
                return Err(bad(
                    at("move"),
                    quoted(text),
                    format!("the {name} policy chooses {chosen:?} here in the replay"),
                ));
            }
        } else {
            self.state.apply_move(text).map_err(|e| bad(at("move"), quoted(text), e))?;
        }
        Ok(())
    }

    /// Compare the end of the replay with the record.
    fn check_end(&self, phase: &str, result: &Value) -> Result<()> {
        let s = &self.state;
        if s.phase().name() != phase {
            return Err(bad(
                "phase",
                quoted(phase),
                format!(
                    "the replay ends in phase {:?}: the record was cut short or altered",
                    s.phase().name()
                ),
            ));
        }
        let replayed = self.result_row().map_or(Value::Null, |r| json!(r));
        if &replayed != result {
            return Err(bad(
                "result",
                result,
                format!("the replay gives {replayed}: the record was altered"),
            ));
        }
        Ok(())
    }
}

const FORMAT: &str = "zhipai-deal";

fn bad(
    what: impl std::fmt::Display,
    value: impl std::fmt::Display,
    why: impl std::fmt::Display,
) -> ZhipaiError {
    let what = what.to_string();
    let field = if what.is_empty() {
        "deal record".to_string()
    } else {
        format!("deal record field {what}")
    };
    ZhipaiError::invalid_value(field, value, why)
}

fn quoted(text: &str) -> String {
    crate::game::quoted(text)
}

/// The fields of one JSON object of a record, read with errors that name the field.
struct Fields<'a> {
    value: &'a Value,
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Fields<'a> {
    fn of(value: &'a Value, path: &str) -> Result<Fields<'a>> {
        let map = value.as_object().ok_or_else(|| bad(path, value, "expected a JSON object"))?;
        Ok(Fields { value, map, path: path.to_string() })
    }

    fn name(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Refuse a field not in `known`.
    fn only(&self, known: &[&str]) -> Result<()> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(bad(
                self.name(k),
                quoted(k),
                format!("unknown field; expected {}", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    fn get(&self, key: &str) -> Result<&'a Value> {
        self.map
            .get(key)
            .ok_or_else(|| bad(self.name(key), "(missing)", "a deal record has this field"))
    }

    fn text(&self, key: &str) -> Result<&'a str> {
        let v = self.get(key)?;
        v.as_str().ok_or_else(|| bad(self.name(key), v, "expected a string"))
    }

    fn uint(&self, key: &str) -> Result<u64> {
        let v = self.get(key)?;
        v.as_u64().ok_or_else(|| bad(self.name(key), v, "expected an integer from 0 to 2**64 - 1"))
    }

    fn list(&self, key: &str) -> Result<&'a Vec<Value>> {
        let v = self.get(key)?;
        v.as_array().ok_or_else(|| bad(self.name(key), v, "expected a list"))
    }

    fn opt(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }
}

/// [`Origin`] in JSON: `{"seed", "index", "previous_places"?}` or `{"hands", "kitty"?, "level"?,
/// "trump"?, "dealer"?, "seed", "stream"?, "word_pos"?}` (cards as card text, `level` a rank or
/// `"NT"`, `trump` a suit letter or `"NT"`, `word_pos` as text: a JSON number cannot hold every
/// u128).
fn origin_json(origin: &Origin) -> Value {
    match origin {
        Origin::Simulated { seed, index, previous_places } => {
            let mut o = json!({"seed": seed, "index": index});
            if let Some(p) = previous_places {
                o["previous_places"] = json!(p);
            }
            o
        }
        Origin::Setup(s) => {
            let mut o = json!({
                "hands": s.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
                "seed": s.seed,
            });
            if let Some(k) = s.kitty {
                o["kitty"] = json!(k.to_string());
            }
            if let Some(l) = s.level {
                o["level"] = json!(l.map_or("NT".to_string(), |r| r.to_string()));
            }
            if let Some(t) = s.trump {
                o["trump"] = json!(t.map_or("NT".to_string(), |s| s.letter().to_string()));
            }
            if let Some(d) = s.dealer {
                o["dealer"] = json!(d);
            }
            if s.stream != 0 {
                o["stream"] = json!(s.stream);
            }
            if s.word_pos != 0 {
                o["word_pos"] = json!(s.word_pos.to_string());
            }
            o
        }
    }
}

fn origin_of(f: &Fields<'_>) -> Result<Origin> {
    if !f.has("hands") {
        f.only(&["seed", "index", "previous_places"])?;
        let previous_places = match f.opt("previous_places") {
            None => None,
            Some(v) => {
                let places: Option<[u8; 5]> = v
                    .as_array()
                    .and_then(|a| {
                        a.iter()
                            .map(|x| x.as_u64().filter(|p| (1..=5).contains(p)).map(|p| p as u8))
                            .collect::<Option<Vec<u8>>>()
                    })
                    .and_then(|v| v.try_into().ok());
                Some(places.ok_or_else(|| {
                    bad(f.name("previous_places"), v, "expected 5 places from 1 to 5")
                })?)
            }
        };
        return Ok(Origin::Simulated {
            seed: f.uint("seed")?,
            index: f.uint("index")?,
            previous_places,
        });
    }
    f.only(&["hands", "kitty", "level", "trump", "dealer", "seed", "stream", "word_pos"])?;
    let cards = |key: String, v: &Value| -> Result<Multiset> {
        let t = v.as_str().ok_or_else(|| bad(&key, v, "expected cards in notation"))?;
        t.parse().map_err(|e| bad(&key, quoted(t), e))
    };
    let hands = f.list("hands")?;
    let hands = hands
        .iter()
        .enumerate()
        .map(|(i, h)| cards(f.name(&format!("hands[{i}]")), h))
        .collect::<Result<Vec<_>>>()?;
    let kitty = f.opt("kitty").map(|k| cards(f.name("kitty"), k)).transpose()?;
    let word = |key: &str| -> Result<Option<&str>> {
        f.opt(key)
            .map(|v| v.as_str().ok_or_else(|| bad(f.name(key), v, "expected a string")))
            .transpose()
    };
    let level = match word("level")? {
        None => None,
        Some("NT") => Some(None),
        Some(l) => Some(Some(l.parse::<Rank>().map_err(|e| bad(f.name("level"), quoted(l), e))?)),
    };
    let trump = match word("trump")? {
        None => None,
        Some("NT") => Some(None),
        Some(t) => Some(Some(t.parse::<Suit>().map_err(|e| bad(f.name("trump"), quoted(t), e))?)),
    };
    let dealer = f.opt("dealer").map(|_| f.uint("dealer")).transpose()?.map(|d| d as usize);
    let stream = f.opt("stream").map(|_| f.uint("stream")).transpose()?.unwrap_or(0);
    let word_pos = match word("word_pos")? {
        None => 0,
        Some(w) => w
            .parse()
            .map_err(|_| bad(f.name("word_pos"), quoted(w), "expected a non-negative integer"))?,
    };
    let seed = f.uint("seed")?;
    Ok(Origin::Setup(DealSetup { hands, kitty, level, trump, dealer, seed, stream, word_pos }))
}
