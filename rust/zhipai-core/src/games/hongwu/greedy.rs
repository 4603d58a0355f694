//! The greedy Hong Wu player (placeholder).

use super::state::{Action, HongWuState};

/// The greedy player's action in `state` (which must not be over).
pub fn greedy_action(state: &HongWuState) -> Action {
    super::policy::choose(state, crate::policy::Policy::Basic, &mut crate::deal::deal_rng(0, 0))
}
