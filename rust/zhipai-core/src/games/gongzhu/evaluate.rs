//! Monte Carlo hand evaluation for Gongzhu: the two hooks of
//! [`crate::simulator::DealSimulator`] that `eval.rs` needs, [`deal_shape`] and
//! [`play_from_deal`].
//!
//! How a candidate first action ([`StartingDeal::first_action`]) reads in Gongzhu:
//! * **Exposure decision** (亮牌/卖, §A.6; `exposure_mode` `qq` or `closed_open`): a candidate
//!   made only of exposable cards (♠Q ♦J ♣10 ♥A, one entry per copy) is the *whole* exposure
//!   decision of the seat: it exposes exactly these copies openly, then ends its exposure. The
//!   **empty** candidate (`""`) = expose nothing. Seats before it in exposure order decide
//!   first (visible), the 3-of-4 rule is applied after everyone decided, as in a real deal.
//! * **First play**: any other candidate (a card, or two cards in two decks) is the seat's
//!   first play of the deal — its lead if it leads the first trick, else its follow; its
//!   exposure decision is then left to the policy. Under `exposure_mode = none` every candidate
//!   is a first play (and the empty one is an `IllegalPlay`: there is no exposure to skip).
//!   A first play of an exposable card alone (e.g. leading ♥A) reads as an exposure in the
//!   exposure modes; to force such a play evaluate with `exposure_mode = none`.
//!
//! The first leader: `start.dealer = Some(s)` makes seat `s` lead the first trick with any
//! card (a later deal of a match, §A.8 "the pig-taker leads"); `None` opens as the first deal
//! of a match, as [`crate::simulator::DealSimulator::play_deal`] does: the holder of
//! `first_lead_card` leads it (two holders in two decks: one drawn from `rng`).

use super::options::{ExposureMode, GongzhuRules};
use super::play::Play;
use super::policy::choose;
use super::row::write_row;
use super::scoring::exposable_index;
use super::state::{first_leader, Move, Opening, Phase, State};
use crate::deal::{Deal, DealShape};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::StartingDeal;
use rand::Rng;

/// Four hands of `13 · decks` cards, no kitty, no jokers (§A.1, §A.12).
pub fn deal_shape(rules: &GongzhuRules) -> Result<DealShape> {
    let decks = rules.decks as usize;
    DealShape::equal(decks, false, 4, 13 * decks, 0)
}

/// What a candidate first action means (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstAction {
    /// Expose exactly these copies (empty = none), then end the seat's exposure.
    Exposure(Multiset),
    /// The seat's first play.
    Play(Play),
}

impl FirstAction {
    /// Read a candidate under `rules`. Errors: [`ZhipaiError::IllegalPlay`] naming a candidate
    /// that is neither an exposure nor a play (three cards or more; empty without exposure).
    pub fn read(rules: &GongzhuRules, action: &Multiset) -> Result<FirstAction> {
        let exposing = rules.exposure_mode != ExposureMode::None;
        if exposing && action.iter().all(|c| exposable_index(c).is_some()) {
            return Ok(FirstAction::Exposure(*action));
        }
        if action.is_empty() {
            return Err(ZhipaiError::illegal_play(
                "(nothing)",
                "exposure_mode=none has no exposure decision; a candidate is a first play",
            ));
        }
        let cards: Vec<_> = action.iter().collect();
        let play = Play::from_cards(&cards).ok().filter(|p| p.len() <= rules.decks as usize);
        play.map(FirstAction::Play).ok_or_else(|| {
            ZhipaiError::illegal_play(
                action,
                format!(
                    "a first action is the exposed cards (QS JD 10C AH) or one play of {} card(s)",
                    if rules.decks == 1 { "1" } else { "1 or 2" }
                ),
            )
        })
    }
}

/// The deal of `start` as a [`State`] before any decision: the given hands unchanged, the
/// first leader as described in the module docs. Errors name a deal of the wrong shape.
pub fn starting_state<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    deal: &Deal,
    dealer: Option<usize>,
    rng: &mut R,
) -> Result<State> {
    let hands: [Multiset; 4] = deal.hands.clone().try_into().map_err(|h: Vec<_>| {
        ZhipaiError::invalid_value("deal", format!("{} hands", h.len()), "Gongzhu deals 4 hands")
    })?;
    if !deal.kitty.is_empty() {
        return Err(ZhipaiError::invalid_value("kitty", deal.kitty, "Gongzhu has no kitty"));
    }
    match dealer {
        Some(s) => State::from_hands(rules, hands, Opening::LedBy(s)),
        None => {
            let holder = first_leader(rules, &hands, rng);
            State::from_hands_with_holder(rules, hands, Opening::FirstOfMatch, holder)
        }
    }
}

/// Play the deal of `start` to the end (see the module docs and the contract of
/// [`crate::simulator::DealSimulator::play_from_deal`]) and return the finished state and
/// whether the candidate was played (a first play not legal at the seat's turn in this deal —
/// a card of another suit while it must follow — is not: the policy decides there).
pub fn play_out_from<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    policy: Policy,
    start: &StartingDeal<'_>,
    rng: &mut R,
) -> Result<(State, bool)> {
    if start.seat >= 4 {
        return Err(ZhipaiError::invalid_value("seat", start.seat, "expected a seat 0..4"));
    }
    let mut forced = start.first_action.map(|a| FirstAction::read(rules, a)).transpose()?;
    let mut state = starting_state(rules, start.deal, start.dealer, rng)?;
    let mut buf = Vec::with_capacity(64);
    let mut played = false;
    while let Some(p) = state.current_player() {
        match (forced, p == start.seat, state.phase()) {
            (Some(FirstAction::Exposure(cards)), true, Phase::Exposure) => {
                for c in cards.iter() {
                    state.apply(Move::Expose(c))?;
                }
                state.apply(Move::EndExposure)?;
                forced = None;
                played = true;
            }
            (Some(FirstAction::Play(play)), true, Phase::Play) => {
                forced = None;
                // A refused play leaves the state unchanged; the policy plays on the next turn
                // of the loop.
                match state.apply(Move::Play(play)) {
                    Ok(()) => played = true,
                    Err(ZhipaiError::IllegalPlay { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            _ => match choose(&state, policy, rng, &mut buf) {
                Move::Play(play) => state.apply_play_unchecked(play),
                mv => state.apply_exposure(mv),
            },
        }
    }
    Ok((state, played))
}

/// [`play_out_from`] and write the result row (layout of the simulation columns).
pub fn play_from_deal<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    policy: Policy,
    start: &StartingDeal<'_>,
    rng: &mut R,
    row: &mut [i32],
) -> Result<bool> {
    let (state, played) = play_out_from(rules, policy, start, rng)?;
    write_row(rules, &state.summary(), row);
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use crate::eval::{evaluate, options, EvalRequest};
    use crate::options::OptionValue;
    use crate::rollout::Control;
    use crate::simulator::DealSimulator;
    use std::sync::atomic::{AtomicBool, AtomicU64};

    fn rules(opts: &[(&str, OptionValue)]) -> GongzhuRules {
        let o: Vec<_> = opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        GongzhuRules::from_preset("gongzhu", &o).unwrap()
    }

    fn ms(text: &str) -> Multiset {
        text.parse().unwrap()
    }

    /// Seat 0 holds ♠Q ♠K ♠A (nobody can beat its ♠Q), ♣2 and low clubs and hearts; seat 1
    /// the other spades; seat 2 the high clubs and hearts; seat 3 the diamonds.
    fn fixed_deal() -> Deal {
        let d = |t: &str| ms(t);
        Deal {
            hands: vec![
                d("QS KS AS 2C 3C 4C 5C 6C 7C 2H 3H 4H 5H"),
                d("2S 3S 4S 5S 6S 7S 8S 9S 10S JS 8C 9C 10C"),
                d("JC QC KC AC 6H 7H 8H 9H 10H JH QH KH AH"),
                d("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"),
            ],
            kitty: Multiset::EMPTY,
        }
    }

    fn col(r: &GongzhuRules, name: &str) -> usize {
        r.columns().iter().position(|c| c.name == name).unwrap()
    }

    fn row(r: &GongzhuRules, policy: Policy, start: &StartingDeal<'_>, seed: u64) -> Vec<i32> {
        let mut row = vec![i32::MIN; r.columns().len()];
        r.play_from_deal(policy, start, &mut deal_rng(seed, 7), &mut row).unwrap();
        row
    }

    #[test]
    fn the_given_hands_are_used_unchanged() {
        let deal = fixed_deal();
        for r in [rules(&[]), rules(&[("exposure_mode", OptionValue::Str("none".into()))])] {
            for dealer in [None, Some(2)] {
                let st = starting_state(&r, &deal, dealer, &mut deal_rng(1, 0)).unwrap();
                for s in 0..4 {
                    assert_eq!(*st.hand(s), deal.hands[s], "seat {s}");
                }
                // ♣2 (seat 0) opens the first deal of a match; a fixed dealer leads instead.
                assert_eq!(st.first_leader(), dealer.unwrap_or(0));
            }
        }
        // Every rollout takes exactly the deck: all 52 cards end up taken.
        let r = rules(&[]);
        let st =
            play_out_from(&r, Policy::Random, &StartingDeal::new(&deal, 1), &mut deal_rng(2, 0))
                .unwrap()
                .0;
        let mut all = Multiset::EMPTY;
        for s in 0..4 {
            all.add_all(st.taken(s)).unwrap();
        }
        assert_eq!(all, Multiset::full_decks(1, false).unwrap());
        assert_eq!(r.deal_shape().unwrap().hand_sizes(), &[13; 4]);
        let two = rules(&[("decks", OptionValue::Int(2))]);
        assert_eq!(two.deal_shape().unwrap().hand_sizes(), &[26; 4]);
        // A wrong deal is rejected by name.
        let bad = Deal { hands: deal.hands[..3].to_vec(), kitty: Multiset::EMPTY };
        let e = starting_state(&r, &bad, None, &mut deal_rng(1, 0)).unwrap_err();
        assert!(e.to_string().contains("3 hands"), "{e}");
    }

    #[test]
    fn a_forced_exposure_is_applied() {
        // Auto-exposure off so that only the seats' own decisions expose the pig.
        let r = rules(&[("auto_expose_fourth", OptionValue::Bool(false))]);
        let deal = fixed_deal();
        let pig = col(&r, "exposed_pig");
        let (expose, none) = (ms("QS"), Multiset::EMPTY);
        let mut seen_policy = [false; 2];
        for seed in 0..40 {
            let start = StartingDeal::new(&deal, 0);
            assert_eq!(
                row(&r, Policy::Random, &start.with_first_action(Some(&expose)), seed)[pig],
                1
            );
            assert_eq!(
                row(&r, Policy::Random, &start.with_first_action(Some(&none)), seed)[pig],
                0
            );
            seen_policy[row(&r, Policy::Random, &start, seed)[pig] as usize] = true;
        }
        assert_eq!(seen_policy, [true, true], "left to the random policy, both decisions occur");
        // Exposing a card not held, or a non-exposable set of three cards, is an IllegalPlay.
        for bad in ["JD", "2C 3C 4C"] {
            let m = ms(bad);
            let start = StartingDeal::new(&deal, 0).with_first_action(Some(&m));
            let mut out = vec![0; r.columns().len()];
            let e = r.play_from_deal(Policy::Random, &start, &mut deal_rng(0, 0), &mut out);
            assert!(matches!(e, Err(ZhipaiError::IllegalPlay { .. })), "{bad}: {e:?}");
        }
    }

    #[test]
    fn a_forced_first_play_is_applied() {
        // Seat 0 leads ♠Q while holding ♠K ♠A: nobody can beat it, seat 0 takes the pig.
        let r = rules(&[("exposure_mode", OptionValue::Str("none".into()))]);
        let deal = fixed_deal();
        let taker = col(&r, "pig_taker");
        let lead = ms("QS");
        let start = StartingDeal::new(&deal, 0).with_dealer(Some(0));
        let mut free_takers = std::collections::HashSet::new();
        for seed in 0..40 {
            assert_eq!(
                row(&r, Policy::Random, &start.with_first_action(Some(&lead)), seed)[taker],
                0
            );
            free_takers.insert(row(&r, Policy::Random, &start, seed)[taker]);
        }
        assert!(free_takers.len() > 1, "without the forced lead the pig goes elsewhere too");
        // First deal of a match: seat 0 holds ♣2 and must lead it (§A.8).
        let start = StartingDeal::new(&deal, 0);
        let c2 = ms("2C");
        assert!(r
            .play_from_deal(
                Policy::Random,
                &start.with_first_action(Some(&c2)),
                &mut deal_rng(0, 0),
                &mut [0; 21]
            )
            .is_ok());
        // Leading QS there is not legal: not played, the policy leads (the same deal as its own).
        let (mut forced, mut free) = ([0; 21], [0; 21]);
        let played = r
            .play_from_deal(
                Policy::Random,
                &start.with_first_action(Some(&lead)),
                &mut deal_rng(0, 0),
                &mut forced,
            )
            .unwrap();
        assert!(!played);
        assert!(!r.play_from_deal(Policy::Random, &start, &mut deal_rng(0, 0), &mut free).unwrap());
        assert_eq!(forced, free);
        let empty = Multiset::EMPTY;
        let e = r
            .play_from_deal(
                Policy::Random,
                &start.with_first_action(Some(&empty)),
                &mut deal_rng(0, 0),
                &mut [0; 21],
            )
            .unwrap_err();
        assert!(e.to_string().contains("exposure_mode=none"), "{e}");
    }

    #[test]
    fn rollouts_are_deterministic_and_thread_independent() {
        for r in [
            rules(&[]),
            rules(&[("decks", OptionValue::Int(2)), ("partnership", OptionValue::Bool(true))]),
        ] {
            let hand = {
                let mut rng = deal_rng(5, 0);
                super::super::state::deal_hands(&r, &mut rng)[0]
            };
            let req = EvalRequest {
                seat: 0,
                hand,
                known: crate::deal::Constraints::new(),
                dealer: None,
                candidates: vec![None, Some(Multiset::EMPTY)],
            };
            let go = |threads| {
                let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
                let opts = crate::rollout::RunOptions {
                    threads: Some(threads),
                    ..options(60, 11, Policy::Greedy)
                };
                evaluate(&r, &req, &opts, Control { stop: &stop, progress: &progress }).unwrap()
            };
            let a = go(1);
            assert_eq!(a.completed, 60);
            assert_eq!(a, go(2), "decks {}", r.decks);
            // Scores are zero-sum before truncation: raw columns are real deals' scores.
            let fin = col(&r, "final_0");
            assert!(a.value.outcomes(1, fin).iter().any(|&v| v != 0));
        }
    }
}
