//! The Shengji family: Tractor / 升级 / 八十分 with 1–3 decks and JJ 拖拉机 (shared/rules/shengji.md).
//!
//! Every option is declared once in [`options`] (shengji.md §10), in three parts by concern:
//! * [`options::PlayOptions`] — order, combinations, throws, following, trick winner, kitty multiplier;
//! * [`options::DeclareOptions`] — declaring and overcalling trump, dealer selection;
//! * [`options::ScoringOptions`] — level tables, JJ 积分, mandatory levels, end of match.

pub mod basic;
pub mod chaodi;
pub mod declare;
pub mod game;
pub mod greedy;
pub mod kitty;
pub mod listing;
pub mod move_text;
pub mod moves;
pub mod options;
pub mod row;
pub mod scoring;
pub mod session;
pub mod simulator;
pub mod state;
pub mod stepwise;

#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod tensor_tests;
#[cfg(test)]
mod world_tests;

use crate::error::{Result, ZhipaiError};
use crate::options::{apply_overrides, find_override, Domain, OptionInfo, OptionValue};

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
    /// applied first because it changes other defaults (shared/rules/README.md, "Presets"); the
    /// others in order, each checked by its declaration in [`options`].
    pub fn from_preset(preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let preset: &'static str = match preset {
            "tractor" => "tractor",
            "tractor_jj" => "tractor_jj",
            "eighty_points" => "eighty_points",
            _ => return Err(ZhipaiError::invalid_option("preset", preset, "not a Shengji preset")),
        };
        let decks = match find_override(overrides, "decks") {
            Some(value) => options::decks_domain(preset).parse("decks", value)?,
            None => 2,
        };
        let mut rules = ShengjiRules {
            preset,
            decks,
            play: options::PlayOptions::defaults(preset, decks),
            declare: declare::DeclareOptions::defaults(preset, decks),
            scoring: scoring::ScoringOptions::defaults(preset, decks),
        };
        let known = Self::option_names();
        apply_overrides(preset, &known, &["decks"], overrides, |name, value| {
            Ok(rules.play.set(name, value)?
                || rules.declare.set(name, value)?
                || rules.scoring.set(name, value)?)
        })?;
        rules.scoring.check()?;
        Ok(rules)
    }

    /// Every option name, in listing order.
    pub fn option_names() -> Vec<&'static str> {
        let parts = [
            options::PlayOptions::OPTION_NAMES,
            options::DeclareOptions::OPTION_NAMES,
            options::ScoringOptions::OPTION_NAMES,
        ];
        std::iter::once("decks").chain(parts.into_iter().flatten().copied()).collect()
    }

    /// The preset name this rule set started from.
    pub fn preset(&self) -> &'static str {
        self.preset
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        let decks = options::decks_domain(self.preset);
        let mut out = vec![OptionInfo::of("decks", &decks, &self.decks, options::DECKS_DOC)];
        out.extend(self.play.infos());
        out.extend(self.declare.infos());
        out.extend(self.scoring.infos());
        out
    }
}
