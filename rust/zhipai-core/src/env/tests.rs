use super::*;
use crate::game::Game;
use crate::policy::Policy;
use rand::{Rng, SeedableRng};

/// Owned buffers of a spec.
#[derive(Clone, Debug, PartialEq)]
struct Out {
    obs: Vec<f32>,
    mask: Vec<bool>,
    features: Vec<u8>,
    num_moves: Vec<i64>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    reset: Vec<bool>,
    seat: Vec<i64>,
    deal: Vec<u64>,
}

impl Out {
    fn new(s: &Spec) -> Out {
        let n = s.num_envs;
        Out {
            obs: vec![-1.0; n * s.obs_len],
            mask: vec![false; n * s.mask_len],
            features: vec![9; n * s.features_len],
            num_moves: vec![-1; n],
            rewards: vec![-1.0; n * s.num_players],
            terminated: vec![false; n],
            truncated: vec![true; n],
            reset: vec![false; n],
            seat: vec![-1; n],
            deal: vec![u64::MAX; n],
        }
    }
    fn bufs(&mut self) -> Buffers<'_> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            features: &mut self.features,
            num_moves: &mut self.num_moves,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            reset: &mut self.reset,
            seat: &mut self.seat,
            deal: &mut self.deal,
        }
    }
}

fn cfg(num_envs: usize, controlled: Vec<usize>, threads: usize, style: ActionStyle) -> EnvConfig {
    EnvConfig {
        num_envs,
        seed: 7,
        controlled,
        opponents: Player::Builtin(Policy::Greedy),
        threads,
        action_style: style,
        reward: Reward::Return,
        max_moves: 16,
    }
}

fn gongzhu() -> Rules {
    crate::rules("gongzhu", &[]).unwrap()
}

/// A uniformly random legal choice per env from `rng` (0 where the env is resetting).
fn random_actions(env: &dyn VectorEnv, out: &Out, rng: &mut GameRng) -> Vec<i64> {
    let w = env.spec().mask_len;
    (0..env.spec().num_envs)
        .map(|i| {
            let legal: Vec<i64> =
                (0..w).filter(|&a| out.mask[i * w + a]).map(|a| a as i64).collect();
            if legal.is_empty() {
                0
            } else {
                legal[rng.random_range(0..legal.len())]
            }
        })
        .collect()
}

/// Every buffer after each of `steps` random steps.
fn trace(rules: &Rules, c: EnvConfig, steps: usize) -> Vec<Out> {
    let mut env = vector_env(rules, c).unwrap();
    let mut out = Out::new(env.spec());
    let mut rng = GameRng::seed_from_u64(3);
    env.reset(None, out.bufs()).unwrap();
    let mut seen = vec![out.clone()];
    for _ in 0..steps {
        let a = random_actions(env.as_ref(), &out, &mut rng);
        env.step(&a, out.bufs()).unwrap();
        seen.push(out.clone());
    }
    seen
}

#[test]
fn results_are_the_same_for_any_number_of_threads() {
    let r = gongzhu();
    let one = trace(&r, cfg(5, vec![0, 2], 1, ActionStyle::Actions), 150);
    let two = trace(&r, cfg(5, vec![0, 2], 2, ActionStyle::Actions), 150);
    let three = trace(&r, cfg(5, vec![0, 2], 3, ActionStyle::Actions), 150);
    assert!(one == two && two == three);
    // The run did cross deal ends and resets.
    assert!(one.iter().any(|o| o.terminated.iter().any(|&t| t)));
    assert!(one.iter().skip(1).any(|o| o.reset.iter().any(|&t| t)));
    let t = crate::rules("tractor", &[]).unwrap();
    let a = trace(&t, cfg(3, vec![1], 1, ActionStyle::Moves), 120);
    let b = trace(&t, cfg(3, vec![1], 2, ActionStyle::Moves), 120);
    assert_eq!(a, b);
}

#[test]
fn env_i_plays_deals_i_then_i_plus_n_and_the_rewards_are_the_returns() {
    let r = gongzhu();
    let n = 3;
    let mut env = vector_env(&r, cfg(n, vec![0], 2, ActionStyle::Actions)).unwrap();
    let mut out = Out::new(env.spec());
    env.reset(None, out.bufs()).unwrap();
    assert_eq!(out.deal, vec![0, 1, 2]);
    assert!(out.reset.iter().all(|&x| x) && out.seat.iter().all(|&s| s == 0));
    // Replay each env's deal by hand: greedy opponents, the agent's lowest legal action.
    let Rules::Gongzhu(g) = &r else { unreachable!() };
    let mut own: Vec<_> = (0..n as u64).map(|i| g.new_deal(7, i).unwrap()).collect();
    let mut search: Vec<_> = (0..n as u64).map(|i| search_rng(7, i)).collect();
    fn catch_up<S: GameState>(s: &mut S, rng: &mut GameRng) {
        while s.current_player().is_some_and(|p| p != 0) {
            Player::Builtin(Policy::Greedy).play(s, rng).unwrap();
        }
    }
    for i in 0..n {
        catch_up(&mut own[i], &mut search[i]);
    }
    let len = env.spec().obs_len;
    let w = env.spec().mask_len;
    let mut t = vec![0.0; len];
    // Per env: 0 playing its first deal, 1 just ended it, 2 started the next one.
    let mut phase = [0u8; 3];
    for _ in 0..200 {
        for i in 0..n {
            if phase[i] == 0 {
                own[i].write_observation_tensor(0, false, &mut t).unwrap();
                assert_eq!(&out.obs[i * len..(i + 1) * len], &t[..], "env {i}");
            }
        }
        // The lowest legal action; garbage where the env is about to start its next deal.
        let a: Vec<i64> = (0..n)
            .map(|i| match phase[i] {
                1 => [999, -5, 12][i],
                _ => (0..w).find(|&k| out.mask[i * w + k]).unwrap_or(0) as i64,
            })
            .collect();
        for i in 0..n {
            if phase[i] == 0 {
                assert_eq!(own[i].legal_actions()[0] as i64, a[i]);
                own[i].apply_action(a[i] as usize).unwrap();
                catch_up(&mut own[i], &mut search[i]);
            }
        }
        env.step(&a, out.bufs()).unwrap();
        for i in 0..n {
            match phase[i] {
                0 if own[i].is_terminal() => {
                    assert!(out.terminated[i] && !out.reset[i], "env {i}");
                    let ret = own[i].returns();
                    assert_eq!(out.rewards[i * 4], ret[0] as f32);
                    assert!(ret.iter().any(|&r| r != 0.0));
                    assert_eq!(&out.rewards[i * 4 + 1..i * 4 + 4], &[0.0; 3], "uncontrolled");
                    assert!(out.mask[i * w..(i + 1) * w].iter().all(|&m| !m));
                    phase[i] = 1;
                }
                0 => {
                    assert!(!out.terminated[i] && out.rewards[i * 4..i * 4 + 4] == [0.0; 4]);
                    assert_eq!(out.deal[i], i as u64);
                }
                1 => {
                    // The next deal of env i (i + n), its action ignored, zero rewards.
                    assert_eq!(out.deal[i], (i + n) as u64);
                    assert!(out.reset[i] && !out.terminated[i]);
                    assert_eq!(&out.rewards[i * 4..i * 4 + 4], &[0.0; 4]);
                    let first = g.new_deal(7, (i + n) as u64).unwrap();
                    let mut s2 = first.clone();
                    catch_up(&mut s2, &mut search_rng(7, (i + n) as u64));
                    s2.write_observation_tensor(0, false, &mut t).unwrap();
                    assert_eq!(&out.obs[i * len..(i + 1) * len], &t[..], "env {i} next deal");
                    phase[i] = 2;
                }
                _ => {}
            }
        }
        if phase.iter().all(|&p| p == 2) {
            break;
        }
    }
    assert!(phase.iter().all(|&p| p == 2));
    // reset() moves every env on to its next deal; reset(seed) starts over.
    let before = out.deal.clone();
    env.reset(None, out.bufs()).unwrap();
    assert_eq!(out.deal, before.iter().map(|d| d + 3).collect::<Vec<_>>());
    env.reset(Some(7), out.bufs()).unwrap();
    assert_eq!(out.deal, vec![0, 1, 2]);
}

#[test]
fn an_illegal_action_names_the_env_and_changes_nothing() {
    let r = gongzhu();
    let mut env = vector_env(&r, cfg(4, vec![0, 1, 2, 3], 2, ActionStyle::Actions)).unwrap();
    let mut out = Out::new(env.spec());
    env.reset(None, out.bufs()).unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    let mut a = random_actions(env.as_ref(), &out, &mut rng);
    let w = env.spec().mask_len;
    let bad = (0..w).find(|&k| !out.mask[2 * w + k]).unwrap();
    let good = a[2];
    a[2] = bad as i64;
    let before = out.clone();
    let e = env.step(&a, out.bufs()).unwrap_err().to_string();
    assert!(e.contains(&format!("action {bad}")) && e.contains("env 2"), "{e}");
    assert_eq!(out, before, "buffers untouched");
    a[2] = good;
    env.step(&a, out.bufs()).unwrap();
    // The same as a run that never saw the illegal action.
    let mut fresh = vector_env(&r, cfg(4, vec![0, 1, 2, 3], 1, ActionStyle::Actions)).unwrap();
    let mut o2 = Out::new(fresh.spec());
    fresh.reset(None, o2.bufs()).unwrap();
    fresh.step(&a, o2.bufs()).unwrap();
    assert_eq!(out, o2);
    let e = env.step(&[0, 0, 0], out.bufs()).unwrap_err().to_string();
    assert!(e.contains("of length 3") && e.contains("(4)"), "{e}");
    let e = env.step(&[-1, 0, 0, 0], out.bufs()).unwrap_err().to_string();
    assert!(e.contains("action -1 of env 0"), "{e}");
}

#[test]
fn moves_style_lists_the_legal_moves_with_their_cards() {
    let r = crate::rules("hong_wu", &[]).unwrap();
    let mut env = vector_env(&r, cfg(2, vec![0, 1, 2, 3], 1, ActionStyle::Moves)).unwrap();
    let mut out = Out::new(env.spec());
    assert_eq!(env.spec().mask_len, 16);
    assert_eq!(env.spec().features_len, 16 * 54);
    env.reset(None, out.bufs()).unwrap();
    let Rules::HongWu(g) = &r else { unreachable!() };
    let mut rng = GameRng::seed_from_u64(5);
    let mut checked_cards = false;
    for _ in 0..80 {
        // Each env's listing equals its own deal's, replayed from the same moves.
        for i in 0..2 {
            let k = out.num_moves[i] as usize;
            assert!(k <= 16);
            assert!((0..16).all(|j| out.mask[i * 16 + j] == (j < k)));
            let rows = &out.features[i * 16 * 54..(i + 1) * 16 * 54];
            assert!(rows[k * 54..].iter().all(|&x| x == 0), "padding is zero");
            checked_cards |= rows[..k * 54].iter().any(|&x| x > 0);
        }
        let a: Vec<i64> = (0..2)
            .map(|i| if out.num_moves[i] > 0 { rng.random_range(0..out.num_moves[i]) } else { 0 })
            .collect();
        env.step(&a, out.bufs()).unwrap();
    }
    assert!(checked_cards);
    // The first listing of env 1 is deal 1's legal_moves, features = move_cards.
    env.reset(Some(7), out.bufs()).unwrap();
    let s = g.new_deal(7, 1).unwrap();
    let moves = s.legal_moves(16);
    assert_eq!(out.num_moves[1] as usize, moves.len());
    for (j, m) in moves.iter().enumerate() {
        assert_eq!(&out.features[(16 + j) * 54..(17 + j) * 54], &s.move_cards(m).counts()[..]);
    }
    let e = env.step(&[0, 16], out.bufs()).unwrap_err().to_string();
    assert!(e.contains("move index 16 of env 1"), "{e}");
}

#[test]
fn bad_settings_are_named() {
    let r = gongzhu();
    let err = |c: EnvConfig| vector_env(&r, c).err().unwrap().to_string();
    assert!(err(cfg(0, vec![0], 1, ActionStyle::Actions)).contains("num_envs 0"));
    assert!(err(cfg(1, vec![4], 1, ActionStyle::Actions)).contains("controlled_seats [4]"));
    assert!(err(cfg(1, vec![0, 0], 1, ActionStyle::Actions)).contains("[0, 0]"));
    assert!(err(cfg(1, vec![], 1, ActionStyle::Actions)).contains("[]"));
    let mut c = cfg(1, vec![0], 1, ActionStyle::Moves);
    c.max_moves = 0;
    assert!(err(c).contains("max_moves 0"));
    let mut env = vector_env(&r, cfg(2, vec![0], 1, ActionStyle::Actions)).unwrap();
    let mut out = Out::new(env.spec());
    let e = env.step(&[0, 0], out.bufs()).unwrap_err().to_string();
    assert!(e.contains("before reset"), "{e}");
    out.obs.pop();
    let e = env.reset(None, out.bufs()).unwrap_err().to_string();
    assert!(e.contains("buffer obs"), "{e}");
    assert!("tensor".parse::<ActionStyle>().unwrap_err().to_string().contains("\"tensor\""));
}

#[test]
fn sampled_actions_are_legal_uniform_and_the_same_for_any_thread_count() {
    let r = gongzhu();
    let run = |threads: usize, style: ActionStyle| {
        let mut env = vector_env(&r, cfg(6, vec![0, 1, 2, 3], threads, style)).unwrap();
        let mut out = Out::new(env.spec());
        let mut a = vec![0i64; 6];
        assert!(env.sample_actions(&mut a).unwrap_err().to_string().contains("before reset"));
        env.reset(None, out.bufs()).unwrap();
        let mut seen = Vec::new();
        for _ in 0..150 {
            env.sample_actions(&mut a).unwrap();
            let w = env.spec().mask_len;
            for (i, &ai) in a.iter().enumerate() {
                if out.terminated[i] {
                    assert_eq!(ai, 0);
                } else {
                    assert!(out.mask[i * w + ai as usize], "env {i} action {ai}");
                }
            }
            seen.push(a.clone());
            env.step(&a, out.bufs()).unwrap();
        }
        assert!(env.sample_actions(&mut [0; 5]).is_err());
        seen
    };
    for style in [ActionStyle::Actions, ActionStyle::Moves] {
        let one = run(1, style);
        assert_eq!(one, run(2, style));
        assert_eq!(one, run(3, style));
    }
    // Uniform: from one position, each of the legal actions comes up about equally often.
    let mut env = vector_env(&r, cfg(1, vec![0, 1, 2, 3], 1, ActionStyle::Actions)).unwrap();
    let mut out = Out::new(env.spec());
    env.reset(None, out.bufs()).unwrap();
    let legal: Vec<usize> = (0..env.spec().mask_len).filter(|&k| out.mask[k]).collect();
    assert!(legal.len() >= 2);
    let mut hits = std::collections::HashMap::new();
    let mut a = [0i64];
    for _ in 0..4000 {
        env.sample_actions(&mut a).unwrap();
        *hits.entry(a[0] as usize).or_insert(0usize) += 1;
    }
    let expect = 4000.0 / legal.len() as f64;
    for k in &legal {
        let h = *hits.get(k).unwrap_or(&0) as f64;
        assert!((h - expect).abs() < 5.0 * expect.sqrt() + 1.0, "action {k}: {h} vs {expect}");
    }
    assert_eq!(hits.len(), legal.len());
}

#[test]
fn points_rewards_are_the_changes_of_points_won() {
    for preset in ["gongzhu", "hong_wu", "tractor"] {
        let r = crate::rules(preset, &[]).unwrap();
        let mut c = cfg(3, vec![0, 2], 2, ActionStyle::Actions);
        c.reward = Reward::Points;
        c.opponents = Player::Builtin(Policy::Random);
        let mut env = vector_env(&r, c).unwrap();
        let mut out = Out::new(env.spec());
        env.reset(None, out.bufs()).unwrap();
        let mut a = vec![0i64; 3];
        // Per env: the rewards of seats 0 and 2 summed over its first deal, and its final points.
        let mut sums = [[0f64; 4]; 3];
        let mut ended = [false; 3];
        let mut nonzero = false;
        for _ in 0..3000 {
            env.sample_actions(&mut a).unwrap();
            env.step(&a, out.bufs()).unwrap();
            for i in 0..3 {
                if ended[i] {
                    continue;
                }
                for (sum, &r) in sums[i].iter_mut().zip(&out.rewards[i * 4..i * 4 + 4]) {
                    *sum += r as f64;
                    nonzero |= r != 0.0;
                }
                assert_eq!(out.rewards[i * 4 + 1], 0.0, "uncontrolled seat 1");
                ended[i] = out.terminated[i];
            }
            if ended.iter().all(|&e| e) {
                break;
            }
        }
        assert!(ended.iter().all(|&e| e) && nonzero, "{preset}");
        // The sums are the points of each deal's end: replay deal i with the same draws.
        for (i, sum) in sums.iter().enumerate() {
            let finals = crate::with_game!(&r, g => {
                let mut s = g.new_deal(7, i as u64).unwrap();
                let mut search = search_rng(7, i as u64);
                let mut sampler = sampler_rng(7, i as u64);
                while let Some(p) = s.current_player() {
                    if p == 0 || p == 2 {
                        let legal = s.legal_actions();
                        let k = sampler.random_range(0..legal.len());
                        s.apply_action(legal[k]).unwrap();
                    } else {
                        Player::Builtin(Policy::Random).play(&mut s, &mut search).unwrap();
                    }
                }
                s.points_won().unwrap()
            });
            for s in [0, 2] {
                assert!(
                    (sum[s] - finals[s]).abs() < 1e-3,
                    "{preset} env {i} seat {s}: {sum:?} {finals:?}"
                );
            }
        }
    }
    let r = crate::rules("baohuang", &[]).unwrap();
    let mut c = cfg(1, vec![0], 1, ActionStyle::Actions);
    c.reward = Reward::Points;
    let e = vector_env(&r, c).err().unwrap().to_string();
    assert!(e.contains("reward \"points\""), "{e}");
}
