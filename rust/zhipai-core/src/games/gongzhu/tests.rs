//! Unit and property tests of Gongzhu. Expected values come from the digest
//! (shared/rules/gongzhu.md §A.14) and the seed, never from the code under test.

use super::options::{GongzhuRules, Normalize};
use super::play::{check_play, legal_plays, trick_winner, Play, Position};
use super::scoring::{final_scores, raw_score, score_deal, Exposure};
use super::state::{Move, Opening, Phase, State, NUM_ACTIONS};
use crate::cards::{parse_cards, Card};
use crate::deal::deal_rng;
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::simulator::DealSimulator;
use proptest::prelude::*;

fn rules(opts: &[(&str, OptionValue)]) -> GongzhuRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    GongzhuRules::from_preset("gongzhu", &o).unwrap()
}

fn ms(text: &str) -> Multiset {
    Multiset::from_cards(&parse_cards(text).unwrap()).unwrap()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

#[test]
fn seed_normalisation_example() {
    // Seed 000 / §A.11: raw (−120, −280, 0, 160) → (−960, −3516, 960, 3516).
    let r = GongzhuRules::default();
    assert_eq!(final_scores(&r, &[-120, -280, 0, 160]), [-960, -3516, 960, 3516]);
}

#[test]
fn seed_partnership_example() {
    // Seed 000 / §A.13: raw (−190, 50, −10, 0) → (−1500, 1500, −1500, 1500).
    let r = rules(&[("partnership", OptionValue::Bool(true))]);
    assert_eq!(final_scores(&r, &[-190, 50, -10, 0]), [-1500, 1500, -1500, 1500]);
}

#[test]
fn seed_two_deck_pigs_and_transformers() {
    // Seed 000 / §A.12 E13: both ♠Q and both ♣10 exposed, one player took all four: −12800.
    let r = rules(&[("decks", OptionValue::Int(2))]);
    let e = Exposure::from_cards(&r, &ms("QS QS 10C 10C"), &Multiset::EMPTY).unwrap();
    assert_eq!(raw_score(&r, &ms("QS QS 10C 10C"), &e), -12800);
    // E12: both ♥A and both ♣10 exposed; ♥A + ♣10 + ♣10 = −3200.
    let e = Exposure::from_cards(&r, &ms("AH AH 10C 10C"), &Multiset::EMPTY).unwrap();
    assert_eq!(raw_score(&r, &ms("AH 10C 10C"), &e), -3200);
}

#[test]
fn normalisation_variants_e10() {
    // §A.14 E10: raw (−100, 200, −140, −60).
    let raw = [-100, 200, -140, -60];
    let with = |n: &str| final_scores(&rules(&[("normalize", s(n))]), &raw);
    assert_eq!(with("qq_trunc_then_x12"), [-1200, 3600, -1836, -552]);
    assert_eq!(with("exact"), [-1200, 3600, -1840, -560]);
    assert_eq!(with("floor_then_x12"), [-1200, 3600, -1848, -564]);
    assert_eq!(with("round_then_x12"), [-1200, 3600, -1836, -564]);
    assert_eq!(with("none"), raw);
}

#[test]
fn hearts_total_and_special_cards() {
    let r = GongzhuRules::default();
    let none = Exposure::default();
    assert_eq!(raw_score(&r, &ms("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), &none), -150);
    assert_eq!(raw_score(&r, &ms("QS 2H 7H"), &none), -110); // E1
    assert_eq!(raw_score(&r, &ms("JD AH 10H 10C"), &none), 80); // E2
    assert_eq!(raw_score(&r, &ms("10C 2S"), &none), 50); // E3
    assert_eq!(raw_score(&r, &ms("10C 3H"), &none), 0); // E4
    let all = ms("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH QS JD 10C");
    assert_eq!(raw_score(&r, &all, &none), 800); // E8
    let formula = rules(&[("grand_slam_mode", s("formula"))]);
    let pig = Exposure { level: [1, 0, 0, 0] };
    assert_eq!(raw_score(&formula, &all, &pig), 1000);
    let no_slam = rules(&[("grand_slam_mode", s("none"))]);
    assert_eq!(raw_score(&no_slam, &all, &none), 400); // (200 − 100 + 100) × 2
    let off = rules(&[("all_red_mode", s("off"))]);
    assert_eq!(raw_score(&off, &ms("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), &none), -200);
}

#[test]
fn transformer_options_two_decks() {
    let literal =
        rules(&[("decks", OptionValue::Int(2)), ("two_deck_transformer_table", s("seed_literal"))]);
    let e = Exposure { level: [0, 0, 2, 0] };
    assert_eq!(raw_score(&literal, &ms("10C JD"), &e), 400); // h=1, e=2: ×4 (seed literal)
    let fifty =
        rules(&[("decks", OptionValue::Int(2)), ("two_deck_transformer_alone", s("50 per ♣10"))]);
    assert_eq!(raw_score(&fifty, &ms("10C 10C"), &Exposure::default()), 100);
    let quarter = rules(&[("decks", OptionValue::Int(2))]);
    assert_eq!(raw_score(&quarter, &ms("10C 10C"), &Exposure::default()), 100); // 25 × 4
    assert_eq!(raw_score(&quarter, &ms("10C 10C"), &Exposure { level: [0, 0, 1, 0] }), 200);
}

#[test]
fn closed_open_exposure_factors() {
    let r = rules(&[("exposure_mode", s("closed_open"))]);
    let e = Exposure::from_cards(&r, &ms("QS"), &ms("JD")).unwrap();
    assert_eq!(e.level, [2, 1, 0, 0]);
    assert_eq!(raw_score(&r, &ms("QS"), &e), -400);
    assert_eq!(raw_score(&r, &ms("JD"), &e), 200);
    assert!(Exposure::from_cards(&GongzhuRules::default(), &ms("QS"), &ms("JD")).is_err());
}

#[test]
fn score_deal_rejects_extra_copies() {
    let r = GongzhuRules::default();
    let t = [ms("QS"), ms("QS"), Multiset::EMPTY, Multiset::EMPTY];
    assert!(score_deal(&r, &t, &Multiset::EMPTY, &Multiset::EMPTY).is_err());
    let t = [ms("QS"), Multiset::EMPTY, Multiset::EMPTY, Multiset::EMPTY];
    assert!(score_deal(&r, &t, &ms("2C"), &Multiset::EMPTY).is_err());
}

#[test]
fn action_codes_round_trip() {
    for code in 0..NUM_ACTIONS {
        let m = Move::from_action(code).unwrap();
        assert_eq!(m.action(), code, "{m}");
    }
    assert!(Move::from_action(NUM_ACTIONS).is_err());
    assert_eq!(Move::Play(Play::single(card("2S"))).action(), 0);
    assert_eq!(Move::Play(Play::two(card("2S"), card("2S"))).action(), 52);
}

#[test]
fn trick_winners() {
    let r = GongzhuRules::default();
    let t = |x: &[&str]| -> Vec<Play> {
        x.iter().map(|p| Play::from_cards(&parse_cards(p).unwrap()).unwrap()).collect()
    };
    assert_eq!(trick_winner(&r, &t(&["5S", "KS", "AH", "QS"])), 1);
    assert_eq!(trick_winner(&r, &t(&["5S", "AD", "4S", "3S"])), 0);
    let two = rules(&[("decks", OptionValue::Int(2))]);
    assert_eq!(trick_winner(&two, &t(&["4H 4H", "KH KH", "QH 8H", "JH KD"])), 2);
    assert_eq!(trick_winner(&two, &t(&["4D 4D", "KD KD", "QD 8D", "JD KS"])), 1);
    // Identical singles: the first wins.
    assert_eq!(trick_winner(&two, &t(&["5C", "AC", "AC", "2C"])), 1);
}

fn pos(hand: &str, lead: Option<&str>, exposed: &str) -> Position {
    Position {
        hand: ms(hand),
        exposed: ms(exposed),
        suits_led: 0,
        lead: lead.map(|l| Play::from_cards(&parse_cards(l).unwrap()).unwrap()),
        forced: None,
    }
}

#[test]
fn exposed_restriction() {
    let r = GongzhuRules::default();
    let p = pos("QS 3S 8H", Some("5S"), "QS");
    assert!(check_play(&r, &p, &Play::single(card("QS"))).is_err());
    assert!(check_play(&r, &p, &Play::single(card("3S"))).is_ok());
    let later = Position { suits_led: 1, ..p };
    assert!(check_play(&r, &later, &Play::single(card("QS"))).is_ok());
    let lead = pos("QS 3S 8H", None, "QS");
    let mut out = Vec::new();
    legal_plays(&r, &lead, &mut out);
    assert!(!out.contains(&Play::single(card("QS"))));
    assert_eq!(out.len(), 2);
    let single = pos("QS 8H", None, "QS");
    assert!(check_play(&r, &single, &Play::single(card("QS"))).is_ok());
}

#[test]
fn pair_follow_rules() {
    let r = rules(&[("decks", OptionValue::Int(2))]);
    let mut out = Vec::new();
    legal_plays(&r, &pos("KS KS 3S 4H", Some("8S 8S"), ""), &mut out);
    assert_eq!(out, vec![Play::two(card("KS"), card("KS"))]);
    legal_plays(&r, &pos("KS 3S 9H", Some("8S 8S"), ""), &mut out);
    assert_eq!(out, vec![Play::two(card("3S"), card("KS"))]);
    legal_plays(&r, &pos("KS 9H 9H 2C", Some("8S 8S"), ""), &mut out);
    assert_eq!(out.len(), 2); // KS + 9H, KS + 2C
}

#[test]
fn first_deal_forces_club_two_and_exposure_order() {
    let r = GongzhuRules::default();
    let mut rng = deal_rng(7, 0);
    let mut st = State::deal(&r, &mut rng, Opening::FirstOfMatch);
    let c2 = card("2C");
    assert!(st.hand(st.first_leader()).contains(c2));
    assert_eq!(st.phase(), Phase::Exposure);
    for _ in 0..4 {
        st.apply(Move::EndExposure).unwrap();
    }
    assert_eq!(st.phase(), Phase::Play);
    assert_eq!(st.legal_moves(), vec![Move::Play(Play::single(c2))]);
    assert!(st.apply(Move::EndExposure).is_err());
}

#[test]
fn auto_fourth_exposure_in_a_deal() {
    let r = GongzhuRules::default();
    let mut rng = deal_rng(3, 1);
    let mut st = State::deal(&r, &mut rng, Opening::LedBy(0));
    // Each seat exposes whatever it holds among ♠Q ♦J ♣10 (not ♥A), then ends.
    for _ in 0..4 {
        let p = st.current_player().unwrap();
        for c in ["QS", "JD", "10C"] {
            if st.hand(p).contains(card(c)) {
                st.apply(Move::Expose(card(c))).unwrap();
            }
        }
        st.apply(Move::EndExposure).unwrap();
    }
    assert!(st.auto_exposed());
    let holder = (0..4).find(|&s| st.hand(s).contains(card("AH"))).unwrap();
    assert!(st.exposed(holder).0.contains(card("AH")));
    assert_eq!(st.exposure().level, [1, 1, 1, 1]);
}

/// Two decks: each seat exposes every copy it holds of the given cards, then ends.
fn two_deck_exposure(r: &GongzhuRules, seed: u64, expose: &[&str]) -> State {
    let mut st = State::deal(r, &mut deal_rng(seed, 1), Opening::LedBy(0));
    for _ in 0..4 {
        let p = st.current_player().unwrap();
        for c in expose {
            for _ in 0..st.hand(p).count(card(c)) {
                st.apply(Move::Expose(card(c))).unwrap();
            }
        }
        st.apply(Move::EndExposure).unwrap();
    }
    st
}

#[test]
fn two_deck_auto_fourth_is_off_by_default_and_can_be_turned_on() {
    // §A.12: "3-of-4 auto-exposure: default off for two decks"; the option turns it on.
    let two = rules(&[("decks", OptionValue::Int(2))]);
    assert!(!two.auto_expose_fourth() && GongzhuRules::default().auto_expose_fourth());
    let st = two_deck_exposure(&two, 4, &["QS", "JD", "10C"]);
    assert!(!st.auto_exposed());
    assert_eq!(st.exposure().level, [2, 2, 2, 0]);
    let on =
        rules(&[("decks", OptionValue::Int(2)), ("auto_expose_fourth", OptionValue::Bool(true))]);
    // Option order does not matter (decks given after the option).
    let on2 =
        rules(&[("auto_expose_fourth", OptionValue::Bool(true)), ("decks", OptionValue::Int(2))]);
    assert_eq!(on, on2);
    let st = two_deck_exposure(&on, 4, &["QS", "JD", "10C"]);
    assert!(st.auto_exposed());
    // Both layers complete: both ♥A copies exposed, in the hands that hold them.
    assert_eq!(st.exposure().level, [2, 2, 2, 2]);
    let exposed_ah: usize = (0..4).map(|s| st.exposed(s).0.count(card("AH"))).sum();
    assert_eq!(exposed_ah, 2);
    for s in 0..4 {
        assert_eq!(st.exposed(s).0.count(card("AH")), st.hand(s).count(card("AH")));
    }
    // One copy of each of three cards (the first holder's copy): one ♥A copy at layer 1.
    let mut st = State::deal(&on, &mut deal_rng(4, 1), Opening::LedBy(0));
    let mut done = [false; 3];
    for _ in 0..4 {
        let p = st.current_player().unwrap();
        for (i, c) in ["QS", "JD", "10C"].iter().enumerate() {
            if !done[i] && st.hand(p).contains(card(c)) {
                st.apply(Move::Expose(card(c))).unwrap();
                done[i] = true;
            }
        }
        st.apply(Move::EndExposure).unwrap();
    }
    assert_eq!(st.exposure().level, [1, 1, 1, 1]);
    // One deck with the option off explicitly: no auto-exposure.
    let off = rules(&[("auto_expose_fourth", OptionValue::Bool(false))]);
    assert!(!off.auto_expose_fourth());
}

#[test]
fn options_reject_bad_values() {
    let bad = |k: &str, v: OptionValue| {
        GongzhuRules::from_preset("gongzhu", &[(k.to_string(), v)]).unwrap_err().to_string()
    };
    assert!(bad("decks", OptionValue::Int(3)).contains("decks"));
    assert!(bad("normalize", s("banana")).contains("banana"));
    assert!(bad("no_such", OptionValue::Bool(true)).contains("no_such"));
    let r = rules(&[("match_end", s("-1000")), ("two_deck_transformer_alone", s("25*M"))]);
    assert_eq!(r.normalize, Normalize::QqTruncThenX12);
    assert_eq!(r.option_infos().len(), 17);
}

fn play_checked(r: &GongzhuRules, seed: u64, policy: Policy) -> State {
    let mut rng = deal_rng(seed, 0);
    let mut st = State::deal(r, &mut rng, Opening::FirstOfMatch);
    let mut buf = Vec::new();
    let mut steps = 0;
    while !st.is_terminal() {
        let mv = super::policy::choose(&st, policy, &mut rng, &mut buf);
        assert!(st.legal_moves().contains(&mv), "{mv} not legal");
        st.apply(mv).unwrap();
        steps += 1;
        assert!(steps < 500, "deal does not terminate");
    }
    st
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_deals_terminate_and_assign_every_card(
        seed in any::<u64>(), decks in 1u8..=2, greedy in any::<bool>(), exposure in 0usize..3,
        discard in any::<bool>(), partnership in any::<bool>(),
    ) {
        let r = rules(&[
            ("decks", OptionValue::Int(decks as i64)),
            ("exposure_mode", s(["qq", "none", "closed_open"][exposure])),
            ("exposed_discard_before_first_round", s(if discard { "allowed" } else { "forbidden" })),
            ("partnership", OptionValue::Bool(partnership)),
            ("normalize", s("exact")),
        ]);
        let policy = if greedy { Policy::Greedy } else { Policy::Random };
        let st = play_checked(&r, seed, policy);
        let mut all = Multiset::EMPTY;
        for s in 0..4 {
            all.add_all(st.taken(s)).unwrap();
            prop_assert!(st.hand(s).is_empty());
        }
        prop_assert_eq!(all, Multiset::full_decks(decks as usize, false).unwrap());
        let score = st.score();
        prop_assert_eq!(score.final_.iter().sum::<i64>(), 0);
        prop_assert!(st.next_deal_leader().is_some());
        let mut row = vec![0; r.columns().len()];
        let mut rng = deal_rng(seed, 1);
        r.play_deal(policy, &mut rng, &mut row).unwrap();
        prop_assert_eq!(row[4..8].iter().map(|&x| x as i64).sum::<i64>(), 0);
    }

    #[test]
    fn one_deck_raw_scores_match_card_sums_without_specials(seed in any::<u64>()) {
        // With exposure off and no 全红/全收 this is the plain sum of §A.4 heart values
        // (−200 in all) plus pig −100 and sheep +100, the ♣10 aside.
        let r = rules(&[("exposure_mode", s("none")), ("all_red_mode", s("off")), ("grand_slam_mode", s("none"))]);
        let st = play_checked(&r, seed, Policy::Random);
        let score = st.score();
        let holder = (0..4).find(|&s| st.taken(s).contains(card("10C"))).unwrap();
        let others: i64 = (0..4).filter(|&s| s != holder).map(|s| score.raw[s]).sum();
        let expected_rest: i64 = (0..4).filter(|&s| s != holder).map(|s| {
            let t = st.taken(s);
            let hearts: i64 = t.iter().filter(|c| c.suit() == Some(crate::cards::Suit::Hearts))
                .map(|c| [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50][c.rank().unwrap().index()]).sum();
            hearts - 100 * t.count(card("QS")) as i64 + 100 * t.count(card("JD")) as i64
        }).sum();
        prop_assert_eq!(others, expected_rest);
    }
}

#[test]
fn match_leader_is_previous_pig_taker() {
    let r = GongzhuRules::default();
    let mut m = super::Match::new(&r);
    let mut rng = deal_rng(11, 0);
    let first = m.play_deal(Policy::Random, &mut rng);
    let taker = first.next_deal_leader().unwrap();
    assert!(first.taken(taker).contains(card("QS")));
    let second = m.play_deal(Policy::Random, &mut rng);
    assert_eq!(second.first_leader(), taker);
    let totals = m.totals();
    let expect: Vec<i64> =
        (0..4).map(|s| first.score().final_[s] + second.score().final_[s]).collect();
    assert_eq!(totals.to_vec(), expect);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The fast one-deck rollout equals the general, rule-checked State played by the random
    /// policy with the same generator (same deal, same decisions, same row).
    #[test]
    fn fast_rollout_equals_general_state(
        seed in any::<u64>(), exposure in 0usize..3, discard in any::<bool>(),
        clockwise in any::<bool>(), first in 0usize..4, auto in any::<bool>(),
    ) {
        let r = rules(&[
            ("exposure_mode", s(["qq", "none", "closed_open"][exposure])),
            ("exposed_discard_before_first_round", s(if discard { "allowed" } else { "forbidden" })),
            ("direction", s(if clockwise { "clockwise" } else { "anticlockwise" })),
            ("first_lead_card", s(["C2", "S2", "S7", "rotate"][first])),
            ("auto_expose_fourth", OptionValue::Bool(auto)),
        ]);
        let mut rng = deal_rng(seed, 3);
        let fast = super::fast::random_deal(&r, &mut rng);
        let mut rng = deal_rng(seed, 3);
        let st = play_checked_with(&r, &mut rng, Policy::Random);
        let general = st.summary();
        let mut a = vec![0; r.columns().len()];
        let mut b = vec![0; r.columns().len()];
        super::row::write_row(&r, &fast, &mut a);
        super::row::write_row(&r, &general, &mut b);
        prop_assert_eq!(a, b);
        prop_assert_eq!(fast.taken, general.taken);
    }
}

fn play_checked_with(r: &GongzhuRules, rng: &mut rand_chacha::ChaCha8Rng, policy: Policy) -> State {
    let mut st = State::deal(r, rng, Opening::FirstOfMatch);
    let mut buf = Vec::new();
    while !st.is_terminal() {
        let mv = super::policy::choose(&st, policy, rng, &mut buf);
        st.apply(mv).unwrap();
    }
    st
}

#[test]
fn basic_dumps_the_pig_and_high_hearts_when_void() {
    let r = rules(&[("exposure_mode", s("none"))]);
    let suit = |x: &str| {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            .iter()
            .map(|rank| format!("{rank}{x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let hands = [ms(&suit("D")), ms(&suit("S")), ms(&suit("H")), ms(&suit("C"))];
    let mut st = State::from_hands(&r, hands, Opening::LedBy(0)).unwrap();
    let mut buf = Vec::new();
    let mut rng = deal_rng(0, 0);
    let mut next = |st: &mut State| {
        let mv = super::policy::choose(st, Policy::Basic, &mut rng, &mut buf);
        st.apply(mv).unwrap();
        mv
    };
    assert_eq!(next(&mut st), Move::Play(Play::single(card("2D")))); // lowest lead
    assert_eq!(next(&mut st), Move::Play(Play::single(card("QS")))); // dump the pig
    assert_eq!(next(&mut st), Move::Play(Play::single(card("AH")))); // then the highest heart
}

#[test]
fn basic_hunts_the_sheep_and_ducks_the_pig() {
    let r = rules(&[("exposure_mode", s("none"))]);
    // Seat 0 holds ♦A while ♦J is out; seat 1 holds ♦J and must follow diamonds.
    let hands = [
        ms("AD 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS"),
        ms("JD 2D 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"),
        ms("3D 4D 5D 6D 7D 8D 9D 10D QD KD KH AH QS"),
        ms("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
    ];
    let mut st = State::from_hands(&r, hands, Opening::LedBy(0)).unwrap();
    let mut buf = Vec::new();
    let mut rng = deal_rng(0, 0);
    let mv = super::policy::choose(&st, Policy::Basic, &mut rng, &mut buf);
    // Leading: spades above the outstanding pig are avoided; ♦A hunts the sheep.
    assert_eq!(mv, Move::Play(Play::single(card("AD"))));
    st.apply(mv).unwrap();
    let mv = super::policy::choose(&st, Policy::Basic, &mut rng, &mut buf);
    // Seat 1 cannot beat ♦A: it keeps the sheep and ducks with ♦2.
    assert_eq!(mv, Move::Play(Play::single(card("2D"))));
}

#[test]
fn random_players_average_about_minus_63() {
    // gongzhu.md §A.15: MrIfOffline's README reports four random players averaging about −63
    // raw points each, under its rules (no exposure, all hearts flip, no grand-slam rule).
    let r = rules(&[("exposure_mode", s("none")), ("grand_slam_mode", s("none"))]);
    let mut row = vec![0; r.columns().len()];
    let mut total = 0i64;
    let deals = 10_000;
    for i in 0..deals {
        r.play_deal(Policy::Random, &mut deal_rng(99, i), &mut row).unwrap();
        total += row[..4].iter().map(|&x| x as i64).sum::<i64>();
    }
    let mean = total as f64 / (4 * deals) as f64;
    assert!((-68.0..=-54.0).contains(&mean), "mean raw per seat {mean}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// §A.6/§A.12 auto-exposure as a closure: it only adds exposures, never past the decks'
    /// copies, stops with no layer at exactly 3 cards, and never applies when switched off.
    #[test]
    fn auto_fourth_closes_every_layer(two in any::<bool>(), lv in proptest::array::uniform4(0u8..3)) {
        let decks = if two { 2u8 } else { 1 };
        let lv = lv.map(|l| l.min(decks));
        let on = rules(&[("decks", OptionValue::Int(decks as i64)), ("auto_expose_fourth", OptionValue::Bool(true))]);
        let off = rules(&[("decks", OptionValue::Int(decks as i64)), ("auto_expose_fourth", OptionValue::Bool(false))]);
        let mut e = Exposure { level: lv };
        prop_assert_eq!(e.auto_fourth(&off), None);
        let mut steps = 0;
        while let Some(i) = e.auto_fourth(&on) {
            e.level[i] += 1;
            steps += 1;
            prop_assert!(steps <= 2 && e.level[i] <= decks);
        }
        for layer in 1..=decks {
            prop_assert_ne!(e.level.iter().filter(|&&l| l >= layer).count(), 3);
        }
        prop_assert!(e.level.iter().zip(&lv).all(|(a, b)| a >= b));
    }

    /// Hand evaluation starts from exactly the given hands, whatever the deal and dealer.
    #[test]
    fn evaluation_keeps_the_given_hands(seed in any::<u64>(), two in any::<bool>(), dealer in proptest::option::of(0usize..4)) {
        let r = rules(&[("decks", OptionValue::Int(if two { 2 } else { 1 }))]);
        let hands = super::state::deal_hands(&r, &mut deal_rng(seed, 0));
        let deal = crate::deal::Deal { hands: hands.to_vec(), kitty: Multiset::EMPTY };
        let st = super::evaluate::starting_state(&r, &deal, dealer, &mut deal_rng(seed, 1)).unwrap();
        for (s, hand) in hands.iter().enumerate() {
            prop_assert_eq!(st.hand(s), hand);
        }
        if let Some(d) = dealer {
            prop_assert_eq!(st.first_leader(), d);
        } else {
            prop_assert!(st.hand(st.first_leader()).contains(card("2C")));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Picking the i-th legal play without the list (the random policy's shortcut) gives the
    /// list's i-th play and counts the list, at every decision of random deals.
    #[test]
    fn picked_play_is_the_listed_play(
        seed in any::<u64>(), decks in 1u8..=2, exposure in 0usize..3, discard in any::<bool>(),
    ) {
        let r = rules(&[
            ("decks", OptionValue::Int(decks as i64)),
            ("exposure_mode", s(["qq", "none", "closed_open"][exposure])),
            ("exposed_discard_before_first_round", s(if discard { "allowed" } else { "forbidden" })),
        ]);
        let mut rng = deal_rng(seed, 5);
        let mut st = State::deal(&r, &mut rng, Opening::FirstOfMatch);
        let mut buf = Vec::new();
        let mut checked = 0;
        while !st.is_terminal() {
            if st.phase() == Phase::Play {
                let pos = st.position();
                st.legal_plays_into(&mut buf);
                for i in 0..buf.len() {
                    let mut n = 0;
                    let picked = super::play::pick_legal_play(&r, &pos, |m| {
                        n = m;
                        i
                    });
                    if let Some(p) = picked {
                        prop_assert_eq!(n, buf.len());
                        prop_assert_eq!(p, buf[i]);
                        checked += 1;
                    }
                }
            }
            let mv = super::policy::choose(&st, Policy::Random, &mut rng, &mut buf);
            st.apply(mv).unwrap();
        }
        prop_assert!(checked >= 13, "only {} plays checked", checked);
    }
}
