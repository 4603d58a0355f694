//! The fast path of the game contract: whole deals played by a built-in policy for simulation and
//! Monte Carlo evaluation ([`DealSimulator`]), implemented by each game's rules type next to its
//! step-wise [`crate::game::GameState`]. A deal stepped through the `GameState` with the same
//! built-in policy gives the same row (each game tests it).

use crate::deal::{Deal, DealShape};
use crate::error::{Result, ZhipaiError};
use crate::game::{Column, DealSetup, Game, GameRng, GameState};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand_chacha::ChaCha8Rng;

/// A game that can play complete deals for simulation. Implemented by each game's rules type.
pub trait DealSimulator: Sync {
    /// The columns of one result row (all `i32`), fixed for this rule set.
    fn columns(&self) -> Vec<Column>;

    /// Play one complete deal (deal, bidding/declaring, kitty, tricks/rounds, scoring) with
    /// `policy` for every seat, drawing all randomness from `rng`, and write one value per
    /// column into `row` (`row.len() == self.columns().len()`).
    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()>;

    /// The shape of one deal before play (decks, hand sizes in seat order, kitty size), for Monte
    /// Carlo hand evaluation (`eval.rs`), which samples deals of this shape and passes them to
    /// [`DealSimulator::play_from_deal`]. The default is `InvalidOption` "hand evaluation is not
    /// available for this game"; a game without evaluation under some options names them.
    fn deal_shape(&self) -> Result<DealShape> {
        Err(ZhipaiError::invalid_option(
            "evaluate",
            "deal_shape",
            "hand evaluation is not available for this game yet",
        ))
    }

    /// Whether [`DealSimulator::play_from_deal`] honours [`StartingDeal::level`] and
    /// [`StartingDeal::trump`] (a known declaration). `false` (the default): evaluation refuses
    /// them with [`ZhipaiError::InvalidOption`] instead of silently ignoring them.
    fn fixes_declaration(&self) -> bool {
        false
    }

    /// Game-specific checks of an evaluation request, before any sample (so a request no
    /// sampled deal can satisfy fails at once, not at a seed-dependent deal): the evaluated
    /// `seat`, its `hand`, the cards `known` in each other hand (`known[s]`) and the `dealer`.
    /// The default accepts everything.
    fn check_evaluation(
        &self,
        seat: usize,
        hand: &Multiset,
        known: &[Multiset],
        dealer: Option<usize>,
    ) -> Result<()> {
        let _ = (seat, hand, known, dealer);
        Ok(())
    }

    /// Hook of Monte Carlo hand evaluation: play one deal to the end from the *given* cards, as
    /// [`DealSimulator::play_deal`] does after its dealing step, and write one row.
    ///
    /// Contract (what a game implementing it must do):
    /// * `start.deal.hands[s]` is seat `s`'s hand and `start.deal.kitty` the kitty, exactly as
    ///   shaped by [`DealSimulator::deal_shape`]; the game must not reshuffle or redeal them.
    /// * `start.dealer`: `Some(seat)` fixes the dealer (庄家) / first player of the deal;
    ///   `None` = choose as `play_deal` does (drawing from `rng`).
    /// * `start.first_action`: `Some(cards)` forces the *first decision of `start.seat`* (its
    ///   declaration, bury, exposure or first play, whichever comes first in the game) to the
    ///   given cards; an empty multiset means "pass / declare nothing". What a game does when
    ///   that action is illegal at that point is documented per game: a card play not legal at
    ///   the seat's turn in this deal is not played (the policy decides; returns `false`), a
    ///   candidate that cannot be a legal action at all is an [`ZhipaiError::IllegalPlay`]
    ///   naming it. `None` = `policy` decides, as for every other decision.
    /// * All other randomness comes from `rng` (evaluation passes the same generator state to
    ///   every candidate action: common random numbers).
    ///
    /// Returns whether `start.first_action` was played (`false` when none was given, or when it
    /// was not legal at the seat's decision in this deal and `policy` decided instead), so that
    /// hand evaluation counts such samples instead of aborting (column `candidate_played`).
    ///
    /// The default returns [`ZhipaiError::InvalidOption`] "hand evaluation … not available".
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
        let _ = (policy, start, rng, row);
        Err(ZhipaiError::invalid_option(
            "evaluate",
            "play_from_deal",
            "hand evaluation is not available for this game yet",
        ))
    }
}

/// A deal fixed card by card plus the decision forced on one seat: the input of
/// [`DealSimulator::play_from_deal`]. Built by `eval.rs`; fields may be added later
/// (hence `non_exhaustive`: games read it, never build it).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct StartingDeal<'a> {
    /// Every seat's hand (seat order) and the kitty.
    pub deal: &'a Deal,
    /// The seat whose hand is being evaluated.
    pub seat: usize,
    /// The dealer, when fixed by the caller.
    pub dealer: Option<usize>,
    /// The candidate action forced on `seat`'s first decision (see the trait method).
    pub first_action: Option<&'a crate::multiset::Multiset>,
    /// The level rank (级牌) of the deal, when fixed by the caller (Shengji family); `None` =
    /// the game's default (hand 1 at level 2). Games without levels refuse `Some`.
    /// `Some(None)` = the joker-only level (Shengji `after_A = no_trump_level`).
    pub level: Option<Option<crate::cards::Rank>>,
    /// The trump, when the declaration is known (`Some(None)` = no-trump): the deal skips the
    /// declaring phase. `None` = declare as `play_deal` does. Games that cannot fix it refuse
    /// `Some`.
    pub trump: Option<Option<crate::cards::Suit>>,
}

impl<'a> StartingDeal<'a> {
    /// A starting deal with no dealer fixed and no forced action.
    pub fn new(deal: &'a Deal, seat: usize) -> Self {
        StartingDeal { deal, seat, dealer: None, first_action: None, level: None, trump: None }
    }

    /// The same deal with `dealer` fixed (or not).
    pub fn with_dealer(mut self, dealer: Option<usize>) -> Self {
        self.dealer = dealer;
        self
    }

    /// The same deal at level `level` (or the game's default).
    pub fn with_level(mut self, level: Option<Option<crate::cards::Rank>>) -> Self {
        self.level = level;
        self
    }

    /// The same deal with the trump known (`Some(None)` = no-trump) or declared in play (`None`).
    pub fn with_trump(mut self, trump: Option<Option<crate::cards::Suit>>) -> Self {
        self.trump = trump;
        self
    }

    /// The same deal with `seat`'s first decision forced to `action` (or left to the policy).
    pub fn with_first_action(mut self, action: Option<&'a crate::multiset::Multiset>) -> Self {
        self.first_action = action;
        self
    }
}

/// What a whole-hand evaluation candidate asks of the evaluated seat's decision at hand
/// ([`StepwiseEvaluation::candidate_step`]).
#[derive(Clone, Debug, PartialEq)]
pub enum CandidateStep<M> {
    /// Not this decision: the player decides; the candidate waits for a later one (for ever
    /// when it never applies in this deal: it is then not played).
    Wait,
    /// Apply this move (checked; an error ends the evaluation) and ask again: the candidate
    /// still waits (a Shengji pass before its declaration becomes legal; the dealer's burial
    /// before a forced lead).
    Before(M),
    /// The candidate's move: applied when legal here (it is then played); otherwise the player
    /// decides here and the candidate is not played.
    Try(M),
    /// The candidate's moves, applied in order (checked: an error ends the evaluation, as in
    /// `play_from_deal`); it is then played (a Gongzhu exposure, a Baohuang accession).
    Force(Vec<M>),
}

/// Whole-hand evaluation with any player (`crate::eval::evaluate_player`, e.g. a search): the
/// step-wise reading of [`DealSimulator::play_from_deal`] on the game's [`GameState`]. The
/// starting state and the meaning of a candidate are those of `play_from_deal` (each game
/// documents them there); only who decides differs. With a built-in policy deciding every
/// other move, a deal played through these hooks gives `play_from_deal`'s row (each game tests
/// it).
pub trait StepwiseEvaluation: Game + DealSimulator {
    /// The state `play_from_deal` plays `start` from, its generator `setup.rng()` (the deal's
    /// own generator after the sampled deal): the same hands, dealer, level and trump, and the
    /// same draws for what `start` leaves open. `setup` holds the hands, the kitty (when the
    /// game deals one), the level, the trump and the dealer of `start`. The default is
    /// [`Game::deal_from`]`(setup)`.
    fn evaluation_state(
        &self,
        start: &StartingDeal<'_>,
        setup: &DealSetup,
    ) -> Result<<Self as Game>::State> {
        let _ = start;
        self.deal_from(setup)
    }

    /// The errors `play_from_deal` gives for the candidate `cards` before any decision (a
    /// candidate that can be no action of the seat: [`ZhipaiError::IllegalPlay`] naming it).
    /// The default accepts every candidate.
    fn check_candidate(
        &self,
        state: &<Self as Game>::State,
        start: &StartingDeal<'_>,
        cards: &Multiset,
    ) -> Result<()> {
        let _ = (state, start, cards);
        Ok(())
    }

    /// The candidate `cards` (of `start.seat`, which is to act in `state`) at this decision.
    /// `helper` is the built-in policy the game may use for a move the candidate implies but
    /// does not give (the Shengji dealer's burial before a forced lead, keeping the lead's
    /// cards); it draws from the deal's own generator.
    fn candidate_step(
        &self,
        state: &mut <Self as Game>::State,
        start: &StartingDeal<'_>,
        cards: &Multiset,
        helper: Policy,
    ) -> Result<CandidateStep<<<Self as Game>::State as GameState>::Move>>;
}

/// The [`DealSetup`] of `start` whose generator is `rng` (drawn as [`crate::deal::deal_rng`]
/// `(seed, rng.get_stream())`, advanced to where `rng` is): the input of
/// [`StepwiseEvaluation::evaluation_state`]. `kitty`: whether the game deals one.
pub fn evaluation_setup(
    start: &StartingDeal<'_>,
    kitty: bool,
    seed: u64,
    rng: &GameRng,
) -> DealSetup {
    let setup = DealSetup {
        hands: start.deal.hands.clone(),
        kitty: kitty.then_some(start.deal.kitty),
        level: start.level,
        trump: start.trump,
        dealer: start.dealer,
        seed,
        stream: rng.get_stream(),
        word_pos: rng.get_word_pos(),
    };
    debug_assert!(setup.rng() == *rng, "the generator is deal_rng(seed, stream)");
    setup
}

/// A position in the middle of a deal seen from one seat: what `eval::evaluate_position` needs to
/// determinise it and play it out. Implemented per game (Shengji:
/// `games::shengji::state::position::ShengjiPosition`).
pub trait Position: Sync {
    /// The columns of one rollout row.
    fn columns(&self) -> Vec<Column>;

    /// The evaluated seat.
    fn seat(&self) -> usize;

    /// What the seat knows (see [`SeatView`]).
    fn view(&self) -> Result<SeatView>;

    /// The default candidates: the seat's legal actions now, at most `limit`, in a deterministic
    /// order; empty when the seat is not to move.
    fn legal_candidates(&self, limit: usize) -> Result<Vec<Multiset>>;

    /// `Ok` when `action` is a legal action of the seat now; else [`ZhipaiError::IllegalPlay`]
    /// naming it (and the rule), also when the seat is not to move.
    fn check_candidate(&self, action: &Multiset) -> Result<()>;

    /// Play the position to the end with the hidden cards replaced by `hidden` (every seat's
    /// holding and the kitty, as drawn by [`crate::knowledge::HiddenDealer::deal`]), the seat's next action forced
    /// to `action` when given, `policy` for every other decision and randomness from `rng`;
    /// write one row.
    fn play_out(
        &self,
        hidden: &Deal,
        action: Option<&Multiset>,
        policy: Policy,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<()>;
}
