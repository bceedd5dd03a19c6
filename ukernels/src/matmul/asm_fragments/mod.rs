//! Pieces of asm text shared by the aarch64 kernels: partial-tile stores, row chains, loop
//! scaffolding, dequantisation epilogues, nibble decoding and clamps, as macros that expand to
//! string literals (`concat!`) for use inside `asm!`. KleidiAI's SME kernels `.include` one helper
//! file of assembler macros in the same way; here the assembler cannot do it for us because the
//! asm lives in Rust (binutils 2.40 does not know SME2).
//!
//! A kernel keeps its inner loop and its register map; what follows the loop (and the few loop
//! set-up sequences every kernel repeats) comes from here, so a fix to, say, the n % 4 tail store
//! reaches every kernel at once.
//!
//! Conventions:
//! * General registers are passed with their prefix (`"x11"`); vector, `q`/`d`/`s` and `z`
//!   registers as bare numbers (`"16"`) because the fragment picks the view it needs.
//! * Labels are numeric local labels passed as `"5"`; fragments append `f`/`b` themselves. A
//!   fragment defines only the labels it is given, so a kernel can use it many times.
//! * A fragment touches only the registers it is given.
//!
//! By ISA: `common` (the `asm!` block, loop frames, row chains, and the fragments with NEON and
//! SVE forms), `neon`, `sve`, `sme`; each file starts with what it offers and to whom. The
//! macros are textual (`#[macro_use]`): declared before every kernel module in `matmul/mod.rs`.

#[macro_use]
mod common;
#[macro_use]
mod neon;
#[macro_use]
mod sve;
#[macro_use]
mod sme;
