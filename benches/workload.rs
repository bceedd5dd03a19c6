//! One kernel call on a fixed shape, set up the way a framework does it: deterministic
//! activations and weights in the kernel's source formats, then the kernel's own LHS and RHS
//! packers and `run`, all through the exported C symbols. Shared by the criterion benches and the
//! QEMU instruction-count driver (`examples/count_instructions.rs`).
#![allow(dead_code)]

use core::ffi::c_void;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::rhs_pack_bf16::Variant as RhsBf16Variant;
use rkai_ukernels::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};

#[path = "../tests/suite/support/cabi.rs"]
pub mod cabi;
use cabi::{
    BlockLhsGetter, Getter2, Getter4, Getter5, Getter7, LhsBlockPackFn, LhsQuantPackHalfFn,
    MatmulBlockFn, MatmulFloatFn, MatmulFn, MatmulLutFn, RhsPackFloatFn, RhsPackQ4_0Fn,
    RhsPackQai4c32pFn, RhsPackQsi4c32pFn, RhsPackQsi4cxpFn, RhsPackQsi8cxpFn, RhsPackQsu2cxpFn,
    sym,
};

/// Whether `kernel` takes Q4_0 source rows and a per-block LHS packer: llama.cpp's Q8_0 x Q4_0
/// family, and the f16 x Q4_0 one (an f16 LHS packer with the same block getters).
fn is_q4_0(kernel: &MatmulKernel) -> bool {
    matches!(
        kernel.family,
        Family::F32Qsi8d32pQsi4c32p | Family::F32F16pQsi4c32p
    )
}

/// Whether `kernel` is of the 2-bit family (bytes of four 2-bit codes, a 4-entry value table).
fn is_qsu2(kernel: &MatmulKernel) -> bool {
    kernel.family == Family::F32Qai8dxpQsu2cxp
}

/// Whether `kernel` is of the asymmetric int4 families (per-block LHS with f32 parameters,
/// nibble source with f32 scales and zero offsets).
fn is_qai4(kernel: &MatmulKernel) -> bool {
    matches!(
        kernel.family,
        Family::F32Qsi8d32pQai4c32p | Family::F16Qsi8d32pQai4c32p
    )
}

/// The LLM shapes of the performance issue: GEMV (m = 1) for kernels with `m_step` 1, GEMM
/// otherwise, as (m, n, k).
pub fn shapes(kernel: &MatmulKernel) -> &'static [(usize, usize, usize)] {
    if kernel.tile().m_step == 1 {
        &[(1, 4096, 4096), (1, 11008, 4096)]
    } else {
        &[(32, 4096, 4096), (128, 4096, 4096)]
    }
}

/// Block lengths measured for per-block kernels (one 0 for per-channel ones).
pub fn block_lengths(kernel: &MatmulKernel) -> &'static [usize] {
    if kernel.family.is_blockwise() {
        &[32, 128]
    } else {
        &[0]
    }
}

/// Buffers of one call.
pub struct Workload {
    pub kernel: &'static MatmulKernel,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub bl: usize,
    lhs: Vec<u8>,
    lhs_stride: usize,
    rhs: Vec<u8>,
    rhs_stride: usize,
    scale: Vec<u8>,
    bias: Vec<f32>,
    lhs_packed: Vec<u8>,
    rhs_packed: Vec<u8>,
    dst: Vec<u8>,
}

/// `len` bytes of a cheap deterministic pattern (vectorisable, so setting up costs little under
/// QEMU).
fn pattern(len: usize, mul: usize, add: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(mul) + add) as u8)
        .collect()
}

impl Workload {
    /// Allocates and fills the sources of an m x n x k call (`bl` for per-block kernels).
    pub fn new(kernel: &'static MatmulKernel, m: usize, n: usize, k: usize, bl: usize) -> Self {
        Self::build(kernel, m, n, k, bl, true)
    }

    /// The buffers of an m x n x k call with zero-filled packed operands and no sources (empty, or
    /// zeroed where `run` reads them): for `run` alone, where the data do not matter (the packers
    /// must not run).
    pub fn unfilled(
        kernel: &'static MatmulKernel,
        m: usize,
        n: usize,
        k: usize,
        bl: usize,
    ) -> Self {
        Self::build(kernel, m, n, k, bl, false)
    }

    fn build(
        kernel: &'static MatmulKernel,
        m: usize,
        n: usize,
        k: usize,
        bl: usize,
        fill: bool,
    ) -> Self {
        if kernel.lhs_packers.is_empty() {
            return Self::new_float(kernel, m, n, k, fill);
        }
        if let PackerKind::Lhs(LhsPackerKind::Bf16(_) | LhsPackerKind::SmeRows(_)) =
            kernel.lhs_packers[0].kind
        {
            return Self::new_bf16(kernel, m, n, k, fill);
        }
        let t = kernel.tile();
        let lhs_elem = match kernel.lhs_packers[0].kind {
            PackerKind::Lhs(LhsPackerKind::Qai8dxp(ty)) => ty.size(),
            PackerKind::Lhs(LhsPackerKind::Qsi8d32p(_) | LhsPackerKind::F16pmrx2) => 4,
            PackerKind::Lhs(LhsPackerKind::Qsi8d32pscalef32(v)) => v.element_size(),
            _ => unreachable!("qai8dxp kernels pair with qai8dxp LHS packers"),
        };
        // Activations: small values of either sign in the packer's element type (f32 bits, or
        // f16/bf16 bits with a fixed exponent).
        let lhs = match lhs_elem {
            _ if !fill => Vec::new(),
            4 => (0..m * k)
                .flat_map(|i| (((i % 97) as f32 - 48.0) * 0.01).to_le_bytes())
                .collect(),
            _ => pattern(m * k * 2, 5, 1)
                .chunks(2)
                .flat_map(|c| [c[0], 0x3c])
                .collect(),
        };
        let rhs_stride = match kernel.family.rhs_layout(0) {
            RhsLayout::Qsi8cxp => k,
            RhsLayout::Qsu2cxp => k / 4,
            _ => k / 2,
        };
        let mut rhs = if fill {
            pattern(n * rhs_stride, 7, 3)
        } else {
            Vec::new()
        };
        if fill && is_q4_0(kernel) {
            // Q4_0 rows: per block an f16 scale (0.0078125) then bl / 2 nibble bytes.
            rhs = rhs
                .chunks(bl / 2)
                .flat_map(|c| [0x00, 0x20].into_iter().chain(c.iter().copied()))
                .collect();
        }
        let scale = match k.checked_div(bl) {
            _ if !fill => Vec::new(),
            // f32 0.0078125 per block (the zero offsets reuse these bytes, negated below).
            Some(blocks) if is_qai4(kernel) => 0.0078125f32.to_le_bytes().repeat(n * blocks),
            // bf16 0.0078125 (0x3c00) per block.
            Some(blocks) => [0x00u8, 0x3c].repeat(n * blocks),
            None => 0.01f32.to_le_bytes().repeat(n),
        };
        let lhs_name = format!("kai_get_lhs_packed_size_{}", kernel.lhs_packers[0].name);
        let lhs_size = if is_q4_0(kernel) || is_qai4(kernel) {
            sym::<BlockLhsGetter>(&lhs_name)(m, k, bl, t.mr, t.kr, t.sr)
        } else {
            sym::<Getter5>(&lhs_name)(m, k, t.mr, t.kr, t.sr)
        };
        let rhs_name = kernel.rhs_packers[0].name;
        let rhs_size = if is_q4_0(kernel) || is_qai4(kernel) {
            sym::<Getter5>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(n, k, t.nr, t.kr, bl)
        } else if bl != 0 {
            sym::<Getter7>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(
                n,
                k,
                t.nr,
                t.kr,
                t.sr,
                bl,
                kai_datatype::kai_dt_bf16 as u32,
            )
        } else {
            sym::<Getter5>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(n, k, t.nr, t.kr, t.sr)
        };
        Workload {
            kernel,
            m,
            n,
            k,
            bl,
            lhs,
            lhs_stride: k * lhs_elem,
            rhs,
            rhs_stride,
            scale,
            bias: vec![0.5; n],
            lhs_packed: vec![0; lhs_size],
            rhs_packed: vec![0; rhs_size],
            dst: vec![0; m * n * kernel.family.output().size()],
        }
    }

    /// A float GEMM kernel (unpacked f32 or f16 LHS, K x N weights of the same type for its
    /// first RHS packer).
    fn new_float(kernel: &'static MatmulKernel, m: usize, n: usize, k: usize, fill: bool) -> Self {
        let es = kernel.family.output().size();
        let values = |len: usize, period: usize| -> Vec<u8> {
            if !fill {
                return vec![0; len * es]; // zeroed pages: no instructions to speak of
            }
            (0..len)
                .flat_map(|i| {
                    let v = ((i % period) as f32 - 48.0) * 0.01;
                    if es == 2 {
                        rkai_ukernels::float::f16::from_f32(v)
                            .to_le_bytes()
                            .to_vec()
                    } else {
                        v.to_le_bytes().to_vec()
                    }
                })
                .collect()
        };
        let rhs_name = kernel.rhs_packers[0].name;
        let rhs_size = sym::<Getter2>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(n, k);
        Workload {
            kernel,
            m,
            n,
            k,
            bl: 0,
            lhs: values(m * k, 97),
            lhs_stride: es * k,
            rhs: values(k * n, 89),
            rhs_stride: es * n,
            scale: Vec::new(),
            // The f16 packers read these as halves: 0 and 1.75 alternately.
            bias: vec![0.5; n],
            lhs_packed: Vec::new(),
            rhs_packed: vec![0; rhs_size],
            dst: vec![0; m * n * es],
        }
    }

    /// A bf16 GEMM kernel: f32 activations and K x N f32 weights (the sources of its first
    /// packers), packed to bf16. Also the buffers of the f32 and f16 SME GEMMs (row-copying LHS
    /// packers, the same getter forms), for `run_unpacked` (their sources here are f32 bytes).
    fn new_bf16(kernel: &'static MatmulKernel, m: usize, n: usize, k: usize, fill: bool) -> Self {
        let t = kernel.tile();
        let values = |len: usize, period: usize| -> Vec<u8> {
            if !fill {
                return vec![0; 4 * len];
            }
            (0..len)
                .flat_map(|i| (((i % period) as f32 - 48.0) * 0.01).to_le_bytes())
                .collect()
        };
        let (lhs_name, rhs_name) = (kernel.lhs_packers[0].name, kernel.rhs_packers[0].name);
        let lhs_size =
            sym::<Getter5>(&format!("kai_get_lhs_packed_size_{lhs_name}"))(m, k, t.mr, t.kr, t.sr);
        let rhs_size = match kernel.rhs_packers[0].kind {
            PackerKind::Rhs(RhsPackerKind::Bf16(RhsBf16Variant::QuantF32)) => {
                sym::<Getter4>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(n, k, t.nr, t.kr)
            }
            _ => sym::<Getter2>(&format!("kai_get_rhs_packed_size_{rhs_name}"))(n, k),
        };
        Workload {
            kernel,
            m,
            n,
            k,
            bl: 0,
            lhs: values(m * k, 97),
            lhs_stride: 4 * k,
            rhs: values(k * n, 89),
            rhs_stride: 4 * n,
            scale: Vec::new(),
            bias: vec![0.5; n],
            lhs_packed: vec![0; lhs_size],
            rhs_packed: vec![0; rhs_size],
            dst: vec![0; m * n * kernel.family.output().size()],
        }
    }

    /// Bytes of the packed weights (what a GEMV streams).
    pub fn packed_weight_bytes(&self) -> usize {
        self.rhs_packed.len()
    }

    /// Bytes of the packed activations.
    pub fn packed_activation_bytes(&self) -> usize {
        self.lhs_packed.len()
    }

    /// Bytes of the unpacked weights a packer reads.
    pub fn source_weight_bytes(&self) -> usize {
        self.rhs.len()
    }

    /// Integer operations of the matmul (2 per multiply-accumulate).
    pub fn ops(&self) -> u64 {
        2 * (self.m * self.n * self.k) as u64
    }

    /// Packs the weights with the kernel's first RHS packer.
    pub fn pack_rhs(&mut self) {
        let t = self.kernel.tile();
        let name = format!("kai_run_{}", self.kernel.rhs_packers[0].name);
        let bias = self.bias.as_ptr();
        let out = self.rhs_packed.as_mut_ptr().cast::<c_void>();
        // SAFETY (every arm): buffers sized by the packers' getters for this shape.
        match self.kernel.rhs_packers[0].kind {
            PackerKind::Rhs(RhsPackerKind::Qai4c32p(_)) => {
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                };
                // Zero offsets: the scales' bytes (any finite values serve a benchmark).
                let zero = self.scale.as_ptr().cast();
                unsafe {
                    sym::<RhsPackQai4c32pFn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.bl,
                        self.rhs.as_ptr(),
                        zero,
                        bias.cast(),
                        self.scale.as_ptr().cast(),
                        out,
                        0,
                        &params,
                    )
                }
            }
            PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(_)) => {
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                };
                unsafe {
                    sym::<RhsPackQ4_0Fn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.bl,
                        self.rhs.as_ptr(),
                        std::ptr::null(),
                        out,
                        0,
                        &params,
                    )
                }
            }
            PackerKind::Rhs(RhsPackerKind::Float(_)) | PackerKind::Rhs(RhsPackerKind::Bf16(_)) => unsafe {
                sym::<RhsPackFloatFn>(&name)(
                    1,
                    self.n,
                    self.k,
                    t.nr,
                    t.kr,
                    t.sr,
                    self.rhs_stride,
                    self.rhs.as_ptr().cast(),
                    bias.cast(),
                    std::ptr::null(),
                    out,
                    0,
                    std::ptr::null(),
                )
            },
            PackerKind::Rhs(RhsPackerKind::Qsi4c32p(_)) => {
                let params = kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                    scale_dt: kai_datatype::kai_dt_bf16,
                };
                unsafe {
                    sym::<RhsPackQsi4c32pFn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.bl,
                        self.rhs.as_ptr(),
                        self.rhs_stride,
                        bias,
                        self.scale.as_ptr().cast(),
                        2 * (self.k / self.bl),
                        out,
                        0,
                        (&raw const params).cast(),
                    )
                }
            }
            PackerKind::Rhs(RhsPackerKind::Qsu2cxp(_)) => {
                // The 2-bit packers take codes 0..3 around zero point 2 and the default table.
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 2,
                };
                unsafe {
                    sym::<RhsPackQsu2cxpFn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.rhs.as_ptr(),
                        bias,
                        self.scale.as_ptr().cast(),
                        out,
                        0,
                        &params,
                        std::ptr::null(),
                    )
                }
            }
            PackerKind::Rhs(RhsPackerKind::Qsi8cxp(_)) => {
                let params = kai_rhs_pack_qsi8cx_params {
                    lhs_zero_point: 1,
                    scale_multiplier: 1.0,
                };
                unsafe {
                    sym::<RhsPackQsi8cxpFn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.rhs.as_ptr().cast(),
                        bias,
                        self.scale.as_ptr().cast(),
                        out,
                        0,
                        &params,
                    )
                }
            }
            _ => {
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                };
                unsafe {
                    sym::<RhsPackQsi4cxpFn>(&name)(
                        1,
                        self.n,
                        self.k,
                        t.nr,
                        t.kr,
                        t.sr,
                        self.rhs.as_ptr(),
                        bias,
                        self.scale.as_ptr().cast(),
                        out,
                        0,
                        &params,
                    )
                }
            }
        }
    }

    /// Quantizes and packs the activations with the kernel's LHS packer.
    pub fn pack_lhs(&mut self) {
        if self.kernel.lhs_packers.is_empty() {
            return; // the float kernels read the LHS as it is
        }
        let t = self.kernel.tile();
        let name = format!("kai_run_{}", self.kernel.lhs_packers[0].name);
        if is_q4_0(self.kernel) || is_qai4(self.kernel) {
            // SAFETY: buffers sized by the packer's getters.
            unsafe {
                sym::<LhsBlockPackFn>(&name)(
                    self.m,
                    self.k,
                    self.bl,
                    t.mr,
                    t.kr,
                    t.sr,
                    0,
                    self.lhs.as_ptr().cast(),
                    self.lhs_stride,
                    self.lhs_packed.as_mut_ptr().cast(),
                )
            };
            return;
        }
        // SAFETY: buffers sized by the packer's getters (the f32 and 16-bit packers share this ABI).
        unsafe {
            sym::<LhsQuantPackHalfFn>(&name)(
                self.m,
                self.k,
                t.mr,
                t.kr,
                t.sr,
                0,
                self.lhs.as_ptr().cast(),
                self.lhs_stride,
                self.lhs_packed.as_mut_ptr().cast(),
            )
        }
    }

    /// Runs the kernel on the whole m x n output.
    pub fn run(&mut self) {
        let es = self.kernel.family.output().size();
        let name = format!("{}_run_{}", self.kernel.prefix(), self.kernel.stem);
        let (lhs, rhs) = (
            self.lhs_packed.as_ptr().cast(),
            self.rhs_packed.as_ptr().cast(),
        );
        let dst = self.dst.as_mut_ptr().cast();
        // SAFETY: packed operands and dst sized by the getters; `float*` and `void*` share the ABI.
        unsafe {
            if self.kernel.lhs_packers.is_empty() {
                sym::<MatmulFloatFn>(&name)(
                    self.m,
                    self.n,
                    self.k,
                    self.lhs.as_ptr().cast(),
                    self.lhs_stride,
                    rhs,
                    dst,
                    es * self.n,
                    es,
                    f32::MIN,
                    f32::MAX,
                )
            } else if is_qsu2(self.kernel) {
                // The default value table (null).
                sym::<MatmulLutFn>(&name)(
                    self.m,
                    self.n,
                    self.k,
                    lhs,
                    rhs,
                    dst,
                    es * self.n,
                    es,
                    f32::MIN,
                    f32::MAX,
                    std::ptr::null(),
                )
            } else if self.kernel.family.is_blockwise() {
                sym::<MatmulBlockFn>(&name)(
                    self.m,
                    self.n,
                    self.k,
                    self.bl,
                    lhs,
                    rhs,
                    dst,
                    es * self.n,
                    es,
                    f32::MIN,
                    f32::MAX,
                )
            } else {
                sym::<MatmulFn>(&name)(
                    self.m,
                    self.n,
                    self.k,
                    lhs,
                    rhs,
                    dst,
                    es * self.n,
                    es,
                    f32::MIN,
                    f32::MAX,
                )
            }
        }
    }
}
