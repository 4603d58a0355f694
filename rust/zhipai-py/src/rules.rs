//! `Rules`: a preset plus overrides, validated in the core.

use crate::errors::guard;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};
use zhipai_core::{OptionValue, Rules};

/// A complete, validated rule set. Build with `zhipai.rules(preset, **options)`.
#[pyclass(name = "Rules", module = "zhipai", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyRules(pub Rules, pub Vec<String>);

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

    /// `Rules('baohuang', bombs='on')`: the preset and the options given, with the values they
    /// took (so the text rebuilds the same rules; defaults that follow from them are not shown).
    fn __repr__(&self) -> String {
        let options = self.0.options();
        let mut text = format!("Rules('{}'", self.0.preset());
        for name in &self.1 {
            if let Some(o) = options.iter().find(|o| o.name == name) {
                text.push_str(&format!(", {}='{}'", o.name, o.value));
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

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.0.preset(), self.options()).hash(&mut h);
        h.finish()
    }
}

/// Convert a Python value (bool, int or str) to an option value.
pub fn option_value(name: &str, value: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if value.is_instance_of::<PyBool>() {
        Ok(OptionValue::Bool(value.extract()?))
    } else if value.is_instance_of::<PyInt>() {
        Ok(OptionValue::Int(value.extract()?))
    } else if let Ok(s) = value.extract::<String>() {
        Ok(OptionValue::Str(s))
    } else if let Ok(items) = value.extract::<Vec<Bound<'_, PyAny>>>() {
        // A list of ranks etc. (e.g. `mandatory_levels=["5", "10", "K", "A"]`) → "5,10,K,A".
        let texts: PyResult<Vec<String>> = items.iter().map(|i| Ok(i.str()?.to_string())).collect();
        Ok(OptionValue::Str(texts?.join(",")))
    } else {
        Err(crate::errors::InvalidOptionError::new_err(format!(
            "invalid option {name}={}: expected a bool, an int, a str or a list",
            value.repr()?
        )))
    }
}

/// `rules(preset, options=None)`: the rule set of `preset` with `options` (a dict of overrides)
/// applied. Raises `InvalidOptionError` naming an unknown preset, option or value.
#[pyfunction]
#[pyo3(signature = (preset, options=None))]
pub fn rules(preset: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
    let mut overrides = Vec::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            let value = option_value(&name, &v)?;
            overrides.push((name, value));
        }
    }
    let names = overrides.iter().map(|(name, _)| name.clone()).collect();
    guard(|| Ok(PyRules(zhipai_core::rules(preset, &overrides)?, names)))
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
