//! Every Shengji-family option, declared once (shengji.md §10, presets of shared/rules/README.md):
//! play (order and adjacency, decomposition, throws, following, trick winner, kitty multiplier),
//! declaring and dealer selection, level tables and scoring. Each entry of the three
//! [`game_options!`] tables below is the whole declaration of one option: its name (= the field
//! name), type, default per preset and deck count, domain (choices or range) and listed doc.
//!
//! The option enums of declaring and scoring live here too (re-exported by [`super::declare`] and
//! [`super::scoring`]); the game-neutral trick enums come from [`crate::tricks`], and
//! [`PlayOptions::trick_rules`] maps the play options onto a [`TrickRules`] per deal.
//!
//! `decks` is declared apart ([`decks_domain`]) because it is read first: it decides other
//! defaults, and its choices depend on the preset.

use super::kitty::{KittyBasis, KittyMultiplier};
use crate::cards::{Card, Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::options::{game_options, Choice, Domain, Literal, Numbers, OptionValue, Range, FLAG};
use crate::tricks::combos::{Format, Unit};
use crate::tricks::lead::is_beaten;
use crate::tricks::order::{CardOrder, TrumpTierTractors, TRUMP};
use crate::tricks::{
    Decomposition, ForcedPlay, HolderArrangement, ShapeMatch, ShapeObligation, ThrowCheck,
    ThrowCompare, ThrowFollow, ThrowScope, TrickRules,
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
            .filter(|(i, _)| !(tr.throw_check_scope == ThrowScope::OpponentsOnly && *i == 1))
            .any(|(_, h)| is_beaten(tr, u, h))
    };
    // No penalty rule (the default), or no throw: nothing to check (a throw check per lead
    // was ≈ 1.6 % of a random deal's instructions).
    if rule == ThrowPenalty::None || !format.is_throw() {
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

// ---- option enums of declaring (§2) and scoring (§8) ----

/// What happens when nobody declares (§2.2 `no_declaration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoDeclaration {
    /// The hand is played no-trump (无将; S001 "本副牌打无将", CT, ASK). Default.
    NoTrump,
    /// A suit drawn at random is trump (BZ `random_pick_major`).
    RandomSuit,
    /// Kitty cards are turned over in order until a level card appears; its suit is trump (GR;
    /// RB `KittyBidPolicy`). A joker or a kitty without level cards leaves the hand no-trump.
    FlipKitty,
}

/// Who deals hand 1 when somebody declared (§2.3 `first_hand_dealer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstHandDealer {
    /// The player of the final (winning) declaration (S004, BZ, RB, CT). Default.
    FinalDeclarer,
    /// The player who declared first (RB `ByFirstBid`).
    FirstDeclarer,
}

/// Who deals hand 1 when nobody declared (§2.3 `no_declaration_dealer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoDeclarationDealer {
    /// A random player (S001 "系统随机指定农户"). Default.
    Random,
    /// The player who drew the first card (CT).
    FirstDrawer,
}

/// Who deals the next hand (§2.3 `next_dealer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextDealer {
    /// The next player counter-clockwise from the dealer on the team that deals next: the
    /// dealer's partner when the dealer team held, the dealer's right-hand neighbour when the
    /// attackers took over (RB, CT §H, 3DM, FLP). Default.
    CcwWithinWinningTeam,
    /// The dealer keeps the deal when the dealer team holds (no source; for completeness).
    SameDealerIfHold,
}

/// Which cards the dealer may bury (§2.4 `kitty_bury_restrictions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KittyBuryRestrictions {
    /// Any cards, points and trumps included (S001, S004, CT, RB). Default.
    None,
    /// No point cards (5, 10, K) unless the hand holds nothing else to bury.
    NoPoints,
    /// No trumps unless the hand holds nothing else to bury.
    NoTrumps,
}

/// What happens after A (§8.5 `after_A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterA {
    /// Holding as dealer at A wins the match (RB rules, CT). Default.
    MatchEnds,
    /// One more joker-only level after A, which must also be defended (RB `MaxRank = NoTrump`).
    NoTrumpLevel,
    /// Holding at A continues from 2 (3DM "直接循环到2").
    CycleTo2,
}

/// §8.1 two-deck table choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TwoDeckTable {
    StandardStep40,
    Lianzhong,
}

/// §8.3 one-deck table choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OneDeckTable {
    Lianzhong,
    ScaledStep20,
}

/// §8.4 reading of JJ 小分 in the dealer-win bands (Q1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JjSmallScore {
    /// 小分 = (band top − P)/5: the score rises with P everywhere. Default.
    Monotone,
    /// 小分 = (P mod 40)/5 as in the ≥ 80 bands.
    Literal,
}

/// §8.2 three-deck table choice: one table so far (`step60`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreeDeckTable {
    Step60,
}

/// Bit of A in a mandatory-level mask: A is always must-play (§8.5; RB blocks at the max rank).
pub const ACE_GATE: u16 = 1 << 12;

// ---- choice tables: (the digest's spelling, value), the default first where it is fixed ----

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
const HOLDER: [(&str, HolderArrangement); 2] = [
    ("first_arrangement", HolderArrangement::First),
    ("every_arrangement", HolderArrangement::Every),
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
const NO_DECLARATION: [(&str, NoDeclaration); 3] = [
    ("NT", NoDeclaration::NoTrump),
    ("random_suit", NoDeclaration::RandomSuit),
    ("flip_kitty", NoDeclaration::FlipKitty),
];
const FIRST_HAND_DEALER: [(&str, FirstHandDealer); 2] = [
    ("final_declarer", FirstHandDealer::FinalDeclarer),
    ("first_declarer", FirstHandDealer::FirstDeclarer),
];
const NO_DECLARATION_DEALER: [(&str, NoDeclarationDealer); 2] =
    [("random", NoDeclarationDealer::Random), ("first_drawer", NoDeclarationDealer::FirstDrawer)];
const NEXT_DEALER: [(&str, NextDealer); 2] = [
    ("ccw_within_winning_team", NextDealer::CcwWithinWinningTeam),
    ("same_dealer_if_hold", NextDealer::SameDealerIfHold),
];
const KITTY_BURY: [(&str, KittyBuryRestrictions); 3] = [
    ("none", KittyBuryRestrictions::None),
    ("no_points", KittyBuryRestrictions::NoPoints),
    ("no_trumps", KittyBuryRestrictions::NoTrumps),
];

/// Options of declaring, overcalling, seating, dealer selection and the kitty exchange
/// (shengji.md §1.1, §2.2–§2.4, §10).
const AFTER_A: [(&str, AfterA); 3] = [
    ("match_ends", AfterA::MatchEnds),
    ("no_trump_level", AfterA::NoTrumpLevel),
    ("cycle_to_2", AfterA::CycleTo2),
];
const TWO_DECK: [(&str, TwoDeckTable); 2] =
    [("standard_step40", TwoDeckTable::StandardStep40), ("lianzhong", TwoDeckTable::Lianzhong)];
const ONE_DECK: [(&str, OneDeckTable); 2] =
    [("lianzhong", OneDeckTable::Lianzhong), ("scaled_step20", OneDeckTable::ScaledStep20)];
const JJ_SMALL: [(&str, JjSmallScore); 2] =
    [("monotone", JjSmallScore::Monotone), ("literal", JjSmallScore::Literal)];
const JACK: [(&str, bool); 2] = [("off", false), ("single_J", true)];

const THREE_DECK: [(&str, ThreeDeckTable); 1] = [("step60", ThreeDeckTable::Step60)];

// ---- integer and special domains ----

const DECKS: [(&str, u8); 3] = [("1", 1), ("2", 2), ("3", 3)];
const JJ_DECKS: [(&str, u8); 1] = [("2", 2)];

/// The domain of option `decks` (shengji.md §1) in `preset`: 1, 2 or 3 decks; `tractor_jj` is
/// played with 2 (seed 001).
pub fn decks_domain(preset: &str) -> Numbers<u8> {
    if preset == "tractor_jj" {
        Numbers::new(&JJ_DECKS).because("tractor_jj is played with 2 decks")
    } else {
        Numbers::new(&DECKS)
    }
}

/// The listed doc of option `decks`.
pub const DECKS_DOC: &str = "number of decks (shengji.md §1)";

/// `base` (JJ 基数, §8.4): a stake, 1 to 10^6. No result column scales with it (`jj_score` is in
/// units of 基数); a hand's 积分 = 计分 × 基数 is an `i64` (`Match.jj_totals`,
/// `shengji_jj_score`) and |计分| < 2^31, so one hand stays below 2^51 and a match's totals
/// cannot overflow.
pub const BASE: Range<i64> = Range::new(1, 1_000_000);

/// `level_cap` (§8.1): `none` (no cap), or the most levels one hand gives, 1 to 12 (a team
/// cannot rise more than 12 levels: 2 → A).
#[derive(Clone, Copy, Debug)]
pub struct LevelCap;

const CAP: Range<u8> = Range::new(1, 12);

impl Domain for LevelCap {
    type Value = Option<u8>;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<Option<u8>> {
        match value {
            OptionValue::Str(t) | OptionValue::Text(t) if t.trim().eq_ignore_ascii_case("none") => {
                Ok(None)
            }
            _ => CAP.parse(name, value).map(Some).map_err(|_| {
                let not = match value {
                    OptionValue::Bool(_) | OptionValue::List(_) => {
                        format!(", not {}", value.kind())
                    }
                    _ => String::new(),
                };
                ZhipaiError::invalid_option(
                    name,
                    value,
                    format!("expected none or {}{not}", CAP.describe()),
                )
            }),
        }
    }

    fn text(&self, value: &Option<u8>) -> String {
        value.map_or("none".into(), |c| c.to_string())
    }

    fn choices(&self) -> Vec<&'static str> {
        vec!["none", "3"]
    }

    fn literal(&self, value: &Option<u8>) -> Literal {
        if value.is_some() {
            Literal::Int
        } else {
            Literal::Str
        }
    }
}

/// `mandatory_levels` (§8.5): a set of ranks as a bit mask (bit r = rank index r), A always in
/// it. Takes text `{5,10,K,A}` / `5,10,K,A` / `5 10 K A`, or a list of ranks.
#[derive(Clone, Copy, Debug)]
pub struct RankSet;

impl Domain for RankSet {
    type Value = u16;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<u16> {
        let text = match value {
            OptionValue::Str(t) | OptionValue::Text(t) => t.clone(),
            OptionValue::List(items) => items.join(","),
            _ => {
                return Err(ZhipaiError::invalid_option(
                    name,
                    value,
                    format!("expected a set of ranks like {{5,10,K,A}}, not {}", value.kind()),
                ))
            }
        };
        let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
        let mut mask = ACE_GATE;
        for tok in inner.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
            let rank = Rank::parse(tok).ok_or_else(|| {
                ZhipaiError::invalid_option(
                    name,
                    value,
                    format!("{tok:?} is not a rank (2-10, J, Q, K, A)"),
                )
            })?;
            mask |= 1 << rank.index();
        }
        Ok(mask)
    }

    fn text(&self, mask: &u16) -> String {
        let ranks: Vec<String> = (0..13u8)
            .filter(|r| mask & (1 << r) != 0)
            .map(|r| Rank::from_index(r).expect("0..13").to_string())
            .collect();
        format!("{{{}}}", ranks.join(","))
    }

    fn choices(&self) -> Vec<&'static str> {
        vec!["{A}", "{5,10,K,A}", "{2,5,10,K,A}", "{3,5,10,J,K,A}"]
    }

    fn literal(&self, _: &u16) -> Literal {
        Literal::Str
    }
}

// ---- the declarations ----

game_options! {
    /// Options of play (shengji.md §4–§7, §10).
    #[derive(Clone, Debug, PartialEq)]
    pub struct PlayOptions for (preset: &str, decks: u8)
    options {
        pub level_gap_bridging: bool = true, in FLAG,
            "neighbours of the level rank are adjacent for tractors (shengji.md §4.2)";
        pub trump_tier_tractors: TrumpTierTractors = TrumpTierTractors::Full,
            in Choice::new(&TIERS), "which trump tiers chain into tractors (shengji.md §4.2)";
        pub trump_throw_allowed: bool = true, in FLAG,
            "a throw may be led in trumps (shengji.md §4.3)";
        pub throw_check_scope: ThrowScope = ThrowScope::AllOthers, in Choice::new(&SCOPES),
            "whose hands a throw is checked against (shengji.md §4.4)";
        pub throw_decomposition: Decomposition = Decomposition::MultiplicityFirst,
            in Choice::new(&DECOMPOSITIONS),
            "how a throw is split into units, 3 decks (shengji.md §4.3)";
        pub throw_fail_forced: ForcedPlay = match (preset, decks) {
                ("tractor_jj", _) => ForcedPlay::SmallestComponentOfThrow,
                ("eighty_points", 3) => ForcedPlay::LargestBeaten,
                _ => ForcedPlay::SmallestBeaten,
            },
            in Choice::new(&FORCED), "what a failed throw is reduced to (shengji.md §4.5)";
        pub throw_fail_penalty: ThrowPenalty = ThrowPenalty::None, in Choice::new(&PENALTIES),
            "penalty for a failed throw; structured = TH 10/20/40/60 per card (§4.5)";
        pub partial_tractor_follow: bool = true, in FLAG,
            "a shorter tractor must be included when following a tractor (shengji.md §5)";
        pub longer_tuples_protected: bool = false, in FLAG,
            "triples need not be broken to follow pairs (shengji.md §5, 3 decks)";
        pub longer_tuple_stands_in: bool = true, in FLAG,
            "with longer_tuples_protected: a triple played whole may count as a throw's pair while \
             a real pair stays in hand; false = RB: only where the lead asks for a triple (§5 F2 \
             is silent)";
        pub follow_throw_structure: ThrowFollow = ThrowFollow::ComponentGreedy,
            in Choice::new(&THROW_FOLLOW), "how a throw lead is followed (shengji.md §5 F2)";
        pub throw_compare: ThrowCompare = ThrowCompare::LargestComponent,
            in Choice::new(&COMPARE), "how several ruffs of a throw are compared (shengji.md §6.6)";
        pub all_components_holder: HolderArrangement = HolderArrangement::First,
            in Choice::new(&HOLDER),
            "throw_compare=all_components: which reading of the winner a challenger's reading must \
             beat unit by unit (first = its largest unit placed highest; every = every reading at \
             once; §6.6 is silent)";
        pub kitty_multiplier: KittyMultiplier = match preset {
                "tractor_jj" => KittyMultiplier::JjPairsPlusOne,
                "eighty_points" => KittyMultiplier::Lianzhong,
                _ => KittyMultiplier::TwiceLargestUnit,
            },
            in Choice::new(&KITTY),
            "kitty multiplier when the attackers win the last trick (shengji.md §7.2)";
        pub kitty_multiplier_basis: KittyBasis = if preset == "eighty_points" {
                KittyBasis::WinningPlay
            } else {
                KittyBasis::LeadFormat
            },
            in Choice::new(&BASIS),
            "read the multiplier from the lead format or the winning play (shengji.md §7.2)";
    }
}

game_options! {
    /// Options of declaring, overcalling, seating, dealer selection and the kitty exchange
    /// (shengji.md §1.1, §2.2–§2.4, §10).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct DeclareOptions for (preset: &str, decks: u8)
    with {
        /// Number of decks (set by the rule set; decides the ladder).
        pub(super) decks: u8 = decks,
    }
    options {
        /// Read by [`super::session::Match`], which then keeps levels per player. A single deal
        /// (and the simulator's hand 1) is unaffected: its seats are already random.
        pub random_partners_each_hand: bool = preset == "tractor_jj", in FLAG,
            "a match re-draws seats every hand; levels kept per player (JJ; shengji.md §1.1)";
        pub no_declaration: NoDeclaration = NoDeclaration::NoTrump,
            in Choice::new(&NO_DECLARATION), "trump when nobody declares (shengji.md §2.2)";
        pub first_hand_dealer: FirstHandDealer = FirstHandDealer::FinalDeclarer,
            in Choice::new(&FIRST_HAND_DEALER),
            "hand-1 dealer when somebody declared (shengji.md §2.3)";
        pub no_declaration_dealer: NoDeclarationDealer = NoDeclarationDealer::Random,
            in Choice::new(&NO_DECLARATION_DEALER),
            "hand-1 dealer when nobody declared (shengji.md §2.3)";
        pub partner_may_overcall: bool = true, in FLAG,
            "the winning declarer's partner may overcall (shengji.md §2.2)";
        pub self_reinforce_same_suit: bool = true, in FLAG,
            "the winning declarer may reinforce (加固) with the same card (shengji.md §2.2)";
        pub self_overcall_other_suit: bool = false, in FLAG,
            "the winning declarer may overcall himself with another suit or NT (§2.2)";
        pub suit_ranked_bids: bool = false, in FLAG,
            "equal-count level bids rank C < D < S < H (RB JokerOrHigherSuit; §2.2)";
        pub chaodi: bool = false, in FLAG,
            "炒底: overcall after the burial and take the kitty in turn (shengji.md §2.2)";
        pub kitty_bury_restrictions: KittyBuryRestrictions = KittyBuryRestrictions::None,
            in Choice::new(&KITTY_BURY), "cards the dealer may not bury (shengji.md §2.4)";
        pub next_dealer: NextDealer = NextDealer::CcwWithinWinningTeam,
            in Choice::new(&NEXT_DEALER), "who deals the next hand (shengji.md §2.3)";
    }
}

game_options! {
    /// Options of level tables, JJ 积分, mandatory levels and the end of the match (§8, §10).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[allow(non_snake_case)] // `after_A`: the option's name
    pub struct ScoringOptions for (preset: &str, decks: u8)
    with {
        /// Number of decks (set by the rule set; picks the level table).
        pub(super) decks: u8 = decks,
    }
    options {
        pub two_deck_table: TwoDeckTable = if preset == "eighty_points" {
                TwoDeckTable::Lianzhong
            } else {
                TwoDeckTable::StandardStep40
            },
            in Choice::new(&TWO_DECK), "2-deck level table (shengji.md §8.1)";
        pub three_deck_table: ThreeDeckTable = ThreeDeckTable::Step60, in Choice::new(&THREE_DECK),
            "3-deck level table, 上下台 step 60 (shengji.md §8.2)";
        pub one_deck_table: OneDeckTable = OneDeckTable::Lianzhong, in Choice::new(&ONE_DECK),
            "1-deck level table (shengji.md §8.3)";
        /// `None` = no cap (RB's UI caps at 3).
        pub level_cap: Option<u8> = None, in LevelCap,
            "most levels one hand gives (shengji.md §8.1)";
        /// Bit r set = rank index r is a mandatory level (必打); A (bit 12) always set.
        pub mandatory_levels: u16 = ACE_GATE, in RankSet,
            "must-play levels (必打) a rise stops on; A always (shengji.md §8.5)";
        pub after_A: AfterA = AfterA::MatchEnds, in Choice::new(&AFTER_A),
            "what holding as dealer at A does (shengji.md §8.5)";
        /// `single_J` = 勾J (RB `BackToTwoSetting::SingleJack`).
        pub jack_back_to_two: bool = false, in Choice::new(&JACK),
            "勾J: last trick won by attackers with a single J at level J (shengji.md §8.5)";
        /// JJ 积分 (S001) on: 2 decks only ([`ScoringOptions::check`]).
        pub jj_scoring: bool = preset == "tractor_jj", in FLAG,
            "JJ 积分 match score (S001; shengji.md §8.4)";
        pub jj_small_score: JjSmallScore = JjSmallScore::Monotone, in Choice::new(&JJ_SMALL),
            "JJ 小分 in the dealer-win bands (shengji.md §8.4, Q1)";
        pub base: i64 = 1, in BASE, "JJ 基数, the stake per 计分 unit, 1 to 10^6 (shengji.md §8.4)";
    }
}

impl ScoringOptions {
    /// The constraints between options: `jj_scoring` is defined for 2 decks only (S001).
    pub fn check(&self) -> Result<()> {
        if self.jj_scoring && self.decks != 2 {
            return Err(ZhipaiError::invalid_option(
                "jj_scoring",
                true,
                format!("JJ 积分 (S001) is defined for 2 decks, not {}", self.decks),
            ));
        }
        Ok(())
    }
}

impl PlayOptions {
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
            throw_decomposition: self.throw_decomposition,
            trump_throw_allowed: self.trump_throw_allowed,
            throw_check_scope: self.throw_check_scope,
            throw_check: ThrowCheck::Component,
            throw_fail_forced: self.throw_fail_forced,
            follow_shape_obligation: ShapeObligation::Standard,
            partial_tractor_follow: self.partial_tractor_follow,
            longer_tuples_protected: self.longer_tuples_protected,
            longer_tuple_stands_in: self.longer_tuple_stands_in,
            follow_throw_structure: self.follow_throw_structure,
            throw_compare: self.throw_compare,
            all_components_holder: self.all_components_holder,
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
    use super::super::ShengjiRules;
    use super::*;

    #[test]
    fn presets_differ_as_documented() {
        let t = PlayOptions::defaults("tractor", 2);
        assert_eq!(t.kitty_multiplier, KittyMultiplier::TwiceLargestUnit);
        let jj = PlayOptions::defaults("tractor_jj", 2);
        assert_eq!(jj.throw_fail_forced, ForcedPlay::SmallestComponentOfThrow);
        let e2 = PlayOptions::defaults("eighty_points", 2);
        assert_eq!(e2.throw_fail_forced, ForcedPlay::SmallestBeaten);
        assert_eq!(e2.kitty_multiplier_basis, KittyBasis::WinningPlay);
        let e3 = PlayOptions::defaults("eighty_points", 3);
        assert_eq!(e3.throw_fail_forced, ForcedPlay::LargestBeaten);
    }

    /// Penalty of throw `cards` against `others` at level 2, trump spades, `decks` decks.
    fn penalty(rule: ThrowPenalty, decks: u8, cards: &str, others: [&str; 3]) -> i32 {
        let tr = PlayOptions::defaults("tractor", decks).trick_rules(
            decks,
            Rank::TWO,
            Some(Suit::Spades),
        );
        let f = crate::tricks::combos::decompose(
            &cards.parse().unwrap(),
            &tr.order,
            tr.throw_decomposition,
        )
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
        let mut o = PlayOptions::defaults("tractor", 2);
        o.throw_check_scope = ThrowScope::OpponentsOnly;
        let tr = o.trick_rules(2, Rank::TWO, Some(Suit::Spades));
        let f = crate::tricks::combos::decompose(
            &"QH QH JH".parse().unwrap(),
            &tr.order,
            tr.throw_decomposition,
        )
        .unwrap();
        let others = ["", "KH KH", ""].map(|h| h.parse::<Multiset>().unwrap());
        assert_eq!(throw_penalty(Structured, &tr, &f, &others), 0);
    }

    #[test]
    fn set_parses_and_rejects() {
        let mut o = PlayOptions::defaults("tractor", 2);
        assert!(o.set("throw_compare", &OptionValue::Str("all_components".into())).unwrap());
        assert_eq!(o.throw_compare, ThrowCompare::AllComponents);
        assert!(!o.set("no_such_option", &OptionValue::Bool(true)).unwrap());
        let err = o.set("throw_compare", &OptionValue::Str("best".into())).unwrap_err();
        assert!(err.to_string().contains("best"), "{err}");
        for info in o.infos() {
            assert!(info.choices.contains(&info.value.as_str()), "{}", info.name);
            let mut p = o.clone();
            assert!(p.set(info.name, &OptionValue::Text(info.value.clone())).unwrap());
            assert_eq!(p, o, "{} round-trips", info.name);
        }
    }

    fn rules(preset: &str, overrides: &[(&str, OptionValue)]) -> Result<ShengjiRules> {
        let o: Vec<_> = overrides.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        ShengjiRules::from_preset(preset, &o)
    }

    /// Every preset and deck count: the listed value of every option, given back as text, builds
    /// the same rules; every listed choice is taken and listed back as itself.
    #[test]
    fn every_listed_value_parses_back_to_the_same_rules() {
        for (preset, decks) in [
            ("tractor", 1),
            ("tractor", 2),
            ("tractor", 3),
            ("tractor_jj", 2),
            ("eighty_points", 1),
            ("eighty_points", 2),
            ("eighty_points", 3),
        ] {
            let base = rules(preset, &[("decks", OptionValue::Int(decks))]).unwrap();
            let infos = base.option_infos();
            let names: Vec<_> = infos.iter().map(|i| i.name).collect();
            assert_eq!(names, ShengjiRules::option_names());
            let all: Vec<_> =
                infos.iter().map(|i| (i.name, OptionValue::Text(i.value.clone()))).collect();
            assert_eq!(rules(preset, &all).unwrap(), base, "{preset} {decks}: all at once");
            for info in &infos {
                let one = [
                    ("decks", OptionValue::Int(decks)),
                    (info.name, OptionValue::Text(info.value.clone())),
                ];
                assert_eq!(rules(preset, &one).unwrap(), base, "{preset} {decks} {}", info.name);
                for choice in &info.choices {
                    let one = [
                        ("decks", OptionValue::Int(decks)),
                        (info.name, OptionValue::Text(choice.to_string())),
                    ];
                    let Ok(r) = rules(preset, &one) else {
                        // The only listed value refused: JJ 积分 outside 2 decks.
                        assert_eq!((info.name, *choice, decks == 2), ("jj_scoring", "true", false));
                        continue;
                    };
                    let back = r.option_infos().into_iter().find(|i| i.name == info.name);
                    assert_eq!(back.unwrap().value, *choice, "{preset} {decks} {}", info.name);
                }
            }
        }
    }

    /// The per-preset and per-deck-count defaults of shared/rules/README.md, "Presets".
    #[test]
    fn preset_defaults() {
        let get = |preset: &str, decks: i64| {
            rules(preset, &[("decks", OptionValue::Int(decks))])
                .unwrap()
                .option_infos()
                .into_iter()
                .map(|i| (i.name, i.value))
                .collect::<std::collections::HashMap<_, _>>()
        };
        let t = get("tractor", 2);
        let jj = get("tractor_jj", 2);
        let e2 = get("eighty_points", 2);
        let e3 = get("eighty_points", 3);
        let differ = |a: &std::collections::HashMap<&str, String>| {
            let mut d: Vec<_> =
                a.iter().filter(|(k, v)| t[*k] != **v).map(|(k, v)| format!("{k}={v}")).collect();
            d.sort();
            d
        };
        assert_eq!(
            differ(&jj),
            [
                "jj_scoring=true",
                "kitty_multiplier=jj_pairs_plus_one",
                "random_partners_each_hand=true",
                "throw_fail_forced=smallest_component_of_throw"
            ]
        );
        assert_eq!(
            differ(&e2),
            [
                "kitty_multiplier=lianzhong",
                "kitty_multiplier_basis=winning_play",
                "two_deck_table=lianzhong"
            ]
        );
        assert_eq!(differ(&e3).len(), 5, "{:?}", differ(&e3));
        assert_eq!(e3["throw_fail_forced"], "largest_beaten");
        assert_eq!(get("tractor", 3)["throw_fail_forced"], "smallest_beaten");
    }

    #[test]
    fn values_are_checked_not_coerced() {
        let err = |o: &[(&str, OptionValue)]| rules("tractor", o).unwrap_err().to_string();
        let s = |v: &str| OptionValue::Str(v.into());
        let t = |v: &str| OptionValue::Text(v.into());
        // Bools: a bool, or the text true/false; never "yes", "on", 1 or a str.
        assert!(rules("tractor", &[("chaodi", t("True"))]).unwrap().declare.chaodi);
        for v in [s("yes"), s("true"), t("yes"), t("on"), t("1"), OptionValue::Int(1)] {
            let e = err(&[("chaodi", v.clone())]);
            assert!(e.starts_with(&format!("invalid option chaodi={v}: expected")), "{e}");
        }
        // Integers: an int (or decimal text) in the declared range.
        for (name, v, reason) in [
            ("base", OptionValue::Int(0), "expected an integer from 1 to 1000000"),
            ("base", OptionValue::Int(1_000_001), "expected an integer from 1 to 1000000"),
            ("base", OptionValue::BigInt("9223372036854775808".into()), "from 1 to 1000000"),
            ("base", s("1"), "not a str"),
            ("base", OptionValue::List(vec!["1".into()]), "not a list"),
            ("level_cap", OptionValue::Int(13), "expected none or an integer from 1 to 12"),
            ("level_cap", s("3"), "expected none or an integer from 1 to 12"),
            ("decks", OptionValue::Int(4), "expected one of 1, 2, 3"),
            ("decks", s("3"), "not a str"),
            ("mandatory_levels", OptionValue::Int(5), "expected a set of ranks"),
        ] {
            let e = err(&[(name, v.clone())]);
            assert!(e.starts_with(&format!("invalid option {name}={v}: ")), "{e}");
            assert!(e.contains(reason), "{e}");
        }
        let jj = rules("tractor_jj", &[("decks", OptionValue::Int(3))]).unwrap_err().to_string();
        assert_eq!(
            jj,
            "invalid option decks=3: expected one of 2 (tractor_jj is played with 2 decks)"
        );
        let r = rules("tractor", &[("level_cap", OptionValue::Int(3)), ("base", t("7"))]).unwrap();
        assert_eq!((r.scoring.level_cap, r.scoring.base), (Some(3), 7));
        let r = rules(
            "tractor",
            &[("mandatory_levels", OptionValue::List(vec!["5".into(), "K".into()]))],
        )
        .unwrap();
        assert_eq!(RankSet.text(&r.scoring.mandatory_levels), "{5,K,A}");
        let e = err(&[("no_such", OptionValue::Int(1))]);
        assert!(e.starts_with("invalid option no_such=1: tractor has no such option; known options: decks, level_gap_bridging"), "{e}");
    }
}
