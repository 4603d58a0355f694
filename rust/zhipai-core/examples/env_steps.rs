//! VectorEnv steps with actions drawn in Rust (every seat controlled, 16 envs, one thread): the
//! load-independent workload of the env's instruction counts in BENCHMARKS.md.
//! Usage: `valgrind --tool=callgrind target/release/examples/env_steps PRESET STEPS`; the
//! checksum (observations and masks summed) must not change when only speed is worked on.
//! `env_steps PRESET STEPS time` skips the checksum and prints the wall time per env step
//! instead (for `perf record`; wall time on a shared machine is noisy).
use zhipai_core::env::{vector_env, ActionStyle, Buffers, EnvConfig, Reward};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset = args.get(1).map_or("gongzhu", String::as_str);
    let steps: usize = args.get(2).map_or(2000, |s| s.parse().unwrap());
    let rules = zhipai_core::rules(preset, &[]).unwrap();
    // `ENVS` and `THREADS` (environment variables) change the 16 envs on one thread.
    let var = |k: &str, d: usize| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let (n, threads) = (var("ENVS", 16), var("THREADS", 1));
    let players = if preset == "baohuang" { 5 } else { 4 };
    let cfg = EnvConfig {
        num_envs: n,
        seed: 7,
        controlled: (0..players).collect(),
        opponents: "random".parse().unwrap(),
        threads,
        action_style: ActionStyle::Actions,
        reward: Reward::Return,
        max_moves: 1,
    };
    let mut env = vector_env(&rules, cfg).unwrap();
    let s = env.spec().clone();
    let (mut obs, mut mask) = (vec![0f32; n * s.obs_len], vec![false; n * s.mask_len]);
    let (mut nm, mut rw) = (vec![0i64; n], vec![0f32; n * s.num_players]);
    let (mut te, mut tr, mut rs, mut seat, mut deal) =
        (vec![false; n], vec![false; n], vec![false; n], vec![0i64; n], vec![0u64; n]);
    let mut feats: Vec<u8> = vec![];
    macro_rules! bufs {
        () => {
            Buffers {
                obs: &mut obs,
                mask: &mut mask,
                features: &mut feats,
                num_moves: &mut nm,
                rewards: &mut rw,
                terminated: &mut te,
                truncated: &mut tr,
                reset: &mut rs,
                seat: &mut seat,
                deal: &mut deal,
            }
        };
    }
    env.reset(Some(7), bufs!()).unwrap();
    let mut acts = vec![0i64; n];
    let timed = args.get(3).is_some_and(|a| a == "time");
    let mut check = 0f64;
    let t0 = std::time::Instant::now();
    for _ in 0..steps {
        env.sample_actions(&mut acts).unwrap();
        env.step(&acts, bufs!()).unwrap();
        if timed {
            continue;
        }
        check +=
            obs.iter().map(|&x| x as f64).sum::<f64>() + mask.iter().filter(|&&b| b).count() as f64;
    }
    if timed {
        let ns = t0.elapsed().as_nanos() as f64 / (steps * n) as f64;
        println!("{preset} {steps} steps x {n} envs: {ns:.0} ns per env step ({threads} threads)");
    } else {
        println!("{preset} {steps} steps x {n} envs: checksum {check}");
    }
}
