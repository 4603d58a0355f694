//! Long computations with the GIL released: the one helper every long-running entry point goes
//! through ([`run_polled`]).
//!
//! The job runs on its own thread (the core drives its rayon pool from there) and never holds the
//! GIL; the calling thread waits with the GIL released, waking every [`POLL`] to check Python
//! signals (Ctrl-C) and to call the progress callback. A signal, a callback that raises, or a
//! callback that returns `False` sets the job's stop flag; the completed prefix is still returned
//! (with the pending exception, which the Python layer raises with the result attached).

use crate::errors::guard;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use zhipai_core::game::Column;
use zhipai_core::rollout::{ColumnStats, Control};
use zhipai_core::ZhipaiError;

/// How often the waiting thread checks signals and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Run `job` on a worker thread with the GIL released; poll signals and `progress` meanwhile.
/// Returns the job's value and the Python exception that stopped it, if any.
pub fn run_polled<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce(Control<'_>) -> Result<T, ZhipaiError> + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let stop = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let ctl = Control { stop: &stop, progress: &done };
    std::thread::scope(|s| {
        let (tx, mut rx) = mpsc::channel::<()>();
        let handle = s.spawn(move || {
            let r = guard(|| job(ctl));
            let _ = tx.send(());
            r
        });
        let mut pending: Option<PyErr> = None;
        loop {
            // Wait with the GIL released; the receiver moves in and out (it is not Sync).
            let (finished, back) = py.detach(move || {
                let finished =
                    !matches!(rx.recv_timeout(POLL), Err(mpsc::RecvTimeoutError::Timeout));
                (finished, rx)
            });
            rx = back;
            if finished {
                break;
            }
            if pending.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                pending = Some(e);
            } else if let Some(cb) = progress {
                if let Err(e) = report(cb, done.load(Ordering::Relaxed), total, &stop) {
                    pending = Some(e);
                }
            }
        }
        let value = handle.join().unwrap_or_else(|_| {
            Err(crate::errors::ZhipaiErrorPy::new_err(
                "internal error (please report): worker thread died",
            ))
        })?;
        if let (None, Some(cb)) = (&pending, progress) {
            pending = report(cb, done.load(Ordering::Relaxed), total, &stop).err();
        }
        Ok((value, pending))
    })
}

/// Call `cb(done, total)`; `False` sets `stop`, an exception sets `stop` and is returned.
fn report(cb: &Bound<'_, PyAny>, done: u64, total: u64, stop: &AtomicBool) -> PyResult<()> {
    match cb.call1((done, total)) {
        Ok(v) => {
            if v.is(pyo3::types::PyBool::new(cb.py(), false).as_any()) {
                stop.store(true, Ordering::Relaxed);
            }
            Ok(())
        }
        Err(e) => {
            stop.store(true, Ordering::Relaxed);
            Err(e)
        }
    }
}

/// The column statistics as a dict: `count`, `sum`, `sum_sq` (exact ints), `min`, `max`,
/// `histogram` (list of `(value, count)`, or `None` when a value fell outside -256..256).
pub fn stats_dict<'py>(py: Python<'py>, s: &ColumnStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("count", s.count)?;
    d.set_item("sum", s.sum)?;
    d.set_item("sum_sq", s.sum_sq)?;
    d.set_item("min", s.min)?;
    d.set_item("max", s.max)?;
    d.set_item("histogram", s.histogram())?;
    Ok(d)
}

pub(crate) fn columns_into(d: &Bound<'_, PyDict>, columns: &[Column]) -> PyResult<()> {
    d.set_item("columns", columns.iter().map(|c| c.name).collect::<Vec<_>>())?;
    d.set_item("docs", columns.iter().map(|c| c.doc).collect::<Vec<_>>())?;
    Ok(())
}

/// `cols` as a list of int32 numpy arrays (numpy takes ownership of each `Vec`: no copy).
pub fn arrays<'py>(py: Python<'py>, cols: Vec<Vec<i32>>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for col in cols {
        list.append(PyArray1::from_vec(py, col))?;
    }
    Ok(list)
}

/// The end of every run's dict: `requested`, `completed`, `interrupted` and the `exception` that
/// stopped it (Ctrl-C, a raising progress callback), which the Python layer raises with the
/// result attached.
pub fn status_into(
    py: Python<'_>,
    d: &Bound<'_, PyDict>,
    (requested, completed, interrupted): (u64, u64, bool),
    exc: Option<PyErr>,
) -> PyResult<()> {
    d.set_item("requested", requested)?;
    d.set_item("completed", completed)?;
    d.set_item("interrupted", interrupted)?;
    d.set_item("exception", exc.map(|e| e.into_value(py)))
}
