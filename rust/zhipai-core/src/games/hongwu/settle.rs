//! Hong Wu settlement (hongwu.md §B.10–§B.12): the kitty, the dealer's score S, the result
//! table in units of the base score k, and the level table of seed 002.

use super::options::{DealerPoints, HongWuOptions, KittyRule, LEVEL20_SEED};
use crate::error::{Result, ZhipaiError};

/// Card points in the two decks: eight 5s, eight 10s, eight Ks (hongwu.md §B.5).
pub const TOTAL_POINTS: i32 = 200;

/// The six rows of the result table (hongwu.md §B.11, seed 002 "胜负判定"), in units of k:
/// `(lowest S of the row or None, highest S or None, dealer, each 闲家)`; both bounds inclusive.
/// S = −70 and S = −30 fall in the lower row, S = 0 and S = 30 in the upper one.
pub const RESULT_TABLE: [(Option<i32>, Option<i32>, i64, i64); 6] = [
    (None, Some(-70), -9, 3),
    (Some(-65), Some(-30), -6, 2),
    (Some(-25), Some(-5), -3, 1),
    (Some(0), Some(25), 3, -1),
    (Some(30), Some(65), 6, -2),
    (Some(70), None, 9, -3),
];

/// The most card points an 8-card kitty can hold: eight of the sixteen 10s and Ks (§B.5).
pub const MAX_KITTY_POINTS: i32 = 80;

/// The largest X: the 闲家 take every trick point outside a full kitty, and that kitty ×8
/// (hongwu.md §B.10).
pub const MAX_ATTACKER_POINTS: i32 = TOTAL_POINTS - MAX_KITTY_POINTS + 8 * MAX_KITTY_POINTS;

/// The last trick's kitty multipliers: single, pair, tractor (hongwu.md §B.10).
pub const MULTIPLIERS: [i32; 3] = [2, 4, 8];

/// `value` must be a multiple of 5 in `lo..=hi`: every card point total is (§B.5).
fn check_points(what: &str, value: i32, lo: i32, hi: i32) -> Result<()> {
    if !(lo..=hi).contains(&value) || value % 5 != 0 {
        return Err(ZhipaiError::invalid_value(
            what,
            value,
            format!("expected a multiple of 5 in {lo}…{hi} points (hongwu.md §B.5)"),
        ));
    }
    Ok(())
}

/// [`result_units`] for a score a deal can produce: S is always a multiple of 5 (hongwu.md
/// §B.11). Errors with `InvalidValue` for another S.
pub fn checked_result_units(s: i64) -> Result<(i64, i64)> {
    if s % 5 != 0 || i32::try_from(s).is_err() {
        return Err(ZhipaiError::invalid_value(
            "score",
            s,
            "S is always a multiple of 5 (hongwu.md §B.11)",
        ));
    }
    Ok(result_units(s as i32))
}

/// `(dealer, each 闲家)` in units of k for dealer score `s` (hongwu.md §B.11). Works for any
/// integer S (not only multiples of 5): the seed's bounds are −70 ≤, −30 ≤, < 0, < 30, < 70.
/// [`checked_result_units`] refuses scores no deal produces.
pub fn result_units(s: i32) -> (i64, i64) {
    let row = match s {
        s if s <= -70 => 0,
        s if s <= -30 => 1,
        s if s < 0 => 2,
        s if s < 30 => 3,
        s if s < 70 => 4,
        _ => 5,
    };
    (RESULT_TABLE[row].2, RESULT_TABLE[row].3)
}

/// What happened to the points of one deal, as the settlement needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DealPoints {
    /// Card points in the tricks won by the three 闲家 together.
    pub xianjia_tricks: i32,
    /// Card points in the tricks won by the dealer.
    pub dealer_tricks: i32,
    /// Card points in the buried kitty.
    pub kitty: i32,
    /// Whether a 闲家 won the last trick.
    pub xianjia_won_last: bool,
    /// The last trick's kitty multiplier, 2 / 4 / 8 for a single / pair / tractor lead.
    pub last_multiplier: i32,
    /// ♥5s captured by the 闲家 that count for the red-5 penalty (per `red5_penalty_scope`).
    pub red5_captured: i32,
}

impl DealPoints {
    /// Check that these points can come from a deal: trick and kitty points multiples of 5 that
    /// add up to 200, a kitty of at most 80 (8 cards), a multiplier 2 / 4 / 8 and 0…2 ♥5s
    /// (hongwu.md §B.5, §B.10). Errors with `InvalidValue` naming the bad value.
    pub fn check(&self) -> Result<()> {
        check_points("xianjia_tricks", self.xianjia_tricks, 0, TOTAL_POINTS)?;
        check_points("dealer_tricks", self.dealer_tricks, 0, TOTAL_POINTS)?;
        check_points("kitty", self.kitty, 0, MAX_KITTY_POINTS)?;
        let total = self.xianjia_tricks + self.dealer_tricks + self.kitty;
        if total != TOTAL_POINTS {
            return Err(ZhipaiError::invalid_value(
                "points",
                format!(
                    "{} + {} + {} = {total}",
                    self.xianjia_tricks, self.dealer_tricks, self.kitty
                ),
                "trick and kitty points must add up to 200 (hongwu.md §B.5)",
            ));
        }
        if !MULTIPLIERS.contains(&self.last_multiplier) {
            return Err(ZhipaiError::invalid_value(
                "last_multiplier",
                self.last_multiplier,
                "expected 2, 4 or 8 (single, pair, tractor; hongwu.md §B.10)",
            ));
        }
        if !(0..=2).contains(&self.red5_captured) {
            return Err(ZhipaiError::invalid_value(
                "red5_captured",
                self.red5_captured,
                "expected 0, 1 or 2 (two decks hold two ♥5)",
            ));
        }
        Ok(())
    }
}

/// The settled result of one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// X: the 闲家's points, kitty included per the `kitty` option (hongwu.md §B.10).
    pub attacker_points: i32,
    /// The dealer's points that enter S (per `dealer_points`).
    pub dealer_points: i32,
    /// The red-5 penalty R5 in points.
    pub red5_penalty: i32,
    /// S = dealer points − bid − R5 (hongwu.md §B.11).
    pub score: i32,
    /// The dealer's result, in points (units × `base_score_k`).
    pub dealer: i64,
    /// Each 闲家's result, in points; zero-sum: `dealer + 3 × each_other == 0`.
    pub each_other: i64,
}

/// Check a bid for settlement: a multiple of 5 in 60…200.
fn check_bid(bid: u32) -> Result<()> {
    if !(60..=200).contains(&bid) || !bid.is_multiple_of(5) {
        return Err(ZhipaiError::invalid_value("bid", bid, "expected a multiple of 5 in 60…200"));
    }
    Ok(())
}

impl HongWuOptions {
    /// X: the 闲家's points with the kitty per the `kitty` option (hongwu.md §B.10).
    pub fn attacker_points(&self, p: &DealPoints) -> i32 {
        let kitty = match (self.kitty, p.xianjia_won_last) {
            (KittyRule::LastTrickMultiplied, true) => p.kitty * p.last_multiplier,
            (KittyRule::LastTrickUnmultiplied, true) => p.kitty,
            _ => 0,
        };
        p.xianjia_tricks + kitty
    }

    /// The dealer's points entering S (hongwu.md §B.11 `dealer_points`): 200 − X, or his own
    /// tricks plus the kitty when it is his (`always_dealer`, or he won the last trick under a
    /// `last_trick_*` rule).
    pub fn dealer_points(&self, p: &DealPoints) -> i32 {
        match self.dealer_points {
            DealerPoints::From200MinusX => TOTAL_POINTS - self.attacker_points(p),
            DealerPoints::OwnTricks => {
                let kitty_his = match self.kitty {
                    KittyRule::AlwaysDealer => true,
                    KittyRule::Ignored => false,
                    _ => !p.xianjia_won_last,
                };
                p.dealer_tricks + if kitty_his { p.kitty } else { 0 }
            }
        }
    }

    /// Settle a deal from its points (hongwu.md §B.10–§B.11). Errors with `InvalidValue` for a
    /// bid that is not a multiple of 5 in 60…200 or points no deal produces
    /// ([`DealPoints::check`]).
    pub fn settle_deal(&self, bid: u32, p: &DealPoints) -> Result<Settlement> {
        check_bid(bid)?;
        p.check()?;
        let r5 = p.red5_captured * self.red5_penalty_per_card;
        Ok(self.settlement(bid, self.attacker_points(p), self.dealer_points(p), r5))
    }

    /// Settle from X directly (the `hongwu_settle` case): S = (200 − X) − bid − R5 with
    /// `red5_penalty` = R5 in points. Errors with `InvalidValue` for a bad bid, an X that is not
    /// a multiple of 5 in 0…760 (0…200 unless the kitty is multiplied, §B.10), an R5 that is not
    /// a multiple of 5 in 0…400 (two ♥5 at most 200 each), or an `InvalidOption` when
    /// `dealer_points = own_tricks` (X alone does not give the dealer's own tricks; use
    /// [`Self::settle_deal`]).
    pub fn settle_points(
        &self,
        bid: u32,
        attacker_points: i32,
        red5_penalty: i32,
    ) -> Result<Settlement> {
        check_bid(bid)?;
        let max_x = match self.kitty {
            KittyRule::LastTrickMultiplied => MAX_ATTACKER_POINTS,
            _ => TOTAL_POINTS,
        };
        check_points("attacker_points", attacker_points, 0, max_x)?;
        check_points("red5_penalty", red5_penalty, 0, 2 * 200)?;
        if self.dealer_points == DealerPoints::OwnTricks {
            return Err(ZhipaiError::invalid_option(
                "dealer_points",
                "own_tricks",
                "settling from attacker points alone needs dealer_points=200_minus_X",
            ));
        }
        Ok(self.settlement(bid, attacker_points, TOTAL_POINTS - attacker_points, red5_penalty))
    }

    fn settlement(&self, bid: u32, x: i32, dealer_points: i32, r5: i32) -> Settlement {
        let score = dealer_points - bid as i32 - r5;
        let (d, e) = result_units(score);
        Settlement {
            attacker_points: x,
            dealer_points,
            red5_penalty: r5,
            score,
            dealer: d * self.base_score_k,
            each_other: e * self.base_score_k,
        }
    }

    /// Row `level` (1…20) of the level table, with row 20 per `level20_threshold`.
    pub fn level_threshold(&self, level: usize) -> Result<i64> {
        level_threshold(level, self.level20_threshold)
    }
}

/// The level table of seed 002 "积分规则": (level name, 一级升级分), rows 1…20, copied literally
/// (row 20 is 15728640 as printed; the pattern 15·(2ⁿ − 1) would give 15728625, hongwu.md §B.12).
pub const LEVELS: [(&str, i64); 20] = [
    ("钟灵", 15),
    ("木婉清", 45),
    ("南海鳄神", 105),
    ("阿朱", 225),
    ("黄眉僧", 465),
    ("段延庆", 945),
    ("慕容复", 1905),
    ("鸠摩智", 3825),
    ("丁春秋", 7665),
    ("游坦之", 15345),
    ("慕容博", 30705),
    ("萧远山", 61425),
    ("天山童姥", 122865),
    ("李秋水", 245745),
    ("玄慈方丈", 491505),
    ("段誉", 983025),
    ("虚竹", 1966065),
    ("乔峰", 3932145),
    ("扫地僧", 7864305),
    ("王语嫣", LEVEL20_SEED),
];

/// Row `level` (1…20) of [`LEVELS`] with row 20 replaced by `level20` (the option value).
/// Errors with `InvalidValue` for a level outside 1…20.
pub fn level_threshold(level: usize, level20: i64) -> Result<i64> {
    match level {
        1..=19 => Ok(LEVELS[level - 1].1),
        20 => Ok(level20),
        _ => Err(ZhipaiError::invalid_value("level", level, "expected 1…20")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::options::LEVEL20_FORMULA;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn band_edges() {
        // hongwu.md §B.11: ≤ −70, (−70, −30], (−30, 0), [0, 30), [30, 70), ≥ 70.
        let cases = [
            (-145, (-9, 3)),
            (-70, (-9, 3)),
            (-65, (-6, 2)),
            (-30, (-6, 2)),
            (-25, (-3, 1)),
            (-5, (-3, 1)),
            (0, (3, -1)),
            (25, (3, -1)),
            (30, (6, -2)),
            (65, (6, -2)),
            (70, (9, -3)),
            (140, (9, -3)),
        ];
        for (s, want) in cases {
            assert_eq!(result_units(s), want, "S = {s}");
        }
    }

    #[test]
    fn examples_h3_to_h9() {
        let o = HongWuOptions::default();
        // (bid, X, R5, S, dealer units)
        for (bid, x, r5, s, d) in [
            (100, 60, 0, 40, 6),
            (60, 140, 0, 0, 3),
            (120, 105, 0, -25, -3),
            (125, 105, 0, -30, -6),
            (80, 190, 0, -70, -9),
            (60, 70, 0, 70, 9),
            (100, 75, 20, 5, 3),
        ] {
            let r = o.settle_points(bid, x, r5).unwrap();
            assert_eq!((r.score, r.dealer, r.each_other * -3), (s, d, d), "bid {bid} X {x}");
        }
    }

    #[test]
    fn example_h10_kitty() {
        // Dealer buried 25 points, won 150 in tricks, the 闲家 25 and the last trick with a pair.
        let mut p = DealPoints {
            xianjia_tricks: 25,
            dealer_tricks: 150,
            kitty: 25,
            xianjia_won_last: true,
            last_multiplier: 4,
            red5_captured: 0,
        };
        let mut o = HongWuOptions::default();
        let r = o.settle_deal(100, &p).unwrap();
        assert_eq!((r.attacker_points, r.score, r.dealer), (125, -25, -3));
        o.dealer_points = DealerPoints::OwnTricks;
        assert_eq!(o.settle_deal(100, &p).unwrap().score, 50);
        o.dealer_points = DealerPoints::From200MinusX;
        p.xianjia_won_last = false;
        let r = o.settle_deal(100, &p).unwrap();
        assert_eq!((r.attacker_points, r.score, r.dealer), (25, 75, 9));
        p.xianjia_won_last = true;
        for (rule, x) in [
            (KittyRule::AlwaysDealer, 25),
            (KittyRule::Ignored, 25),
            (KittyRule::LastTrickUnmultiplied, 50),
        ] {
            o.kitty = rule;
            assert_eq!(o.attacker_points(&p), x, "{rule:?}");
        }
        o.dealer_points = DealerPoints::OwnTricks;
        o.kitty = KittyRule::Ignored;
        assert_eq!(o.dealer_points(&p), 150);
        o.kitty = KittyRule::AlwaysDealer;
        assert_eq!(o.dealer_points(&p), 175);
    }

    #[test]
    fn red5_penalty_and_base_score() {
        let o = HongWuOptions { red5_penalty_per_card: 20, base_score_k: 7, ..Default::default() };
        let p = DealPoints {
            xianjia_tricks: 75,
            dealer_tricks: 125,
            red5_captured: 2,
            last_multiplier: 2,
            ..Default::default()
        };
        let r = o.settle_deal(100, &p).unwrap();
        assert_eq!((r.red5_penalty, r.score, r.dealer, r.each_other), (40, -15, -21, 7));
    }

    /// `base_score_k` is bounded (issue 15) so that the largest settlement fits the `i32` result
    /// columns: the table's largest entry × the largest k fits, one more k would not, and deals
    /// played at the bound give exact rows whose zero-sum check holds in `i32` (with k = 2^40 the
    /// rows used to wrap to 0; with k = 2^31 − 1 the zero-sum rule failed).
    #[test]
    fn the_largest_base_score_k_fits_every_result_column() {
        use super::super::options::BASE_SCORE_K_MAX;
        use crate::deal::deal_rng;
        use crate::options::OptionValue;
        use crate::policy::Policy;
        use crate::simulator::DealSimulator;
        let units = RESULT_TABLE.iter().map(|r| r.2.abs().max(r.3.abs())).max().unwrap();
        assert_eq!(units, 9);
        assert!(units * BASE_SCORE_K_MAX <= i32::MAX as i64);
        assert!(units * (BASE_SCORE_K_MAX + 1) > i32::MAX as i64, "the bound is the largest");
        let k = [("base_score_k".to_string(), OptionValue::Int(BASE_SCORE_K_MAX))];
        let rules = super::super::HongWuRules::from_preset("hong_wu", &k).unwrap();
        let o = &rules.options;
        // Every row of the table at the bound: the extremes are ±9k and ∓3k.
        for s in [-400, -70, -65, -30, -25, -5, 0, 25, 30, 65, 70, 200] {
            let r = o.settlement(100, 0, s + 100, 0);
            let (d, e) = result_units(s);
            assert_eq!((r.dealer, r.each_other), (d * BASE_SCORE_K_MAX, e * BASE_SCORE_K_MAX));
            let (d32, e32) =
                (i32::try_from(r.dealer).unwrap(), i32::try_from(r.each_other).unwrap());
            assert_eq!(d32.checked_add(e32.checked_mul(3).unwrap()), Some(0));
        }
        assert_eq!(o.settlement(60, 0, -400, 0).dealer, -2_147_483_646);
        // Whole deals at the bound: the row holds units × k exactly, zero-sum in i32.
        let names: Vec<&str> = DealSimulator::columns(&rules).iter().map(|c| c.name).collect();
        let col = |n: &str| names.iter().position(|&c| c == n).unwrap();
        let mut row = vec![0i32; names.len()];
        for i in 0..40 {
            rules.play_deal(Policy::Random, &mut deal_rng(5, i), &mut row).unwrap();
            let (d, e) = result_units(row[col("score")]);
            assert_eq!(row[col("dealer_result")] as i64, d * BASE_SCORE_K_MAX, "deal {i}");
            assert_eq!(row[col("each_other_result")] as i64, e * BASE_SCORE_K_MAX, "deal {i}");
            assert_ne!(row[col("dealer_result")], 0);
            let three = row[col("each_other_result")].checked_mul(3).unwrap();
            assert_eq!(row[col("dealer_result")].checked_add(three), Some(0));
        }
    }

    #[test]
    fn bad_inputs() {
        let o = HongWuOptions::default();
        assert!(o.settle_points(55, 0, 0).unwrap_err().to_string().contains("bid 55"));
        assert!(o
            .settle_points(100, -5, 0)
            .unwrap_err()
            .to_string()
            .contains("attacker_points -5"));
        assert!(o.settle_points(100, 7, 0).is_err());
        assert!(o.settle_points(100, 760, 0).is_ok() && o.settle_points(100, 765, 0).is_err());
        let ign = HongWuOptions { kitty: KittyRule::Ignored, ..Default::default() };
        assert!(ign.settle_points(100, 205, 0).unwrap_err().to_string().contains("0…200"));
        assert!(o.settle_points(100, 60, 405).is_err());
        let own = HongWuOptions { dealer_points: DealerPoints::OwnTricks, ..Default::default() };
        assert!(own.settle_points(100, 0, 0).is_err());
    }

    #[test]
    fn deal_points_outside_a_deal_are_refused() {
        let o = HongWuOptions::default();
        let ok = DealPoints {
            xianjia_tricks: 120,
            dealer_tricks: 0,
            kitty: 80,
            xianjia_won_last: true,
            last_multiplier: 8,
            red5_captured: 2,
        };
        assert_eq!(o.settle_deal(60, &ok).unwrap().attacker_points, 760);
        let bad = |p: DealPoints, what: &str| {
            let e = o.settle_deal(60, &p).unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
        };
        // The tester's report: a 200-point kitty (8 cards hold at most 80).
        bad(DealPoints { xianjia_tricks: 0, kitty: 200, dealer_tricks: 0, ..ok }, "kitty 200");
        bad(DealPoints { xianjia_tricks: 3, dealer_tricks: 117, ..ok }, "xianjia_tricks 3");
        bad(DealPoints { dealer_tricks: 5, ..ok }, "= 205");
        bad(DealPoints { last_multiplier: 3, ..ok }, "last_multiplier 3");
        bad(DealPoints { last_multiplier: 1, ..ok }, "last_multiplier 1");
        bad(DealPoints { red5_captured: 3, ..ok }, "red5_captured 3");
        bad(DealPoints { xianjia_tricks: -5, dealer_tricks: 125, ..ok }, "xianjia_tricks -5");
    }

    #[test]
    fn checked_units_refuse_scores_no_deal_gives() {
        assert_eq!(checked_result_units(-30).unwrap(), (-6, 2));
        assert!(checked_result_units(3).unwrap_err().to_string().contains("score 3"));
        assert!(checked_result_units(1 << 40).is_err());
    }

    #[test]
    fn level_table_of_the_seed() {
        // Rows 1–19 follow 15·(2ⁿ − 1); row 20 is the seed's 15728640 unless the option says so.
        for n in 1..=19usize {
            assert_eq!(LEVELS[n - 1].1, 15 * ((1i64 << n) - 1), "row {n}");
        }
        assert_eq!(LEVELS[0], ("钟灵", 15));
        assert_eq!(LEVELS[19], ("王语嫣", 15_728_640));
        assert_eq!(level_threshold(20, LEVEL20_SEED).unwrap(), 15_728_640);
        assert_eq!(level_threshold(20, LEVEL20_FORMULA).unwrap(), 15 * ((1i64 << 20) - 1));
        assert!(
            level_threshold(0, LEVEL20_SEED).is_err() && level_threshold(21, LEVEL20_SEED).is_err()
        );
    }

    proptest! {
        /// Zero-sum, monotone in S, and |dealer| ∈ {3, 6, 9}.
        #[test]
        fn table_properties(s in -400i32..400) {
            let (d, e) = result_units(s);
            prop_assert_eq!(d + 3 * e, 0);
            prop_assert!([3, 6, 9].contains(&d.abs()));
            prop_assert!(result_units(s + 5).0 >= d);
            prop_assert_eq!(d > 0, s >= 0);
        }
    }
}
