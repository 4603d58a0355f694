//! Soak test: many random deals of every preset with property checks on. Ignored by default
//! (CI runs the small property tests in each game module); run by hand in release:
//!
//!     SOAK_DEALS=1000000 cargo test -p zhipai-core --release --test soak -- --ignored --nocapture
//!
//! Properties: every deal terminates without error; Shengji: all hands are played out, the kitty
//! has its size, points are conserved (tricks of both teams + kitty = 100 × decks, shengji.md
//! §7.1) and the attackers' total is tricks + kitty × multiplier + penalty (§7.2); Gongzhu: the
//! `exact` normalisation sums to zero (gongzhu.md §A.11); Baohuang (defaults and four option
//! sets): scores sum to zero and the places are a permutation of 1..=5 (baohuang.md §C.8–C.9);
//! Hong Wu: attackers' and dealer's
//! points add up to 200 (hongwu.md §B.5).

use rayon::prelude::*;
use std::time::Instant;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::shengji::state::Deal;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::rollout::simulator;
use zhipai_core::{rules, OptionValue, Rank};

fn deals() -> u64 {
    std::env::var("SOAK_DEALS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

fn opts(pairs: &[(&str, OptionValue)]) -> Vec<(String, OptionValue)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

fn check_shengji_deal(r: &ShengjiRules, i: u64) {
    let mut rng = deal_rng(0x50A4, i);
    let level = Rank::from_index((i % 13) as u8).expect("13 ranks");
    let mut d = Deal::new(r, level, None, &mut rng).unwrap_or_else(|e| panic!("deal {i}: {e}"));
    let res = *d.play_out(Policy::Random).unwrap_or_else(|e| panic!("deal {i}: {e}"));
    assert!((0..4).all(|p| d.hand(p).is_empty()), "deal {i}: cards left in hands");
    assert_eq!(
        res.trick_points + res.dealer_team_points + res.kitty_points,
        100 * r.decks as i32,
        "deal {i}: points not conserved"
    );
    assert_eq!(
        res.attacker_points,
        res.trick_points + res.kitty_points * res.kitty_multiplier as i32 + res.penalty,
        "deal {i}: attacker total"
    );
}

#[test]
#[ignore]
fn shengji_presets_and_deck_counts() {
    let n = deals();
    for (preset, decks) in [
        ("tractor", 1),
        ("tractor", 2),
        ("tractor", 3),
        ("tractor_jj", 2),
        ("eighty_points", 1),
        ("eighty_points", 2),
        ("eighty_points", 3),
    ] {
        let r = ShengjiRules::from_preset(preset, &opts(&[("decks", OptionValue::Int(decks))]))
            .unwrap();
        let t = Instant::now();
        (0..n).into_par_iter().for_each(|i| check_shengji_deal(&r, i));
        println!("{preset} decks={decks}: {n} deals OK in {:.1?}", t.elapsed());
    }
}

/// Play `n` deals of a preset through its simulator and check each row with `check`.
fn soak_rows(
    preset: &str,
    overrides: &[(&str, OptionValue)],
    check: impl Fn(&[(&str, i32)]) + Sync,
) {
    let r = rules(preset, &opts(overrides)).unwrap();
    let sim = simulator(&r).unwrap();
    let names: Vec<&str> = sim.columns().iter().map(|c| c.name).collect();
    let n = deals();
    let t = Instant::now();
    (0..n).into_par_iter().for_each(|i| {
        let mut row = vec![0i32; names.len()];
        sim.play_deal(Policy::Random, &mut deal_rng(0x50A4, i), &mut row)
            .unwrap_or_else(|e| panic!("{preset} deal {i}: {e}"));
        let named: Vec<(&str, i32)> = names.iter().copied().zip(row).collect();
        check(&named);
    });
    println!("{preset} {overrides:?}: {n} deals OK in {:.1?}", t.elapsed());
}

fn sum_prefix(row: &[(&str, i32)], prefix: &str) -> i32 {
    row.iter().filter(|(n, _)| n.starts_with(prefix)).map(|(_, v)| v).sum()
}

fn value(row: &[(&str, i32)], name: &str) -> i32 {
    row.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no column {name}")).1
}

#[test]
#[ignore]
fn gongzhu_variants() {
    let exact = ("normalize", OptionValue::Str("exact".into()));
    for extra in [
        vec![],
        vec![("decks", OptionValue::Int(2))],
        vec![("partnership", OptionValue::Bool(true))],
    ] {
        let mut o = extra.clone();
        o.push(exact.clone());
        soak_rows("gongzhu", &o, |row| assert_eq!(sum_prefix(row, "final_"), 0, "{row:?}"));
    }
}

#[test]
#[ignore]
fn baohuang() {
    let s = |v: &str| OptionValue::Str(v.to_string());
    let variants = [
        vec![],
        vec![("tribute_between_deals", s("on")), ("bombs", s("on"))],
        vec![("deck", s("168")), ("extra_card_to", s("scepter_last"))],
        vec![("guard_card_rank", s("above_big_joker")), ("pass_is_final_for_round", s("true"))],
        vec![("jiefeng_applicant", s("any")), ("abdication_moves_card", s("false"))],
    ];
    for overrides in &variants {
        soak_rows("baohuang", overrides, |row| {
            assert_eq!(sum_prefix(row, "score_"), 0, "{row:?}");
            let mut places: Vec<i32> =
                row.iter().filter(|(n, _)| n.starts_with("place_")).map(|(_, v)| *v).collect();
            places.sort_unstable();
            assert_eq!(places, vec![1, 2, 3, 4, 5], "{row:?}");
        });
    }
}

#[test]
#[ignore]
fn hong_wu() {
    soak_rows("hong_wu", &[], |row| {
        let (a, d) = (value(row, "attacker_points"), value(row, "dealer_points"));
        assert_eq!(a + d, 200, "{row:?}");
    });
}
