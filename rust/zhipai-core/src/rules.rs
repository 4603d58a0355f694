//! Presets and rule sets across games: `rules("tractor", overrides)` → [`Rules`].
//!
//! Presets are those of shared/rules/README.md; each game module parses its own options.

use crate::cards::{Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::games::{baohuang, gongzhu, hongwu, shengji};
use crate::multiset::Multiset;
use crate::options::{OptionInfo, OptionValue, PresetInfo};
use crate::tricks::TrickRules;

/// Run `$body` with `$g` bound to the game of `$rules` (its rules type, which implements
/// [`crate::game::Game`]): generic code written once over the contract, dispatched per game.
#[macro_export]
macro_rules! with_game {
    ($rules:expr, $g:ident => $body:expr) => {
        match $rules {
            $crate::rules::Rules::Shengji($g) => $body,
            $crate::rules::Rules::HongWu($g) => $body,
            $crate::rules::Rules::Gongzhu($g) => $body,
            $crate::rules::Rules::Baohuang($g) => $body,
        }
    };
}

/// A complete rule set of one game: a preset plus overrides, validated.
#[derive(Clone, Debug, PartialEq)]
pub enum Rules {
    Shengji(shengji::ShengjiRules),
    HongWu(hongwu::HongWuRules),
    Gongzhu(gongzhu::GongzhuRules),
    Baohuang(baohuang::BaohuangRules),
}

/// Every preset name, in the order of shared/rules/README.md.
pub const PRESETS: [&str; 6] =
    ["tractor", "tractor_jj", "eighty_points", "hong_wu", "gongzhu", "baohuang"];

/// Build the rules of `preset` with `overrides` applied. Errors with
/// [`ZhipaiError::InvalidOption`] naming an unknown preset, an unknown option or a bad value.
pub fn rules(preset: &str, overrides: &[(String, OptionValue)]) -> Result<Rules> {
    Ok(match preset {
        "tractor" | "tractor_jj" | "eighty_points" => {
            Rules::Shengji(shengji::ShengjiRules::from_preset(preset, overrides)?)
        }
        "hong_wu" => Rules::HongWu(hongwu::HongWuRules::from_preset(preset, overrides)?),
        "gongzhu" => Rules::Gongzhu(gongzhu::GongzhuRules::from_preset(preset, overrides)?),
        "baohuang" => Rules::Baohuang(baohuang::BaohuangRules::from_preset(preset, overrides)?),
        _ => {
            return Err(ZhipaiError::invalid_option(
                "preset",
                preset,
                format!("unknown preset; known presets: {}", PRESETS.join(", ")),
            ))
        }
    })
}

impl Rules {
    /// The preset this rule set started from.
    pub fn preset(&self) -> &'static str {
        match self {
            Rules::Shengji(r) => r.preset(),
            Rules::HongWu(_) => "hong_wu",
            Rules::Gongzhu(_) => "gongzhu",
            Rules::Baohuang(_) => "baohuang",
        }
    }

    /// Every option with its value in this rule set.
    pub fn options(&self) -> Vec<OptionInfo> {
        match self {
            Rules::Shengji(r) => r.option_infos(),
            Rules::HongWu(r) => r.option_infos(),
            Rules::Gongzhu(r) => r.option_infos(),
            Rules::Baohuang(r) => r.option_infos(),
        }
    }
}

/// Every preset with its description and option values (for `zhipai presets`).
pub fn presets() -> Vec<PresetInfo> {
    PRESETS
        .iter()
        .map(|&name| {
            let r = rules(name, &[]).expect("every preset builds with no overrides");
            PresetInfo {
                name,
                game: game_of(name),
                description: describe(name),
                options: r.options(),
            }
        })
        .collect()
}

fn game_of(preset: &str) -> &'static str {
    match preset {
        "hong_wu" => "hong_wu",
        "gongzhu" => "gongzhu",
        "baohuang" => "baohuang",
        _ => "shengji",
    }
}

fn describe(preset: &str) -> &'static str {
    match preset {
        "tractor" => "standard Tractor / 升级, digest defaults (shengji.md §10); decks 1, 2 or 3",
        "tractor_jj" => "JJ 拖拉机 (seed 001), 2 decks, JJ 积分 scoring",
        "eighty_points" => "联众 八十分 (seed 004); decks 1, 2 or 3",
        "hong_wu" => "新型红五 Hong Wu (seed 002), bidding, one dealer against three",
        "gongzhu" => "QQ 拱猪 Gongzhu (seed 000); decks 1 or 2; partnership",
        "baohuang" => "青岛保皇 Qingdao Baohuang (seed 003), 5 players, 4 decks",
        _ => "",
    }
}

impl Rules {
    /// The result columns of a deal of these rules (`simulate`'s columns, the order of
    /// `GameState::result_row`).
    pub fn columns(&self) -> Vec<crate::game::Column> {
        crate::with_game!(self, g => crate::game::Game::columns(g))
    }

    /// The trick rules of one deal at level rank `level` with trump suit `trump` (`None` =
    /// no-trump), for the games with Shengji-style tricks. `InvalidOption` for Gongzhu and
    /// Baohuang, which are other games.
    pub fn trick_rules(&self, level: Rank, trump: Option<Suit>) -> Result<TrickRules> {
        match self {
            Rules::Shengji(r) => Ok(r.play.trick_rules(r.decks, level, trump)),
            Rules::HongWu(r) => r.trick_rules(trump),
            other => Err(ZhipaiError::invalid_option(
                "preset",
                other.preset(),
                "this game has no Shengji-style tricks",
            )),
        }
    }

    /// The kitty multiplier when the attackers win the last trick with lead `lead` and
    /// `winning_play` (for bases that read it): shengji.md §7.2, hongwu.md §B.10.
    pub fn kitty_multiplier(
        &self,
        tr: &TrickRules,
        lead: &Multiset,
        winning_play: Option<&Multiset>,
    ) -> Result<u32> {
        match self {
            Rules::Shengji(r) => shengji::kitty::kitty_multiplier(
                r.play.kitty_multiplier,
                r.play.kitty_multiplier_basis,
                tr,
                lead,
                winning_play,
            ),
            Rules::HongWu(r) => r.kitty_multiplier(tr, lead),
            other => Err(ZhipaiError::invalid_option(
                "preset",
                other.preset(),
                "this game has no kitty multiplier",
            )),
        }
    }
}
