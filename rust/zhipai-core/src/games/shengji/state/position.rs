//! A Shengji deal seen from one seat, for Monte Carlo evaluation (shengji.md §1–§8; PIMC):
//!
//! * [`ShengjiPosition`]: a deal in progress (burying, 炒底 or playing phase) and the evaluated
//!   seat. What the seat knows ([`Position::view`]) is [`Deal::seat_view`] — its own hand, every
//!   card already played, the kitty when it buried it, the number of cards every hand holds,
//!   the cards shown in declarations and failed throws, the voids shown by play; what is and is
//!   not conditioned on is listed in [`super::world`]. It replays the position in a world with
//!   the hidden cards redrawn ([`Position::play_out`], [`Deal::with_hidden`]).
//! * [`Deal::from_hands_declared`]: a deal whose declaration (level and trump) is known before
//!   the cards are dealt, so the declaring phase is skipped (evaluation with a known trump).

use super::{Deal, Move, Phase, NUM_PLAYERS};
use crate::cards::{CardSet, Suit};
use crate::deal::Deal as Cards;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;
use crate::games::shengji::scoring::Level;
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::DealSimulator;
use crate::simulator::Position;
use crate::tricks::lead_candidates::for_each_lead_candidate;
use crate::tricks::FollowMoves;
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;

use super::super::ShengjiRules;

/// The column added to the simulation columns by position evaluation.
pub const SEAT_RETURN: Column = Column {
    name: "seat_return",
    doc: "levels gained by the evaluated seat's team (negative when the other team gains)",
};

impl Deal {
    /// A deal of the given `hands` and `kitty` whose declaration is known: the level is `level`
    /// (a rank, or the joker-only level), the trump `trump` (`None` = no-trump), and nobody declares (§2.2 is skipped; the
    /// `declarations` count is 0). `dealer` as in [`Deal::new`] (`None` = a random seat drawn from
    /// `rng`). The deal starts in the burying phase with the kitty in the dealer's hand.
    ///
    /// Errors: those of [`Deal::from_hands`] (sizes, cards, dealer seat, options).
    pub fn from_hands_declared(
        rules: &ShengjiRules,
        level: impl Into<Level>,
        trump: Option<Suit>,
        dealer: Option<u8>,
        hands: &[Multiset; NUM_PLAYERS],
        kitty: &Multiset,
        rng: &mut impl RngCore,
    ) -> Result<Deal> {
        let mut deal = Deal::from_hands(rules, level, dealer, hands, kitty, rng)?;
        // Every card is dealt at once: with the declaration known nobody is asked to declare.
        deal.hands = *hands;
        deal.dealt = deal.hand_size * NUM_PLAYERS;
        deal.final_round = 0;
        deal.finish_declaring(); // dealer (random when unknown), kitty into the dealer's hand
        deal.trump = trump;
        deal.set_trick_rules();
        Ok(deal)
    }

    /// Record the voids shown by the trick just completed (called before the trick is
    /// cleared): a follower who played fewer cards of the led effective suit than were led
    /// holds none of it now (§5).
    pub(super) fn note_voids(&mut self) {
        let format = &self.lead_format;
        let led = self.tr.as_deref().expect("playing").order.suit_mask(format.suit as usize);
        for i in 1..NUM_PLAYERS {
            if shows_void(&self.plays[i], led, format.cards) {
                let p = (self.leader as usize + i) % NUM_PLAYERS;
                self.shown_voids[p] |= 1 << format.suit;
            }
        }
    }

    /// Effective suits (bit `s`: 0..4 side suits S H D C, 4 trump) in which `player` has shown
    /// a void in completed tricks or in the current one.
    pub fn shown_voids(&self, player: u8) -> u8 {
        let p = player as usize % NUM_PLAYERS;
        let mut voids = self.shown_voids[p];
        let format = &self.lead_format;
        if let (Some(tr), Phase::Playing) = (self.tr.as_deref(), self.phase) {
            let led = tr.order.suit_mask(format.suit as usize);
            for i in 1..self.played as usize {
                if (self.leader as usize + i) % NUM_PLAYERS == p
                    && shows_void(&self.plays[i], led, format.cards)
                {
                    voids |= 1 << format.suit;
                }
            }
        }
        voids
    }
}

/// Whether `follow`, a legal follow to a lead of `led_cards` cards in the effective suit of
/// kinds `led`, shows a void there: it has fewer cards of that suit than were led (§5). A follow
/// has as many cards as the lead, so that is a card of another suit, read from its kinds without
/// counting cards (a software popcount per play on the hot path of every trick).
fn shows_void(follow: &Multiset, led: CardSet, led_cards: u8) -> bool {
    debug_assert_eq!(follow.len(), led_cards as usize, "a follow has the lead's size");
    !follow.kinds().minus(led).is_empty()
}

/// A Shengji deal in progress and the seat that evaluates it (module docs).
#[derive(Clone, Debug)]
pub struct ShengjiPosition {
    deal: Deal,
    seat: u8,
}

impl ShengjiPosition {
    /// The position of `deal` as `seat` sees it.
    ///
    /// Errors ([`ZhipaiError::InvalidValue`]): a seat outside 0..4; a deal still in the dealing
    /// phase (the declaration is not known yet: evaluate the whole hand instead) or already
    /// over; a card-by-card move half built.
    pub fn new(deal: &Deal, seat: usize) -> Result<ShengjiPosition> {
        if seat >= NUM_PLAYERS {
            return Err(ZhipaiError::invalid_value("seat", seat, "players are 0..=3"));
        }
        match deal.phase() {
            Phase::Dealing => {
                return Err(ZhipaiError::invalid_value(
                    "position",
                    "dealing phase",
                    "a position is evaluated once trump is fixed (burying or playing phase); \
                     evaluate the whole hand with zhipai.evaluate instead",
                ))
            }
            Phase::Done => {
                return Err(ZhipaiError::invalid_value("position", "done", "the deal is over"))
            }
            _ => {}
        }
        if !deal.building.is_empty() {
            return Err(ZhipaiError::invalid_value(
                "position",
                format!("half-built move {}", deal.building),
                "finish the card-by-card move first",
            ));
        }
        Ok(ShengjiPosition { deal: deal.clone(), seat: seat as u8 })
    }

    /// The deal of this position.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The structured move of the seat's action `cards` in this phase.
    fn action(&self, cards: &Multiset) -> Move {
        match self.deal.phase {
            Phase::Burying => Move::Bury(*cards),
            _ => Move::Play(*cards),
        }
    }

    fn to_move(&self) -> bool {
        self.deal.current_player() == Some(self.seat)
    }
}

impl Position for ShengjiPosition {
    /// The simulation columns (`DealSimulator::columns`) plus [`SEAT_RETURN`].
    fn columns(&self) -> Vec<Column> {
        let mut cols = self.deal.rules.columns();
        cols.push(SEAT_RETURN);
        cols
    }

    fn seat(&self) -> usize {
        self.seat as usize
    }

    /// Hidden: the other hands and, unless the seat buried it, the kitty: [`Deal::seat_view`]
    /// (what is and is not conditioned on is listed in [`super::world`]).
    fn view(&self) -> Result<SeatView> {
        self.deal.seat_view(self.seat)
    }

    /// Playing phase, seat to move: its follows (`FollowMoves::enumerate`) or its lead
    /// candidates (every single, pair, triple, tractor / Titanic, and per effective suit the
    /// whole holding when it may be thrown: `for_each_lead_candidate`). Burying phase or
    /// another seat to move: none (the policy decides; give burials explicitly).
    fn legal_candidates(&self, limit: usize) -> Result<Vec<Multiset>> {
        let d = &self.deal;
        if !self.to_move() || d.phase != Phase::Playing || limit == 0 {
            return Ok(Vec::new());
        }
        let tr = d.tr.as_deref().expect("playing");
        let hand = &d.hands[self.seat as usize];
        if d.played > 0 {
            return Ok(FollowMoves::new(tr, &d.lead_format, hand)?.enumerate(limit));
        }
        let mut out = Vec::new();
        for_each_lead_candidate(tr, hand, &mut |m| {
            out.push(*m);
            if out.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        Ok(out)
    }

    fn check_candidate(&self, action: &Multiset) -> Result<()> {
        if !self.to_move() {
            let who = self.deal.current_player().map_or("nobody".into(), |p| format!("seat {p}"));
            return Err(ZhipaiError::illegal_play(
                action,
                format!("seat {} is not to move ({who} is)", self.seat),
            ));
        }
        // Legality depends only on what the seat sees (its hand, the lead): a throw that fails
        // against the real hands is still a legal attempt.
        self.deal.clone().apply(self.action(action))
    }

    fn play_out(
        &self,
        hidden: &Cards,
        action: Option<&Multiset>,
        policy: Policy,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<()> {
        let mut d = self.deal.with_hidden(self.seat, hidden, rng)?;
        if let Some(a) = action {
            d.apply(self.action(a))?;
        }
        while !d.is_terminal() {
            d.policy_step(policy)?;
        }
        let n = row.len();
        let rules = &self.deal.rules;
        rules.write_row_at(d.result().expect("done"), d.level, &mut row[..n - 1]);
        row[n - 1] = d.returns().expect("done")[self.seat as usize] as i32;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, CardSet, Rank};
    use crate::deal::deal_rng;
    use crate::deal::Constraints;
    use crate::eval::{evaluate_declared, evaluate_position, EvalRequest, KnownDeclaration};
    use crate::options::OptionValue;
    use crate::rollout::{Control, RunOptions};
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicBool, AtomicU64};

    fn rules(decks: i64) -> ShengjiRules {
        ShengjiRules::from_preset("tractor", &[("decks".to_string(), OptionValue::Int(decks))])
            .unwrap()
    }

    fn ms(text: &str) -> Multiset {
        text.parse().unwrap()
    }

    fn points(m: &Multiset) -> i32 {
        m.iter().map(|c| c.points() as i32).sum()
    }

    fn position_run(
        pos: &ShengjiPosition,
        candidates: Option<Vec<Option<Multiset>>>,
        samples: u64,
        threads: usize,
    ) -> Result<crate::rollout::Run<crate::eval::Evaluation>> {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts =
            RunOptions { threads: Some(threads), ..RunOptions::new(samples, 11, Policy::Random) };
        let ctl = Control { stop: &stop, progress: &progress };
        evaluate_position(pos, &Constraints::new(), candidates, 64, &opts, ctl)
    }

    /// A random 1- or 2-deck deal with a known declaration (`dealer` 0), played with the random
    /// policy for `steps` moves (burial included).
    fn random_position(decks: i64, seed: u64, steps: usize) -> Deal {
        let r = rules(decks);
        let shape = r.deal_shape().unwrap();
        let cards = crate::deal::deal(&shape, &mut deal_rng(seed, 0));
        let hands: [Multiset; 4] = cards.hands.try_into().unwrap();
        let trump = [None, Some(Suit::Spades), Some(Suit::Hearts)][seed as usize % 3];
        let mut d = Deal::from_hands_declared(
            &r,
            Rank::FIVE,
            trump,
            Some(0),
            &hands,
            &cards.kitty,
            &mut deal_rng(seed, 1),
        )
        .unwrap();
        for _ in 0..steps {
            if d.is_terminal() {
                break;
            }
            d.policy_step(Policy::Random).unwrap();
        }
        d
    }

    #[test]
    fn a_known_declaration_skips_declaring() {
        let r = rules(2);
        let cards = crate::deal::deal(&r.deal_shape().unwrap(), &mut deal_rng(3, 0));
        let hands: [Multiset; 4] = cards.hands.clone().try_into().unwrap();
        let d = Deal::from_hands_declared(
            &r,
            Rank::FIVE,
            Some(Suit::Hearts),
            Some(1),
            &hands,
            &cards.kitty,
            &mut deal_rng(3, 1),
        )
        .unwrap();
        assert_eq!(d.phase(), Phase::Burying);
        assert_eq!(d.current_player(), Some(1));
        assert_eq!(d.trump(), Some(Some(Suit::Hearts)));
        let mut want = hands[1];
        want.add_all(&cards.kitty).unwrap();
        assert_eq!(d.hand(1), want, "the dealer holds the kitty");
        assert_eq!(d.hand(0), hands[0]);
        // 5H is the trump level card: trump, strongest below the jokers (§3.1).
        let tr = d.trick_rules().unwrap();
        assert!(tr.order.is_trump(Card::new(Suit::Hearts, Rank::FIVE)));
        assert!(tr.order.is_trump(Card::new(Suit::Clubs, Rank::FIVE)));
        assert!(!tr.order.is_trump(Card::new(Suit::Clubs, Rank::TWO)));
    }

    #[test]
    fn evaluate_with_a_known_level_trump_and_dealer() {
        let r = rules(2);
        let hand = crate::deal::deal(&r.deal_shape().unwrap(), &mut deal_rng(4, 0)).hands[0];
        let req = EvalRequest {
            seat: 0,
            hand,
            known: Constraints::new(),
            dealer: Some(2),
            candidates: vec![],
        };
        let declared =
            KnownDeclaration { level: Some(Some(Rank::FIVE)), trump: Some(Some(Suit::Hearts)) };
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let ctl = Control { stop: &stop, progress: &progress };
        let opts = RunOptions { threads: Some(1), ..RunOptions::new(40, 1, Policy::Random) };
        let e = evaluate_declared(&r, &req, declared, &opts, ctl).unwrap().value;
        let col = |name: &str| e.columns.iter().position(|c| c.name == name).unwrap();
        assert!(e.outcomes(0, col("dealer")).iter().all(|&v| v == 2));
        assert!(e.outcomes(0, col("trump")).iter().all(|&v| v == 1), "H = 1");
        assert!(e.outcomes(0, col("level")).iter().all(|&v| v == 3), "5 = index 3");
        assert!(e.outcomes(0, col("declarations")).iter().all(|&v| v == 0));
        // No-trump is a known declaration too.
        let nt = KnownDeclaration { level: None, trump: Some(None) };
        let e = evaluate_declared(&r, &req, nt, &opts, ctl).unwrap().value;
        assert!(e.outcomes(0, col("trump")).iter().all(|&v| v == 4));
        assert!(e.outcomes(0, col("level")).iter().all(|&v| v == 0));
    }

    /// Seat 1 (an attacker; seat 0 deals) holds both jokers of a 1-deck pack and nine other
    /// trumps (level 2, spades trump). It never plays a joker while it has another legal card,
    /// so it reaches the last two tricks holding `BJ SJ`.
    fn jokers_position(seed: u64) -> Option<Deal> {
        let r = rules(1);
        let mine = ms("BJ SJ 2S 2H 2D 2C AS KS QS JS 10S 9S");
        let mut rest = Multiset::full_decks(1, true).unwrap();
        rest.remove_all(&mine).unwrap();
        let mut cards: Vec<Card> = rest.iter().collect();
        use rand::seq::SliceRandom;
        cards.shuffle(&mut deal_rng(seed, 0));
        let hand = |k: usize| Multiset::from_cards(&cards[12 * k..12 * (k + 1)]).unwrap();
        let hands = [hand(0), mine, hand(1), hand(2)];
        let kitty = Multiset::from_cards(&cards[36..]).unwrap();
        let mut d = Deal::from_hands_declared(
            &r,
            Rank::TWO,
            Some(Suit::Spades),
            Some(0),
            &hands,
            &kitty,
            &mut deal_rng(seed, 1),
        )
        .unwrap();
        let jokers = ms("BJ SJ");
        while d.hand(1) != jokers {
            if d.is_terminal() || !d.hand(1).contains_all(&jokers) {
                return None;
            }
            if d.current_player() == Some(1) {
                let pos = ShengjiPosition::new(&d, 1).unwrap();
                let no_joker = pos
                    .legal_candidates(10_000)
                    .unwrap()
                    .into_iter()
                    .find(|m| m.count_in(CardSet::JOKERS) == 0)?;
                d.apply(Move::Play(no_joker)).unwrap();
            } else {
                d.policy_step(Policy::Random).unwrap();
            }
        }
        Some(d)
    }

    #[test]
    fn holding_both_jokers_at_the_end_wins_the_kitty_doubled() {
        // Hand computation (shengji.md §3.1, §7): with one pack only BJ beats SJ, so seat 1 wins
        // both remaining tricks whatever is led, and the last one with a single (×2, §7.2). The
        // attackers then collect, on top of the points they already have, every point still
        // out of sight of seat 1 (the other hands and the kitty: U) plus the kitty's points
        // once more: attacker_points = prior + U + kitty_points, kitty_multiplier = 2.
        let mut found = 0;
        for seed in 0..40 {
            let Some(d) = jokers_position(seed) else { continue };
            found += 1;
            let pos = ShengjiPosition::new(&d, 1).unwrap();
            let view = pos.view().unwrap();
            let unseen = 100 - points(&view.gone) - points(&d.hand(1));
            let prior = d.trick_points;
            let e = position_run(&pos, None, 200, 1).unwrap().value;
            let expected_candidates = if d.current_player() == Some(1) { 2 } else { 1 };
            assert_eq!(e.candidates.len(), expected_candidates, "seed {seed}");
            let col = |name: &str| e.columns.iter().position(|c| c.name == name).unwrap();
            for c in 0..e.candidates.len() {
                let ap = e.outcomes(c, col("attacker_points"));
                let kp = e.outcomes(c, col("kitty_points"));
                for s in 0..ap.len() {
                    assert_eq!(ap[s], prior + unseen + kp[s], "seed {seed} sample {s}");
                }
                assert!(e.outcomes(c, col("kitty_multiplier")).iter().all(|&m| m == 2));
                // The kitty is unknown to seat 1: its points vary across samples.
                let ret = e.outcomes(c, col("seat_return"));
                let levels = e.outcomes(c, col("levels"));
                let side = e.outcomes(c, col("side"));
                for s in 0..ret.len() {
                    // Seat 1 attacks: it gains when the attackers' side gains.
                    let sign = if side[s] == 1 { 1 } else { -1 };
                    assert_eq!(ret[s], sign * levels[s]);
                }
            }
            if found >= 3 {
                break;
            }
        }
        assert_eq!(found, 3, "too few seeds reached the position");
    }

    #[test]
    fn the_dealer_knows_its_kitty_and_the_last_trick_is_forced() {
        // The dealer (seat 0) leading the last trick of a 1-deck deal: every card still out is
        // in a hand it cannot see, but the kitty is the one it buried, so kitty_points is the
        // same in every sample.
        for seed in 0..5 {
            let mut d = random_position(1, seed, 0);
            while !d.hands.iter().all(|h| h.len() <= 1) || d.played != 0 {
                d.policy_step(Policy::Random).unwrap();
            }
            let pos = ShengjiPosition::new(&d, 0).unwrap();
            let e = position_run(&pos, None, 50, 1).unwrap().value;
            let col = |name: &str| e.columns.iter().position(|c| c.name == name).unwrap();
            let kp = e.outcomes(0, col("kitty_points"));
            assert!(kp.iter().all(|&k| k == points(&d.kitty)), "seed {seed}");
        }
    }

    #[test]
    fn candidates_are_checked_and_results_do_not_depend_on_threads() {
        let d = random_position(2, 7, 30);
        let to_move = d.current_player().unwrap() as usize;
        let other = (to_move + 1) % 4;
        let pos = ShengjiPosition::new(&d, to_move).unwrap();
        let legal = pos.legal_candidates(3).unwrap();
        assert!(!legal.is_empty());
        let cands: Vec<Option<Multiset>> = legal.iter().copied().map(Some).collect();
        let a = position_run(&pos, Some(cands.clone()), 60, 1).unwrap();
        let b = position_run(&pos, Some(cands), 60, 2).unwrap();
        assert_eq!(a, b);
        // Seat not to move.
        let not = ShengjiPosition::new(&d, other).unwrap();
        let e = position_run(&not, Some(vec![Some(legal[0])]), 5, 1).unwrap_err();
        assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
        assert!(e.to_string().contains(&format!("seat {to_move} is")), "{e}");
        // Its value under the policy is still available.
        assert_eq!(position_run(&not, None, 5, 1).unwrap().value.candidates, vec![None]);
        // A card the seat does not hold.
        let missing = Card::all().find(|&c| d.hand(to_move as u8).count(c) == 0).unwrap();
        let bad = Multiset::from_set(CardSet::single(missing));
        let e = position_run(&pos, Some(vec![Some(bad)]), 5, 1).unwrap_err();
        assert!(
            matches!(e, ZhipaiError::IllegalPlay { .. })
                && e.to_string().contains(&missing.to_string()),
            "{e}"
        );
        // Dealing-phase and finished deals are refused.
        let r = rules(2);
        let fresh = Deal::new(&r, Rank::TWO, None, &mut deal_rng(1, 1)).unwrap();
        assert!(ShengjiPosition::new(&fresh, 0).unwrap_err().to_string().contains("dealing"));
        assert!(ShengjiPosition::new(&d, 4).is_err());
    }

    #[test]
    fn a_follower_without_the_led_suit_shows_a_void() {
        // 1 deck, level 2, spades trump: seat 0 holds the twelve plain hearts, seat 1 the twelve
        // plain clubs. Seat 0 leads 3H; seat 1 cannot follow (§5), so every other seat knows it
        // holds no heart (the effective suit: 2H is trump and stays possible).
        let r = rules(1);
        let (hearts, clubs) = (
            ms("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
            ms("3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
        );
        let mut rest = Multiset::full_decks(1, true).unwrap();
        rest.remove_all(&hearts).unwrap();
        rest.remove_all(&clubs).unwrap();
        let cards: Vec<Card> = rest.iter().collect();
        let hands = [
            hearts,
            clubs,
            Multiset::from_cards(&cards[..12]).unwrap(),
            Multiset::from_cards(&cards[12..24]).unwrap(),
        ];
        let kitty = Multiset::from_cards(&cards[24..]).unwrap();
        let mut d = Deal::from_hands_declared(
            &r,
            Rank::TWO,
            Some(Suit::Spades),
            Some(0),
            &hands,
            &kitty,
            &mut deal_rng(1, 1),
        )
        .unwrap();
        d.apply(Move::Bury(kitty)).unwrap();
        d.apply(Move::Play(ms("3H"))).unwrap();
        let plain_hearts = d.trick_rules().unwrap().order.suit_mask(Suit::Hearts.index());
        assert!(!plain_hearts.contains(Card::new(Suit::Hearts, Rank::TWO)));
        let voids_of_1 = |d: &Deal| {
            ShengjiPosition::new(d, 2).unwrap().view().unwrap().known.voids.get(1).copied()
        };
        assert_eq!(voids_of_1(&d), None, "nothing shown yet");
        d.apply(Move::Play(ms("4C"))).unwrap();
        assert_eq!(voids_of_1(&d), Some(plain_hearts), "shown in the current trick");
        while d.played != 0 {
            d.policy_step(Policy::Random).unwrap(); // finish the trick
        }
        assert_eq!(d.shown_voids(1), 1 << Suit::Hearts.index(), "kept after the trick");
        // The seat's own voids are not constraints (its hand is fixed).
        let own = ShengjiPosition::new(&d, 1).unwrap().view().unwrap();
        assert_eq!(own.known.voids.get(1).copied().unwrap_or_default(), CardSet::EMPTY);
        // No sample gives seat 1 a plain heart.
        let hidden = ShengjiPosition::new(&d, 2).unwrap().view().unwrap().dealer().unwrap();
        for i in 0..200 {
            let s = hidden.deal(&mut deal_rng(5, i));
            assert!(s.hands[1].kinds().intersect(plain_hearts).is_empty());
        }
    }

    #[test]
    fn impossible_knowledge_names_the_constraint() {
        let mut d = random_position(2, 3, 40);
        // Every other player void in everything: the unseen cards only fit in the kitty (no card
        // known in a hand, which the voids would contradict first).
        d.shown_voids = [0b11111; 4];
        d.shown = [Multiset::EMPTY; 4];
        let pos = ShengjiPosition::new(&d, 0).unwrap();
        let e = position_run(&pos, None, 5, 1).unwrap_err();
        assert!(matches!(e, ZhipaiError::ImpossibleDeal { .. }), "{e}");
        // Seat 0 dealt and buried the kitty: no place is left for the unseen cards.
        assert!(e.to_string().contains("void in it") && e.to_string().contains("seat h"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Sampled deals agree with what the seat knows: its own hand (and buried kitty) exact,
        /// no played card dealt again, every hand the size it holds, shown voids respected; and
        /// the true deal is itself consistent with the inferred voids.
        #[test]
        fn samples_are_consistent_with_the_view(
            decks in 1i64..=2, seed in 0u64..1000, steps in 0usize..120, seat in 0usize..4,
        ) {
            let d = random_position(decks, seed, steps);
            prop_assume!(!d.is_terminal());
            let pos = ShengjiPosition::new(&d, seat).unwrap();
            let view = pos.view().unwrap();
            let voids = |p: usize| view.known.voids.get(p).copied().unwrap_or_default();
            for p in 0..4 {
                prop_assert!(d.hand(p as u8).kinds().intersect(voids(p)).is_empty(),
                    "seat {} holds a kind it showed void in", p);
            }
            let hidden = view.dealer().unwrap();
            for i in 0..20 {
                let s = hidden.deal(&mut deal_rng(seed, i));
                let mut all = s.kitty;
                for p in 0..4 {
                    prop_assert_eq!(s.hands[p].len(), d.hand(p as u8).len());
                    prop_assert!(s.hands[p].kinds().intersect(voids(p)).is_empty());
                    all.add_all(&s.hands[p]).unwrap();
                }
                prop_assert_eq!(s.hands[seat], d.hand(seat as u8));
                prop_assert_eq!(s.kitty.len(), d.kitty.len());
                if d.kitty_owner() == Some(seat as u8) {
                    prop_assert_eq!(s.kitty, d.kitty);
                }
                // Played cards are never dealt: hands + kitty + played = the pack.
                all.add_all(&view.gone).unwrap();
                prop_assert_eq!(all, Multiset::full_decks(decks as usize, true).unwrap());
            }
        }
    }
}
