//! Gongzhu 拱猪 (Chase the Pig), QQ rule set (seed 000, shared/rules/gongzhu.md §A), one or two
//! decks, individual or partnership play.
//!
//! * [`options`]: [`GongzhuRules`], every option of the digest's options list.
//! * [`play`]: plays, legal leads/follows with the exposed-card restriction, trick winner.
//! * [`scoring`]: raw scores (hearts, pig, sheep, transformer, exposure, all hearts, grand slam)
//!   and the per-deal result (QQ normalisation, partnership).
//! * [`state`]: one deal as a game state (OpenSpiel-style verbs and action codes).
//! * [`game`]: the deal through the one game contract ([`DealState`], `impl Game for
//!   GongzhuRules`): its own generator, history, observation and the action-space table;
//!   search support (`seat_view`, `with_hidden`, `play_out`) and the observation tensor.
//! * [`text`]: the move text (`expose QS`, `expose closed QS`, `end exposure`, plays as cards).
//! * [`session`]: a match: deals led by the previous pig-taker, accumulated results.
//! * [`fast`]: the allocation-free one-deck random rollout used by simulations.
//! * [`policy`]: the built-in players (`random`, `greedy`, `basic`) and playing a deal out.
//! * [`greedy`]: the rule-based `greedy` player (the rollout policy of search players).
//! * [`basic`]: the first-generation rule-based player, kept as a baseline (`basic`).
//! * [`row`]: the result columns and how a finished deal fills them.
//! * [`simulator`]: whole deals for `simulate` (the `DealSimulator` contract).
//! * [`evaluate`]: the hand-evaluation hook (play from a given deal, forced first action).
//! * [`view`]: determinisation for search: what a seat knows, and worlds drawn from it.
//! * [`tensor`]: the observation tensor (layout table and writer).

pub mod basic;
pub mod evaluate;
pub mod fast;
pub mod game;
pub mod greedy;
pub mod options;
pub mod play;
pub mod policy;
pub mod row;
pub mod scoring;
pub mod session;
pub mod simulator;
pub mod state;
pub mod stepwise;
pub mod tensor;
pub mod text;
pub mod view;

pub use game::DealState;
pub use options::GongzhuRules;
pub use play::{check_play, legal_plays, trick_winner, Play, Position};
pub use scoring::{score_deal, DealScore, Exposure};
pub use session::Match;
pub use state::{Move, Opening, Phase, State, NUM_ACTIONS};

#[cfg(test)]
mod game_info_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod greedy_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tensor_tests;
#[cfg(test)]
mod tests;
