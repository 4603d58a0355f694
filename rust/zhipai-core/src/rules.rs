//! Presets and rule sets across games: `rules("tractor", overrides)` → [`Rules`].
//!
//! Presets are those of shared/rules/README.md; each game module parses its own options.

use crate::error::{Result, ZhipaiError};
use crate::games::{baohuang, gongzhu, hongwu, shengji};
use crate::options::{OptionInfo, OptionValue, PresetInfo};

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
