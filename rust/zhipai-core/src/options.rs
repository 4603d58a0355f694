//! Rule options: the values users give (Python keywords, CLI `-o NAME=VALUE`), the machinery every
//! game declares its options with ([`game_options!`]), and their listings for `zhipai presets`.
//!
//! # One declaration per option
//!
//! Each game declares each of its options once, in its `options.rs`, with [`game_options!`]: the
//! name (the digest's, which is also the struct field's name), the field type, the default (an
//! expression of the preset and deck count where the preset says so), the domain (the option's
//! type: [`FLAG`], [`ON_OFF`], [`Choice`], [`Numbers`], [`Range`] or a game's own [`Domain`]),
//! and a one-line doc with the digest section. The macro generates the struct, the defaults, the
//! setter that parses overrides and the listing; [`apply_overrides`] is the shared loop.
//!
//! # Values: typed values (Python) and text (command line)
//!
//! An [`OptionValue`] is either a typed value as Python gives it — [`OptionValue::Bool`],
//! [`OptionValue::Int`] (also numpy integers), [`OptionValue::BigInt`] (an int outside `i64`),
//! [`OptionValue::Str`], [`OptionValue::List`] — or [`OptionValue::Text`], the text of the
//! command line (`-o chaodi=true`) and of [`OptionInfo::value`], which the option's own type
//! reads. Each domain takes:
//!
//! | domain | typed value | text |
//! |---|---|---|
//! | [`FLAG`] (false / true) | a bool only | `true` / `false` (any letter case) |
//! | [`ON_OFF`] (off / on, Baohuang) | a bool, or the str `off` / `on` | `off` / `on` |
//! | [`Choice`] | a str naming a choice | a choice |
//! | [`Numbers`] (e.g. `decks`) | an int that is one of the numbers | a decimal number |
//! | [`Range`] | an int in the range (and on its step) | a decimal number |
//!
//! Nothing else is coerced: a str for a bool or an integer option, an int or a str like
//! `"yes"`/`"on"`/`"1"` for a bool option, a list for anything but a set of ranks, and an integer
//! outside the declared range are refused with [`ZhipaiError::InvalidOption`], whose message names
//! the option, the value and what it takes: `invalid option NAME=VALUE: reason`.

use crate::error::{Result, ZhipaiError};
use std::fmt;
use std::marker::PhantomData;

/// One option value as given by a user: a typed value (from Python) or command-line text (see
/// the module docs for what each option type accepts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A Python `bool`.
    Bool(bool),
    /// A Python `int` or numpy integer that fits in `i64`.
    Int(i64),
    /// A Python `int` outside `i64`, as decimal text: every option refuses it, naming it (no
    /// declared range reaches it).
    BigInt(String),
    /// A Python `str`: a choice's name.
    Str(String),
    /// A Python list of ranks (str or int items, as text): a set of ranks (`mandatory_levels`).
    List(Vec<String>),
    /// Text from the command line or from a listing ([`OptionInfo::value`]): read by the option's
    /// type (`true`, `3`, `all_components`, `{5,10,K,A}`).
    Text(String),
}

impl OptionValue {
    /// What kind of value this is, for messages ("an int", "a str", ...).
    pub fn kind(&self) -> &'static str {
        match self {
            OptionValue::Bool(_) => "a bool",
            OptionValue::Int(_) | OptionValue::BigInt(_) => "an int",
            OptionValue::Str(_) => "a str",
            OptionValue::List(_) => "a list",
            OptionValue::Text(_) => "text",
        }
    }
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::BigInt(s) | OptionValue::Str(s) | OptionValue::Text(s) => f.write_str(s),
            OptionValue::List(items) => write!(f, "[{}]", items.join(", ")),
        }
    }
}

/// How a value is written as a typed (Python) value: `True`, `3` or `'text'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Bool,
    Int,
    Str,
}

/// The type of an option: which values it takes, how they are spelled and listed. Implemented by
/// the shared domains of this module and by game-specific ones (e.g. Shengji's set of ranks).
pub trait Domain {
    /// The field type the option is stored as.
    type Value;
    /// Check and convert `value` for option `name`; errors with `InvalidOption` naming both.
    fn parse(&self, name: &str, value: &OptionValue) -> Result<Self::Value>;
    /// The text of `value` (listings; [`OptionValue::Text`] of it parses back to it).
    fn text(&self, value: &Self::Value) -> String;
    /// The values a listing shows (all of them, or examples); empty for ranges.
    fn choices(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// How `value` is written as a typed value.
    fn literal(&self, value: &Self::Value) -> Literal;
}

fn refuse(name: &str, value: &OptionValue, reason: impl fmt::Display) -> ZhipaiError {
    ZhipaiError::invalid_option(name, value, reason)
}

/// A bool option, spelled `false` / `true`: a bool, or the text `true`/`false` in any letter case.
#[derive(Clone, Copy, Debug)]
pub struct Flag;

/// The [`Flag`] domain.
pub const FLAG: Flag = Flag;

impl Domain for Flag {
    type Value = bool;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<bool> {
        match value {
            OptionValue::Bool(b) => Ok(*b),
            OptionValue::Text(t) => match t.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(refuse(name, value, "expected true or false")),
            },
            other => Err(refuse(
                name,
                value,
                format!("expected a bool (True or False), not {}", other.kind()),
            )),
        }
    }

    fn text(&self, value: &bool) -> String {
        value.to_string()
    }

    fn choices(&self) -> Vec<&'static str> {
        vec!["false", "true"]
    }

    fn literal(&self, _: &bool) -> Literal {
        Literal::Bool
    }
}

/// A bool option the digest spells `off` / `on` (Baohuang's `bombs`): a bool, or the str or text
/// `off`/`on` in any letter case.
#[derive(Clone, Copy, Debug)]
pub struct OnOff;

/// The [`OnOff`] domain.
pub const ON_OFF: OnOff = OnOff;

impl Domain for OnOff {
    type Value = bool;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<bool> {
        match value {
            OptionValue::Bool(b) => return Ok(*b),
            OptionValue::Str(t) | OptionValue::Text(t) => {
                match t.trim().to_ascii_lowercase().as_str() {
                    "on" => return Ok(true),
                    "off" => return Ok(false),
                    _ => {}
                }
            }
            _ => {}
        }
        Err(refuse(name, value, "expected off or on (or a bool)"))
    }

    fn text(&self, value: &bool) -> String {
        if *value { "on" } else { "off" }.to_string()
    }

    fn choices(&self) -> Vec<&'static str> {
        vec!["off", "on"]
    }

    fn literal(&self, _: &bool) -> Literal {
        Literal::Str
    }
}

/// `(name as spelled in the digest, value)` pairs of a choice option.
pub type ChoiceTable<T> = [(&'static str, T)];

fn names<T>(table: &ChoiceTable<T>) -> Vec<&'static str> {
    table.iter().map(|(n, _)| *n).collect()
}

fn name_of<T: PartialEq>(table: &ChoiceTable<T>, value: &T) -> &'static str {
    table.iter().find(|(_, v)| v == value).map_or("?", |(n, _)| n)
}

/// A choice among named values (a str, or text): the names of `table` in any ASCII letter case,
/// or one of `aliases` (other spellings, e.g. ASCII for `±1000`; not listed).
#[derive(Clone, Copy, Debug)]
pub struct Choice<T: 'static> {
    pub table: &'static ChoiceTable<T>,
    pub aliases: &'static ChoiceTable<T>,
}

impl<T> Choice<T> {
    /// The choices of `table`, in listing order.
    pub const fn new(table: &'static ChoiceTable<T>) -> Self {
        Choice { table, aliases: &[] }
    }

    /// The choices of `table`, also accepting the spellings of `aliases`.
    pub const fn with_aliases(
        table: &'static ChoiceTable<T>,
        aliases: &'static ChoiceTable<T>,
    ) -> Self {
        Choice { table, aliases }
    }
}

impl<T: Copy + PartialEq> Domain for Choice<T> {
    type Value = T;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<T> {
        if let OptionValue::Str(t) | OptionValue::Text(t) = value {
            let t = t.trim();
            if let Some((_, v)) =
                self.table.iter().chain(self.aliases).find(|(n, _)| n.eq_ignore_ascii_case(t))
            {
                return Ok(*v);
            }
        }
        Err(refuse(name, value, format!("expected one of {}", names(self.table).join(", "))))
    }

    fn text(&self, value: &T) -> String {
        name_of(self.table, value).to_string()
    }

    fn choices(&self) -> Vec<&'static str> {
        names(self.table)
    }

    fn literal(&self, _: &T) -> Literal {
        Literal::Str
    }
}

/// A choice among numbers (`decks`, Baohuang's `deck`): an int, or decimal text, equal to one of
/// the names of `table` (which are decimal numbers). A str is refused: it is not a number.
#[derive(Clone, Copy, Debug)]
pub struct Numbers<T: 'static> {
    pub table: &'static ChoiceTable<T>,
    /// Why only these (appended to the error), or empty.
    pub note: &'static str,
}

impl<T> Numbers<T> {
    /// The numbers of `table`, in listing order.
    pub const fn new(table: &'static ChoiceTable<T>) -> Self {
        Numbers { table, note: "" }
    }

    /// The same with a reason shown when a value is refused.
    pub const fn because(self, note: &'static str) -> Self {
        Numbers { note, ..self }
    }
}

/// The integer of `value` when it is an int or decimal text, else `None`.
fn integer(value: &OptionValue) -> Option<i64> {
    match value {
        OptionValue::Int(i) => Some(*i),
        OptionValue::Text(t) => t.trim().parse().ok(),
        _ => None,
    }
}

impl<T: Copy + PartialEq> Domain for Numbers<T> {
    type Value = T;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<T> {
        if let Some(i) = integer(value) {
            if let Some((_, v)) = self.table.iter().find(|(n, _)| n.parse() == Ok(i)) {
                return Ok(*v);
            }
        }
        let mut reason = format!("expected one of {}", names(self.table).join(", "));
        if !matches!(value, OptionValue::Int(_) | OptionValue::BigInt(_) | OptionValue::Text(_)) {
            reason += &format!(" (an int, not {})", value.kind());
        }
        if !self.note.is_empty() {
            reason += &format!(" ({})", self.note);
        }
        Err(refuse(name, value, reason))
    }

    fn text(&self, value: &T) -> String {
        name_of(self.table, value).to_string()
    }

    fn choices(&self) -> Vec<&'static str> {
        names(self.table)
    }

    fn literal(&self, _: &T) -> Literal {
        Literal::Int
    }
}

/// An integer in `min..=max` that is a multiple of `step`: an int, or decimal text. The bounds
/// are part of the rule set's meaning (e.g. they keep every result column inside `i32`), so an
/// integer outside them is refused, never wrapped or clamped.
#[derive(Debug)]
pub struct Range<T> {
    pub min: i64,
    pub max: i64,
    pub step: i64,
    /// Why these bounds (appended to the error), or empty.
    pub note: &'static str,
    field: PhantomData<fn() -> T>,
}

impl<T> Clone for Range<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Range<T> {}

impl<T> Range<T> {
    /// Every integer from `min` to `max`.
    pub const fn new(min: i64, max: i64) -> Self {
        Range { min, max, step: 1, note: "", field: PhantomData }
    }

    /// Only the multiples of `step` (S stays a multiple of 5, ...).
    pub const fn step(self, step: i64) -> Self {
        Range { step, ..self }
    }

    /// The same with a reason shown when a value is refused.
    pub const fn because(self, note: &'static str) -> Self {
        Range { note, ..self }
    }

    /// What the option takes, for messages: `an integer from 1 to 12`.
    pub fn describe(&self) -> String {
        let what = match self.step {
            1 => "an integer".to_string(),
            s => format!("a multiple of {s}"),
        };
        let mut text = format!("{what} from {} to {}", self.min, self.max);
        if !self.note.is_empty() {
            text += &format!(" ({})", self.note);
        }
        text
    }

    /// Whether `i` is one of the values.
    pub fn contains(&self, i: i64) -> bool {
        (self.min..=self.max).contains(&i) && i % self.step == 0
    }
}

impl<T: Copy + TryFrom<i64> + Into<i64>> Domain for Range<T> {
    type Value = T;

    fn parse(&self, name: &str, value: &OptionValue) -> Result<T> {
        if let Some(i) = integer(value).filter(|&i| self.contains(i)) {
            if let Ok(v) = T::try_from(i) {
                return Ok(v);
            }
        }
        let mut reason = format!("expected {}", self.describe());
        if !matches!(value, OptionValue::Int(_) | OptionValue::BigInt(_) | OptionValue::Text(_)) {
            reason += &format!(", not {}", value.kind());
        }
        Err(refuse(name, value, reason))
    }

    fn text(&self, value: &T) -> String {
        (*value).into().to_string()
    }

    fn literal(&self, _: &T) -> Literal {
        Literal::Int
    }
}

/// Description of one option for listings (`zhipai presets`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub name: &'static str,
    /// The value in this rule set, as text ([`OptionValue::Text`] of it sets the same value).
    pub value: String,
    /// Allowed values as text (or examples, for sets of ranks); empty for integer ranges.
    pub choices: Vec<&'static str>,
    /// One line: what it means and the digest section.
    pub doc: &'static str,
    /// How the value is written as a typed (Python) value.
    pub literal: Literal,
}

impl OptionInfo {
    /// The listing of option `name` of domain `domain` at `value`.
    pub fn of<D: Domain>(
        name: &'static str,
        domain: &D,
        value: &D::Value,
        doc: &'static str,
    ) -> OptionInfo {
        OptionInfo {
            name,
            value: domain.text(value),
            choices: domain.choices(),
            doc,
            literal: domain.literal(value),
        }
    }
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

/// The value of override `name` (the last one given), if any: options such as `decks` are read
/// first because they decide other defaults.
pub fn find_override<'a>(
    overrides: &'a [(String, OptionValue)],
    name: &str,
) -> Option<&'a OptionValue> {
    overrides.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Apply `overrides` in order with `set` (an option set's generated setter: `Ok(false)` for a
/// name it does not have), except those named in `applied` (read first, e.g. `decks`). An unknown
/// name is an `InvalidOption` naming `game` and listing `known`.
pub fn apply_overrides(
    game: &str,
    known: &[&str],
    applied: &[&str],
    overrides: &[(String, OptionValue)],
    mut set: impl FnMut(&str, &OptionValue) -> Result<bool>,
) -> Result<()> {
    for (name, value) in overrides {
        if !applied.contains(&name.as_str()) && !set(name, value)? {
            return Err(unknown_option(game, name, value, known));
        }
    }
    Ok(())
}

/// Declare a game's options once: the struct, its defaults, the setter that parses overrides and
/// the listing. Each option is one entry:
///
/// ```text
/// pub NAME: FIELD_TYPE = DEFAULT, in DOMAIN, "one-line doc (digest §)";
/// ```
///
/// `NAME` is the digest's option name, used as the struct field, the override key and the listed
/// name. `DEFAULT` is an expression of the context parameters (`preset`, `decks`, ...) named after
/// `for`; `DOMAIN` is a [`Domain`] whose value type is `FIELD_TYPE`. Attributes before an entry
/// (more doc lines, `#[allow(non_snake_case)]`) go to the field. Fields that are not options
/// (set from the context) go in an optional `with { field: TYPE = EXPR, ... }` block.
///
/// Generated: the struct; `OPTION_NAMES`; `defaults(context...)`; `set(name, value) ->
/// Result<bool>` (`Ok(false)` for another name); `infos()` (every option with its value).
macro_rules! game_options {
    (
        $(#[$smeta:meta])*
        $svis:vis struct $S:ident for ($($ctx:ident : $cty:ty),* $(,)?)
        $(with {
            $( $(#[$wmeta:meta])* $wvis:vis $wname:ident : $wty:ty = $wval:expr ),* $(,)?
        })?
        options {
            $(
                $(#[$meta:meta])*
                $vis:vis $name:ident : $ty:ty = $default:expr, in $domain:expr, $doc:literal;
            )*
        }
    ) => {
        $(#[$smeta])*
        $svis struct $S {
            $($( $(#[$wmeta])* $wvis $wname: $wty, )*)?
            $(
                #[doc = $doc]
                $(#[$meta])*
                $vis $name: $ty,
            )*
        }

        impl $S {
            /// Every option name, in listing order.
            pub const OPTION_NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The declared defaults: the preset's values in this context.
            #[allow(unused_variables)]
            pub fn defaults($($ctx: $cty),*) -> Self {
                $S { $($( $wname: $wval, )*)? $( $name: $default, )* }
            }

            /// Set option `name` to `value`, checked by its declared domain: `Ok(true)` when it
            /// is one of these options, `Ok(false)` when it is not, an `InvalidOption` error for a
            /// value it does not take.
            pub fn set(
                &mut self,
                name: &str,
                value: &$crate::options::OptionValue,
            ) -> $crate::error::Result<bool> {
                match name {
                    $(
                        stringify!($name) => {
                            self.$name = $crate::options::Domain::parse(&$domain, name, value)?;
                        }
                    )*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            /// Every option with its current value, in listing order.
            pub fn infos(&self) -> Vec<$crate::options::OptionInfo> {
                vec![$(
                    $crate::options::OptionInfo::of(stringify!($name), &$domain, &self.$name, $doc)
                ),*]
            }
        }
    };
}
pub(crate) use game_options;

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> OptionValue {
        OptionValue::Text(s.into())
    }
    fn str_(s: &str) -> OptionValue {
        OptionValue::Str(s.into())
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Colour {
        Red,
        Blue,
    }
    const COLOURS: [(&str, Colour); 2] = [("red", Colour::Red), ("blue", Colour::Blue)];
    const SIZES: [(&str, u8); 3] = [("1", 1), ("2", 2), ("3", 3)];
    const K: Range<i64> = Range::new(1, 1000).because("keeps results inside i32");

    game_options! {
        /// A test set.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Demo for (preset: &str, size: u8)
        with {
            /// Not an option.
            pub origin: String = preset.to_string(),
        }
        options {
            pub size: u8 = size, in Numbers::new(&SIZES), "size (demo §1)";
            pub flag: bool = preset == "other", in FLAG, "a flag (demo §2)";
            pub bombs: bool = false, in ON_OFF, "bombs (demo §3)";
            pub colour: Colour = if size == 3 { Colour::Blue } else { Colour::Red },
                in Choice::with_aliases(&COLOURS, &[("rouge", Colour::Red)]), "colour (demo §4)";
            pub k: i64 = 1, in K, "k (demo §5)";
            pub fives: i32 = 0, in Range::new(0, 200).step(5), "fives (demo §6)";
        }
    }

    fn err(d: &mut Demo, name: &str, v: OptionValue) -> String {
        d.set(name, &v).unwrap_err().to_string()
    }

    #[test]
    fn defaults_follow_the_context() {
        let d = Demo::defaults("demo", 2);
        assert_eq!((d.size, d.flag, d.colour, d.origin.as_str()), (2, false, Colour::Red, "demo"));
        assert!(Demo::defaults("other", 3).flag);
        assert_eq!(Demo::defaults("demo", 3).colour, Colour::Blue);
        assert_eq!(Demo::OPTION_NAMES, ["size", "flag", "bombs", "colour", "k", "fives"]);
    }

    #[test]
    fn flags_take_bools_and_true_false_text_only() {
        let mut d = Demo::defaults("demo", 2);
        assert!(d.set("flag", &OptionValue::Bool(true)).unwrap() && d.flag);
        for (t, want) in [("false", false), ("TRUE", true), ("False", false)] {
            d.set("flag", &text(t)).unwrap();
            assert_eq!(d.flag, want, "{t}");
        }
        for bad in [str_("true"), str_("yes"), text("yes"), text("on"), text("1"), text("no")] {
            let e = err(&mut d, "flag", bad.clone());
            assert!(e.starts_with(&format!("invalid option flag={bad}: expected")), "{e}");
        }
        for bad in [OptionValue::Int(1), OptionValue::Int(0), OptionValue::List(vec![])] {
            let e = err(&mut d, "flag", bad.clone());
            assert!(e.contains("expected a bool (True or False), not"), "{e}");
        }
    }

    #[test]
    fn on_off_takes_bools_and_its_spellings() {
        let mut d = Demo::defaults("demo", 2);
        for (v, want) in [(str_("on"), true), (text("OFF"), false), (OptionValue::Bool(true), true)]
        {
            d.set("bombs", &v).unwrap();
            assert_eq!(d.bombs, want);
        }
        for bad in [str_("yes"), text("true"), OptionValue::Int(1)] {
            assert!(err(&mut d, "bombs", bad).contains("expected off or on"));
        }
    }

    #[test]
    fn choices_take_names_and_aliases_never_other_types() {
        let mut d = Demo::defaults("demo", 2);
        d.set("colour", &str_("Blue")).unwrap();
        assert_eq!(d.colour, Colour::Blue);
        d.set("colour", &text("rouge")).unwrap();
        assert_eq!(d.colour, Colour::Red);
        for bad in [str_("green"), OptionValue::Int(1), OptionValue::Bool(true)] {
            let e = err(&mut d, "colour", bad.clone());
            assert_eq!(e, format!("invalid option colour={bad}: expected one of red, blue"));
        }
    }

    #[test]
    fn numbers_take_ints_and_decimal_text_not_str() {
        let mut d = Demo::defaults("demo", 2);
        d.set("size", &OptionValue::Int(3)).unwrap();
        assert_eq!(d.size, 3);
        d.set("size", &text("1")).unwrap();
        assert_eq!(d.size, 1);
        for bad in [OptionValue::Int(4), OptionValue::Int(-1), OptionValue::BigInt("1".repeat(30))]
        {
            let e = err(&mut d, "size", bad.clone());
            assert_eq!(e, format!("invalid option size={bad}: expected one of 1, 2, 3"));
        }
        assert!(err(&mut d, "size", str_("2")).contains("(an int, not a str)"));
        assert!(err(&mut d, "size", OptionValue::Bool(true)).contains("not a bool"));
    }

    #[test]
    fn ranges_refuse_values_outside_with_the_range() {
        let mut d = Demo::defaults("demo", 2);
        d.set("k", &OptionValue::Int(1000)).unwrap();
        assert_eq!(d.k, 1000);
        d.set("k", &text(" 7 ")).unwrap();
        assert_eq!(d.k, 7);
        for bad in [
            OptionValue::Int(0),
            OptionValue::Int(1001),
            OptionValue::Int(i64::MAX),
            OptionValue::Int(i64::MIN),
            OptionValue::BigInt("9223372036854775808".into()),
            text("99999999999999999999999"),
            text("seven"),
        ] {
            let e = err(&mut d, "k", bad.clone());
            assert_eq!(
                e,
                format!(
                    "invalid option k={bad}: expected an integer from 1 to 1000 \
                     (keeps results inside i32)"
                )
            );
        }
        assert!(err(&mut d, "k", str_("7")).ends_with(", not a str"));
        assert!(err(&mut d, "k", OptionValue::List(vec!["1".into()])).ends_with(", not a list"));
        d.set("fives", &OptionValue::Int(195)).unwrap();
        assert_eq!(d.fives, 195);
        for bad in [3, -5, 205] {
            let e = err(&mut d, "fives", OptionValue::Int(bad));
            assert!(e.contains(&format!("fives={bad}: expected a multiple of 5 from 0 to 200")));
        }
        assert_eq!(d.k, 7, "a refused value leaves the option unchanged");
    }

    #[test]
    fn every_listed_value_parses_back() {
        let mut d = Demo::defaults("demo", 3);
        d.set("bombs", &OptionValue::Bool(true)).unwrap();
        d.set("k", &OptionValue::Int(42)).unwrap();
        let infos = d.infos();
        assert_eq!(infos.iter().map(|i| i.name).collect::<Vec<_>>(), Demo::OPTION_NAMES);
        for info in &infos {
            let mut fresh = Demo::defaults("demo", 3);
            assert!(fresh.set(info.name, &text(&info.value)).unwrap());
            assert_eq!(fresh.infos().iter().find(|i| i.name == info.name), Some(info));
            for choice in &info.choices {
                assert!(fresh.set(info.name, &text(choice)).unwrap(), "{} {choice}", info.name);
            }
        }
        let lit = |n: &str| infos.iter().find(|i| i.name == n).unwrap().literal;
        assert_eq!(
            [lit("size"), lit("flag"), lit("bombs"), lit("colour"), lit("k")],
            [Literal::Int, Literal::Bool, Literal::Str, Literal::Str, Literal::Int]
        );
    }

    #[test]
    fn overrides_apply_in_order_and_unknown_names_list_the_known() {
        let mut d = Demo::defaults("demo", 2);
        let o = vec![
            ("size".to_string(), OptionValue::Int(3)),
            ("k".to_string(), OptionValue::Int(5)),
            ("k".to_string(), OptionValue::Int(6)),
        ];
        assert_eq!(find_override(&o, "size"), Some(&OptionValue::Int(3)));
        apply_overrides("demo", Demo::OPTION_NAMES, &["size"], &o, |n, v| d.set(n, v)).unwrap();
        assert_eq!((d.size, d.k), (2, 6), "size was applied first (skipped), k last wins");
        let bad = vec![("nope".to_string(), OptionValue::Int(1))];
        let e = apply_overrides("demo", Demo::OPTION_NAMES, &[], &bad, |n, v| d.set(n, v))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "invalid option nope=1: demo has no such option; known options: size, flag, bombs, \
             colour, k, fives"
        );
    }
}
