//! Tests of the built-in players: `basic` is the first-generation greedy move for move (rows
//! pinned to checksums of the code before the change), `random` is unchanged, and the new
//! `greedy` ([`super::greedy`]) protects and hunts the pig, dumps it on a void or under ♠K/♠A,
//! takes the sheep, minds its partner, and reads only what its seat knows.

use super::game_tests::{b, card, option_sets, rules, s};
use super::play::Play;
use super::policy::choose;
use super::state::{Move, Opening, State};
use crate::deal::deal_rng;
use crate::game::{Game, GameState};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::simulator::DealSimulator;

/// The checksum of `gongzhu_deals` (`examples/gongzhu_deals.rs`, `simulate` mode).
fn checksum(decks: i64, policy: Policy, deals: u64) -> i64 {
    let r = rules(&[("decks", OptionValue::Int(decks))]);
    let mut row = vec![0i32; DealSimulator::columns(&r).len()];
    let mut sum = 0i64;
    for i in 0..deals {
        r.play_deal(policy, &mut crate::deal::deal_rng(7, i), &mut row).unwrap();
        sum = sum.wrapping_mul(31).wrapping_add(row.iter().map(|&x| x as i64).sum::<i64>());
    }
    sum
}

/// `basic` plays exactly as `greedy` did before the new greedy, and `random` is unchanged:
/// checksums taken with the code before the change (`gongzhu_deals N greedy|random D simulate`).
#[test]
fn basic_and_random_rows_are_those_of_before() {
    assert_eq!(checksum(1, Policy::Basic, 1000), -6222155158784220621);
    assert_eq!(checksum(2, Policy::Basic, 200), -5599453984490227443);
    assert_eq!(checksum(1, Policy::Random, 2000), -6105207511567577436);
    assert_eq!(checksum(2, Policy::Random, 200), 1180174955342658160);
}

fn ms(text: &str) -> Multiset {
    text.parse().unwrap()
}

fn single(text: &str) -> Move {
    Move::Play(Play::single(card(text)))
}

/// The greedy move of the seat to act.
fn greedy(st: &State) -> Move {
    choose(st, Policy::Greedy, &mut deal_rng(0, 0), &mut Vec::new())
}

fn no_exposure() -> super::options::GongzhuRules {
    rules(&[("exposure_mode", s("none"))])
}

#[test]
fn greedy_takes_the_sheep_then_dumps_the_pig_and_the_high_hearts() {
    let suit = |x: &str| {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            .iter()
            .map(|rank| format!("{rank}{x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let hands = [ms(&suit("D")), ms(&suit("S")), ms(&suit("H")), ms(&suit("C"))];
    let mut st = State::from_hands(&no_exposure(), hands, Opening::LedBy(0)).unwrap();
    // Seat 0 holds every diamond: ♦J cannot be beaten, it takes the sheep.
    assert_eq!(greedy(&st), single("JD"));
    st.apply(single("JD")).unwrap();
    assert_eq!(greedy(&st), single("QS"), "void in diamonds: dump the pig");
    st.apply(single("QS")).unwrap();
    assert_eq!(greedy(&st), single("AH"), "then the highest heart");
}

#[test]
fn greedy_dumps_the_pig_under_a_higher_spade() {
    // Seat 0 leads ♠K; seat 1 holds ♠Q with low spades: the pig goes on the king.
    let hands = [
        ms("KS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
        ms("QS 2S 3S 2D 3D 4D 5D 6D 7D 8D 9D 10D AH"),
        ms("4S 5S 6S 7S 8S 9S 10S JS AS JD QD KD AD"),
        ms("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
    ];
    let mut st = State::from_hands(&no_exposure(), hands, Opening::LedBy(0)).unwrap();
    st.apply(single("KS")).unwrap();
    assert_eq!(greedy(&st), single("QS"));
}

#[test]
fn greedy_protects_and_hunts_the_pig() {
    // Seat 0 holds ♠A and low spades, the pig is out: it leads neither ♠A nor hearts but a low
    // card; seat 2 (no spade above ♠Q) hunts the pig with a low spade.
    let hands = [
        ms("AS 2S 3S 2C 3C 4C 2H 3H 4H 5H 6H 7H 8H"),
        ms("QS KS 4S 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D"),
        ms("5S 6S 7S 8S 9H 10H JH QH KH AH 6D 7D 8D"),
        ms("9S 10S JS JC QC KC AC 9D 10D JD QD KD AD"),
    ];
    let st = State::from_hands(&no_exposure(), hands, Opening::LedBy(0)).unwrap();
    let Move::Play(lead) = greedy(&st) else { panic!() };
    assert_ne!(lead.first(), card("AS"));
    let st2 = State::from_hands(&no_exposure(), hands, Opening::LedBy(2)).unwrap();
    let Move::Play(hunt) = greedy(&st2) else { panic!() };
    assert_eq!(hunt.first().suit(), Some(crate::cards::Suit::Spades), "{hunt}");
    // Holding the pig with two other spades, seat 1 leads a short side suit, not a spade.
    let st1 = State::from_hands(&no_exposure(), hands, Opening::LedBy(1)).unwrap();
    let Move::Play(l1) = greedy(&st1) else { panic!() };
    assert_ne!(l1.first().suit(), Some(crate::cards::Suit::Spades), "{l1}");
}

#[test]
fn greedy_spares_its_partner() {
    // Partnership: seat 0 (partner of seat 2) wins the trick with ♦A; seat 2, void in
    // diamonds, holds the pig — it must not dump the pig on its partner.
    let r = rules(&[("exposure_mode", s("none")), ("partnership", b(true))]);
    let hands = [
        ms("AD 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS"),
        ms("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2H"),
        ms("QS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
        ms("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
    ];
    let mut st = State::from_hands(&r, hands, Opening::LedBy(0)).unwrap();
    st.apply(single("AD")).unwrap();
    st.apply(single("2D")).unwrap();
    assert_ne!(greedy(&st), single("QS"));
    // Individual play: the same seat dumps it.
    let mut st = State::from_hands(&no_exposure(), hands, Opening::LedBy(0)).unwrap();
    st.apply(single("AD")).unwrap();
    st.apply(single("2D")).unwrap();
    assert_eq!(greedy(&st), single("QS"));
}

#[test]
fn greedy_exposes_the_sheep_and_a_long_pig() {
    let r = rules(&[("auto_expose_fourth", b(false))]);
    let hands = [
        ms("QS 2S 3S 4S 5S 2C 3C 4C 5C 6C 7C 8C 9C"),
        ms("JD 6S 7S 2D 3D 4D 5D 6D 7D 8D 9D 10D AH"),
        ms("8S 9S 10S JS KS AS QD KD AD 10C JC QC KC"),
        ms("AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
    ];
    let mut st = State::from_hands(&r, hands, Opening::LedBy(0)).unwrap();
    assert_eq!(greedy(&st), Move::Expose(card("QS")), "five spades with the pig");
    st.apply(Move::Expose(card("QS"))).unwrap();
    assert_eq!(greedy(&st), Move::EndExposure);
    st.apply(Move::EndExposure).unwrap();
    assert_eq!(greedy(&st), Move::Expose(card("JD")), "the sheep, always");
    st.apply(Move::Expose(card("JD"))).unwrap();
    assert_eq!(greedy(&st), Move::EndExposure);
    st.apply(Move::EndExposure).unwrap();
    assert_eq!(greedy(&st), Move::EndExposure, "♣10 / ♥A never");
}

/// The greedy player reads only what its seat knows: in every world of the seat to act (other
/// hands redrawn, other seats' closed declarations redrawn) it makes the same move.
#[test]
fn greedy_moves_do_not_depend_on_hidden_cards() {
    let mut rng = deal_rng(4, 4);
    let mut checked = 0;
    for r in option_sets() {
        for seed in 0..4 {
            let mut st = r.new_deal(seed, 21).unwrap();
            while let Some(seat) = st.current_player() {
                let mv = st.clone().builtin_move(Policy::Greedy).unwrap();
                let dealer = st.seat_view(seat).unwrap().dealer().unwrap();
                for _ in 0..3 {
                    let mut world = st.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
                    assert_eq!(
                        world.builtin_move(Policy::Greedy).unwrap(),
                        mv,
                        "{r:?} seed {seed}"
                    );
                    checked += 1;
                }
                st.apply_builtin([Policy::Greedy, Policy::Random][seed as usize % 2]).unwrap();
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}
