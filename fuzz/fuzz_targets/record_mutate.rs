//! `TrackedDeal::from_json` on mutated valid records: a deal of any preset (fuzzer options and
//! origin) is played some way by legal actions, built-in moves and peeks, written with
//! `to_json`, and its JSON is changed at fuzzer-chosen places (a value replaced by another of
//! any type, a field removed, a list item repeated, dropped or swapped, deep nesting). Checked:
//! never a panic; the unchanged record loads to the same state; a record whose inputs (all but
//! `phase` and `result`) are unchanged but whose `phase` or `result` is altered is refused; a
//! changed record that loads ends in its recorded phase and result and writes back a record
//! that loads again.
#![no_main]

use arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use zhipai_core::policy::Policy;
use zhipai_core::record::TrackedDeal;
use zhipai_fuzz::{all_presets, arb_origin, arb_rules, snapshot};

#[derive(Arbitrary, Debug)]
enum NewValue {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Cards(Vec<u8>),
    Number(u8),
    List(Vec<u8>),
    EmptyObject,
    Nested(u8),
}

impl NewValue {
    fn value(&self) -> Value {
        match self {
            NewValue::Null => Value::Null,
            NewValue::Bool(b) => json!(b),
            NewValue::Int(i) => json!(i),
            NewValue::UInt(u) => json!(u),
            NewValue::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            NewValue::Str(s) => json!(s),
            NewValue::Cards(kinds) => {
                let cards: Vec<String> = kinds
                    .iter()
                    .filter_map(|&k| zhipai_core::Card::from_index(k as usize % 54))
                    .map(|c| c.to_string())
                    .collect();
                json!(cards.join(" "))
            }
            // Numbers near the edges of the types the record reads.
            NewValue::Number(k) => match k % 8 {
                0 => json!(u64::MAX),
                1 => json!(-1),
                2 => json!(u32::MAX as u64 + 1),
                3 => json!(usize::MAX as f64),
                4 => json!(i64::MIN),
                5 => json!(5),
                6 => json!("340282366920938463463374607431768211455"),
                _ => json!("340282366920938463463374607431768211456"),
            },
            NewValue::List(items) => json!(items),
            NewValue::EmptyObject => json!({}),
            NewValue::Nested(depth) => {
                let mut v = json!(0);
                for _ in 0..*depth as usize * 2 {
                    v = json!([v]);
                }
                v
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Change {
    Replace(NewValue),
    Remove,
    Repeat,
    Drop,
    Swap(u8),
}

#[derive(Arbitrary, Debug)]
struct Mutation {
    /// The child taken at each level (key or index, mod their number).
    path: Vec<u8>,
    change: Change,
}

/// Apply `m` at the end of its path (or where the path meets a leaf).
fn mutate(root: &mut Value, m: &Mutation) {
    at(root, &m.path, &m.change);
}

fn at(v: &mut Value, path: &[u8], change: &Change) {
    let Some((&b, rest)) = path.split_first() else { return replace(v, change) };
    // The last step of the path acts on the parent (remove or repeat a field or an item).
    let last = rest.is_empty() && !matches!(change, Change::Replace(_));
    match v {
        Value::Object(map) if !map.is_empty() => {
            let k = map.keys().nth(b as usize % map.len()).unwrap().clone();
            if !last {
                return at(map.get_mut(&k).unwrap(), rest, change);
            }
            match change {
                Change::Remove | Change::Drop => {
                    map.remove(&k);
                }
                Change::Repeat | Change::Swap(_) => {
                    let item = map[&k].clone();
                    map.insert(format!("{k}_"), item);
                }
                Change::Replace(_) => unreachable!(),
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = b as usize % items.len();
            if !last {
                return at(&mut items[i], rest, change);
            }
            match change {
                Change::Remove => {
                    items.remove(i);
                }
                Change::Repeat => {
                    let item = items[i].clone();
                    items.insert(i, item);
                }
                Change::Drop => items.truncate(i),
                Change::Swap(j) => {
                    let j = *j as usize % items.len();
                    items.swap(i, j);
                }
                Change::Replace(_) => unreachable!(),
            }
        }
        _ => replace(v, change),
    }
}

fn replace(v: &mut Value, change: &Change) {
    if let Change::Replace(n) = change {
        *v = n.value();
    }
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let Some(rules) = arb_rules(u, all_presets())? else { return Ok(()) };
    let Ok(mut deal) = TrackedDeal::new(rules, arb_origin(u)?) else { return Ok(()) };
    // Play some of the deal: legal actions, built-in moves and peeks.
    for _ in 0..u.int_in_range(0..=600)? {
        if deal.state.is_terminal() {
            break;
        }
        match u.int_in_range(0u8..=9)? {
            0 => {
                let _ = deal.builtin_move(Policy::Random);
            }
            1 => {
                let _ = deal.state.apply_builtin(Policy::Greedy);
            }
            2 => {
                let _ = deal.state.apply_builtin(Policy::Random);
            }
            _ => {
                let legal = deal.state.legal_actions();
                let a = legal[u.choose_index(legal.len())?];
                deal.state.apply_action(a).expect("a legal action applies");
            }
        }
    }
    let text = deal.to_json();
    let original: Value = serde_json::from_str(&text).expect("a record is JSON");
    let mut changed = original.clone();
    for _ in 0..u.int_in_range(0..=3)? {
        mutate(&mut changed, &Mutation::arbitrary(u)?);
    }
    let mutated = changed.to_string();
    let loaded = TrackedDeal::from_json(&mutated);
    if changed == original {
        let d = loaded.unwrap_or_else(|e| panic!("an unchanged record is refused: {e}\n{text}"));
        assert_eq!(snapshot(&*d.state), snapshot(&*deal.state));
        assert_eq!(d.to_json(), text);
        return Ok(());
    }
    let inputs = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.remove("phase");
            m.remove("result");
        }
        v
    };
    let outcome_only = inputs(&changed) == inputs(&original)
        && changed.get("phase").is_some()
        && changed.get("result").is_some();
    match loaded {
        Ok(d) => {
            assert!(!outcome_only, "a record with a forged phase or result loads:\n{mutated}");
            assert_eq!(changed["phase"], json!(d.state.phase().name()));
            let json = d.to_json();
            let again = TrackedDeal::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
            assert_eq!(again.to_json(), json);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
