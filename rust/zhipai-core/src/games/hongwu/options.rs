//! Hong Wu options (hongwu.md, "Configuration options"): names and values exactly as in the
//! digest, the default first.

use crate::options::{game_options, Choice, ChoiceTable, Numbers, Range};

/// An option enum with its texts as the digest spells them; the first listed is the default.
macro_rules! choice_option {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every value, the default first.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// `(option text, value)` of every value, in the order of [`Self::ALL`].
            pub const TABLE: &'static ChoiceTable<$name> = &[$(($text, $name::$var)),+];

            /// The option text of this value.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $text),+ }
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

/// The largest `base_score_k`: the result table's largest entry is 9 units (the dealer's ±9 of
/// [`super::settle::RESULT_TABLE`]), and every result column is an `i32`, so 9·k must fit:
/// k ≤ ⌊(2³¹ − 1)/9⌋ = 238 609 294. Then the largest settlement is ±2 147 483 646 (dealer) and
/// ∓715 827 882 (each 闲家), and the zero-sum check dealer + 3·each = 0 holds in `i32`.
pub const BASE_SCORE_K_MAX: i64 = i32::MAX as i64 / 9;

const FIRST_BID_DASHES: [(&str, FirstBidRange); 3] = [
    ("60–80", FirstBidRange::To80),
    ("60–75", FirstBidRange::To75),
    ("60–200", FirstBidRange::To200),
];
const LEVEL20: [(&str, i64); 2] = [("15728640", LEVEL20_SEED), ("15728625", LEVEL20_FORMULA)];

game_options! {
    /// The validated options of one Hong Wu rule set (hongwu.md, "Configuration options"), in
    /// the digest's order; one preset (`hong_wu`), so the defaults have no context.
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[allow(non_snake_case)] // `tractor_above_A`: the option's name
    pub struct HongWuOptions for ()
    options {
        pub direction: Direction = Direction::Anticlockwise, in Choice::new(Direction::TABLE),
            "order of play; seats are numbered anticlockwise (hongwu.md §B.1 [I])";
        /// The digest writes the ranges with an en dash (`60–80`); both spellings are accepted.
        pub first_bid_range: FirstBidRange = FirstBidRange::To80,
            in Choice::with_aliases(FirstBidRange::TABLE, &FIRST_BID_DASHES),
            "range of the first bid (hongwu.md §B.2 [OPEN])";
        pub other_threes: OtherThrees = OtherThrees::PlainLowest,
            in Choice::new(OtherThrees::TABLE),
            "the 3s of the two suits other than trump and its colour mate (hongwu.md §B.4 [I])";
        pub tractor_above_A: TractorAboveA = TractorAboveA::FullChain,
            in Choice::new(TractorAboveA::TABLE),
            "which trump pairs above A chain into tractors (hongwu.md §B.6 [I])";
        pub throw_check: ThrowCheck = ThrowCheck::Component, in Choice::new(ThrowCheck::TABLE),
            "how a throw is tested against the other hands (hongwu.md §B.7 [I])";
        pub failed_throw_play: FailedThrowPlay = FailedThrowPlay::LowestCard,
            in Choice::new(FailedThrowPlay::TABLE), "what a failed throw plays (hongwu.md §B.7)";
        pub throw_compare: ThrowCompare = ThrowCompare::MaxCard,
            in Choice::new(ThrowCompare::TABLE), "how same-shape plays are compared (hongwu.md §B.9)";
        pub follow_shape_obligation: FollowShapeObligation = FollowShapeObligation::Standard,
            in Choice::new(FollowShapeObligation::TABLE),
            "pair/tractor obligations when following (hongwu.md §B.8)";
        pub kitty: KittyRule = KittyRule::LastTrickMultiplied, in Choice::new(KittyRule::TABLE),
            "who gets the kitty's points (hongwu.md §B.10 [OPEN])";
        pub dealer_points: DealerPoints = DealerPoints::From200MinusX,
            in Choice::new(DealerPoints::TABLE), "the dealer's points in S (hongwu.md §B.11)";
        /// Counted in fives so that S stays a multiple of 5 (hongwu.md §B.11); at most two ♥5 are
        /// captured, so R5 ≤ 400 and S stays far inside `i32`.
        pub red5_penalty_per_card: i32 = 0,
            in Range::new(0, 200).step(5).because("S is always a multiple of 5, hongwu.md §B.11"),
            "points off S per captured ♥5, a multiple of 5 in 0…200, 0 = off (hongwu.md §B.11 [OPEN])";
        pub red5_penalty_scope: Red5PenaltyScope = Red5PenaltyScope::DealerOwned,
            in Choice::new(Red5PenaltyScope::TABLE),
            "which captured ♥5s count for the penalty (hongwu.md §B.11 [OPEN])";
        /// Results are table units × k ([`BASE_SCORE_K_MAX`] keeps them inside `i32`).
        pub base_score_k: i64 = 1,
            in Range::new(1, BASE_SCORE_K_MAX).because("9·k must fit the i32 result columns"),
            "base score k the result table multiplies, 1 to 238609294; 1 = results in units of k (hongwu.md §B.12 [OPEN])";
        /// [`LEVEL20_SEED`] (default) or [`LEVEL20_FORMULA`].
        pub level20_threshold: i64 = LEVEL20_SEED, in Numbers::new(&LEVEL20),
            "row 20 of the level table: seed value or 15·(2^20 − 1) (hongwu.md §B.12)";
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: &[&str] = HongWuOptions::OPTION_NAMES;

impl Default for HongWuOptions {
    fn default() -> Self {
        Self::defaults()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::OptionValue;

    fn s(v: &str) -> OptionValue {
        OptionValue::Str(v.into())
    }

    #[test]
    fn every_listed_value_parses_back() {
        let o = HongWuOptions::default();
        let infos = o.infos();
        assert_eq!(infos.iter().map(|i| i.name).collect::<Vec<_>>(), OPTION_NAMES);
        for info in &infos {
            // The listed value (as text) sets the same rules...
            let mut p = HongWuOptions::default();
            assert!(p.set(info.name, &OptionValue::Text(info.value.clone())).unwrap());
            assert_eq!(p, o, "{}", info.name);
            // ...and every listed choice is taken and listed back as itself.
            for choice in &info.choices {
                assert!(p.set(info.name, &OptionValue::Text(choice.to_string())).unwrap());
                let back = p.infos().into_iter().find(|i| i.name == info.name).unwrap();
                assert_eq!(back.value, *choice, "{}", info.name);
            }
        }
    }

    #[test]
    fn values_parse() {
        let mut o = HongWuOptions::default();
        o.set("first_bid_range", &s("60–200")).unwrap();
        assert_eq!(o.first_bid_range, FirstBidRange::To200);
        o.set("first_bid_range", &s("60-75")).unwrap();
        assert_eq!(o.first_bid_range, FirstBidRange::To75);
        o.set("tractor_above_A", &s("jokers_only")).unwrap();
        assert_eq!(o.tractor_above_A, TractorAboveA::JokersOnly);
        o.set("red5_penalty_per_card", &OptionValue::Int(20)).unwrap();
        assert_eq!(o.red5_penalty_per_card, 20);
        o.set("level20_threshold", &OptionValue::Int(LEVEL20_FORMULA)).unwrap();
        assert_eq!(o.level20_threshold, LEVEL20_FORMULA);
        o.set("base_score_k", &OptionValue::Int(BASE_SCORE_K_MAX)).unwrap();
        assert_eq!(o.base_score_k, 238_609_294);
        assert!(!o.set("decks", &OptionValue::Int(2)).unwrap(), "not a Hong Wu option");
    }

    #[test]
    fn bad_values_name_the_option_and_the_range() {
        let mut o = HongWuOptions::default();
        for (name, v, reason) in [
            ("kitty", s("sometimes"), "expected one of last_trick_multiplied, always_dealer"),
            ("red5_penalty_per_card", OptionValue::Int(-5), "multiple of 5 from 0 to 200"),
            ("red5_penalty_per_card", OptionValue::Int(3), "multiple of 5 from 0 to 200"),
            ("red5_penalty_per_card", OptionValue::Int(205), "multiple of 5 from 0 to 200"),
            ("level20_threshold", OptionValue::Int(15), "expected one of 15728640, 15728625"),
            ("base_score_k", OptionValue::Int(0), "expected an integer from 1 to 238609294"),
            ("base_score_k", OptionValue::Int(1 << 40), "expected an integer from 1 to 238609294"),
            ("base_score_k", OptionValue::Int(238_609_295), "from 1 to 238609294"),
            ("base_score_k", s("15"), "not a str"),
        ] {
            let e = o.set(name, &v).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid option {name}={v}: ")), "{e}");
            assert!(e.contains(reason), "{e}");
        }
        assert_eq!(o, HongWuOptions::default(), "refused values change nothing");
    }
}
