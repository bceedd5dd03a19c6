//! Run-time kernel selection: the best GEMV/GEMM pair of a family that a CPU can run.
//!
//! Consumers pack weights once and then run both decode-style GEMVs (m = 1) and prefill-style
//! GEMMs on them, so selection works on *pairs* that read one packed RHS format (same `nr`, `kr`,
//! `sr` and column scaling, and an RHS packer in common). Asking for the GEMV and then for the GEMM of a family always yields
//! the two halves of the same pair. A GEMV kernel also serves as the GEMM of its own pair (it
//! loops over rows), and a multi-row kernel with no GEMV reading its format (the float GEMMs,
//! whose every tile is 6 rows) serves as its own GEMV.
//!
//! Pairs are ranked by, in order:
//! 1. the GEMM's instruction tier: SME2 over SME (outer products into ZA, SME2 with
//!    multi-vector loads and epilogues) over i8mm (`SMMLA`) over dotprod (`SDOT`) over the rest,
//!    since the GEMM dominates prefill and each tier multiplies its MACs per instruction;
//! 2. SVE kernels over NEON ones when the SVE vector is wider than 128 bits, NEON ones over SVE
//!    ones at 128 bits (same width, and the NEON loops are the more mature schedules);
//! 3. kernels scheduled for the CPU's kind of core: the `_cortexa55` variants on in-order cores
//!    ([`Features::IN_ORDER`]), the generic ones elsewhere (an in-order schedule spends extra
//!    instructions an out-of-order core does not need);
//! 4. a GEMV with one row per step over a multi-row kernel standing in for one (which would
//!    compute rows nobody asked for);
//! 5. the GEMM's tile area (`m_step x n_step` at this vector length): more reuse per load;
//! 6. the GEMV's column step: wider GEMVs stream weights with fewer loop overheads;
//! 7. the GEMV's instruction tier (an SME2 GEMV over the SME one reading the same format);
//! 8. catalog order (entries sharing one loop rank equal; the first is taken).

use crate::arch::{Features, Isa};
use crate::catalog::KERNELS;
use crate::family::Family;
use crate::kernel::{MatmulKernel, Rows};
use crate::pack::kinds::{Packer, WeightLayout};

/// The shape class a kernel is chosen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One LHS row (m = 1): token generation, batch-1 linear layers.
    Gemv,
    /// Several LHS rows: prefill, batched inference, convolutions as GEMM.
    Gemm,
}

/// A GEMV and a GEMM kernel of one family that read the same packed RHS.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    /// Kernel for m = 1 (its `m_step` is 1, unless no such kernel reads the GEMM's format: then
    /// the GEMM itself).
    pub gemv: &'static MatmulKernel,
    /// Kernel for m > 1 (the GEMV itself when no multi-row kernel can run).
    pub gemm: &'static MatmulKernel,
}

impl Pair {
    /// The member for `shape`.
    pub fn kernel(self, shape: Shape) -> &'static MatmulKernel {
        match shape {
            Shape::Gemv => self.gemv,
            Shape::Gemm => self.gemm,
        }
    }

    /// Whether `features` cover both members' ISAs.
    pub fn runs_with(self, features: Features) -> bool {
        features.contains(self.gemv.isa.features()) && features.contains(self.gemm.isa.features())
    }

    /// An RHS packer reading weights in `layout` and writing the format both members read.
    pub fn rhs_packer_for(self, layout: WeightLayout) -> Option<&'static Packer> {
        let read_by_gemv = |p: &Packer| self.gemv.rhs_packers.iter().any(|q| q.name == p.name);
        (self.gemm.rhs_packers.iter().copied())
            .find(|p| p.weight_layout() == Some(layout) && read_by_gemv(p))
    }
}

/// Whether two kernels read the same packed RHS (and so can share packed weights): same tile
/// geometry and a packer in common (the SME and SME2 Q4_0 kernels have one geometry but read
/// different nibble orders), in one family or in two that read one layout into one output type
/// (KleidiAI's SME2 GEMVs that read the packed weights of another family's SME GEMMs: the int8
/// `matmul_clamp_qai8_qai8_qsi8cxp` those of `matmul_clamp_qai8_qai8p_qsi8cxp`).
pub fn share_rhs_format(a: &MatmulKernel, b: &MatmulKernel) -> bool {
    let (ta, tb) = (a.base_tile, b.base_tile);
    let (fa, fb) = (a.family, b.family);
    let same_reading =
        fa == fb || (fa.output() == fb.output() && fa.rhs_layout(0) == fb.rhs_layout(0));
    same_reading
        && a.columns.of_columns() == b.columns.of_columns()
        && (ta.nr, ta.kr, ta.sr) == (tb.nr, tb.kr, tb.sr)
        && a.rhs_packers
            .iter()
            .any(|p| b.rhs_packers.iter().any(|q| core::ptr::eq(*p, *q)))
}

/// Every pair of `family` (any ISA), in catalog order of the GEMM then the GEMV. A GEMV kernel
/// also serves as the GEMM of its own pair (it loops over rows), so a family whose multi-row
/// kernels need more than the CPU has still gets a pair; a multi-row kernel that no GEMV shares a
/// format with is its own GEMV. Kernels limited to one row per call are GEMVs only.
pub fn pairs(family: Family) -> impl Iterator<Item = Pair> {
    let of_family = move |k: &&&MatmulKernel| k.family == family;
    let multi_row = |k: &&&MatmulKernel| k.rows == Rows::Any;
    KERNELS
        .iter()
        .filter(of_family)
        .filter(multi_row)
        .flat_map(move |gemm| {
            let gemvs = KERNELS
                .iter()
                .filter(of_family)
                .filter(|k| k.steps_one_row())
                .filter(move |gemv| share_rhs_format(gemv, gemm));
            let alone = gemvs.clone().next().is_none().then_some(gemm);
            gemvs.chain(alone).map(move |gemv| Pair { gemv, gemm })
        })
}

/// The best pair of `family` whose kernels run with `features`, ranked as the module describes
/// with `sve_lanes32` 32-bit lanes per SVE vector; `None` if no pair runs (for example the integer
/// families on a CPU without dotprod).
pub fn best_pair(family: Family, features: Features, sve_lanes32: usize) -> Option<Pair> {
    best_pair_where(family, features, sve_lanes32, |_| true)
}

/// [`best_pair`] among the pairs `accept` admits (for example those with a packer for the
/// caller's weight layout).
pub fn best_pair_where(
    family: Family,
    features: Features,
    sve_lanes32: usize,
    accept: impl Fn(&Pair) -> bool,
) -> Option<Pair> {
    let mut best: Option<(Rank, Pair)> = None;
    let runs =
        |p: &Pair| p.gemv.runs_on(features, sve_lanes32) && p.gemm.runs_on(features, sve_lanes32);
    for pair in pairs(family).filter(|p| runs(p) && accept(p)) {
        let rank = Rank::of(pair, sve_lanes32, features.contains(Features::IN_ORDER));
        if best.is_none_or(|(r, _)| rank > r) {
            best = Some((rank, pair));
        }
    }
    best.map(|(_, p)| p)
}

/// [`best_pair`] for a caller that can call kernels of more than one family (the Rust API,
/// whose `Kernel` wraps any): where the family's best pair has no one-row GEMV, the best one-row
/// GEMV of another family reading the GEMM's packed weights ([`share_rhs_format`]) joins the
/// GEMM, and a family of one-row GEMVs only gets the best GEMM of another family reading their
/// weights. So the int8 GEMMs `qai8_qai8p_qsi8cxp` pair with the SME2 int8 GEMV
/// `qai8_qai8_qsi8cxp`, from either side. C's `rkai_select_<family>` keeps [`best_pair`]: its
/// choice struct holds the family's own interface, which another family's kernel has not.
pub fn best_pair_across_families(
    family: Family,
    features: Features,
    sve_lanes32: usize,
) -> Option<Pair> {
    let own = best_pair(family, features, sve_lanes32);
    if own.is_some_and(|p| p.gemv.steps_one_row()) {
        return own;
    }
    let runs = move |k: &MatmulKernel| k.runs_on(features, sve_lanes32);
    let gemvs = KERNELS
        .iter()
        .copied()
        .filter(move |k| k.steps_one_row() && runs(k));
    let gemms = move || {
        KERNELS
            .iter()
            .copied()
            .filter(move |k| k.rows == Rows::Any && runs(k))
    };
    let joins = |p: &Pair| match own {
        // Another family's GEMV for the family's GEMM.
        Some(own) => core::ptr::eq(p.gemm, own.gemm) && p.gemv.family != family,
        // Another family's GEMM for the family's GEMV.
        None => p.gemv.family == family,
    };
    let in_order = features.contains(Features::IN_ORDER);
    gemvs
        .flat_map(|gemv| gemms().map(move |gemm| Pair { gemv, gemm }))
        .filter(|p| joins(p) && share_rhs_format(p.gemv, p.gemm))
        .max_by_key(|p| Rank::of(*p, sve_lanes32, in_order))
        .or(own)
}

/// The best kernel of `family` for `shape` on a CPU with `features` (see [`best_pair`]). A
/// family of one-row GEMVs only (`qai8_qai8_qsi8cxp`) has no pair: its best GEMV
/// ([`best_lone_gemv`]) serves one row, and nothing of it serves several.
pub fn best_kernel(
    family: Family,
    shape: Shape,
    features: Features,
    sve_lanes32: usize,
) -> Option<&'static MatmulKernel> {
    match best_pair(family, features, sve_lanes32) {
        Some(pair) => Some(pair.kernel(shape)),
        None if shape == Shape::Gemv => best_lone_gemv(family, features, sve_lanes32),
        None => None,
    }
}

/// The best one-row kernel of a family that has no pair (every kernel of it steps one row),
/// ranked as the GEMV of a pair; `None` for a family with pairs or where none runs.
pub fn best_lone_gemv(
    family: Family,
    features: Features,
    sve_lanes32: usize,
) -> Option<&'static MatmulKernel> {
    if pairs(family).next().is_some() {
        return None;
    }
    let in_order = features.contains(Features::IN_ORDER);
    KERNELS
        .iter()
        .copied()
        .filter(|k| k.family == family && k.steps_one_row())
        .filter(|k| k.runs_on(features, sve_lanes32))
        .max_by_key(|&k| Rank::of(Pair { gemv: k, gemm: k }, sve_lanes32, in_order))
}

/// Sort key of a pair; larger is better. Fields compare in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    gemm_tier: u8,
    vector_preference: i8,
    schedule_fits: bool,
    single_row_gemv: bool,
    gemm_area: usize,
    gemv_columns: usize,
    gemv_tier: u8,
}

impl Rank {
    fn of(pair: Pair, sve_lanes32: usize, in_order: bool) -> Rank {
        // SME tiles compare only with each other (their tier sets them apart from the rest), all
        // in the same streaming unit: the smallest streaming length (4 lanes) orders them as any.
        let tile = |k: &MatmulKernel| k.base_tile.scaled(k.columns, sve_lanes32, 4);
        let uses_sve = pair.gemm.isa.is_sve() || pair.gemv.isa.is_sve();
        let vector_preference = match (uses_sve, sve_lanes32 > 4) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => -1,
        };
        let gemm = tile(pair.gemm);
        Rank {
            gemm_tier: tier(pair.gemm.isa),
            vector_preference,
            schedule_fits: [pair.gemv, pair.gemm]
                .iter()
                .all(|k| tuned_for_in_order(k) == in_order),
            single_row_gemv: pair.gemv.steps_one_row(),
            gemm_area: gemm.m_step * gemm.n_step,
            gemv_columns: tile(pair.gemv).n_step,
            gemv_tier: tier(pair.gemv.isa),
        }
    }
}

/// Whether `kernel` is scheduled for an in-order core (KleidiAI's `_cortexa55` variants).
pub fn tuned_for_in_order(kernel: &MatmulKernel) -> bool {
    kernel.stem.ends_with("_cortexa55")
}

/// Instruction tier of an integer kernel: SME2, SME, matrix multiply-accumulate, dot product, or
/// neither.
const fn tier(isa: Isa) -> u8 {
    match isa {
        Isa::Sme2 | Isa::Sme2p1 => 4,
        Isa::Sme => 3,
        Isa::NeonI8mm | Isa::NeonFp16I8mm | Isa::SveI8mm | Isa::Sve2I8mm => 2,
        Isa::NeonDotprod | Isa::NeonFp16Dotprod | Isa::SveDotprod | Isa::Sve2Dotprod => 1,
        _ => 0,
    }
}

/// Families that have at least one kernel, in the order of [`Family::ALL`].
pub fn families() -> impl Iterator<Item = Family> {
    Family::ALL
        .into_iter()
        .filter(|family| KERNELS.iter().any(|k| k.family == *family))
}
