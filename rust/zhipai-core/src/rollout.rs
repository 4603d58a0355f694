//! Batch simulation of complete deals: the contract every game implements ([`DealSimulator`]),
//! and the driver that plays millions of deals on an owned rayon pool.
//!
//! Reproducibility: deal `i` of a run with seed `s` uses [`deal_rng`]`(s, i)` and nothing else,
//! so the rows (and the aggregates, which are exact integer sums) are identical for any thread
//! count and any chunk size. A run may start at any deal ([`RunOptions::first_deal`]): the rows
//! of deals `a..b` equal that slice of a run from deal 0, and the aggregates of consecutive
//! ranges merged ([`ColumnStats::merge`]) equal those of the whole range — which is how one
//! run is split over many machines.
//!
//! Two modes:
//! * [`simulate_rows`]: one row per deal, written straight into preallocated column buffers
//!   (struct of arrays, `deals × 4` bytes per column).
//! * [`simulate_aggregates`]: per-column streaming aggregates ([`ColumnStats`]: count, exact sums,
//!   min/max, exact histogram); memory is bounded whatever the number of deals.
//!
//! Cancellation: the driver polls a caller-owned stop flag before every deal and bumps a
//! progress counter as it goes ([`Control`]). On stop it returns the completed *prefix* of deals
//! `0..completed` with `interrupted = true`; deals past the prefix that happened to finish are
//! dropped (they were never reported), so the prefix equals a fresh run of `completed` deals.

use crate::deal::deal_rng;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;
use crate::policy::Policy;
use crate::rules::Rules;
use crate::simulator::DealSimulator;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The simulator of a rule set: every game's rules type implements [`DealSimulator`].
pub fn simulator(rules: &Rules) -> Result<&dyn DealSimulator> {
    Ok(match rules {
        Rules::Shengji(r) => r,
        Rules::HongWu(r) => r,
        Rules::Gongzhu(r) => r,
        Rules::Baohuang(r) => r,
    })
}

/// Most worker threads a run may ask for (a typo like `threads=100000` must not try to start
/// that many threads).
pub const MAX_THREADS: usize = 1024;

/// What to run: how many deals, from which seed, with which policy, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Number of deals, ≥ 1.
    pub deals: u64,
    /// Seed of the run; deal `i` uses `deal_rng(seed, i)`.
    pub seed: u64,
    /// Policy of every seat.
    pub policy: Policy,
    /// Worker threads, ≥ 1; `None` = every core.
    pub threads: Option<usize>,
    /// Deals per work unit, ≥ 1; `None` = a size that keeps every thread busy. Has no effect
    /// on the results, only on scheduling granularity (and how promptly a stop is seen).
    pub chunk_size: Option<usize>,
    /// Index of the first deal played (default 0): the run plays deals
    /// `first_deal..first_deal + deals` of `seed`, and row `i` of the result is deal
    /// `first_deal + i`. `first_deal + deals` must not exceed `u64::MAX`.
    pub first_deal: u64,
}

impl RunOptions {
    /// `deals` deals from `seed` with `policy`, every core, default chunking.
    pub fn new(deals: u64, seed: u64, policy: Policy) -> Self {
        RunOptions { deals, seed, policy, threads: None, chunk_size: None, first_deal: 0 }
    }

    fn validate(&self) -> Result<()> {
        if self.deals == 0 {
            return Err(ZhipaiError::invalid_value("deals", 0, "expected at least 1 deal"));
        }
        if let Some(t) = self.threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
            return Err(ZhipaiError::invalid_value(
                "threads",
                t,
                format!("expected 1 to {MAX_THREADS} threads"),
            ));
        }
        if self.chunk_size == Some(0) {
            return Err(ZhipaiError::invalid_value("chunk_size", 0, "expected at least 1 deal"));
        }
        if self.first_deal.checked_add(self.deals).is_none() {
            return Err(ZhipaiError::invalid_value(
                "first_deal",
                self.first_deal,
                format!("first_deal + deals ({}) exceeds 2**64 - 1", self.deals),
            ));
        }
        Ok(())
    }

    fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(cores)
    }

    fn chunk_len(&self, threads: usize) -> u64 {
        match self.chunk_size {
            Some(c) => c as u64,
            // Small enough that every thread gets several chunks (load balance, prompt stop),
            // large enough that the per-chunk bookkeeping is noise.
            None => (self.deals / (threads as u64 * 8)).clamp(1, 1024),
        }
    }
}

/// The threads a run takes when none are given: one per core the process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Caller-owned controls of a run: set `stop` to end it early; `progress` counts finished
/// deals (it is incremented, never reset, so one counter can span several runs).
#[derive(Clone, Copy, Debug)]
pub struct Control<'a> {
    pub stop: &'a AtomicBool,
    pub progress: &'a AtomicU64,
}

/// The result of a run: `value` covers deals `0..completed` of the run, i.e. deals
/// `first_deal..first_deal + completed` of the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Run<T> {
    pub value: T,
    /// Deals asked for.
    pub requested: u64,
    /// Deals in `value`: the completed prefix `0..completed`.
    pub completed: u64,
    /// The stop flag ended the run before every deal was played.
    pub interrupted: bool,
}

impl<T> Run<T> {
    /// The same run with its value transformed (the counts and the stop flag are kept).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Run<U> {
        Run {
            value: f(self.value),
            requested: self.requested,
            completed: self.completed,
            interrupted: self.interrupted,
        }
    }
}

/// Rows mode result: `data[c][i]` = column `c` of deal `i` (struct of arrays).
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    pub columns: Vec<Column>,
    pub data: Vec<Vec<i32>>,
}

/// Aggregate mode result: one [`ColumnStats`] per column.
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregates {
    pub columns: Vec<Column>,
    pub stats: Vec<ColumnStats>,
}

/// Play `opts.deals` deals of `sim` and keep every row. Memory: `deals × columns × 4` bytes,
/// reserved up front (an [`ZhipaiError::InvalidValue`] naming `deals` if it cannot be).
///
/// Errors: invalid options (naming the value); the first failing deal *in deal order*, its
/// message prefixed with the deal index and seed (same error type as the game returned).
pub fn simulate_rows(
    sim: &dyn DealSimulator,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Rows>> {
    let columns = sim.columns();
    let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| sim.play_deal(opts.policy, rng, row);
    Ok(run_rows(columns.len(), opts, ctl, &play)?.map(|data| Rows { columns, data }))
}

/// Play `opts.deals` deals of `sim`, folding each row into per-column [`ColumnStats`]; memory
/// does not grow with the number of deals. Same errors as [`simulate_rows`]. The aggregates
/// equal [`ColumnStats::from_values`] of the rows of [`simulate_rows`] exactly.
pub fn simulate_aggregates(
    sim: &dyn DealSimulator,
    opts: &RunOptions,
    ctl: Control<'_>,
) -> Result<Run<Aggregates>> {
    let columns = sim.columns();
    let play = |rng: &mut ChaCha8Rng, row: &mut [i32]| sim.play_deal(opts.policy, rng, row);
    Ok(run_aggregates(columns.len(), opts, ctl, &play)?.map(|stats| Aggregates { columns, stats }))
}

/// A function playing one deal from its generator into a row of fixed width.
pub type PlayFn<'a> = dyn Fn(&mut ChaCha8Rng, &mut [i32]) -> Result<()> + Sync + 'a;

/// Rows mode on any per-deal function of `width` columns (used by [`simulate_rows`] and by
/// hand evaluation). Returns `width` column buffers truncated to the completed prefix.
pub fn run_rows(
    width: usize,
    opts: &RunOptions,
    ctl: Control<'_>,
    play: &PlayFn<'_>,
) -> Result<Run<Vec<Vec<i32>>>> {
    opts.validate()?;
    let threads = opts.thread_count();
    let chunk = opts.chunk_len(threads);
    let n = usize::try_from(opts.deals).map_err(|_| {
        ZhipaiError::invalid_value(
            "deals",
            opts.deals,
            "too many deals to keep as rows; use aggregate mode",
        )
    })?;
    let mut data: Vec<Vec<i32>> = Vec::with_capacity(width);
    for _ in 0..width {
        let mut col = Vec::new();
        col.try_reserve_exact(n).map_err(|_| {
            ZhipaiError::invalid_value(
                "deals",
                opts.deals,
                format!("cannot allocate {width} columns of {n} rows; use aggregate mode"),
            )
        })?;
        col.resize(n, 0);
        data.push(col);
    }
    // Each chunk owns one disjoint slice of every column; a worker takes it once.
    let n_chunks = n.div_ceil(chunk as usize);
    let mut per_chunk: Vec<Vec<&mut [i32]>> =
        (0..n_chunks).map(|_| Vec::with_capacity(width)).collect();
    for col in data.iter_mut() {
        for (c, slice) in col.chunks_mut(chunk as usize).enumerate() {
            per_chunk[c].push(slice);
        }
    }
    let slots: Vec<Mutex<Option<Vec<&mut [i32]>>>> =
        per_chunk.into_iter().map(|s| Mutex::new(Some(s))).collect();
    let take = |c: usize| RowSink(lock(&slots[c]).take().expect("each chunk is taken once"));
    let (_, completed, interrupted) =
        drive(width, opts, threads, chunk, ctl, play, &take, (), |_, _| {})?;
    drop(slots);
    for col in data.iter_mut() {
        col.truncate(completed as usize);
    }
    Ok(Run { value: data, requested: opts.deals, completed, interrupted })
}

/// Aggregate mode on any per-deal function of `width` columns (see [`run_rows`]).
pub fn run_aggregates(
    width: usize,
    opts: &RunOptions,
    ctl: Control<'_>,
    play: &PlayFn<'_>,
) -> Result<Run<Vec<ColumnStats>>> {
    opts.validate()?;
    let threads = opts.thread_count();
    let chunk = opts.chunk_len(threads);
    let fresh = |_c: usize| StatsSink((0..width).map(|_| ColumnStats::new()).collect());
    let acc: Vec<ColumnStats> = (0..width).map(|_| ColumnStats::new()).collect();
    let absorb = |acc: &mut Vec<ColumnStats>, sink: StatsSink| {
        for (a, s) in acc.iter_mut().zip(&sink.0) {
            a.merge(s);
        }
    };
    let (stats, completed, interrupted) =
        drive(width, opts, threads, chunk, ctl, play, &fresh, acc, absorb)?;
    Ok(Run { value: stats, requested: opts.deals, completed, interrupted })
}

/// Where a chunk's rows go.
trait Sink: Send {
    /// Store `row`, the `offset`-th deal of the chunk.
    fn put(&mut self, offset: usize, row: &[i32]);
}

struct RowSink<'a>(Vec<&'a mut [i32]>);

impl Sink for RowSink<'_> {
    #[inline]
    fn put(&mut self, offset: usize, row: &[i32]) {
        for (col, &v) in self.0.iter_mut().zip(row) {
            col[offset] = v;
        }
    }
}

struct StatsSink(Vec<ColumnStats>);

impl Sink for StatsSink {
    #[inline]
    fn put(&mut self, _offset: usize, row: &[i32]) {
        for (s, &v) in self.0.iter_mut().zip(row) {
            s.push(v);
        }
    }
}

/// Finished chunks are absorbed into the accumulator in chunk order, up to the first chunk
/// that stopped early: what is absorbed is always a prefix `0..completed` of the deals.
struct Frontier<S, A> {
    next: usize,
    closed: bool,
    completed: u64,
    pending: BTreeMap<usize, (S, u64, bool)>,
    acc: A,
}

/// How many deals pass between two updates of the shared progress counter (a power of two).
const PROGRESS_STEP: u64 = 64;

#[allow(clippy::too_many_arguments)]
fn drive<S: Sink, A: Send>(
    width: usize,
    opts: &RunOptions,
    threads: usize,
    chunk: u64,
    ctl: Control<'_>,
    play: &PlayFn<'_>,
    make_sink: &(dyn Fn(usize) -> S + Sync),
    acc: A,
    absorb: impl Fn(&mut A, S) + Sync,
) -> Result<(A, u64, bool)> {
    let n_chunks = opts.deals.div_ceil(chunk) as usize;
    let next_chunk = AtomicUsize::new(0);
    // Lowest deal index that failed so far: chunks starting past it are not started, chunks
    // before it still run, so the error reported is the first failing deal in deal order.
    let first_error = AtomicU64::new(u64::MAX);
    let errors: Mutex<Vec<(u64, ZhipaiError)>> = Mutex::new(Vec::new());
    let frontier = Mutex::new(Frontier {
        next: 0,
        closed: false,
        completed: 0,
        pending: BTreeMap::new(),
        acc,
    });

    let worker = || {
        let mut row = vec![0i32; width];
        loop {
            let c = next_chunk.fetch_add(1, Ordering::Relaxed);
            if c >= n_chunks || ctl.stop.load(Ordering::Relaxed) {
                return;
            }
            let start = c as u64 * chunk;
            if start > first_error.load(Ordering::Relaxed) {
                return;
            }
            let end = (start + chunk).min(opts.deals);
            let mut sink = make_sink(c);
            let mut done = 0u64;
            for i in start..end {
                if ctl.stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut rng = deal_rng(opts.seed, opts.first_deal + i);
                if let Err(e) = play(&mut rng, &mut row) {
                    if ctl.stop.load(Ordering::Relaxed) {
                        // A deal the stop flag cut short (a search rollout checks the flag
                        // between decisions): not completed, and not an error.
                        break;
                    }
                    first_error.fetch_min(i, Ordering::Relaxed);
                    lock(&errors).push((i, e));
                    break;
                }
                sink.put((i - start) as usize, &row);
                done += 1;
                if done & (PROGRESS_STEP - 1) == 0 {
                    ctl.progress.fetch_add(PROGRESS_STEP, Ordering::Relaxed);
                }
            }
            ctl.progress.fetch_add(done % PROGRESS_STEP, Ordering::Relaxed);
            let full = done == end - start;
            let mut f = lock(&frontier);
            if f.closed || c < f.next {
                continue;
            }
            f.pending.insert(c, (sink, done, full));
            while let Some((s, d, full)) = {
                let next = f.next;
                f.pending.remove(&next)
            } {
                absorb(&mut f.acc, s);
                f.completed += d;
                f.next += 1;
                if !full {
                    f.closed = true;
                    f.pending.clear();
                    break;
                }
            }
        }
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("zhipai-sim-{i}"))
        .build()
        .map_err(|e| {
            ZhipaiError::invalid_value(
                "threads",
                threads,
                format!("cannot start the thread pool: {e}"),
            )
        })?;
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| worker());
        }
    });

    let mut errors = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some((i, e)) = errors.iter().min_by_key(|(i, _)| *i).cloned() {
        errors.clear();
        return Err(in_deal(e, opts.first_deal + i, opts.seed));
    }
    let f = frontier.into_inner().unwrap_or_else(|p| p.into_inner());
    let interrupted = f.completed < opts.deals;
    Ok((f.acc, f.completed, interrupted))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic in a game is caught at the binding; the data behind the lock stays consistent
    // (every critical section here is a few plain stores), so poisoning is not an error.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `err` with "deal I (seed S)" prepended to its reason, keeping its variant.
fn in_deal(err: ZhipaiError, index: u64, seed: u64) -> ZhipaiError {
    let at = format!("in deal {index} (seed {seed})");
    match err {
        ZhipaiError::InvalidCard { text } => {
            ZhipaiError::invalid_value("card", format!("{text:?}"), format!("{at}: not a card"))
        }
        ZhipaiError::InvalidValue { what, value, reason } => {
            ZhipaiError::InvalidValue { what, value, reason: format!("{at}: {reason}") }
        }
        ZhipaiError::InvalidOption { name, value, reason } => {
            ZhipaiError::InvalidOption { name, value, reason: format!("{at}: {reason}") }
        }
        ZhipaiError::IllegalPlay { play, reason } => {
            ZhipaiError::IllegalPlay { play, reason: format!("{at}: {reason}") }
        }
        ZhipaiError::ImpossibleDeal { reason } => {
            ZhipaiError::ImpossibleDeal { reason: format!("{at}: {reason}") }
        }
        e @ ZhipaiError::Interrupted { .. } => e,
    }
}

/// Smallest value with its own dense histogram bin.
pub const HIST_MIN: i32 = -256;
/// Number of dense histogram bins: values `HIST_MIN .. HIST_MIN + HIST_BINS` are counted in a
/// plain array (the fast path: most columns never leave it).
pub const HIST_BINS: usize = 512;
/// Most distinct values outside the dense bins that a column's histogram counts exactly. A
/// column with more has no histogram (only its exact moments, min and max). The engine's columns
/// stay far below it: Gongzhu's two-deck credited scores, the widest, take about 5,000 distinct
/// values in 400,000 deals, growing with the logarithm of the deals.
pub const HIST_MAX_SPARSE: usize = 1 << 16;

/// Streaming aggregate of one `i32` column: count, exact sum and sum of squares (so mean and
/// variance are exact and independent of the order deals are folded in), min, max, and an
/// exact histogram (value → count): dense bins for `HIST_MIN..HIST_MIN + HIST_BINS`, a hash map
/// for the other values, up to [`HIST_MAX_SPARSE`] distinct ones.
///
/// Why an exact sparse histogram rather than a quantile sketch (t-digest, KLL, DDSketch): every
/// column is an integer with few distinct values (points on a 5-point grid, seats, scores that
/// are sums of card values times small multipliers), so exact counts fit in little memory; and
/// exact counts merge by addition, so the aggregate of a run is the same for any thread count,
/// chunking or split over machines (a sketch's merge is approximate and, for t-digest and KLL,
/// depends on the merge order or a random stream), and its quantiles equal those of the rows.
/// Whether the histogram is kept depends only on the multiset of values (more than
/// [`HIST_MAX_SPARSE`] distinct values outside the dense bins), never on how it was split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnStats {
    pub count: u64,
    pub sum: i128,
    pub sum_sq: i128,
    /// `i32::MAX` while empty.
    pub min: i32,
    /// `i32::MIN` while empty.
    pub max: i32,
    hist: Box<[u64; HIST_BINS]>,
    /// Counts of the values outside the dense bins (empty once `overflowed`).
    sparse: HashMap<i32, u64, BuildHasherDefault<ValueHasher>>,
    /// More than [`HIST_MAX_SPARSE`] distinct values fell outside the dense bins: no histogram.
    pub overflowed: bool,
}

/// A fast hash of one `i32` (the murmur3 finaliser): the sparse histogram's keys are values,
/// not attacker-controlled, so no keyed hash is needed.
#[derive(Clone, Copy, Debug, Default)]
struct ValueHasher(u64);

impl Hasher for ValueHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }

    #[inline]
    fn write_i32(&mut self, v: i32) {
        self.0 = v as u32 as u64;
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

impl Default for ColumnStats {
    fn default() -> Self {
        Self::new()
    }
}

impl ColumnStats {
    /// The aggregate of no values.
    pub fn new() -> Self {
        ColumnStats {
            count: 0,
            sum: 0,
            sum_sq: 0,
            min: i32::MAX,
            max: i32::MIN,
            hist: Box::new([0; HIST_BINS]),
            sparse: HashMap::default(),
            overflowed: false,
        }
    }

    /// The aggregate of `values`.
    pub fn from_values(values: &[i32]) -> Self {
        let mut s = Self::new();
        for &v in values {
            s.push(v);
        }
        s
    }

    /// Fold in one value.
    #[inline]
    pub fn push(&mut self, v: i32) {
        self.count += 1;
        self.sum += v as i128;
        self.sum_sq += (v as i64 * v as i64) as i128;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        let bin = v as i64 - HIST_MIN as i64;
        if (0..HIST_BINS as i64).contains(&bin) {
            self.hist[bin as usize] += 1;
        } else if !self.overflowed {
            *self.sparse.entry(v).or_insert(0) += 1;
            if self.sparse.len() > HIST_MAX_SPARSE {
                self.overflow();
            }
        }
    }

    fn overflow(&mut self) {
        self.overflowed = true;
        self.sparse = HashMap::default();
    }

    /// Fold in another aggregate (commutative and associative: the result is exact).
    pub fn merge(&mut self, other: &ColumnStats) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        for (a, b) in self.hist.iter_mut().zip(other.hist.iter()) {
            *a += b;
        }
        if self.overflowed || other.overflowed {
            self.overflow();
            return;
        }
        for (&v, &c) in &other.sparse {
            *self.sparse.entry(v).or_insert(0) += c;
        }
        if self.sparse.len() > HIST_MAX_SPARSE {
            self.overflow();
        }
    }

    /// Mean, `NaN` when empty.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.count as f64
    }

    /// Sample variance (divisor `count - 1`), `NaN` below two values. Computed from the exact
    /// integer sums: `(n·Σx² − (Σx)²) / (n(n−1))`.
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            return f64::NAN;
        }
        let n = self.count as i128;
        let num =
            n.checked_mul(self.sum_sq).and_then(|a| self.sum.checked_mul(self.sum).map(|b| a - b));
        match num {
            Some(num) => num as f64 / (n * (n - 1)) as f64,
            None => {
                let mean = self.mean();
                (self.sum_sq as f64 - mean * self.sum as f64) / (self.count - 1) as f64
            }
        }
    }

    /// `(value, count)` for every value seen, ascending, unless more than
    /// [`HIST_MAX_SPARSE`] distinct values fell outside the dense bins (`None` then).
    pub fn histogram(&self) -> Option<Vec<(i32, u64)>> {
        if self.overflowed {
            return None;
        }
        let mut out: Vec<(i32, u64)> = self
            .hist
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(b, &c)| (b as i32 + HIST_MIN, c))
            .chain(self.sparse.iter().map(|(&v, &c)| (v, c)))
            .collect();
        out.sort_unstable();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::CoinGame;

    fn ctl<'a>(stop: &'a AtomicBool, progress: &'a AtomicU64) -> Control<'a> {
        Control { stop, progress }
    }

    fn rows(
        game: &CoinGame,
        deals: u64,
        seed: u64,
        threads: usize,
        chunk: Option<usize>,
    ) -> Run<Rows> {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions {
            threads: Some(threads),
            chunk_size: chunk,
            ..RunOptions::new(deals, seed, Policy::Random)
        };
        simulate_rows(game, &opts, ctl(&stop, &progress)).unwrap()
    }

    #[test]
    fn rows_are_independent_of_threads_and_chunks() {
        let g = CoinGame::default();
        let base = rows(&g, 1000, 7, 1, Some(1000));
        assert_eq!(base.completed, 1000);
        assert!(!base.interrupted);
        for (threads, chunk) in [(1, Some(1)), (2, Some(7)), (2, None), (3, Some(64))] {
            assert_eq!(
                rows(&g, 1000, 7, threads, chunk),
                base,
                "threads {threads} chunk {chunk:?}"
            );
        }
        assert_ne!(rows(&g, 1000, 8, 1, None).value, base.value, "another seed gives other deals");
    }

    #[test]
    fn deal_i_is_played_from_deal_rng_seed_i() {
        let g = CoinGame::default();
        let run = rows(&g, 50, 3, 2, Some(4));
        let mut row = [0i32; 4];
        for i in [0u64, 17, 49] {
            g.play_deal(Policy::Random, &mut deal_rng(3, i), &mut row).unwrap();
            let got: Vec<i32> = run.value.data.iter().map(|c| c[i as usize]).collect();
            assert_eq!(got, row.to_vec());
        }
        assert!(run.value.data[0].iter().all(|&h| (0..=10).contains(&h)));
        assert!(run.value.data[2].iter().zip(&run.value.data[0]).all(|(&d, &h)| d == 2 * h - 10));
    }

    #[test]
    fn aggregates_equal_aggregates_of_rows() {
        let g = CoinGame::default();
        let r = rows(&g, 3000, 11, 2, Some(100));
        for (threads, chunk) in [(1, None), (2, Some(33))] {
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let opts = RunOptions {
                threads: Some(threads),
                chunk_size: chunk,
                ..RunOptions::new(3000, 11, Policy::Random)
            };
            let a = simulate_aggregates(&g, &opts, ctl(&stop, &progress)).unwrap();
            assert_eq!(a.completed, 3000);
            assert_eq!(progress.load(Ordering::Relaxed), 3000);
            for (s, col) in a.value.stats.iter().zip(&r.value.data) {
                assert_eq!(*s, ColumnStats::from_values(col));
            }
        }
    }

    #[test]
    fn column_stats_are_exact() {
        let s = ColumnStats::from_values(&[1, 2, 3, 4, -300]);
        assert_eq!((s.count, s.sum, s.sum_sq, s.min, s.max), (5, -290, 90030, -300, 4));
        assert_eq!(s.mean(), -58.0);
        // Σ(x-mean)² = 90030 - 5·58² = 73210; /4
        assert!((s.variance() - 18302.5).abs() < 1e-9);
        assert_eq!(s.histogram().unwrap(), vec![(-300, 1), (1, 1), (2, 1), (3, 1), (4, 1)]);
        let h = ColumnStats::from_values(&[2, -1, 2, 255]).histogram().unwrap();
        assert_eq!(h, vec![(-1, 1), (2, 2), (255, 1)]);
        assert!(ColumnStats::new().mean().is_nan());
        assert!(ColumnStats::from_values(&[5]).variance().is_nan());
        let mut a = ColumnStats::from_values(&[1, 2]);
        a.merge(&ColumnStats::from_values(&[3, 4, -300]));
        assert_eq!(a, s);
    }

    #[test]
    fn stop_before_start_returns_nothing_interrupted() {
        let (stop, progress) = (AtomicBool::new(true), AtomicU64::new(0));
        let run = simulate_rows(
            &CoinGame::default(),
            &RunOptions::new(100, 1, Policy::Random),
            ctl(&stop, &progress),
        )
        .unwrap();
        assert_eq!((run.completed, run.interrupted), (0, true));
        assert!(run.value.data.iter().all(|c| c.is_empty()));
    }

    #[test]
    fn a_deal_cut_short_by_the_stop_flag_is_not_an_error() {
        // Deal 7 sees the stop (as a search rollout does between decisions) and gives up.
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions { threads: Some(1), ..RunOptions::new(20, 1, Policy::Random) };
        let count = AtomicU64::new(0);
        let play = |_: &mut ChaCha8Rng, row: &mut [i32]| {
            if count.fetch_add(1, Ordering::Relaxed) == 7 {
                stop.store(true, Ordering::Relaxed);
                return Err(ZhipaiError::Interrupted { completed: 0 });
            }
            row[0] = 1;
            Ok(())
        };
        let run = run_rows(1, &opts, ctl(&stop, &progress), &play).unwrap();
        assert_eq!((run.completed, run.interrupted), (7, true));
        // Without the stop flag the same failure is the run's error.
        stop.store(false, Ordering::Relaxed);
        count.store(0, Ordering::Relaxed);
        let fail = |_: &mut ChaCha8Rng, _: &mut [i32]| -> Result<()> {
            Err(ZhipaiError::invalid_value("deal", 0, "broken"))
        };
        assert!(run_rows(1, &opts, ctl(&stop, &progress), &fail).is_err());
    }

    #[test]
    fn interruption_keeps_the_completed_prefix() {
        let g = CoinGame { work: 50, ..CoinGame::default() };
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let deals = 2_000_000;
        let opts = RunOptions {
            threads: Some(2),
            chunk_size: Some(100),
            ..RunOptions::new(deals, 5, Policy::Random)
        };
        let run = std::thread::scope(|s| {
            s.spawn(|| {
                while progress.load(Ordering::Relaxed) < 2000 {
                    std::thread::yield_now();
                }
                stop.store(true, Ordering::Relaxed);
            });
            simulate_rows(&g, &opts, ctl(&stop, &progress)).unwrap()
        });
        assert!(run.interrupted);
        assert!(run.completed >= 1000 && run.completed < deals, "completed {}", run.completed);
        assert!(run.value.data.iter().all(|c| c.len() as u64 == run.completed));
        let fresh = rows(&g, run.completed, 5, 1, None);
        assert_eq!(run.value, fresh.value);
    }

    #[test]
    fn first_failing_deal_is_reported_with_its_index() {
        let g = CoinGame { fail_per_million: 2000, ..CoinGame::default() };
        // The first failing deal in index order, found one deal at a time.
        let first = (0u64..)
            .find(|&i| g.play_deal(Policy::Random, &mut deal_rng(9, i), &mut [0; 4]).is_err())
            .unwrap();
        for threads in [1, 2] {
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let opts = RunOptions {
                threads: Some(threads),
                chunk_size: Some(16),
                ..RunOptions::new(first + 5000, 9, Policy::Random)
            };
            let err = simulate_aggregates(&g, &opts, ctl(&stop, &progress)).unwrap_err();
            assert!(matches!(err, ZhipaiError::InvalidValue { .. }));
            assert!(err.to_string().contains(&format!("in deal {first} (seed 9)")), "{err}");
        }
    }

    #[test]
    fn bad_options_name_the_value() {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let g = CoinGame::default();
        for (opts, needle) in [
            (RunOptions::new(0, 1, Policy::Random), "deals 0"),
            (RunOptions { threads: Some(0), ..RunOptions::new(5, 1, Policy::Random) }, "threads 0"),
            (
                RunOptions { threads: Some(100_000), ..RunOptions::new(5, 1, Policy::Random) },
                "threads 100000",
            ),
            (
                RunOptions { chunk_size: Some(0), ..RunOptions::new(5, 1, Policy::Random) },
                "chunk_size 0",
            ),
        ] {
            let err = simulate_rows(&g, &opts, ctl(&stop, &progress)).unwrap_err();
            assert!(err.to_string().contains(needle), "{err}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn any_threads_and_chunks_give_the_sequential_rows(
            deals in 1u64..300, threads in 1usize..4, chunk in 1usize..50, seed in proptest::prelude::any::<u64>()
        ) {
            let g = CoinGame::default();
            let run = rows(&g, deals, seed, threads, Some(chunk));
            let mut row = [0i32; 4];
            for i in 0..deals {
                g.play_deal(Policy::Random, &mut deal_rng(seed, i), &mut row).unwrap();
                for (k, &v) in row.iter().enumerate() {
                    proptest::prop_assert_eq!(run.value.data[k][i as usize], v);
                }
            }
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let opts = RunOptions { threads: Some(threads), chunk_size: Some(chunk), ..RunOptions::new(deals, seed, Policy::Random) };
            let agg = simulate_aggregates(&g, &opts, ctl(&stop, &progress)).unwrap();
            for (s, col) in agg.value.stats.iter().zip(&run.value.data) {
                proptest::prop_assert_eq!(s, &ColumnStats::from_values(col));
            }
        }
    }

    /// Rows of deals `first..first + deals` of `seed`, on `threads` threads.
    fn range(game: &CoinGame, first: u64, deals: u64, seed: u64, threads: usize) -> Run<Rows> {
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions {
            threads: Some(threads),
            first_deal: first,
            ..RunOptions::new(deals, seed, Policy::Random)
        };
        simulate_rows(game, &opts, ctl(&stop, &progress)).unwrap()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn a_sub_range_equals_the_slice_of_the_full_run(
            total in 1u64..400, a in 0u64..400, len in 1u64..400, threads in 1usize..4,
            seed in proptest::prelude::any::<u64>()
        ) {
            let g = CoinGame::default();
            let first = a % total;
            let deals = len.min(total - first);
            let full = rows(&g, total, seed, 1, None);
            let part = range(&g, first, deals, seed, threads);
            proptest::prop_assert_eq!(part.completed, deals);
            let (lo, hi) = (first as usize, (first + deals) as usize);
            for (p, f) in part.value.data.iter().zip(&full.value.data) {
                proptest::prop_assert_eq!(&p[..], &f[lo..hi]);
            }
        }
    }

    #[test]
    fn merged_aggregates_of_sub_ranges_equal_the_full_run() {
        let g = CoinGame::default();
        let agg = |first: u64, deals: u64, threads: usize| {
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let opts = RunOptions {
                threads: Some(threads),
                first_deal: first,
                ..RunOptions::new(deals, 21, Policy::Random)
            };
            simulate_aggregates(&g, &opts, ctl(&stop, &progress)).unwrap().value.stats
        };
        let full = agg(0, 5000, 2);
        // Uneven ranges, merged in an order other than deal order: the merge is exact.
        let mut merged = agg(3100, 1900, 1);
        for (first, deals) in [(0, 7), (7, 993), (1000, 2100)] {
            for (m, s) in merged.iter_mut().zip(agg(first, deals, 2)) {
                m.merge(&s);
            }
        }
        assert_eq!(merged, full);
        // The wide `score` column (values far outside the dense bins) keeps its exact histogram.
        let hist = full[1].histogram().unwrap();
        assert_eq!(hist.iter().map(|&(_, c)| c).sum::<u64>(), 5000);
        assert!(hist.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!((hist[0].0, hist[hist.len() - 1].0), (full[1].min, full[1].max));
    }

    #[test]
    fn wide_values_have_an_exact_histogram_merged_in_any_split() {
        let values: Vec<i32> =
            (0..20_000).map(|i| ((i * 7919) % 4001 - 2000) * 1_000 + (i % 3)).collect();
        let whole = ColumnStats::from_values(&values);
        let hist = whole.histogram().unwrap();
        let mut sorted = values.clone();
        sorted.sort_unstable();
        let mut expected: Vec<(i32, u64)> = Vec::new();
        for v in sorted {
            match expected.last_mut() {
                Some((last, c)) if *last == v => *c += 1,
                _ => expected.push((v, 1)),
            }
        }
        assert_eq!(hist, expected);
        for cut in [1, 999, 10_000, 19_999] {
            let mut a = ColumnStats::from_values(&values[cut..]);
            a.merge(&ColumnStats::from_values(&values[..cut]));
            assert_eq!(a, whole, "cut {cut}");
        }
        assert_eq!(
            ColumnStats::from_values(&[i32::MIN, i32::MAX]).histogram().unwrap(),
            vec![(i32::MIN, 1), (i32::MAX, 1)]
        );
    }

    #[test]
    fn too_many_distinct_values_drop_the_histogram_whatever_the_split() {
        let limit = HIST_MAX_SPARSE as i32;
        // Exactly the limit of distinct values outside the dense bins: kept.
        let at: Vec<i32> = (0..limit).map(|i| 1000 + i).collect();
        assert_eq!(ColumnStats::from_values(&at).histogram().unwrap().len(), HIST_MAX_SPARSE);
        // One more: dropped, whether pushed at once or merged from halves that each fit.
        let over: Vec<i32> = (0..=limit).map(|i| -1000 - i).collect();
        let whole = ColumnStats::from_values(&over);
        assert!(whole.overflowed && whole.histogram().is_none());
        let half = over.len() / 2;
        let mut a = ColumnStats::from_values(&over[..half]);
        assert!(a.histogram().is_some());
        a.merge(&ColumnStats::from_values(&over[half..]));
        assert_eq!(a, whole);
        let mut b = ColumnStats::from_values(&over[half..]);
        b.merge(&ColumnStats::from_values(&over[..half]));
        assert_eq!(b, whole);
        // Dense values never count towards the limit, and the moments stay exact.
        let mut c = whole.clone();
        c.push(5);
        assert_eq!((c.count, c.min, c.max), (whole.count + 1, whole.min, 5));
    }

    #[test]
    fn first_deal_names_the_deal_in_errors_and_overflow() {
        let g = CoinGame { fail_per_million: 2000, ..CoinGame::default() };
        let first = (1000u64..)
            .find(|&i| g.play_deal(Policy::Random, &mut deal_rng(9, i), &mut [0; 4]).is_err())
            .unwrap();
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions {
            first_deal: 1000,
            ..RunOptions::new(first + 10 - 1000, 9, Policy::Random)
        };
        let err = simulate_rows(&g, &opts, ctl(&stop, &progress)).unwrap_err();
        assert!(err.to_string().contains(&format!("in deal {first} (seed 9)")), "{err}");
        let over = RunOptions { first_deal: u64::MAX - 4, ..RunOptions::new(5, 1, Policy::Random) };
        let err = simulate_rows(&g, &over, ctl(&stop, &progress)).unwrap_err();
        assert!(matches!(err, ZhipaiError::InvalidValue { .. }));
        assert!(err.to_string().contains(&format!("first_deal {}", u64::MAX - 4)), "{err}");
        // The last representable range is fine.
        let last = RunOptions { first_deal: u64::MAX - 5, ..RunOptions::new(5, 1, Policy::Random) };
        let run = simulate_rows(&CoinGame::default(), &last, ctl(&stop, &progress)).unwrap();
        let mut row = [0i32; 4];
        CoinGame::default()
            .play_deal(Policy::Random, &mut deal_rng(1, u64::MAX - 1), &mut row)
            .unwrap();
        assert_eq!(run.value.data.iter().map(|c| c[4]).collect::<Vec<_>>(), row.to_vec());
    }

    #[test]
    fn policy_reaches_the_game() {
        let g = CoinGame::default();
        let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
        let opts = RunOptions::new(10, 1, Policy::Greedy);
        let run = simulate_rows(&g, &opts, ctl(&stop, &progress)).unwrap();
        assert!(run.value.data[3].iter().all(|&v| v == 1));
    }

    #[test]
    fn every_preset_simulates_through_the_driver() {
        for preset in crate::rules::PRESETS {
            let r = crate::rules(preset, &[]).unwrap();
            let sim = simulator(&r).unwrap();
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let opts = RunOptions {
                threads: Some(2),
                chunk_size: Some(2),
                ..RunOptions::new(6, 1, Policy::Random)
            };
            let run = simulate_rows(sim, &opts, ctl(&stop, &progress)).unwrap();
            assert_eq!(run.completed, 6, "{preset}");
            assert_eq!(run.value.data.len(), sim.columns().len(), "{preset}");
            assert!(run.value.data.iter().all(|c| c.len() == 6), "{preset}");
        }
    }
}
