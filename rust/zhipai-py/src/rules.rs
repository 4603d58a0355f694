//! `Rules`: a preset plus overrides, validated in the core.

use crate::convert::as_index;
use crate::errors::{guard, InvalidOptionError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use zhipai_core::options::Literal;
use zhipai_core::{OptionValue, Rules, ZhipaiError};

/// What `Rules.__reduce__` returns: `zhipai._core.rules` and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (&'static str, Bound<'py, PyDict>, bool));

/// A complete, validated rule set. Build with `zhipai.rules(preset, **options)`.
#[pyclass(name = "Rules", module = "zhipai._core", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyRules(pub Rules, pub Vec<String>);

impl PyRules {
    /// Rules made in the core (a replayed record, a deal state): the options "given" are those
    /// whose value differs from the preset's, so `repr` and pickling rebuild the same rules.
    pub fn of(rules: Rules) -> PyRules {
        let defaults =
            zhipai_core::rules(rules.preset(), &[]).map(|r| r.options()).unwrap_or_default();
        let given = rules
            .options()
            .into_iter()
            .filter(|o| {
                defaults.iter().find(|d| d.name == o.name).is_none_or(|d| d.value != o.value)
            })
            .map(|o| o.name.to_string())
            .collect();
        PyRules(rules, given)
    }
}

#[pymethods]
impl PyRules {
    /// The preset this rule set started from.
    #[getter]
    fn preset(&self) -> &'static str {
        self.0.preset()
    }

    /// `{option name: value as text}` for every option of this rule set.
    fn options(&self) -> Vec<(String, String)> {
        self.0.options().into_iter().map(|o| (o.name.to_string(), o.value)).collect()
    }

    /// `Rules('tractor', decks=3, chaodi=True, throw_compare='all_components')`: the preset and
    /// the options given, with the values they took as Python values (so the text rebuilds the
    /// same rules; defaults that follow from them are not shown).
    fn __repr__(&self) -> String {
        let options = self.0.options();
        let mut text = format!("Rules('{}'", self.0.preset());
        for name in &self.1 {
            if let Some(o) = options.iter().find(|o| o.name == name) {
                let value = match o.literal {
                    Literal::Bool if o.value == "true" => "True".to_string(),
                    Literal::Bool => "False".to_string(),
                    Literal::Int => o.value.clone(),
                    Literal::Str => {
                        format!("'{}'", o.value.replace('\\', "\\\\").replace('\'', "\\'"))
                    }
                };
                text.push_str(&format!(", {}={value}", o.name));
            }
        }
        text + ")"
    }

    /// Equal when the preset and every option value are (however they were given).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRules>()
            .is_ok_and(|o| o.0.preset() == self.0.preset() && o.options() == self.options())
    }

    /// Pickled as its preset and the given options' listed text, which rebuild the same rules
    /// (for Ray tasks and multiprocessing).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let f = py.import("zhipai._core")?.getattr("rules")?;
        // The options given (their values as listed), so the rebuilt rules repr alike.
        let options = PyDict::new(py);
        for (k, v) in self.options().into_iter().filter(|(k, _)| self.1.contains(k)) {
            options.set_item(k, v)?;
        }
        Ok((f, (self.0.preset(), options, true)))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.0.preset(), self.options()).hash(&mut h);
        h.finish()
    }
}

/// Convert a Python value to an option value (the value rules of `zhipai_core::options`): a
/// `bool` (or numpy bool) → `Bool`; an `int` or numpy integer (`operator.index`) → `Int`, or
/// `BigInt` outside `i64` (refused by every option, naming the value, never an `OverflowError`);
/// a `str` → `Str`; a list or tuple of ranks (str or int items) → `List`. Anything else (a
/// float, `None`, a dict, ...) is an `InvalidOptionError` naming the value. Whether the option
/// takes the value is the core's decision.
pub fn option_value(name: &str, value: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    let bad = |what: &str| -> PyResult<OptionValue> {
        Err(InvalidOptionError::new_err(format!("invalid option {name}={}: {what}", value.repr()?)))
    };
    if value.is_instance_of::<PyBool>() || is_numpy_bool(value) {
        return Ok(OptionValue::Bool(value.is_truthy()?));
    }
    if let Some(int) = as_index(value) {
        return Ok(match int.extract::<i64>() {
            Ok(i) => OptionValue::Int(i),
            Err(_) => OptionValue::BigInt(int.str()?.to_string()),
        });
    }
    if value.is_instance_of::<PyString>() {
        return Ok(OptionValue::Str(value.extract()?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for item in value.try_iter()? {
            let item = item?;
            if item.is_instance_of::<PyString>() {
                items.push(item.extract()?);
            } else if let (false, Some(int)) = (item.is_instance_of::<PyBool>(), as_index(&item)) {
                items.push(int.str()?.to_string());
            } else {
                return bad("expected a list of ranks (str or int items)");
            }
        }
        return Ok(OptionValue::List(items));
    }
    bad("expected a bool, an int, a str or a list of ranks")
}

/// Whether `value` is a numpy bool (`numpy.bool_`), which is not a Python `bool`.
fn is_numpy_bool(value: &Bound<'_, PyAny>) -> bool {
    let ty = value.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool_" || name == "bool")
}

/// `rules(preset, options=None, text=False)`: the rule set of `preset` with `options` (a dict of
/// overrides) applied. Values are Python values ([`option_value`]); with `text=True` every value
/// must be a str and is read as the command line's text (`"true"`, `"3"`, `"{5,10,K,A}"`: each
/// option's type reads it), which is also what `Rules.options()` lists. Raises
/// `InvalidOptionError` naming an unknown preset, option or value (a preset that is not a str
/// included).
#[pyfunction]
#[pyo3(signature = (preset, options=None, text=false))]
pub fn rules(
    preset: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
    text: bool,
) -> PyResult<PyRules> {
    if !preset.is_instance_of::<PyString>() {
        let reason = format!(
            "expected a preset name (a str); known presets: {}",
            zhipai_core::rules::PRESETS.join(", ")
        );
        let repr = preset.repr()?.to_string();
        return guard(|| Err(ZhipaiError::invalid_option("preset", repr, reason)));
    }
    let preset: String = preset.extract()?;
    let mut overrides = Vec::new();
    if let Some(d) = options.filter(|o| !o.is_none()) {
        let d = d.cast::<PyDict>().map_err(|_| {
            InvalidOptionError::new_err(format!(
                "invalid options {}: expected a dict of option values",
                d.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        for (k, v) in d.iter() {
            let name: String = k.extract().map_err(|_| {
                InvalidOptionError::new_err(format!(
                    "invalid option name {}: expected a str",
                    k.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            let value = if text {
                match v.extract::<String>() {
                    Ok(s) if v.is_instance_of::<PyString>() => OptionValue::Text(s),
                    _ => {
                        return Err(InvalidOptionError::new_err(format!(
                            "invalid option {name}={}: expected text (a str)",
                            v.repr()?
                        )))
                    }
                }
            } else {
                option_value(&name, &v)?
            };
            overrides.push((name, value));
        }
    }
    let names = overrides.iter().map(|(name, _)| name.clone()).collect();
    guard(|| Ok(PyRules(zhipai_core::rules(&preset, &overrides)?, names)))
}

/// Every preset as `(name, game, description, [(option, value, choices, doc), ...])`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn presets(
) -> PyResult<Vec<(String, String, String, Vec<(String, String, Vec<String>, String)>)>> {
    guard(|| {
        Ok(zhipai_core::rules::presets()
            .into_iter()
            .map(|p| {
                let opts = p
                    .options
                    .into_iter()
                    .map(|o| {
                        (
                            o.name.to_string(),
                            o.value,
                            o.choices.iter().map(|c| c.to_string()).collect(),
                            o.doc.to_string(),
                        )
                    })
                    .collect();
                (p.name.to_string(), p.game.to_string(), p.description.to_string(), opts)
            })
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    Ok(())
}
