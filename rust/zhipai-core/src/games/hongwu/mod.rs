//! HongWu rules (stub: replaced by the game's issue).

use crate::error::Result;
use crate::options::{unknown_option, OptionInfo, OptionValue};

/// The validated options of one HongWu rule set.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HongWuRules {}

impl HongWuRules {
    /// Build from a preset name and overrides.
    pub fn from_preset(_preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        if let Some((name, value)) = overrides.first() {
            return Err(unknown_option("hongwu", name, value, &[]));
        }
        Ok(Self {})
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        Vec::new()
    }
}
