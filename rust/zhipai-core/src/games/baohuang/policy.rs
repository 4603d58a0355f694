//! Built-in players and the simulation contract (`rollout::DealSimulator`).
//!
//! * `random`: uniform over the legal moves at every decision, accession included
//!   ([`State::sample_move`]).
//! * `greedy` (a documented rule-based player, no lookahead):
//!   - accession: ascend with a 3-copy card if he has one (first in kind order), else with a
//!     4-copy card (then 暗独), else abdicate; never grab; a guard plays 暗保; 逼位 takes the first
//!     option;
//!   - lead: all naturals of his lowest rank; with no naturals, all his SJ, then all his BJ;
//!   - response: pass when the play to beat is his partner's (the guard always knows the
//!     emperor; the emperor knows the guard once revealed); otherwise the smallest beating play
//!     — fewest jokers, then lowest rank — but jokers only when he holds at most 12 cards ("save
//!     jokers"); apply for 接风 instead of passing when allowed; never yield.

use super::moves::{self, Shape};
use super::scoring::Mode;
use super::state::{Move, Phase, State, PLAYERS};
use super::BaohuangRules;
use crate::error::{Result, ZhipaiError};
use crate::policy::Policy;
use crate::rollout::{Column, DealSimulator};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The move `policy` makes in `state` (`None` when the deal is over).
pub fn choose<R: Rng + ?Sized>(policy: Policy, state: &State, rng: &mut R) -> Option<Move> {
    match policy {
        Policy::Random => state.sample_move(rng),
        Policy::Greedy => greedy(state),
    }
}

/// The greedy player's move (module docs).
pub fn greedy(state: &State) -> Option<Move> {
    let seat = state.current_player()?;
    let legal = |m: &Move| state.check_move(m).is_ok();
    match state.phase() {
        Phase::Accession => {
            let moves = state.legal_moves();
            let hand = state.hand(seat);
            let ascend = |want_guard: bool| {
                moves
                    .iter()
                    .copied()
                    .find(|m| matches!(m, Move::Ascend(c) if (hand.count(*c) < 4) == want_guard))
            };
            ascend(true).or_else(|| ascend(false)).or(Some(Move::Abdicate))
        }
        Phase::GrabWindow => Some(Move::Decline),
        Phase::Forced => state.nth_move(0),
        Phase::GuardChoice => Some(Move::SecretGuard),
        Phase::SoloChoice => Some(Move::SecretSolo),
        Phase::Play => {
            let counts = state.hand_counts(seat);
            match state.play_to_beat() {
                None => Some(Move::Play(greedy_lead(counts))),
                Some(prev) => {
                    let owner = state.round().owner;
                    let partner = is_partner(state, seat, owner);
                    let best = if partner { None } else { cheapest_beat(state, seat, &prev) };
                    best.map(Move::Play).or_else(|| {
                        if legal(&Move::Jiefeng) {
                            Some(Move::Jiefeng)
                        } else {
                            Some(Move::Pass)
                        }
                    })
                }
            }
        }
        Phase::Over | Phase::Void => None,
    }
}

fn is_partner(state: &State, seat: u8, owner: u8) -> bool {
    if state.mode().is_solo() || seat == owner {
        return false;
    }
    let (Some(e), Some(g)) = (state.emperor(), state.guard()) else { return false };
    (seat == g && owner == e) || (seat == e && owner == g && state.guard_revealed())
}

fn greedy_lead(counts: &moves::HandCounts) -> Shape {
    if let Some(r) = counts.nat.iter().position(|&n| n > 0) {
        return Shape { rank: r as u8, naturals: counts.nat[r], ..Shape::default() };
    }
    let none = Shape { rank: moves::NO_RANK, ..Shape::default() };
    if counts.small > 0 {
        Shape { small: counts.small, ..none }
    } else if counts.big > 0 {
        Shape { big: counts.big, ..none }
    } else {
        Shape { guard: counts.guard, ..none }
    }
}

fn cheapest_beat(state: &State, seat: u8, prev: &Shape) -> Option<Shape> {
    let counts = state.hand_counts(seat);
    let plays = moves::Plays::new(counts, Some(prev), state.rules().bombs);
    let save_jokers = counts.len() > 12;
    (0..plays.count())
        .filter_map(|k| plays.nth(k))
        .filter(|s| !(save_jokers && s.jokers() > 0))
        .min_by_key(|s| (s.jokers(), s.guard, s.big, s.rank, s.naturals))
}

const COLUMNS: [Column; 22] = [
    Column { name: "emperor", doc: "seat of the emperor (0..5, playing order)" },
    Column { name: "guard", doc: "seat of the guard, -1 in solo modes" },
    Column { name: "mode", doc: "0 normal (暗保), 1 open_guard (明保), 2 grab (抢独), 3 open_solo (明独), 4 secret_solo (暗独)" },
    Column { name: "open_guard", doc: "1 if the guard chose 明保 (scores doubled)" },
    Column { name: "solo", doc: "1 if the emperor played alone (抢独, 明独, 暗独)" },
    Column { name: "dengji_card", doc: "kind index 0..54 of the 登基 card, -1 for 抢独" },
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
            while let Some(mv) = choose(policy, &state, rng) {
                state.apply_unchecked(mv); // built-in policies only make legal moves
            }
            if !state.is_void() {
                return Ok((state, redeals));
            }
        }
        Err(ZhipaiError::impossible_deal(format!("{MAX_REDEALS} void deals (黄局) in a row")))
    }
}

impl DealSimulator for BaohuangRules {
    fn columns(&self) -> Vec<Column> {
        COLUMNS.to_vec()
    }

    fn play_deal(&self, policy: Policy, rng: &mut ChaCha8Rng, row: &mut [i32]) -> Result<()> {
        let (s, redeals) = self.play_out(policy, rng)?;
        let places = s.places();
        let e = s.emperor().expect("a played deal has an emperor");
        let guard = s.guard().map_or(-1, i32::from);
        let mut v = [0i32; COLUMNS.len()];
        v[0] = e as i32;
        v[1] = guard;
        v[2] = s.mode().code();
        v[3] = (s.mode() == Mode::OpenGuard) as i32;
        v[4] = s.mode().is_solo() as i32;
        v[5] = s.dengji_card().map_or(-1, |c| c.index() as i32);
        v[6] = s.abdications() as i32;
        v[7] = (s.abdications() >= PLAYERS as u8) as i32;
        v[8] = redeals;
        v[9] = s.plays() as i32;
        v[10] = places[e as usize] as i32;
        v[11] = s.guard().map_or(-1, |g| places[g as usize] as i32);
        for seat in 0..PLAYERS {
            v[12 + seat] = places[seat] as i32;
            v[17 + seat] = s.returns()[seat];
        }
        let n = row.len().min(v.len());
        row[..n].copy_from_slice(&v[..n]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::deal_rng;

    #[test]
    fn both_policies_play_whole_deals() {
        let r = BaohuangRules::default();
        for policy in [Policy::Random, Policy::Greedy] {
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

    #[test]
    fn deals_are_reproducible_from_the_seed() {
        let r = BaohuangRules::default();
        let mut a = vec![0; 22];
        let mut b = vec![0; 22];
        r.play_deal(Policy::Random, &mut deal_rng(11, 4), &mut a).unwrap();
        r.play_deal(Policy::Random, &mut deal_rng(11, 4), &mut b).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn greedy_guard_does_not_beat_the_emperor() {
        let r = BaohuangRules::default();
        for i in 0..20 {
            let mut rng = deal_rng(8, i);
            let mut s = State::new(&r, &mut rng);
            while let Some(mv) = greedy(&s) {
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
    use crate::rollout::deal_rng;
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
