//! Built-in players and the simulation contract (`rollout::DealSimulator`).
//!
//! * `random`: uniform over the legal moves at every decision, accession included
//!   ([`State::sample_move`]). Every player offered the scepter or a grab chance picks grab
//!   (抢独) with probability 1/(options), so **most random deals are 抢独**: about 64% 抢独,
//!   17% 明保, 16% 暗保, 1% each 明独 / 暗独 (`zhipai simulate baohuang -n 5000`, column `mode`).
//!   That is the documented meaning of `random` (a uniform baseline, not a model of players);
//!   use `greedy` for deals where accession follows the hand.
//! * `greedy`: the rule-based player of [`super::greedy`] (hand strength decides accession, grab
//!   and 明保; the rollout policy of search players);
//! * `basic`: the first-generation rule-based player of [`super::basic`], kept as a baseline.

use super::basic::basic;
use super::greedy::greedy;
use super::moves::shape_of;
use super::options::{Deck, ExtraCardTo};
use super::scoring::Mode;
use super::state::{Move, Phase, State, PLAYERS};
use super::BaohuangRules;
use crate::cards::Card;
use crate::deal::DealShape;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The move `policy` makes in `state` (`None` when the deal is over).
pub fn choose<R: Rng + ?Sized>(policy: Policy, state: &State, rng: &mut R) -> Option<Move> {
    match policy {
        Policy::Random => state.sample_move(rng),
        Policy::Greedy => greedy(state),
        Policy::Basic => basic(state),
    }
}

const COLUMNS: [Column; 22] = [
    Column { name: "emperor", doc: "seat of the emperor (0 to 4, playing order); -1 for a 黄局 deal in hand evaluation (no redeal there; scores 0)" },
    Column { name: "guard", doc: "seat of the guard, -1 in solo modes" },
    Column { name: "mode", doc: "0 normal (暗保), 1 open_guard (明保), 2 grab (抢独), 3 open_solo (明独), 4 secret_solo (暗独); the random policy is uniform over every legal accession move, so most random deals are 抢独; -1 for 黄局 in evaluation" },
    Column { name: "open_guard", doc: "1 if the guard chose 明保 (scores doubled)" },
    Column { name: "solo", doc: "1 if the emperor played alone (抢独, 明独, 暗独)" },
    Column { name: "dengji_card", doc: "kind index 0 to 53 of the 登基 card, -1 for 抢独" },
    Column { name: "abdications", doc: "让位 before the emperor was found" },
    Column { name: "forced", doc: "1 if the emperor was forced (逼位)" },
    Column { name: "redeals", doc: "黄局 redeals before this deal" },
    Column { name: "plays", doc: "plays made (leads and beats)" },
    Column { name: "emperor_place", doc: "emperor's finishing place 1 (大客) .. 5 (大拉)" },
    Column { name: "guard_place", doc: "guard's finishing place, -1 in solo modes" },
    Column { name: "place_0", doc: "finishing place of seat 0" },
    Column { name: "place_1", doc: "finishing place of seat 1" },
    Column { name: "place_2", doc: "finishing place of seat 2" },
    Column { name: "place_3", doc: "finishing place of seat 3" },
    Column { name: "place_4", doc: "finishing place of seat 4" },
    Column { name: "score_0", doc: "score of seat 0 (baohuang.md §C.9/§C.10)" },
    Column { name: "score_1", doc: "score of seat 1" },
    Column { name: "score_2", doc: "score of seat 2" },
    Column { name: "score_3", doc: "score of seat 3" },
    Column { name: "score_4", doc: "score of seat 4" },
];

/// Redeals allowed before giving up (黄局 is rare: nobody holding exactly 3 identical cards).
const MAX_REDEALS: i32 = 1000;

impl BaohuangRules {
    /// Play one deal to the end with `policy` for every seat; returns the final state and the
    /// number of 黄局 redeals. Errors with `ImpossibleDeal` after 1000 void deals in a row.
    pub fn play_out<R: Rng + ?Sized>(&self, policy: Policy, rng: &mut R) -> Result<(State, i32)> {
        for redeals in 0..MAX_REDEALS {
            let mut state = State::new(self, rng);
            if policy == Policy::Random {
                while state.step_random(rng) {} // the draws and moves of `choose`, in place
            } else {
                play_rule_based(policy, &mut state);
            }
            if !state.is_void() {
                return Ok((state, redeals));
            }
        }
        Err(ZhipaiError::impossible_deal(format!("{MAX_REDEALS} void deals (黄局) in a row")))
    }
}

/// Play `state` to the end with a rule-based player (they draw nothing). Kept out of line so
/// that the random loop of [`BaohuangRules::play_out`] stays as compact as it was.
#[inline(never)]
pub(super) fn play_rule_based(policy: Policy, state: &mut State) {
    let basic_player = policy == Policy::Basic;
    while let Some(mv) = if basic_player { basic(state) } else { greedy(state) } {
        state.apply_unchecked(mv); // built-in policies only make legal moves
    }
}

/// The columns of a result row ([`write_row`]).
pub fn columns() -> Vec<Column> {
    COLUMNS.to_vec()
}

impl DealSimulator for BaohuangRules {
    fn columns(&self) -> Vec<Column> {
        columns()
    }

    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        let (s, redeals) = self.play_out(policy, rng)?;
        write_row(&s, redeals, row);
        Ok(())
    }

    /// Four decks with jokers, hands of 44, 43, 43, 43, 43 and no kitty (§C.1): **seat 0 is the
    /// first-dealt seat**, which gets the extra card. Seats are in playing order, so any seating
    /// is expressed by choosing the evaluated seat: a 44-card hand is seat 0, a 43-card hand one
    /// of seats 1..5 (seat `s` sits `s` places after the 44-card player in playing order).
    /// Errors with `InvalidOption` naming the option for `deck = 168` (not whole decks: the
    /// sampler deals whole decks) and `extra_card_to = scepter_last` (the 44-card seat must then
    /// hold the scepter BJ, a constraint the sampler does not take).
    fn deal_shape(&self) -> Result<DealShape> {
        if self.deck != Deck::Full216 {
            return Err(ZhipaiError::invalid_option(
                "deck",
                "168",
                "Baohuang hand evaluation deals four whole decks (216); simulate plays 168",
            ));
        }
        if self.extra_card_to != ExtraCardTo::FirstDealtSeat {
            return Err(ZhipaiError::invalid_option(
                "extra_card_to",
                "scepter_last",
                "Baohuang hand evaluation needs first_dealt_seat (with scepter_last the 44-card \
                 seat holds the scepter BJ, which the sampler does not impose); simulate plays it",
            ));
        }
        DealShape::new(4, true, &[44, 43, 43, 43, 43], 0)
    }

    /// A `dealer` (the scepter holder) must hold a BJ in every sample: the evaluated seat's
    /// hand, or the cards known in the dealer's hand, must show one (`InvalidValue` otherwise,
    /// before any sample).
    fn check_evaluation(
        &self,
        seat: usize,
        hand: &Multiset,
        known: &[Multiset],
        dealer: Option<usize>,
    ) -> Result<()> {
        let Some(d) = dealer else { return Ok(()) };
        let cards = if d == seat { Some(hand) } else { known.get(d) };
        if cards.is_some_and(|c| c.contains(Card::BIG_JOKER)) {
            return Ok(());
        }
        Err(ZhipaiError::invalid_value(
            "dealer",
            d,
            "the dealer is the scepter holder and must hold a BJ: give one as a known card of \
             that seat (Python known={\"hands\": {seat: \"BJ\"}}, CLI --known SEAT:BJ)",
        ))
    }

    /// Baohuang reading of the hook (the hands are used unchanged; a 黄局 deal cannot be redealt
    /// here, so it is reported with `emperor = -1` and all scores 0):
    ///
    /// * **Scepter (权杖).** The four BJ are alike in card notation, so the scepter holder is:
    ///   `start.dealer` when given (that seat must hold a BJ: pass it as known cards when it is
    ///   not the evaluated seat, else `InvalidValue`); otherwise the evaluated seat when its hand
    ///   holds a BJ (its holder knows the marked card; the question "ascend or yield?"); otherwise
    ///   one of the other seats' BJ drawn uniformly from `rng` (as the shuffle does).
    /// * **First action when the evaluated seat holds the scepter**: its accession decision
    ///   (§C.3), the first decision of the deal:
    ///   - `""` (empty) = 让位 (abdicate: the scepter passes clockwise);
    ///   - one card (write the BJ) = 抢独 (grab: emperor alone, §C.3.5);
    ///   - two or more copies of one kind X (e.g. `"9C 9C 9C"`, `"BJ BJ BJ"`) = 登基 with X
    ///     (3 copies: a hidden guard holds the 4th; 4 copies: 独保, then the policy picks 明独 or
    ///     暗独); X must be one of the seat's 登基 options.
    /// * **Otherwise**: a card play (suits as given) or `""` = pass (过牌), made at the seat's
    ///   first card-play decision where it is legal: a play at its first lead or first response
    ///   it beats, a pass at its first response. What is on the table differs from sample to
    ///   sample, so the policy makes the seat's decisions until then (and all of them in a
    ///   sample where the candidate never becomes legal: its cards were played first, or the
    ///   seat went out). Decisions it meets before play (a grab chance, 逼位, 明保 / 暗保) are
    ///   the policy's. A candidate that is no play at all (two ranks) or not in the seat's hand
    ///   is an `IllegalPlay` before any sample.
    ///
    /// An accession candidate that is not legal is an `IllegalPlay` naming the cards
    /// (e.g. a play that does not beat the play on the table).
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<bool> {
        let hands: [Multiset; PLAYERS] =
            start.deal.hands.clone().try_into().map_err(|h: Vec<Multiset>| {
                ZhipaiError::invalid_value("deal", format!("{} hands", h.len()), "Baohuang deals 5")
            })?;
        if start.seat >= PLAYERS {
            return Err(ZhipaiError::invalid_value("seat", start.seat, "expected a seat 0 to 4"));
        }
        let scepter = scepter_seat(&hands, start, rng)?;
        let first_dealt = (0..PLAYERS).max_by_key(|&s| (hands[s].len(), PLAYERS - s)).unwrap_or(0);
        let mut state = State::from_hands(self, hands, scepter, first_dealt as u8)?;
        let seat = start.seat as u8;
        let holder = scepter == seat;
        let mut forced = start.first_action;
        if let Some(cards) = forced.filter(|_| !holder) {
            check_play_candidate(&state, seat, cards)?;
        }
        while let Some(to_act) = state.current_player() {
            let applies = match state.phase() {
                Phase::Accession => holder,
                Phase::Play => !holder && forced.is_some_and(|c| play_candidate_legal(&state, c)),
                _ => false,
            };
            match forced.filter(|_| to_act == seat && applies) {
                Some(cards) => {
                    forced = None;
                    apply_forced(&mut state, cards)?;
                }
                None => {
                    let mv = choose(policy, &state, rng).expect("a player is to act");
                    state.apply_unchecked(mv);
                }
            }
        }
        write_row(&state, 0, row);
        Ok(start.first_action.is_some() && forced.is_none())
    }
}

/// The scepter holder of an evaluated deal (see [`BaohuangRules::play_from_deal`]).
fn scepter_seat(
    hands: &[Multiset; PLAYERS],
    start: &StartingDeal<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<u8> {
    if let Some(d) = start.dealer {
        return dealer_scepter(hands, d);
    }
    if hands[start.seat].contains(Card::BIG_JOKER) {
        return Ok(start.seat as u8);
    }
    draw_scepter(hands, rng)
}

/// A given dealer as the scepter holder: `InvalidValue` naming it unless it holds a BJ.
pub(super) fn dealer_scepter(hands: &[Multiset; PLAYERS], d: usize) -> Result<u8> {
    if d >= PLAYERS || !hands[d].contains(Card::BIG_JOKER) {
        return Err(ZhipaiError::invalid_value(
            "dealer",
            d,
            "the dealer is the scepter holder and must hold a BJ (give it as a known card)",
        ));
    }
    Ok(d as u8)
}

/// The scepter holder drawn from `rng` as the shuffle makes it: one of the BJ copies, uniformly.
pub(super) fn draw_scepter(hands: &[Multiset; PLAYERS], rng: &mut ChaCha8Rng) -> Result<u8> {
    let bj = |s: usize| hands[s].count(Card::BIG_JOKER);
    let total: usize = (0..PLAYERS).map(bj).sum();
    let mut k = rng.random_range(0..total.max(1));
    for s in 0..PLAYERS {
        if k < bj(s) {
            return Ok(s as u8);
        }
        k -= bj(s);
    }
    Err(ZhipaiError::invalid_value("hands", "no BJ", "the deck has four BJ"))
}

/// A non-holder's candidate must be a pass or one play (§C.4) held by the seat.
pub(super) fn check_play_candidate(state: &State, seat: u8, cards: &Multiset) -> Result<()> {
    if cards.is_empty() {
        return Ok(());
    }
    shape_of(cards, None).map_err(|why| ZhipaiError::illegal_play(cards, why))?;
    let hand = state.hand(seat);
    if !hand.contains_all(cards) {
        let why = format!("seat {seat} does not hold {}", hand.shortfall(cards));
        return Err(ZhipaiError::illegal_play(cards, why));
    }
    Ok(())
}

/// Whether a non-holder's candidate (`""` = pass) is legal for the player to act.
pub(super) fn play_candidate_legal(state: &State, cards: &Multiset) -> bool {
    if cards.is_empty() {
        state.check_move(&Move::Pass).is_ok()
    } else {
        state.cards_error(cards).is_none()
    }
}

/// Apply an evaluation candidate where it applies: an accession decision in `Accession`, a play
/// or pass in `Play` (see [`BaohuangRules::play_from_deal`]).
fn apply_forced(state: &mut State, cards: &Multiset) -> Result<()> {
    if state.phase() == Phase::Play {
        return if cards.is_empty() { state.apply(Move::Pass) } else { state.apply_cards(cards) };
    }
    let mv = accession_move(state, cards)?;
    state.apply_unchecked(mv);
    Ok(())
}

/// The accession decision an evaluation candidate of the seat to act stands for (see
/// [`BaohuangRules::play_from_deal`]), checked: `IllegalPlay` naming the cards otherwise.
pub(super) fn accession_move(state: &State, cards: &Multiset) -> Result<Move> {
    let kinds = cards.kinds();
    let mv = match (cards.len(), kinds.len()) {
        (0, _) => Move::Abdicate,
        (1, _) if cards.contains(Card::BIG_JOKER) => Move::Grab,
        (n, 1) if n >= 2 => {
            let card = kinds.iter().next().expect("one kind");
            let held = state.hand(state.current_player().expect("a seat to act")).count(card);
            if held != n {
                let why = format!("a 登基 candidate is every copy the seat holds: {card} ×{held}");
                return Err(ZhipaiError::illegal_play(cards, why));
            }
            Move::Ascend(card)
        }
        _ => {
            return Err(ZhipaiError::illegal_play(
                cards,
                "an accession candidate is \"\" (让位), \"BJ\" (抢独 with the scepter) or the \
                 copies of the 登基 card (\"9C 9C 9C\")",
            ))
        }
    };
    state.check_move(&mv).map_err(|why| ZhipaiError::illegal_play(cards, why))?;
    Ok(mv)
}

/// One result row (see `COLUMNS`); a void deal (黄局, only in hand evaluation) has emperor,
/// guard, mode and 登基 card -1 and everything else 0 but the abdications.
pub fn write_row(s: &State, redeals: i32, row: &mut [i32]) {
    let places = s.places();
    let mut v = [0i32; COLUMNS.len()];
    v[6] = s.abdications() as i32;
    v[8] = redeals;
    match s.emperor() {
        None => {
            for k in [0, 1, 2, 5, 11] {
                v[k] = -1;
            }
        }
        Some(e) => {
            v[0] = e as i32;
            v[1] = s.guard().map_or(-1, i32::from);
            v[2] = s.mode().code();
            v[3] = (s.mode() == Mode::OpenGuard) as i32;
            v[4] = s.mode().is_solo() as i32;
            v[5] = s.dengji_card().map_or(-1, |c| c.index() as i32);
            v[7] = (s.abdications() >= PLAYERS as u8) as i32;
            v[9] = s.plays() as i32;
            v[10] = places[e as usize] as i32;
            v[11] = s.guard().map_or(-1, |g| places[g as usize] as i32);
            for seat in 0..PLAYERS {
                v[12 + seat] = places[seat] as i32;
                v[17 + seat] = s.returns()[seat];
            }
        }
    }
    let n = row.len().min(v.len());
    row[..n].copy_from_slice(&v[..n]);
}

#[cfg(test)]
mod tests {
    use super::super::moves;
    use super::*;
    use crate::cards::Rank;
    use crate::deal::deal_rng;

    #[test]
    fn both_policies_play_whole_deals() {
        let r = BaohuangRules::default();
        for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
            let mut row = vec![0; r.columns().len()];
            for i in 0..10 {
                r.play_deal(policy, &mut deal_rng(5, i), &mut row).unwrap();
                let scores: i32 = row[17..22].iter().sum();
                assert_eq!(scores, 0, "{policy:?} deal {i}");
                let mut places = row[12..17].to_vec();
                places.sort();
                assert_eq!(places, vec![1, 2, 3, 4, 5]);
            }
        }
    }

    /// The checksum of `examples/baohuang_deals.rs` over deals `0..deals` of seed 1.
    fn checksum(policy: Policy, deals: u64) -> u64 {
        let r = BaohuangRules::default();
        let mut row = vec![0i32; COLUMNS.len()];
        let mut sum = 0u64;
        for i in 0..deals {
            r.play_deal(policy, &mut deal_rng(1, i), &mut row).unwrap();
            for &v in &row {
                sum = sum.wrapping_mul(1_000_003).wrapping_add(v as u64);
            }
        }
        sum
    }

    /// `basic` is the old `greedy` and `random` is unchanged: the example's checksums taken before
    /// the hand-strength greedy (`baohuang_deals greedy 500`, `baohuang_deals random 2000`).
    #[test]
    fn basic_rows_are_the_old_greedy_rows_and_random_rows_are_unchanged() {
        assert_eq!(format!("{:016x}", checksum(Policy::Basic, 500)), "0e388e36dd53f1ed");
        assert_eq!(format!("{:016x}", checksum(Policy::Random, 2000)), "31733e4828a95406");
    }

    #[test]
    fn deals_are_reproducible_from_the_seed() {
        let r = BaohuangRules::default();
        let mut a = vec![0; 22];
        let mut b = vec![0; 22];
        r.play_deal(Policy::Random, &mut deal_rng(11, 4), &mut a).unwrap();
        r.play_deal(Policy::Random, &mut deal_rng(11, 4), &mut b).unwrap();
        assert_eq!(a, b);
    }

    /// A dealt deck rotated so that the 44-card (first-dealt) hand is seat 0, as in
    /// `deal_shape`, with the scepter seat.
    fn shaped_deal(seed: u64) -> (crate::deal::Deal, u8) {
        let d = super::super::state::deal(&BaohuangRules::default(), &mut deal_rng(seed, 0));
        let f = d.first_dealt as usize;
        let hands = (0..PLAYERS).map(|i| d.hands[(f + i) % PLAYERS]).collect();
        let scepter = ((d.scepter as usize + PLAYERS - f) % PLAYERS) as u8;
        (crate::deal::Deal { hands, kitty: Multiset::EMPTY }, scepter)
    }

    fn eval_row(start: &StartingDeal<'_>, policy: Policy, seed: u64) -> Result<Vec<i32>> {
        let r = BaohuangRules::default();
        let mut row = vec![i32::MIN; COLUMNS.len()];
        r.play_from_deal(policy, start, &mut deal_rng(seed, 7), &mut row).map(|_| row)
    }

    fn ms(text: &str) -> Multiset {
        text.parse().unwrap()
    }

    #[test]
    fn deal_shape_is_44_then_four_43() {
        let shape = BaohuangRules::default().deal_shape().unwrap();
        assert_eq!(shape.hand_sizes(), &[44, 43, 43, 43, 43]);
        assert_eq!(shape.deck(), super::super::state::full_deck(&BaohuangRules::default()));
        let r168 = BaohuangRules { deck: Deck::Rizhao168, ..Default::default() };
        let err = r168.deal_shape().unwrap_err().to_string();
        assert!(err.contains("deck") && err.contains("168"), "{err}");
        let last = BaohuangRules { extra_card_to: ExtraCardTo::ScepterLast, ..Default::default() };
        let err = last.deal_shape().unwrap_err().to_string();
        assert!(err.contains("scepter_last"), "{err}");
    }

    #[test]
    fn play_from_deal_uses_the_given_hands_and_the_holder_keeps_the_scepter() {
        let r = BaohuangRules::default();
        for seed in 0..6 {
            let (deal, scepter) = shaped_deal(seed);
            let start = StartingDeal::new(&deal, scepter as usize);
            for policy in [Policy::Random, Policy::Greedy] {
                let row = eval_row(&start, policy, seed).unwrap();
                assert_eq!(row, eval_row(&start, policy, seed).unwrap(), "deterministic");
                // The same deal played by hand from the same hands and generator.
                let hands: [Multiset; PLAYERS] = deal.hands.clone().try_into().unwrap();
                let mut s = State::from_hands(&r, hands, scepter, 0).unwrap();
                let mut rng = deal_rng(seed, 7);
                while let Some(mv) = choose(policy, &s, &mut rng) {
                    s.apply(mv).unwrap();
                }
                let mut expect = vec![0; COLUMNS.len()];
                write_row(&s, 0, &mut expect);
                assert_eq!(row, expect, "seed {seed} {policy:?}");
                assert!(!row.contains(&i32::MIN));
            }
        }
    }

    #[test]
    fn forced_accession_decisions() {
        // A deal whose scepter holder can ascend.
        let r = BaohuangRules::default();
        let (deal, scepter, card) = (0..50)
            .find_map(|seed| {
                let (deal, sc) = shaped_deal(seed);
                let opts = super::super::ascension_options(&deal.hands[sc as usize], true, &r);
                opts.first().map(|&(c, _)| (deal, sc, c))
            })
            .unwrap();
        let seat = scepter as usize;
        let col = |name: &str| COLUMNS.iter().position(|c| c.name == name).unwrap();
        let yield_ = Multiset::EMPTY;
        let grab = ms("BJ");
        let ascend = Multiset::from_cards(&[card, card, card]).unwrap();
        for seed in 0..5 {
            let run_with = |cand: &Multiset, policy| {
                let start = StartingDeal::new(&deal, seat).with_first_action(Some(cand));
                eval_row(&start, policy, seed).unwrap()
            };
            let run = |cand: &Multiset| run_with(cand, Policy::Random);
            // Basic players never grab, so after 让位 the scepter really moves on.
            let y = run_with(&yield_, Policy::Basic);
            assert!(y[col("abdications")] >= 1, "让位 passes the scepter");
            assert!(run_with(&yield_, Policy::Basic) != run_with(&ascend, Policy::Basic));
            let g = run(&grab);
            assert_eq!((g[col("emperor")], g[col("mode")]), (seat as i32, Mode::Grab.code()));
            assert_eq!(g[col("abdications")], 0);
            let a = run(&ascend);
            assert_eq!(a[col("emperor")], seat as i32);
            assert_eq!(a[col("dengji_card")], card.index() as i32);
        }
        // Not an accession shape, or a card it cannot ascend with: IllegalPlay naming the cards.
        let two_kinds = ms("BJ SJ");
        let start = StartingDeal::new(&deal, seat).with_first_action(Some(&two_kinds));
        let e = eval_row(&start, Policy::Random, 0).unwrap_err();
        assert!(
            matches!(e, ZhipaiError::IllegalPlay { .. }) && e.to_string().contains("SJ BJ"),
            "{e}"
        );
        let hand = &deal.hands[seat];
        let pair = hand.kinds().iter().find(|&c| hand.count(c) == 2).unwrap();
        let cand = Multiset::from_cards(&[pair, pair]).unwrap();
        let start = StartingDeal::new(&deal, seat).with_first_action(Some(&cand));
        let e = eval_row(&start, Policy::Random, 0).unwrap_err();
        assert!(e.to_string().contains(&format!("ascend {pair}")), "{e}");
    }

    #[test]
    fn forced_first_play_of_a_non_holder_and_the_scepter_rule() {
        let (deal, scepter) = shaped_deal(3);
        // A seat without BJ: the scepter is drawn among the BJ holders.
        let seat = (0..PLAYERS).find(|&s| !deal.hands[s].contains(Card::BIG_JOKER)).unwrap();
        let col = |name: &str| COLUMNS.iter().position(|c| c.name == name).unwrap();
        let pass = Multiset::EMPTY;
        let start = StartingDeal::new(&deal, seat).with_dealer(Some(scepter as usize));
        // Basic never grabs, so the non-holder is never emperor: its first play decision is a
        // response, where a pass is always legal.
        let row = eval_row(&start.with_first_action(Some(&pass)), Policy::Basic, 1).unwrap();
        assert_ne!(row[col("emperor")], seat as i32);
        // Naturals of two ranks are never one play.
        let hand = &deal.hands[seat];
        let mut kinds = hand.kinds().iter().filter(|c| !c.is_joker());
        let (a, b) = (kinds.next().unwrap(), kinds.find(|c| c.rank() != Some(Rank::TWO)).unwrap());
        let bad = Multiset::from_cards(&[a, b]).unwrap();
        if a.rank() != b.rank() {
            let e = eval_row(&start.with_first_action(Some(&bad)), Policy::Greedy, 1).unwrap_err();
            assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
        }
        // The dealer fixes the scepter; a dealer without BJ is refused, naming it.
        let no_bj = StartingDeal::new(&deal, scepter as usize).with_dealer(Some(seat));
        let e = eval_row(&no_bj, Policy::Greedy, 1).unwrap_err();
        assert!(e.to_string().contains(&format!("dealer {seat}")), "{e}");
        // Without a dealer, the scepter follows the BJ: every emperor under greedy play started
        // at a BJ holder or got the scepter by abdication; over seeds, several holders occur.
        let mut first_holders = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let row = eval_row(&StartingDeal::new(&deal, seat), Policy::Greedy, seed).unwrap();
            if row[col("abdications")] == 0 {
                first_holders.insert(row[col("emperor")]);
            }
        }
        for s in &first_holders {
            assert!(deal.hands[*s as usize].contains(Card::BIG_JOKER), "seat {s}");
        }
    }

    #[test]
    fn a_non_holder_candidate_waits_until_it_is_legal() {
        // Whatever is on the table, a pass or a held play is made where it is legal (or never):
        // no sample aborts, for either policy, even when the seat must lead first (逼位).
        let col = |name: &str| COLUMNS.iter().position(|c| c.name == name).unwrap();
        for seed in 0..30 {
            let (deal, scepter) = shaped_deal(seed);
            let seat = (0..PLAYERS).find(|&s| s as u8 != scepter).unwrap();
            let hand = &deal.hands[seat];
            let top =
                hand.iter().filter(|c| !c.is_joker()).max_by_key(|&c| moves::card_strength(c));
            let single = Multiset::from_cards(&[top.unwrap()]).unwrap();
            let start = StartingDeal::new(&deal, seat).with_dealer(Some(scepter as usize));
            for cards in [Multiset::EMPTY, single] {
                for policy in [Policy::Random, Policy::Greedy] {
                    let row = eval_row(&start.with_first_action(Some(&cards)), policy, seed);
                    let row = row.unwrap_or_else(|e| panic!("seed {seed} {cards}: {e}"));
                    assert!(row[col("emperor")] >= -1);
                }
            }
        }
        // A play the seat does not hold is refused before any sample, naming the cards.
        let (deal, scepter) = shaped_deal(1);
        let seat = (0..PLAYERS).find(|&s| s as u8 != scepter).unwrap();
        let missing = Card::all().find(|&c| !deal.hands[seat].contains(c)).unwrap();
        let cards = Multiset::from_cards(&[missing]).unwrap();
        let start = StartingDeal::new(&deal, seat).with_dealer(Some(scepter as usize));
        let e = eval_row(&start.with_first_action(Some(&cards)), Policy::Random, 0).unwrap_err();
        assert!(e.to_string().contains("does not hold"), "{e}");
    }

    #[test]
    fn basic_guard_does_not_beat_the_emperor() {
        let r = BaohuangRules::default();
        for i in 0..20 {
            let mut rng = deal_rng(8, i);
            let mut s = State::new(&r, &mut rng);
            while let Some(mv) = basic(&s) {
                if s.phase() == Phase::Play {
                    if let (Some(prev_owner), Some(g)) =
                        (s.play_to_beat().map(|_| s.round().owner), s.guard())
                    {
                        if s.current_player() == Some(g) && Some(prev_owner) == s.emperor() {
                            assert!(!matches!(mv, Move::Play(_)), "guard beat the emperor");
                        }
                    }
                }
                s.apply(mv).unwrap();
            }
        }
    }
}
#[cfg(test)]
mod stats {
    use super::*;
    use crate::deal::deal_rng;
    /// Diagnostic (ignored by default): decisions and plays per random deal; with
    /// `BH_DEALS=20000` and `--release` it doubles as a CPU-time speed check.
    #[test]
    #[ignore]
    fn decision_stats() {
        let r = BaohuangRules::default();
        let (mut dec, mut plays, mut n) = (0u64, 0u64, 0u64);
        let deals: u64 = std::env::var("BH_DEALS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
        for i in 0..deals {
            let mut rng = deal_rng(1, i);
            let mut s = State::new(&r, &mut rng);
            s.set_stop_when_decided(std::env::var("BH_CUT").is_ok());
            while let Some(m) = choose(Policy::Random, &s, &mut rng) {
                s.apply_unchecked(m);
                dec += 1;
            }
            plays += s.plays() as u64;
            n += 1;
        }
        println!("decisions/deal {} plays/deal {}", dec / n, plays / n);
        // Every deal has at least one play per player and at least as many decisions as plays.
        assert!(plays >= 4 * n && dec >= plays);
    }
}
