//! [`Kernel`]: a catalog kernel this CPU runs, of a family the safe API covers, and its choice.

use super::activations;
use super::error::{Error, Result};
use super::weights::{self, RhsFormat};
use crate::arch::{self, Features};
use crate::element::Output;
use crate::family::Family;
use crate::kernel::MatmulKernel;
use crate::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use crate::pack::lhs;
use crate::select::{self, Shape};
use crate::select_env;

/// A kernel this CPU can run, of a family the safe API covers.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub(super) kernel: &'static MatmulKernel,
}

impl Kernel {
    /// Wraps a catalog entry after checking that the safe API covers it (its weights and
    /// activations have a source form here, its output is a float type) and (on aarch64) that
    /// this CPU has its features (and, for a kernel of one SVE length, that length).
    pub fn new(kernel: &'static MatmulKernel) -> Result<Kernel> {
        let float_output = !matches!(kernel.family.output(), Output::I8);
        let packed_weights = rhs_kinds(kernel).any(weights::takes_some_form);
        let packed_activations = lhs_kinds(kernel).any(activations::takes_some_form);
        if !(float_output && packed_weights && packed_activations) {
            return Err(Error::UnsupportedFamily(kernel.family.dir()));
        }
        let runs_here = Features::detect().contains(kernel.isa.features())
            && kernel.runs_at_sve_lanes32(arch::sve_lanes32());
        if cfg!(target_arch = "aarch64") && !runs_here {
            return Err(Error::NotSupportedByCpu(kernel.stem));
        }
        Ok(Kernel { kernel })
    }

    /// The best GEMV and GEMM of `family` for this CPU; they share one packed weight format.
    /// Chosen as C's `rkai_select_<family>` chooses ([`crate::select_env`]): `RKAI_FEATURES`
    /// restricts the features, `RKAI_LOG_SELECTION` logs the choice, and off AArch64 only the
    /// kernels whose formats follow no vector length are offered (their portable paths run).
    pub fn select_pair(family: Family) -> Result<(Kernel, Kernel)> {
        let features = select_env::allowed_features(select_env::ALL);
        let pair = select::best_pair(family, features, arch::sve_lanes32());
        for shape in [Shape::Gemv, Shape::Gemm] {
            select_env::log_choice(family, shape, pair.map(|p| p.kernel(shape)), features);
        }
        let pair = pair.ok_or(Error::NotSupportedByCpu(family.dir()))?;
        Ok((Kernel::new(pair.gemv)?, Kernel::new(pair.gemm)?))
    }

    /// The best kernel of `family` for `shape` on this CPU.
    pub fn select(family: Family, shape: Shape) -> Result<Kernel> {
        let (gemv, gemm) = Kernel::select_pair(family)?;
        Ok(match shape {
            Shape::Gemv => gemv,
            Shape::Gemm => gemm,
        })
    }

    /// The catalog entry.
    pub fn entry(&self) -> &'static MatmulKernel {
        self.kernel
    }

    /// Bytes of storage that `n x k` weights (block length `bl`, 0 per channel) packed for this
    /// kernel need ([`super::PackedWeights::pack`]).
    pub fn packed_weights_size(&self, n: usize, k: usize, bl: usize) -> Result<usize> {
        let f = self.rhs_format(bl);
        Ok(f.layout.size(n, k, f.nr, f.kr, f.sr)?)
    }

    /// Bytes of storage that `m x k` activations (block length `bl` of the weights they meet,
    /// 0 per channel) packed for this kernel need ([`super::PackedActivations::pack`]).
    pub fn packed_activations_size(&self, m: usize, k: usize, bl: usize) -> Result<usize> {
        let kind = self.lhs_kind()?;
        Ok(lhs::packed_size(kind, m, &self.lhs_dims(k, bl))?)
    }

    /// Format of the packed weights this kernel reads.
    pub(super) fn rhs_format(&self, bl: usize) -> RhsFormat {
        let t = self.kernel.tile();
        RhsFormat {
            layout: self.kernel.family.rhs_layout(bl),
            nr: t.nr,
            kr: t.kr,
            sr: t.sr,
        }
    }

    /// The kind of the kernel's own LHS packer (its first; the others of a kernel write the same
    /// format from another source type, [`super::PackedActivations::pack`] picks by source).
    pub(super) fn lhs_kind(&self) -> Result<LhsPackerKind> {
        lhs_kinds(self.kernel)
            .next()
            .ok_or(Error::UnsupportedFamily(self.kernel.family.dir()))
    }

    /// The packing parameters of this kernel's LHS for `k` and block length `bl`.
    pub(super) fn lhs_dims(&self, k: usize, bl: usize) -> lhs::Dims {
        let t = self.kernel.tile();
        lhs::Dims {
            k,
            bl,
            mr: t.mr,
            kr: t.kr,
            sr: t.sr,
        }
    }
}

/// The kinds of `kernel`'s RHS packers.
pub(super) fn rhs_kinds(kernel: &'static MatmulKernel) -> impl Iterator<Item = RhsPackerKind> {
    kernel.rhs_packers.iter().filter_map(|p| match p.kind {
        PackerKind::Rhs(kind) => Some(kind),
        PackerKind::Lhs(_) => None,
    })
}

/// The kinds of `kernel`'s LHS packers.
pub(super) fn lhs_kinds(kernel: &'static MatmulKernel) -> impl Iterator<Item = LhsPackerKind> {
    kernel
        .lhs_packers
        .iter()
        .filter_map(|p: &&'static Packer| match p.kind {
            PackerKind::Lhs(kind) => Some(kind),
            PackerKind::Rhs(_) => None,
        })
}

/// Whether the kernel's tile depends on a vector length (SVE or streaming): its packed buffers
/// are only valid on CPUs with the same vector length.
pub fn is_vector_length_dependent(kernel: &Kernel) -> bool {
    kernel.kernel.columns.follows_vector_length()
}
