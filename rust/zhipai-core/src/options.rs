//! Rule options: values given by users (Python keywords, CLI `--option K=V`) and their
//! descriptions for `zhipai presets`. Each game parses its own options from these.

use crate::error::{Result, ZhipaiError};
use std::fmt;

/// One option value as given by a user. Strings are coerced where the option is a bool or an
/// integer (`"true"`, `"3"`), so CLI text and Python values go through the same path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl OptionValue {
    /// The value as a bool (`true/false`, `1/0`, `yes/no`, `on/off`); errors name the option.
    pub fn as_bool(&self, name: &str) -> Result<bool> {
        match self {
            OptionValue::Bool(b) => Ok(*b),
            OptionValue::Int(0) => Ok(false),
            OptionValue::Int(1) => Ok(true),
            OptionValue::Str(s) => match s.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => Ok(true),
                "false" | "0" | "no" | "off" => Ok(false),
                _ => Err(ZhipaiError::invalid_option(name, self, "expected true or false")),
            },
            _ => Err(ZhipaiError::invalid_option(name, self, "expected true or false")),
        }
    }

    /// The value as an integer; errors name the option.
    pub fn as_int(&self, name: &str) -> Result<i64> {
        match self {
            OptionValue::Int(i) => Ok(*i),
            OptionValue::Str(s) => s
                .trim()
                .parse()
                .map_err(|_| ZhipaiError::invalid_option(name, self, "expected an integer")),
            OptionValue::Bool(_) => {
                Err(ZhipaiError::invalid_option(name, self, "expected an integer"))
            }
        }
    }

    /// The value as one of `choices`; errors name the option and list the choices.
    pub fn as_choice<'a>(&self, name: &str, choices: &[&'a str]) -> Result<&'a str> {
        let text = self.to_string();
        choices.iter().copied().find(|c| *c == text).ok_or_else(|| {
            ZhipaiError::invalid_option(
                name,
                self,
                format!("expected one of {}", choices.join(", ")),
            )
        })
    }
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Str(s) => f.write_str(s),
        }
    }
}

/// A named-choice option: `(name as spelled in the digest, value)` pairs.
pub type ChoiceTable<T> = [(&'static str, T)];

/// The names of a choice table, in table order (for [`OptionInfo::choices`]).
pub fn choice_names<T>(table: &ChoiceTable<T>) -> Vec<&'static str> {
    table.iter().map(|(n, _)| *n).collect()
}

/// Parse option `name`'s `value` as one of the names of `table`; errors list the choices.
pub fn parse_choice<T: Copy>(table: &ChoiceTable<T>, name: &str, value: &OptionValue) -> Result<T> {
    let picked = value.as_choice(name, &choice_names(table))?;
    Ok(table.iter().find(|(n, _)| *n == picked).expect("as_choice returns a listed name").1)
}

/// The name of `value` in `table` (`"?"` if absent, which a complete table never is).
pub fn choice_name<T: PartialEq>(table: &ChoiceTable<T>, value: &T) -> &'static str {
    table.iter().find(|(_, v)| v == value).map_or("?", |(n, _)| n)
}

/// Description of one option for listings (`zhipai presets`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub name: &'static str,
    /// The value in this preset, as text.
    pub value: String,
    /// Allowed values as text; empty for free integers.
    pub choices: Vec<&'static str>,
    /// One line: what it means and the digest section.
    pub doc: &'static str,
}

/// Description of one preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetInfo {
    pub name: &'static str,
    pub game: &'static str,
    pub description: &'static str,
    pub options: Vec<OptionInfo>,
}

/// Error for an option name a game does not have.
pub fn unknown_option(game: &str, name: &str, value: &OptionValue, known: &[&str]) -> ZhipaiError {
    ZhipaiError::invalid_option(
        name,
        value,
        format!("{game} has no such option; known options: {}", known.join(", ")),
    )
}
