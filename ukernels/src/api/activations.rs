//! [`Activations`] (the source forms of a layer's input rows) and [`PackedActivations`] (rows
//! packed, and quantized where the format asks, for a kernel).
//!
//! As for the weights, each source form names the LHS packer kinds that take it
//! ([`Activations::packed_by`]) and packing goes through the checked dispatcher every C packer
//! uses ([`crate::pack::lhs::pack`]).

use super::chunks::Chunks;
use super::error::{Error, Result, need, same_vector_length, strided_len};
use super::kernel::{Kernel, lhs_kinds};
use crate::element::Output;
use crate::family::Operands;
use crate::kernel::MatmulKernel;
use crate::pack::kinds::{
    Bf16LhsPacker, LhsPackerKind, LhsType, Qsi8d32pscalef32Packer, SmeRowsPacker,
};
use crate::pack::lhs::{self, Args};

/// `m` rows of `k` input values, `stride` elements apart (`stride >= k`; `k` for contiguous rows):
/// floats the kernel's packer quantizes or converts as its format asks, or int8 values already
/// quantized.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Activations<'a> {
    /// `f32` rows.
    F32 {
        /// `(m - 1) * stride + k` values at least.
        data: &'a [f32],
        /// Elements between the starts of two rows.
        stride: usize,
    },
    /// IEEE half-precision rows.
    F16 {
        /// `(m - 1) * stride + k` values at least.
        data: &'a [half::f16],
        /// Elements between the starts of two rows.
        stride: usize,
    },
    /// bfloat16 rows.
    Bf16 {
        /// `(m - 1) * stride + k` values at least.
        data: &'a [half::bf16],
        /// Elements between the starts of two rows.
        stride: usize,
    },
    /// Quantized int8 rows, for the int8-output families. Their zero point (and scale) is not
    /// here but in the weights, which fold it in when they are packed
    /// ([`InputQuantization`](super::InputQuantization)).
    ///
    /// ```
    /// use rkai_ukernels::api::{Activations, Lhs};
    ///
    /// let q = [-3i8, 17, 0, 127, -128, 5];
    /// // One row of 6 values, as the int8-output GEMV reads it.
    /// let row = Lhs::Rows { m: 1, k: 6, rows: Activations::Int8 { data: &q, stride: 6 } };
    /// assert_eq!(row.k(), 6);
    /// ```
    Int8 {
        /// `(m - 1) * stride + k` values at least.
        data: &'a [i8],
        /// Elements (bytes) between the starts of two rows.
        stride: usize,
    },
}

/// A source form of [`Activations`] without its data: its element type, all that decides which
/// packers take it (and which kernels read its rows as they are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FormKind {
    F32,
    F16,
    Bf16,
    Int8,
}

impl FormKind {
    const ALL: [FormKind; 4] = [FormKind::F32, FormKind::F16, FormKind::Bf16, FormKind::Int8];

    /// Whether a packer of `kind` takes rows of this form: the one table of the forms.
    fn packed_by(self, kind: LhsPackerKind) -> bool {
        match (self, kind) {
            (FormKind::F32, LhsPackerKind::Qai8dxp(t)) => t == LhsType::F32,
            (FormKind::F16, LhsPackerKind::Qai8dxp(t)) => t == LhsType::F16,
            (FormKind::Bf16, LhsPackerKind::Qai8dxp(t)) => t == LhsType::Bf16,
            (FormKind::F32, LhsPackerKind::Qsi8d32p(_) | LhsPackerKind::F16pmrx2) => true,
            (FormKind::F32, LhsPackerKind::Qsi8d32pscalef32(v)) => v == Qsi8d32pscalef32Packer::F32,
            (FormKind::F16, LhsPackerKind::Qsi8d32pscalef32(v)) => v == Qsi8d32pscalef32Packer::F16,
            (FormKind::F32, LhsPackerKind::Bf16(v)) => v != Bf16LhsPacker::Bf16p8x4F16,
            (FormKind::F16, LhsPackerKind::Bf16(v)) => v == Bf16LhsPacker::Bf16p8x4F16,
            (FormKind::F32, LhsPackerKind::SmeRows(v)) => v == SmeRowsPacker::F32p2vlx1,
            // The 16-bit row copies of the f16 GEMMs, which read them as f16.
            (FormKind::F16, LhsPackerKind::SmeRows(v)) => v == SmeRowsPacker::X16p2vlx2,
            (FormKind::Int8, LhsPackerKind::SmeRows(v)) => v == SmeRowsPacker::X8p2vlx4,
            _ => false,
        }
    }

    /// The form whose rows `kernel` reads as they are (its family packs no LHS): rows of the
    /// output type for the float GEMMs, int8 for the int8-output GEMV.
    pub(super) fn read_unpacked_by(kernel: &MatmulKernel) -> Option<FormKind> {
        match (kernel.family.description().operands, kernel.family.output()) {
            (Operands::UnpackedFloat, Output::F32) => Some(FormKind::F32),
            (Operands::UnpackedFloat, Output::F16) => Some(FormKind::F16),
            (Operands::Qai8Qsi8cxpsb, _) => Some(FormKind::Int8),
            _ => None,
        }
    }
}

/// Whether some source form of [`Activations`] is packed by a packer of `kind`.
pub(super) fn takes_some_form(kind: LhsPackerKind) -> bool {
    FormKind::ALL.into_iter().any(|form| form.packed_by(kind))
}

impl Activations<'_> {
    /// Whether a packer of `kind` takes this source form.
    ///
    /// ```
    /// use rkai_ukernels::api::Activations;
    /// use rkai_ukernels::pack::kinds::{LhsPackerKind, LhsType};
    ///
    /// let x = [0f32; 8];
    /// let rows = Activations::F32 { data: &x, stride: 4 };
    /// assert!(rows.packed_by(LhsPackerKind::Qai8dxp(LhsType::F32)));
    /// assert!(!rows.packed_by(LhsPackerKind::Qai8dxp(LhsType::F16)));
    /// ```
    pub fn packed_by(&self, kind: LhsPackerKind) -> bool {
        self.kind().packed_by(kind)
    }

    /// The form without its data.
    pub(super) fn kind(&self) -> FormKind {
        match self {
            Activations::F32 { .. } => FormKind::F32,
            Activations::F16 { .. } => FormKind::F16,
            Activations::Bf16 { .. } => FormKind::Bf16,
            Activations::Int8 { .. } => FormKind::Int8,
        }
    }

    /// The source pointer, row stride in elements, bytes per element and values held.
    pub(super) fn rows(&self) -> (*const u8, usize, usize, usize) {
        match *self {
            Activations::F32 { data, stride } => (data.as_ptr().cast(), stride, 4, data.len()),
            Activations::F16 { data, stride } => (data.as_ptr().cast(), stride, 2, data.len()),
            Activations::Bf16 { data, stride } => (data.as_ptr().cast(), stride, 2, data.len()),
            Activations::Int8 { data, stride } => (data.as_ptr().cast(), stride, 1, data.len()),
        }
    }
}

/// Activations packed for a kernel: the storage plus the format and shape it holds.
#[derive(Clone, Copy, Debug)]
pub struct PackedActivations<S> {
    pub(super) storage: S,
    pub(super) kind: LhsPackerKind,
    pub(super) packed_for: &'static MatmulKernel,
    pub(super) m: usize,
    pub(super) k: usize,
    pub(super) bl: usize,
    /// K's chunks, for activations gathered through an indirection table.
    pub(super) chunks: Option<Chunks>,
    pub(super) vector_bytes: usize,
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> PackedActivations<S> {
    /// Packs `m x k` activations for `kernel` into `storage`
    /// ([`Kernel::packed_activations_size`] bytes), quantizing them where the kernel's format
    /// asks; `bl` is the block length of the weights they will meet (0 per channel).
    pub fn pack(
        kernel: &Kernel,
        m: usize,
        k: usize,
        bl: usize,
        activations: Activations<'_>,
        mut storage: S,
    ) -> Result<Self> {
        let kind = lhs_kinds(kernel.kernel)
            .find(|&kind| activations.packed_by(kind))
            .ok_or(Error::FormatMismatch("activations"))?;
        let dims = kernel.lhs_dims(k, bl);
        let size = lhs::packed_size(kind, m, &dims)?;
        need("packed activation storage", size, storage.as_ref().len())?;
        let (source, stride, element, held) = activations.rows();
        need("activations", strided_len(m, k, stride)?, held)?;
        let a = Args {
            m,
            k,
            bl,
            mr: dims.mr,
            kr: dims.kr,
            sr: dims.sr,
            m_idx_start: 0,
            lhs: source,
            lhs_stride: stride.saturating_mul(element),
            lhs_packed: storage.as_mut().as_mut_ptr(),
        };
        // SAFETY: the source holds the rows the packer reads (checked above) and the storage
        // its packed size.
        unsafe { lhs::pack(kind, &a)? };
        Ok(Self::of_rows(storage, kind, kernel, (m, k, bl)))
    }

    /// Takes bytes packed earlier (by [`PackedActivations::pack`], or KleidiAI's or rkai's C
    /// packer) for `kernel`'s format: `m x k` activations for weights of block length `bl` (0
    /// per channel), at `vector_bytes` ([`PackedActivations::vector_bytes`] when they were
    /// packed). Checks the storage size and that the format follows the same vector length on
    /// this CPU; the bytes themselves are the caller's responsibility (any bytes are
    /// memory-safe to compute with). Activations gathered through an indirection table come
    /// only from [`PackedActivations::pack_indirect`] ([`Error::FormatMismatch`] here);
    /// [`Error::LhsForm`] for a kernel that reads rows as they are.
    ///
    /// Activations packed once (say, a fixed prompt), kept as bytes and loaded back:
    ///
    /// ```
    /// use rkai_ukernels::api::{Activations, Error, Kernel, PackedActivations};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// let (m, k) = (3, 64);
    /// let kernel = match Kernel::select(Family::F32Qai8dxpQsi4cxp, Shape::Gemm) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without dotprod.
    ///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let x = vec![0.5f32; m * k];
    /// let rows = Activations::F32 { data: &x, stride: k };
    /// let storage = vec![0u8; kernel.packed_activations_size(m, k, 0)?];
    /// let packed = PackedActivations::pack(&kernel, m, k, 0, rows, storage)?;
    /// let (vector_bytes, saved) = (packed.vector_bytes(), packed.bytes().to_vec());
    /// let loaded = PackedActivations::from_bytes(&kernel, m, k, 0, vector_bytes, saved)?;
    /// assert_eq!(loaded.bytes(), packed.bytes());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_bytes(
        kernel: &Kernel,
        m: usize,
        k: usize,
        bl: usize,
        vector_bytes: usize,
        storage: S,
    ) -> Result<Self> {
        let kind = kernel.lhs_kind()?;
        if matches!(kind, LhsPackerKind::IndirectSmeRows(_)) {
            return Err(Error::FormatMismatch("indirectly packed activations"));
        }
        same_vector_length(vector_bytes, self::vector_bytes(kind, kernel.kernel))?;
        let size = kernel.packed_activations_size(m, k, bl)?;
        need("packed activation storage", size, storage.as_ref().len())?;
        Ok(Self::of_rows(storage, kind, kernel, (m, k, bl)))
    }

    /// `(m, k, bl)` activations packed from rows (not through a table) by a packer of `kind`
    /// for `kernel`, at this CPU's vector length.
    fn of_rows(
        storage: S,
        kind: LhsPackerKind,
        kernel: &Kernel,
        (m, k, bl): (usize, usize, usize),
    ) -> Self {
        PackedActivations {
            storage,
            kind,
            packed_for: kernel.kernel,
            m,
            k,
            bl,
            chunks: None,
            vector_bytes: vector_bytes(kind, kernel.kernel),
        }
    }
}

impl<S: AsRef<[u8]>> PackedActivations<S> {
    /// Whether `kernel` reads these bytes: a packer of the same kind and tile wrote them.
    pub fn is_read_by(&self, kernel: &Kernel) -> bool {
        let (a, b) = (self.packed_for.tile(), kernel.kernel.tile());
        (a.mr, a.kr, a.sr) == (b.mr, b.kr, b.sr)
            && lhs_kinds(kernel.kernel).any(|kind| same_format(kind, self.kind))
    }

    /// Rows.
    pub fn m(&self) -> usize {
        self.m
    }

    /// Inputs per row.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Block length of the weights they were packed for (0 per channel).
    pub fn bl(&self) -> usize {
        self.bl
    }

    /// Bytes per vector of the length the packed layout follows (the streaming length where
    /// the row tile is a number of streaming vectors: the SME packers, and the LHS of the SME
    /// outer-product kernels; 0 for the others): store it with the bytes and give it back to
    /// [`PackedActivations::from_bytes`].
    pub fn vector_bytes(&self) -> usize {
        self.vector_bytes
    }

    /// The packed bytes.
    pub fn bytes(&self) -> &[u8] {
        self.storage.as_ref()
    }

    /// Gives the storage back.
    pub fn into_storage(self) -> S {
        self.storage
    }
}

/// Whether the format a packer of `kind` writes depends on the weights' block length.
pub(super) fn blockwise(kind: LhsPackerKind) -> bool {
    match kind {
        LhsPackerKind::Qsi8d32p(_)
        | LhsPackerKind::Qsi8d32pscalef32(_)
        | LhsPackerKind::F16pmrx2 => true,
        LhsPackerKind::Qai8dxp(_)
        | LhsPackerKind::Bf16(_)
        | LhsPackerKind::SmeRows(_)
        | LhsPackerKind::IndirectSmeRows(_) => false,
    }
}

/// Bytes per vector of the length the rows a packer of `kind` writes for `kernel` follow: the
/// streaming vector where the row tile scales with it (the SME packers, whose `mr` is a number
/// of streaming vectors whatever the kernel, and the packers of a kernel whose `mr` scales), 0
/// where the row tile is fixed (the SVE kernels scale only their columns).
pub(super) fn vector_bytes(kind: LhsPackerKind, kernel: &MatmulKernel) -> usize {
    let follows_streaming_length = match kind {
        LhsPackerKind::SmeRows(_) | LhsPackerKind::IndirectSmeRows(_) => true,
        LhsPackerKind::Bf16(v) => v.is_sme(),
        LhsPackerKind::Qai8dxp(_)
        | LhsPackerKind::Qsi8d32p(_)
        | LhsPackerKind::Qsi8d32pscalef32(_)
        | LhsPackerKind::F16pmrx2 => false,
    } || kernel.columns.scales_rows();
    if follows_streaming_length {
        4 * crate::arch::sme_lanes32()
    } else {
        0
    }
}

/// Whether packers of kinds `a` and `b` write the same format (the `qai8dxp` packers differ only
/// in their source type, so do the bf16 ones).
fn same_format(a: LhsPackerKind, b: LhsPackerKind) -> bool {
    match (a, b) {
        (LhsPackerKind::Qai8dxp(_), LhsPackerKind::Qai8dxp(_)) => true,
        // The bf16 packers of one tile write one format from either source type (the tiles are
        // compared by the caller); the SME and SME2 ones the same bytes.
        (LhsPackerKind::Bf16(a), LhsPackerKind::Bf16(b)) => a.is_sme() == b.is_sme(),
        _ => a == b,
    }
}
