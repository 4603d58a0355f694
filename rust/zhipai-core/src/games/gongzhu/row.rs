//! The result row of a Gongzhu deal: its columns and how a finished deal fills them (shared by
//! the general [`super::state::State`] and the fast rollout of [`super::fast`]).

use super::options::GongzhuRules;
use super::scoring::{final_scores, raw_scores_of, Exposure, Takes};
use super::state::State;
use crate::game::Column;
use crate::multiset::Multiset;

pub const COLUMNS_ONE_DECK: [Column; 21] = [
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
    Column {
        name: "pig_taker",
        doc: "seat that took ♠Q (two decks: the lowest seat that took a copy; -1: none)",
    },
    Column { name: "sheep_taker", doc: "seat that took ♦J (two decks: the lowest such seat)" },
    Column {
        name: "transformer_taker",
        doc: "seat that took ♣10 (two decks: the lowest such seat)",
    },
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

pub const COLUMNS_TWO_DECK_EXTRA: [Column; 3] = [
    Column {
        name: "pig_taker_2",
        doc: "two decks: the seat that took the other ♠Q (= pig_taker when it took both; seats \
              in seat order, not in trick order; -1: none)",
    },
    Column { name: "sheep_taker_2", doc: "two decks: the seat that took the other ♦J" },
    Column { name: "transformer_taker_2", doc: "two decks: the seat that took the other ♣10" },
];

/// The columns of a result row under `rules` (all `i32`): raw and final scores per seat, takers
/// of the special cards, exposure levels, the all-hearts / grand-slam seats, the first leader,
/// the number of tricks and the next deal's leader; two decks add the second copies' takers.
pub fn columns(rules: &GongzhuRules) -> Vec<Column> {
    let mut c = COLUMNS_ONE_DECK.to_vec();
    if rules.decks == 2 {
        c.extend_from_slice(&COLUMNS_TWO_DECK_EXTRA);
    }
    c
}

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

/// Fill one result row (layout of [`crate::simulator::DealSimulator::columns`]) from a
/// finished deal.
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
