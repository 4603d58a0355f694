//! Built-in policies: who decides what in a simulated deal.

use crate::error::{Result, ZhipaiError};

/// A built-in policy, used for every decision of a deal (bid/declare, kitty, lead, follow).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Uniform over the legal choices at each decision.
    Random,
    /// The game's documented rule-based player.
    Greedy,
    /// The first-generation rule-based player, kept as a baseline.
    Basic,
}

impl Policy {
    /// The policy's name (`"random"`, `"greedy"`, `"basic"`).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
            Policy::Basic => "basic",
        }
    }
}

impl std::str::FromStr for Policy {
    type Err = ZhipaiError;
    fn from_str(s: &str) -> Result<Policy> {
        match s {
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "basic" => Ok(Policy::Basic),
            _ => Err(ZhipaiError::invalid_value("policy", s, "expected random, greedy or basic")),
        }
    }
}
