//! Built-in Hong Wu policies (random, greedy) and the deal simulator.
//!
//! **Random**: uniform over the legal bids (pass included); a uniform trump suit; 8 cards
//! drawn uniformly from the dealer's 33 to bury; a lead drawn uniformly from
//! [`HongWuState::lead_candidates`] (singles, pairs, tractors, and the whole holding of a plain
//! suit when that is a throw — the Shengji random policy's candidates and sampler,
//! [`crate::trick::lead_candidates::sample_lead`]; a throw another hand can beat fails and is
//! reduced per §B.7); a follow drawn uniformly from the legal follows
//! ([`crate::trick::FollowMoves::sample`]).
//!
//! **Greedy** (a simple, documented rule-based player; it sees only its own hand and the cards
//! played so far):
//! * *Bid* from an estimate of hand strength: raw = 10·♥5 + 8·BJ + 6·SJ + 4·twos + 3·threes +
//!   2·(longest suit − 6) + ⌊points held / 5⌋ (at least 0), and the expected dealer points
//!   E = 16 + 0.9·raw rounded down to a multiple of 5 (a least-squares fit of the dealer's points
//!   on raw over 2,000 greedy deals with the opener as dealer at 60: correlation 0.33). It makes
//!   the lowest legal bid while that is at most E, else passes.
//! * *Trump*: the suit with the most cards, ties broken by its high cards (A, K) then S H D C.
//! * *Bury*: the 8 weakest non-trump cards, point cards last (the kitty may be multiplied).
//! * *Lead*: the biggest candidate lead ([`HongWuState::lead_candidates`]) none of whose units
//!   the unseen cards can beat (a "master"), preferring more cards then more points; otherwise
//!   the lowest single of its longest plain suit (or of trump when it has no plain cards). So it
//!   throws (§B.7) exactly when its whole holding of a plain suit is masters: judged from the
//!   unseen cards (it cannot see the other hands), such a throw cannot fail. It never tries a
//!   throw that might fail.
//! * *Follow*: among up to 256 legal follows (the first in enumeration order, then samples): if a
//!   teammate is winning the trick, the one giving the most points; else the cheapest that
//!   wins the trick; else the one with the fewest points and lowest strength. The dealer's
//!   teammates are none; the three 闲家 are each other's teammates.

use super::auction::Bid;
use super::order::RED_FIVE;
use super::state::{Action, HongWuState, Phase};
use super::{HongWuRules, HAND_SIZE, KITTY_SIZE};
use crate::cards::{Card, Rank, Suit};
use crate::deal::DealShape;
use crate::error::Result;
use crate::error::ZhipaiError;
use crate::multiset::Multiset;
use crate::order::{CardOrder, TRUMP};
use crate::policy::Policy;
use crate::rollout::{Column, DealSimulator, StartingDeal};
use crate::trick::lead::is_beaten;
use crate::trick::lead_candidates::sample_lead;
use crate::trick::{check_lead, trick_winner};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The action `policy` takes in `state` (which must not be over).
pub fn choose<R: Rng + ?Sized>(state: &HongWuState, policy: Policy, rng: &mut R) -> Action {
    match policy {
        Policy::Random => random_action(state, rng),
        Policy::Greedy => greedy_action(state, rng),
    }
}

fn random_action<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Action {
    match state.phase() {
        Phase::Auction => {
            Action::Bid(*state.auction().legal_bids().choose(rng).expect("open auction"))
        }
        Phase::Trump => Action::Trump(Suit::from_index(rng.random_range(0..4))),
        Phase::Kitty => {
            let mut cards: Vec<Card> = state.hand(state.to_act().expect("dealer")).iter().collect();
            cards.shuffle(rng);
            Action::Bury(Multiset::from_cards(&cards[..super::KITTY_SIZE]).expect("held cards"))
        }
        Phase::Play => match state.follow_moves() {
            Some(m) => Action::Play(m.sample(rng)),
            None => {
                let tr = state.trick_rules().expect("trump chosen");
                let hand = state.hand(state.to_act().expect("in play"));
                Action::Play(sample_lead(tr, &hand, rng))
            }
        },
        Phase::Over => unreachable!("no action in a finished deal"),
    }
}

/// The greedy estimate of the dealer points `hand` would make (module docs), a multiple of 5
/// in 0…200: the highest bid it supports (below 60 = pass).
pub fn estimated_bid(hand: &Multiset) -> u32 {
    let n = |c: Card| hand.count(c) as i32;
    let rank = |r: Rank| Suit::ALL.iter().map(|&s| n(Card::new(s, r))).sum::<i32>();
    let longest = Suit::ALL.iter().map(|s| hand.count_in(s.mask()) as i32).max().unwrap_or(0);
    let points: i32 = hand.iter().map(|c| c.points() as i32).sum();
    let raw = 10 * n(RED_FIVE)
        + 8 * n(Card::BIG_JOKER)
        + 6 * n(Card::SMALL_JOKER)
        + 4 * rank(Rank::TWO)
        + 3 * rank(Rank::THREE)
        + 2 * (longest - 6)
        + points / 5;
    let points = (160 + 9 * raw.max(0)) / 10;
    (points - points % 5).min(200) as u32
}

/// Strength of a card for greedy choices: trumps above plain cards, then the order index.
fn strength(o: &CardOrder, c: Card) -> u32 {
    (o.suit(c) == TRUMP) as u32 * 64 + o.index(c) as u32
}

fn points(m: &Multiset) -> i32 {
    m.iter().map(|c| c.points() as i32).sum()
}

fn greedy_action<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Action {
    let seat = state.to_act().expect("deal not over");
    let hand = state.hand(seat);
    match state.phase() {
        Phase::Auction => {
            let legal = state.auction().legal_bids();
            let want = estimated_bid(&hand);
            match legal.get(1) {
                Some(&Bid::Points(lowest)) if lowest <= want => Bid::Points(lowest),
                _ => Bid::Pass,
            }
            .into()
        }
        Phase::Trump => {
            let key = |s: Suit| {
                let high = [Rank::ACE, Rank::KING]
                    .iter()
                    .map(|&r| hand.count(Card::new(s, r)))
                    .sum::<usize>();
                (hand.count_in(s.mask()), high, 3 - s.index())
            };
            Action::Trump(Suit::ALL.into_iter().max_by_key(|&s| key(s)).expect("four suits"))
        }
        Phase::Kitty => {
            let o = &state.trick_rules().expect("trump chosen").order;
            let mut cards: Vec<Card> = hand.iter().collect();
            cards.sort_by_key(|&c| (o.suit(c) == TRUMP, c.points() > 0, strength(o, c)));
            Action::Bury(Multiset::from_cards(&cards[..super::KITTY_SIZE]).expect("held cards"))
        }
        Phase::Play => Action::Play(match state.follow_moves() {
            None => greedy_lead(state, &hand),
            Some(_) => greedy_follow(state, rng),
        }),
        Phase::Over => unreachable!("no action in a finished deal"),
    }
}

impl From<Bid> for Action {
    fn from(b: Bid) -> Action {
        Action::Bid(b)
    }
}

fn greedy_lead(state: &HongWuState, hand: &Multiset) -> Multiset {
    let tr = state.trick_rules().expect("trump chosen");
    let o = &tr.order;
    // Unseen cards: two decks minus own hand, minus played cards, minus (for the dealer) kitty.
    let mut unseen = Multiset::full_decks(2, true).expect("two decks");
    let _ = unseen.remove_all(hand);
    let _ = unseen.remove_all(&state.played());
    if state.is_dealer(state.to_act().expect("in play")) {
        let _ = unseen.remove_all(&state.kitty());
    }
    let best = state
        .lead_candidates()
        .into_iter()
        .filter(|m| {
            check_lead(tr, m, None)
                .is_ok_and(|f| !f.units.iter().any(|u| is_beaten(tr, u, &unseen)))
        })
        .max_by_key(|m| (m.len(), points(m), m.iter().map(|c| strength(o, c)).max()));
    if let Some(m) = best {
        return m;
    }
    let longest = (0..4usize)
        .filter(|&s| !hand.restrict(o.suit_mask(s)).is_empty())
        .max_by_key(|&s| hand.restrict(o.suit_mask(s)).len())
        .unwrap_or(TRUMP);
    let low = hand
        .restrict(o.suit_mask(longest))
        .iter()
        .min_by_key(|&c| (c.points(), strength(o, c)))
        .expect("a held card of that suit");
    let mut m = Multiset::EMPTY;
    m.add(low);
    m
}

fn greedy_follow<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Multiset {
    let tr = state.trick_rules().expect("trump chosen");
    let moves = state.follow_moves().expect("following");
    let mut options = moves.enumerate(128);
    if moves.count() > options.len() as u64 {
        options.extend((0..128).map(|_| moves.sample(rng)));
    }
    let seat = state.to_act().expect("in play");
    let trick = state.current_trick();
    let winner_now = trick_winner(tr, trick).unwrap_or(0);
    let mut winner_seat = state.leader();
    for _ in 0..winner_now {
        winner_seat = state.next_seat(winner_seat);
    }
    let teammate_winning = !state.is_dealer(seat) && !state.is_dealer(winner_seat);
    let o = &tr.order;
    let cost = |m: &Multiset| m.iter().map(|c| strength(o, c)).sum::<u32>();
    if teammate_winning {
        return *options
            .iter()
            .max_by_key(|m| (points(m), std::cmp::Reverse(cost(m))))
            .expect("a legal follow");
    }
    let wins = |m: &Multiset| {
        let mut plays: Vec<Multiset> = trick.to_vec();
        plays.push(*m);
        trick_winner(tr, &plays).is_ok_and(|w| w == plays.len() - 1)
    };
    if let Some(m) = options.iter().filter(|m| wins(m)).min_by_key(|m| cost(m)) {
        return *m;
    }
    *options.iter().min_by_key(|m| (points(m), cost(m))).expect("a legal follow")
}

/// Play one whole deal with `policy` for every seat.
pub fn play_out<R: Rng + ?Sized>(
    state: &mut HongWuState,
    policy: Policy,
    rng: &mut R,
) -> Result<()> {
    while !state.is_over() {
        let a = choose(state, policy, rng);
        state.apply(&a)?;
    }
    Ok(())
}

const COLUMNS: [Column; 12] = [
    Column { name: "dealer", doc: "the dealer's seat 0 to 3 (seats numbered anticlockwise)" },
    Column { name: "bid", doc: "the dealer's bid, 60…200" },
    Column { name: "trump", doc: "trump suit 0 to 3 = S H D C" },
    Column {
        name: "attacker_points",
        doc: "X: the 闲家's points, kitty included (hongwu.md §B.10)",
    },
    Column { name: "dealer_points", doc: "the dealer's points entering S (hongwu.md §B.11)" },
    Column { name: "red5_penalty", doc: "R5 in points (hongwu.md §B.11)" },
    Column { name: "score", doc: "S = dealer points − bid − R5" },
    Column { name: "dealer_result", doc: "the dealer's result: table units × base_score_k" },
    Column { name: "each_other_result", doc: "each 闲家's result: table units × base_score_k" },
    Column { name: "kitty_points", doc: "card points buried in the kitty" },
    Column {
        name: "kitty_multiplier",
        doc: "last trick's multiplier 2/4/8 if a 闲家 won it, else 0",
    },
    Column { name: "tricks", doc: "number of tricks played" },
];

/// Write the result row of a finished deal (columns of [`COLUMNS`]).
pub fn write_row(state: &HongWuState, row: &mut [i32]) {
    let s = state.settlement().expect("a finished deal is settled");
    let c = state.contract().expect("a finished deal has a dealer");
    let values = [
        c.dealer as i32,
        c.bid as i32,
        state.trump().expect("trump chosen").index() as i32,
        s.attacker_points,
        s.dealer_points,
        s.red5_penalty,
        s.score,
        s.dealer as i32,
        s.each_other as i32,
        state.kitty_points(),
        if state.last_winner_is_xianjia() { state.last_multiplier() } else { 0 },
        state.tricks() as i32,
    ];
    row[..values.len()].copy_from_slice(&values);
}

impl DealSimulator for HongWuRules {
    fn columns(&self) -> Vec<Column> {
        COLUMNS.to_vec()
    }

    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        let mut state = HongWuState::deal(self, rng);
        play_out(&mut state, policy, rng)?;
        write_row(&state, row);
        Ok(())
    }

    /// Two decks with jokers, 25 cards to each of 4 seats, an 8-card kitty (hongwu.md §B.1).
    fn deal_shape(&self) -> Option<DealShape> {
        DealShape::new(2, true, &[HAND_SIZE; 4], KITTY_SIZE).ok()
    }

    /// Hong Wu reading of the hook: `start.dealer = Some(s)` makes seat `s` open the auction
    /// (the dealer 庄家 is then found by bidding, §B.2; `None` draws the opener from `rng`).
    /// Bids are not cards, so `start.first_action` forces the seat's first *card* decision — its
    /// burial if it becomes dealer, else its first lead or follow — except that an empty
    /// multiset means "pass" at its first bid. An illegal forced action is an `IllegalPlay`.
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<()> {
        let hands: [Multiset; 4] = start.deal.hands.clone().try_into().map_err(|h: Vec<_>| {
            ZhipaiError::invalid_value(
                "deal",
                format!("{} hands", h.len()),
                "Hong Wu deals 4 hands",
            )
        })?;
        let first = match start.dealer {
            Some(d) => d,
            None => rng.random_range(0..4),
        };
        let mut state = HongWuState::with_hands(self, hands, start.deal.kitty, first)?;
        let mut forced = start.first_action.copied();
        while !state.is_over() {
            let seat = state.to_act().expect("deal not over");
            let action = match (forced, seat == start.seat, state.phase()) {
                (Some(m), true, Phase::Auction) if m.is_empty() => Some(Action::Bid(Bid::Pass)),
                (Some(m), true, Phase::Kitty) if !m.is_empty() => Some(Action::Bury(m)),
                (Some(m), true, Phase::Play) if !m.is_empty() => Some(Action::Play(m)),
                _ => None,
            };
            match action {
                Some(a) => {
                    forced = None;
                    state.apply(&a)?;
                }
                None => {
                    let a = choose(&state, policy, rng);
                    state.apply_trusted(&a)?;
                }
            }
        }
        write_row(&state, row);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::deal_rng;

    fn run(rules: &HongWuRules, policy: Policy, seed: u64, n: u64) -> Vec<Vec<i32>> {
        let cols = rules.columns().len();
        (0..n)
            .map(|i| {
                let mut row = vec![i32::MIN; cols];
                rules.play_deal(policy, &mut deal_rng(seed, i), &mut row).unwrap();
                row
            })
            .collect()
    }

    #[test]
    fn simulated_rows_are_consistent_and_reproducible() {
        let r = HongWuRules::default();
        let names: Vec<&str> = r.columns().iter().map(|c| c.name).collect();
        let col = |n: &str| names.iter().position(|&c| c == n).unwrap();
        for policy in [Policy::Random, Policy::Greedy] {
            let rows = run(&r, policy, 11, 40);
            assert_eq!(rows, run(&r, policy, 11, 40), "same seed, same rows");
            for row in &rows {
                assert!(!row.contains(&i32::MIN), "every column written");
                assert!(
                    (0..4).contains(&row[col("dealer")]) && (0..4).contains(&row[col("trump")])
                );
                assert!((60..=200).contains(&row[col("bid")]));
                assert_eq!(row[col("dealer_points")], 200 - row[col("attacker_points")]);
                assert_eq!(row[col("score")], row[col("dealer_points")] - row[col("bid")]);
                assert_eq!(row[col("dealer_result")] + 3 * row[col("each_other_result")], 0);
                assert!([0, 2, 4, 8].contains(&row[col("kitty_multiplier")]));
            }
        }
    }

    #[test]
    fn play_from_deal_reproduces_and_forces() {
        use crate::deal::Deal;
        let r = HongWuRules::default();
        assert!(r.deal_shape().is_some());
        let mut rng = deal_rng(4, 0);
        let s = HongWuState::deal(&r, &mut rng);
        let deal = Deal { hands: (0..4).map(|p| s.hand(p)).collect(), kitty: s.kitty() };
        assert_eq!(deal.all_cards(), Multiset::full_decks(2, true).unwrap());
        let cols = r.columns().len();
        let run = |start: &StartingDeal<'_>| {
            let mut row = vec![0; cols];
            r.play_from_deal(Policy::Greedy, start, &mut deal_rng(9, 9), &mut row).map(|_| row)
        };
        let base = StartingDeal::new(&deal, 1).with_dealer(Some(2));
        assert_eq!(run(&base).unwrap(), run(&base).unwrap(), "reproducible");
        // Seat 1 forced to lead/follow a card it does not hold: IllegalPlay.
        let missing = Card::all().find(|&c| deal.hands[1].count(c) == 0).unwrap();
        let bad = Multiset::from_cards(&[missing]).unwrap();
        let e = run(&base.with_first_action(Some(&bad))).unwrap_err();
        assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
        // An empty action is a pass at the first bid; the deal still settles.
        let empty = Multiset::EMPTY;
        assert!(run(&base.with_first_action(Some(&empty))).is_ok());
        let wrong = Deal { hands: deal.hands[..3].to_vec(), kitty: deal.kitty };
        assert!(run(&StartingDeal::new(&wrong, 0)).is_err());
    }

    /// Throws attempted and throws failed over `n` deals of `policy` (leads whose cards form
    /// several units, §B.7).
    fn throws(policy: Policy, n: u64) -> (u32, u32) {
        let r = HongWuRules::default();
        let (mut tried, mut failed) = (0, 0);
        for i in 0..n {
            let mut rng = deal_rng(71, i);
            let mut s = HongWuState::deal(&r, &mut rng);
            while !s.is_over() {
                let leading = s.phase() == Phase::Play && s.current_trick().is_empty();
                let a = choose(&s, policy, &mut rng);
                if let (true, Action::Play(m)) = (leading, a) {
                    let tr = s.trick_rules().unwrap();
                    let f = check_lead(tr, &m, None).unwrap();
                    assert!(f.units.len() == 1 || !tr.order.is_trump(m.iter().next().unwrap()));
                    tried += f.is_throw() as u32;
                }
                if let Some(p) = s.apply(&a).unwrap() {
                    failed += p.failed_throw.is_some() as u32;
                }
            }
        }
        (tried, failed)
    }

    #[test]
    fn random_and_greedy_throw() {
        let (tried, failed) = throws(Policy::Random, 30);
        assert!(tried > 0 && failed > 0, "random throws, some fail: {tried} {failed}");
        let (tried, failed) = throws(Policy::Greedy, 30);
        assert!(tried > 0, "greedy throws its masters");
        assert_eq!(failed, 0, "greedy throws only masters, which cannot fail");
    }

    #[test]
    fn random_leads_are_uniform_over_the_candidates() {
        let r = HongWuRules::default();
        let mut rng = deal_rng(5, 0);
        let mut s = HongWuState::deal(&r, &mut rng);
        while !(s.phase() == Phase::Play && s.current_trick().is_empty()) {
            let a = choose(&s, Policy::Greedy, &mut rng);
            s.apply(&a).unwrap();
        }
        let cands = s.lead_candidates();
        let tr = s.trick_rules().unwrap();
        assert!(cands.iter().any(|m| check_lead(tr, m, None).unwrap().is_throw()), "a throw");
        let mut seen = std::collections::HashMap::new();
        let draws = 200 * cands.len();
        for _ in 0..draws {
            let Action::Play(m) = choose(&s, Policy::Random, &mut rng) else { panic!() };
            *seen.entry(m).or_insert(0usize) += 1;
        }
        assert_eq!(seen.len(), cands.len(), "every candidate drawn, nothing else");
        for c in &cands {
            let n = seen[c];
            assert!((120..=280).contains(&n), "{c} drawn {n} times of ~200");
        }
    }

    #[test]
    fn greedy_bids_follow_hand_strength() {
        let weak: Multiset = "4C 6C 7D 8D 9H 6S 7S 8S 9S 4D 6D".parse().unwrap();
        assert_eq!(estimated_bid(&weak), 15, "raw 0: pass");
        let strong: Multiset = "5H 5H BJ BJ SJ SJ 2S 2S 2H 2C 3S 3C KS KS 10S".parse().unwrap();
        // raw = 20 + 16 + 12 + 16 + 6 + 2·(6 − 6) + 40/5 = 78 → 16 + 70.2 → 85.
        assert_eq!(estimated_bid(&strong), 85);
    }
}
