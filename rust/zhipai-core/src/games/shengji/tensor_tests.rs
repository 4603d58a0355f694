//! Tests of the Shengji observation tensor ([`super::state::tensor`]) and of `move_cards`.

use super::game::DealState;
use super::moves::Move;
use super::state::tensor::TENSOR_LEN;
use super::ShengjiRules;
use crate::cards::{Card, Rank, Suit};
use crate::game::{DealSetup, Game, GameRng, GameState, Phase};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use rand::SeedableRng;
use std::collections::HashSet;

fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    ShengjiRules::from_preset(preset, &o).unwrap()
}

fn ms(text: &str) -> Multiset {
    text.parse().unwrap()
}

fn tensor(s: &DealState, seat: usize, perfect: bool) -> Vec<f32> {
    let mut out = vec![0.0; TENSOR_LEN];
    s.write_observation_tensor(seat, perfect, &mut out).unwrap();
    out
}

/// The floats of field `name`.
fn field<'a>(s: &DealState, t: &'a [f32], name: &str) -> &'a [f32] {
    let f = s.observation_layout().into_iter().find(|f| f.name == name).unwrap();
    &t[f.offset..f.offset + f.len]
}

#[test]
fn the_layout_adds_up() {
    for r in [
        rules("tractor", &[("decks", OptionValue::Int(1))]),
        rules("tractor", &[]),
        rules("eighty_points", &[("decks", OptionValue::Int(3))]),
    ] {
        let s = r.new_deal(1, 0).unwrap();
        let layout = s.observation_layout();
        let mut offset = 0;
        let mut names = HashSet::new();
        for f in &layout {
            assert_eq!(f.offset, offset, "{} starts where the previous field ends", f.name);
            assert!(f.len > 0 && !f.meaning.is_empty() && names.insert(f.name));
            offset += f.len;
        }
        assert_eq!(offset, TENSOR_LEN);
        assert_eq!(TENSOR_LEN, 1221);
    }
}

#[test]
fn the_tensor_shows_no_hidden_card_unless_perfect() {
    // Every world of a seat (other hands, kitty and stock redrawn) gives the seat the same
    // tensor; with `perfect` some worlds differ.
    let mut rng = GameRng::seed_from_u64(8);
    let mut differs = 0;
    for (n, r) in [
        rules("tractor", &[]),
        rules("tractor", &[("decks", OptionValue::Int(1))]),
        rules("tractor", &[("chaodi", OptionValue::Bool(true)), ("decks", OptionValue::Int(3))]),
    ]
    .into_iter()
    .enumerate()
    {
        for index in 0..2 {
            let mut s = r.new_deal(30 + n as u64, index).unwrap();
            let mut k = 0;
            while !s.is_terminal() {
                if k % 3 == 0 {
                    for seat in 0..4 {
                        let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
                        let world = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
                        assert_eq!(
                            tensor(&world, seat, false),
                            tensor(&s, seat, false),
                            "seat {seat}"
                        );
                        differs += (tensor(&world, seat, true) != tensor(&s, seat, true)) as usize;
                    }
                }
                s.apply_builtin(if k % 2 == 0 { Policy::Random } else { Policy::Greedy }).unwrap();
                k += 1;
            }
        }
    }
    assert!(differs > 10, "{differs}");
}

#[test]
fn a_known_position_by_hand() {
    // Two decks, level 2, hearts trump, seat 0 deals (shengji.md §3.1). Seat 0 buries eight
    // clubs, leads AS; seat 1 follows 3S. Seen by seat 1: seat 0 is its left (3), seat 2 next.
    let r = rules("tractor", &[]);
    let mut pack = Multiset::full_decks(2, true).unwrap();
    let take = |pack: &mut Multiset, text: &str| {
        let m = ms(text);
        pack.remove_all(&m).unwrap();
        m
    };
    let h0 = take(
        &mut pack,
        "AS KS 3S 4S 5S 6S 7S 8S 9S 10S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H BJ SJ 2H",
    );
    let h1 = take(
        &mut pack,
        "3S 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    );
    let kitty = take(&mut pack, "3C 4C 5C 6C 7C 8C 9C 10C");
    let rest: Vec<Card> = pack.iter().collect();
    let h2 = Multiset::from_cards(&rest[..25]).unwrap();
    let h3 = Multiset::from_cards(&rest[25..]).unwrap();
    let setup = DealSetup {
        hands: vec![h0, h1, h2, h3],
        kitty: Some(kitty),
        level: Some(Some(Rank::TWO)),
        trump: Some(Some(Suit::Hearts)),
        dealer: Some(0),
        ..DealSetup::default()
    };
    let mut s = r.deal_from(&setup).unwrap();
    s.apply_move(&Move::Bury(kitty)).unwrap();
    s.apply_move(&Move::Play(ms("AS"))).unwrap();
    s.apply_move(&Move::Play(ms("3S"))).unwrap();
    let t = tensor(&s, 1, false);
    let card = |text: &str| text.parse::<Card>().unwrap().index();
    let hand = field(&s, &t, "hand");
    assert_eq!((hand[card("4D")], hand[card("3S")], hand[card("AS")]), (2.0, 0.0, 0.0));
    assert_eq!(hand.iter().sum::<f32>(), 24.0);
    let trick = field(&s, &t, "trick");
    assert_eq!(trick[card("3S")], 1.0, "its own play (seat 0 from itself)");
    assert_eq!(trick[3 * 54 + card("AS")], 1.0, "the dealer's lead (its left, 3)");
    assert_eq!(trick.iter().sum::<f32>(), 2.0);
    assert!(field(&s, &t, "played").iter().all(|&x| x == 0.0), "no trick completed");
    assert!(field(&s, &t, "kitty").iter().all(|&x| x == 0.0), "not its burial");
    assert_eq!(
        field(&s, &t, "level"),
        &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(field(&s, &t, "trump"), &[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(field(&s, &t, "dealer"), &[0.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(field(&s, &t, "kitty_owner"), &[0.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(field(&s, &t, "phase"), &[0.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(field(&s, &t, "to_move"), &[0.0, 1.0, 0.0, 0.0, 0.0], "seat 2 is its right");
    assert_eq!(field(&s, &t, "leader"), &[0.0, 0.0, 0.0, 1.0]);
    assert_eq!(field(&s, &t, "lead_suit"), &[1.0, 0.0, 0.0, 0.0, 0.0], "spades");
    assert_eq!(field(&s, &t, "lead_size"), &[1.0 / 25.0]);
    assert_eq!(field(&s, &t, "hand_sizes"), &[24.0 / 25.0, 1.0, 1.0, 24.0 / 25.0]);
    assert_eq!(field(&s, &t, "attacker"), &[1.0]);
    assert!(field(&s, &t, "perfect_hands").iter().all(|&x| x == 0.0));
    // The dealer sees its burial; a perfect tensor shows every hand and the kitty.
    let t0 = tensor(&s, 0, false);
    assert_eq!(field(&s, &t0, "kitty")[card("10C")], 1.0);
    assert_eq!(field(&s, &t0, "attacker"), &[0.0]);
    let p = tensor(&s, 1, true);
    let hands = field(&s, &p, "perfect_hands");
    assert_eq!(hands[3 * 54 + card("BJ")], 1.0, "the dealer's BJ");
    assert_eq!(hands[card("4D")], 2.0);
    assert_eq!(field(&s, &p, "perfect_rest")[card("3C")], 1.0, "the kitty");
    // A void: seat 1 follows a heart (trump) lead with no trump.
    let mut v = s.clone();
    for _ in 0..2 {
        // A spade when held, else a side card: AS stands (an equal AS does not beat it).
        let tr = v.deal().trick_rules().unwrap().clone();
        let hand = v.deal().hand(v.current_player().unwrap() as u8);
        let spade = hand.kinds().iter().find(|&c| tr.order.suit(c) == 0);
        let c = spade.or_else(|| hand.kinds().iter().find(|&c| !tr.order.is_trump(c))).unwrap();
        v.apply_move(&Move::Play(Multiset::from_set(crate::cards::CardSet::single(c)))).unwrap();
    }
    let winner = v.current_player().unwrap();
    assert_eq!(v.phase(), Phase::Play);
    assert_eq!(winner, 0, "AS stands");
    {
        v.apply_move(&Move::Play(ms("2H"))).unwrap();
        v.apply_move(&Move::Play(ms("3D"))).unwrap();
        let t = tensor(&v, 2, false);
        // Seat 1 is seat 2's left (3); trump is effective suit 4.
        assert_eq!(field(&v, &t, "voids")[3 * 5 + 4], 1.0);
    }
}

#[test]
fn writing_twice_leaves_no_stale_data() {
    let r = rules("tractor", &[]);
    let mut s = r.new_deal(4, 1).unwrap();
    let mut stale = vec![f32::NAN; TENSOR_LEN];
    while !s.is_terminal() {
        for seat in 0..4 {
            for perfect in [false, true] {
                s.write_observation_tensor(seat, perfect, &mut stale).unwrap();
                let fresh = tensor(&s, seat, perfect);
                assert!(stale.iter().zip(&fresh).all(|(a, b)| a == b), "seat {seat}");
            }
        }
        s.apply_builtin(Policy::Random).unwrap();
    }
    assert!(s.write_observation_tensor(4, false, &mut stale).is_err());
    assert!(s.write_observation_tensor(0, false, &mut stale[1..]).is_err());
}

#[test]
fn move_cards_are_the_cards_of_the_move() {
    let r = rules("tractor", &[]);
    let mut s = r.new_deal(2, 0).unwrap();
    let mut kinds = HashSet::new();
    while !s.is_terminal() {
        let mv = s.clone().builtin_move(Policy::Random).unwrap();
        let cards = s.move_cards(&mv);
        match mv {
            Move::Pass => assert!(cards.is_empty()),
            Move::Declare(b) => assert_eq!(cards.count(b.card), b.count as usize),
            Move::Bury(m) | Move::Play(m) => assert_eq!(cards, m),
        }
        kinds.insert(std::mem::discriminant(&mv));
        s.apply_builtin(Policy::Random).unwrap();
    }
    assert!(kinds.len() >= 3, "declarations, a burial and plays seen");
}
