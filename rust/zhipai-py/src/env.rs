//! `zhipai.VectorEnv` and `zhipai.observation_layout`: the core's vector env
//! (`zhipai_core::env`). The numpy arrays are allocated once, at construction; each `reset` and
//! `step` borrows their memory mutably, releases the GIL and lets the core write into it, then
//! returns the same arrays.

use crate::convert::{int_in, invalid};
use crate::errors::{guard, guard_detached};
use crate::rules::PyRules;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};
use zhipai_core::env::{vector_env, ActionStyle, Buffers, EnvConfig, Reward, Spec, VectorEnv};
use zhipai_core::search::Player;
use zhipai_core::Rules;

/// `rules`: a `zhipai.Rules` or a preset name.
pub(crate) fn rules_arg(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    if let Ok(r) = obj.extract::<PyRules>() {
        return Ok(r.0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let name = s.to_str()?.to_string();
        return guard(|| zhipai_core::rules(&name, &[]));
    }
    Err(invalid("rules", obj, "expected zhipai.Rules or a preset name (str)"))
}

/// `observation_layout(rules)`: the fields of the observation tensor of `rules` as
/// `(name, offset, length, meaning)` (offsets and lengths in float32 entries).
#[pyfunction]
fn observation_layout(rules: &Bound<'_, PyAny>) -> PyResult<Vec<(String, usize, usize, String)>> {
    let r = rules_arg(rules)?;
    let layout = guard(|| zhipai_core::env::observation_layout(&r))?;
    Ok(layout
        .into_iter()
        .map(|f| (f.name.to_string(), f.offset, f.len, f.meaning.to_string()))
        .collect())
}

/// Vectorised environments (see `zhipai.envs` for the whole contract).
///
/// Frozen, with the env behind a lock: a call from a second Python thread while one runs (its
/// GIL released) gets a `ZhipaiError` saying the env is in use, never PyO3's borrow error, and
/// the getters read the copied spec without waiting.
#[pyclass(name = "VectorEnv", module = "zhipai._core", frozen)]
pub struct PyVectorEnv {
    env: Mutex<Box<dyn VectorEnv>>,
    spec: Spec,
    /// The seed of the last `reset` that gave one (else the constructor's): read without the
    /// lock, so the getter and `repr` never wait for a running call.
    seed: AtomicU64,
    controlled: Vec<usize>,
    opponents: String,
    style: &'static str,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    features: Py<PyArray3<u8>>,
    num_moves: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    reset: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i64>>,
    deal: Py<PyArray1<u64>>,
    sampled: Py<PyArray1<i64>>,
}

/// The error for a returned array the env cannot write: the arrays are the caller's, one made
/// read-only or still borrowed elsewhere.
fn unwritable(py: Python<'_>, e: numpy::BorrowError) -> PyErr {
    let text = e.to_string();
    let what = if text.contains("writeable") { "read-only" } else { "in use" };
    invalid("buffers", &PyString::new(py, what), format!("cannot write them: {text}"))
}

/// Type of `reset`'s result.
type ResetOut<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyDict>);
/// Type of `step`'s result.
type StepOut<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyDict>,
);

impl PyVectorEnv {
    /// Borrow every array mutably and run `f` on the buffers with the GIL released.
    fn run(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn VectorEnv, Buffers<'_>) -> zhipai_core::Result<()> + Send,
    ) -> PyResult<()> {
        let mut env = self.lock(py)?;
        let busy = |e| unwritable(py, e);
        let mut obs = self.obs.bind(py).try_readwrite().map_err(busy)?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(busy)?;
        let mut features = self.features.bind(py).try_readwrite().map_err(busy)?;
        let mut num_moves = self.num_moves.bind(py).try_readwrite().map_err(busy)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(busy)?;
        let mut terminated = self.terminated.bind(py).try_readwrite().map_err(busy)?;
        let mut truncated = self.truncated.bind(py).try_readwrite().map_err(busy)?;
        let mut reset = self.reset.bind(py).try_readwrite().map_err(busy)?;
        let mut seat = self.seat.bind(py).try_readwrite().map_err(busy)?;
        let mut deal = self.deal.bind(py).try_readwrite().map_err(busy)?;
        let contiguous = |e: numpy::AsSliceError| {
            invalid("buffers", &PyString::new(py, "layout"), format!("{e}"))
        };
        let bufs = Buffers {
            obs: obs.as_slice_mut().map_err(contiguous)?,
            mask: mask.as_slice_mut().map_err(contiguous)?,
            features: features.as_slice_mut().map_err(contiguous)?,
            num_moves: num_moves.as_slice_mut().map_err(contiguous)?,
            rewards: rewards.as_slice_mut().map_err(contiguous)?,
            terminated: terminated.as_slice_mut().map_err(contiguous)?,
            truncated: truncated.as_slice_mut().map_err(contiguous)?,
            reset: reset.as_slice_mut().map_err(contiguous)?,
            seat: seat.as_slice_mut().map_err(contiguous)?,
            deal: deal.as_slice_mut().map_err(contiguous)?,
        };
        let env = env.as_mut();
        guard_detached(py, move || f(env, bufs))
    }

    /// The env, or `InvalidValue` while another thread's call holds it (a call never waits:
    /// a second thread stepping the same envs is a bug in the caller).
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Box<dyn VectorEnv>>> {
        match self.env.try_lock() {
            Ok(g) => Ok(g),
            // A panic inside a call was already reported as an error; the env is still whole
            // enough to be reset.
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(invalid(
                "VectorEnv",
                &PyString::new(py, "in use"),
                "another thread is in reset(), step() or sample_actions() of this env; \
                 use one env per thread",
            )),
        }
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("seat", self.seat.bind(py))?;
        d.set_item("deal", self.deal.bind(py))?;
        d.set_item("reset", self.reset.bind(py))?;
        if self.style == "moves" {
            d.set_item("num_moves", self.num_moves.bind(py))?;
            d.set_item("move_features", self.features.bind(py))?;
        }
        Ok(d)
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (rules, num_envs, seed, controlled_seats = None, opponents = None, threads = None, action_style = None, reward = None, max_moves = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        controlled_seats: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        action_style: Option<&Bound<'_, PyAny>>,
        reward: Option<&Bound<'_, PyAny>>,
        max_moves: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rules = rules_arg(rules)?;
        let n_players = zhipai_core::arena::num_players(&rules);
        let num_envs: usize = int_in("num_envs", num_envs, 1, 1 << 24)?;
        // `None`: a fresh random seed, recorded in `seed` (as everywhere in zhipai).
        let seed = if seed.is_none() {
            py.import("secrets")?.call_method1("randbits", (64,))?.extract()?
        } else {
            crate::convert::seed(seed)?
        };
        let controlled: Vec<usize> = match controlled_seats.filter(|c| !c.is_none()) {
            None => vec![0],
            Some(c) => {
                if c.is_instance_of::<PyString>() {
                    return Err(invalid("controlled_seats", c, "expected a sequence of seats"));
                }
                let items: Vec<Bound<'_, PyAny>> = c
                    .try_iter()
                    .map_err(|_| invalid("controlled_seats", c, "expected a sequence of seats"))?
                    .collect::<PyResult<_>>()?;
                items
                    .iter()
                    .map(|s| int_in("controlled seat", s, 0, n_players as i128 - 1))
                    .collect::<PyResult<_>>()?
            }
        };
        let text = |what: &str, v: Option<&Bound<'_, PyAny>>, default: &str, expected: &str| match v
            .filter(|v| !v.is_none())
        {
            None => Ok(default.to_string()),
            Some(v) => crate::convert::text(what, v, expected),
        };
        let opponents = text("opponents", opponents, "greedy", "a player name such as 'greedy'")?;
        let player = guard(|| Player::parse_arg("opponents", &opponents))?;
        let style_text = text("action_style", action_style, "actions", "\"actions\" or \"moves\"")?;
        let style = guard(|| style_text.parse::<ActionStyle>())?;
        let reward_text = text("reward", reward, "return", "\"return\" or \"points\"")?;
        let reward = guard(|| reward_text.parse::<Reward>())?;
        let threads: usize = crate::convert::opt_int_in("threads", threads, 0, 1024)?.unwrap_or(0);
        let max_moves: usize =
            crate::convert::opt_int_in("max_moves", max_moves, 1, 100_000)?.unwrap_or(64);
        let cfg = EnvConfig {
            num_envs,
            seed,
            controlled: controlled.clone(),
            opponents: player.clone(),
            threads,
            action_style: style,
            reward,
            max_moves,
        };
        let env = guard_detached(py, || vector_env(&rules, cfg))?;
        let s = env.spec().clone();
        let n = s.num_envs;
        // Refused up front, as a named error: numpy's failed allocation would panic here, and
        // Rust's (the deals, at reset) aborts the process.
        let needed = n.saturating_mul(s.bytes_per_env());
        py.import("zhipai._memory")?.call_method1(
            "check_fits",
            (
                "num_envs",
                n,
                needed,
                "the env's arrays and deals in progress",
                "use fewer envs (or several processes)",
            ),
        )?;
        let moves = style == ActionStyle::Moves;
        let mut sorted = controlled;
        sorted.sort_unstable();
        Ok(PyVectorEnv {
            env: Mutex::new(env),
            seed: AtomicU64::new(seed),
            controlled: sorted,
            opponents: player.to_string(),
            style: if moves { "moves" } else { "actions" },
            obs: PyArray2::zeros(py, [n, s.obs_len], false).unbind(),
            mask: PyArray2::zeros(py, [n, s.mask_len], false).unbind(),
            features: PyArray3::zeros(py, [n, if moves { max_moves } else { 0 }, 54], false)
                .unbind(),
            num_moves: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, s.num_players], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            reset: PyArray1::zeros(py, n, false).unbind(),
            seat: PyArray1::zeros(py, n, false).unbind(),
            deal: PyArray1::zeros(py, n, false).unbind(),
            sampled: PyArray1::zeros(py, n, false).unbind(),
            spec: s,
        })
    }

    /// Start a deal in every env: ``(obs, mask, info)`` (module docs).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<ResetOut<'py>> {
        let seed = match seed.filter(|s| !s.is_none()) {
            Some(s) => Some(crate::convert::seed(s)?),
            None => None,
        };
        self.run(py, move |env, bufs| env.reset(seed, bufs))?;
        if let Some(s) = seed {
            self.seed.store(s, Ordering::Relaxed);
        }
        Ok((
            self.obs.bind(py).clone().into_any(),
            self.mask.bind(py).clone().into_any(),
            self.info(py)?,
        ))
    }

    /// One action per env: ``(obs, rewards, terminated, truncated, mask, info)``.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepOut<'py>> {
        let np = py.import("numpy")?;
        let arr = np.call_method1("asarray", (actions,))?;
        let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
        let ndim: usize = arr.getattr("ndim")?.extract()?;
        if !matches!(kind.as_str(), "i" | "u") || ndim != 1 {
            return Err(invalid(
                "actions",
                actions,
                format!("expected a 1-d array of integers, one per env ({})", self.spec.num_envs),
            ));
        }
        if kind == "u" {
            // Unsigned actions past 2^63 - 1 would wrap to negative ones in int64.
            let over = np.call_method1("greater", (&arr, i64::MAX))?;
            let big = np.call_method1("flatnonzero", (over,))?;
            if let Some(env) = big.try_iter()?.next() {
                let env: usize = env?.extract()?;
                let value = arr.get_item(env)?;
                return Err(invalid(
                    "action",
                    &value,
                    format!(
                        "not an action of this game for env {env} (at most {})",
                        self.spec.mask_len - 1
                    ),
                ));
            }
        }
        let arr = arr.call_method1("astype", (np.getattr("int64")?,))?;
        let arr = arr.cast::<PyArray1<i64>>()?;
        let a: Vec<i64> = arr.to_vec()?;
        self.run(py, move |env, bufs| env.step(&a, bufs))?;
        Ok((
            self.obs.bind(py).clone().into_any(),
            self.rewards.bind(py).clone().into_any(),
            self.terminated.bind(py).clone().into_any(),
            self.truncated.bind(py).clone().into_any(),
            self.mask.bind(py).clone().into_any(),
            self.info(py)?,
        ))
    }

    /// A uniformly random legal action (or move index) per env, drawn in Rust: int64 of shape
    /// ``(num_envs,)``, the same array every call (module docs of ``zhipai.envs``).
    fn sample_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let arr = self.sampled.bind(py).clone();
        {
            let mut env = self.lock(py)?;
            let mut rw = arr.try_readwrite().map_err(|e| unwritable(py, e))?;
            let out = rw
                .as_slice_mut()
                .map_err(|e| invalid("buffers", &PyString::new(py, "layout"), format!("{e}")))?;
            let env = env.as_mut();
            guard_detached(py, move || env.sample_actions(out))?;
        }
        Ok(arr)
    }

    /// Deals stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.spec.num_envs
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> usize {
        self.spec.num_players
    }

    /// ``(obs_len,)``: one env's observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, [self.spec.obs_len])
    }

    /// ``(mask_len,)``: one env's mask (the game's actions, or ``max_moves``).
    #[getter]
    fn mask_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, [self.spec.mask_len])
    }

    /// The game's integer action space.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.spec.num_actions
    }

    /// Moves listed per decision in ``"moves"`` style (0 in ``"actions"`` style).
    #[getter]
    fn max_moves(&self) -> usize {
        self.spec.features_len / 54
    }

    #[getter]
    fn action_style(&self) -> &'static str {
        self.style
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed.load(Ordering::Relaxed)
    }

    #[getter]
    fn controlled_seats(&self) -> Vec<usize> {
        self.controlled.clone()
    }

    #[getter]
    fn opponents(&self) -> String {
        self.opponents.clone()
    }

    /// The observation's fields ``(name, offset, length, meaning)``.
    fn observation_layout(&self) -> Vec<(String, usize, usize, String)> {
        self.spec
            .layout
            .iter()
            .map(|f| (f.name.to_string(), f.offset, f.len, f.meaning.to_string()))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv(num_envs={}, seed={}, controlled_seats={:?}, opponents='{}', action_style='{}')",
            self.spec.num_envs,
            self.seed(),
            self.controlled,
            self.opponents,
            self.style
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(observation_layout, m)?)?;
    Ok(())
}
