//! A deal of any game together with where it came from ([`TrackedDeal`]): the rule set, the
//! origin (deal `index` of a run seeded `seed`, or a setup of given cards) and the state. It is
//! what the Python `GameState` holds, and it writes and replays deal records as JSON
//! ([`TrackedDeal::to_json`], [`TrackedDeal::from_json`]).
//!
//! A record keeps every move with whether a built-in policy chose it: the built-in policies draw
//! from the deal's own generator, so a replay asks the policy again (and checks it gives the
//! recorded move) instead of applying the text — otherwise later chance events of the deal would
//! come out differently. The replay must end in the recorded state: the same phase and, for a
//! finished deal, the same result row; a record that was cut short or altered is refused, naming
//! the field.

use crate::any_state::AnyState;
use crate::cards::{Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::game::{Column, DealSetup, Game};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::rules::{rules, Rules};
use serde::{Deserialize, Serialize};

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

/// The result columns of `rules` (the order of [`AnyState::result_row`]).
pub fn columns(rules: &Rules) -> Vec<Column> {
    crate::with_game!(rules, g => Game::columns(g))
}

/// A deal in progress with its rule set and origin.
#[derive(Clone, Debug)]
pub struct TrackedDeal {
    pub rules: Rules,
    pub origin: Origin,
    pub state: Box<dyn AnyState>,
}

impl TrackedDeal {
    /// A new deal of `rules` from `origin`, at its first decision.
    pub fn new(rules: Rules, origin: Origin) -> Result<TrackedDeal> {
        let state = new_state(&rules, &origin)?;
        Ok(TrackedDeal { rules, origin, state })
    }

    /// The deal as a JSON record (see the module docs): `{"format": "zhipai-deal", "version",
    /// "preset", "options" (every option's value as text), "origin", "moves" (`{"seat", "move",
    /// "builtin"?}`), "pending" (card kinds of a move being built), "phase", "result" (the row,
    /// or `null` while running)}`.
    pub fn to_json(&self) -> String {
        let s = &self.state;
        let moves = (0..s.history_len())
            .map(|i| {
                let e = s.history_entry(i);
                RecordedMove {
                    seat: e.seat,
                    r#move: e.applied,
                    builtin: e.builtin.map(|p| p.name().to_string()),
                }
            })
            .collect();
        let result = s.is_terminal().then(|| {
            let mut row = vec![0; columns(&self.rules).len()];
            s.result_row(&mut row).map(|_| row).unwrap_or_default()
        });
        let pending = s.pending_cards().iter().map(|c| c.index()).collect();
        let record = Record {
            format: FORMAT.to_string(),
            version: RECORD_VERSION,
            preset: self.rules.preset().to_string(),
            options: self
                .rules
                .options()
                .into_iter()
                .map(|o| (o.name.to_string(), o.value))
                .collect(),
            origin: OriginRecord::of(&self.origin),
            moves,
            pending,
            phase: s.phase().name().to_string(),
            result,
        };
        serde_json::to_string(&record).expect("a record serialises")
    }

    /// Replay a record of [`TrackedDeal::to_json`]. Errors (`InvalidValue` naming the field, or
    /// the engine's error naming the move): text that is not a record, another format or
    /// version, unknown preset or option values, a move that is not legal at its turn or by
    /// another seat than recorded, a built-in move that the policy no longer chooses, and a
    /// replay that does not end in the recorded phase and result.
    pub fn from_json(text: &str) -> Result<TrackedDeal> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(bad(
                "record",
                format!("{} bytes", text.len()),
                "larger than any deal record (4 MiB)",
            ));
        }
        let record: Record = serde_json::from_str(text)
            .map_err(|e| bad("record", "(JSON)", format!("not a deal record: {e}")))?;
        if record.format != FORMAT {
            return Err(bad("format", &record.format, format!("expected {FORMAT:?}")));
        }
        if record.version != RECORD_VERSION {
            return Err(bad(
                "version",
                record.version,
                format!("this zhipai reads version {RECORD_VERSION}"),
            ));
        }
        let overrides: Vec<(String, OptionValue)> =
            record.options.iter().map(|(k, v)| (k.clone(), OptionValue::Text(v.clone()))).collect();
        let rules = rules(&record.preset, &overrides)?;
        let origin = record.origin.to_origin()?;
        let mut deal = TrackedDeal::new(rules, origin)?;
        for (i, m) in record.moves.iter().enumerate() {
            deal.replay(i, m)?;
        }
        for (i, &kind) in record.pending.iter().enumerate() {
            deal.state.apply_action(kind).map_err(|e| {
                bad(format!("pending[{i}]"), kind, format!("not legal in the replay: {e}"))
            })?;
        }
        deal.check_end(&record)?;
        Ok(deal)
    }

    /// Apply recorded move `i`.
    fn replay(&mut self, i: usize, m: &RecordedMove) -> Result<()> {
        let s = &mut self.state;
        let field = || format!("moves[{i}]");
        let Some(seat) = s.current_player() else {
            return Err(bad(field(), quoted(&m.r#move), "the deal is already over in the replay"));
        };
        if seat != m.seat {
            return Err(bad(
                format!("moves[{i}].seat"),
                m.seat,
                format!("seat {seat} is to move in the replay"),
            ));
        }
        match &m.builtin {
            None => {
                s.apply_move(&m.r#move).map_err(|e| bad(field(), quoted(&m.r#move), e))?;
            }
            Some(name) => {
                let policy: Policy = name
                    .parse()
                    .map_err(|e| bad(format!("moves[{i}].builtin"), quoted(name), e))?;
                let wanted =
                    s.normalize_move(&m.r#move).map_err(|e| bad(field(), quoted(&m.r#move), e))?;
                // The policy draws from the deal's generator: apply its choice, then compare.
                let chosen = s.apply_builtin(policy)?;
                if chosen != wanted {
                    return Err(bad(
                        field(),
                        quoted(&m.r#move),
                        format!("the {name} policy chooses {chosen:?} here in the replay"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Compare the end of the replay with the record.
    fn check_end(&self, record: &Record) -> Result<()> {
        let s = &self.state;
        if s.phase().name() != record.phase {
            return Err(bad(
                "phase",
                quoted(&record.phase),
                format!(
                    "the replay of the {} recorded moves ends in phase {:?}: the record was cut \
                     short or altered",
                    record.moves.len(),
                    s.phase().name()
                ),
            ));
        }
        let replayed = s.is_terminal().then(|| {
            let mut row = vec![0; columns(&self.rules).len()];
            s.result_row(&mut row).map(|_| row).unwrap_or_default()
        });
        if replayed != record.result {
            return Err(bad(
                "result",
                format!("{:?}", record.result),
                format!("the replay gives {replayed:?}: the record was altered"),
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
    ZhipaiError::invalid_value(format!("deal record {what}"), value, why)
}

fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    if cut.len() < text.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

/// The JSON form of a deal record.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    format: String,
    version: u32,
    preset: String,
    options: Vec<(String, String)>,
    origin: OriginRecord,
    moves: Vec<RecordedMove>,
    #[serde(default)]
    pending: Vec<usize>,
    phase: String,
    result: Option<Vec<i32>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordedMove {
    seat: usize,
    #[serde(rename = "move")]
    r#move: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    builtin: Option<String>,
}

/// [`Origin`] in JSON: `{"seed", "index"}` or `{"hands", "kitty"?, "level"?, "trump"?,
/// "dealer"?, "seed"}` (cards as card text, `level` a rank or `"NT"`, `trump` a suit letter or
/// `"NT"`).
#[derive(Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum OriginRecord {
    Simulated {
        seed: u64,
        index: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        previous_places: Option<[u8; 5]>,
    },
    Setup {
        hands: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kitty: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trump: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dealer: Option<usize>,
        seed: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        stream: u64,
        /// Text: a JSON number cannot hold every u128.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        word_pos: Option<String>,
    },
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl OriginRecord {
    fn of(origin: &Origin) -> OriginRecord {
        match origin {
            Origin::Simulated { seed, index, previous_places } => OriginRecord::Simulated {
                seed: *seed,
                index: *index,
                previous_places: *previous_places,
            },
            Origin::Setup(s) => OriginRecord::Setup {
                hands: s.hands.iter().map(|h| h.to_string()).collect(),
                kitty: s.kitty.map(|k| k.to_string()),
                level: s.level.map(|l| l.map_or("NT".to_string(), |r| r.to_string())),
                trump: s.trump.map(|t| t.map_or("NT".to_string(), |s| s.letter().to_string())),
                dealer: s.dealer,
                seed: s.seed,
                stream: s.stream,
                word_pos: (s.word_pos != 0).then(|| s.word_pos.to_string()),
            },
        }
    }

    fn to_origin(&self) -> Result<Origin> {
        Ok(match self {
            OriginRecord::Simulated { seed, index, previous_places } => {
                Origin::Simulated { seed: *seed, index: *index, previous_places: *previous_places }
            }
            OriginRecord::Setup { hands, kitty, level, trump, dealer, seed, stream, word_pos } => {
                let cards = |what: String, t: &str| -> Result<Multiset> {
                    t.parse().map_err(|e| bad(what, quoted(t), e))
                };
                let hands = hands
                    .iter()
                    .enumerate()
                    .map(|(i, h)| cards(format!("origin.hands[{i}]"), h))
                    .collect::<Result<Vec<_>>>()?;
                let kitty =
                    kitty.as_deref().map(|k| cards("origin.kitty".into(), k)).transpose()?;
                let level = level
                    .as_deref()
                    .map(|l| match l {
                        "NT" => Ok(None),
                        _ => l
                            .parse::<Rank>()
                            .map(Some)
                            .map_err(|e| bad("origin.level", quoted(l), e)),
                    })
                    .transpose()?;
                let trump = trump
                    .as_deref()
                    .map(|t| match t {
                        "NT" => Ok(None),
                        _ => t
                            .parse::<Suit>()
                            .map(Some)
                            .map_err(|e| bad("origin.trump", quoted(t), e)),
                    })
                    .transpose()?;
                let word_pos = match word_pos {
                    None => 0,
                    Some(w) => w.parse().map_err(|_| {
                        bad("origin.word_pos", quoted(w), "expected a non-negative integer")
                    })?,
                };
                Origin::Setup(DealSetup {
                    hands,
                    kitty,
                    level,
                    trump,
                    dealer: *dealer,
                    seed: *seed,
                    stream: *stream,
                    word_pos,
                })
            }
        })
    }
}
