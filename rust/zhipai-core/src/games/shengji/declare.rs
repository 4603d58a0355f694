//! Shengji declaring and overcalling trump (§2.2), dealer selection (§2.3) (stub: filled in by the Shengji rules issue).

use crate::error::Result;
use crate::options::{OptionInfo, OptionValue};

/// Options of this part (shengji.md §10).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DeclareOptions {}

impl DeclareOptions {
    /// The values of `preset` with `decks` decks (shared/rules/README.md, "Presets").
    pub fn for_preset(_preset: &str, _decks: u8) -> Self {
        Self {}
    }

    /// Set option `name`: `Ok(true)` when it is one of ours, `Ok(false)` when it is not,
    /// an `InvalidOption` error for a value it does not take.
    pub fn set(&mut self, _name: &str, _value: &OptionValue) -> Result<bool> {
        Ok(false)
    }

    /// Every option of this part with its current value.
    pub fn infos(&self) -> Vec<OptionInfo> {
        Vec::new()
    }
}
