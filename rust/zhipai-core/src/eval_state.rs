//! Monte Carlo evaluation of a deal in progress, for every game, on the game contract: from the
//! point of view of one seat, sample worlds consistent with what it knows
//! ([`crate::search::Determinizer`]), apply each candidate move in each world, play the world out
//! with a rollout player, and report the game's result columns plus `seat_return` (the seat's
//! own return: levels gained by its team in the Shengji family, its score in Hong Wu, Gongzhu and
//! Baohuang) per candidate.
//!
//! * Common random numbers: sample `s` draws its world from `deal_rng(seed, s)` and every
//!   candidate is played from a clone of that world (same hidden cards, same generator), so
//!   differences between candidates are paired.
//! * Candidates are moves of the seat to act, as move text; the default is every legal move up to
//!   `limit` in the game's order, and the result says how many moves were legal, so a cut is
//!   never silent. When the evaluated seat is not to act, the default candidate is the rollout
//!   player's own move (the value of the position); given candidates are then **its next
//!   decision**: in each sample the rollout player plays up to the seat's turn, and a candidate
//!   that is not legal there (a bid below the current one, a card it must not play) is not
//!   played — the player decides instead and the column [`CANDIDATE_PLAYED`] says so, sample by
//!   sample, so it is counted, never an abort (hand evaluation with moves, e.g. Hong Wu bids).
//! * Parallelism, determinism, progress and cancellation come from the simulation driver
//!   ([`crate::rollout::run_rows`]); the result is identical for any thread count.

use crate::arena::whole_return;
use crate::deal::Constraints;
use crate::error::{Result, ZhipaiError};
use crate::game::{Column, Game, GameState};
use crate::record::TrackedDeal;
use crate::rollout::{run_rows, Control, Run, RunOptions};
use crate::search::Player;
use rand_chacha::ChaCha8Rng;

/// The column added to the game's result columns.
pub const SEAT_RETURN: Column = Column {
    name: "seat_return",
    doc: "the evaluated seat's return: levels gained by its team (Shengji family), its score \
          (Hong Wu, Gongzhu, Baohuang); negative when it loses",
};

/// The column added when candidates are the seat's next decision (module docs).
pub const CANDIDATE_PLAYED: Column = Column {
    name: "candidate_played",
    doc: "1 when the candidate was played at the seat's next decision, 0 when it was not legal \
          there (or the deal ended first) and the rollout player decided instead",
};

/// The rollouts of a state evaluation: `data[c * columns.len() + k][s]` = column `k` of
/// candidate `c` on sample `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct StateEvaluation {
    pub columns: Vec<Column>,
    /// Move text of each candidate; `None` = the rollout player's own move.
    pub candidates: Vec<Option<String>>,
    pub data: Vec<Vec<i32>>,
    /// Legal moves of the seat in the position (0 when it is not to act).
    pub legal: u64,
}

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct StateRequest<'a> {
    pub seat: usize,
    /// Candidate moves as text (`None` entries: the rollout player decides); `None` = the default
    /// (every legal move up to `limit`, or the rollout player's move when the seat is not to act).
    pub candidates: Option<Vec<Option<String>>>,
    pub limit: usize,
    /// Knowledge beyond the game's record, merged into the seat's view.
    pub extra: &'a Constraints,
    /// The player of every seat in the rollouts (the evaluated seat too, after the candidate).
    pub rollout: &'a Player,
}

/// Evaluate `state` for `req.seat` with `opts.deals` samples seeded by `opts.seed` (see the
/// module docs; `opts.policy` is not read: the rollout player is `req.rollout`).
///
/// Errors: `InvalidValue` for a seat out of range or a finished deal, or a move being built card
/// by card; a candidate's text the game cannot read; `IllegalPlay` for a candidate that is not
/// legal now while the seat is to act (naming it); `ImpossibleDeal` for knowledge no deal satisfies; the game's error
/// for a failing rollout (naming the sample).
pub fn evaluate_state<G: Game>(
    game: &G,
    state: &G::State,
    req: &StateRequest<'_>,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<StateEvaluation>> {
    check_position(state, req.seat)?;
    let (candidates, moves, legal, deferred) = resolve_candidates(state, req)?;
    let mut view = state.seat_view(req.seat)?;
    view.merge_known(req.extra);
    let hidden = view.dealer()?;
    let mut columns = game.columns();
    let results = columns.len();
    columns.push(SEAT_RETURN);
    if deferred {
        columns.push(CANDIDATE_PLAYED);
    }
    let width = columns.len();
    let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| -> Result<()> {
        let mut world = state.with_hidden(req.seat, &hidden.deal(rng), rng)?;
        let mut search = rng.clone();
        if deferred {
            // Up to the seat's next decision, once for every candidate (common random numbers).
            while world.current_player().is_some_and(|p| p != req.seat) {
                req.rollout.play(&mut world, &mut search)?;
            }
        }
        for (c, mv) in moves.iter().enumerate() {
            let mut w = world.clone(); // common random numbers
            let played = match mv {
                Some(m) if !deferred || w.is_legal(m) => {
                    w.apply_move_unchecked(m);
                    true
                }
                _ if w.is_terminal() => false,
                _ => {
                    req.rollout.play(&mut w, &mut search)?;
                    mv.is_none()
                }
            };
            finish(&mut w, req.rollout, &mut search)?;
            let out = &mut row[c * width..(c + 1) * width];
            w.result_row(&mut out[..results])?;
            out[results] = whole_return(w.returns()[req.seat])?;
            if deferred {
                out[results + 1] = played as i32;
            }
        }
        Ok(())
    };
    let run = run_rows(width * moves.len(), opts, ctl, &play)?;
    Ok(run.map(|data| StateEvaluation { columns, candidates, data, legal }))
}

/// [`evaluate_state`] on a deal of any game ([`TrackedDeal`]).
pub fn evaluate_tracked(
    deal: &TrackedDeal,
    req: &StateRequest<'_>,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<StateEvaluation>> {
    fn go<G: Game>(
        g: &G,
        any: &dyn crate::any_state::AnyState,
        req: &StateRequest<'_>,
        opts: &RunOptions,
        ctl: Control<'_>,
    ) -> Result<Run<StateEvaluation>> {
        let state = any.as_any().downcast_ref::<G::State>().ok_or_else(|| {
            ZhipaiError::invalid_value(
                "deal",
                "a state of another game",
                "does not match its rules",
            )
        })?;
        evaluate_state(g, state, req, opts, ctl)
    }
    crate::with_game!(&deal.rules, g => go(g, deal.state.as_ref(), req, opts, ctl))
}

/// A position the seat can be evaluated from.
fn check_position<S: GameState>(state: &S, seat: usize) -> Result<()> {
    crate::game::check_seat(seat, state.num_players())?;
    if state.is_terminal() {
        return Err(ZhipaiError::invalid_value(
            "deal",
            "(phase done)",
            "the deal is over: nothing left to evaluate",
        ));
    }
    if !state.pending_cards().is_empty() {
        return Err(ZhipaiError::invalid_value(
            "deal",
            format!("(half-built move {})", state.pending_cards()),
            "finish the card-by-card move, or evaluate before its first card",
        ));
    }
    Ok(())
}

/// The candidates' text and moves, the number of legal moves, and whether the candidates are
/// the seat's next decision (it is not to act now; module docs).
type Candidates<M> = (Vec<Option<String>>, Vec<Option<M>>, u64, bool);

fn resolve_candidates<S: GameState>(
    state: &S,
    req: &StateRequest<'_>,
) -> Result<Candidates<S::Move>> {
    let to_act = state.current_player() == Some(req.seat);
    let legal = if to_act { state.count_legal_moves() } else { 0 };
    let mut deferred = false;
    let texts: Vec<Option<String>> = match &req.candidates {
        Some(c) if !c.is_empty() => {
            deferred = !to_act && c.iter().any(Option::is_some);
            c.clone()
        }
        _ if to_act => state
            .legal_moves(req.limit.max(1))
            .iter()
            .map(|m| Some(state.move_to_string(m)))
            .collect(),
        _ => vec![None],
    };
    let mut moves = Vec::with_capacity(texts.len());
    let mut canonical = Vec::with_capacity(texts.len());
    for t in &texts {
        match t {
            None => {
                moves.push(None);
                canonical.push(None);
            }
            Some(text) => {
                // The text is read now (a typo is an error); legality is checked now when the
                // seat is to act, else in each sample at its turn.
                let m = state.parse_move(text)?;
                if !deferred {
                    state.check_move(&m)?;
                }
                canonical.push(Some(state.move_to_string(&m)));
                moves.push(Some(m));
            }
        }
    }
    for (i, c) in canonical.iter().enumerate() {
        if canonical[..i].contains(c) {
            let shown = c.as_deref().unwrap_or("policy (None)");
            let given: Vec<String> = texts
                .iter()
                .map(|t| t.as_ref().map_or("None".into(), |t| format!("{t:?}")))
                .collect();
            return Err(ZhipaiError::invalid_value(
                "candidates",
                format!("[{}]", given.join(", ")),
                format!("{shown} is given twice (the same move)"),
            ));
        }
    }
    Ok((canonical, moves, legal, deferred))
}

/// Play `state` to the end with `player` for every seat (the fast path for a built-in policy).
fn finish<S: GameState>(
    state: &mut S,
    player: &Player,
    search: &mut crate::game::GameRng,
) -> Result<()> {
    match player {
        Player::Builtin(p) => state.play_out(*p),
        _ => {
            while !state.is_terminal() {
                player.play(state, search)?;
            }
            Ok(())
        }
    }
}
