//! The greedy policy of a [`Deal`] ([`crate::policy::Policy::Greedy`], rules in
//! [`crate::games::shengji::greedy`]).

use super::{Deal, Move};
use crate::error::Result;

impl Deal {
    /// The move of the greedy player for the seat to move (rules in
    /// [`crate::games::shengji::greedy`]); it sees only what that seat knows. Errors with
    /// `IllegalPlay` when the deal is over.
    pub fn greedy_move(&self) -> Result<Move> {
        self.basic_move()
    }
}
