//! Shengji play options: order and adjacency, decomposition, throws, following, trick winner and
//! kitty multiplier (shengji.md §10), with the preset values of shared/rules/README.md.
//!
//! Values are stored as the game-neutral enums of [`crate::tricks`] (plus the Shengji-only kitty
//! and penalty options) and mapped to a [`TrickRules`] per deal by [`PlayOptions::trick_rules`].

use super::kitty::{KittyBasis, KittyMultiplier};
use crate::cards::{Card, Rank, Suit};
use crate::error::Result;
use crate::multiset::Multiset;
use crate::options::{choice_name, choice_names, parse_choice, OptionInfo, OptionValue};
use crate::tricks::combos::{Format, Unit};
use crate::tricks::lead::is_beaten;
use crate::tricks::order::{CardOrder, TrumpTierTractors, TRUMP};
use crate::tricks::{
    Decomposition, ForcedPlay, ShapeMatch, ShapeObligation, ThrowCheck, ThrowCompare, ThrowFollow,
    ThrowScope, TrickRules,
};

/// Penalty for a failed throw (shengji.md §4.5 `throw_fail_penalty`). Applied by the deal state
/// machine; the trick machinery only reports the failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThrowPenalty {
    /// No penalty (default; S001, S002, S004, CT, RB).
    None,
    /// 10 points per failed attempt (RB `TenPointsPerAttempt`).
    TenPerAttempt,
    /// 10 points per card returned to the hand (PG per CT; BZ).
    TenPerCardReturned,
    /// 10 × (cards of the beating shape) per beaten card: 10 per card beaten by a single, 20 by
    /// a pair, 40 by a tractor, 60 by a 3-pair tractor, "以此類推" (TH).
    Structured,
}

/// The points a failed throw costs under `rule` (shengji.md §4.5 `throw_fail_penalty`), before
/// the sign: the deal adds them to the attackers' total when the thrower is on the dealer team
/// and subtracts them when the thrower is an attacker (BZ). `format` is the whole throw, `others`
/// the other hands in playing order after the thrower (the hands
/// [`crate::tricks::check_throw`] saw).
///
/// * `none` → 0; `10_per_attempt` → 10 (RB);
/// * `10_per_card_returned` → 10 × the cards in all beaten components (PG per CT; BZ);
/// * `structured` → Σ over beaten components of c × 10·c, c = the component's cards: a beaten
///   component is beaten by a combination of its own shape, so TH's "被單牌管住則每張被管住的牌罰10分,
///   對子管住每張20分,拖拉機則每張40分,三連托每張牌60分,以此類推" is 10·c per beaten card (single 10,
///   pair 2 × 20 = 40, 2-pair tractor 4 × 40 = 160, 3-pair tractor 6 × 60 = 360; the 3-deck
///   triple 3 × 30 = 90 by the same "以此類推").
///
/// A valid throw (nothing beaten) costs 0 under every rule.
pub fn throw_penalty(
    rule: ThrowPenalty,
    tr: &TrickRules,
    format: &Format,
    others: &[Multiset],
) -> i32 {
    let beaten = |u: &Unit| {
        others
            .iter()
            .enumerate()
            .filter(|(i, _)| !(tr.throw_scope == ThrowScope::OpponentsOnly && *i == 1))
            .any(|(_, h)| is_beaten(tr, u, h))
    };
    if !format.is_throw() {
        return 0;
    }
    let beaten_units = || format.units.iter().filter(|u| beaten(u));
    if beaten_units().next().is_none() {
        return 0;
    }
    match rule {
        ThrowPenalty::None => 0,
        ThrowPenalty::TenPerAttempt => 10,
        ThrowPenalty::TenPerCardReturned => beaten_units().map(|u| 10 * u.cards() as i32).sum(),
        ThrowPenalty::Structured => {
            beaten_units().map(|u| 10 * (u.cards() * u.cards()) as i32).sum()
        }
    }
}

/// Options of play (shengji.md §10). Field docs give the option name and the digest section.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// `level_gap_bridging` (§4.2): the neighbours of the level rank are adjacent.
    pub level_gap_bridging: bool,
    /// `trump_tier_tractors` (§4.2): full / jokers_only / no_cross_tier.
    pub trump_tier_tractors: TrumpTierTractors,
    /// `trump_throw_allowed` (§4.3).
    pub trump_throw_allowed: bool,
    /// `throw_check_scope` (§4.4): all_three_others / opponents_only.
    pub throw_check_scope: ThrowScope,
    /// `throw_decomposition` (§4.3): multiplicity_first / longest_component.
    pub throw_decomposition: Decomposition,
    /// `throw_fail_forced` (§4.5).
    pub throw_fail_forced: ForcedPlay,
    /// `throw_fail_penalty` (§4.5).
    pub throw_fail_penalty: ThrowPenalty,
    /// `partial_tractor_follow` (§5 F2).
    pub partial_tractor_follow: bool,
    /// `longer_tuples_protected` (§5 F2, 3 decks).
    pub longer_tuples_protected: bool,
    /// `follow_throw_structure` (§5 F2): component_greedy / pair_count_only.
    pub follow_throw_structure: ThrowFollow,
    /// `throw_compare` (§6.6): largest_component / all_components / highest_card.
    pub throw_compare: ThrowCompare,
    /// `kitty_multiplier` (§7.2).
    pub kitty_multiplier: KittyMultiplier,
    /// `kitty_multiplier_basis` (§7.2): lead_format / winning_play.
    pub kitty_multiplier_basis: KittyBasis,
}

const TIERS: [(&str, TrumpTierTractors); 3] = [
    ("full", TrumpTierTractors::Full),
    ("jokers_only", TrumpTierTractors::JokersOnly),
    ("no_cross_tier", TrumpTierTractors::NoCrossTier),
];
const SCOPES: [(&str, ThrowScope); 2] =
    [("all_three_others", ThrowScope::AllOthers), ("opponents_only", ThrowScope::OpponentsOnly)];
const DECOMPOSITIONS: [(&str, Decomposition); 2] = [
    ("multiplicity_first", Decomposition::MultiplicityFirst),
    ("longest_component", Decomposition::LongestComponent),
];
const FORCED: [(&str, ForcedPlay); 5] = [
    ("smallest_beaten", ForcedPlay::SmallestBeaten),
    ("largest_beaten", ForcedPlay::LargestBeaten),
    ("smallest_component_of_throw", ForcedPlay::SmallestComponentOfThrow),
    ("smallest_card", ForcedPlay::SmallestCard),
    ("smallest_card_of_smallest_beaten", ForcedPlay::SmallestCardOfSmallestBeaten),
];
const PENALTIES: [(&str, ThrowPenalty); 4] = [
    ("none", ThrowPenalty::None),
    ("10_per_attempt", ThrowPenalty::TenPerAttempt),
    ("10_per_card_returned", ThrowPenalty::TenPerCardReturned),
    ("structured", ThrowPenalty::Structured),
];
const THROW_FOLLOW: [(&str, ThrowFollow); 2] = [
    ("component_greedy", ThrowFollow::ComponentGreedy),
    ("pair_count_only", ThrowFollow::PairCountOnly),
];
const COMPARE: [(&str, ThrowCompare); 3] = [
    ("largest_component", ThrowCompare::LargestComponent),
    ("all_components", ThrowCompare::AllComponents),
    ("highest_card", ThrowCompare::HighestCard),
];
const KITTY: [(&str, KittyMultiplier); 6] = [
    ("twice_largest_unit", KittyMultiplier::TwiceLargestUnit),
    ("twice_lead_cards", KittyMultiplier::TwiceLeadCards),
    ("jj_pairs_plus_one", KittyMultiplier::JjPairsPlusOne),
    ("lianzhong", KittyMultiplier::Lianzhong),
    ("power_of_two", KittyMultiplier::PowerOfTwo),
    ("shengji_plus", KittyMultiplier::ShengjiPlus),
];
const BASIS: [(&str, KittyBasis); 2] =
    [("lead_format", KittyBasis::LeadFormat), ("winning_play", KittyBasis::WinningPlay)];

impl PlayOptions {
    /// The values of `preset` with `decks` decks (shared/rules/README.md, "Presets"):
    /// `tractor` = the digest defaults; `tractor_jj` = `kitty_multiplier=jj_pairs_plus_one`,
    /// `throw_fail_forced=smallest_component_of_throw`; `eighty_points` = `kitty_multiplier=
    /// lianzhong`, `kitty_multiplier_basis=winning_play`, `throw_decomposition=multiplicity_first`,
    /// and with 3 decks `throw_fail_forced=largest_beaten`.
    pub fn for_preset(preset: &str, decks: u8) -> Self {
        let mut o = PlayOptions {
            level_gap_bridging: true,
            trump_tier_tractors: TrumpTierTractors::Full,
            trump_throw_allowed: true,
            throw_check_scope: ThrowScope::AllOthers,
            throw_decomposition: Decomposition::MultiplicityFirst,
            throw_fail_forced: ForcedPlay::SmallestBeaten,
            throw_fail_penalty: ThrowPenalty::None,
            partial_tractor_follow: true,
            longer_tuples_protected: false,
            follow_throw_structure: ThrowFollow::ComponentGreedy,
            throw_compare: ThrowCompare::LargestComponent,
            kitty_multiplier: KittyMultiplier::TwiceLargestUnit,
            kitty_multiplier_basis: KittyBasis::LeadFormat,
        };
        match preset {
            "tractor_jj" => {
                o.kitty_multiplier = KittyMultiplier::JjPairsPlusOne;
                o.throw_fail_forced = ForcedPlay::SmallestComponentOfThrow;
            }
            "eighty_points" => {
                o.kitty_multiplier = KittyMultiplier::Lianzhong;
                o.kitty_multiplier_basis = KittyBasis::WinningPlay;
                if decks == 3 {
                    o.throw_fail_forced = ForcedPlay::LargestBeaten;
                }
            }
            _ => {}
        }
        o
    }

    /// Set option `name`: `Ok(true)` when it is one of ours, `Ok(false)` when it is not,
    /// an `InvalidOption` error for a value it does not take.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> Result<bool> {
        match name {
            "level_gap_bridging" => self.level_gap_bridging = value.as_bool(name)?,
            "trump_tier_tractors" => self.trump_tier_tractors = parse_choice(&TIERS, name, value)?,
            "trump_throw_allowed" => self.trump_throw_allowed = value.as_bool(name)?,
            "throw_check_scope" => self.throw_check_scope = parse_choice(&SCOPES, name, value)?,
            "throw_decomposition" => {
                self.throw_decomposition = parse_choice(&DECOMPOSITIONS, name, value)?
            }
            "throw_fail_forced" => self.throw_fail_forced = parse_choice(&FORCED, name, value)?,
            "throw_fail_penalty" => {
                self.throw_fail_penalty = parse_choice(&PENALTIES, name, value)?
            }
            "partial_tractor_follow" => self.partial_tractor_follow = value.as_bool(name)?,
            "longer_tuples_protected" => self.longer_tuples_protected = value.as_bool(name)?,
            "follow_throw_structure" => {
                self.follow_throw_structure = parse_choice(&THROW_FOLLOW, name, value)?
            }
            "throw_compare" => self.throw_compare = parse_choice(&COMPARE, name, value)?,
            "kitty_multiplier" => self.kitty_multiplier = parse_choice(&KITTY, name, value)?,
            "kitty_multiplier_basis" => {
                self.kitty_multiplier_basis = parse_choice(&BASIS, name, value)?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Every option of this part with its current value.
    pub fn infos(&self) -> Vec<OptionInfo> {
        let bools = vec!["false", "true"];
        let b = |v: bool| v.to_string();
        vec![
            OptionInfo {
                name: "level_gap_bridging",
                value: b(self.level_gap_bridging),
                choices: bools.clone(),
                doc: "neighbours of the level rank are adjacent for tractors (shengji.md §4.2)",
            },
            OptionInfo {
                name: "trump_tier_tractors",
                value: choice_name(&TIERS, &self.trump_tier_tractors).into(),
                choices: choice_names(&TIERS),
                doc: "which trump tiers chain into tractors (shengji.md §4.2)",
            },
            OptionInfo {
                name: "trump_throw_allowed",
                value: b(self.trump_throw_allowed),
                choices: bools.clone(),
                doc: "a throw may be led in trumps (shengji.md §4.3)",
            },
            OptionInfo {
                name: "throw_check_scope",
                value: choice_name(&SCOPES, &self.throw_check_scope).into(),
                choices: choice_names(&SCOPES),
                doc: "whose hands a throw is checked against (shengji.md §4.4)",
            },
            OptionInfo {
                name: "throw_decomposition",
                value: choice_name(&DECOMPOSITIONS, &self.throw_decomposition).into(),
                choices: choice_names(&DECOMPOSITIONS),
                doc: "how a throw is split into units, 3 decks (shengji.md §4.3)",
            },
            OptionInfo {
                name: "throw_fail_forced",
                value: choice_name(&FORCED, &self.throw_fail_forced).into(),
                choices: choice_names(&FORCED),
                doc: "what a failed throw is reduced to (shengji.md §4.5)",
            },
            OptionInfo {
                name: "throw_fail_penalty",
                value: choice_name(&PENALTIES, &self.throw_fail_penalty).into(),
                choices: choice_names(&PENALTIES),
                doc: "penalty for a failed throw; structured = TH 10/20/40/60 per card (§4.5)",
            },
            OptionInfo {
                name: "partial_tractor_follow",
                value: b(self.partial_tractor_follow),
                choices: bools.clone(),
                doc: "a shorter tractor must be included when following a tractor (shengji.md §5)",
            },
            OptionInfo {
                name: "longer_tuples_protected",
                value: b(self.longer_tuples_protected),
                choices: bools,
                doc: "triples need not be broken to follow pairs (shengji.md §5, 3 decks)",
            },
            OptionInfo {
                name: "follow_throw_structure",
                value: choice_name(&THROW_FOLLOW, &self.follow_throw_structure).into(),
                choices: choice_names(&THROW_FOLLOW),
                doc: "how a throw lead is followed (shengji.md §5 F2)",
            },
            OptionInfo {
                name: "throw_compare",
                value: choice_name(&COMPARE, &self.throw_compare).into(),
                choices: choice_names(&COMPARE),
                doc: "how several ruffs of a throw are compared (shengji.md §6.6)",
            },
            OptionInfo {
                name: "kitty_multiplier",
                value: choice_name(&KITTY, &self.kitty_multiplier).into(),
                choices: choice_names(&KITTY),
                doc: "kitty multiplier when the attackers win the last trick (shengji.md §7.2)",
            },
            OptionInfo {
                name: "kitty_multiplier_basis",
                value: choice_name(&BASIS, &self.kitty_multiplier_basis).into(),
                choices: choice_names(&BASIS),
                doc:
                    "read the multiplier from the lead format or the winning play (shengji.md §7.2)",
            },
        ]
    }

    /// The trick rules of one deal with `decks` decks, level rank `level` and trump `trump`
    /// (`None` = no-trump). The 3-deck seed ladders for triple and Titanic leads (shengji.md §5
    /// F2) are built into the follow rules; they only matter with 3 decks.
    pub fn trick_rules(&self, decks: u8, level: Rank, trump: Option<Suit>) -> TrickRules {
        self.trick_rules_at(decks, Some(level), trump)
    }

    /// [`PlayOptions::trick_rules`] with an optional level rank: `None` is the joker-only level
    /// after A (`after_A = no_trump_level`, §8.5; RB `Trump::NoTrump { number: None }`): there
    /// is no level rank, so every suit is a side suit running 2…A with all 13 ranks, and the
    /// jokers alone are trump (`SJ` < `BJ`, `SJ SJ BJ BJ` a tractor). `trump` is then ignored.
    pub fn trick_rules_at(
        &self,
        decks: u8,
        level: Option<Rank>,
        trump: Option<Suit>,
    ) -> TrickRules {
        let order = match level {
            Some(level) => {
                CardOrder::shengji(level, trump, self.level_gap_bridging, self.trump_tier_tractors)
            }
            None => joker_only_order(),
        };
        TrickRules {
            order,
            decks,
            decomposition: self.throw_decomposition,
            trump_throw_allowed: self.trump_throw_allowed,
            throw_scope: self.throw_check_scope,
            throw_check: ThrowCheck::Component,
            forced_play: self.throw_fail_forced,
            shape_obligation: ShapeObligation::Standard,
            partial_tractor_follow: self.partial_tractor_follow,
            longer_tuples_protected: self.longer_tuples_protected,
            throw_follow: self.follow_throw_structure,
            throw_compare: self.throw_compare,
            shape_match: ShapeMatch::Cover,
        }
    }
}

/// The card order of the joker-only level (see [`PlayOptions::trick_rules_at`]): side suits
/// 2…A at indices 0..=12, all adjacent; trump `SJ` 0, `BJ` 1, adjacent.
fn joker_only_order() -> CardOrder {
    let mut o = CardOrder::empty();
    for suit in Suit::ALL {
        for r in 0..13u8 {
            let rank = Rank::from_index(r).expect("13 ranks");
            o.place(Card::new(suit, rank), suit.index(), r as usize);
        }
        for k in 0..12 {
            o.set_link(suit.index(), k, true);
        }
    }
    o.place(Card::SMALL_JOKER, TRUMP, 0);
    o.place(Card::BIG_JOKER, TRUMP, 1);
    o.set_link(TRUMP, 0, true);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_as_documented() {
        let t = PlayOptions::for_preset("tractor", 2);
        assert_eq!(t.kitty_multiplier, KittyMultiplier::TwiceLargestUnit);
        let jj = PlayOptions::for_preset("tractor_jj", 2);
        assert_eq!(jj.throw_fail_forced, ForcedPlay::SmallestComponentOfThrow);
        let e2 = PlayOptions::for_preset("eighty_points", 2);
        assert_eq!(e2.throw_fail_forced, ForcedPlay::SmallestBeaten);
        assert_eq!(e2.kitty_multiplier_basis, KittyBasis::WinningPlay);
        let e3 = PlayOptions::for_preset("eighty_points", 3);
        assert_eq!(e3.throw_fail_forced, ForcedPlay::LargestBeaten);
    }

    /// Penalty of throw `cards` against `others` at level 2, trump spades, `decks` decks.
    fn penalty(rule: ThrowPenalty, decks: u8, cards: &str, others: [&str; 3]) -> i32 {
        let tr = PlayOptions::for_preset("tractor", decks).trick_rules(
            decks,
            Rank::TWO,
            Some(Suit::Spades),
        );
        let f =
            crate::tricks::combos::decompose(&cards.parse().unwrap(), &tr.order, tr.decomposition)
                .unwrap();
        let others = others.map(|h| h.parse::<Multiset>().unwrap());
        throw_penalty(rule, &tr, &f, &others)
    }

    #[test]
    fn structured_penalty_by_the_beating_shape() {
        use ThrowPenalty::*;
        // TH: 10 per card beaten by a single, 20 by a pair, 40 by a tractor, 60 by a 3-pair one.
        let single = ("KH QH QH", ["AH", "", ""]); // only the single KH is beaten
        let pair = ("AH QH QH", ["KH KH", "", ""]); // only the pair
        let tractor = ("AH 3H 3H 4H 4H", ["5H 5H 6H 6H", "", ""]); // only the tractor
        let three = ("AH 3H 3H 4H 4H 5H 5H", ["6H 6H 7H 7H 8H 8H", "", ""]);
        for ((cards, others), want) in [(single, 10), (pair, 40), (tractor, 160), (three, 360)] {
            assert_eq!(penalty(Structured, 2, cards, others), want, "{cards}");
        }
        assert_eq!(penalty(TenPerCardReturned, 2, tractor.0, tractor.1), 40);
        assert_eq!(penalty(TenPerAttempt, 2, tractor.0, tractor.1), 10);
        assert_eq!(penalty(None, 2, tractor.0, tractor.1), 0);
        // Two beaten components add up: pair (2 × 20) + single (1 × 10).
        assert_eq!(penalty(Structured, 2, "QH QH JH", ["", "KH KH", ""]), 50);
        // 3 decks: a triple beaten by a triple, 3 × 30 (以此類推).
        assert_eq!(penalty(Structured, 3, "3H 3H 3H AH", ["9H 9H 9H", "", ""]), 90);
        // A valid throw costs nothing; a single unit is never a throw.
        for rule in [None, TenPerAttempt, TenPerCardReturned, Structured] {
            assert_eq!(penalty(rule, 2, "AH KH KH", ["QH QH AH", "", ""]), 0);
            assert_eq!(penalty(rule, 2, "3H 3H", ["AH AH", "", ""]), 0);
        }
        // opponents_only ignores the partner (the second of the others).
        let mut o = PlayOptions::for_preset("tractor", 2);
        o.throw_check_scope = ThrowScope::OpponentsOnly;
        let tr = o.trick_rules(2, Rank::TWO, Some(Suit::Spades));
        let f = crate::tricks::combos::decompose(
            &"QH QH JH".parse().unwrap(),
            &tr.order,
            tr.decomposition,
        )
        .unwrap();
        let others = ["", "KH KH", ""].map(|h| h.parse::<Multiset>().unwrap());
        assert_eq!(throw_penalty(Structured, &tr, &f, &others), 0);
    }

    #[test]
    fn set_parses_and_rejects() {
        let mut o = PlayOptions::for_preset("tractor", 2);
        assert!(o.set("throw_compare", &OptionValue::Str("all_components".into())).unwrap());
        assert_eq!(o.throw_compare, ThrowCompare::AllComponents);
        assert!(!o.set("no_such_option", &OptionValue::Bool(true)).unwrap());
        let err = o.set("throw_compare", &OptionValue::Str("best".into())).unwrap_err();
        assert!(err.to_string().contains("best"), "{err}");
        for info in o.infos() {
            assert!(info.choices.contains(&info.value.as_str()), "{}", info.name);
            let mut p = o.clone();
            assert!(p.set(info.name, &OptionValue::Str(info.value.clone())).unwrap());
            assert_eq!(p, o, "{} round-trips", info.name);
        }
    }
}
