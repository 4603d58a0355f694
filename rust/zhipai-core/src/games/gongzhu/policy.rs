//! Built-in Gongzhu players and the [`DealSimulator`] implementation.
//!
//! * `random`: uniform over the legal moves at every decision (exposure decisions included).
//! * `greedy`: the rule-based player of [`greedy_play`] and [`greedy_exposure`]:
//!   - **exposure**: expose ♠Q when holding at least 4 other spades (the pig is then safe to
//!     keep until it can be dumped), expose ♦J when also holding ♦A or ♦K and at least 3
//!     diamonds; never expose ♣10 or ♥A; open (never closed) declarations;
//!   - **play**: every legal play gets a utility and the highest wins (ties: the first). A play
//!     that would win the trick as it stands scores the trick's points (hearts, pig −100, sheep
//!     +100, doubled by exposure as in scoring) — so it avoids taking the pig and hearts and
//!     hunts the sheep — and, when it wins, prefers low cards unless it is the last to play
//!     (then it sheds its highest). A play that would not win scores the points it gives away
//!     (dumping the pig when void in the led suit is worth the most, then the highest hearts),
//!     then its rank (duck with the highest card that stays under the winner). Leads prefer the
//!     lowest card; they avoid leading the pig and ♠A/♠K while the pig is out, avoid hearts,
//!     and lead a diamond above ♦J (♦Q/♦K/♦A) to hunt the sheep while ♦J is out and not held.

use super::options::GongzhuRules;
use super::play::{pick_legal_play, play_key, suit_of, Play};
use super::scoring::{final_scores, raw_scores_of, Exposure, Takes, PIG, SHEEP, TRANSFORMER};
use super::state::{Move, Opening, Phase, State};
use crate::cards::{Card, Rank, Suit};
use crate::deal::DealShape;
use crate::error::Result;
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::rollout::{Column, DealSimulator, StartingDeal};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Heart values of §A.4 (♥2..♥A).
const HEART_VALUES: [i64; 13] = [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50];

/// The points a card carries when taken (sign as for the taker), with exposure factors.
fn card_points(card: Card, exposure: &Exposure) -> i64 {
    if card == PIG {
        -100 * exposure.factor(0)
    } else if card == SHEEP {
        100 * exposure.factor(1)
    } else if suit_of(card) == Suit::Hearts {
        HEART_VALUES[card.index() % 13] * exposure.factor(3)
    } else if card == TRANSFORMER {
        -10 // doubles whatever else is taken, usually a loss
    } else {
        0
    }
}

fn rank_of(card: Card) -> i64 {
    (card.index() % 13) as i64
}

/// The greedy exposure decision for the seat to act (see the module docs).
pub fn greedy_exposure(state: &State) -> Move {
    let p = state.current_player().unwrap_or(0);
    let hand = state.hand(p);
    let (open, _) = state.exposed(p);
    let spades = hand.count_in(Suit::Spades.mask());
    let diamonds = hand.count_in(Suit::Diamonds.mask());
    let high_diamond = hand.contains(Card::new(Suit::Diamonds, Rank::ACE))
        || hand.contains(Card::new(Suit::Diamonds, Rank::KING));
    for c in [PIG, SHEEP] {
        let want = if c == PIG { spades >= 5 } else { high_diamond && diamonds >= 3 };
        if want && hand.count(c) > open.count(c) {
            return Move::Expose(c);
        }
    }
    Move::EndExposure
}

/// The greedy play among `legal` for the seat to act (see the module docs).
pub fn greedy_play(state: &State, legal: &[Play]) -> Play {
    let exposure = state.exposure();
    let (_, trick) = state.current_trick();
    // What the trick so far holds: the key a play must beat to win it, and its points.
    let suit = trick.first().map(|p| suit_of(p.first()));
    let to_beat =
        suit.map_or(0, |s| trick.iter().map(|p| play_key(state.rules(), s, p)).max().unwrap_or(0));
    let trick_points: i64 =
        trick.iter().flat_map(|p| p.cards().iter()).map(|&c| card_points(c, &exposure)).sum();
    let (pig_out, sheep_out) = if suit.is_none() {
        (still_out(state, PIG), still_out(state, SHEEP))
    } else {
        (false, false)
    };
    let mut best = legal[0];
    let mut best_u = i64::MIN;
    for &play in legal {
        let u = match suit {
            None => lead_utility(play, pig_out, sheep_out),
            Some(s) => {
                let wins = play_key(state.rules(), s, &play) > to_beat;
                follow_utility(play, trick.len() == 3, wins, trick_points, &exposure)
            }
        };
        if u > best_u {
            best_u = u;
            best = play;
        }
    }
    best
}

/// Whether a copy of `card` is still out: neither played yet nor in the hand of the seat to act.
fn still_out(state: &State, card: Card) -> bool {
    let p = state.current_player().unwrap_or(0);
    state.played().count(card) + state.hand(p).count(card) < state.rules().decks as usize
}

/// The utility of leading `play` while the pig / the sheep are still out.
fn lead_utility(play: Play, pig_out: bool, sheep_out: bool) -> i64 {
    let c = play.first();
    let r = rank_of(c);
    let mut u = -r * 10;
    if c == PIG {
        u -= 2000;
    }
    match suit_of(c) {
        Suit::Spades if pig_out && r > rank_of(PIG) => u -= 1000,
        Suit::Diamonds if sheep_out && r > rank_of(SHEEP) => u += 500,
        Suit::Hearts => u -= 50,
        _ => {}
    }
    u
}

/// The utility of following with `play` (the `last` play of the trick), which `wins` the trick as
/// it stands, on earlier plays worth `trick_points`.
fn follow_utility(
    play: Play,
    last: bool,
    wins: bool,
    trick_points: i64,
    exposure: &Exposure,
) -> i64 {
    let own: i64 = play.cards().iter().map(|&c| card_points(c, exposure)).sum();
    let high: i64 = play.cards().iter().map(|&c| rank_of(c)).max().unwrap_or(0);
    if wins {
        (trick_points + own) * 100 + if last { high } else { -high }
    } else {
        -own * 100 + high
    }
}

/// A uniform index in `0..n` (`n ≥ 1`), exactly uniform ([`super::draw::below`]: one `u32`),
/// shared by the general state and the fast rollout so both draw the same numbers. A forced
/// choice (`n = 1`) draws too: skipping the draw would be a data-dependent branch, mispredicted
/// often enough to cost more than the draw.
#[inline(always)]
pub fn pick_index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    super::draw::below(rng, n as u32) as usize
}

/// Choose a move for the seat to act with `policy`, drawing randomness from `rng`. `buf` is a
/// reusable buffer for the legal plays.
pub fn choose<R: Rng + ?Sized>(
    state: &State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) -> Move {
    match state.phase() {
        Phase::Exposure => match policy {
            Policy::Greedy => greedy_exposure(state),
            Policy::Random => {
                let moves = state.legal_moves();
                moves[pick_index(rng, moves.len())]
            }
        },
        Phase::Play if policy == Policy::Random => {
            // Singles (most decisions) are picked without listing the legal plays.
            let pos = state.position();
            let pick = |n| pick_index(rng, n);
            Move::Play(pick_legal_play(state.rules(), &pos, pick).unwrap_or_else(|| {
                state.legal_plays_into(buf);
                buf[pick_index(rng, buf.len())]
            }))
        }
        _ => {
            state.legal_plays_into(buf);
            Move::Play(match policy {
                Policy::Random => buf[pick_index(rng, buf.len())],
                Policy::Greedy => greedy_play(state, buf),
            })
        }
    }
}

/// Play `state` to the end with `policy` for every seat.
pub fn play_out<R: Rng + ?Sized>(
    state: &mut State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) {
    while !state.is_terminal() {
        match choose(state, policy, rng, buf) {
            Move::Play(p) => state.apply_play_unchecked(p),
            mv => state.apply_exposure(mv),
        }
    }
}

const COLUMNS_ONE_DECK: [Column; 21] = [
    Column { name: "raw_0", doc: "raw score of seat 0 (§A.4-A.10)" },
    Column { name: "raw_1", doc: "raw score of seat 1" },
    Column { name: "raw_2", doc: "raw score of seat 2" },
    Column { name: "raw_3", doc: "raw score of seat 3" },
    Column {
        name: "final_0", doc: "credited result of seat 0 (§A.11 normalisation, §A.13 teams)"
    },
    Column { name: "final_1", doc: "credited result of seat 1" },
    Column { name: "final_2", doc: "credited result of seat 2" },
    Column { name: "final_3", doc: "credited result of seat 3" },
    Column { name: "pig_taker", doc: "seat that took the (first) ♠Q" },
    Column { name: "sheep_taker", doc: "seat that took the (first) ♦J" },
    Column { name: "transformer_taker", doc: "seat that took the (first) ♣10" },
    Column {
        name: "exposed_pig",
        doc: "exposure level e of ♠Q (factor 2^e; copies exposed in QQ mode)",
    },
    Column { name: "exposed_sheep", doc: "exposure level e of ♦J" },
    Column { name: "exposed_transformer", doc: "exposure level e of ♣10" },
    Column { name: "exposed_heart_ace", doc: "exposure level e of ♥A" },
    Column { name: "auto_exposed", doc: "1 when the 3-of-4 rule exposed the fourth card (§A.6)" },
    Column { name: "all_hearts", doc: "seat that took every heart (全红), -1 if none" },
    Column { name: "grand_slam", doc: "seat that took every scoring card (全收), -1 if none" },
    Column { name: "first_leader", doc: "seat that led the first trick" },
    Column { name: "tricks", doc: "number of tricks played (13 in one deck; 13-26 in two)" },
    Column { name: "next_leader", doc: "seat that leads the next deal (the pig-taker, §A.8)" },
];

const COLUMNS_TWO_DECK_EXTRA: [Column; 3] = [
    Column { name: "pig_taker_2", doc: "seat that took the second ♠Q (two decks)" },
    Column { name: "sheep_taker_2", doc: "seat that took the second ♦J (two decks)" },
    Column { name: "transformer_taker_2", doc: "seat that took the second ♣10 (two decks)" },
];

/// What a result row needs from a finished deal (built by [`State::summary`] or the fast
/// one-deck rollout of [`super::fast`]).
#[derive(Clone, Copy, Debug)]
pub struct DealSummary {
    pub taken: [Multiset; 4],
    pub exposure: Exposure,
    pub auto_exposed: bool,
    pub first_leader: usize,
    pub tricks: usize,
    pub next_leader: Option<usize>,
}

impl State {
    /// The summary of this (finished) deal for result rows.
    pub fn summary(&self) -> DealSummary {
        DealSummary {
            taken: std::array::from_fn(|s| *self.taken(s)),
            exposure: self.exposure(),
            auto_exposed: self.auto_exposed(),
            first_leader: self.first_leader(),
            tricks: self.tricks_played(),
            next_leader: self.next_deal_leader(),
        }
    }
}

/// Seats that took copies of a card, lowest seat first, repeated per copy (≤ 2; -1 = none), from
/// the seats holding at least one copy (`one`, bit per seat) and two copies (`two`).
#[inline(always)]
fn takers([one, two]: [u32; 2]) -> [i32; 2] {
    let first = if one == 0 { -1 } else { one.trailing_zeros() as i32 };
    let later = one & one.wrapping_sub(1);
    let second = if two & one & one.wrapping_neg() != 0 {
        first
    } else if later != 0 {
        later.trailing_zeros() as i32
    } else {
        -1
    };
    [first, second]
}

/// The lowest seat of the bit set `seats` (bit per seat), -1 when empty.
#[inline(always)]
fn lowest_seat(seats: u32) -> i32 {
    if seats == 0 {
        -1
    } else {
        seats.trailing_zeros() as i32
    }
}

impl DealSimulator for GongzhuRules {
    /// Per-deal columns (all `i32`): raw and final scores per seat, takers of the special
    /// cards, exposure levels, the all-hearts / grand-slam seats, the first leader, the number
    /// of tricks and the next deal's leader; two decks add the second copies' takers.
    fn columns(&self) -> Vec<Column> {
        let mut c = COLUMNS_ONE_DECK.to_vec();
        if self.decks == 2 {
            c.extend_from_slice(&COLUMNS_TWO_DECK_EXTRA);
        }
        c
    }

    /// One first-of-match deal (§A.8 first lead), exposure, all tricks and scoring. One deck
    /// with the random policy runs the allocation-free bitboard rollout of [`super::fast`],
    /// which draws the same random numbers and gives the same row as the general [`State`].
    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        if self.decks == 1 && policy == Policy::Random {
            super::fast::random_deal_row(self, rng, row);
            return Ok(());
        }
        let mut state = State::deal(self, rng, Opening::FirstOfMatch);
        let mut buf = Vec::with_capacity(64);
        play_out(&mut state, policy, rng, &mut buf);
        write_row(self, &state.summary(), row);
        Ok(())
    }

    /// Four hands of `13 · decks` cards, no kitty (see [`super::evaluate::deal_shape`]).
    fn deal_shape(&self) -> Result<DealShape> {
        super::evaluate::deal_shape(self)
    }

    /// Play the given deal; `start.dealer` = the first leader (a later deal), a candidate is
    /// the seat's exposure decision or its first play: see [`super::evaluate`].
    fn play_from_deal(
        &self,
        policy: Policy,
        start: &StartingDeal<'_>,
        rng: &mut ChaCha8Rng,
        row: &mut [i32],
    ) -> Result<()> {
        super::evaluate::play_from_deal(self, policy, start, rng, row)
    }
}

/// Fill one result row (layout of [`DealSimulator::columns`]) from a finished deal.
#[inline(always)]
pub fn write_row(rules: &GongzhuRules, d: &DealSummary, row: &mut [i32]) {
    let takes = [0, 1, 2, 3].map(|s| Takes::of(&d.taken[s]));
    write_row_of(rules, &takes, d, row);
}

/// [`write_row`] from the summaries of what each seat took (`d.taken` is not read).
#[inline(always)]
pub fn write_row_of(rules: &GongzhuRules, takes: &[Takes; 4], d: &DealSummary, row: &mut [i32]) {
    let decks = rules.decks;
    // Seat bit sets: who took at least one / two copies of each special card, all hearts, all.
    let (mut pig, mut sheep, mut tr) = ([0u32; 2], [0u32; 2], [0u32; 2]);
    let (mut all_hearts, mut slam) = (0u32, 0u32);
    for (s, t) in takes.iter().enumerate() {
        for (copies, n) in [(&mut pig, t.pigs), (&mut sheep, t.sheep), (&mut tr, t.transformers)] {
            copies[0] |= ((n >= 1) as u32) << s;
            copies[1] |= ((n >= 2) as u32) << s;
        }
        all_hearts |= (t.all_hearts(decks) as u32) << s;
        slam |= (t.grand_slam(decks) as u32) << s;
    }
    let raw = raw_scores_of(rules, takes, &d.exposure);
    let fin = final_scores(rules, &raw);
    let (pig, sheep, tr) = (takers(pig), takers(sheep), takers(tr));
    for s in 0..4 {
        row[s] = raw[s] as i32;
        row[4 + s] = fin[s] as i32;
        row[11 + s] = d.exposure.level[s] as i32;
    }
    row[8] = pig[0];
    row[9] = sheep[0];
    row[10] = tr[0];
    row[15] = d.auto_exposed as i32;
    row[16] = lowest_seat(all_hearts);
    row[17] = lowest_seat(slam);
    row[18] = d.first_leader as i32;
    row[19] = d.tricks as i32;
    row[20] = d.next_leader.map_or(-1, |s| s as i32);
    if decks == 2 {
        row[21] = pig[1];
        row[22] = sheep[1];
        row[23] = tr[1];
    }
}
