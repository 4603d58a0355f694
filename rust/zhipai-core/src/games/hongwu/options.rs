//! Hong Wu options (hongwu.md, "Configuration options"): names and values exactly as in the
//! digest, the default first.

use crate::error::{Result, ZhipaiError};
use crate::options::{unknown_option, OptionInfo, OptionValue};

/// An option that takes one of a fixed list of texts; the first listed is the default.
macro_rules! choice_option {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every value, the default first.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// The option text of every value, in the order of [`Self::ALL`].
            pub const CHOICES: &'static [&'static str] = &[$($text),+];

            /// The option text of this value.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $text),+ }
            }

            /// Parse option `name`; an `InvalidOption` error lists the choices.
            pub fn parse(name: &str, value: &OptionValue) -> Result<Self> {
                let text = value.as_choice(name, Self::CHOICES)?;
                Ok(match text { $($text => $name::$var,)+ _ => unreachable!("as_choice returns a listed choice") })
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::ALL[0]
            }
        }
    };
}

choice_option! {
    /// Order of play around the table (hongwu.md §B.1 \[I\]). Seats are numbered 0 to 3
    /// anticlockwise, so anticlockwise play goes 0 → 1 → 2 → 3.
    Direction { Anticlockwise => "anticlockwise", Clockwise => "clockwise" }
}

choice_option! {
    /// Range of the first bid of an auction (hongwu.md §B.2 \[OPEN\]).
    FirstBidRange {
        /// 60…80: the +20 cap measured from the 60 floor (default).
        To80 => "60-80",
        /// 60…75: as if the previous bid were 55.
        To75 => "60-75",
        /// 60…200: unrestricted.
        To200 => "60-200",
    }
}

choice_option! {
    /// The 3s of the two suits that are neither trump nor its colour mate (hongwu.md §B.4 \[I\]).
    OtherThrees {
        /// Plain cards of their own suit, ranking lowest, below 4 (default; seed's lists).
        PlainLowest => "plain_lowest",
        /// Trumps, equal to each other, below 副参谋 and above 主2 (Lu'an 红桃5).
        TrumpBelowFuCanmou => "trump_below_fu_canmou",
    }
}

choice_option! {
    /// Which trump pairs above the trump A chain into tractors (hongwu.md §B.6 \[I\]).
    TractorAboveA {
        /// Every level of the §B.4 table chains to the next: A → 副2 → 主2 → … → ♥5 (default).
        FullChain => "full_chain",
        /// Only SJ SJ BJ BJ chains above A (the seed's one explicit example).
        JokersOnly => "jokers_only",
    }
}

choice_option! {
    /// How a throw is tested against the other hands (hongwu.md §B.7 \[I\]).
    ThrowCheck {
        /// Each unit against a higher unit of the same shape in the suit (default).
        Component => "component",
        /// Fails if anyone holds any card of the suit higher than any thrown card.
        Literal => "literal",
    }
}

choice_option! {
    /// What is played when a throw fails (hongwu.md §B.7).
    FailedThrowPlay {
        /// The lowest card of the throw, alone (seed, default).
        LowestCard => "lowest_card",
        /// The lowest beatable unit (pagat / Zhang).
        LowestBeatableComponent => "lowest_beatable_component",
    }
}

choice_option! {
    /// How same-shape plays are compared (hongwu.md §B.9).
    ThrowCompare {
        /// The higher maximum card wins (seed, default).
        MaxCard => "max_card",
        /// Compare the highest tractor, then pair, then single (Sheng Ji).
        HighestComponent => "highest_component",
    }
}

choice_option! {
    /// Shape obligations when following (hongwu.md §B.8).
    FollowShapeObligation {
        /// Pair on pair, tractor on tractor when held (Sheng Ji standard, default).
        Standard => "standard",
        /// Only the suit must be followed.
        SuitOnly => "suit_only",
    }
}

choice_option! {
    /// Who gets the kitty's points (hongwu.md §B.10 \[OPEN\]).
    KittyRule {
        /// A 闲家 winning the last trick adds them ×2 / ×4 / ×8 (single / pair / tractor) to X.
        LastTrickMultiplied => "last_trick_multiplied",
        /// Always the dealer's: never part of X.
        AlwaysDealer => "always_dealer",
        /// Nobody's: never part of X, and not the dealer's own points under
        /// `dealer_points = own_tricks` (under `200_minus_X` it acts like `always_dealer`).
        Ignored => "ignored",
        /// A 闲家 winning the last trick adds them once to X.
        LastTrickUnmultiplied => "last_trick_unmultiplied",
    }
}

choice_option! {
    /// The dealer's points in S = points − bid − R5 (hongwu.md §B.11).
    DealerPoints {
        /// 200 − X, X = the 闲家's points with the kitty (default).
        From200MinusX => "200_minus_X",
        /// The points in the dealer's own tricks (plus the kitty when it is his).
        OwnTricks => "own_tricks",
    }
}

choice_option! {
    /// Which captured ♥5s cost the dealer `red5_penalty_per_card` (hongwu.md §B.11 \[OPEN\]).
    Red5PenaltyScope {
        /// ♥5s the dealer played or buried that end with the 闲家 (default).
        DealerOwned => "dealer_owned",
        /// Every ♥5 that ends with the 闲家.
        AnyRed5WonByXianjia => "any_red5_won_by_xianjia",
    }
}

/// Row 20 of the level table as the seed prints it (hongwu.md §B.12).
pub const LEVEL20_SEED: i64 = 15_728_640;
/// Row 20 by the pattern 15·(2ⁿ − 1) of rows 1–19 (hongwu.md §B.12).
pub const LEVEL20_FORMULA: i64 = 15_728_625;

/// The validated options of one Hong Wu rule set (hongwu.md, "Configuration options").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HongWuOptions {
    pub direction: Direction,
    pub first_bid_range: FirstBidRange,
    pub other_threes: OtherThrees,
    pub tractor_above_a: TractorAboveA,
    pub throw_check: ThrowCheck,
    pub failed_throw_play: FailedThrowPlay,
    pub throw_compare: ThrowCompare,
    pub follow_shape_obligation: FollowShapeObligation,
    pub kitty: KittyRule,
    pub dealer_points: DealerPoints,
    /// Points taken off S per captured ♥5 in scope, a multiple of 5 in 0…200 (hongwu.md §B.11
    /// \[OPEN\]; 0 = off, default).
    pub red5_penalty_per_card: i32,
    pub red5_penalty_scope: Red5PenaltyScope,
    /// The base score k that the result table multiplies (hongwu.md §B.12 \[OPEN\]; default 1,
    /// so results are in units of k).
    pub base_score_k: i64,
    /// Row 20 of the level table: [`LEVEL20_SEED`] (default) or [`LEVEL20_FORMULA`].
    pub level20_threshold: i64,
}

impl Default for HongWuOptions {
    fn default() -> Self {
        HongWuOptions {
            direction: Direction::default(),
            first_bid_range: FirstBidRange::default(),
            other_threes: OtherThrees::default(),
            tractor_above_a: TractorAboveA::default(),
            throw_check: ThrowCheck::default(),
            failed_throw_play: FailedThrowPlay::default(),
            throw_compare: ThrowCompare::default(),
            follow_shape_obligation: FollowShapeObligation::default(),
            kitty: KittyRule::default(),
            dealer_points: DealerPoints::default(),
            red5_penalty_per_card: 0,
            red5_penalty_scope: Red5PenaltyScope::default(),
            base_score_k: 1,
            level20_threshold: LEVEL20_SEED,
        }
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: [&str; 14] = [
    "direction",
    "first_bid_range",
    "other_threes",
    "tractor_above_A",
    "throw_check",
    "failed_throw_play",
    "throw_compare",
    "follow_shape_obligation",
    "kitty",
    "dealer_points",
    "red5_penalty_per_card",
    "red5_penalty_scope",
    "base_score_k",
    "level20_threshold",
];

impl HongWuOptions {
    /// Set option `name` to `value`. Errors with `InvalidOption` for an unknown name (listing the
    /// known ones) or a value the option does not take.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> Result<()> {
        match name {
            "direction" => self.direction = Direction::parse(name, value)?,
            "first_bid_range" => {
                // The digest writes the ranges with an en dash; accept both spellings.
                let text = value.to_string().replace('–', "-");
                self.first_bid_range = FirstBidRange::parse(name, &OptionValue::Str(text))?;
            }
            "other_threes" => self.other_threes = OtherThrees::parse(name, value)?,
            "tractor_above_A" => self.tractor_above_a = TractorAboveA::parse(name, value)?,
            "throw_check" => self.throw_check = ThrowCheck::parse(name, value)?,
            "failed_throw_play" => self.failed_throw_play = FailedThrowPlay::parse(name, value)?,
            "throw_compare" => self.throw_compare = ThrowCompare::parse(name, value)?,
            "follow_shape_obligation" => {
                self.follow_shape_obligation = FollowShapeObligation::parse(name, value)?
            }
            "kitty" => self.kitty = KittyRule::parse(name, value)?,
            "dealer_points" => self.dealer_points = DealerPoints::parse(name, value)?,
            "red5_penalty_per_card" => {
                let v = value.as_int(name)?;
                // S must stay a multiple of 5 (hongwu.md §B.11), so R5 is counted in fives.
                if !(0..=200).contains(&v) || v % 5 != 0 {
                    return Err(ZhipaiError::invalid_option(
                        name,
                        value,
                        "expected a multiple of 5 in 0…200 points (S is always a multiple of 5, \
                         hongwu.md §B.11)",
                    ));
                }
                self.red5_penalty_per_card = v as i32;
            }
            "red5_penalty_scope" => self.red5_penalty_scope = Red5PenaltyScope::parse(name, value)?,
            "base_score_k" => {
                let v = value.as_int(name)?;
                if !(1..=1 << 40).contains(&v) {
                    return Err(ZhipaiError::invalid_option(name, value, "expected 1..=2^40"));
                }
                self.base_score_k = v;
            }
            "level20_threshold" => {
                let v = value.as_int(name)?;
                if v != LEVEL20_SEED && v != LEVEL20_FORMULA {
                    return Err(ZhipaiError::invalid_option(
                        name,
                        value,
                        format!("expected {LEVEL20_SEED} (seed) or {LEVEL20_FORMULA} (formula)"),
                    ));
                }
                self.level20_threshold = v;
            }
            _ => return Err(unknown_option("hong_wu", name, value, &OPTION_NAMES)),
        }
        Ok(())
    }

    /// Every option with its current value, in the digest's order.
    pub fn infos(&self) -> Vec<OptionInfo> {
        fn info(
            name: &'static str,
            value: String,
            choices: &[&'static str],
            doc: &'static str,
        ) -> OptionInfo {
            OptionInfo { name, value, choices: choices.to_vec(), doc }
        }
        vec![
            info(
                "direction",
                self.direction.as_str().into(),
                Direction::CHOICES,
                "order of play; seats are numbered anticlockwise (hongwu.md §B.1 [I])",
            ),
            info(
                "first_bid_range",
                self.first_bid_range.as_str().into(),
                FirstBidRange::CHOICES,
                "range of the first bid (hongwu.md §B.2 [OPEN])",
            ),
            info(
                "other_threes",
                self.other_threes.as_str().into(),
                OtherThrees::CHOICES,
                "the 3s of the two suits other than trump and its colour mate (hongwu.md §B.4 [I])",
            ),
            info(
                "tractor_above_A",
                self.tractor_above_a.as_str().into(),
                TractorAboveA::CHOICES,
                "which trump pairs above A chain into tractors (hongwu.md §B.6 [I])",
            ),
            info(
                "throw_check",
                self.throw_check.as_str().into(),
                ThrowCheck::CHOICES,
                "how a throw is tested against the other hands (hongwu.md §B.7 [I])",
            ),
            info(
                "failed_throw_play",
                self.failed_throw_play.as_str().into(),
                FailedThrowPlay::CHOICES,
                "what a failed throw plays (hongwu.md §B.7)",
            ),
            info(
                "throw_compare",
                self.throw_compare.as_str().into(),
                ThrowCompare::CHOICES,
                "how same-shape plays are compared (hongwu.md §B.9)",
            ),
            info(
                "follow_shape_obligation",
                self.follow_shape_obligation.as_str().into(),
                FollowShapeObligation::CHOICES,
                "pair/tractor obligations when following (hongwu.md §B.8)",
            ),
            info(
                "kitty",
                self.kitty.as_str().into(),
                KittyRule::CHOICES,
                "who gets the kitty's points (hongwu.md §B.10 [OPEN])",
            ),
            info(
                "dealer_points",
                self.dealer_points.as_str().into(),
                DealerPoints::CHOICES,
                "the dealer's points in S (hongwu.md §B.11)",
            ),
            info(
                "red5_penalty_per_card",
                self.red5_penalty_per_card.to_string(),
                &[],
                "points off S per captured ♥5, a multiple of 5 in 0…200, 0 = off (hongwu.md §B.11 [OPEN])",
            ),
            info(
                "red5_penalty_scope",
                self.red5_penalty_scope.as_str().into(),
                Red5PenaltyScope::CHOICES,
                "which captured ♥5s count for the penalty (hongwu.md §B.11 [OPEN])",
            ),
            info(
                "base_score_k",
                self.base_score_k.to_string(),
                &[],
                "base score k the result table multiplies; 1 = results in units of k (hongwu.md §B.12 [OPEN])",
            ),
            info(
                "level20_threshold",
                self.level20_threshold.to_string(),
                &["15728640", "15728625"],
                "row 20 of the level table: seed value or 15·(2^20 − 1) (hongwu.md §B.12)",
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> OptionValue {
        OptionValue::Str(v.into())
    }

    #[test]
    fn every_option_is_listed_and_settable() {
        let o = HongWuOptions::default();
        let infos = o.infos();
        assert_eq!(infos.iter().map(|i| i.name).collect::<Vec<_>>(), OPTION_NAMES);
        // Setting each option to its listed value round-trips.
        for info in &infos {
            let mut p = HongWuOptions::default();
            p.set(info.name, &s(&info.value)).unwrap();
            assert_eq!(p, o, "{}", info.name);
        }
    }

    #[test]
    fn values_parse() {
        let mut o = HongWuOptions::default();
        o.set("first_bid_range", &s("60–200")).unwrap();
        assert_eq!(o.first_bid_range, FirstBidRange::To200);
        o.set("tractor_above_A", &s("jokers_only")).unwrap();
        assert_eq!(o.tractor_above_a, TractorAboveA::JokersOnly);
        o.set("red5_penalty_per_card", &OptionValue::Int(20)).unwrap();
        assert_eq!(o.red5_penalty_per_card, 20);
        o.set("level20_threshold", &OptionValue::Int(LEVEL20_FORMULA)).unwrap();
        assert_eq!(o.level20_threshold, LEVEL20_FORMULA);
    }

    #[test]
    fn bad_values_name_the_option() {
        let mut o = HongWuOptions::default();
        for (name, v) in [
            ("kitty", s("sometimes")),
            ("red5_penalty_per_card", OptionValue::Int(-5)),
            ("red5_penalty_per_card", OptionValue::Int(3)),
            ("red5_penalty_per_card", OptionValue::Int(205)),
            ("level20_threshold", OptionValue::Int(15)),
            ("base_score_k", OptionValue::Int(0)),
            ("decks", OptionValue::Int(2)),
        ] {
            let e = o.set(name, &v).unwrap_err().to_string();
            assert!(e.contains(name) && e.contains(&v.to_string()), "{e}");
        }
    }
}
