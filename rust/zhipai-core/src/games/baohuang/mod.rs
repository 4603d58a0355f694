//! Qingdao Baohuang 青岛保皇 (baohuang.md, seed 003): five players, four decks with jokers (216
//! cards), a climbing game with a hidden partnership.
//!
//! One module per concept:
//! * [`options`] — [`BaohuangRules`], every option of the digest's list;
//! * [`moves`] — plays as [`Shape`]s, the beating rule, move generation (enumerate / count /
//!   nth / sample / check);
//! * [`accession`] — 登基 / 逼位 card options;
//! * [`round`] — turn order in a round: 顺牌, 过牌, 让牌, 底牌, 接风;
//! * [`state`] — a whole deal as a [`State`] with OpenSpiel-style verbs;
//! * [`scoring`] — group and solo score tables;
//! * [`policy`] — the built-in players (random, [`greedy`], [`basic`]) and the [`DealSimulator`]
//!   impl;
//! * [`play_cards`] — plays as cards ([`CardMove`]): the move list with the 登基-card choice,
//!   the count of every choice of suits, completions of a partial play;
//! * [`observe`] — what one seat sees (the trait's observation);
//! * [`actions`] — the fixed integer action space (cards one by one, `stop`, words, `ascend`);
//! * [`history`] — the recorded moves, and a deal as search and tensors read it;
//! * [`search`] — determinisation: what a seat knows, worlds drawn from it;
//! * [`tensor`] — the observation tensor (layout and writer);
//! * [`game`] — the game trait: [`DealState`] and `impl Game for BaohuangRules`.
//!
//! [`DealSimulator`]: crate::simulator::DealSimulator

pub mod accession;
pub mod actions;
pub mod basic;
pub mod game;
#[cfg(test)]
mod game_tests;
pub mod greedy;
pub mod history;
pub mod moves;
pub mod observe;
pub mod options;
pub mod play_cards;
pub mod policy;
pub mod round;
pub mod scoring;
pub mod search;
#[cfg(test)]
mod search_tests;
pub mod state;
pub mod stepwise;
pub mod tensor;
#[cfg(test)]
mod tensor_tests;

pub use accession::{ascension_options, Ascension};
pub use game::DealState;
pub use moves::{beats, HandCounts, Shape};
pub use options::BaohuangRules;
pub use play_cards::CardMove;
pub use round::{Response, Round};
pub use scoring::{score, Mode, Score};
pub use state::{Move, Phase, State};

use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;

/// The shape of a card list as one play (§C.4). Errors with `IllegalPlay` naming the cards when
/// they are not one well-formed play (empty, or naturals of two ranks).
pub fn parse_play(cards: &Multiset) -> Result<Shape> {
    moves::shape_of(cards, None).map_err(|why| ZhipaiError::illegal_play(cards, why))
}

/// One action of a round as written in the rule cases: a play or a non-play response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundAction {
    Play(Multiset),
    Pass,
    Yield,
    Jiefeng,
}

/// Replay one round and name who opens the next one (§C.6, §C.7; check `baohuang_round`).
/// `actions` are `(seat, action)` in time order, seats 0..5 in playing order, the first action
/// being the lead; `out` lists the seats whose play was their last cards. All five players hold
/// cards at the start. Errors with `IllegalPlay` for an action out of turn or not allowed, and
/// `InvalidValue` when the round is not over after the last action.
pub fn round_next_leader(
    rules: &BaohuangRules,
    actions: &[(u8, RoundAction)],
    out: &[u8],
) -> Result<u8> {
    let mut round: Option<Round> = None;
    for (i, (seat, action)) in actions.iter().enumerate() {
        if *seat >= 5 {
            return Err(ZhipaiError::invalid_value("seat", seat, "expected 0..5"));
        }
        let finished = out.contains(seat);
        let r = round.get_or_insert_with(|| Round::new(*seat, 0b11111));
        if r.over {
            return Err(ZhipaiError::illegal_play(
                format!("action {i}"),
                "the round is already over",
            ));
        }
        if r.turn != *seat {
            return Err(ZhipaiError::illegal_play(
                format!("action {i} by seat {seat}"),
                format!("it is seat {}'s turn", r.turn),
            ));
        }
        let response = match action {
            RoundAction::Play(cards) => {
                let shape = parse_play(cards)?;
                if r.leading {
                    r.lead(shape, finished);
                    continue;
                }
                Response::Play(shape)
            }
            RoundAction::Pass => Response::Pass,
            RoundAction::Yield => Response::Yield,
            RoundAction::Jiefeng => Response::Jiefeng,
        };
        if r.leading {
            return Err(ZhipaiError::illegal_play(
                format!("action {i}"),
                "a round opens with a play (开牌)",
            ));
        }
        r.respond(response, finished, rules)
            .map_err(|why| ZhipaiError::illegal_play(format!("action {i} by seat {seat}"), why))?;
    }
    match round {
        Some(r) if r.over => r
            .next_leader()
            .ok_or_else(|| ZhipaiError::invalid_value("actions", "", "nobody is left")),
        Some(r) => Err(ZhipaiError::invalid_value(
            "actions",
            actions.len(),
            format!("the round is not over: seat {} is to act", r.turn),
        )),
        None => Err(ZhipaiError::invalid_value("actions", "[]", "a round needs at least the lead")),
    }
}
