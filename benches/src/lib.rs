//! Criterion benchmarks of zhipai-core live in `benches/benches/*.rs`; this library is empty.
