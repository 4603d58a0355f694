//! Players by name: every policy a seat can be given, as one value parsed from text.
//!
//! * `random`, `greedy`, `basic` — the built-in policies ([`Policy`]), drawing from the deal's
//!   own generator exactly as `simulate` does;
//! * `pimc` or `pimc(worlds=24,rollout=greedy,candidates=12,widen=4,time_ms=50,threads=1)` —
//!   [`super::pimc`];
//! * `ismcts` or `ismcts(iterations=1000,rollout=greedy,c=0.7,candidates=12,widen=4,time_ms=50)`
//!   — [`super::ismcts`].
//!
//! Parameters may be given in any order and any subset (the rest take the defaults shown);
//! letter case is free, and spaces around names, `=`, `,` and parentheses (never inside a
//! name or value; one trailing comma is allowed). Search players draw from a generator of
//! their own (the caller's "search generator"), so a search seat does not move the deal's
//! chance events.

use super::ismcts::{ismcts, IsmctsConfig};
use super::pimc::{pimc, PimcConfig};
use crate::error::{Result, ZhipaiError};
use crate::game::{GameRng, GameState};
use crate::policy::Policy;
use std::fmt;
use std::time::Duration;

/// One player: a built-in policy or a search.
#[derive(Clone, Debug, PartialEq)]
pub enum Player {
    Builtin(Policy),
    Pimc(PimcConfig),
    Ismcts(IsmctsConfig),
}

impl Player {
    /// The move this player makes for the seat to act: a built-in policy draws from the deal's
    /// own generator (as `simulate`), a search from `search_rng`.
    pub fn choose<S: GameState>(&self, state: &mut S, search_rng: &mut GameRng) -> Result<S::Move> {
        match self {
            Player::Builtin(p) => state.builtin_move(*p),
            Player::Pimc(cfg) => Ok(pimc(state, cfg, search_rng)?.choice),
            Player::Ismcts(cfg) => Ok(ismcts(state, cfg, search_rng)?.choice),
        }
    }

    /// Choose and apply ([`Player::choose`]); a built-in move is applied as `simulate` applies
    /// it. Returns the move.
    pub fn play<S: GameState>(&self, state: &mut S, search_rng: &mut GameRng) -> Result<S::Move> {
        match self {
            Player::Builtin(p) => state.apply_builtin(*p),
            _ => {
                let mv = self.choose(state, search_rng)?;
                state.apply_move(&mv)?;
                Ok(mv)
            }
        }
    }

    /// The built-in policy behind this player: itself, or a search's rollout policy.
    pub fn rollout_policy(&self) -> Policy {
        match self {
            Player::Builtin(p) => *p,
            Player::Pimc(c) => c.rollout,
            Player::Ismcts(c) => c.rollout,
        }
    }

    /// Whether this is a built-in policy (fast: no search).
    pub fn is_builtin(&self) -> bool {
        matches!(self, Player::Builtin(_))
    }
}

impl fmt::Display for Player {
    /// The canonical text: the name alone with default parameters, else every parameter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Builtin(p) => f.write_str(p.name()),
            Player::Pimc(c) if *c == PimcConfig::default() => f.write_str("pimc"),
            Player::Pimc(c) => write!(
                f,
                "pimc(worlds={},rollout={},candidates={},widen={}{},threads={})",
                c.worlds,
                c.rollout.name(),
                c.candidates,
                c.widen,
                time_text(c.time),
                c.threads
            ),
            Player::Ismcts(c) if *c == IsmctsConfig::default() => f.write_str("ismcts"),
            Player::Ismcts(c) => write!(
                f,
                "ismcts(iterations={},rollout={},c={},candidates={},widen={}{})",
                c.iterations,
                c.rollout.name(),
                c.c,
                c.candidates,
                c.widen,
                time_text(c.time)
            ),
        }
    }
}

fn time_text(t: Option<Duration>) -> String {
    t.map_or(String::new(), |t| format!(",time_ms={}", t.as_millis()))
}

impl std::str::FromStr for Player {
    type Err = ZhipaiError;

    /// Parse a player's name (module docs). Errors: `InvalidValue` naming the player, or the
    /// parameter and its value with the range it takes.
    fn from_str(text: &str) -> Result<Player> {
        // Spaces are free around the tokens, never inside one: `pimc(worlds=1 0)` is refused,
        // not read as 10.
        let t = text.trim().to_lowercase();
        let (name, params) = match t.split_once('(') {
            Some((n, rest)) => {
                let (inner, after) =
                    rest.split_once(')').ok_or_else(|| bad_player(text, "missing ')'"))?;
                if !after.trim().is_empty() {
                    return Err(bad_player(text, format!("{after:?} follows the closing ')'")));
                }
                (n.trim(), inner)
            }
            None => (t.as_str(), ""),
        };
        let one_token = |token: &str| {
            if token.contains(char::is_whitespace) {
                Err(bad_player(text, format!("{token:?} holds a space")))
            } else {
                Ok(())
            }
        };
        one_token(name)?;
        let mut items: Vec<&str> = if params.trim().is_empty() {
            Vec::new()
        } else {
            params.split(',').map(str::trim).collect()
        };
        // One trailing comma is allowed, as in a Python call: `pimc(worlds=8,)`.
        if items.len() > 1 && items.last() == Some(&"") {
            items.pop();
        }
        if items.contains(&"") {
            return Err(bad_player(text, "an empty parameter between commas"));
        }
        let pairs: Vec<(&str, &str)> = items
            .into_iter()
            .map(|p| {
                let (k, v) = p
                    .split_once('=')
                    .ok_or_else(|| bad_player(text, format!("{p:?} is not name=value")))?;
                let (k, v) = (k.trim(), v.trim());
                one_token(k)?;
                one_token(v)?;
                Ok((k, v))
            })
            .collect::<Result<_>>()?;
        // A parameter given twice is refused, never silently the last one.
        for (i, (k, _)) in pairs.iter().enumerate() {
            if pairs[..i].iter().any(|(seen, _)| seen == k) {
                return Err(bad_player(text, format!("parameter {k:?} is given twice")));
            }
        }
        match name {
            "pimc" => pimc_config(&pairs).map(Player::Pimc),
            "ismcts" => ismcts_config(&pairs).map(Player::Ismcts),
            _ if pairs.is_empty() && !t.contains('(') => {
                name.parse::<Policy>().map(Player::Builtin).map_err(|_| {
                    bad_player(text, "expected random, greedy, basic, pimc(...) or ismcts(...)")
                })
            }
            _ => Err(bad_player(text, "only pimc(...) and ismcts(...) take parameters")),
        }
    }
}

impl Player {
    /// [`Player::from_str`](std::str::FromStr) for an argument not called `policy` (the
    /// vector env's `opponents`): its errors name `arg`.
    pub fn parse_arg(arg: &str, text: &str) -> Result<Player> {
        text.parse().map_err(|e| match e {
            ZhipaiError::InvalidValue { what, value, reason } => {
                ZhipaiError::InvalidValue { what: what.replacen("policy", arg, 1), value, reason }
            }
            e => e,
        })
    }
}

fn bad_player(text: &str, why: impl fmt::Display) -> ZhipaiError {
    ZhipaiError::invalid_value("policy", format!("{text:?}"), why)
}

fn pimc_config(pairs: &[(&str, &str)]) -> Result<PimcConfig> {
    let mut c = PimcConfig::default();
    for &(k, v) in pairs {
        match k {
            "worlds" => c.worlds = int(k, v, 1, 1_000_000)? as u32,
            "rollout" => c.rollout = rollout(v)?,
            "candidates" => c.candidates = int(k, v, 1, 100_000)? as usize,
            "widen" => c.widen = int(k, v, 0, 10_000)? as usize,
            "time_ms" => c.time = Some(Duration::from_millis(int(k, v, 1, 86_400_000)?)),
            "threads" => c.threads = int(k, v, 0, 1024)? as usize,
            _ => return Err(unknown(k, "worlds, rollout, candidates, widen, time_ms, threads")),
        }
    }
    Ok(c)
}

fn ismcts_config(pairs: &[(&str, &str)]) -> Result<IsmctsConfig> {
    let mut c = IsmctsConfig::default();
    for &(k, v) in pairs {
        match k {
            "iterations" => c.iterations = int(k, v, 1, 10_000_000)? as u32,
            "rollout" => c.rollout = rollout(v)?,
            "c" => {
                c.c = v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 100.0)
                    .ok_or_else(|| param(k, v, "expected a number from 0 to 100"))?
            }
            "candidates" => c.candidates = int(k, v, 1, 100_000)? as usize,
            "widen" => c.widen = int(k, v, 0, 10_000)? as usize,
            "time_ms" => c.time = Some(Duration::from_millis(int(k, v, 1, 86_400_000)?)),
            _ => return Err(unknown(k, "iterations, rollout, c, candidates, widen, time_ms")),
        }
    }
    Ok(c)
}

fn int(k: &str, v: &str, lo: u64, hi: u64) -> Result<u64> {
    v.parse::<u64>()
        .ok()
        .filter(|x| (lo..=hi).contains(x))
        .ok_or_else(|| param(k, v, format!("expected an integer from {lo} to {hi}")))
}

fn rollout(v: &str) -> Result<Policy> {
    v.parse::<Policy>().map_err(|_| param("rollout", v, "expected random, greedy or basic"))
}

fn param(k: &str, v: &str, why: impl fmt::Display) -> ZhipaiError {
    ZhipaiError::invalid_value(format!("policy parameter {k}"), format!("{v:?}"), why)
}

fn unknown(k: &str, known: &str) -> ZhipaiError {
    ZhipaiError::invalid_value("policy parameter", format!("{k:?}"), format!("known: {known}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_players_and_print_back() {
        assert_eq!("random".parse::<Player>().unwrap(), Player::Builtin(Policy::Random));
        assert_eq!(" Greedy ".parse::<Player>().unwrap(), Player::Builtin(Policy::Greedy));
        assert_eq!("pimc".parse::<Player>().unwrap(), Player::Pimc(PimcConfig::default()));
        let p: Player = "pimc(worlds=32, rollout=random)".parse().unwrap();
        let Player::Pimc(c) = &p else { panic!("{p:?}") };
        assert_eq!((c.worlds, c.rollout, c.candidates), (32, Policy::Random, 12));
        assert_eq!(p.to_string().parse::<Player>().unwrap(), p);
        let q: Player = "ismcts(iterations=2000,c=1.5,time_ms=20)".parse().unwrap();
        let Player::Ismcts(c) = &q else { panic!("{q:?}") };
        assert_eq!((c.iterations, c.c, c.time), (2000, 1.5, Some(Duration::from_millis(20))));
        assert_eq!(q.to_string().parse::<Player>().unwrap(), q);
        assert_eq!("ismcts()".parse::<Player>().unwrap().to_string(), "ismcts");
    }

    #[test]
    fn bad_names_and_parameters_are_named() {
        let err = |t: &str| t.parse::<Player>().unwrap_err().to_string();
        assert!(err("alphazero").contains("\"alphazero\""), "{}", err("alphazero"));
        assert!(err("pimc(worlds=0)").contains("worlds \"0\""), "{}", err("pimc(worlds=0)"));
        assert!(err("pimc(worlds=ten)").contains("from 1 to"), "{}", err("pimc(worlds=ten)"));
        assert!(err("pimc(depth=3)").contains("\"depth\""), "{}", err("pimc(depth=3)"));
        assert!(err("pimc(rollout=pimc)").contains("rollout"), "{}", err("pimc(rollout=pimc)"));
        assert!(err("ismcts(c=-1)").contains("from 0 to 100"), "{}", err("ismcts(c=-1)"));
        assert!(err("pimc(worlds=3").contains("missing ')'"), "{}", err("pimc(worlds=3"));
        assert!(err("pimc(worlds=2)extra").contains("\"extra\" follows the closing ')'"));
        assert!(err("pimc(worlds=2))").contains("\")\" follows"));
        for text in ["pimc(worlds=8,,)", "pimc(,)", "pimc(,worlds=8)", "ismcts(iterations=9,,c=1)"]
        {
            assert!(err(text).contains("empty parameter"), "{text}: {}", err(text));
        }
        assert_eq!("pimc(worlds=8,)".parse::<Player>(), "pimc(worlds=8)".parse::<Player>());
        assert!("pimc()".parse::<Player>().is_ok());
        // Spaces around tokens are free, inside one refused.
        assert_eq!(
            " pimc ( worlds = 8 , candidates=2 ) ".parse::<Player>(),
            "pimc(worlds=8,candidates=2)".parse::<Player>()
        );
        for text in
            ["pimc(worlds=1 0)", "gre edy", "pimc(worlds=8 candidates=2)", "pi mc(worlds=8)"]
        {
            assert!(err(text).contains("holds a space"), "{text}: {}", err(text));
        }
        let e = Player::parse_arg("opponents", "pimc(worlds=0)").unwrap_err().to_string();
        assert!(e.starts_with("invalid opponents parameter worlds \"0\""), "{e}");
        let e = Player::parse_arg("opponents", "alphazero").unwrap_err().to_string();
        assert!(e.starts_with("invalid opponents \"alphazero\""), "{e}");
        assert!(err("greedy(x=1)").contains("only pimc"), "{}", err("greedy(x=1)"));
        assert!(err("pimc(worlds)").contains("name=value"), "{}", err("pimc(worlds)"));
        let twice = err("pimc(worlds=2, worlds=3)");
        assert!(twice.contains("\"worlds\" is given twice"), "{twice}");
        assert!(err("ismcts(c=1,iterations=5,c=2)").contains("\"c\" is given twice"));
    }
}
