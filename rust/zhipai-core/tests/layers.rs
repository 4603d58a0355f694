//! The dependency rules of the crate, checked on its source: dependencies flow one way
//! (vocabulary → dealing → trick machinery → the game contract → games → algorithms), no game
//! uses another, and no two files use each other, directly or through others.
//!
//! Dependencies are read as text from the non-test code of each file: `crate::a::b` paths
//! (including `use crate::{a, b::c}` groups) and `super::` paths, resolved to the longest module
//! path that exists. Comments are ignored; `#[cfg(test)]` code and test-only files are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layer of each top-level module: a module may use modules of its own layer or below.
const LAYERS: &[(&str, u8)] = &[
    ("error", 0),
    ("cards", 0),
    ("multiset", 0),
    ("sample", 0),
    ("options", 0),
    ("deal", 1),
    ("knowledge", 1),
    ("tricks", 2),
    ("game", 3),
    ("simulator", 3),
    ("policy", 3),
    ("games", 4),
    ("rules", 5),
    ("any_state", 5),
    ("rollout", 5),
    ("eval", 5),
    ("record", 5),
    ("toy", 5),
    ("search", 5),
    ("arena", 5),
    ("eval_state", 5),
    ("env", 5),
];

/// Module path (`games::shengji::state`) → file, for every non-test source file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, PathBuf>) {
        for entry in fs::read_dir(dir).expect("readable src") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                walk(&path, src, out);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts.iter().any(|p| p == "tests" || p.ends_with("_tests")) {
                continue;
            }
            let name = parts.join("::");
            let name = if name == "lib" { String::new() } else { name };
            out.insert(name, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The code of a file without comments and without its `#[cfg(test)]` tail.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::…` path in `code` (after expanding `super::` relative to `module`), with `use`
/// groups expanded one level (`crate::a::{b, c::d}` → `a::b`, `a::c::d`).
fn paths(code: &str, module: &str) -> Vec<String> {
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    let mut text = relative_uses(code, module).replace("self::", &format!("crate::{module}::"));
    let up = if parent.is_empty() { "crate::".to_string() } else { format!("crate::{parent}::") };
    text = text.replace("super::", &up).replace("crate::::", "crate::");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let base = rest[..end].trim_end_matches(':').to_string();
        if rest[end..].starts_with('{') && (end == 0 || rest[..end].ends_with("::")) {
            let close = rest[end..].find('}').map_or(rest.len(), |j| end + j);
            for item in rest[end + 1..close].split(',') {
                let item = item.trim().split(['{', ' ']).next().unwrap_or("");
                let item = item.trim_end_matches(':');
                if !item.is_empty() && item != "self" {
                    out.push(if base.is_empty() {
                        item.to_string()
                    } else {
                        format!("{base}::{item}")
                    });
                }
            }
        }
        out.push(base);
    }
    out
}

/// `code` with each `use` of a relative path (`pub use game::DealState;` in a `mod.rs`: a child
/// module) written from the crate root, so the child counts as used. External crates become
/// paths inside `module` that resolve to `module` itself and are dropped.
fn relative_uses(code: &str, module: &str) -> String {
    let prefix =
        if module.is_empty() { "crate::".to_string() } else { format!("crate::{module}::") };
    code.lines()
        .map(|line| {
            let t = line.trim_start();
            let after =
                ["pub(crate) use ", "pub use ", "use "].iter().find_map(|k| t.strip_prefix(k));
            match after {
                Some(p)
                    if ![
                        "crate::", "super::", "self::", "std::", "core::", "alloc::", "::", "{",
                    ]
                    .iter()
                    .any(|k| p.starts_with(k)) =>
                {
                    line.replacen(p, &format!("{prefix}{p}"), 1)
                }
                _ => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest existing module that `path` names (or lies in).
fn resolve(path: &str, names: &BTreeSet<String>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len()).rev().map(|k| parts[..k].join("::")).find(|c| names.contains(c))
}

fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (m, file) in &mods {
        let text = code(&fs::read_to_string(file).expect("readable file"));
        let used: BTreeSet<String> = paths(&text, m)
            .iter()
            .filter_map(|p| resolve(p, &names))
            .filter(|u| u != m && !u.is_empty())
            .collect();
        edges.insert(m.clone(), used);
    }
    edges
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

fn layer(module: &str) -> u8 {
    let t = top(module);
    LAYERS.iter().find(|(n, _)| *n == t).map(|(_, l)| *l).unwrap_or_else(|| {
        panic!("top-level module `{t}` has no layer: add it to LAYERS in tests/layers.rs")
    })
}

#[test]
fn dependencies_flow_down_the_layers() {
    let mut bad = Vec::new();
    for (m, used) in edges() {
        if m.is_empty() {
            continue;
        }
        for u in used {
            if layer(&u) > layer(&m) {
                bad.push(format!("{m} (layer {}) uses {u} (layer {})", layer(&m), layer(&u)));
            }
        }
    }
    assert!(bad.is_empty(), "dependencies against the layers:\n{}", bad.join("\n"));
}

#[test]
fn no_game_uses_another_game() {
    let game =
        |m: &str| m.strip_prefix("games::").map(|r| r.split("::").next().unwrap().to_string());
    let mut bad = Vec::new();
    for (m, used) in edges() {
        for u in used {
            if let (Some(a), Some(b)) = (game(&m), game(&u)) {
                if a != b {
                    bad.push(format!("{m} uses {u}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "games using other games:\n{}", bad.join("\n"));
}

#[test]
fn no_import_cycle_between_files() {
    let edges = edges();
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        cycles: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        w.on_stack.insert(v);
        for u in w.edges.get(v).into_iter().flatten() {
            let u = u.as_str();
            if !w.index.contains_key(u) {
                visit(w, u);
                let l = w.low[u].min(w.low[v]);
                w.low.insert(v, l);
            } else if w.on_stack.contains(u) {
                let l = w.index[u].min(w.low[v]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(x) = w.stack.pop() {
                w.on_stack.remove(x);
                comp.push(x);
                if x == v {
                    break;
                }
            }
            if comp.len() > 1 {
                w.cycles.push(comp);
            }
        }
    }
    let mut w = Walk {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        cycles: Vec::new(),
    };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    let shown: Vec<String> = w.cycles.iter().map(|c| c.join(" ↔ ")).collect();
    assert!(shown.is_empty(), "import cycles between files:\n{}", shown.join("\n"));
}

#[test]
fn the_checker_sees_uses_and_cycles() {
    // The reader itself: a group use, a super:: path, comments ignored.
    let p = paths(
        "use crate::{cards::Card, tricks::order};\nuse super::x::Y; // crate::eval",
        "games::a::b",
    );
    assert!(p.contains(&"cards::Card".to_string()) && p.contains(&"tricks::order".to_string()));
    assert!(p.contains(&"games::a::x::Y".to_string()));
    assert!(!code("let x = 1; // crate::eval").contains("eval"));
    // A mod.rs re-exporting from its child uses that child (a cycle through the child counts).
    let r = paths("pub use game::DealState;\nuse rand::Rng;", "games::a");
    assert!(r.contains(&"games::a::game::DealState".to_string()), "{r:?}");
}
