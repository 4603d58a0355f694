//! Gongzhu options: every entry of the options list of `shared/rules/gongzhu.md`, defaults first,
//! values spelled as in the digest (ASCII aliases such as `25*M` or `-1000` are accepted too).

use crate::cards::{Card, Rank, Suit};
use crate::error::Result;
use crate::options::{
    apply_overrides, find_override, game_options, Choice, Domain, Numbers, OptionInfo, OptionValue,
    FLAG,
};

/// Who leads the first trick of a deal (gongzhu.md §A.8, option `first_lead_card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLead {
    /// In the first deal of a match the holder of this card leads it (♣2 by default); later
    /// deals are led by the previous deal's pig-taker, who leads any card.
    Card(Card),
    /// The starting seat rotates each deal (`MrIfOffline`), no forced card.
    Rotate,
}

/// Playing direction (§A.2): the seat after seat `s` is `s + 1` (anticlockwise) or `s - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Anticlockwise,
    Clockwise,
}

/// Exposure 亮牌/卖 (§A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExposureMode {
    /// QQ: an exposed card doubles its effect (factor 2 per exposed copy).
    Qq,
    /// No exposure phase.
    None,
    /// sdawzy: a closed declaration doubles (factor 2), an open one quadruples (factor 4) and is
    /// the only kind that restricts play.
    ClosedOpen,
}

/// May an exposed card be discarded on another suit before its suit's first round (§A.7)?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExposedDiscard {
    Allowed,
    Forbidden,
}

/// 全红, all hearts (§A.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllRedMode {
    /// The hearts score +200 (per deck) instead of −200, doubled per exposed ♥A copy.
    Flip,
    /// +200 added to the −200: net 0.
    Bonus,
    /// No all-hearts rule.
    Off,
}

/// 全收, grand slam (§A.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrandSlamMode {
    /// Fixed 800 per deck, doubled once per exposure (per exposed copy).
    Fixed800Doubling,
    /// (hearts +200·hf + pig +100·pf + sheep +100·sf) × M.
    Formula,
    /// No slam rule: the ordinary scoring applies.
    None,
}

/// Per-deal result from raw scores (§A.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalize {
    /// `mult · trunc((4r − S)/3)` (QQ; the seed's −3516).
    QqTruncThenX12,
    /// `mult · round((4r − S)/3)`, halves away from zero.
    RoundThenX12,
    /// `4 · (4r − S)` = 12·(4r − S)/3 exactly: integral and zero-sum (ignores the multiplier).
    Exact,
    /// `mult · floor((4r − S)/3)` (contradicted by the seed; for completeness).
    FloorThenX12,
    /// The raw scores themselves.
    None,
}

/// Two-deck transformer multiplier table (§A.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformerTable {
    /// M = 2^h · 2^e (h = ♣10s taken, e = exposed ♣10 copies).
    Power,
    /// The seed's literal table: M = 2^(h + min(e, h)) (h=1, e=2 gives ×4).
    SeedLiteral,
}

/// Score of a ♣10 taken with no other scoring card (§A.5(a), §A.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformerAlone {
    /// 25 · M (50/100 in one deck).
    TwentyFiveM,
    /// 50 per ♣10 taken, doubled per exposed ♣10 copy (DoubleHearts).
    FiftyEach,
}

/// Who leads the next two-deck deal when the two pigs went to two players (§A.12 \[OPEN\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextLeader {
    FirstPigTaker,
    LastPigTaker,
}

/// When a match ends (§A.11 "Match end", not in the seed); compared with accumulated results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Never: the caller decides how many deals to play.
    None,
    /// When some seat's total is ≤ −1000.
    MinusThousand,
    /// When some seat's total is ≤ −1000 or ≥ +1000 (team play).
    PlusMinusThousand,
}

const DECKS: [(&str, u8); 2] = [("1", 1), ("2", 2)];
const MULTIPLIERS: [(&str, u8); 2] = [("1", 1), ("12", 12)];
const FIRST_LEAD: [(&str, FirstLead); 4] = [
    ("C2", FirstLead::Card(Card::new(Suit::Clubs, Rank::TWO))),
    ("S2", FirstLead::Card(Card::new(Suit::Spades, Rank::TWO))),
    ("S7", FirstLead::Card(Card::new(Suit::Spades, Rank::SEVEN))),
    ("rotate", FirstLead::Rotate),
];
const FIRST_LEAD_ALIASES: [(&str, FirstLead); 3] = [
    ("2C", FirstLead::Card(Card::new(Suit::Clubs, Rank::TWO))),
    ("2S", FirstLead::Card(Card::new(Suit::Spades, Rank::TWO))),
    ("7S", FirstLead::Card(Card::new(Suit::Spades, Rank::SEVEN))),
];
const DIRECTION: [(&str, Direction); 2] =
    [("anticlockwise", Direction::Anticlockwise), ("clockwise", Direction::Clockwise)];
const EXPOSURE: [(&str, ExposureMode); 3] = [
    ("qq", ExposureMode::Qq),
    ("none", ExposureMode::None),
    ("closed_open", ExposureMode::ClosedOpen),
];
const DISCARD: [(&str, ExposedDiscard); 2] =
    [("allowed", ExposedDiscard::Allowed), ("forbidden", ExposedDiscard::Forbidden)];
const ALL_RED: [(&str, AllRedMode); 3] =
    [("flip", AllRedMode::Flip), ("bonus", AllRedMode::Bonus), ("off", AllRedMode::Off)];
const SLAM: [(&str, GrandSlamMode); 3] = [
    ("fixed_800_doubling", GrandSlamMode::Fixed800Doubling),
    ("formula", GrandSlamMode::Formula),
    ("none", GrandSlamMode::None),
];
const NORMALIZE: [(&str, Normalize); 5] = [
    ("qq_trunc_then_x12", Normalize::QqTruncThenX12),
    ("round_then_x12", Normalize::RoundThenX12),
    ("exact", Normalize::Exact),
    ("floor_then_x12", Normalize::FloorThenX12),
    ("none", Normalize::None),
];
const TABLE: [(&str, TransformerTable); 2] =
    [("2^h·2^e", TransformerTable::Power), ("seed_literal", TransformerTable::SeedLiteral)];
const TABLE_ALIASES: [(&str, TransformerTable); 1] = [("2^h*2^e", TransformerTable::Power)];
const ALONE: [(&str, TransformerAlone); 2] =
    [("25·M", TransformerAlone::TwentyFiveM), ("50 per ♣10", TransformerAlone::FiftyEach)];
const ALONE_ALIASES: [(&str, TransformerAlone); 2] =
    [("25*M", TransformerAlone::TwentyFiveM), ("50_per_10C", TransformerAlone::FiftyEach)];
const NEXT: [(&str, NextLeader); 2] =
    [("first_pig_taker", NextLeader::FirstPigTaker), ("last_pig_taker", NextLeader::LastPigTaker)];
const MATCH_END: [(&str, MatchEnd); 3] = [
    ("none", MatchEnd::None),
    ("−1000", MatchEnd::MinusThousand),
    ("±1000", MatchEnd::PlusMinusThousand),
];
const MATCH_END_ALIASES: [(&str, MatchEnd); 2] =
    [("-1000", MatchEnd::MinusThousand), ("+-1000", MatchEnd::PlusMinusThousand)];

game_options! {
    /// The validated options of one Gongzhu rule set (shared/rules/gongzhu.md, "Configuration
    /// options"), in the digest's order. Defaults are the digest's first values; the deck count
    /// (read first) decides `auto_expose_fourth`'s.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct GongzhuRules for (decks: u8)
    options {
        /// 1 (52 cards, 13 tricks) or 2 (拱双猪, 104 cards).
        pub decks: u8 = decks, in Numbers::new(&DECKS),
            "1 deck (52 cards) or 2 decks (拱双猪, 104 cards) (§A.1, §A.12)";
        pub partnership: bool = false, in FLAG,
            "对家: seats 0+2 vs 1+3, each credited the team result (§A.13)";
        pub first_lead_card: FirstLead = FirstLead::Card(Card::new(Suit::Clubs, Rank::TWO)),
            in Choice::with_aliases(&FIRST_LEAD, &FIRST_LEAD_ALIASES),
            "first deal: the holder of this card leads it; later deals the pig-taker leads (§A.8)";
        pub direction: Direction = Direction::Anticlockwise, in Choice::new(&DIRECTION),
            "playing direction (§A.2)";
        pub exposure_mode: ExposureMode = ExposureMode::Qq, in Choice::new(&EXPOSURE),
            "亮牌/卖 exposure of ♠Q ♦J ♣10 ♥A (§A.6)";
        /// QQ exposure: when 3 of the 4 exposable cards are exposed the 4th is too (§A.6); read
        /// it through [`GongzhuRules::auto_expose_fourth`].
        pub auto_expose_fourth: bool = decks == 1, in FLAG,
            "3 of 4 exposed exposes the 4th (§A.6); default on in one deck, off in two (§A.12)";
        pub exposed_discard_before_first_round: ExposedDiscard = ExposedDiscard::Allowed,
            in Choice::new(&DISCARD),
            "may an exposed card be discarded before its suit's first round (§A.7)";
        pub all_red_mode: AllRedMode = AllRedMode::Flip, in Choice::new(&ALL_RED),
            "全红 all hearts (§A.9)";
        pub pig_flips_with_all_hearts: bool = false, in FLAG,
            "all hearts also makes the pig positive (pagat, §A.9)";
        pub grand_slam_mode: GrandSlamMode = GrandSlamMode::Fixed800Doubling,
            in Choice::new(&SLAM), "全收 grand slam (§A.10)";
        pub normalize: Normalize = Normalize::QqTruncThenX12, in Choice::new(&NORMALIZE),
            "per-deal result from raw scores (§A.11)";
        /// One deck always uses 12 (§A.11).
        pub multiplier_two_deck: u8 = 1, in Numbers::new(&MULTIPLIERS),
            "result multiplier in two decks (§A.11)";
        pub diamond_pairs_beat_singles: bool = true, in FLAG,
            "two decks: in ♦ a pair beats two singles (§A.12)";
        pub two_deck_transformer_table: TransformerTable = TransformerTable::Power,
            in Choice::with_aliases(&TABLE, &TABLE_ALIASES), "two-deck ♣10 multiplier (§A.12)";
        pub two_deck_transformer_alone: TransformerAlone = TransformerAlone::TwentyFiveM,
            in Choice::with_aliases(&ALONE, &ALONE_ALIASES),
            "♣10 taken with no other scoring card (§A.5, §A.12)";
        pub two_deck_next_leader: NextLeader = NextLeader::FirstPigTaker, in Choice::new(&NEXT),
            "two decks: who leads the next deal when two players took a pig (§A.12)";
        pub match_end: MatchEnd = MatchEnd::None,
            in Choice::with_aliases(&MATCH_END, &MATCH_END_ALIASES),
            "when a match ends, on accumulated results (§A.11)";
    }
}

impl Default for GongzhuRules {
    /// The `gongzhu` preset with one deck.
    fn default() -> Self {
        GongzhuRules::defaults(1)
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: &[&str] = GongzhuRules::OPTION_NAMES;

impl GongzhuRules {
    /// Build from a preset name (`gongzhu`) and overrides: `decks` first (it decides the default
    /// of `auto_expose_fourth`), then the others in order. Errors with `InvalidOption` naming an
    /// unknown option or a value the option does not take.
    pub fn from_preset(_preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let decks = match find_override(overrides, "decks") {
            Some(value) => Numbers::new(&DECKS).parse("decks", value)?,
            None => 1,
        };
        let mut r = GongzhuRules::defaults(decks);
        apply_overrides("gongzhu", OPTION_NAMES, &["decks"], overrides, |name, value| {
            r.set(name, value)
        })?;
        Ok(r)
    }

    /// The result multiplier of §A.11: 12 in one deck, `multiplier_two_deck` in two.
    pub fn multiplier(&self) -> i64 {
        if self.decks == 1 {
            12
        } else {
            self.multiplier_two_deck as i64
        }
    }

    /// Whether the 3-of-4 automatic exposure applies (§A.6, §A.12): the option's value, whose
    /// default is on in one deck and off in two.
    pub fn auto_expose_fourth(&self) -> bool {
        self.auto_expose_fourth
    }

    /// The seat that plays after `seat` (§A.2 direction).
    pub fn next_seat(&self, seat: usize) -> usize {
        match self.direction {
            Direction::Anticlockwise => (seat + 1) % 4,
            Direction::Clockwise => (seat + 3) % 4,
        }
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        self.infos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(o: &[(&str, OptionValue)]) -> Result<GongzhuRules> {
        let o: Vec<_> = o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        GongzhuRules::from_preset("gongzhu", &o)
    }

    /// Both deck counts: every listed value, given back as text, builds the same rules; every
    /// listed choice is taken and listed back as itself.
    #[test]
    fn every_listed_value_parses_back_to_the_same_rules() {
        for decks in [1, 2] {
            let base = rules(&[("decks", OptionValue::Int(decks))]).unwrap();
            let infos = base.option_infos();
            assert_eq!(infos.iter().map(|i| i.name).collect::<Vec<_>>(), OPTION_NAMES);
            let all: Vec<_> =
                infos.iter().map(|i| (i.name, OptionValue::Text(i.value.clone()))).collect();
            assert_eq!(rules(&all).unwrap(), base, "{decks} decks: all at once");
            for info in &infos {
                let text = |v: &str| OptionValue::Text(v.to_string());
                let one = [("decks", OptionValue::Int(decks)), (info.name, text(&info.value))];
                assert_eq!(rules(&one).unwrap(), base, "{decks} {}", info.name);
                for choice in &info.choices {
                    let one = [("decks", OptionValue::Int(decks)), (info.name, text(choice))];
                    let r = rules(&one).unwrap();
                    let back = r.option_infos().into_iter().find(|i| i.name == info.name);
                    assert_eq!(back.unwrap().value, *choice, "{decks} {}", info.name);
                }
            }
        }
    }

    #[test]
    fn deck_count_decides_defaults_and_values_are_checked() {
        assert!(rules(&[]).unwrap().auto_expose_fourth);
        assert!(!rules(&[("decks", OptionValue::Int(2))]).unwrap().auto_expose_fourth);
        let t = |v: &str| OptionValue::Text(v.into());
        let s = |v: &str| OptionValue::Str(v.into());
        // Aliases and letter case of the digest's spellings.
        let r = rules(&[("match_end", s("+-1000")), ("first_lead_card", s("7s"))]).unwrap();
        assert_eq!(r.match_end, MatchEnd::PlusMinusThousand);
        assert_eq!(r.first_lead_card, FirstLead::Card(Card::new(Suit::Spades, Rank::SEVEN)));
        assert_eq!(rules(&[("multiplier_two_deck", t("12"))]).unwrap().multiplier_two_deck, 12);
        for (name, v, reason) in [
            ("decks", OptionValue::Int(3), "expected one of 1, 2"),
            ("decks", s("2"), "(an int, not a str)"),
            ("multiplier_two_deck", OptionValue::Int(2), "expected one of 1, 12"),
            ("partnership", s("yes"), "expected a bool"),
            ("partnership", t("on"), "expected true or false"),
            ("normalize", OptionValue::Int(1), "expected one of qq_trunc_then_x12"),
        ] {
            let e = rules(&[(name, v.clone())]).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid option {name}={v}: ")), "{e}");
            assert!(e.contains(reason), "{e}");
        }
    }
}
