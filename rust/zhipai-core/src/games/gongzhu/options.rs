//! Gongzhu options: every entry of the options list of `shared/rules/gongzhu.md`, defaults first,
//! values spelled as in the digest (ASCII aliases such as `25*M` or `-1000` are accepted too).

use crate::cards::{Card, Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::options::{unknown_option, OptionInfo, OptionValue};

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

/// Who leads the next two-deck deal when the two pigs went to two players (§A.12 [OPEN]).
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

/// The validated options of one Gongzhu rule set (shared/rules/gongzhu.md, "Configuration
/// options"). Defaults are the digest's first values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GongzhuRules {
    /// 1 (52 cards, 13 tricks) or 2 (拱双猪, 104 cards).
    pub decks: u8,
    /// 对家: seats 0+2 against 1+3, each credited the team result (§A.13).
    pub partnership: bool,
    pub first_lead_card: FirstLead,
    pub direction: Direction,
    pub exposure_mode: ExposureMode,
    /// QQ exposure: when 3 of the 4 exposable cards are exposed the 4th is too (§A.6). `None`
    /// (option not given) = the digest default: on in one deck, off in two (§A.12 "default
    /// off for two decks"); `Some(b)` = set explicitly, in either deck count. Read it through
    /// [`GongzhuRules::auto_expose_fourth`].
    pub auto_expose_fourth: Option<bool>,
    pub exposed_discard_before_first_round: ExposedDiscard,
    pub all_red_mode: AllRedMode,
    pub pig_flips_with_all_hearts: bool,
    pub grand_slam_mode: GrandSlamMode,
    pub normalize: Normalize,
    /// Result multiplier in two decks (1 or 12); one deck always uses 12 (§A.11).
    pub multiplier_two_deck: u8,
    pub diamond_pairs_beat_singles: bool,
    pub two_deck_transformer_table: TransformerTable,
    pub two_deck_transformer_alone: TransformerAlone,
    pub two_deck_next_leader: NextLeader,
    pub match_end: MatchEnd,
}

impl Default for GongzhuRules {
    fn default() -> Self {
        GongzhuRules {
            decks: 1,
            partnership: false,
            first_lead_card: FirstLead::Card(Card::new(Suit::Clubs, Rank::TWO)),
            direction: Direction::Anticlockwise,
            exposure_mode: ExposureMode::Qq,
            auto_expose_fourth: None,
            exposed_discard_before_first_round: ExposedDiscard::Allowed,
            all_red_mode: AllRedMode::Flip,
            pig_flips_with_all_hearts: false,
            grand_slam_mode: GrandSlamMode::Fixed800Doubling,
            normalize: Normalize::QqTruncThenX12,
            multiplier_two_deck: 1,
            diamond_pairs_beat_singles: true,
            two_deck_transformer_table: TransformerTable::Power,
            two_deck_transformer_alone: TransformerAlone::TwentyFiveM,
            two_deck_next_leader: NextLeader::FirstPigTaker,
            match_end: MatchEnd::None,
        }
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: [&str; 17] = [
    "decks",
    "partnership",
    "first_lead_card",
    "direction",
    "exposure_mode",
    "auto_expose_fourth",
    "exposed_discard_before_first_round",
    "all_red_mode",
    "pig_flips_with_all_hearts",
    "grand_slam_mode",
    "normalize",
    "multiplier_two_deck",
    "diamond_pairs_beat_singles",
    "two_deck_transformer_table",
    "two_deck_transformer_alone",
    "two_deck_next_leader",
    "match_end",
];

/// Match `value` against `choices` (the digest spellings) and their ASCII `aliases`
/// (`aliases[i]` belongs to `choices[i]`; empty = none). Returns the index.
fn pick(name: &str, value: &OptionValue, choices: &[&str], aliases: &[&str]) -> Result<usize> {
    let text = value.to_string();
    let t = text.trim();
    choices
        .iter()
        .position(|c| c.eq_ignore_ascii_case(t))
        .or_else(|| aliases.iter().position(|a| !a.is_empty() && a.eq_ignore_ascii_case(t)))
        .ok_or_else(|| {
            ZhipaiError::invalid_option(
                name,
                value,
                format!("expected one of {}", choices.join(", ")),
            )
        })
}

const FIRST_LEAD: [&str; 4] = ["C2", "S2", "S7", "rotate"];
const DIRECTION: [&str; 2] = ["anticlockwise", "clockwise"];
const EXPOSURE: [&str; 3] = ["qq", "none", "closed_open"];
const DISCARD: [&str; 2] = ["allowed", "forbidden"];
const ALL_RED: [&str; 3] = ["flip", "bonus", "off"];
const SLAM: [&str; 3] = ["fixed_800_doubling", "formula", "none"];
const NORMALIZE: [&str; 5] =
    ["qq_trunc_then_x12", "round_then_x12", "exact", "floor_then_x12", "none"];
const TABLE: [&str; 2] = ["2^h·2^e", "seed_literal"];
const ALONE: [&str; 2] = ["25·M", "50 per ♣10"];
const NEXT: [&str; 2] = ["first_pig_taker", "last_pig_taker"];
const MATCH_END: [&str; 3] = ["none", "−1000", "±1000"];
const BOOL: [&str; 2] = ["true", "false"];

impl GongzhuRules {
    /// Build from a preset name (`gongzhu`) and overrides. Errors with `InvalidOption` naming an
    /// unknown option or a value the option does not take.
    pub fn from_preset(_preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let mut r = GongzhuRules::default();
        for (name, value) in overrides {
            r.set(name, value)?;
        }
        Ok(r)
    }

    /// Set one option by name.
    pub fn set(&mut self, name: &str, v: &OptionValue) -> Result<()> {
        match name {
            "decks" => {
                self.decks = match v.as_int(name)? {
                    1 => 1,
                    2 => 2,
                    _ => return Err(ZhipaiError::invalid_option(name, v, "expected 1 or 2")),
                }
            }
            "partnership" => self.partnership = v.as_bool(name)?,
            "first_lead_card" => {
                self.first_lead_card = match pick(name, v, &FIRST_LEAD, &["2C", "2S", "7S", ""])? {
                    0 => FirstLead::Card(Card::new(Suit::Clubs, Rank::TWO)),
                    1 => FirstLead::Card(Card::new(Suit::Spades, Rank::TWO)),
                    2 => FirstLead::Card(Card::new(Suit::Spades, Rank::from_index(5).unwrap())),
                    _ => FirstLead::Rotate,
                }
            }
            "direction" => {
                self.direction = [Direction::Anticlockwise, Direction::Clockwise]
                    [pick(name, v, &DIRECTION, &[])?]
            }
            "exposure_mode" => {
                self.exposure_mode =
                    [ExposureMode::Qq, ExposureMode::None, ExposureMode::ClosedOpen]
                        [pick(name, v, &EXPOSURE, &[])?]
            }
            "auto_expose_fourth" => self.auto_expose_fourth = Some(v.as_bool(name)?),
            "exposed_discard_before_first_round" => {
                self.exposed_discard_before_first_round =
                    [ExposedDiscard::Allowed, ExposedDiscard::Forbidden]
                        [pick(name, v, &DISCARD, &[])?]
            }
            "all_red_mode" => {
                self.all_red_mode = [AllRedMode::Flip, AllRedMode::Bonus, AllRedMode::Off]
                    [pick(name, v, &ALL_RED, &[])?]
            }
            "pig_flips_with_all_hearts" => self.pig_flips_with_all_hearts = v.as_bool(name)?,
            "grand_slam_mode" => {
                self.grand_slam_mode =
                    [GrandSlamMode::Fixed800Doubling, GrandSlamMode::Formula, GrandSlamMode::None]
                        [pick(name, v, &SLAM, &[])?]
            }
            "normalize" => {
                self.normalize = [
                    Normalize::QqTruncThenX12,
                    Normalize::RoundThenX12,
                    Normalize::Exact,
                    Normalize::FloorThenX12,
                    Normalize::None,
                ][pick(name, v, &NORMALIZE, &[])?]
            }
            "multiplier_two_deck" => {
                self.multiplier_two_deck = match v.as_int(name)? {
                    1 => 1,
                    12 => 12,
                    _ => return Err(ZhipaiError::invalid_option(name, v, "expected 1 or 12")),
                }
            }
            "diamond_pairs_beat_singles" => self.diamond_pairs_beat_singles = v.as_bool(name)?,
            "two_deck_transformer_table" => {
                self.two_deck_transformer_table =
                    [TransformerTable::Power, TransformerTable::SeedLiteral]
                        [pick(name, v, &TABLE, &["2^h*2^e", ""])?]
            }
            "two_deck_transformer_alone" => {
                self.two_deck_transformer_alone =
                    [TransformerAlone::TwentyFiveM, TransformerAlone::FiftyEach]
                        [pick(name, v, &ALONE, &["25*M", "50_per_10C"])?]
            }
            "two_deck_next_leader" => {
                self.two_deck_next_leader = [NextLeader::FirstPigTaker, NextLeader::LastPigTaker]
                    [pick(name, v, &NEXT, &[])?]
            }
            "match_end" => {
                self.match_end =
                    [MatchEnd::None, MatchEnd::MinusThousand, MatchEnd::PlusMinusThousand]
                        [pick(name, v, &MATCH_END, &["", "-1000", "+-1000"])?]
            }
            _ => return Err(unknown_option("gongzhu", name, v, &OPTION_NAMES)),
        }
        Ok(())
    }

    /// The result multiplier of §A.11: 12 in one deck, `multiplier_two_deck` in two.
    pub fn multiplier(&self) -> i64 {
        if self.decks == 1 {
            12
        } else {
            self.multiplier_two_deck as i64
        }
    }

    /// Whether the 3-of-4 automatic exposure applies (§A.6, §A.12): the explicit option value,
    /// else on in one deck and off in two.
    pub fn auto_expose_fourth(&self) -> bool {
        self.auto_expose_fourth.unwrap_or(self.decks == 1)
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
        let b = |x: bool| if x { "true" } else { "false" };
        let first = match self.first_lead_card {
            FirstLead::Rotate => "rotate".to_string(),
            FirstLead::Card(c) => format!(
                "{}{}",
                c.suit().map_or('?', |s| s.letter()),
                c.rank().map_or("?", |r| r.symbol())
            ),
        };
        let info = |name, value: String, choices: &[&'static str], doc| OptionInfo {
            name,
            value,
            choices: choices.to_vec(),
            doc,
        };
        vec![
            info("decks", self.decks.to_string(), &["1", "2"], "1 deck (52 cards) or 2 decks (拱双猪, 104 cards) (§A.1, §A.12)"),
            info("partnership", b(self.partnership).into(), &BOOL, "对家: seats 0+2 vs 1+3, each credited the team result (§A.13)"),
            info("first_lead_card", first, &FIRST_LEAD, "first deal: the holder of this card leads it; later deals the pig-taker leads (§A.8)"),
            info("direction", DIRECTION[self.direction as usize].into(), &DIRECTION, "playing direction (§A.2)"),
            info("exposure_mode", EXPOSURE[self.exposure_mode as usize].into(), &EXPOSURE, "亮牌/卖 exposure of ♠Q ♦J ♣10 ♥A (§A.6)"),
            info("auto_expose_fourth", b(self.auto_expose_fourth()).into(), &BOOL, "3 of 4 exposed exposes the 4th (§A.6); default on in one deck, off in two (§A.12)"),
            info("exposed_discard_before_first_round", DISCARD[self.exposed_discard_before_first_round as usize].into(), &DISCARD, "may an exposed card be discarded before its suit's first round (§A.7)"),
            info("all_red_mode", ALL_RED[self.all_red_mode as usize].into(), &ALL_RED, "全红 all hearts (§A.9)"),
            info("pig_flips_with_all_hearts", b(self.pig_flips_with_all_hearts).into(), &BOOL, "all hearts also makes the pig positive (pagat, §A.9)"),
            info("grand_slam_mode", SLAM[self.grand_slam_mode as usize].into(), &SLAM, "全收 grand slam (§A.10)"),
            info("normalize", NORMALIZE[self.normalize as usize].into(), &NORMALIZE, "per-deal result from raw scores (§A.11)"),
            info("multiplier_two_deck", self.multiplier_two_deck.to_string(), &["1", "12"], "result multiplier in two decks (§A.11)"),
            info("diamond_pairs_beat_singles", b(self.diamond_pairs_beat_singles).into(), &BOOL, "two decks: in ♦ a pair beats two singles (§A.12)"),
            info("two_deck_transformer_table", TABLE[self.two_deck_transformer_table as usize].into(), &TABLE, "two-deck ♣10 multiplier (§A.12)"),
            info("two_deck_transformer_alone", ALONE[self.two_deck_transformer_alone as usize].into(), &ALONE, "♣10 taken with no other scoring card (§A.5, §A.12)"),
            info("two_deck_next_leader", NEXT[self.two_deck_next_leader as usize].into(), &NEXT, "two decks: who leads the next deal when two players took a pig (§A.12)"),
            info("match_end", MATCH_END[self.match_end as usize].into(), &MATCH_END, "when a match ends, on accumulated results (§A.11)"),
        ]
    }
}
