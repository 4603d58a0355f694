//! A step's work shared between the calling thread and a rayon pool's workers.
//!
//! `ThreadPool::install` parks the caller until the pool is done, and a vector-env step is
//! short (hundreds of µs): on a virtual machine the caller's wake-up alone cost about as much
//! as 100 envs' steps, and the workers slept between steps. Here the caller works too: every
//! thread claims pieces, first from its own share of them and then from the others' (see
//! [`Shares`]), so a worker that wakes late only takes fewer pieces, and the caller waits for
//! the last piece by spinning, never asleep.
//!
//! Between calls the workers keep spinning for a short while ([`WARM`]) instead of going to
//! sleep: a Python loop calls again within tens of µs, and a virtual CPU left idle that long is
//! halted by the host. Measured on the 2-core VM (2048 Gongzhu envs): a sleeping worker joined
//! a step 150 µs late on average, an eighth of the step. The same idea as OpenMP's active wait
//! policy, bounded here to a millisecond of spinning after each call.

use crate::error::{Result, ZhipaiError};
use rayon::ThreadPool;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a worker spins after a call, waiting for the next one.
pub const WARM: Duration = Duration::from_millis(1);

/// The caller and a pool of workers that run calls together.
pub struct Team {
    pool: ThreadPool,
    workers: usize,
    /// The process that started the pool: a forked child has none of its threads.
    pid: u32,
    /// Calls started: a warm worker stops spinning when it changes.
    calls: Arc<AtomicU64>,
    /// How long the workers spin after a call ([`WARM`]; zero when the team has more threads
    /// than the machine has cores, where spinning would only take turns from real work).
    warm: Duration,
}

impl Team {
    /// The caller and `workers` pool threads. Errors (`InvalidValue` naming `threads`): the
    /// pool cannot start.
    pub fn new(workers: usize) -> Result<Team> {
        let warm = if workers < crate::rollout::cores() { WARM } else { Duration::ZERO };
        Team::with_warm(workers, warm)
    }

    fn with_warm(workers: usize, warm: Duration) -> Result<Team> {
        Ok(Team {
            pool: start_pool(workers)?,
            workers,
            pid: std::process::id(),
            calls: Arc::new(AtomicU64::new(0)),
            warm,
        })
    }

    /// Threads working on a call: the caller and the pool's workers.
    pub fn threads(&self) -> usize {
        1 + self.workers
    }

    /// Run `f` on every item of `items`, on the calling thread and one job per worker of the
    /// pool (no more than there are items to share). Every item is run (an error does not stop
    /// the others: an env's step depends on no other); the error returned is the one of the
    /// lowest-indexed failing item, whatever the timing. In a process forked after the pool
    /// started, a new pool is started first (the child has none of the old one's threads:
    /// waiting for them never ended).
    pub fn run<T, F>(&mut self, items: Vec<T>, f: F) -> Result<()>
    where
        T: Send,
        F: Fn(T) -> Result<()> + Sync,
    {
        if std::process::id() != self.pid {
            // Dropping the old pool would signal threads this process does not have.
            std::mem::forget(std::mem::replace(&mut self.pool, start_pool(self.workers)?));
            self.pid = std::process::id();
            self.calls = Arc::new(AtomicU64::new(0));
        }
        // Wake the warm workers out of their spin: the call's jobs are next in the pool.
        self.calls.fetch_add(1, Ordering::Release);
        let result = run_shared(&self.pool, items, f);
        if !self.warm.is_zero() {
            self.keep_warm();
        }
        result
    }

    /// One spinning job per worker, until the next call starts or `warm` has passed.
    fn keep_warm(&self) {
        let call = self.calls.load(Ordering::Acquire);
        let warm = self.warm;
        for _ in 0..self.pool.current_num_threads() {
            let calls = Arc::clone(&self.calls);
            self.pool.spawn(move || {
                let start = Instant::now();
                let mut spins = 0u32;
                while calls.load(Ordering::Acquire) == call {
                    spins = spins.wrapping_add(1);
                    // The clock now and then; a yield lets a shared core run something else.
                    if spins.is_multiple_of(256) {
                        if start.elapsed() > warm {
                            break;
                        }
                        std::thread::yield_now();
                    } else {
                        std::hint::spin_loop();
                    }
                }
            });
        }
    }
}

/// A pool of `workers` threads named `zhipai-env-K`.
fn start_pool(workers: usize) -> Result<ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("zhipai-env-{i}"))
        .build()
        .map_err(|e| {
            ZhipaiError::invalid_value(
                "threads",
                workers + 1,
                format!("cannot start the thread pool: {e}"),
            )
        })
}

/// Run `f` on every item of `items`, on the calling thread and one job per worker of `pool`
/// ([`Team::run`] without the warm workers).
fn run_shared<T, F>(pool: &ThreadPool, items: Vec<T>, f: F) -> Result<()>
where
    T: Send,
    F: Fn(T) -> Result<()> + Sync,
{
    let n = items.len();
    let cells: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    // A job per worker, but no more than there are items besides the caller's first one.
    let helpers = pool.current_num_threads().min(n.saturating_sub(1));
    let shares = Shares::new(n, 1 + helpers);
    let failed: Mutex<Option<(usize, ZhipaiError)>> = Mutex::new(None);
    let work = |me: usize| {
        while let Some(i) = shares.claim(me) {
            // Each index is claimed once, so the lock is never contended.
            let item = cells[i].lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(Err(e)) = item.map(&f) {
                let mut slot = failed.lock().unwrap_or_else(PoisonError::into_inner);
                if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                    *slot = Some((i, e));
                }
            }
        }
    };
    let busy = AtomicUsize::new(helpers);
    pool.in_place_scope(|s| {
        for me in 1..=helpers {
            let (work, busy) = (&work, &busy);
            s.spawn(move |_| {
                // Counted down even if `f` panics (the scope then re-raises the panic).
                let _done = CountDown(busy);
                work(me);
            });
        }
        work(0);
        wait_for(&busy);
    });
    match failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// Items `0..n` split into one contiguous share per thread. A thread takes the items of its
/// own share in order, then what is left of the other shares: the same thread mostly steps the
/// same envs call after call (their states stay in its core's cache), and a thread that starts
/// late only leaves more of its share to the others.
struct Shares {
    next: Vec<AtomicUsize>,
    ends: Vec<usize>,
}

impl Shares {
    fn new(n: usize, threads: usize) -> Shares {
        let start = |k: usize| k * n / threads;
        Shares {
            next: (0..threads).map(|k| AtomicUsize::new(start(k))).collect(),
            ends: (0..threads).map(|k| start(k + 1)).collect(),
        }
    }

    /// The next unclaimed item for thread `me`, or `None` when every item is claimed.
    fn claim(&self, me: usize) -> Option<usize> {
        let t = self.ends.len();
        (0..t).map(|k| (me + k) % t).find_map(|k| {
            // Past its end a counter only grows: a share once empty stays empty.
            let i = self.next[k].fetch_add(1, Ordering::Relaxed);
            (i < self.ends[k]).then_some(i)
        })
    }
}

/// Decrements its counter when dropped.
struct CountDown<'a>(&'a AtomicUsize);

impl Drop for CountDown<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Release);
    }
}

/// Spin until `busy` is 0: the helpers are at most one piece from done, far shorter than a
/// sleeping thread's wake-up. Yields now and then so a shared core is not held.
fn wait_for(busy: &AtomicUsize) {
    let mut spins = 0u32;
    while busy.load(Ordering::Acquire) != 0 {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_every_item_once() {
        let mut team = Team::new(2).unwrap();
        let seen: Vec<AtomicUsize> = (0..100).map(|_| AtomicUsize::new(0)).collect();
        let items: Vec<usize> = (0..100).collect();
        team.run(items, |i| {
            seen[i].fetch_add(1, Ordering::Relaxed);
            Ok(())
        })
        .unwrap();
        assert!(seen.iter().all(|c| c.load(Ordering::Relaxed) == 1));
    }

    #[test]
    fn reports_the_lowest_failing_item() {
        let mut team = Team::new(3).unwrap();
        for _ in 0..20 {
            let items: Vec<usize> = (0..64).collect();
            let err = team
                .run(items, |i| {
                    if i % 10 == 7 {
                        Err(ZhipaiError::invalid_value("item", i, "odd one"))
                    } else {
                        Ok(())
                    }
                })
                .unwrap_err();
            assert!(err.to_string().contains("item 7"), "{err}");
        }
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        let mut team = Team::new(1).unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            team.run((0..8).collect(), |i: usize| {
                assert!(i != 5, "boom");
                Ok(())
            })
        }));
        assert!(caught.is_err());
    }

    #[test]
    fn a_call_after_a_call_does_not_wait_for_the_warm_workers() {
        // Spins of 2 s: 5 calls that each waited for the spin to end would take 8 s; ended by
        // the next call they take milliseconds (the 4 s bound leaves room for a test machine
        // running other tests on every core).
        let mut team = Team::with_warm(1, Duration::from_secs(2)).unwrap();
        let t0 = Instant::now();
        for _ in 0..5 {
            team.run((0..4).collect(), |_: usize| Ok(())).unwrap();
        }
        let took = t0.elapsed();
        team.calls.fetch_add(1, Ordering::Release); // end the last spin
        assert!(took < Duration::from_secs(4), "{took:?}");
    }
}
