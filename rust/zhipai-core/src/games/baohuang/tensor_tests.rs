//! Tests of the observation tensor ([`super::tensor`]) and `move_cards`.

use super::game_tests::option_sets;
use super::search_tests::{positions, Drive};
use super::state::{full_deck, Move, PLAYERS};
use super::tensor::{self, FIELDS, LEN};
use super::*;
use crate::cards::Card;
use crate::deal::Deal;
use crate::game::{Game, GameRng, GameState};
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand::SeedableRng;

fn tensor(s: &DealState, seat: usize, perfect: bool) -> Vec<f32> {
    let mut out = vec![0.0; LEN];
    s.write_observation_tensor(seat, perfect, &mut out).unwrap();
    out
}

/// Panics naming the first field where `a` and `b` differ (NaN differs from everything).
fn same(a: &[f32], b: &[f32], what: &str) {
    for f in tensor::layout() {
        for i in f.offset..f.offset + f.len {
            assert!(
                a[i] == b[i],
                "{what}: field {} entry {}: {} vs {}",
                f.name,
                i - f.offset,
                a[i],
                b[i]
            );
        }
    }
}

fn field(t: &[f32], name: &str) -> Vec<f32> {
    let f = tensor::layout().into_iter().find(|f| f.name == name).unwrap();
    t[f.offset..f.offset + f.len].to_vec()
}

#[test]
fn the_layout_adds_up_and_is_documented() {
    let layout = tensor::layout();
    let mut off = 0;
    let mut names = std::collections::BTreeSet::new();
    for f in &layout {
        assert_eq!(f.offset, off, "{}: contiguous", f.name);
        assert!(f.len > 0 && !f.meaning.is_empty() && names.insert(f.name), "{}", f.name);
        off += f.len;
    }
    assert_eq!((off, layout.len()), (LEN, FIELDS.len()));
    // The table in DealState's docs is this layout.
    let docs = include_str!("game.rs");
    for f in &layout {
        let row = format!("/// | `{}` | {} | {} | {} |", f.name, f.offset, f.len, f.meaning);
        assert!(docs.contains(&row), "DealState docs lack {row}");
    }
    assert!(docs.contains(&format!("/// {LEN} floats in all.")));
    let s = BaohuangRules::default().new_deal(1, 0).unwrap();
    assert_eq!(s.observation_layout(), layout);
    let mut short = vec![0.0; LEN - 1];
    assert!(s.write_observation_tensor(0, false, &mut short).is_err());
    assert!(s.write_observation_tensor(5, false, &mut vec![0.0; LEN]).is_err());
}

/// The tensor of a seat is the same in every world of that seat (its hidden cards and the
/// secret roles redrawn), including the world where two other hands of one size are swapped;
/// with `perfect` it shows the world's hands. Writing over stale values gives the same tensor.
#[test]
fn the_tensor_never_depends_on_what_the_seat_cannot_see() {
    let mut rng = GameRng::seed_from_u64(5);
    let mut swaps = 0;
    for (name, rules) in option_sets() {
        for drive in [
            Drive::Builtin(Policy::Random),
            Drive::Builtin(Policy::Greedy),
            Drive::AbdicateThen(Policy::Basic),
        ] {
            for s in positions(&rules, drive, 61, 2, 29) {
                for seat in 0..PLAYERS {
                    let what = format!("{name} {drive:?} {} seat {seat}", s.core().phase().name());
                    let mine = tensor(&s, seat, false);
                    let mut stale = vec![f32::NAN; LEN];
                    s.write_observation_tensor(seat, false, &mut stale).unwrap();
                    same(&stale, &mine, &format!("{what}: stale values"));
                    let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
                    let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
                    same(&tensor(&w, seat, false), &mine, &format!("{what}: a world"));
                    let perfect = tensor(&w, seat, true);
                    let hands = field(&perfect, "hands");
                    for p in 0..PLAYERS {
                        let row = &hands[((p + PLAYERS - seat) % PLAYERS) * 54..][..54];
                        let hand = w.core().hand(p as u8);
                        assert!(
                            Card::all().all(|c| row[c.index()] == hand.count(c) as f32),
                            "{what}"
                        );
                    }
                    // Two other hands of one size swapped, when that fits what the seat knows.
                    let core = s.core();
                    let others: Vec<usize> = (0..PLAYERS).filter(|&p| p != seat).collect();
                    for (i, &a) in others.iter().enumerate() {
                        for &b in &others[i + 1..] {
                            let mut hands: Vec<Multiset> =
                                (0..PLAYERS as u8).map(|p| *core.hand(p)).collect();
                            if hands[a].len() != hands[b].len() || hands[a] == hands[b] {
                                continue;
                            }
                            hands.swap(a, b);
                            let hidden = Deal { hands, kitty: Multiset::EMPTY };
                            if let Ok(w) = s.with_hidden(seat, &hidden, &mut rng) {
                                assert_eq!(
                                    tensor(&w, seat, false),
                                    mine,
                                    "{what}: seats {a} {b} swapped"
                                );
                                assert_ne!(
                                    tensor(&w, seat, true),
                                    tensor(&s, seat, true),
                                    "{what}"
                                );
                                swaps += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(swaps > 100, "{swaps} swaps");
}

/// A fixed deal: seat 0 holds the scepter BJ, 3 ♣9 (the 4th at seat 2) and 3 ♦K; seat 0 ascends
/// with ♣9, seat 2 plays 暗保, seat 0 leads ♦K ♦K ♦K. Entries checked by hand for seats 1 and 2.
#[test]
fn entries_of_a_known_position() {
    let rules = BaohuangRules::default();
    let c = |t: &str| t.parse::<Card>().unwrap();
    let mut rest = full_deck(&rules);
    let mut hands = [Multiset::EMPTY; PLAYERS];
    for t in ["BJ", "9C", "9C", "9C", "KD", "KD", "KD"] {
        rest.remove(c(t));
        hands[0].add(c(t));
    }
    rest.remove(c("9C"));
    hands[2].add(c("9C"));
    let fill: Vec<Card> = rest
        .iter()
        .filter(|&x| x != Card::BIG_JOKER && x != c("KD") && x != c("9C"))
        .take(44 - 7)
        .collect();
    for x in fill {
        rest.remove(x);
        hands[0].add(x);
    }
    for x in rest.iter() {
        let p = (1..PLAYERS).min_by_key(|&p| hands[p].len()).unwrap();
        hands[p].add(x);
    }
    let mut s = DealState::from_hands(&rules, hands, 0, 0, GameRng::seed_from_u64(1)).unwrap();
    let t = tensor(&s, 1, false);
    assert_eq!(field(&t, "phase")[0], 1.0, "accession");
    assert_eq!(field(&t, "to_act")[4], 1.0, "seat 0 is 4 places after seat 1");
    assert_eq!(field(&t, "scepter")[4], 1.0);
    assert_eq!(field(&t, "known")[4 * 54 + 53], 1.0, "the scepter BJ at seat 0");
    assert_eq!(field(&t, "hand_sizes")[4], 44.0 / 44.0);
    assert_eq!(field(&t, "hand_sizes")[0], 43.0 / 44.0);
    for x in hands[1].kinds().iter() {
        assert_eq!(field(&t, "hand")[x.index()], hands[1].count(x) as f32);
    }
    s.apply_move(&Move::Ascend(c("9C"))).unwrap();
    let t1 = tensor(&s, 1, false);
    assert_eq!(field(&t1, "phase")[5], 1.0, "seat 1 sees a secret choice");
    assert!(field(&t1, "to_act").iter().all(|&v| v == 0.0));
    let t2 = tensor(&s, 2, false);
    assert_eq!(field(&t2, "phase")[3], 1.0, "seat 2 chooses 明保/暗保");
    assert_eq!(field(&t2, "guard")[0], 1.0, "seat 2 knows it is the guard");
    assert!(field(&t1, "guard").iter().all(|&v| v == 0.0));
    s.apply_move(&Move::SecretGuard).unwrap();
    s.apply_move(&Move::Play("KD KD KD".parse().unwrap())).unwrap();
    let t = tensor(&s, 1, false);
    assert_eq!(field(&t, "phase")[6], 1.0, "play");
    assert_eq!(field(&t, "to_act")[0], 1.0, "seat 1 answers");
    assert_eq!(field(&t, "emperor")[4], 1.0);
    assert_eq!(field(&t, "dengji")[c("9C").index()], 1.0);
    assert_eq!(field(&t, "mode")[0], 1.0, "暗保");
    assert_eq!(field(&t, "played")[4 * 54 + c("KD").index()], 3.0);
    assert_eq!(field(&t, "play_to_beat")[c("KD").index()], 3.0);
    assert_eq!(field(&t, "play_owner")[4], 1.0);
    assert_eq!(field(&t, "known")[4 * 54 + c("9C").index()], 3.0, "three ♣9 announced");
    assert_eq!(field(&t, "hand_sizes")[4], 41.0 / 44.0);
    assert_eq!(
        field(&t, "round")[..3],
        [0.0, 0.0, 1.0],
        "responding in the first circle: may yield"
    );
    assert_eq!(field(&t, "to_respond"), vec![1.0, 1.0, 1.0, 1.0, 0.0]);
    assert_eq!(field(&t, "counters")[1], 1.0 / 216.0);
    // The cards of a move.
    assert_eq!(s.move_cards(&Move::Play("9C 9C".parse().unwrap())), "9C 9C".parse().unwrap());
    assert_eq!(s.move_cards(&Move::Ascend(c("9C"))), "9C".parse().unwrap());
    assert_eq!(s.move_cards(&Move::Pass), Multiset::EMPTY);
    assert_eq!(s.move_cards(&Move::Grab), Multiset::EMPTY);
}
