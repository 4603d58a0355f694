//! One deal of any game behind one object type ([`AnyState`]), for callers that choose the game
//! at run time — the Python binding's single `GameState` class, the CLI, deal records. Moves
//! cross this boundary as text; everything else is the [`GameState`] contract unchanged.
//!
//! Every `S: GameState` is an `AnyState` (blanket impl), so a new game needs nothing here, and
//! algorithms generic over `GameState` stay monomorphised: `AnyState` is only the outer shell.

use crate::error::Result;
use crate::game::{GameRng, GameState, HistoryEntry, Observation, Phase, TensorField};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::search::Player;
use std::fmt::Debug;

/// A deal in progress of any game, moves as text (see [`GameState`] for every method's meaning).
pub trait AnyState: Debug + Send + Sync {
    fn num_players(&self) -> usize;
    fn current_player(&self) -> Option<usize>;
    fn phase(&self) -> Phase;
    fn is_terminal(&self) -> bool;
    fn returns(&self) -> Vec<f64>;

    /// At most `limit` legal moves as move text, in the game's order.
    fn legal_moves(&self, limit: usize) -> Vec<String>;
    fn count_legal_moves(&self) -> u64;
    /// A legal move drawn with the game's random-policy distribution, as text.
    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<String>;
    /// Parse `text` and check it: `Ok` when it is a legal move now.
    fn check_move(&self, text: &str) -> Result<()>;
    /// Parse, check and apply `text`; returns the move's canonical text.
    fn apply_move(&mut self, text: &str) -> Result<String>;
    /// The canonical text of `text` (parsed, not checked for legality).
    fn normalize_move(&self, text: &str) -> Result<String>;
    fn builtin_move(&mut self, policy: Policy) -> Result<String>;
    fn apply_builtin(&mut self, policy: Policy) -> Result<String>;
    /// The move `player` chooses for the seat to act (a search draws from `search`), not applied.
    fn player_move(&mut self, player: &Player, search: &mut GameRng) -> Result<String>;
    /// Choose with `player` and apply ([`Player::play`]); the move's text.
    fn apply_player(&mut self, player: &Player, search: &mut GameRng) -> Result<String>;

    fn num_distinct_actions(&self) -> usize;
    fn legal_actions(&self) -> Vec<usize>;
    fn legal_action_mask(&self, out: &mut [bool]);
    fn apply_action(&mut self, action: usize) -> Result<()>;
    fn action_to_string(&self, action: usize) -> Result<String>;
    fn string_to_action(&self, text: &str) -> Result<usize>;
    fn pending_cards(&self) -> Multiset;

    fn observation(&self, seat: usize) -> Result<Observation>;
    fn history_len(&self) -> usize;
    fn history_entry(&self, i: usize) -> HistoryEntry;
    /// The deal being played: 0, or `n` after the `n`-th redeal (Baohuang 黄局).
    fn deal_number(&self) -> u32;
    fn result_row(&self, row: &mut [i32]) -> Result<()>;

    fn seat_view(&self, seat: usize) -> Result<SeatView>;
    fn observation_layout(&self) -> Vec<TensorField>;
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()>;
    /// The card counts of at most `limit` legal moves (in `legal_moves` order), 54 per move, into
    /// `out` (cleared first); the number of moves.
    fn legal_move_features(&self, limit: usize, out: &mut Vec<u8>) -> usize;
    /// Apply move `index` of `legal_moves(limit)`; its text. `InvalidValue` naming the index
    /// when it is not below the number listed (the state unchanged).
    fn apply_move_index(&mut self, index: usize, limit: usize) -> Result<String>;

    /// A *world*: this deal with every card `seat` cannot see redrawn uniformly among the deals
    /// consistent with what it knows ([`crate::search::determinize::resample`]), the world's
    /// generator drawn from `rng`. Errors: a seat out of range, the game's.
    fn resample(&self, seat: usize, rng: &mut GameRng) -> Result<Box<dyn AnyState>>;

    /// An independent copy (its generator too).
    fn clone_box(&self) -> Box<dyn AnyState>;

    /// The concrete state, for the game-specific entry points that need it (e.g. recording a
    /// Shengji match hand).
    fn as_any(&self) -> &dyn std::any::Any;
}

impl Clone for Box<dyn AnyState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<S: GameState> AnyState for S {
    fn num_players(&self) -> usize {
        GameState::num_players(self)
    }
    fn current_player(&self) -> Option<usize> {
        GameState::current_player(self)
    }
    fn phase(&self) -> Phase {
        GameState::phase(self)
    }
    fn is_terminal(&self) -> bool {
        GameState::is_terminal(self)
    }
    fn returns(&self) -> Vec<f64> {
        GameState::returns(self)
    }

    fn legal_moves(&self, limit: usize) -> Vec<String> {
        GameState::legal_moves(self, limit).iter().map(|m| self.move_to_string(m)).collect()
    }
    fn count_legal_moves(&self) -> u64 {
        GameState::count_legal_moves(self)
    }
    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<String> {
        GameState::sample_legal_move(self, rng).map(|m| self.move_to_string(&m))
    }
    fn check_move(&self, text: &str) -> Result<()> {
        GameState::check_move(self, &self.parse_move(text)?)
    }
    fn apply_move(&mut self, text: &str) -> Result<String> {
        let mv = self.parse_move(text)?;
        GameState::apply_move(self, &mv)?;
        Ok(self.move_to_string(&mv))
    }
    fn normalize_move(&self, text: &str) -> Result<String> {
        Ok(self.move_to_string(&self.parse_move(text)?))
    }
    fn builtin_move(&mut self, policy: Policy) -> Result<String> {
        let mv = GameState::builtin_move(self, policy)?;
        Ok(self.move_to_string(&mv))
    }
    fn apply_builtin(&mut self, policy: Policy) -> Result<String> {
        let mv = GameState::apply_builtin(self, policy)?;
        Ok(self.move_to_string(&mv))
    }
    fn player_move(&mut self, player: &Player, search: &mut GameRng) -> Result<String> {
        let mv = player.choose(self, search)?;
        Ok(self.move_to_string(&mv))
    }
    fn apply_player(&mut self, player: &Player, search: &mut GameRng) -> Result<String> {
        let mv = player.play(self, search)?;
        Ok(self.move_to_string(&mv))
    }

    fn num_distinct_actions(&self) -> usize {
        GameState::num_distinct_actions(self)
    }
    fn legal_actions(&self) -> Vec<usize> {
        GameState::legal_actions(self)
    }
    fn legal_action_mask(&self, out: &mut [bool]) {
        GameState::legal_action_mask(self, out)
    }
    fn apply_action(&mut self, action: usize) -> Result<()> {
        GameState::apply_action(self, action)
    }
    fn action_to_string(&self, action: usize) -> Result<String> {
        GameState::action_to_string(self, action)
    }
    fn string_to_action(&self, text: &str) -> Result<usize> {
        GameState::string_to_action(self, text)
    }
    fn pending_cards(&self) -> Multiset {
        GameState::pending_cards(self)
    }

    fn observation(&self, seat: usize) -> Result<Observation> {
        GameState::observation(self, seat)
    }
    fn history_len(&self) -> usize {
        GameState::history_len(self)
    }
    fn history_entry(&self, i: usize) -> HistoryEntry {
        GameState::history_entry(self, i)
    }
    fn deal_number(&self) -> u32 {
        GameState::deal_number(self)
    }
    fn result_row(&self, row: &mut [i32]) -> Result<()> {
        GameState::result_row(self, row)
    }

    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        GameState::seat_view(self, seat)
    }
    fn observation_layout(&self) -> Vec<TensorField> {
        GameState::observation_layout(self)
    }
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        GameState::write_observation_tensor(self, seat, perfect, out)
    }
    fn legal_move_features(&self, limit: usize, out: &mut Vec<u8>) -> usize {
        out.clear();
        let moves = GameState::legal_moves(self, limit);
        for mv in &moves {
            out.extend_from_slice(&self.move_cards(mv).counts());
        }
        moves.len()
    }

    fn apply_move_index(&mut self, index: usize, limit: usize) -> Result<String> {
        let moves = GameState::legal_moves(self, limit);
        let Some(mv) = moves.get(index) else {
            return Err(crate::error::ZhipaiError::invalid_value(
                "move index",
                index,
                format!(
                    "{} legal moves are listed (legal_moves(limit={limit})){}",
                    moves.len(),
                    if moves.is_empty() { "" } else { ", indices from 0" }
                ),
            ));
        };
        GameState::apply_move(self, mv)?;
        Ok(self.move_to_string(mv))
    }

    fn resample(&self, seat: usize, rng: &mut GameRng) -> Result<Box<dyn AnyState>> {
        crate::game::check_seat(seat, GameState::num_players(self))?;
        Ok(Box::new(crate::search::determinize::resample(self, seat, rng)?))
    }

    fn clone_box(&self) -> Box<dyn AnyState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
