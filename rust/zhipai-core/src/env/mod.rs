//! Vectorised environments for reinforcement learning, written once over the game contract
//! ([`GameState`]) and dispatched per game with [`crate::with_game!`]: `num_envs` deals stepped
//! together by the calling thread and the threads of an owned rayon pool (module `team`), writing
//! into buffers the caller allocated once ([`Buffers`]; the Python binding hands numpy arrays'
//! memory here), so a step allocates no per-env output.
//!
//! **Deals.** Env `i` plays deals `i, i + num_envs, i + 2·num_envs, …` of the run seeded `seed`
//! (`Game::new_deal(seed, index)`: the cards and chance events of `simulate`). The seats not in
//! `controlled` are played here by `opponents` (a built-in policy draws from the deal's own
//! generator as `simulate` does, a search player from the deal's search generator
//! [`crate::search::search_rng`]); each env's course depends only on its deals and the actions it
//! is given, so results are identical for any number of threads.
//!
//! **Decisions.** After every reset and step, each env waits for a controlled seat to decide
//! (`seat` says which; with several controlled seats the agent acts for whichever is to move).
//! Two action styles:
//! * [`ActionStyle::Actions`]: the game's integer actions (`0..num_distinct_actions`, multi-card
//!   moves built card by card, one step per action) with the exact legal-action mask;
//! * [`ActionStyle::Moves`]: an index into the first `max_moves` legal whole moves in the game's
//!   `legal_moves` order, described by their 54 card counts (`features`, zero rows for moves
//!   without cards and for padding), the mask true for the `num_moves` listed ones.
//!
//! **Rewards** (`rewards[env * num_players + seat]`, zero for uncontrolled seats): with
//! [`Reward::Return`], zero on every step but the one that ends the deal, where each controlled
//! seat gets its return (`GameState::returns`: levels in the Shengji family, score in the other
//! games), all on that one step. With [`Reward::Points`] (per-trick shaping), each step gives
//! each controlled seat the change in its [`GameState::points_won`] since the env's previous
//! step (the moves of the opponents in between included): card points of the tricks it won in
//! the Shengji family and Hong Wu, the raw score of the cards it took (with the exposure so far)
//! in Gongzhu; they add up over a deal to the seat's points at its end (not its return: the kitty
//! and the final scoring are not in them). Baohuang has no such points (`InvalidValue`).
//!
//! **Auto-reset** (Gymnasium's *next-step* mode): the step that ends env `i`'s deal returns the
//! final observation (of the seat that acted last), an all-false mask, the rewards and
//! `terminated[i] = true`. The next step ignores `actions[i]`, starts env `i`'s next deal and
//! returns its first observation with zero rewards, `terminated[i] = false` and `reset[i] = true`.
//! A deal always ends, so `truncated` is always false.
//!
//! **Errors.** A step first checks every env's action (an action the mask does not allow, an
//! index at or past `num_moves`): on an illegal one it returns `IllegalPlay` naming the env, the
//! seat and the action, and changes nothing. An error of the game or of an opponent while envs
//! are stepped (none is expected: the actions were checked) leaves them part-stepped: `reset`.

use crate::error::{Result, ZhipaiError};
use crate::game::{Game, GameRng, GameState, TensorField};
use crate::rules::Rules;
use crate::search::{search_rng, Player};
use rand::Rng;

mod team;

/// Card counts per move in [`ActionStyle::Moves`] (one per card kind, `NUM_KINDS`).
pub const MOVE_FEATURES: usize = crate::cards::NUM_KINDS;

/// How the agent's actions are read (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionStyle {
    /// The game's integer actions with the exact legal-action mask.
    Actions,
    /// An index into the listed legal whole moves.
    Moves,
}

impl std::str::FromStr for ActionStyle {
    type Err = ZhipaiError;
    fn from_str(s: &str) -> Result<ActionStyle> {
        match s {
            "actions" => Ok(ActionStyle::Actions),
            "moves" => Ok(ActionStyle::Moves),
            _ => Err(ZhipaiError::invalid_value(
                "action_style",
                format!("{s:?}"),
                "expected \"actions\" or \"moves\"",
            )),
        }
    }
}

/// What the rewards are (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Each controlled seat's return, on the step that ends the deal.
    Return,
    /// Each controlled seat's gain in [`GameState::points_won`] since the env's last step.
    Points,
}

impl std::str::FromStr for Reward {
    type Err = ZhipaiError;
    fn from_str(s: &str) -> Result<Reward> {
        match s {
            "return" => Ok(Reward::Return),
            "points" => Ok(Reward::Points),
            _ => Err(ZhipaiError::invalid_value(
                "reward",
                format!("{s:?}"),
                "expected \"return\" or \"points\"",
            )),
        }
    }
}

/// The settings of a vector env.
#[derive(Clone, Debug, PartialEq)]
pub struct EnvConfig {
    /// Deals stepped together (at least 1).
    pub num_envs: usize,
    /// The run's seed: env `i` plays deals `i, i + num_envs, …` of it.
    pub seed: u64,
    /// The seats the agent plays (distinct, ascending, at least one).
    pub controlled: Vec<usize>,
    /// The player of every other seat.
    pub opponents: Player,
    /// Threads stepping the envs, the calling thread included: 0 = one per core, 1 = the
    /// calling thread only.
    pub threads: usize,
    pub action_style: ActionStyle,
    pub reward: Reward,
    /// Moves listed per decision in [`ActionStyle::Moves`] (at least 1; not read otherwise).
    pub max_moves: usize,
}

/// The sizes of the buffers of a vector env, per env.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub num_envs: usize,
    pub num_players: usize,
    /// Observation floats per env (the layout's length).
    pub obs_len: usize,
    /// The game's integer action space.
    pub num_actions: usize,
    /// Mask entries per env: `num_actions` ([`ActionStyle::Actions`]) or `max_moves`.
    pub mask_len: usize,
    /// Feature bytes per env: `max_moves * 54` ([`ActionStyle::Moves`]) or 0.
    pub features_len: usize,
    pub layout: Vec<TensorField>,
    /// Bytes the env itself keeps per env (its deal in progress, generators and lists; an
    /// estimate, without the caller's buffers), for refusing more envs than memory holds.
    pub state_bytes: usize,
}

impl Spec {
    /// Bytes per env of the caller's buffers ([`Buffers`], the sampled actions included) and
    /// of the env's own state.
    pub fn bytes_per_env(&self) -> usize {
        let rows = 4 * self.obs_len + self.mask_len + self.features_len + 4 * self.num_players;
        // num_moves, seat, deal and the sampled action (8 bytes each), three flags.
        rows + 4 * 8 + 3 + self.state_bytes
    }
}

/// The caller's buffers, written by [`VectorEnv::reset`] and [`VectorEnv::step`]; every slice is
/// `num_envs` rows of the [`Spec`]'s width, row `i` for env `i`.
pub struct Buffers<'a> {
    /// `[num_envs, obs_len]`: the observation of the seat in `seat`.
    pub obs: &'a mut [f32],
    /// `[num_envs, mask_len]`: the legal actions, or the listed moves.
    pub mask: &'a mut [bool],
    /// `[num_envs, max_moves, 54]` card counts of the listed moves (empty in `Actions` style).
    pub features: &'a mut [u8],
    /// `[num_envs]` moves listed (`Moves` style; 0 in `Actions` style and at the end of a deal).
    pub num_moves: &'a mut [i64],
    /// `[num_envs, num_players]`.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// `[num_envs]`: whether the env started a new deal in this call (its action was ignored).
    pub reset: &'a mut [bool],
    /// `[num_envs]`: the controlled seat to decide (at the end of a deal: the one that acted).
    pub seat: &'a mut [i64],
    /// `[num_envs]`: the index of the deal being played.
    pub deal: &'a mut [u64],
}

/// A vector env of any game (module docs).
pub trait VectorEnv: Send + Sync {
    fn spec(&self) -> &Spec;
    /// Start a new deal in every env and write its first decision: with `seed`, env `i` starts
    /// over at deal `i` of `seed`; without, it moves on to its next deal. Errors: buffers of the
    /// wrong size (`InvalidValue`), the game's or a player's.
    fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) -> Result<()>;
    /// One action per env (module docs). Errors: `InvalidValue` for a wrong number of actions or
    /// buffers of the wrong size, `IllegalPlay` naming the env and the action (nothing changed).
    fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<()>;
    /// A uniformly random legal action (or move index) per env into `out` (`num_envs` long),
    /// drawn from the env's sampling generator ([`sampler_rng`] of its deal, restarted with each
    /// deal), so the draws too are the same for any thread count; 0 for an env whose deal just
    /// ended (its next step ignores the action). Errors: `InvalidValue` before `reset` or for
    /// `out` of the wrong length.
    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()>;
}

/// Salt of the sampling generators of [`VectorEnv::sample_actions`].
pub const SAMPLER_SALT: u64 = 0x5A3B_1E00_0000_0001;

/// The sampling generator of deal `index` of a run seeded `seed`.
pub fn sampler_rng(seed: u64, index: u64) -> GameRng {
    crate::deal::deal_rng(seed ^ SAMPLER_SALT, index)
}

/// The vector env of `rules` with `cfg`. Errors (`InvalidValue`): `num_envs` or `max_moves` 0,
/// controlled seats empty, repeated or out of range; a thread pool that cannot start.
// One arm per game: some games' rules are `Copy`, others only `Clone`.
#[allow(clippy::clone_on_copy)]
pub fn vector_env(rules: &Rules, cfg: EnvConfig) -> Result<Box<dyn VectorEnv>> {
    crate::with_game!(rules, g => {
        let env: Box<dyn VectorEnv> = Box::new(Envs::new(g.clone(), cfg)?);
        Ok(env)
    })
}

/// The observation layout of `rules` (the same for every deal of the rule set).
pub fn observation_layout(rules: &Rules) -> Result<Vec<TensorField>> {
    crate::with_game!(rules, g => Ok(g.new_deal(0, 0)?.observation_layout()))
}

/// One env: its deal and what the last decision offered.
struct Slot<S: GameState> {
    state: S,
    deal: u64,
    search: GameRng,
    /// The generator of [`VectorEnv::sample_actions`] for this deal.
    sampler: GameRng,
    /// The controlled seat deciding, or at the end the one that acted last.
    seat: usize,
    /// [`Reward::Points`]: each seat's points when the env last wrote its rewards.
    points: Vec<f64>,
    /// The deal ended on the last call: the next step starts the next deal.
    done: bool,
    /// `Actions` style: the legal actions offered, ascending.
    legal: Vec<usize>,
    /// `Moves` style: the moves offered.
    moves: Vec<S::Move>,
}

struct Envs<G: Game> {
    game: G,
    cfg: EnvConfig,
    spec: Spec,
    controlled: Vec<bool>,
    slots: Vec<Slot<G::State>>,
    pool: Option<team::Team>,
}

/// One env's rows of the buffers.
struct Row<'b> {
    obs: &'b mut [f32],
    mask: &'b mut [bool],
    features: &'b mut [u8],
    num_moves: &'b mut i64,
    rewards: &'b mut [f32],
    terminated: &'b mut bool,
    truncated: &'b mut bool,
    reset: &'b mut bool,
    seat: &'b mut i64,
    deal: &'b mut u64,
}

impl<G: Game + 'static> Envs<G> {
    fn new(game: G, cfg: EnvConfig) -> Result<Envs<G>> {
        if cfg.num_envs == 0 {
            return Err(ZhipaiError::invalid_value("num_envs", 0, "expected at least 1"));
        }
        if cfg.action_style == ActionStyle::Moves && cfg.max_moves == 0 {
            return Err(ZhipaiError::invalid_value("max_moves", 0, "expected at least 1"));
        }
        let first = game.new_deal(cfg.seed, 0)?;
        let n = first.num_players();
        let mut seats = cfg.controlled.clone();
        seats.sort_unstable();
        seats.dedup();
        if cfg.controlled.is_empty()
            || seats.len() != cfg.controlled.len()
            || seats.iter().any(|&s| s >= n)
        {
            return Err(ZhipaiError::invalid_value(
                "controlled_seats",
                format!("{:?}", cfg.controlled),
                format!("expected distinct seats from 0 to {}, at least one", n - 1),
            ));
        }
        if cfg.reward == Reward::Points && first.points_won().is_none() {
            return Err(ZhipaiError::invalid_value(
                "reward",
                "\"points\"",
                "this game has no points won in play (use \"return\")",
            ));
        }
        let controlled: Vec<bool> = (0..n).map(|s| seats.contains(&s)).collect();
        let layout = first.observation_layout();
        let num_actions = first.num_distinct_actions();
        let moves = cfg.action_style == ActionStyle::Moves;
        let spec = Spec {
            num_envs: cfg.num_envs,
            num_players: n,
            obs_len: layout.iter().map(|f| f.len).sum(),
            num_actions,
            mask_len: if moves { cfg.max_moves } else { num_actions },
            features_len: if moves { cfg.max_moves * MOVE_FEATURES } else { 0 },
            layout,
            // The slot, its listed actions or moves (a typical turn's worth) and its points.
            state_bytes: std::mem::size_of::<Slot<G::State>>()
                + 64 * std::mem::size_of::<usize>()
                    .max(std::mem::size_of::<<G::State as GameState>::Move>())
                + 8 * n,
        };
        // No more threads than envs: a thread with no env to step only costs wake-ups.
        let threads = match cfg.threads {
            0 => crate::rollout::cores(),
            t => t,
        }
        .min(cfg.num_envs);
        // The calling thread is one of the `threads` (`team`): the pool has the others.
        let pool = if threads == 1 { None } else { Some(team::Team::new(threads - 1)?) };
        let cfg = EnvConfig { controlled: seats, ..cfg };
        Ok(Envs { game, cfg, spec, controlled, slots: Vec::new(), pool })
    }

    fn check_buffers(&self, out: &Buffers<'_>) -> Result<()> {
        let s = &self.spec;
        let n = s.num_envs;
        let sizes = [
            ("obs", out.obs.len(), n * s.obs_len),
            ("mask", out.mask.len(), n * s.mask_len),
            ("features", out.features.len(), n * s.features_len),
            ("num_moves", out.num_moves.len(), n),
            ("rewards", out.rewards.len(), n * s.num_players),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("reset", out.reset.len(), n),
            ("seat", out.seat.len(), n),
            ("deal", out.deal.len(), n),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(ZhipaiError::invalid_value(
                    format!("buffer {name}"),
                    format!("of {got} elements"),
                    format!("expected {want}"),
                ));
            }
        }
        Ok(())
    }

    /// Run `f` on every (slot, value, row), across the pool (`values[i]` for env `i`: its action,
    /// or the deal it starts).
    fn each<F>(&mut self, actions: &[i64], out: Buffers<'_>, f: F) -> Result<()>
    where
        F: Fn(&Ctx<'_, G>, &mut Slot<G::State>, i64, Row<'_>) -> Result<()> + Sync,
    {
        let s = &self.spec;
        let n = s.num_envs;
        // The caller works alongside the pool's threads (`team`).
        let per = chunk_len(n, self.pool.as_ref());
        let chunks = n.div_ceil(per);
        let slots = &mut self.slots;
        let mut obs = rows(out.obs, s.obs_len * per, chunks).into_iter();
        let mut mask = rows(out.mask, s.mask_len * per, chunks).into_iter();
        let mut features = rows(out.features, s.features_len * per, chunks).into_iter();
        let mut num_moves = rows(out.num_moves, per, chunks).into_iter();
        let mut rewards = rows(out.rewards, s.num_players * per, chunks).into_iter();
        let mut terminated = rows(out.terminated, per, chunks).into_iter();
        let mut truncated = rows(out.truncated, per, chunks).into_iter();
        let mut reset = rows(out.reset, per, chunks).into_iter();
        let mut seat = rows(out.seat, per, chunks).into_iter();
        let mut deal = rows(out.deal, per, chunks).into_iter();
        let mut work = Vec::with_capacity(chunks);
        for (sl, act) in slots.chunks_mut(per).zip(actions.chunks(per)) {
            // `check_buffers` made every buffer `chunks` pieces long.
            work.push(Chunk {
                slots: sl,
                actions: act,
                obs: obs.next().unwrap_or_default(),
                mask: mask.next().unwrap_or_default(),
                features: features.next().unwrap_or_default(),
                num_moves: num_moves.next().unwrap_or_default(),
                rewards: rewards.next().unwrap_or_default(),
                terminated: terminated.next().unwrap_or_default(),
                truncated: truncated.next().unwrap_or_default(),
                reset: reset.next().unwrap_or_default(),
                seat: seat.next().unwrap_or_default(),
                deal: deal.next().unwrap_or_default(),
            });
        }
        let ctx = Ctx {
            game: &self.game,
            cfg: &self.cfg,
            spec: &self.spec,
            controlled: &self.controlled,
        };
        let run = |w: Chunk<'_, G::State>| -> Result<()> {
            let s = ctx.spec;
            for (j, slot) in w.slots.iter_mut().enumerate() {
                let row = Row {
                    obs: &mut w.obs[j * s.obs_len..(j + 1) * s.obs_len],
                    mask: &mut w.mask[j * s.mask_len..(j + 1) * s.mask_len],
                    features: &mut w.features[j * s.features_len..(j + 1) * s.features_len],
                    num_moves: &mut w.num_moves[j],
                    rewards: &mut w.rewards[j * s.num_players..(j + 1) * s.num_players],
                    terminated: &mut w.terminated[j],
                    truncated: &mut w.truncated[j],
                    reset: &mut w.reset[j],
                    seat: &mut w.seat[j],
                    deal: &mut w.deal[j],
                };
                f(&ctx, slot, w.actions[j], row)?;
            }
            Ok(())
        };
        match self.pool.as_mut() {
            None => work.into_iter().try_for_each(run),
            Some(team) => team.run(work, run),
        }
    }
}

/// A chunk of envs with their rows of every buffer.
struct Chunk<'b, S: GameState> {
    slots: &'b mut [Slot<S>],
    actions: &'b [i64],
    obs: &'b mut [f32],
    mask: &'b mut [bool],
    features: &'b mut [u8],
    num_moves: &'b mut [i64],
    rewards: &'b mut [f32],
    terminated: &'b mut [bool],
    truncated: &'b mut [bool],
    reset: &'b mut [bool],
    seat: &'b mut [i64],
    deal: &'b mut [u64],
}

/// Envs per chunk of a call on `n` envs: many chunks per thread, claimed one at a time, so
/// uneven steps (an opponent's search, a deal's end) balance out and the last chunk, which one
/// thread finishes while the others wait, is short; each env's work depends on nothing else,
/// whatever the chunking.
fn chunk_len(n: usize, team: Option<&team::Team>) -> usize {
    n.div_ceil(team.map_or(1, team::Team::threads) * 32).max(1)
}

/// `buf` cut into `chunks` pieces of `width` (the last may be shorter; all empty when `width`
/// is 0).
fn rows<T>(buf: &mut [T], width: usize, chunks: usize) -> Vec<&mut [T]> {
    if width == 0 {
        return (0..chunks).map(|_| Default::default()).collect();
    }
    buf.chunks_mut(width).collect()
}

/// What every env's work reads.
struct Ctx<'a, G: Game> {
    game: &'a G,
    cfg: &'a EnvConfig,
    spec: &'a Spec,
    controlled: &'a [bool],
}

impl<G: Game> Ctx<'_, G> {
    /// Start deal `deal` in `slot` and write its first decision.
    fn start(&self, slot: &mut Slot<G::State>, deal: u64, row: Row<'_>) -> Result<()> {
        slot.state = self.game.new_deal(self.cfg.seed, deal)?;
        slot.search = search_rng(self.cfg.seed, deal);
        slot.sampler = sampler_rng(self.cfg.seed, deal);
        slot.deal = deal;
        slot.done = false;
        slot.points.fill(0.0); // allocated with the slot: no allocation per deal
        *row.reset = true;
        row.rewards.fill(0.0);
        self.advance(slot, row)
    }

    /// Let the opponents play until a controlled seat decides or the deal ends; write the
    /// observation, the mask and the rest of the row (the rewards are the caller's).
    fn advance(&self, slot: &mut Slot<G::State>, row: Row<'_>) -> Result<()> {
        while let Some(p) = slot.state.current_player() {
            if self.controlled[p] {
                slot.seat = p;
                break;
            }
            self.cfg.opponents.play(&mut slot.state, &mut slot.search)?;
        }
        *row.seat = slot.seat as i64;
        *row.deal = slot.deal;
        *row.truncated = false;
        let over = slot.state.is_terminal();
        *row.terminated = over;
        slot.done = over;
        match self.cfg.reward {
            Reward::Return if over => {
                let returns = slot.state.returns();
                for (s, r) in row.rewards.iter_mut().enumerate() {
                    if self.controlled[s] {
                        *r = returns[s] as f32;
                    }
                }
            }
            Reward::Return => {}
            Reward::Points => {
                let now = slot.state.points_won().unwrap_or_default();
                for (s, r) in row.rewards.iter_mut().enumerate() {
                    let (new, old) = (now.get(s).copied().unwrap_or(0.0), slot.points[s]);
                    if self.controlled[s] {
                        *r = (new - old) as f32;
                    }
                    slot.points[s] = new;
                }
            }
        }
        slot.state.write_observation_tensor(slot.seat, false, row.obs)?;
        match self.cfg.action_style {
            ActionStyle::Actions => {
                *row.num_moves = 0;
                row.mask.fill(false);
                slot.legal.clear();
                if !over {
                    // The list, not the mask, is what the game computes: the mask is written
                    // from it, and sampling and checking an action then scan nothing.
                    slot.state.legal_actions_into(&mut slot.legal);
                    for &a in &slot.legal {
                        row.mask[a] = true;
                    }
                }
            }
            ActionStyle::Moves => {
                slot.moves = if over {
                    Vec::new()
                } else {
                    slot.state.legal_moves(self.spec.features_len / MOVE_FEATURES)
                };
                *row.num_moves = slot.moves.len() as i64;
                row.features.fill(0);
                for (k, mv) in slot.moves.iter().enumerate() {
                    let counts = slot.state.move_cards(mv).counts();
                    row.features[k * MOVE_FEATURES..(k + 1) * MOVE_FEATURES]
                        .copy_from_slice(&counts);
                }
                for (k, m) in row.mask.iter_mut().enumerate() {
                    *m = k < slot.moves.len();
                }
            }
        }
        Ok(())
    }

    /// Apply the agent's (checked) action and move on.
    fn step(&self, slot: &mut Slot<G::State>, action: i64, row: Row<'_>) -> Result<()> {
        if slot.done {
            let next = slot.deal + self.spec.num_envs as u64;
            return self.start(slot, next, row);
        }
        *row.reset = false;
        row.rewards.fill(0.0);
        match self.cfg.action_style {
            ActionStyle::Actions => slot.state.apply_legal_action(action as usize)?,
            ActionStyle::Moves => {
                let mv = slot.moves[action as usize];
                slot.state.apply_move_unchecked(&mv);
            }
        }
        self.advance(slot, row)
    }
}

impl<G: Game + 'static> VectorEnv for Envs<G> {
    fn spec(&self) -> &Spec {
        &self.spec
    }

    fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) -> Result<()> {
        self.check_buffers(&out)?;
        if let Some(seed) = seed {
            self.cfg.seed = seed;
        }
        let n = self.spec.num_envs as u64;
        let fresh = seed.is_some() || self.slots.is_empty();
        if self.slots.is_empty() {
            let state = self.game.new_deal(self.cfg.seed, 0)?;
            self.slots = (0..self.spec.num_envs)
                .map(|_| Slot {
                    state: state.clone(),
                    deal: 0,
                    search: search_rng(self.cfg.seed, 0),
                    sampler: sampler_rng(self.cfg.seed, 0),
                    seat: 0,
                    points: vec![0.0; self.spec.num_players],
                    done: false,
                    legal: Vec::new(),
                    moves: Vec::new(),
                })
                .collect();
        }
        // Env i's deals are i, i + n, i + 2n, …: a fresh start takes deal i, a later reset the
        // env's next deal.
        let idx: Vec<i64> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| if fresh { i as i64 } else { (s.deal + n) as i64 })
            .collect();
        self.each(&idx, out, |ctx, slot, deal, row| ctx.start(slot, deal as u64, row))
    }

    fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<()> {
        self.check_buffers(&out)?;
        let n = self.spec.num_envs;
        if self.slots.is_empty() {
            return Err(ZhipaiError::invalid_value(
                "call",
                "step() before reset()",
                "call reset() first",
            ));
        }
        if actions.len() != n {
            return Err(ZhipaiError::invalid_value(
                "actions",
                format!("of length {}", actions.len()),
                format!("expected one per env ({n})"),
            ));
        }
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            if slot.done {
                continue;
            }
            let ok = match self.cfg.action_style {
                ActionStyle::Actions => {
                    usize::try_from(a).is_ok_and(|a| slot.legal.binary_search(&a).is_ok())
                }
                ActionStyle::Moves => usize::try_from(a).is_ok_and(|a| a < slot.moves.len()),
            };
            if !ok {
                return Err(illegal(
                    &slot.state,
                    self.cfg.action_style,
                    i,
                    slot.seat,
                    a,
                    slot.moves.len(),
                ));
            }
        }
        self.each(actions, out, |ctx, slot, a, row| ctx.step(slot, a, row))
    }

    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        let n = self.spec.num_envs;
        if self.slots.is_empty() {
            return Err(ZhipaiError::invalid_value(
                "call",
                "sample_actions() before reset()",
                "call reset() first",
            ));
        }
        if out.len() != n {
            return Err(ZhipaiError::invalid_value(
                "buffer actions",
                format!("of {} elements", out.len()),
                format!("expected {n}"),
            ));
        }
        let style = self.cfg.action_style;
        let draw = |slot: &mut Slot<G::State>, a: &mut i64| {
            let k = match style {
                ActionStyle::Actions => slot.legal.len(),
                ActionStyle::Moves => slot.moves.len(),
            };
            *a = 0;
            if slot.done || k == 0 {
                return;
            }
            let pick = slot.sampler.random_range(0..k);
            *a = match style {
                ActionStyle::Actions => slot.legal[pick] as i64,
                ActionStyle::Moves => pick as i64,
            };
        };
        match self.pool.as_mut() {
            None => self.slots.iter_mut().zip(out.iter_mut()).for_each(|(s, a)| draw(s, a)),
            Some(team) => {
                // Across the team too: an env's legal actions were last written by whichever
                // thread stepped it, and reading them all from one core cost 70 µs per call
                // with 2048 Gongzhu envs (a fifteenth of the step).
                let per = chunk_len(n, Some(team));
                let work: Vec<_> = self.slots.chunks_mut(per).zip(out.chunks_mut(per)).collect();
                team.run(work, |(slots, acts)| {
                    slots.iter_mut().zip(acts.iter_mut()).for_each(|(s, a)| draw(s, a));
                    Ok(())
                })?;
            }
        }
        Ok(())
    }
}

/// The error of an illegal action of env `env`.
fn illegal<S: GameState>(
    state: &S,
    style: ActionStyle,
    env: usize,
    seat: usize,
    action: i64,
    listed: usize,
) -> ZhipaiError {
    match style {
        ActionStyle::Actions => {
            let text = usize::try_from(action)
                .ok()
                .and_then(|a| state.action_to_string(a).ok())
                .map_or(String::new(), |t| format!(" ({t})"));
            ZhipaiError::illegal_play(
                format!("action {action}{text} of env {env}"),
                format!(
                    "not legal for seat {seat} now (phase {}; the mask is false); no env was stepped",
                    state.phase()
                ),
            )
        }
        ActionStyle::Moves => ZhipaiError::illegal_play(
            format!("move index {action} of env {env}"),
            format!(
                "seat {seat} has {listed} listed moves (indices 0 to {}); no env was stepped",
                listed as i64 - 1
            ),
        ),
    }
}

#[cfg(test)]
mod tests;
