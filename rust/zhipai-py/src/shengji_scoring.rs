//! Python binding: Shengji declaring (shengji.md §2.2–§2.3) and scoring (§8).
//!
//! Plain tuples out; `zhipai.shengji.scoring` turns them into documented dicts.

use crate::convert;
use crate::errors::guard;
use crate::rules::PyRules;
use crate::simulate::{
    builtin_policy_arg, clean_return, finished_row, move_arg, move_error, seat_arg, seed_index,
    History, Step, MOVE_LIST_LIMIT,
};
use pyo3::prelude::*;
use zhipai_core::games::shengji::chaodi::check_chaodi;
use zhipai_core::games::shengji::declare::check_declarations;
use zhipai_core::games::shengji::declare::Bid;
use zhipai_core::games::shengji::declare::NoDeclaration;
use zhipai_core::games::shengji::scoring::Level;
use zhipai_core::games::shengji::scoring::Side;
use zhipai_core::games::shengji::session::Match;
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

/// One Shengji deal as a state machine (`zhipai.shengji.Deal` wraps it; shengji.md §1–§8).
#[pyclass(name = "ShengjiDeal", module = "zhipai")]
#[derive(Clone)]
pub struct PyDeal(pub(crate) Deal);

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Dealing => "dealing",
        Phase::Burying => "burying",
        Phase::Chaodi => "chaodi",
        Phase::Playing => "playing",
        Phase::Done => "done",
    }
}

/// The phase names of `ShengjiGameState`, shared by every game's `GameState`: the play phase is
/// `"play"` and the end `"done"` everywhere.
fn state_phase(p: Phase) -> &'static str {
    match p {
        Phase::Playing => "play",
        other => phase_name(other),
    }
}

#[pymethods]
impl PyDeal {
    /// `ShengjiDeal(rules, level="2", dealer=None, seed=0)`: shuffle and deal up to the first
    /// decision. `dealer=None` is hand 1 (the declaration decides the dealer). `level="NT"` is
    /// the joker-only level (only with `after_A="no_trump_level"`).
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
            let level = r.scoring.parse_level("level", level)?;
            let mut rng = zhipai_core::deal::deal_rng(seed, 0);
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

    /// The level rank symbol, or "NT" on the joker-only level.
    #[getter]
    fn level(&self) -> String {
        self.0.level().map_or("NT".to_string(), |r| r.symbol().to_string())
    }

    /// The seat that buried the kitty (dealer or last 炒底 overcaller) once one lies buried.
    #[getter]
    fn kitty_owner(&self) -> Option<u8> {
        self.0.kitty_owner()
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

    /// Legal bids of the player to move (dealing and 炒底 phases).
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
                    let level = self.0.declaring().level().ok_or_else(|| {
                        ZhipaiError::illegal_play(
                            format!("declare {cards}"),
                            "nobody declares on the joker-only level",
                        )
                    })?;
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
                ("chaodi", r.chaodi as i64),
                ("last_trick_single_jack", r.last_trick_single_jack as i64),
            ]
        })
    }

    fn clone(&self) -> Self {
        PyDeal(self.0.clone())
    }
}

/// A Shengji match (`zhipai.shengji.Match` wraps it; shengji.md §1.1, §2.3, §8.5): deals in
/// sequence with every player's level, the seating and the dealer rotation.
#[pyclass(name = "ShengjiMatch", module = "zhipai")]
pub struct PyMatch {
    m: Match,
    seed: u64,
    /// Deals issued: deal i draws its seating and shuffle from `deal_rng(seed, i)`.
    issued: u64,
}

impl PyMatch {
    fn issue(&mut self) -> Result<Deal> {
        let mut rng = zhipai_core::deal::deal_rng(self.seed, self.issued);
        let d = self.m.next_deal(&mut rng)?;
        self.issued += 1;
        Ok(d)
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

    /// The next deal (redraws the seating under `random_partners_each_hand`).
    fn next_deal(&mut self) -> PyResult<PyDeal> {
        guard(|| Ok(PyDeal(self.issue()?)))
    }

    /// Apply a finished deal of this match: only the deal the last `next_deal` returned, once
    /// (`IllegalPlayError` "deal already recorded" / "not the match's current deal").
    fn record(&mut self, deal: &PyDeal) -> PyResult<()> {
        guard(|| self.m.record(&deal.0))
    }

    /// Deal, play to the end with `policy` ("random" or "greedy") and record; returns the deal.
    #[pyo3(signature = (policy="random"))]
    fn play_hand(&mut self, policy: &str) -> PyResult<PyDeal> {
        let policy = match policy {
            "random" => Policy::Random,
            "greedy" => Policy::Greedy,
            other => {
                return Err(crate::errors::to_py(ZhipaiError::invalid_value(
                    "policy",
                    other,
                    "expected random or greedy",
                )))
            }
        };
        guard(|| {
            let mut d = self.issue()?;
            d.play_out(policy)?;
            self.m.record(&d)?;
            Ok(PyDeal(d))
        })
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

// ------------------------------------------------------------------------------------------
// Step-wise play for Python policies (`zhipai.Game(rules).new_deal(seed, index)`): the deal,
// the public history and the bookkeeping an observation needs. Move text: `pass`,
// `declare 2H 2H`, `bury <cards>`, `play <cards>` (the `Move` display).

/// One Shengji deal (hand 1 at level 2, as `zhipai.simulate` plays it) for step-by-step play by
/// any mix of Python callables and built-in policies. See `zhipai.policy.GameState`.
#[pyclass(name = "ShengjiGameState", module = "zhipai", from_py_object)]
#[derive(Clone)]
pub struct PyShengjiGameState {
    pub(crate) deal: Deal,
    history: History,
    /// The dealer's burial, once made (seen by the dealer only).
    buried: Option<Multiset>,
    /// The current trick as (seat, cards played).
    trick: Vec<(usize, Multiset)>,
    /// Card points won in completed tricks, per seat.
    won: [i32; 4],
    tricks: u32,
}

fn parse_shengji_move(deal: &Deal, text: &str) -> Result<Move> {
    let t = text.trim();
    let (kind, cards) = t.split_once(' ').unwrap_or((t, ""));
    Ok(match kind.to_ascii_lowercase().as_str() {
        "pass" if cards.trim().is_empty() => Move::Pass,
        "declare" => {
            let level = deal.declaring().level().ok_or_else(|| {
                ZhipaiError::illegal_play(text, "nobody declares on the joker-only level")
            })?;
            Move::Declare(Bid::from_cards(&parse_cards(cards)?, level, deal.rules().decks)?)
        }
        "bury" => Move::Bury(cards.parse()?),
        "play" => Move::Play(cards.parse()?),
        _ => {
            return Err(ZhipaiError::invalid_value(
                "move",
                crate::simulate::quoted(text),
                "expected 'pass', 'declare <cards>', 'bury <cards>' or 'play <cards>'",
            ))
        }
    })
}

/// Legal burials of `k` cards (up to [`MOVE_LIST_LIMIT`]) in card order: sorted card lists
/// extending `cur` with kinds from `min` on, walked with the deal's card-by-card action mask,
/// which holds exactly the cards that still complete a legal burial (so the
/// `kitty_bury_restrictions` are met without trying the millions of illegal ones).
fn burials(
    d: &Deal,
    hand: &Multiset,
    cur: Multiset,
    min: usize,
    k: usize,
    out: &mut Vec<Multiset>,
) {
    let mask = d.legal_action_mask();
    for kind in min..zhipai_core::NUM_KINDS {
        if out.len() >= MOVE_LIST_LIMIT {
            return;
        }
        let card = zhipai_core::Card::from_index(kind).expect("kind < 54");
        // Cards of kinds ≥ `kind` still unused must fill the rest of the burial.
        let left: usize = (kind..zhipai_core::NUM_KINDS)
            .filter_map(zhipai_core::Card::from_index)
            .map(|c| hand.count(c) - cur.count(c))
            .sum();
        if mask & (1 << kind) == 0 || left < k - cur.len() {
            continue;
        }
        let mut next = cur;
        next.add(card);
        if next.len() == k {
            out.push(next);
        } else {
            let mut d2 = d.clone();
            if d2.apply_action(kind).is_ok() {
                burials(&d2, hand, next, kind, k, out);
            }
        }
    }
}

impl PyShengjiGameState {
    /// Apply `mv` for the seat to move and record it (history, trick, points).
    fn step(&mut self, mv: Move) -> Result<()> {
        let seat = self.deal.current_player().map_or(0, usize::from);
        let leading = self.deal.phase() == Phase::Playing && self.trick.is_empty();
        self.deal.apply(mv)?;
        match mv {
            Move::Bury(m) => {
                self.buried = Some(m);
                self.history.push(Step::hidden(seat, "bury", format!("bury {m}")));
            }
            Move::Play(m) => {
                // A failed throw is reduced to its forced part: record what was played.
                let played = if leading {
                    self.deal.current_trick().first().copied().unwrap_or(m)
                } else {
                    m
                };
                let text = if played == m {
                    format!("play {played}")
                } else {
                    format!("play {played} (failed throw {m})")
                };
                self.history.push(Step::public(seat, text));
                self.trick.push((seat, played));
                if self.trick.len() == 4 {
                    self.finish_trick()?;
                }
            }
            // A seat is asked only when it holds a legal declaration, so even its pass would
            // tell the others it received a level card or joker: passes are secret.
            Move::Pass => self.history.push(Step::secret(seat, "pass")),
            other => self.history.push(Step::public(seat, other.to_string())),
        }
        Ok(())
    }

    fn finish_trick(&mut self) -> Result<()> {
        let tr = self.deal.trick_rules().expect("trick rules exist in play");
        let plays: Vec<Multiset> = self.trick.iter().map(|(_, m)| *m).collect();
        let w = zhipai_core::tricks::trick_winner(tr, &plays)?;
        let points: i32 = plays.iter().flat_map(|m| m.iter()).map(|c| c.points() as i32).sum();
        self.won[self.trick[w].0] += points;
        self.tricks += 1;
        self.trick.clear();
        Ok(())
    }

    fn builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<Move> {
        let p = builtin_policy_arg(policy)?;
        guard(|| match p {
            Policy::Random => self.deal.random_move(),
            Policy::Greedy => self.deal.greedy_move(),
        })
    }
}

#[pymethods]
impl PyShengjiGameState {
    /// `new_deal(rules, seed=0, index=0)`: deal `index` of a `zhipai.simulate` run seeded with
    /// `seed` (the same cards and chance events), up to its first decision.
    #[staticmethod]
    #[pyo3(signature = (rules, seed, index))]
    fn new_deal(
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (seed, index) = seed_index(seed, index)?;
        guard(|| {
            let r = shengji(rules)?;
            let deal =
                Deal::new(r, Rank::TWO, None, &mut zhipai_core::deal::deal_rng(seed, index))?;
            Ok(PyShengjiGameState {
                deal,
                history: History::default(),
                buried: None,
                trick: Vec::new(),
                won: [0; 4],
                tricks: 0,
            })
        })
    }

    /// Number of seats (4).
    #[getter]
    fn num_players(&self) -> usize {
        4
    }

    fn current_player(&self) -> Option<u8> {
        self.deal.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.deal.is_terminal()
    }

    /// Legal moves of the seat to move, in a deterministic order: every declaration (`pass`
    /// first); burials: the first 1000 legal ones in card order (any legal burial may be
    /// applied); leads: every legal lead when there are at most 1000, else every single-unit
    /// lead and each suit's whole holding when it is a throw (the random policy's candidates;
    /// other throws of one suit are legal too); follows: the first 1000 legal follows. `[]`
    /// once over.
    fn legal_moves(&self) -> Vec<String> {
        let d = &self.deal;
        let Some(p) = d.current_player() else { return Vec::new() };
        let play = |m: &Multiset| format!("play {m}");
        match d.phase() {
            Phase::Dealing | Phase::Chaodi => std::iter::once("pass".to_string())
                .chain(d.legal_bids().iter().map(|b| format!("declare {b}")))
                .collect(),
            Phase::Burying => {
                let (_, k) = zhipai_core::games::shengji::state::hand_and_kitty(d.rules().decks);
                let mut out = Vec::new();
                burials(d, &d.hand(p), Multiset::EMPTY, 0, k, &mut out);
                out.iter().map(|m| format!("bury {m}")).collect()
            }
            Phase::Playing => {
                let tr = d.trick_rules().expect("trick rules exist in play");
                let hand = d.hand(p);
                let mut out = Vec::new();
                match d.current_trick().first() {
                    None => match zhipai_core::tricks::lead_candidates::all_leads(
                        tr,
                        &hand,
                        MOVE_LIST_LIMIT,
                    ) {
                        Some(leads) => out = leads.iter().map(play).collect(),
                        None => zhipai_core::tricks::lead_candidates::for_each_lead_candidate(
                            tr,
                            &hand,
                            &mut |m| {
                                out.push(play(m));
                                std::ops::ControlFlow::Continue(())
                            },
                        ),
                    },
                    Some(lead) => {
                        if let Ok(format) = zhipai_core::tricks::check_lead(tr, lead, None) {
                            if let Ok(moves) =
                                zhipai_core::tricks::FollowMoves::new(tr, &format, &hand)
                            {
                                out = moves.enumerate(MOVE_LIST_LIMIT).iter().map(play).collect();
                            }
                        }
                    }
                }
                out
            }
            Phase::Done => Vec::new(),
        }
    }

    /// Apply `move` (text as in `legal_moves`, any legal move) for the seat to move. Raises
    /// `IllegalPlayError` (naming the move and the rule) or `InvalidCardError` /
    /// `InvalidValueError` for text that is not a move; the state is then unchanged.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = move_arg(r#move)?;
        guard(|| {
            let mv = parse_shengji_move(&self.deal, &text)?;
            self.step(mv).map_err(move_error)
        })
    }

    /// The move built-in `policy` ("random" or "greedy") chooses for the seat to move, without
    /// applying it (drawn from the deal's own generator, as `zhipai.simulate` does).
    fn builtin_move(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.builtin(policy)?.to_string())
    }

    /// Apply the move of built-in `policy` and return its text.
    fn apply_builtin(&mut self, policy: &Bound<'_, PyAny>) -> PyResult<String> {
        let mv = self.builtin(policy)?;
        guard(|| self.step(mv))?;
        Ok(mv.to_string())
    }

    /// The phase as every game's `GameState` names it: `"dealing"`, `"burying"`, `"play"`,
    /// `"done"` (the `observation` key `phase`; `ShengjiDeal.phase` says `"playing"`).
    #[getter]
    fn phase(&self) -> &'static str {
        state_phase(self.deal.phase())
    }

    /// What `seat` sees, as a dict (keys documented in `zhipai.policy`).
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let seat = seat_arg(seat, 4)?;
        let d = &self.deal;
        let o = pyo3::types::PyDict::new(py);
        o.set_item("game", "shengji")?;
        o.set_item("seat", seat)?;
        o.set_item("phase", state_phase(d.phase()))?;
        // While dealing, who is asked is private for the same reason (see `step`).
        // 炒底 offers too: a seat is offered only when it holds a stronger declaration.
        let private = matches!(d.phase(), Phase::Dealing | Phase::Chaodi);
        let asked = d.current_player().filter(|&p| !private || p == seat as u8);
        o.set_item("current_player", asked)?;
        o.set_item("level", d.level().map_or("NT".to_string(), |r| r.to_string()))?;
        o.set_item("dealer", d.dealer())?;
        o.set_item(
            "trump",
            d.trump().map(|t| t.map_or("NT".to_string(), |s| s.letter().to_string())),
        )?;
        o.set_item("declaration", d.declaring().winner().map(|(p, b)| (p, b.to_string())))?;
        o.set_item("hand", d.hand(seat as u8).to_string())?;
        // The last burial is seen by its burier (the dealer, or a 炒底 overcaller once buried).
        let own_kitty = d.kitty_owner().or(d.dealer()) == Some(seat as u8);
        o.set_item("kitty", self.buried.filter(|_| own_kitty).map(|m| m.to_string()))?;
        o.set_item("hand_sizes", (0..4u8).map(|p| d.hand(p).len()).collect::<Vec<_>>())?;
        o.set_item(
            "current_trick",
            self.trick.iter().map(|(s, m)| (*s, m.to_string())).collect::<Vec<_>>(),
        )?;
        o.set_item("points_won", self.won.to_vec())?;
        o.set_item("tricks", self.tricks)?;
        o.set_item("history", self.history.view(py, seat)?)?;
        Ok(o)
    }

    /// The deal's result row (columns of `zhipai.simulate`), once over.
    fn result_row(&self) -> PyResult<Vec<i32>> {
        let rules = Rules::Shengji(self.deal.rules().clone());
        finished_row(&rules, self.deal.is_terminal(), |row| {
            let r = self.deal.result().expect("a finished deal has a result");
            self.deal.rules().write_row(r, row);
            Ok(())
        })
    }

    /// Zero-sum returns per seat once over (levels gained, negative for the other side), zeros
    /// before.
    fn returns(&self) -> [f64; 4] {
        self.deal.returns().unwrap_or([0.0; 4]).map(clean_return)
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "ShengjiGameState(phase='{}', current_player={})",
            state_phase(self.deal.phase()),
            crate::simulate::py_opt(self.deal.current_player())
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeal>()?;
    m.add_class::<PyMatch>()?;
    m.add_class::<PyShengjiGameState>()?;
    m.add_function(wrap_pyfunction!(shengji_declare, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_chaodi, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_change, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_jj_score, m)?)?;
    m.add_function(wrap_pyfunction!(shengji_level_advance, m)?)?;
    Ok(())
}
