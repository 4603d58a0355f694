//! The options of Qingdao Baohuang (baohuang.md, "Configuration options"; defaults first).

use crate::error::{Result, ZhipaiError};
use crate::options::{unknown_option, OptionInfo, OptionValue};

/// Which deck is used (baohuang.md §C.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    /// 4 full decks with jokers, 3s included: 216 cards (seed 003).
    Full216,
    /// pagat's Rizhao deck: 3s, 4s and 5s removed, 168 cards.
    Rizhao168,
}

/// Who receives the card beyond an even split (baohuang.md §C.1 [I]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraCardTo {
    /// The player dealt the first card (a random seat) gets one card more.
    FirstDealtSeat,
    /// The scepter BJ is dealt last, to a random player.
    ScepterLast,
}

/// Where the guard card (the 4th copy of the 登基 card) ranks in play (baohuang.md §C.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardCardRank {
    /// Its face rank, like any other card.
    Face,
    /// Above the big joker (保子 / 保镖牌 variants).
    AboveBigJoker,
}

/// Who may apply for 接风 on a finisher's 底牌 (baohuang.md §C.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JiefengApplicant {
    /// Only the finisher's next active player.
    NextPlayerOnly,
    /// Any active player, the first to apply in the first circle.
    Any,
}

/// The validated options of one Baohuang rule set. `Default` is the `baohuang` preset (seed 003
/// with the digest's defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaohuangRules {
    /// `deck` = 216 | 168 (§C.1).
    pub deck: Deck,
    /// `extra_card_to` = first_dealt_seat | scepter_last (§C.1).
    pub extra_card_to: ExtraCardTo,
    /// `scepter_counts_for_dengji` = true | false (§C.3.1): the scepter BJ counts toward 3 BJ.
    pub scepter_counts_for_dengji: bool,
    /// `abdication_moves_card` = true | false (§C.3.2): 让位 and 抢独 move the physical scepter BJ.
    pub abdication_moves_card: bool,
    /// `guard_card_rank` = face | above_big_joker (§C.2).
    pub guard_card_rank: GuardCardRank,
    /// `bombs` = off | on (§C.5): 4+ naturals of one rank without jokers beat any play of fewer cards.
    pub bombs: bool,
    /// `pass_is_final_for_round` = false | true (§C.6).
    pub pass_is_final_for_round: bool,
    /// `jiefeng_applicant` = next_player_only | any (§C.7).
    pub jiefeng_applicant: JiefengApplicant,
    /// `solo_loss_literal_minus40` = false | true (§C.10).
    pub solo_loss_literal_minus40: bool,
    /// `tribute_between_deals` = off | on (§C.9 Alt; [OPEN]): every deal opens with 进贡 from the
    /// previous deal's places (`State::apply_tribute`; seat order unless given, `State::new_after`).
    pub tribute_between_deals: bool,
}

impl Default for BaohuangRules {
    fn default() -> Self {
        BaohuangRules {
            deck: Deck::Full216,
            extra_card_to: ExtraCardTo::FirstDealtSeat,
            scepter_counts_for_dengji: true,
            abdication_moves_card: true,
            guard_card_rank: GuardCardRank::Face,
            bombs: false,
            pass_is_final_for_round: false,
            jiefeng_applicant: JiefengApplicant::NextPlayerOnly,
            solo_loss_literal_minus40: false,
            tribute_between_deals: false,
        }
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: [&str; 11] = [
    "deck",
    "extra_card_to",
    "scepter_counts_for_dengji",
    "abdication_moves_card",
    "grab_priority",
    "guard_card_rank",
    "bombs",
    "pass_is_final_for_round",
    "jiefeng_applicant",
    "solo_loss_literal_minus40",
    "tribute_between_deals",
];

fn on_off(name: &str, v: &OptionValue) -> Result<bool> {
    // `bombs` and `tribute_between_deals` are spelled off/on in the digest; accept bools too.
    v.as_bool(name).map_err(|_| ZhipaiError::invalid_option(name, v, "expected off or on"))
}

impl BaohuangRules {
    /// Build from a preset name (`baohuang`) and overrides. Errors with `InvalidOption` naming an
    /// unknown option or a value the option does not take.
    pub fn from_preset(_preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let mut r = BaohuangRules::default();
        for (name, value) in overrides {
            r.set(name, value)?;
        }
        Ok(r)
    }

    /// Set one option by its digest name.
    pub fn set(&mut self, name: &str, v: &OptionValue) -> Result<()> {
        match name {
            "deck" => {
                self.deck = match v.as_choice(name, &["216", "168"])? {
                    "216" => Deck::Full216,
                    _ => Deck::Rizhao168,
                }
            }
            "extra_card_to" => {
                self.extra_card_to =
                    match v.as_choice(name, &["first_dealt_seat", "scepter_last"])? {
                        "first_dealt_seat" => ExtraCardTo::FirstDealtSeat,
                        _ => ExtraCardTo::ScepterLast,
                    }
            }
            "scepter_counts_for_dengji" => self.scepter_counts_for_dengji = v.as_bool(name)?,
            "abdication_moves_card" => self.abdication_moves_card = v.as_bool(name)?,
            "grab_priority" => {
                v.as_choice(name, &["clockwise_from_scepter_holder"])?;
            }
            "guard_card_rank" => {
                self.guard_card_rank = match v.as_choice(name, &["face", "above_big_joker"])? {
                    "face" => GuardCardRank::Face,
                    _ => GuardCardRank::AboveBigJoker,
                }
            }
            "bombs" => self.bombs = on_off(name, v)?,
            "pass_is_final_for_round" => self.pass_is_final_for_round = v.as_bool(name)?,
            "jiefeng_applicant" => {
                self.jiefeng_applicant = match v.as_choice(name, &["next_player_only", "any"])? {
                    "next_player_only" => JiefengApplicant::NextPlayerOnly,
                    _ => JiefengApplicant::Any,
                }
            }
            "solo_loss_literal_minus40" => self.solo_loss_literal_minus40 = v.as_bool(name)?,
            "tribute_between_deals" => self.tribute_between_deals = on_off(name, v)?,
            _ => return Err(unknown_option("baohuang", name, v, &OPTION_NAMES)),
        }
        Ok(())
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        let b = |x: bool| x.to_string();
        let onoff = |x: bool| if x { "on" } else { "off" }.to_string();
        vec![
            OptionInfo {
                name: "deck",
                value: match self.deck {
                    Deck::Full216 => "216",
                    Deck::Rizhao168 => "168",
                }
                .into(),
                choices: vec!["216", "168"],
                doc: "216 = 4 decks with 3s (seed 003); 168 = pagat Rizhao, 3/4/5 removed (§C.1)",
            },
            OptionInfo {
                name: "extra_card_to",
                value: match self.extra_card_to {
                    ExtraCardTo::FirstDealtSeat => "first_dealt_seat",
                    ExtraCardTo::ScepterLast => "scepter_last",
                }
                .into(),
                choices: vec!["first_dealt_seat", "scepter_last"],
                doc: "who gets the 44th card: the first-dealt seat, or the scepter BJ dealt last to a random seat (§C.1)",
            },
            OptionInfo {
                name: "scepter_counts_for_dengji",
                value: b(self.scepter_counts_for_dengji),
                choices: vec!["true", "false"],
                doc: "the scepter BJ counts toward 3 identical BJ for 登基 (§C.3.1)",
            },
            OptionInfo {
                name: "abdication_moves_card",
                value: b(self.abdication_moves_card),
                choices: vec!["true", "false"],
                doc: "让位/抢独 move the physical scepter BJ (hand sizes change by one) (§C.3.2)",
            },
            OptionInfo {
                name: "grab_priority",
                value: "clockwise_from_scepter_holder".into(),
                choices: vec!["clockwise_from_scepter_holder"],
                doc: "several grabbers: the first clockwise from the scepter holder wins (§C.3.5)",
            },
            OptionInfo {
                name: "guard_card_rank",
                value: match self.guard_card_rank {
                    GuardCardRank::Face => "face",
                    GuardCardRank::AboveBigJoker => "above_big_joker",
                }
                .into(),
                choices: vec!["face", "above_big_joker"],
                doc: "the guard card ranks by its face, or above BJ (保子) (§C.2)",
            },
            OptionInfo {
                name: "bombs",
                value: onoff(self.bombs),
                choices: vec!["off", "on"],
                doc: "4+ identical naturals beat any play of fewer cards (§C.5 Alt)",
            },
            OptionInfo {
                name: "pass_is_final_for_round",
                value: b(self.pass_is_final_for_round),
                choices: vec!["false", "true"],
                doc: "a pass keeps the player out for the rest of the round (§C.6)",
            },
            OptionInfo {
                name: "jiefeng_applicant",
                value: match self.jiefeng_applicant {
                    JiefengApplicant::NextPlayerOnly => "next_player_only",
                    JiefengApplicant::Any => "any",
                }
                .into(),
                choices: vec!["next_player_only", "any"],
                doc: "who may apply for 接风 on a 底牌 (§C.7)",
            },
            OptionInfo {
                name: "solo_loss_literal_minus40",
                value: b(self.solo_loss_literal_minus40),
                choices: vec!["false", "true"],
                doc: "a losing solo emperor scores the seed's literal -40 in every solo type (§C.10)",
            },
            OptionInfo {
                name: "tribute_between_deals",
                value: onoff(self.tribute_between_deals),
                choices: vec!["off", "on"],
                doc: "进贡 from the previous deal's 大拉/二拉 to 大客/二客 ([OPEN], §C.9 Alt)",
            },
        ]
    }
}
