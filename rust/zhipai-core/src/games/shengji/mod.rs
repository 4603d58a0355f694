//! The Shengji family: Tractor / 升级 / 八十分 with 1–3 decks and JJ 拖拉机 (shared/rules/shengji.md).
//!
//! Options are split by concern; each part parses its own names (shengji.md §10):
//! * [`options::PlayOptions`] — order, combinations, throws, following, trick winner, kitty multiplier;
//! * [`declare::DeclareOptions`] — declaring and overcalling trump, dealer selection;
//! * [`scoring::ScoringOptions`] — level tables, JJ 积分, mandatory levels, end of match.

pub mod chaodi;
pub mod declare;
pub mod game;
pub mod kitty;
pub mod listing;
pub mod move_text;
pub mod moves;
pub mod options;
pub mod policy;
pub mod row;
pub mod scoring;
pub mod session;
pub mod simulator;
pub mod state;

pub use game::DealState;

#[cfg(test)]
mod game_tests;

use crate::error::{Result, ZhipaiError};
use crate::options::{unknown_option, OptionInfo, OptionValue};

/// The validated options of one Shengji-family rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct ShengjiRules {
    preset: &'static str,
    /// Number of decks, 1–3 (shengji.md §1).
    pub decks: u8,
    pub play: options::PlayOptions,
    pub declare: declare::DeclareOptions,
    pub scoring: scoring::ScoringOptions,
}

impl ShengjiRules {
    /// Build from a preset (`tractor`, `tractor_jj`, `eighty_points`) and overrides. `decks` is
    /// applied first because it changes other defaults (shared/rules/README.md, "Presets").
    pub fn from_preset(preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let preset: &'static str = match preset {
            "tractor" => "tractor",
            "tractor_jj" => "tractor_jj",
            "eighty_points" => "eighty_points",
            _ => return Err(ZhipaiError::invalid_option("preset", preset, "not a Shengji preset")),
        };
        let mut decks = 2u8;
        for (name, value) in overrides.iter().filter(|(n, _)| n == "decks") {
            let d = value.as_int(name)?;
            let allowed: &[i64] = if preset == "tractor_jj" { &[2] } else { &[1, 2, 3] };
            if !allowed.contains(&d) {
                return Err(ZhipaiError::invalid_option(
                    name,
                    value,
                    format!("{preset} is played with {allowed:?} decks"),
                ));
            }
            decks = d as u8;
        }
        let mut rules = ShengjiRules {
            preset,
            decks,
            play: options::PlayOptions::for_preset(preset, decks),
            declare: declare::DeclareOptions::for_preset(preset, decks),
            scoring: scoring::ScoringOptions::for_preset(preset, decks),
        };
        for (name, value) in overrides.iter().filter(|(n, _)| n != "decks") {
            let known = rules.play.set(name, value)?
                || rules.declare.set(name, value)?
                || rules.scoring.set(name, value)?;
            if !known {
                let names: Vec<&str> = rules.option_infos().iter().map(|o| o.name).collect();
                return Err(unknown_option(preset, name, value, &names));
            }
        }
        Ok(rules)
    }

    /// The preset name this rule set started from.
    pub fn preset(&self) -> &'static str {
        self.preset
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        let mut out = vec![OptionInfo {
            name: "decks",
            value: self.decks.to_string(),
            choices: if self.preset == "tractor_jj" { vec!["2"] } else { vec!["1", "2", "3"] },
            doc: "number of decks (shengji.md §1)",
        }];
        out.extend(self.play.infos());
        out.extend(self.declare.infos());
        out.extend(self.scoring.infos());
        out
    }
}
