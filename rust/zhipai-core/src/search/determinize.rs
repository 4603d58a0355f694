//! Determinisation: worlds consistent with what one seat knows, for every game, on the game
//! contract ([`GameState::seat_view`], [`GameState::with_hidden`]).
//!
//! A [`Determinizer`] builds the exact sampler of the hidden cards once per decision (the
//! constrained dealer of [`crate::deal`]: the cards the seat cannot see are dealt uniformly among
//! the deals consistent with its knowledge, no rejection), then draws any number of worlds.

use crate::error::Result;
use crate::game::{GameRng, GameState};
use crate::knowledge::HiddenDealer;

/// Draws worlds of `state` as `seat` sees it.
#[derive(Debug)]
pub struct Determinizer<'a, S: GameState> {
    state: &'a S,
    seat: usize,
    dealer: HiddenDealer,
}

impl<'a, S: GameState> Determinizer<'a, S> {
    /// The sampler of what `seat` cannot see in `state`. Errors: the game's (a seat out of range,
    /// a game without determinisation) or `ImpossibleDeal` when the knowledge admits no deal.
    pub fn new(state: &'a S, seat: usize) -> Result<Self> {
        let dealer = state.seat_view(seat)?.dealer()?;
        Ok(Determinizer { state, seat, dealer })
    }

    /// The seat whose knowledge the worlds keep.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// One world: the hidden cards drawn uniformly among the consistent deals, the world's own
    /// generator drawn from `rng` after them.
    pub fn world(&self, rng: &mut GameRng) -> Result<S> {
        let hidden = self.dealer.deal(rng);
        self.state.with_hidden(self.seat, &hidden, rng)
    }
}

/// One world of `state` as `seat` sees it (builds the sampler each call: use a [`Determinizer`]
/// to draw many).
pub fn resample<S: GameState>(state: &S, seat: usize, rng: &mut GameRng) -> Result<S> {
    Determinizer::new(state, seat)?.world(rng)
}
