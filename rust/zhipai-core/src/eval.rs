//! Monte Carlo hand evaluation (determinised / PIMC): fix what one seat knows, sample the unknown
//! cards uniformly among the consistent deals, play each sampled deal out once per candidate
//! action, and report the outcome columns per candidate.
//!
//! * Sampling: [`crate::deal::ConstrainedDealer`] built once from the seat's own hand plus the
//!   other knowledge ([`Constraints`]: cards known in other hands or the kitty, voids), so every
//!   consistent deal is equally likely (exact, no rejection).
//! * Rollout: [`DealSimulator::play_from_deal`] (the per-game hook; see its contract) with the
//!   built-in policy for every decision except the evaluated seat's first one, which a candidate
//!   may force. With any other player ([`evaluate_player`], e.g. `pimc(...)`), the same deal
//!   and candidate are played step by step on the game's [`crate::game::GameState`]
//!   ([`StepwiseEvaluation`]), every other decision made by the player.
//! * Common random numbers: sample `s` draws its deal from `deal_rng(seed, s)`, then every
//!   candidate is played from a clone of the generator *after* the deal, so candidates see the
//!   same deal and the same later randomness; differences between candidates are paired, which
//!   makes their confidence intervals much narrower than those of independent runs.
//! * Parallelism, determinism, progress and cancellation come from the simulation driver
//!   ([`crate::rollout::run_rows`]): the result is identical for any thread count.
//!
//! * A given candidate not legal at the seat's decision in a sample is not played there (the
//!   policy decides; see each game's [`DealSimulator::play_from_deal`]): the column
//!   [`CANDIDATE_PLAYED`], added after the game's columns when candidates are given, counts it
//!   sample by sample, so an evaluation never aborts on it.
//!
//! Output: `samples × (candidates × columns)` values; [`Evaluation::stats`] and
//! [`Evaluation::paired_difference`] give exact aggregates per candidate and against candidate 0.

use crate::cards::{Rank, Suit};
use crate::deal::{ConstrainedDealer, Constraints};
use crate::error::{Result, ZhipaiError};
use crate::eval_state::CANDIDATE_PLAYED;
use crate::game::{Column, GameState};
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::rollout::{run_rows, ColumnStats, Control, Run, RunOptions};
use crate::rules::Rules;
use crate::search::{search_rng, Player};
use crate::simulator::{
    evaluation_setup, CandidateStep, DealSimulator, Position, StartingDeal, StepwiseEvaluation,
};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, Ordering};

/// What to evaluate: the seat, what it knows, and the candidate first actions.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalRequest {
    /// The evaluated seat (0-based, seat order of the game).
    pub seat: usize,
    /// Its whole hand (must have the seat's hand size in the game's deal shape).
    pub hand: Multiset,
    /// Everything else the seat knows: cards known in other hands or in the kitty, voids. A
    /// constraint on `seat` itself is replaced by `hand`.
    pub known: Constraints,
    /// The dealer, when known (passed to the game as [`StartingDeal::dealer`]).
    pub dealer: Option<usize>,
    /// Candidate first actions of `seat`: `None` = let the policy decide. Empty = one `None`.
    pub candidates: Vec<Option<Multiset>>,
}

/// The rollouts of an evaluation: `data[c * columns.len() + k][s]` = column `k` of candidate
/// `c` on sample `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub columns: Vec<Column>,
    pub candidates: Vec<Option<Multiset>>,
    pub data: Vec<Vec<i32>>,
}

impl Evaluation {
    /// Outcomes of candidate `c` in column `k`, one per sample.
    pub fn outcomes(&self, c: usize, k: usize) -> &[i32] {
        &self.data[c * self.columns.len() + k]
    }

    /// Exact aggregates of column `k` under candidate `c`.
    pub fn stats(&self, c: usize, k: usize) -> ColumnStats {
        ColumnStats::from_values(self.outcomes(c, k))
    }

    /// Aggregates of the per-sample difference `candidate c − candidate 0` in column `k`
    /// (paired on the same sampled deal and randomness).
    pub fn paired_difference(&self, c: usize, k: usize) -> ColumnStats {
        let mut s = ColumnStats::new();
        for (&a, &b) in self.outcomes(c, k).iter().zip(self.outcomes(0, k)) {
            s.push(a.saturating_sub(b));
        }
        s
    }
}

/// What is known of the declaration at the start of the deal (Shengji family): the level rank
/// and the trump. The default (nothing known) is hand 1 at level 2 with declaring in play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnownDeclaration {
    /// The level rank (级牌); `None` = the game's default, `Some(None)` = the joker-only level
    /// (Shengji `after_A = no_trump_level`, checked by the game).
    pub level: Option<Option<Rank>>,
    /// The trump (`Some(None)` = no-trump); the deal then skips the declaring phase.
    pub trump: Option<Option<Suit>>,
}

/// Evaluate `req` on `game` with `opts.deals` samples (seeded by `opts.seed`, policy
/// `opts.policy`, threads/chunking as in simulation).
///
/// Errors:
/// * [`ZhipaiError::InvalidOption`]: the game has no [`DealSimulator::deal_shape`] or no
///   [`DealSimulator::play_from_deal`] yet;
/// * [`ZhipaiError::InvalidValue`]: a seat outside the deal, a hand of the wrong size (naming it);
/// * [`ZhipaiError::IllegalPlay`]: a candidate with cards the hand does not hold (a burial of
///   the seat as dealer: the hand and the known kitty);
/// * [`ZhipaiError::ImpossibleDeal`]: knowledge no deal satisfies (from the dealer);
/// * the game's error for a failing rollout, naming the sample index.
pub fn evaluate(
    game: &dyn DealSimulator,
    req: &EvalRequest,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Evaluation>> {
    evaluate_declared(game, req, KnownDeclaration::default(), opts, ctl)
}

/// [`evaluate`] with the level and/or trump known from the start (passed to the game as
/// [`StartingDeal::level`] / [`StartingDeal::trump`]). A game that cannot fix them returns
/// [`ZhipaiError::InvalidOption`].
pub fn evaluate_declared(
    game: &dyn DealSimulator,
    req: &EvalRequest,
    declared: KnownDeclaration,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Evaluation>> {
    let rollout = |start: &StartingDeal<'_>, rng: &mut ChaCha8Rng, out: &mut [i32]| {
        game.play_from_deal(opts.policy, start, rng, out)
    };
    evaluate_with(game, req, declared, opts, ctl, &rollout)
}

/// [`evaluate_declared`] with `player` for every decision (`opts.policy` is not read):
///
/// * a built-in policy runs [`evaluate_declared`] with it, unchanged;
/// * a search player (`pimc(...)`, `ismcts(...)`) plays each sample's deal step by step on the
///   game's [`GameState`] ([`StepwiseEvaluation`]): the same sampled deal, starting state
///   (dealer, level, trump, the deal's generator) and candidate reading as with a built-in
///   policy, then every decision of every seat (the evaluated seat's too, after its
///   candidate) made by `player`. The search draws from the sample's search generator
///   [`search_rng`]`(seed, sample)`, the same for every candidate (common random numbers), so
///   the result depends on the seed only, not on the threads. Where a candidate implies a move
///   it does not give (the Shengji dealer's burial before a forced lead), that move is the
///   player's rollout policy's ([`Player::rollout_policy`]).
///
/// Errors: those of [`evaluate_declared`].
pub fn evaluate_player(
    rules: &Rules,
    player: &Player,
    req: &EvalRequest,
    declared: KnownDeclaration,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Evaluation>> {
    if let Player::Builtin(policy) = player {
        let opts = RunOptions { policy: *policy, ..*opts };
        return evaluate_declared(crate::rollout::simulator(rules)?, req, declared, &opts, ctl);
    }
    crate::with_game!(rules, g => {
        let kitty = g.deal_shape()?.kitty() > 0;
        let rollout = |start: &StartingDeal<'_>, rng: &mut ChaCha8Rng, out: &mut [i32]| {
            play_stepwise(g, player, kitty, opts.seed, start, rng, out, Some(ctl.stop))
        };
        evaluate_with(g, req, declared, opts, ctl, &rollout)
    })
}

/// One rollout of one candidate: play `start` from the generator into the row (the game's
/// columns); whether the candidate was played.
type Rollout<'a> =
    dyn Fn(&StartingDeal<'_>, &mut ChaCha8Rng, &mut [i32]) -> Result<bool> + Sync + 'a;

/// Play `start` with `player` for every decision but the candidate's (see [`evaluate_player`]):
/// the deal's generator is `rng` (stream = the sample), the search's `search_rng(seed, sample)`.
/// With `stop` set the deal ends before its next decision with [`ZhipaiError::Interrupted`]
/// (a search sample can take minutes; the driver counts it as not played).
#[allow(clippy::too_many_arguments)]
fn play_stepwise<G: StepwiseEvaluation>(
    game: &G,
    player: &Player,
    kitty: bool,
    seed: u64,
    start: &StartingDeal<'_>,
    rng: &mut ChaCha8Rng,
    row: &mut [i32],
    stop: Option<&AtomicBool>,
) -> Result<bool> {
    let mut state = game.evaluation_state(start, &evaluation_setup(start, kitty, seed, rng))?;
    let mut search = search_rng(seed, rng.get_stream());
    let helper = player.rollout_policy();
    let mut pending = start.first_action;
    if let Some(cards) = pending {
        game.check_candidate(&state, start, cards)?;
    }
    let mut played = false;
    while let Some(seat) = state.current_player() {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(ZhipaiError::Interrupted { completed: 0 });
        }
        let step = match pending {
            Some(cards) if seat == start.seat => {
                game.candidate_step(&mut state, start, cards, helper)?
            }
            _ => CandidateStep::Wait,
        };
        match step {
            CandidateStep::Wait => {
                player.play(&mut state, &mut search)?;
            }
            CandidateStep::Before(mv) => state.apply_move(&mv)?,
            CandidateStep::Try(mv) => {
                pending = None;
                if state.is_legal(&mv) {
                    state.apply_move(&mv)?;
                    played = true;
                } else {
                    player.play(&mut state, &mut search)?; // not legal here: the player decides
                }
            }
            CandidateStep::Force(moves) => {
                pending = None;
                for mv in &moves {
                    state.apply_move(mv)?;
                }
                played = true;
            }
        }
    }
    GameState::result_row(&state, row)?;
    Ok(played)
}

/// The evaluation of `req` on `game` with `rollout` playing each candidate of each sample.
fn evaluate_with(
    game: &dyn DealSimulator,
    req: &EvalRequest,
    declared: KnownDeclaration,
    opts: &RunOptions,
    ctl: Control<'_>,
    rollout: &Rollout<'_>,
) -> Result<Run<Evaluation>> {
    let shape = game.deal_shape()?;
    let hands = shape.num_hands();
    if req.seat >= hands {
        return Err(ZhipaiError::invalid_value(
            "seat",
            req.seat,
            format!("the deal has seats 0 to {}", hands - 1),
        ));
    }
    let size = shape.hand_sizes()[req.seat];
    if req.hand.len() != size {
        return Err(ZhipaiError::invalid_value(
            "hand",
            req.hand,
            format!("{} cards; seat {} holds {size}", req.hand.len(), req.seat),
        ));
    }
    if shape.kitty() == 0 && !req.known.kitty.is_empty() {
        return Err(ZhipaiError::invalid_value(
            "known kitty",
            req.known.kitty,
            "this game deals no kitty (底牌)",
        ));
    }
    if let Some(d) = req.dealer.filter(|&d| d >= hands) {
        return Err(ZhipaiError::invalid_value(
            "dealer",
            d,
            format!("the deal has seats 0 to {}", hands - 1),
        ));
    }
    if declared != KnownDeclaration::default() && !game.fixes_declaration() {
        let what = if declared.level.is_some() { "level" } else { "trump" };
        return Err(ZhipaiError::invalid_option(
            "evaluate",
            what,
            "this game cannot fix the level or trump before the deal",
        ));
    }
    game.check_evaluation(req.seat, &req.hand, &req.known.fixed, req.dealer)?;
    let candidates = if req.candidates.is_empty() { vec![None] } else { req.candidates.clone() };
    // The dealer buries from its hand and the kitty it picked up: a burial candidate may hold
    // the kitty cards the seat knows.
    let mut burial_cards = req.hand;
    if req.dealer == Some(req.seat) {
        burial_cards.add_all(&req.known.kitty)?;
    }
    for cand in candidates.iter().flatten() {
        let held = if cand.len() == shape.kitty() && shape.kitty() > 0 {
            &burial_cards
        } else {
            &req.hand
        };
        if !held.contains_all(cand) {
            let short = held.shortfall(cand);
            return Err(ZhipaiError::illegal_play(
                cand,
                format!("seat {} does not hold {short}", req.seat),
            ));
        }
    }
    let dealer = ConstrainedDealer::new(&shape, &req.known.clone().fix_hand(req.seat, req.hand))?;
    let mut columns = game.columns();
    let game_width = columns.len();
    // Given candidates: whether each was played in the sample (else the policy decided there).
    let counted = candidates.iter().any(Option::is_some);
    if counted {
        columns.push(CANDIDATE_PLAYED);
    }
    let width = columns.len();
    let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| -> Result<()> {
        let deal = dealer.deal(rng);
        for (c, cand) in candidates.iter().enumerate() {
            // Common random numbers: every candidate continues from the same generator state.
            let mut r = rng.clone();
            let start = StartingDeal::new(&deal, req.seat)
                .with_dealer(req.dealer)
                .with_level(declared.level)
                .with_trump(declared.trump)
                .with_first_action(cand.as_ref());
            let out = &mut row[c * width..(c + 1) * width];
            let played = rollout(&start, &mut r, &mut out[..game_width])?;
            if counted {
                // The policy's own move (`None`) is always played.
                out[game_width] = (played || cand.is_none()) as i32;
            }
        }
        Ok(())
    };
    let run = run_rows(width * candidates.len(), opts, ctl, &play)?;
    Ok(run.map(|data| Evaluation { columns, candidates, data }))
}

// ------------------------------------------------------------------------------------------
// Evaluation from a position in the middle of a deal.

/// Default cap on the number of candidates [`evaluate_position`] takes from
/// [`Position::legal_candidates`] when none are given.
pub const MAX_DEFAULT_CANDIDATES: usize = 64;

/// Evaluate a mid-deal `pos` (PIMC): every sample deals the cards the seat cannot see uniformly
/// among the deals consistent with [`Position::view`], then plays the position out once per
/// candidate from the same generator state (common random numbers, as [`evaluate`]).
///
/// `extra`: knowledge beyond the game's record, merged with [`crate::knowledge::SeatView::merge_known`] (voids
/// and constraints for seats the deal does not have are refused by the dealer).
///
/// `candidates`: `None` = the seat's legal actions ([`Position::legal_candidates`], at most
/// `limit`), or one policy-decided candidate when the seat is not to move; `Some(list)` = these
/// actions (each checked; `None` entries let the policy decide).
///
/// Errors: [`ZhipaiError::IllegalPlay`] for a candidate that is not legal now or a seat that is
/// not to move; [`ZhipaiError::ImpossibleDeal`] for knowledge no deal satisfies; invalid run
/// options; the game's error for a failing rollout (naming the sample index).
pub fn evaluate_position(
    pos: &dyn Position,
    extra: &Constraints,
    candidates: Option<Vec<Option<Multiset>>>,
    limit: usize,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Evaluation>> {
    let candidates = match candidates {
        Some(c) if !c.is_empty() => {
            for cand in c.iter().flatten() {
                pos.check_candidate(cand)?;
            }
            c
        }
        _ => {
            let legal = pos.legal_candidates(limit)?;
            if legal.is_empty() {
                vec![None]
            } else {
                legal.into_iter().map(Some).collect()
            }
        }
    };
    let mut view = pos.view()?;
    view.merge_known(extra);
    let hidden = view.dealer()?;
    let columns = pos.columns();
    let width = columns.len();
    let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| -> Result<()> {
        let deal = hidden.deal(rng);
        for (c, cand) in candidates.iter().enumerate() {
            let mut r = rng.clone(); // common random numbers
            let out = &mut row[c * width..(c + 1) * width];
            pos.play_out(&deal, cand.as_ref(), opts.policy, &mut r, out)?;
        }
        Ok(())
    };
    let run = run_rows(width * candidates.len(), opts, ctl, &play)?;
    Ok(run.map(|data| Evaluation { columns, candidates, data }))
}

/// The run options of an evaluation: `samples` samples from `seed`, `policy` for every decision.
pub fn options(samples: u64, seed: u64, policy: Policy) -> RunOptions {
    RunOptions::new(samples, seed, policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, CardSet};
    use crate::knowledge::SeatView;
    use crate::toy::CoinGame;
    use std::sync::atomic::AtomicU64;

    fn ms(text: &str) -> Multiset {
        text.parse().unwrap()
    }

    fn run(req: &EvalRequest, samples: u64, threads: usize) -> Result<Run<Evaluation>> {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions { threads: Some(threads), ..options(samples, 3, Policy::Random) };
        evaluate(&CoinGame::default(), req, &opts, Control { stop: &stop, progress: &progress })
    }

    fn request(hand: &str, candidates: Vec<Option<Multiset>>) -> EvalRequest {
        EvalRequest {
            seat: 1,
            hand: ms(hand),
            known: Constraints::new(),
            dealer: Some(2),
            candidates,
        }
    }

    const HAND: &str = "AS AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS";

    #[test]
    fn candidates_share_deals_and_randomness() {
        let req = request(HAND, vec![None, Some(ms("AS")), Some(ms("AS AH"))]);
        let ev = run(&req, 4000, 2).unwrap();
        assert_eq!(ev.completed, 4000);
        let e = &ev.value;
        // score = aces in the kitty: same sampled deal for every candidate.
        assert_eq!(e.outcomes(0, 1), e.outcomes(2, 1));
        // dealer fixed for every rollout
        assert!(e.outcomes(1, 3).iter().all(|&d| d == 2));
        // Two aces bias heads by 20 points per flip (10 flips): means 7, 6, 5.
        let means: Vec<f64> = (0..3).map(|c| e.stats(c, 0).mean()).collect();
        assert!(
            (means[0] - 7.0).abs() < 0.1
                && (means[1] - 6.0).abs() < 0.1
                && (means[2] - 5.0).abs() < 0.1,
            "{means:?}"
        );
        // Paired differences are never positive: fewer aces never gives more heads on the same
        // randomness (each flip compares one shared draw against a lower threshold).
        let d = e.paired_difference(2, 0);
        assert!(d.max <= 0 && (d.mean() + 2.0).abs() < 0.1);
        assert!(d.variance() < e.stats(2, 0).variance(), "CRN narrows the difference");
        // Given candidates add `candidate_played`: the game's answer per sample (the toy plays
        // every given candidate; `None`, the policy's move, is always played).
        let k = e.columns.len() - 1;
        assert_eq!(e.columns[k].name, "candidate_played");
        assert!((0..3).all(|c| e.outcomes(c, k).iter().all(|&v| v == 1)));
        let plain = run(&request(HAND, vec![]), 10, 1).unwrap().value;
        assert!(plain.columns.iter().all(|c| c.name != "candidate_played"));
    }

    #[test]
    fn unknown_cards_are_sampled_uniformly_consistent_with_knowledge() {
        // Seat 1 holds two aces; the other two aces are among the 40 unknown cards, of which the
        // kitty takes 4: expected aces in the kitty = 2 · 4/40 = 0.2.
        let ev = run(&request(HAND, vec![]), 20_000, 2).unwrap().value;
        let m = ev.stats(0, 1).mean();
        assert!((m - 0.2).abs() < 0.02, "{m}");
        // Knowing both other aces are in seat 0's hand leaves none for the kitty.
        let mut req = request(HAND, vec![]);
        req.known = Constraints::new().fix_hand(0, ms("AD AC"));
        assert_eq!(run(&req, 500, 1).unwrap().value.stats(0, 1).max, 0);
        // A void in aces for seats 0, 2, 3 forces both into the kitty.
        let aces = CardSet::rank_mask(Rank::ACE);
        req.known = Constraints::new().void(0, aces).void(2, aces).void(3, aces);
        assert_eq!(run(&req, 500, 1).unwrap().value.stats(0, 1).min, 2);
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let req = request(HAND, vec![None, Some(ms("AH"))]);
        assert_eq!(run(&req, 700, 1).unwrap(), run(&req, 700, 2).unwrap());
    }

    #[test]
    fn bad_requests_name_the_value() {
        let err = |req: EvalRequest| run(&req, 10, 1).unwrap_err().to_string();
        assert!(err(request("AS AH", vec![])).contains("seat 1 holds 12"));
        assert!(err(EvalRequest { seat: 4, ..request(HAND, vec![]) }).contains("seat 4"));
        assert!(err(EvalRequest { dealer: Some(7), ..request(HAND, vec![]) }).contains("dealer 7"));
        assert!(err(request(HAND, vec![Some(ms("KD"))])).contains("KD"));
        let mut req = request(HAND, vec![]);
        req.known = Constraints::new().fix_hand(0, ms("AS"));
        // AS is in seat 1 and cannot also be in seat 0 (one deck).
        assert!(matches!(run(&req, 10, 1).unwrap_err(), ZhipaiError::ImpossibleDeal { .. }));
    }

    #[test]
    fn games_that_cannot_fix_the_declaration_refuse_it() {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let declared = KnownDeclaration { level: Some(Some(Rank::FIVE)), trump: None };
        let e = evaluate_declared(
            &CoinGame::default(),
            &request(HAND, vec![]),
            declared,
            &options(5, 0, Policy::Random),
            Control { stop: &stop, progress: &progress },
        )
        .unwrap_err();
        assert!(matches!(e, ZhipaiError::InvalidOption { .. }) && e.to_string().contains("level"));
    }

    /// One deck without jokers, 4 seats: seat 0 holds `mine`, `gone` is out of play.
    fn view(holding: [usize; 4], kitty: usize, mine: &str, gone: &str) -> SeatView {
        SeatView {
            decks: 1,
            jokers: false,
            holding: holding.to_vec(),
            kitty,
            gone: ms(gone),
            known: Constraints::new().fix_hand(0, ms(mine)),
        }
    }

    #[test]
    fn hidden_cards_skip_empty_hands_and_played_cards() {
        // 52 cards: 44 played, seat 0 holds 2, seats 1 and 2 hold 2 each, seat 3 none (it
        // played to the current trick), kitty 2.
        let all = Multiset::full_decks(1, false).unwrap();
        let mine = ms("AS KS");
        let unseen = ms("AH KH QH JH 10H 9H");
        let mut gone = all;
        gone.remove_all(&mine).unwrap();
        gone.remove_all(&unseen).unwrap();
        let mut v = view([2, 2, 2, 0], 2, "AS KS", &gone.to_string());
        v.known = v.known.void(1, CardSet::single(Card::new(Suit::Hearts, Rank::ACE)));
        let hidden = v.dealer().unwrap();
        let mut seen_ah = [0; 4];
        for i in 0..400 {
            let d = hidden.deal(&mut crate::deal::deal_rng(1, i));
            assert_eq!(d.hands[0], mine);
            assert!(d.hands[3].is_empty());
            let mut got = d.kitty;
            for p in 1..3 {
                assert_eq!(d.hands[p].len(), 2);
                got.add_all(&d.hands[p]).unwrap();
            }
            assert_eq!(got, unseen, "exactly the unseen cards are dealt");
            for (n, h) in seen_ah.iter_mut().zip(&d.hands) {
                *n += h.contains(Card::new(Suit::Hearts, Rank::ACE)) as u32;
            }
        }
        assert_eq!(seen_ah[1], 0, "the void is respected");
        // AH goes to seat 2 or the kitty, 2 places each: about half the time to seat 2.
        assert!((150..250).contains(&seen_ah[2]), "{seen_ah:?}");
        // Cards fixed in an empty hand, or voids that cannot be met, name the seat / hands.
        v.known = v.known.fix_hand(3, ms("AH"));
        assert!(v.dealer().unwrap_err().to_string().contains("seat 3 holds no cards"));
        let mut v = view([2, 2, 2, 0], 2, "AS KS", &gone.to_string());
        let hearts = Suit::Hearts.mask();
        v.known = v.known.void(1, hearts).void(2, hearts);
        let e = v.dealer().unwrap_err();
        assert!(matches!(e, ZhipaiError::ImpossibleDeal { .. }), "{e}");
        assert!(e.to_string().contains("hand 3 = the 44 cards already played"), "{e}");
    }

    #[test]
    fn extra_knowledge_is_merged_kind_by_kind() {
        let mut v = view([2, 2, 2, 0], 2, "AS KS", "");
        v.known = v.known.void(1, Suit::Clubs.mask());
        let extra = Constraints::new()
            .fix_hand(0, ms("AS"))
            .fix_hand(2, ms("AH AH"))
            .in_kitty(ms("2C"))
            .void(1, Suit::Hearts.mask());
        v.merge_known(&extra);
        assert_eq!(v.known.fixed[0], ms("AS KS"), "AS was already known: not counted twice");
        assert_eq!(v.known.fixed[2], ms("AH AH"));
        assert_eq!(v.known.kitty, ms("2C"));
        assert_eq!(v.known.voids[1], Suit::Clubs.mask() | Suit::Hearts.mask());
    }

    /// The step-wise path ([`play_stepwise`]) with a built-in player: the rows of the fast path
    /// ([`DealSimulator::play_from_deal`]), candidate by candidate (or the same error).
    fn stepwise_equals_fast(
        rules: &Rules,
        req: &EvalRequest,
        declared: KnownDeclaration,
        policy: Policy,
    ) -> bool {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let ctl = Control { stop: &stop, progress: &progress };
        let opts = RunOptions { threads: Some(2), ..options(10, 5, policy) };
        let sim = crate::rollout::simulator(rules).unwrap();
        let fast = evaluate_declared(sim, req, declared, &opts, ctl);
        let player = Player::Builtin(policy);
        let step = crate::with_game!(rules, g => {
            let kitty = g.deal_shape().unwrap().kitty() > 0;
            let rollout = |start: &StartingDeal<'_>, rng: &mut ChaCha8Rng, out: &mut [i32]| {
                play_stepwise(g, &player, kitty, opts.seed, start, rng, out, None)
            };
            evaluate_with(g, req, declared, &opts, ctl, &rollout)
        });
        let fast = fast.map(|r| r.value).map_err(|e| e.to_string());
        let step = step.map(|r| r.value).map_err(|e| e.to_string());
        assert_eq!(fast, step, "{req:?} {declared:?} {policy:?}");
        fast.is_ok()
    }

    #[test]
    fn the_stepwise_path_reads_deals_and_candidates_as_play_from_deal() {
        use crate::cards::Card;
        let mut ok = 0;
        for preset in ["tractor", "hong_wu", "gongzhu", "baohuang"] {
            let rules = crate::rules::rules(preset, &[]).unwrap();
            let shape = crate::rollout::simulator(&rules).unwrap().deal_shape().unwrap();
            for seed in 0..3u64 {
                let deal = crate::deal::deal(&shape, &mut crate::deal::deal_rng(seed, 1));
                let seat = (seed as usize) % shape.num_hands();
                let hand = deal.hands[seat];
                let cards: Vec<Card> = hand.iter().collect();
                let first = Multiset::from_cards(&cards[..1]).unwrap();
                let mut candidates = vec![None, Some(Multiset::EMPTY), Some(first), Some(hand)];
                if shape.kitty() > 0 {
                    candidates.push(Some(Multiset::from_cards(&cards[..shape.kitty()]).unwrap()));
                }
                let bj = Multiset::from_cards(&[Card::BIG_JOKER]).unwrap();
                if hand.contains(Card::BIG_JOKER) {
                    candidates.push(Some(bj));
                }
                let pair = cards.windows(2).find(|w| w[0] == w[1]);
                if let Some(p) = pair {
                    candidates.push(Some(Multiset::from_cards(p).unwrap()));
                }
                let shengji = matches!(rules, Rules::Shengji(_));
                let mut settings = vec![(None, KnownDeclaration::default())];
                if shengji {
                    let known = KnownDeclaration {
                        level: Some(Some(Rank::FIVE)),
                        trump: Some(Some(Suit::Hearts)),
                    };
                    settings.push((Some(seat), known));
                    settings.push((Some((seat + 1) % 4), known));
                }
                for (dealer, declared) in settings {
                    for cand in &candidates {
                        let req = EvalRequest {
                            seat,
                            hand,
                            known: Constraints::new(),
                            dealer,
                            candidates: vec![*cand],
                        };
                        for policy in [Policy::Random, Policy::Greedy] {
                            ok += stepwise_equals_fast(&rules, &req, declared, policy) as u32;
                        }
                    }
                }
            }
        }
        assert!(ok > 60, "most requests run ({ok})");
    }

    #[test]
    fn games_without_the_hook_say_so() {
        struct NoEval;
        impl DealSimulator for NoEval {
            fn columns(&self) -> Vec<Column> {
                vec![]
            }
            fn play_deal(&self, _: Policy, _: &mut ChaCha8Rng, _: &mut [i32]) -> Result<()> {
                Ok(())
            }
        }
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let e = evaluate(
            &NoEval,
            &request(HAND, vec![]),
            &options(5, 0, Policy::Random),
            Control { stop: &stop, progress: &progress },
        )
        .unwrap_err();
        assert!(e.to_string().contains("not available"), "{e}");
    }
}
