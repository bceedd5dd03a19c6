//! [`Kernel`]: a catalog kernel this CPU runs, of a family the safe API covers, with the formats
//! of the operands it reads. Its constructors, which need the source forms, are in `choice`.

use super::chunks::Chunks;
use super::error::{Error, Result};
use crate::kernel::MatmulKernel;
use crate::layout::RhsLayout;
use crate::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use crate::pack::lhs;

/// A kernel this CPU can run, of a family the safe API covers.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub(super) kernel: &'static MatmulKernel,
}

impl Kernel {
    /// The catalog entry.
    pub fn entry(&self) -> &'static MatmulKernel {
        self.kernel
    }

    /// Bytes of storage that `n x k` weights (block length `bl`, 0 per channel) packed for this
    /// kernel need ([`super::PackedWeights::pack`]).
    pub fn packed_weights_size(&self, n: usize, k: usize, bl: usize) -> Result<usize> {
        if chunked_weights(self.kernel) {
            // K as one chunk, as `pack` packs it for these kernels.
            return self.packed_chunked_weights_size(
                n,
                Chunks {
                    count: 1,
                    length: k,
                },
            );
        }
        let f = self.rhs_format(bl);
        Ok(f.layout.size(n, k, f.nr, f.kr, f.sr)?)
    }

    /// Bytes of storage that `m x k` activations (block length `bl` of the weights they meet,
    /// 0 per channel) packed for this kernel need ([`super::PackedActivations::pack`]);
    /// [`Error::LhsForm`] for a kernel that reads rows as they are ([`Kernel::reads_packed_lhs`]).
    pub fn packed_activations_size(&self, m: usize, k: usize, bl: usize) -> Result<usize> {
        let kind = self.lhs_kind()?;
        Ok(lhs::packed_size(kind, m, &self.lhs_dims(k, bl))?)
    }

    /// Whether this kernel reads its activations packed ([`super::Lhs::Packed`]) rather than as
    /// rows ([`super::Lhs::Rows`]: the f32 and f16 GEMMs `matmul_clamp_f32_f32_f32p` and
    /// `matmul_clamp_f16_f16_f16p`, the int8 GEMV `matmul_clamp_qai8_qai8_qsi8cxp`) or through an
    /// indirection table ([`super::Lhs::Indirect`]: `imatmul_clamp_f32_f32_f32p`).
    ///
    /// ```
    /// use rkai_ukernels::api::Kernel;
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// if let Ok(gemm) = Kernel::select(Family::F32F32F32p, Shape::Gemm) {
    ///     assert!(!gemm.reads_packed_lhs());
    /// }
    /// ```
    pub fn reads_packed_lhs(&self) -> bool {
        lhs_kinds(self.kernel).next().is_some()
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
        lhs_kinds(self.kernel).next().ok_or(Error::LhsForm {
            kernel_reads_packed: false,
        })
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

/// A packed weight format: what a kernel must read to use a packed buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RhsFormat {
    pub(super) layout: RhsLayout,
    pub(super) nr: usize,
    pub(super) kr: usize,
    pub(super) sr: usize,
}

/// Whether the kernel's tile depends on a vector length (SVE or streaming): its packed buffers
/// are only valid on CPUs with the same vector length.
pub fn is_vector_length_dependent(kernel: &Kernel) -> bool {
    kernel.kernel.columns.follows_vector_length()
}

/// Whether `kernel`'s weights are packed as chunks (its RHS packer is a chunked one).
pub(super) fn chunked_weights(kernel: &'static MatmulKernel) -> bool {
    rhs_kinds(kernel).any(|kind| {
        matches!(
            kind,
            RhsPackerKind::ChunkedFloat(_) | RhsPackerKind::ChunkedQsi8cxpsb
        )
    })
}
