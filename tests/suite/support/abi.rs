//! Register canaries: call a C function with callee-saved registers seeded, and report which of
//! x19-x28, x29/sp and d8-d15 it failed to preserve (AAPCS64).

/// Arguments of a C call: integer/pointer arguments go in x0-x7, float arguments in s0-s7
/// (stored as f32 bits in the low half of each 64-bit slot), and the next four integer arguments
/// on the stack (the 9th to 12th, e.g. `dst_stride_col` of the per-block kernels).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CallArgs {
    pub x: [u64; 8],
    pub d: [u64; 8],
    pub stack: [u64; 4],
}

/// [`CallArgs`] and four more stack words (the 13th to 16th integer arguments, e.g. the output
/// strides of the f16 depthwise kernel), for [`call8`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CallArgs8 {
    pub args: CallArgs,
    pub more: [u64; 4],
}

impl CallArgs {
    pub fn f32_bits(v: f32) -> u64 {
        v.to_bits() as u64
    }
}

impl CallArgs8 {
    /// The registers and stack words of a call passing the integer and pointer arguments `ints`
    /// and the f32 arguments `floats`, each kind in prototype order: AAPCS64 gives each kind its
    /// own registers (x0-x7, s0-s7), and the integers past the eighth go on the stack in order.
    /// [`call_args!`](crate::call_args) casts the integers.
    pub fn of(ints: &[u64], floats: &[f32]) -> Self {
        assert!(
            ints.len() <= 16 && floats.len() <= 8,
            "more arguments than CallArgs8 holds"
        );
        let mut words = [0u64; 16];
        words[..ints.len()].copy_from_slice(ints);
        let mut d = [0u64; 8];
        for (slot, &v) in d.iter_mut().zip(floats) {
            *slot = CallArgs::f32_bits(v);
        }
        let part = |r: std::ops::Range<usize>| -> [u64; 8] {
            let mut out = [0; 8];
            out[..r.len()].copy_from_slice(&words[r]);
            out
        };
        let (x, stack, more) = (part(0..8), part(8..12), part(12..16));
        CallArgs8 {
            args: CallArgs {
                x,
                d,
                stack: [stack[0], stack[1], stack[2], stack[3]],
            },
            more: [more[0], more[1], more[2], more[3]],
        }
    }
}

/// The [`CallArgs8`] of a call: its integer and pointer arguments (each cast to u64), `;`, its
/// f32 arguments, each kind in prototype order. `call_args!(m, n, lhs.ptr(), 4 * n; min, max)`.
#[macro_export]
macro_rules! call_args {
    ($($int:expr),* $(,)?; $($float:expr),* $(,)?) => {
        $crate::support::abi::CallArgs8::of(&[$($int as u64),*], &[$($float),*])
    };
}

#[cfg(target_arch = "aarch64")]
mod imp {
    use super::{CallArgs, CallArgs8};

    // Frame: x29/x30, x19-x28, d8-d15 saved; canaries are 0xCA11_0000_0000_00NN for xNN and
    // 0xD00D_0000_0000_00NN for dNN. Returns a mask: bit NN set for each clobbered xNN, bit 32+NN
    // for dNN, bit 63 when sp or x29 moved.
    core::arch::global_asm!(
        ".text",
        ".global rkai_test_call_with_canaries",
        ".type rkai_test_call_with_canaries, %function",
        ".p2align 2",
        "rkai_test_call_with_canaries:",
        "stp x29, x30, [sp, #-160]!",
        "mov x29, sp",
        "stp x19, x20, [sp, #16]",
        "stp x21, x22, [sp, #32]",
        "stp x23, x24, [sp, #48]",
        "stp x25, x26, [sp, #64]",
        "stp x27, x28, [sp, #80]",
        "stp d8, d9, [sp, #96]",
        "stp d10, d11, [sp, #112]",
        "stp d12, d13, [sp, #128]",
        "stp d14, d15, [sp, #144]",
        ".irp n, 19,20,21,22,23,24,25,26,27,28",
        "mov x\\n, #\\n",
        "movk x\\n, #0xCA11, lsl #48",
        ".endr",
        ".irp n, 8,9,10,11,12,13,14,15",
        "mov x9, #\\n",
        "movk x9, #0xD00D, lsl #48",
        "fmov d\\n, x9",
        ".endr",
        "mov x16, x0",
        "mov x17, x1",
        "ldp d0, d1, [x17, #64]",
        "ldp d2, d3, [x17, #80]",
        "ldp d4, d5, [x17, #96]",
        "ldp d6, d7, [x17, #112]",
        "ldp x0, x1, [x17, #0]",
        "ldp x2, x3, [x17, #16]",
        "ldp x4, x5, [x17, #32]",
        "ldp x6, x7, [x17, #48]",
        "ldp x9, x10, [x17, #176]",
        "stp x9, x10, [sp, #-16]!",
        "ldp x9, x10, [x17, #160]",
        "stp x9, x10, [sp, #-16]!",
        "ldp x9, x10, [x17, #144]",
        "stp x9, x10, [sp, #-16]!",
        "ldp x9, x10, [x17, #128]",
        "stp x9, x10, [sp, #-16]!",
        "blr x16",
        "add sp, sp, #64",
        "mov x0, #0",
        ".irp n, 19,20,21,22,23,24,25,26,27,28",
        "mov x9, #\\n",
        "movk x9, #0xCA11, lsl #48",
        "cmp x\\n, x9",
        "mov x10, #1",
        "lsl x10, x10, #\\n",
        "orr x11, x0, x10",
        "csel x0, x11, x0, ne",
        ".endr",
        ".irp n, 8,9,10,11,12,13,14,15",
        "mov x9, #\\n",
        "movk x9, #0xD00D, lsl #48",
        "fmov x12, d\\n",
        "cmp x12, x9",
        "mov x10, #1",
        "lsl x10, x10, #(32 + \\n)",
        "orr x11, x0, x10",
        "csel x0, x11, x0, ne",
        ".endr",
        "mov x9, sp",
        "cmp x9, x29",
        "mov x10, #1",
        "lsl x10, x10, #63",
        "orr x11, x0, x10",
        "csel x0, x11, x0, ne",
        "mov sp, x29",
        "ldp x19, x20, [sp, #16]",
        "ldp x21, x22, [sp, #32]",
        "ldp x23, x24, [sp, #48]",
        "ldp x25, x26, [sp, #64]",
        "ldp x27, x28, [sp, #80]",
        "ldp d8, d9, [sp, #96]",
        "ldp d10, d11, [sp, #112]",
        "ldp d12, d13, [sp, #128]",
        "ldp d14, d15, [sp, #144]",
        "ldp x29, x30, [sp], #160",
        "ret",
        ".size rkai_test_call_with_canaries, . - rkai_test_call_with_canaries",
    );

    unsafe extern "C" {
        fn rkai_test_call_with_canaries(f: usize, args: *const CallArgs8) -> u64;
    }

    /// Calls `f` with `args`; returns the mask of clobbered callee-saved registers (0 = clean).
    ///
    /// # Safety
    /// `f` must be a C function whose arguments are exactly described by `args`.
    pub unsafe fn call(f: usize, args: &CallArgs) -> u64 {
        let args = CallArgs8 {
            args: *args,
            more: [0; 4],
        };
        // SAFETY: forwarded contract.
        unsafe { call8(f, &args) }
    }

    /// [`call`] with eight stack words.
    ///
    /// # Safety
    /// `f` must be a C function whose arguments are exactly described by `args`.
    pub unsafe fn call8(f: usize, args: &CallArgs8) -> u64 {
        // SAFETY: forwarded contract; CallArgs8 is repr(C): x[8] at 0, d[8] at 64, stack[4] at
        // 128, more[4] at 160.
        unsafe { rkai_test_call_with_canaries(f, args) }
    }
}

#[cfg(target_arch = "aarch64")]
#[allow(unused_imports)] // used by the tests that include this module on aarch64
pub use imp::{call, call8};

/// Describes a clobber mask.
pub fn describe(mask: u64) -> String {
    let mut names = Vec::new();
    for n in 19..=28 {
        if mask & (1 << n) != 0 {
            names.push(format!("x{n}"));
        }
    }
    for n in 8..=15 {
        if mask & (1 << (32 + n)) != 0 {
            names.push(format!("d{n}"));
        }
    }
    if mask & (1 << 63) != 0 {
        names.push("sp/x29".into());
    }
    names.join(",")
}

/// The caller's side of the AAPCS64 SME lazy-save protocol: ZA filled with a known pattern and
/// `TPIDR2_EL0` naming a TPIDR2 block whose buffer holds every slice, so that a private-ZA callee
/// must save ZA there and clear `TPIDR2_EL0` before it uses ZA.
#[cfg(target_arch = "aarch64")]
pub struct PendingZaSave {
    svl: usize,
    pattern: Vec<u8>,
    save: Vec<u8>,
    // Boxed: TPIDR2_EL0 holds its address while the save is pending.
    block: Box<[u64; 2]>,
}

#[cfg(target_arch = "aarch64")]
impl PendingZaSave {
    /// A caller's save for this CPU's streaming length, or `None` where there is nothing to
    /// check: no SME (no ZA state to protect, said on stderr) or no `isa` to run the kernel
    /// under test.
    pub fn for_isa(isa: rkai_ukernels::arch::Isa) -> Option<Self> {
        let Some(svl) = rkai_ukernels::arch::sme_vector_bytes() else {
            eprintln!("no SME on this CPU: no ZA state to protect");
            return None;
        };
        super::cpu::can_run(isa).then(|| Self::new(svl))
    }

    /// A pattern of `svl` slices of `svl` bytes (the streaming vector length in bytes).
    pub fn new(svl: usize) -> Self {
        PendingZaSave {
            svl,
            pattern: (0..svl * svl).map(|i| (i * 7 + i / svl) as u8).collect(),
            save: vec![0; svl * svl],
            block: Box::new([0; 2]),
        }
    }

    /// Turns ZA on, fills it with the pattern and makes its save pending.
    pub fn arm(&mut self) {
        self.save.fill(0);
        *self.block = [self.save.as_mut_ptr() as u64, self.svl as u64];
        // SAFETY: the CPU has SME (the caller read its streaming length); ZA is enabled and
        // filled from `pattern` (svl slices of svl bytes); TPIDR2_EL0 then points at a valid
        // block whose buffer holds svl slices and outlives the pending save.
        unsafe {
            core::arch::asm!(
                ".arch_extension sme",
                "smstart za",
                "mov w12, #0",
                "1:",
                "ldr za[w12, 0], [{src}]",
                "addsvl {src}, {src}, #1",
                "add w12, w12, #1",
                "cmp x12, {n}",
                "b.lo 1b",
                "msr S3_3_C13_C0_5, {block}",
                src = inout(reg) self.pattern.as_ptr() => _,
                n = in(reg) self.svl,
                block = in(reg) self.block.as_ptr(),
                out("x12") _,
                options(nostack),
            )
        };
    }

    /// `TPIDR2_EL0`: non-zero while a save is pending.
    pub fn tpidr2() -> u64 {
        let v: u64;
        // SAFETY: reading TPIDR2_EL0 is allowed at EL0 with SME.
        unsafe { core::arch::asm!("mrs {}, S3_3_C13_C0_5", out(reg) v, options(nomem, nostack)) };
        v
    }

    /// Asserts that `who` committed the save: `TPIDR2_EL0` cleared, ZA's pattern in the buffer.
    pub fn assert_committed(&self, who: &str) {
        assert_eq!(Self::tpidr2(), 0, "{who} left the lazy save pending");
        assert!(
            self.save == self.pattern,
            "{who} did not save ZA to the caller's buffer"
        );
    }

    /// Turns ZA off (the caller's state after a committed save, if the callee left ZA on).
    pub fn finish(self) {
        // SAFETY: SMSTOP ZA only clears PSTATE.ZA; no save is pending.
        unsafe { core::arch::asm!(".arch_extension sme", "smstop za", options(nomem, nostack)) };
    }
}
