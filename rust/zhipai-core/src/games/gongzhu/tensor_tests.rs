//! Tests of the observation tensor ([`super::tensor`]) and `move_cards`.

use super::game::DealState;
use super::game_tests::{card, option_sets, rules, s};
use super::state::Move;
use super::tensor::{FIELDS, LEN};
use crate::deal::deal_rng;
use crate::game::{DealSetup, Game, GameState};
use crate::multiset::Multiset;
use crate::policy::Policy;

fn tensor(st: &DealState, seat: usize, perfect: bool) -> Vec<f32> {
    let mut out = vec![f32::NAN; LEN];
    st.write_observation_tensor(seat, perfect, &mut out).unwrap();
    out
}

fn field<'a>(st: &DealState, t: &'a [f32], name: &str) -> &'a [f32] {
    let f = st.observation_layout().into_iter().find(|f| f.name == name).unwrap();
    &t[f.offset..f.offset + f.len]
}

#[test]
fn the_layout_adds_up() {
    let st = rules(&[]).new_deal(1, 0).unwrap();
    let layout = st.observation_layout();
    assert_eq!(layout.len(), FIELDS.len());
    let mut offset = 0;
    for f in &layout {
        assert_eq!(f.offset, offset, "{} starts where the previous field ends", f.name);
        assert!(f.len > 0 && !f.meaning.is_empty());
        offset += f.len;
    }
    assert_eq!(offset, LEN);
    let mut names: Vec<_> = layout.iter().map(|f| f.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), layout.len(), "names are unique");
    // One layout for every rule set.
    for r in option_sets() {
        assert_eq!(r.new_deal(0, 0).unwrap().observation_layout(), layout);
    }
    let mut short = vec![0.0; LEN - 1];
    assert!(st.write_observation_tensor(0, false, &mut short).is_err());
    assert!(st.write_observation_tensor(4, false, &mut vec![0.0; LEN]).is_err());
}

/// Hand-checked entries of a known position: seat 0 leads ♦2, seat 1 (all spades) dumps ♠Q.
#[test]
fn entries_of_a_known_position() {
    let suit = |x: &str| {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            .iter()
            .map(|rank| format!("{rank}{x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let r = rules(&[("exposure_mode", s("none"))]);
    let hands: Vec<Multiset> =
        ["D", "S", "H", "C"].iter().map(|x| suit(x).parse().unwrap()).collect();
    let setup = DealSetup { hands, dealer: Some(0), ..DealSetup::default() };
    let mut st = r.deal_from(&setup).unwrap();
    st.apply_move(&st.parse_move("2D").unwrap()).unwrap();
    st.apply_move(&st.parse_move("QS").unwrap()).unwrap();
    // Seat 2 observes: seat 0 is relative seat 2, seat 1 relative seat 3.
    let t = tensor(&st, 2, false);
    let (d2, qs, ah) = (card("2D").index(), card("QS").index(), card("AH").index());
    assert_eq!(field(&st, &t, "hand")[ah], 1.0);
    assert_eq!(field(&st, &t, "hand").iter().sum::<f32>(), 13.0);
    assert_eq!(field(&st, &t, "current_trick")[2 * 54 + d2], 1.0);
    assert_eq!(field(&st, &t, "current_trick")[3 * 54 + qs], 1.0);
    assert_eq!(field(&st, &t, "current_trick").iter().sum::<f32>(), 2.0);
    assert_eq!(field(&st, &t, "played")[3 * 54 + qs], 1.0);
    // Seat 1 did not follow diamonds: relative seat 3 void in ♦ (suit 2).
    assert_eq!(
        field(&st, &t, "voids"),
        &[0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 0.]
    );
    assert_eq!(field(&st, &t, "phase"), &[0.0, 1.0, 0.0]);
    assert_eq!(field(&st, &t, "to_act"), &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(field(&st, &t, "trick_leader"), &[0.0, 0.0, 1.0, 0.0]);
    assert_eq!(field(&st, &t, "first_leader"), &[0.0, 0.0, 1.0, 0.0]);
    assert_eq!(field(&st, &t, "hand_sizes"), &[1.0, 1.0, 12.0 / 13.0, 12.0 / 13.0]);
    assert_eq!(field(&st, &t, "lead_shape"), &[1.0, 0.0]);
    assert_eq!(field(&st, &t, "tricks_played"), &[0.0]);
    assert_eq!(field(&st, &t, "raw_scores"), &[0.0; 4]);
    assert!(field(&st, &t, "perfect_hands").iter().all(|&x| x == 0.0));
    // Perfect information adds every hand: seat 3 (relative 1) holds ♣A.
    let p = tensor(&st, 2, true);
    assert_eq!(field(&st, &p, "perfect_hands")[54 + card("AC").index()], 1.0);
    assert_eq!(field(&st, &p, "perfect_hands").iter().sum::<f32>(), 50.0);
    // Finish the trick: seat 2 (hearts) and seat 3 (clubs) discard; seat 0 takes ♠Q and a heart.
    st.apply_builtin(Policy::Greedy).unwrap();
    st.apply_builtin(Policy::Greedy).unwrap();
    let t = tensor(&st, 2, false);
    let taken = field(&st, &t, "taken");
    assert_eq!(taken[2 * 54 + qs], 1.0, "seat 0 (relative 2) took the pig");
    let raw = st.state().score().raw[0];
    assert_eq!(field(&st, &t, "raw_scores")[2], raw as f32 / 400.0);
    assert!(raw <= -100);
    assert_eq!(field(&st, &t, "tricks_played"), &[1.0 / 13.0]);
}

/// Another seat's hidden cards never change the tensor (worlds of the observer: same tensor)
/// unless `perfect`; a write leaves no stale value.
#[test]
fn the_tensor_shows_only_what_the_seat_knows() {
    let mut rng = deal_rng(3, 3);
    let mut differs = 0;
    for r in option_sets() {
        for seed in 0..3 {
            let mut st = r.new_deal(seed, 5).unwrap();
            let mut step = 0;
            while !st.is_terminal() {
                if step % 5 == 0 {
                    for seat in 0..4 {
                        let mine = tensor(&st, seat, false);
                        let hidden = st.seat_view(seat).unwrap().dealer().unwrap().deal(&mut rng);
                        let world = st.with_hidden(seat, &hidden, &mut rng).unwrap();
                        assert_eq!(tensor(&world, seat, false), mine, "{r:?} seat {seat}");
                        if tensor(&world, seat, true) != tensor(&st, seat, true) {
                            differs += 1;
                        }
                        // Writing twice, over anything, gives the same values.
                        let mut again = vec![7.0; LEN];
                        st.write_observation_tensor(seat, false, &mut again).unwrap();
                        st.write_observation_tensor(seat, false, &mut again).unwrap();
                        assert_eq!(again, mine);
                        assert!(mine.iter().all(|x| x.is_finite()));
                    }
                }
                st.apply_builtin([Policy::Random, Policy::Greedy][seed as usize % 2]).unwrap();
                step += 1;
            }
        }
    }
    assert!(differs > 100, "perfect tensors show the hands ({differs})");
}

#[test]
fn move_cards_are_the_cards_of_the_move() {
    let st = rules(&[]).new_deal(0, 0).unwrap();
    let ms = |t: &str| t.parse::<Multiset>().unwrap();
    assert_eq!(st.move_cards(&Move::Expose(card("QS"))), ms("QS"));
    assert_eq!(st.move_cards(&Move::ExposeClosed(card("AH"))), ms("AH"));
    assert_eq!(st.move_cards(&Move::EndExposure), Multiset::EMPTY);
    assert_eq!(st.move_cards(&st.parse_move("10C 10C").unwrap()), ms("10C 10C"));
    assert_eq!(st.move_cards(&st.parse_move("2C").unwrap()), ms("2C"));
}
