//! The one error type of the engine. Every message names the bad value.

use std::fmt::Display;

/// Result with [`ZhipaiError`].
pub type Result<T, E = ZhipaiError> = std::result::Result<T, E>;

/// Everything that can go wrong in the engine. The Python binding maps each variant to an
/// exception class of the same name (`zhipai.InvalidCardError`, …, all subclasses of
/// `zhipai.ZhipaiError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZhipaiError {
    /// A card in notation could not be parsed.
    #[error(
        "invalid card {text:?}: expected rank then suit like 10H, AS, JS, or SJ/BJ for jokers"
    )]
    InvalidCard { text: String },

    /// An argument has a value outside its domain (a count, a seat, a card list, …).
    #[error("invalid {what} {}: {reason}", shown(value))]
    InvalidValue { what: String, value: String, reason: String },

    /// An unknown preset or option name, or an option value the option does not take.
    #[error("invalid option {name}={}: {reason}", shown(value))]
    InvalidOption { name: String, value: String, reason: String },

    /// A play, bid or action the rules do not allow in this state.
    #[error("illegal play {}: {reason}", shown(play))]
    IllegalPlay { play: String, reason: String },

    /// Dealing constraints that no deal satisfies.
    #[error("impossible deal: {reason}")]
    ImpossibleDeal { reason: String },

    /// A long run was stopped by the caller (e.g. Ctrl-C).
    #[error("interrupted after {completed} completed deals")]
    Interrupted { completed: u64 },
}

/// A value as a message shows it: as given, or quoted and escaped (`""`, `"  "`, `"\u{1f}"`)
/// when it is empty, blank or holds a control character, which would otherwise vanish from the
/// message (`invalid lead : ...`).
fn shown(value: &str) -> std::borrow::Cow<'_, str> {
    if value.trim().is_empty() || value.chars().any(char::is_control) {
        format!("{value:?}").into()
    } else {
        value.into()
    }
}

impl ZhipaiError {
    /// An [`ZhipaiError::InvalidValue`] for argument `what` with the offending `value`.
    pub fn invalid_value(what: impl Display, value: impl Display, reason: impl Display) -> Self {
        ZhipaiError::InvalidValue {
            what: what.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        }
    }

    /// An [`ZhipaiError::InvalidOption`] for option `name` set to `value`.
    pub fn invalid_option(name: impl Display, value: impl Display, reason: impl Display) -> Self {
        ZhipaiError::InvalidOption {
            name: name.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        }
    }

    /// An [`ZhipaiError::IllegalPlay`] for `play` with the rule it breaks.
    pub fn illegal_play(play: impl Display, reason: impl Display) -> Self {
        ZhipaiError::IllegalPlay { play: play.to_string(), reason: reason.to_string() }
    }

    /// An [`ZhipaiError::ImpossibleDeal`].
    pub fn impossible_deal(reason: impl Display) -> Self {
        ZhipaiError::ImpossibleDeal { reason: reason.to_string() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_or_blank_value_is_quoted() {
        // Found by the hypothesis suite (tests/test_fuzz_api.py): `Mechanics.check_follow("",
        // ...)` said "invalid lead : expected a non-empty lead", naming nothing.
        let e = ZhipaiError::invalid_value("lead", "", "expected a non-empty lead");
        assert_eq!(e.to_string(), r#"invalid lead "": expected a non-empty lead"#);
        let e = ZhipaiError::invalid_option("preset", " ", "unknown preset");
        assert_eq!(e.to_string(), r#"invalid option preset=" ": unknown preset"#);
        let e = ZhipaiError::illegal_play("", "a lead needs at least one card");
        assert_eq!(e.to_string(), r#"illegal play "": a lead needs at least one card"#);
        let e = ZhipaiError::invalid_value("suit", "\u{1f}", "expected one of S H D C");
        assert_eq!(e.to_string(), r#"invalid suit "\u{1f}": expected one of S H D C"#);
        let e = ZhipaiError::invalid_value("seat", 7, "expected 0 to 3");
        assert_eq!(e.to_string(), "invalid seat 7: expected 0 to 3");
    }
}
