//! What every SME kernel shares: the private-ZA entry protocol of the AAPCS64 SME ABI (a caller's
//! pending lazy ZA save is committed before ZA is touched, as KleidiAI's `kai_commit_za` does),
//! and `streaming_asm!`, which wraps a kernel's instructions in `SMSTART` ... `SMSTOP` inside one
//! `asm!` block and declares every vector and predicate register clobbered.
//!
//! SME target features are unstable in Rust 1.96, so SME kernels are plain `unsafe fn`s whose
//! `asm!` text enables the extension itself (`.arch_extension sme` / `sme2`); no Rust code runs
//! in streaming mode, so the compiler never needs to know.

/// Commits a caller's pending lazy ZA save (`__arm_tpidr2_save` of the AAPCS64 SME support
/// routines, written out so that no SME-aware runtime library is needed): if `TPIDR2_EL0` points
/// at a TPIDR2 block, stores the first `num_za_save_slices` horizontal slices of ZA to its
/// `za_save_buffer` and clears `TPIDR2_EL0`, handing ZA to this function. Traps (`BRK`) on a
/// block whose reserved bytes are not zero or that asks for more slices than ZA has, as the
/// support routine aborts.
///
/// # Safety
/// The CPU must implement SME. A non-zero `TPIDR2_EL0` must point at a valid TPIDR2 block whose
/// buffer holds the slices it names (the caller's obligation under the ABI).
pub unsafe fn commit_lazy_za_save() {
    let block: *const u8;
    // SAFETY: reading TPIDR2_EL0 (by its encoding, so no assembler extension is needed) is
    // allowed at EL0 on a CPU with SME.
    unsafe { core::arch::asm!("mrs {}, S3_3_C13_C0_5", out(reg) block, options(nomem, nostack)) };
    if block.is_null() {
        return;
    }
    // SAFETY: the ABI makes a non-zero TPIDR2_EL0 point at a 16-byte TPIDR2 block.
    let (buffer, slices, reserved) = unsafe {
        (
            block.cast::<*mut u8>().read_unaligned(),
            block.add(8).cast::<u16>().read_unaligned() as usize,
            [10, 12, 14].map(|at| block.add(at).cast::<u16>().read_unaligned()),
        )
    };
    let za_rows = crate::arch::sme_vector_bytes().unwrap_or(0);
    if reserved != [0; 3] || slices > za_rows {
        // SAFETY: a deliberate trap, the support routine's abort.
        unsafe { core::arch::asm!("brk #0x5a", options(nomem, nostack, noreturn)) };
    }
    // SAFETY: a pending lazy save means PSTATE.ZA is set (ZA is dormant), so STR ZA is legal
    // outside streaming mode; the buffer holds `slices` slices of SVL bytes by the ABI. Only
    // the declared general registers change; TPIDR2_EL0 is cleared last, marking the save done.
    unsafe {
        core::arch::asm!(
            ".arch_extension sme",
            "cbz {n}, 2f",
            "mov w12, #0",
            "1:",
            "str za[w12, 0], [{buf}]",
            "addsvl {buf}, {buf}, #1",
            "add w12, w12, #1",
            "cmp x12, {n}",
            "b.lo 1b",
            "2:",
            "msr S3_3_C13_C0_5, xzr",
            buf = inout(reg) buffer => _,
            n = in(reg) slices,
            out("x12") _,
            options(nostack),
        )
    };
}

/// One `asm!` block running `$text` in streaming mode: `.arch_extension $ext`, `SMSTART` (PSTATE.SM
/// and PSTATE.ZA), the kernel's instructions, `SMSTOP`. Every Z and P register is declared
/// clobbered (SMSTART and SMSTOP zero them; v8-v15 so that the compiler saves d8-d15), then the
/// kernel's own operands follow. ZA is private to the block: the kernel's `run` commits a
/// pending lazy save first ([`commit_lazy_za_save`]).
macro_rules! streaming_asm {
    ($ext:literal; $($text:expr),+ $(,)?; $($operands:tt)*) => {
        asm_clobbering_all_vectors!(
            concat!(".arch_extension ", $ext),
            "smstart",
            $($text,)+
            "smstop",
            $($operands)*
            out("p0") _, out("p1") _, out("p2") _, out("p3") _, out("p4") _, out("p5") _,
            out("p6") _, out("p7") _, out("p8") _, out("p9") _, out("p10") _, out("p11") _,
            out("p12") _, out("p13") _, out("p14") _, out("p15") _, out("ffr") _,
        )
    };
}

/// Declares an SME kernel: the function (signature as for `asm_kernel!`'s plain form, with the
/// destination's element type written out: `f32`, or `u16` for a kernel that narrows to f16
/// itself; or its `blockwise` form for per-block formats, f32 output unless typed the same way;
/// or, for an unpacked LHS, `asm_kernel!`'s `float` or `half` form)
/// and its `run` entry, which commits a pending lazy ZA save before the kernel touches ZA.
macro_rules! streaming_kernel {
    ($(#[$a:meta])* blockwise fn $name:ident(
        $m:ident, $n:ident, $k:ident, $bl:ident, $l:ident, $r:ident, $d:ident, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        streaming_kernel!($(#[$a])* blockwise fn $name(
            $m, $n, $k, $bl, $l, $r, $d: f32, $ds, $lo, $hi) $body);
    };
    ($(#[$a:meta])* blockwise fn $name:ident(
        $m:ident, $n:ident, $k:ident, $bl:ident, $l:ident, $r:ident, $d:ident: $dt:ty, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $bl: usize, $l: *const u8, $r: *const u8,
            $d: *mut $dt, $ds: usize, $lo: f32, $hi: f32) {
                // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
                unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
                $body
            };
            |a| a.m, a.n, a.k, a.bl, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row,
            a.clamp_min, a.clamp_max);
    };
    // The 2-bit family's kernels: its value table (`PackedArgs::lut`) after `k`.
    ($(#[$a:meta])* lut fn $name:ident(
        $m:ident, $n:ident, $k:ident, $lut:ident, $l:ident, $r:ident, $d:ident, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $lut: *const i32, $l: *const u8, $r: *const u8,
            $d: *mut f32, $ds: usize, $lo: f32, $hi: f32) {
                // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
                unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
                $body
            };
            |a| a.m, a.n, a.k, a.lut, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row,
            a.clamp_min, a.clamp_max);
    };
    // The int8-output kernels: an `int8_t` destination and the requantization parameters
    // (`PackedArgs::params`) in place of the float bounds.
    ($(#[$a:meta])* requantize fn $name:ident(
        $m:ident, $n:ident, $k:ident, $l:ident, $r:ident, $d:ident, $ds:ident, $p:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $l: *const u8, $r: *const u8, $d: *mut i8,
            $ds: usize, $p: *const $crate::types::kai_matmul_requantize32_params) {
                // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
                unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
                $body
            };
            |a| a.m, a.n, a.k, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row,
            a.params);
    };
    // An unpacked LHS (`float fn`: f32 bounds; `half fn`: f16 bounds as bits), arguments as
    // `asm_kernel!`'s forms of the same name: the streaming GEMVs of the float families.
    ($(#[$a:meta])* float fn $name:ident($($arg:ident),+ $(,)?) $body:block) => {
        asm_kernel!($(#[$a])* float fn $name($($arg),+) {
            // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
            unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
            $body
        });
    };
    ($(#[$a:meta])* half fn $name:ident($($arg:ident),+ $(,)?) $body:block) => {
        asm_kernel!($(#[$a])* half fn $name($($arg),+) {
            // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
            unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
            $body
        });
    };
    ($(#[$a:meta])* fn $name:ident(
        $m:ident, $n:ident, $k:ident, $l:ident, $r:ident, $d:ident: $dt:ty, $ds:ident, $lo:ident,
        $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $l: *const u8, $r: *const u8, $d: *mut $dt,
            $ds: usize, $lo: f32, $hi: f32) {
                // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
                unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
                $body
            };
            |a| a.m, a.n, a.k, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row,
            a.clamp_min, a.clamp_max);
    };
}

/// `ZT0` for `LUTI4` expanding signed int4 to int8: entry `i` (a 32-bit table element, of which
/// a byte lookup takes the low byte) is the two's-complement value of nibble `i`.
pub static INT4_TO_INT8: [i32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1];

/// `ZT0` for `LUTI4` expanding unsigned int4 with a zero point of 8 to int8: entry `i` is
/// `i - 8` (the asymmetric `qai4c32p` weights, whose zero offset is applied in f32).
pub static UINT4_TO_INT8: [i32; 16] = [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7];
