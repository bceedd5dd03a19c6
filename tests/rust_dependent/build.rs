//! A crate that links KleidiAI has a build script (Cargo requires one with `links`); this one
//! links nothing: `src/main.rs` defines the KleidiAI names it uses.
fn main() {}
