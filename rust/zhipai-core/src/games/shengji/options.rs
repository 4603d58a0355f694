//! Shengji play options: order and adjacency, decomposition, throws, following, trick winner and
//! kitty multiplier (shengji.md §10), with the preset values of shared/rules/README.md.
//!
//! Values are stored as the game-neutral enums of [`crate::trick`] (plus the Shengji-only kitty
//! and penalty options) and mapped to a [`TrickRules`] per deal by [`PlayOptions::trick_rules`].

use super::kitty::{KittyBasis, KittyMultiplier};
use crate::cards::{Rank, Suit};
use crate::error::Result;
use crate::options::{choice_name, choice_names, parse_choice, OptionInfo, OptionValue};
use crate::order::{CardOrder, TrumpTierTractors};
use crate::trick::{
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
    /// 10/20/40/60 per card by the beating shape (TH).
    Structured,
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
                doc: "penalty for a failed throw (shengji.md §4.5)",
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
        let order =
            CardOrder::shengji(level, trump, self.level_gap_bridging, self.trump_tier_tractors);
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
