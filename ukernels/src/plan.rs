//! Work planning for mixed SME and NEON execution: which output columns of one matmul go to an
//! SME kernel and which to a NEON (or SVE) kernel, on how many threads each, so that a
//! framework's own thread pool runs both at once.
//!
//! # Why
//! An SME unit is shared by the cores of a cluster (Apple M4: one per performance cluster, so
//! two on an M4 Pro's ten performance cores). More threads issuing SME instructions than there
//! are units queue on them: llama.cpp measured prompt processing (pp512, 8 threads, M4 Pro) at
//! 557 tokens/s with every thread on SME and 1,048 tokens/s with two SME threads beside NEON
//! threads (llama.cpp issue 20070). So at most one thread per unit runs SME; the other threads
//! run the best non-streaming kernel on the remaining columns.
//!
//! # Cost model
//! One SME unit computes as fast as [`CostModel::sme_unit_in_cores`] NEON cores on the same
//! family (a parameter: QEMU, where rkai's tests run, shows no speed). The columns split in
//! proportion to the two sides' throughput, `s * u` against `t`, for `s` SME threads, `u` the
//! ratio and `t` NEON threads; the SME part is rounded to whole steps of its kernel. The default
//! ratio, 4, is what makes the anchor above consistent: 2 units doing the work of 8 cores (the
//! SME-only run) alone, plus 6 NEON threads, give about the measured doubling.
//!
//! The two sides read different packed formats (SME tiles follow the streaming length): each
//! packs only its own columns, through the packers' column offsets, unless both kernels read the
//! same bytes ([`Plan::shared_packing`]).

use crate::arch::Features;
use crate::family::Family;
use crate::kernel::MatmulKernel;
use crate::pack::kinds::WeightLayout;
use crate::select::{self, Pair, Shape};

/// The throughput ratio the split follows (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    /// Work one SME unit does in the time one core does one unit of it with the NEON kernel.
    pub sme_unit_in_cores: f32,
}

impl CostModel {
    /// The ratio the llama.cpp M4 Pro measurement gives (module documentation).
    pub const DEFAULT: CostModel = CostModel {
        sme_unit_in_cores: 4.0,
    };
}

/// What the plan is for.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// The matmul family.
    pub family: Family,
    /// GEMV (m = 1) or GEMM.
    pub shape: Shape,
    /// Output columns.
    pub n: usize,
    /// Threads the framework will run.
    pub threads: usize,
    /// SME units the threads share (0: none).
    pub sme_units: usize,
    /// The CPU's features (as selection uses them).
    pub features: Features,
    /// 32-bit lanes of an SVE vector (selection's tie-break between SVE and NEON).
    pub sve_lanes32: usize,
    /// The throughput ratio of the split.
    pub model: CostModel,
    /// The layout of the caller's weights: each side's pair is the best one having an RHS packer
    /// for it, as the typed selection `rkai_select_<family>_<layout>` returns (`None`: any pair).
    pub layout: Option<WeightLayout>,
}

/// One side of a plan: a kernel pair, its threads and its columns.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The GEMV/GEMM pair of this side (they share one packed RHS format).
    pub pair: Pair,
    /// The kernel for the request's shape.
    pub kernel: &'static MatmulKernel,
    /// Threads that run it.
    pub threads: usize,
    /// First output column (a multiple of the kernel's `n_step`).
    pub n_start: usize,
    /// Output columns, from `n_start`.
    pub n_len: usize,
}

/// Which columns go where. At least one side is present when the family runs at all.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The SME side: columns `[0, n_len)`, one thread per unit at most.
    pub sme: Option<Part>,
    /// The NEON (or SVE) side: the remaining columns.
    pub neon: Option<Part>,
    /// Whether both sides' kernels read the same packed bytes (then one packing serves both).
    pub shared_packing: bool,
}

/// The plan for `r`, or `None` when no kernel of the family runs with `r.features`.
pub fn plan(r: &Request) -> Option<Plan> {
    let threads = r.threads.max(1);
    let packs_layout = |p: &Pair| r.layout.is_none_or(|l| p.rhs_packer_for(l).is_some());
    let best = |features: Features| {
        select::best_pair_where(r.family, features, r.sve_lanes32, packs_layout)
    };
    let sme_pair = best(r.features).filter(|p| p.kernel(r.shape).isa.is_streaming());
    let neon_features = r.features.difference(Features::SME_FAMILY);
    let neon_pair = best(neon_features);
    let part = |pair: Pair, threads: usize, n_start: usize, n_len: usize| Part {
        pair,
        kernel: pair.kernel(r.shape),
        threads,
        n_start,
        n_len,
    };
    let (sme, neon) = match (sme_pair, neon_pair) {
        (None, None) => return None,
        // Only SME kernels run (at least one thread, even with no unit counted).
        (Some(s), None) => (Some(part(s, threads.min(r.sme_units.max(1)), 0, r.n)), None),
        (None, Some(v)) => (None, Some(part(v, threads, 0, r.n))),
        // No unit to run SME on: NEON only.
        (Some(_), Some(v)) if r.sme_units == 0 => (None, Some(part(v, threads, 0, r.n))),
        // A unit for every thread: SME only.
        (Some(s), Some(_)) if threads <= r.sme_units => (Some(part(s, threads, 0, r.n)), None),
        (Some(s), Some(v)) => {
            let sme_threads = r.sme_units;
            let neon_threads = threads - sme_threads;
            let step = lcm(
                s.kernel(r.shape).tile().n_step,
                v.kernel(r.shape).tile().n_step,
            );
            let n_sme = sme_columns(r, step, sme_threads, neon_threads);
            match n_sme {
                0 => (None, Some(part(v, threads, 0, r.n))),
                n if n == r.n => (Some(part(s, sme_threads, 0, r.n)), None),
                n => (
                    Some(part(s, sme_threads, 0, n)),
                    Some(part(v, neon_threads, n, r.n - n)),
                ),
            }
        }
    };
    let shared_packing = match (sme, neon) {
        (Some(s), Some(v)) => select::share_rhs_format(s.kernel, v.kernel),
        _ => false,
    };
    Some(Plan {
        sme,
        neon,
        shared_packing,
    })
}

/// Columns for the SME side: its share of the throughput, rounded to the nearest multiple of
/// `step` (both kernels' column step, so that the NEON side starts on one of its own steps; a
/// side worth less than half a step gets none).
fn sme_columns(r: &Request, step: usize, sme_threads: usize, neon_threads: usize) -> usize {
    let sme = sme_threads as f32 * r.model.sme_unit_in_cores.max(0.0);
    let share = sme / (sme + neon_threads as f32);
    if !share.is_finite() {
        return r.n;
    }
    let step = step.max(1);
    let steps = (r.n as f32 * share / step as f32 + 0.5) as usize;
    (steps * step).min(r.n)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    match gcd(a, b) {
        0 => 0,
        g => a / g * b,
    }
}
