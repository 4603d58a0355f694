//! Built-in Hong Wu policies (random, greedy, basic) and the deal simulator. The greedy player
//! lives in [`super::greedy`]; this file keeps the random player and the first-generation
//! rule-based player, `basic` (the greedy player before issue 13, unchanged, as a baseline).
//!
//! **Random**: uniform over the legal bids (pass included); a uniform trump suit; 8 cards
//! drawn uniformly from the dealer's 33 to bury; a lead drawn uniformly from
//! [`HongWuState::lead_candidates`] (singles, pairs, tractors, and the whole holding of a plain
//! suit when that is a throw — the Shengji random policy's candidates and sampler,
//! [`crate::tricks::lead_candidates::sample_lead`]; a throw another hand can beat fails and is
//! reduced per §B.7); a follow drawn uniformly from the legal follows
//! ([`crate::tricks::sample_follow`]: the distribution of `FollowMoves::sample`, without follow
//! tables for one-card and pair leads).
//!
//! **Basic** (the first-generation rule-based player, kept as a baseline: the `greedy` of before;
//! it sees only its own hand and the cards played so far):
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

use super::auction::{Bid, MIN_RAISE};
pub use super::follow::{play_wins, single_follow_pool};
use super::order::RED_FIVE;
use super::state::{one_unit_lead, points_of, Action, HongWuState, Phase};
use super::{HongWuRules, HAND_SIZE, KITTY_SIZE};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::deal::DealShape;
use crate::error::Result;
use crate::error::ZhipaiError;
use crate::game::Column;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use crate::tricks::lead::is_beaten;
use crate::tricks::lead_candidates::sample_lead;
use crate::tricks::order::{CardOrder, TRUMP};
use crate::tricks::winner::tuple_winner;
use crate::tricks::{check_lead, sample_follow, trick_winner_of, FollowMoves};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;

/// The action `policy` takes in `state` (which must not be over).
pub fn choose<R: Rng + ?Sized>(state: &HongWuState, policy: Policy, rng: &mut R) -> Action {
    match policy {
        Policy::Random => random_action(state, rng),
        Policy::Greedy => super::greedy::greedy_action(state),
        Policy::Basic => basic_action(state, rng),
    }
}

fn random_action<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Action {
    let seat = state.to_act().expect("deal not over");
    match state.phase() {
        Phase::Auction => {
            // Uniform over Pass and the bids lo, lo + 5, …, hi (the order of
            // `Auction::legal_bids`, drawn as `choose` on that list would, without the list).
            let (lo, hi) = state.auction().bid_range().expect("open auction");
            let n = 2 + ((hi - lo) / MIN_RAISE) as usize;
            match rng.random_range(..n) {
                0 => Action::Bid(Bid::Pass),
                i => Action::Bid(Bid::Points(lo + (i as u32 - 1) * MIN_RAISE)),
            }
        }
        Phase::Trump => Action::Trump(Suit::from_index(rng.random_range(0..4))),
        Phase::Kitty => {
            // The dealer's 33 cards in a stack buffer, shuffled; the first 8 are buried.
            let hand = state.hand(seat);
            let mut cards = [Card::BIG_JOKER; HAND_SIZE + KITTY_SIZE];
            let mut n = 0;
            for c in hand.iter().take(cards.len()) {
                cards[n] = c;
                n += 1;
            }
            cards[..n].shuffle(rng);
            Action::Bury(Multiset::from_cards(&cards[..KITTY_SIZE]).expect("held cards"))
        }
        Phase::Play => {
            let tr = state.trick_rules().expect("trump chosen");
            let hand = state.hand(seat);
            Action::Play(match state.lead_format() {
                None => sample_lead(tr, &hand, rng),
                Some(lead) => sample_follow(tr, lead, &hand, rng).expect("a full hand"),
            })
        }
        Phase::Over => unreachable!("no action in a finished deal"),
    }
}

/// The basic estimate of the dealer points `hand` would make (module docs), a multiple of 5
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

/// Strength of a card for basic choices: trumps above plain cards, then the order index.
fn strength(o: &CardOrder, c: Card) -> u32 {
    (o.suit(c) == TRUMP) as u32 * 64 + o.index(c) as u32
}

/// The sum of [`strength`] over the cards of `m` (each copy counted), plane by plane.
fn total_strength(o: &CardOrder, m: &Multiset) -> u32 {
    m.planes()
        .iter()
        .take_while(|&&p| p != 0)
        .map(|&p| CardSet(p).iter().map(|c| strength(o, c)).sum::<u32>())
        .sum()
}

fn points(m: &Multiset) -> i32 {
    points_of(m)
}

fn basic_action<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Action {
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
        Phase::Play => Action::Play(match state.lead_format() {
            None => basic_lead(state, &hand),
            Some(_) => basic_follow(state, rng),
        }),
        Phase::Over => unreachable!("no action in a finished deal"),
    }
}

impl From<Bid> for Action {
    fn from(b: Bid) -> Action {
        Action::Bid(b)
    }
}

fn basic_lead(state: &HongWuState, hand: &Multiset) -> Multiset {
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
        .filter(|m| match one_unit_lead(o, m, hand) {
            // A single or a pair (most candidates): no decomposition.
            Some(u) => !is_beaten(tr, &u, &unseen),
            None => check_lead(tr, m, None)
                .is_ok_and(|f| !f.units.iter().any(|u| is_beaten(tr, u, &unseen))),
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

/// Legal follows the basic player takes in enumeration order, and then as many samples when
/// there are more (module docs: "up to 256").
const BASIC_FIRST: usize = 128;

fn basic_follow<R: Rng + ?Sized>(state: &HongWuState, rng: &mut R) -> Multiset {
    let tr = state.trick_rules().expect("trump chosen");
    let lead = state.lead_format().expect("following");
    let seat = state.to_act().expect("in play");
    let hand = state.hand(seat);
    let mut options = Vec::with_capacity(2 * BASIC_FIRST);
    if lead.cards == 1 {
        // A one-card lead: the legal follows are one card of each kind in the pool, in kind
        // order (as `FollowMoves::for_each` lists them), fewer than BASIC_FIRST.
        let pool = single_follow_pool(&tr.order, lead.suit as usize, &hand);
        options.extend(pool.iter().map(|c| Multiset::from_set(CardSet::single(c))));
    } else {
        // The first BASIC_FIRST legal follows, then as many samples if there are more.
        let moves = FollowMoves::new(tr, lead, &hand).expect("a full hand");
        moves.for_each(&mut |p| {
            options.push(*p);
            if options.len() >= BASIC_FIRST {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if options.len() == BASIC_FIRST {
            let total = moves.count();
            if total > BASIC_FIRST as u64 {
                options.resize(2 * BASIC_FIRST, Multiset::EMPTY);
                let walk =
                    hand.count_in(tr.order.suit_mask(lead.suit as usize)) > lead.cards as usize;
                sample_follows(&moves, total, walk, rng, &mut options[BASIC_FIRST..]);
            }
        }
    }
    // The trick so far, and the winner among its plays (the lead's format is the state's).
    let trick = state.current_trick();
    let winner_now = if lead.cards == 1 {
        tuple_winner(tr, lead.suit as usize, 1, trick)
    } else {
        trick_winner_of(tr, lead, trick).unwrap_or(0)
    };
    let mut winner_seat = state.leader();
    for _ in 0..winner_now {
        winner_seat = state.next_seat(winner_seat);
    }
    let teammate_winning = !state.is_dealer(seat) && !state.is_dealer(winner_seat);
    let o = &tr.order;
    let cost = |m: &Multiset| total_strength(o, m);
    if teammate_winning {
        return *options
            .iter()
            .max_by_key(|m| (points(m), std::cmp::Reverse(cost(m))))
            .expect("a legal follow");
    }
    // Only a play all of the led suit or all trump can win (§B.9), and only an all-trump play
    // once the trick is being won by trumps: skip the winner computation for the others.
    let trump_mask = o.suit_mask(TRUMP);
    let trumps_winning = trick[winner_now].kinds().minus(trump_mask).is_empty();
    let can_win =
        if trumps_winning { trump_mask } else { o.suit_mask(lead.suit as usize).union(trump_mask) };
    let wins = |m: &Multiset| {
        m.kinds().minus(can_win).is_empty() && play_wins(tr, lead, trick, winner_now, m)
    };
    if let Some(m) = options.iter().filter(|m| wins(m)).min_by_key(|m| cost(m)) {
        return *m;
    }
    *options.iter().min_by_key(|m| (points(m), cost(m))).expect("a legal follow")
}

/// Largest number of legal follows [`sample_follows`] walks through to place its draws; above
/// it each draw is a separate [`FollowMoves::sample`].
const SAMPLE_WALK_LIMIT: u64 = 1 << 12;

/// Fill `out` with `out.len()` draws of [`FollowMoves::sample`] from `rng`: the same plays and
/// the same use of `rng` as calling it that many times (property-tested), but with one walk
/// through the legal follows instead of one count and walk per draw. `total` is
/// `moves.count()`, at least 2; `walk` says that the follower holds more cards of the led suit
/// than the lead (no discards).
///
/// This relies on `sample` drawing one index uniformly in `0..total` (a `u64` range) into the
/// order of [`FollowMoves::for_each`] when there are no discards; with discards each draw is a
/// call of `sample` (its discard draws are cheap).
pub(crate) fn sample_follows<R: Rng + ?Sized>(
    moves: &FollowMoves<'_>,
    total: u64,
    walk: bool,
    rng: &mut R,
    out: &mut [Multiset],
) {
    if !walk || total > SAMPLE_WALK_LIMIT || out.len() > u16::MAX as usize {
        for o in out.iter_mut() {
            *o = moves.sample(rng);
        }
        return;
    }
    // (index into the enumeration, slot in `out`), sorted by index for one walk.
    let mut picks: Vec<(u64, u16)> =
        (0..out.len()).map(|i| (rng.random_range(0..total), i as u16)).collect();
    picks.sort_unstable();
    let (mut next, mut idx) = (0, 0u64);
    moves.for_each(&mut |p| {
        while next < picks.len() && picks[next].0 == idx {
            out[picks[next].1 as usize] = *p;
            next += 1;
        }
        idx += 1;
        if next == picks.len() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
}

/// Play one whole deal with `policy` for every seat.
pub fn play_out<R: Rng + ?Sized>(
    state: &mut HongWuState,
    policy: Policy,
    rng: &mut R,
) -> Result<()> {
    while !state.is_over() {
        let a = choose(state, policy, rng);
        // Both policies draw follows from the legal follows: no second check.
        state.apply_trusted(&a)?;
    }
    Ok(())
}

/// The columns of a Hong Wu result row (`simulate`, [`crate::game::Game::columns`]).
pub(super) const COLUMNS: [Column; 12] = [
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
    fn deal_shape(&self) -> Result<DealShape> {
        DealShape::new(2, true, &[HAND_SIZE; 4], KITTY_SIZE)
    }

    /// Hong Wu reading of the hook: `start.dealer = Some(s)` makes seat `s` open the auction
    /// (the dealer 庄家 is then found by bidding, §B.2; `None` draws the opener from `rng`).
    /// Bids are not cards, so `start.first_action` forces the seat's first *card* decision — its
    /// burial if it becomes dealer, else its first lead or follow — except that an empty
    /// multiset means "pass" at its first bid. A burial or play not legal there in this deal is
    /// not made: the policy decides and `false` is returned (move-text candidates, e.g. bids, go
    /// through `evaluate_position`).
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
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
        let mut played = false;
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
                    // A refused action leaves the state unchanged: the policy decides instead.
                    match state.apply(&a) {
                        Ok(_) => played = true,
                        Err(ZhipaiError::IllegalPlay { .. }) => {
                            let a = choose(&state, policy, rng);
                            state.apply_trusted(&a)?;
                        }
                        Err(e) => return Err(e),
                    }
                }
                None => {
                    let a = choose(&state, policy, rng);
                    state.apply_trusted(&a)?;
                }
            }
        }
        write_row(&state, row);
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;

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
        assert!(r.deal_shape().is_ok());
        let mut rng = deal_rng(4, 0);
        let s = HongWuState::deal(&r, &mut rng);
        let deal = Deal { hands: (0..4).map(|p| s.hand(p)).collect(), kitty: s.kitty() };
        assert_eq!(deal.all_cards(), Multiset::full_decks(2, true).unwrap());
        let cols = r.columns().len();
        let run = |start: &StartingDeal<'_>| {
            let mut row = vec![0; cols];
            r.play_from_deal(Policy::Greedy, start, &mut deal_rng(9, 9), &mut row)
                .map(|played| (row, played))
        };
        let base = StartingDeal::new(&deal, 1).with_dealer(Some(2));
        assert_eq!(run(&base).unwrap(), run(&base).unwrap(), "reproducible");
        assert!(!run(&base).unwrap().1, "no candidate: nothing forced");
        // Seat 1 forced to lead/follow a card it does not hold: not played, the policy decides
        // (the deal is the one the policy plays).
        let missing = Card::all().find(|&c| deal.hands[1].count(c) == 0).unwrap();
        let bad = Multiset::from_cards(&[missing]).unwrap();
        assert_eq!(
            run(&base.with_first_action(Some(&bad))).unwrap(),
            (run(&base).unwrap().0, false)
        );
        // An empty action is a pass at the first bid; the deal still settles.
        let empty = Multiset::EMPTY;
        assert!(run(&base.with_first_action(Some(&empty))).unwrap().1);
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
    fn random_bids_are_uniform_over_the_legal_bids() {
        let mut r = HongWuRules::default();
        r.options.first_bid_range = super::super::options::FirstBidRange::To200;
        let mut rng = deal_rng(6, 0);
        let mut s = HongWuState::deal(&r, &mut rng);
        for opening in [None, Some(185)] {
            if let Some(b) = opening {
                s.apply(&Action::Bid(Bid::Points(b))).unwrap();
            }
            let legal = s.auction().legal_bids();
            let mut seen = std::collections::HashMap::new();
            for _ in 0..600 * legal.len() {
                let Action::Bid(b) = choose(&s, Policy::Random, &mut rng) else { panic!() };
                *seen.entry(b).or_insert(0usize) += 1;
            }
            assert_eq!(seen.len(), legal.len(), "{opening:?}: every legal bid drawn, no other");
            for b in &legal {
                let n = seen[b];
                assert!((450..=750).contains(&n), "{opening:?}: {b} drawn {n} times of ~600");
            }
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

#[cfg(test)]
mod props {
    use super::*;
    use crate::deal::deal_rng;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        /// The legal follows of a one-card lead are one card of each kind of the pool, in the
        /// order `FollowMoves::for_each` lists them.
        #[test]
        fn single_follow_pool_lists_the_legal_follows(seed in any::<u64>()) {
            let r = HongWuRules::default();
            let mut rng = deal_rng(seed, 3);
            let mut s = HongWuState::deal(&r, &mut rng);
            let mut checked = 0;
            while !s.is_over() {
                if let (Some(lead), Some(moves)) = (s.lead_format(), s.follow_moves()) {
                    if lead.cards == 1 {
                        let tr = s.trick_rules().unwrap();
                        let hand = s.hand(s.to_act().unwrap());
                        let pool = single_follow_pool(&tr.order, lead.suit as usize, &hand);
                        let listed: Vec<Multiset> =
                            pool.iter().map(|c| Multiset::from_set(CardSet::single(c))).collect();
                        prop_assert_eq!(listed, moves.enumerate(usize::MAX));
                        checked += 1;
                    }
                }
                let a = choose(&s, Policy::Greedy, &mut rng);
                s.apply(&a).unwrap();
            }
            prop_assert!(checked > 0);
        }

        /// `play_wins` (lead and current winner only) agrees with the winner of the whole
        /// trick, for the legal follows at every follow of random and greedy deals.
        #[test]
        fn play_wins_matches_the_whole_trick(seed in any::<u64>(), greedy in any::<bool>()) {
            let policy = if greedy { Policy::Greedy } else { Policy::Random };
            let r = HongWuRules::default();
            let mut rng = deal_rng(seed, 4);
            let mut s = HongWuState::deal(&r, &mut rng);
            let mut checked = 0;
            while !s.is_over() {
                if let (Some(lead), Some(moves)) = (s.lead_format(), s.follow_moves()) {
                    let tr = s.trick_rules().unwrap();
                    let trick = s.current_trick();
                    let now = trick_winner_of(tr, lead, trick).unwrap();
                    for m in moves.enumerate(64) {
                        let mut all = trick.to_vec();
                        all.push(m);
                        let full = trick_winner_of(tr, lead, &all).unwrap() == trick.len();
                        prop_assert_eq!(play_wins(tr, lead, trick, now, &m), full, "{}", m);
                        checked += 1;
                    }
                }
                let a = choose(&s, policy, &mut rng);
                s.apply(&a).unwrap();
            }
            prop_assert!(checked > 0);
        }

        /// The plane-wise strength sum equals the card-by-card sum.
        #[test]
        fn total_strength_is_the_card_sum(
            trump in 0usize..4,
            kinds in proptest::collection::vec(0usize..54, 0..30),
        ) {
            let o = HongWuRules::default().order(Suit::from_index(trump));
            let mut m = Multiset::EMPTY;
            for k in kinds {
                let c = Card::from_index(k).unwrap();
                if m.count(c) < 2 {
                    m.add(c);
                }
            }
            prop_assert_eq!(total_strength(&o, &m), m.iter().map(|c| strength(&o, c)).sum::<u32>());
        }

        /// `sample_follows` gives the plays of as many `FollowMoves::sample` calls and leaves
        /// the generator in the same state, at every follow with several legal plays of
        /// random and greedy deals.
        #[test]
        fn batched_follow_samples_match_follow_moves(seed in any::<u64>(), greedy in any::<bool>()) {
            let policy = if greedy { Policy::Greedy } else { Policy::Random };
            let r = HongWuRules::default();
            let mut rng = deal_rng(seed, 1);
            let mut s = HongWuState::deal(&r, &mut rng);
            let mut checked = 0;
            while !s.is_over() {
                if let Some(moves) = s.follow_moves() {
                    let total = moves.count();
                    if total >= 2 {
                        let mut a = deal_rng(seed, 2);
                        let mut b = a.clone();
                        let mut batch = [Multiset::EMPTY; 24];
                        let lead = s.lead_format().unwrap();
                        let tr = s.trick_rules().unwrap();
                        let held = s.hand(s.to_act().unwrap()).count_in(tr.order.suit_mask(lead.suit as usize));
                        sample_follows(&moves, total, held > lead.cards as usize, &mut a, &mut batch);
                        for (i, m) in batch.iter().enumerate() {
                            prop_assert_eq!(*m, moves.sample(&mut b), "draw {}", i);
                        }
                        prop_assert_eq!(a, b, "same draws consumed");
                        checked += 1;
                    }
                }
                let a = choose(&s, policy, &mut rng);
                s.apply(&a).unwrap();
            }
            prop_assert!(checked > 0);
        }
    }
}
