//! The packers of KleidiAI's generic interface (`kai_matmul_pack_lhs.h`, `kai_matmul_pack_rhs.h`)
//! called as a C caller calls them: a provider's table with its getters by name and `run` with
//! every operand, for the packer tests (`tests/matmul_pack_{lhs,rhs}.rs`) and the kernel tests
//! that pack their operands through the providers (`tests/matmul_uker*.rs`).

use rkai_ukernels::pack_lhs_types::*;
use rkai_ukernels::pack_rhs_types::*;
use std::ptr;

type LhsDim = kai_matmul_pack_lhs_uker_lhs_dim_args;
type LhsPackedDim = kai_matmul_pack_lhs_uker_lhs_packed_dim_args;
/// A packed LHS's block stride as the getters give it.
pub type LhsPackedStride = kai_matmul_pack_lhs_uker_lhs_packed_stride_args;
/// An LHS source's row stride as the getters give it.
pub type LhsStride = kai_matmul_pack_lhs_uker_lhs_stride_args;
type RhsDim = kai_matmul_pack_rhs_uker_rhs_dim_args;
type RhsPackedDim = kai_matmul_pack_rhs_uker_rhs_packed_dim_args;
/// A packed RHS's block stride as the getters give it.
pub type RhsPackedStride = kai_matmul_pack_rhs_uker_rhs_packed_stride_args;
/// An RHS source's strides (along N and along K) as the getters give them.
pub type RhsStride = kai_matmul_pack_rhs_uker_rhs_stride_args;

/// The configuration KleidiAI's LHS packers ignore; a caller may pass anything.
pub const LHS_CONFIG: kai_matmul_pack_lhs_uker_config = kai_matmul_pack_lhs_uker_config {
    format: kai_matmul_pack_lhs_uker_format_config {
        mr: 7,
        kr: 7,
        sr: 7,
    },
};

/// The configuration of every RHS packer call (KleidiAI's packers read none of it).
pub const RHS_CONFIG: kai_matmul_pack_rhs_uker_config = kai_matmul_pack_rhs_uker_config {
    format: kai_matmul_pack_rhs_uker_format_config {
        nr: 0,
        kr: 0,
        sr: 0,
        bl: 0,
    },
};

/// Calls getter `$f` of the table `$api` with `$config` and `$arg`s.
macro_rules! getter {
    ($config:expr, $api:ident.$f:ident($($arg:expr),*)) => {
        // SAFETY: the getters read only the structs passed, which are valid.
        unsafe { ($api.0.$f.unwrap())(&$config $(, $arg)*) }
    };
}

/// An LHS packer's table.
pub struct LhsPackApi(pub kai_matmul_pack_lhs_uker_api);

impl LhsPackApi {
    /// `get_step`.
    pub fn step(&self) -> kai_matmul_pack_lhs_uker_dim_args {
        getter!(LHS_CONFIG, self.get_step())
    }

    /// `get_lhs_stride` of an `m` x `k` source.
    pub fn lhs_stride(&self, m: usize, k: usize) -> LhsStride {
        getter!(LHS_CONFIG, self.get_lhs_stride(&LhsDim { m, k }))
    }

    /// `get_lhs_offset` of `(m, k)`.
    pub fn lhs_offset(&self, m: usize, k: usize, stride: &LhsStride) -> usize {
        getter!(LHS_CONFIG, self.get_lhs_offset(&LhsDim { m, k }, stride))
    }

    /// `get_lhs_packed_stride`.
    pub fn packed_stride(&self, m: usize, k: usize) -> LhsPackedStride {
        getter!(
            LHS_CONFIG,
            self.get_lhs_packed_stride(&LhsPackedDim { m, k })
        )
    }

    /// `get_lhs_packed_offset` of `(m, k)`.
    pub fn packed_offset(&self, m: usize, k: usize, stride: &LhsPackedStride) -> usize {
        getter!(
            LHS_CONFIG,
            self.get_lhs_packed_offset(&LhsPackedDim { m, k }, stride)
        )
    }

    /// `get_lhs_packed_size`.
    pub fn packed_size(&self, m: usize, k: usize, stride: &LhsPackedStride) -> usize {
        getter!(
            LHS_CONFIG,
            self.get_lhs_packed_size(&LhsPackedDim { m, k }, stride)
        )
    }

    /// Packs `m` rows of `k` values (`row_bytes` apart) into `out`, blocks `packed_stride` apart.
    ///
    /// # Safety
    /// The buffers hold what the packer reads and writes.
    pub unsafe fn run(
        &self,
        (m, k): (usize, usize),
        (lhs, row_bytes): (*const u8, usize),
        out: *mut u8,
        packed_stride: usize,
    ) {
        let args = kai_matmul_pack_lhs_uker_args {
            flags: 0,
            shape: kai_matmul_pack_lhs_uker_dim_args { m, k },
            operand: kai_matmul_pack_lhs_uker_operand_args {
                lhs_packed: kai_matmul_pack_lhs_uker_lhs_packed_args {
                    ptr: out.cast(),
                    stride: LhsPackedStride { m: packed_stride },
                },
                lhs: kai_matmul_pack_lhs_uker_lhs_args {
                    ptr: lhs.cast(),
                    stride: LhsStride { m: row_bytes },
                },
            },
        };
        // SAFETY: forwarded contract.
        unsafe { (self.0.run.unwrap())(&LHS_CONFIG, &args) }
    }

    /// The whole `m` x `k` LHS (rows `row_bytes` apart from `lhs`) packed at the getters' stride
    /// into a buffer of the getters' size.
    ///
    /// # Safety
    /// `lhs` holds the `m` rows of `k` values.
    pub unsafe fn pack(&self, (m, k): (usize, usize), lhs: *const u8, row_bytes: usize) -> Vec<u8> {
        let stride = self.packed_stride(m, k);
        let mut out = vec![0u8; self.packed_size(m, k, &stride)];
        // SAFETY: `out` has the getters' size; the rows by the caller's contract.
        unsafe { self.run((m, k), (lhs, row_bytes), out.as_mut_ptr(), stride.m) };
        out
    }
}

/// The operands of one RHS packing call (null where the packer reads none).
#[derive(Clone, Copy)]
pub struct RhsOperands {
    /// The source.
    pub rhs: *const u8,
    /// The source's strides.
    pub stride: RhsStride,
    /// Per-column biases.
    pub bias: *const u8,
    /// The global scale of the K sums.
    pub k_sum_scale: *const u8,
    /// Per-column scales.
    pub scale: *const u8,
    /// The global scale.
    pub scale_global: *const u8,
}

impl RhsOperands {
    /// A source (`stride` apart) and its biases; no scale operand.
    pub fn source(rhs: *const u8, stride: RhsStride, bias: *const u8) -> Self {
        RhsOperands {
            rhs,
            stride,
            bias,
            k_sum_scale: ptr::null(),
            scale: ptr::null(),
            scale_global: ptr::null(),
        }
    }
}

/// An RHS packer's table.
pub struct RhsPackApi(pub kai_matmul_pack_rhs_uker_api);

impl RhsPackApi {
    /// `get_step`.
    pub fn step(&self) -> kai_matmul_pack_rhs_uker_dim_args {
        getter!(RHS_CONFIG, self.get_step())
    }

    /// `get_rhs_stride` of an `n` x `k` source.
    pub fn rhs_stride(&self, n: usize, k: usize) -> RhsStride {
        getter!(RHS_CONFIG, self.get_rhs_stride(&RhsDim { n, k }))
    }

    /// `get_rhs_offset` of `(n, k)`.
    pub fn rhs_offset(&self, n: usize, k: usize, stride: &RhsStride) -> usize {
        getter!(RHS_CONFIG, self.get_rhs_offset(&RhsDim { n, k }, stride))
    }

    /// `get_rhs_packed_stride`.
    pub fn packed_stride(&self, n: usize, k: usize) -> RhsPackedStride {
        getter!(
            RHS_CONFIG,
            self.get_rhs_packed_stride(&RhsPackedDim { n, k })
        )
    }

    /// `get_rhs_packed_offset` of `(n, k)`.
    pub fn packed_offset(&self, n: usize, k: usize, stride: &RhsPackedStride) -> usize {
        getter!(
            RHS_CONFIG,
            self.get_rhs_packed_offset(&RhsPackedDim { n, k }, stride)
        )
    }

    /// `get_rhs_packed_size`.
    pub fn packed_size(&self, n: usize, k: usize, stride: &RhsPackedStride) -> usize {
        getter!(
            RHS_CONFIG,
            self.get_rhs_packed_size(&RhsPackedDim { n, k }, stride)
        )
    }

    /// `get_bias_n_offset` of column `n`.
    pub fn bias_offset(&self, n: usize) -> usize {
        getter!(
            RHS_CONFIG,
            self.get_bias_n_offset(&kai_matmul_pack_rhs_uker_bias_n_dim_args { n })
        )
    }

    /// `get_scale_n_offset` of column `n`.
    pub fn scale_offset(&self, n: usize) -> usize {
        getter!(
            RHS_CONFIG,
            self.get_scale_n_offset(&kai_matmul_pack_rhs_uker_scale_n_dim_args { n })
        )
    }

    /// Packs `(n, k)` from `o` into `out` (blocks `packed_stride` apart) with `flags`.
    ///
    /// # Safety
    /// The buffers hold what the packer reads and writes.
    pub unsafe fn run_with(
        &self,
        (n, k, flags): (usize, usize, u64),
        o: &RhsOperands,
        out: *mut u8,
        packed_stride: usize,
    ) {
        let args = kai_matmul_pack_rhs_uker_args {
            flags,
            shape: kai_matmul_pack_rhs_uker_dim_args { n, k },
            operand: kai_matmul_pack_rhs_uker_operand_args {
                rhs: kai_matmul_pack_rhs_uker_rhs_args {
                    ptr: o.rhs.cast(),
                    stride: o.stride,
                },
                rhs_packed: kai_matmul_pack_rhs_uker_rhs_packed_args {
                    ptr: out.cast(),
                    stride: RhsPackedStride { n: packed_stride },
                },
                bias_n: kai_matmul_pack_rhs_uker_bias_n_args { ptr: o.bias.cast() },
                k_sum_scale_global: kai_matmul_pack_rhs_uker_k_sum_scale_global_args {
                    ptr: o.k_sum_scale.cast(),
                },
                scale_n: kai_matmul_pack_rhs_uker_scale_n_args {
                    ptr: o.scale.cast(),
                },
                scale_global: kai_matmul_pack_rhs_uker_scale_global_args {
                    ptr: o.scale_global.cast(),
                },
            },
        };
        // SAFETY: forwarded contract.
        unsafe { (self.0.run.unwrap())(&RHS_CONFIG, &args) }
    }

    /// Packs a source (`stride` apart) and its biases, no scale operand.
    ///
    /// # Safety
    /// The buffers hold what the packer reads and writes.
    pub unsafe fn run_strided(
        &self,
        (n, k): (usize, usize),
        (rhs, stride): (*const u8, RhsStride),
        bias: *const u8,
        out: *mut u8,
        packed_stride: usize,
    ) {
        let o = RhsOperands::source(rhs, stride, bias);
        // SAFETY: forwarded contract.
        unsafe { self.run_with((n, k, 0), &o, out, packed_stride) }
    }

    /// The whole `n` x `k` RHS packed from `o` at the getters' stride into a buffer of the
    /// getters' size.
    ///
    /// # Safety
    /// `o`'s pointers hold what the packer reads for `(n, k)`.
    pub unsafe fn pack(&self, (n, k): (usize, usize), o: &RhsOperands) -> Vec<u8> {
        let stride = self.packed_stride(n, k);
        let mut out = vec![0u8; self.packed_size(n, k, &stride)];
        // SAFETY: `out` has the getters' size; the operands by the caller's contract.
        unsafe { self.run_with((n, k, 0), o, out.as_mut_ptr(), stride.n) };
        out
    }
}
