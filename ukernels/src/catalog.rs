//! The catalog: every kernel and packer rkai provides, as the lists of the folders and packer
//! modules that declare them. A family folder (`matmul/<family>/mod.rs`) declares its kernels
//! and their packer pairings, a packer module its C names; this file only lists them, a line
//! each, and nothing below it imports it.
//!
//! The `rkai` crate's build script turns these lists into the `kai_*` C functions, the headers
//! under `include/kai`, and the registration lists of the tests and benches.

use crate::dwconv::DwconvKernel;
use crate::dwconv::pack::DwconvPacker;
use crate::kernel::MatmulKernel;
use crate::pack::kinds::{Packer, UkerKernel, UkerLhsPacker, UkerRhsPacker};
use crate::{dwconv, matmul, pack};

/// Declares `$all`, every entry of the listed modules (module after module, each in its own
/// order), and `$by_module`, each module's path below the crate root with its entries. Each
/// module exports its entries as `$list`.
macro_rules! aggregate {
    ($ty:ty, $all:ident, $by_module:ident, $list:ident: $($($segment:ident)::+),+ $(,)?) => {
        #[doc = concat!("Every `", stringify!($ty), "`, module after module.")]
        pub static $all: &[&$ty] = &flatten::<&$ty, { count(&[$($($segment)::+::$list),+]) }>(
            &[$($($segment)::+::$list),+],
        );
        #[doc = concat!("Each module declaring `", stringify!($ty), "`s: its path below the crate \
            root (as `stringify!` writes it) and its entries.")]
        pub static $by_module: &[(&str, &[&$ty])] =
            &[$((stringify!($($segment)::+), $($segment)::+::$list)),+];
    };
}

/// How many entries the lists hold.
const fn count<T>(lists: &[&[T]]) -> usize {
    let (mut total, mut i) = (0, 0);
    while i < lists.len() {
        total += lists[i].len();
        i += 1;
    }
    total
}

/// The lists' entries one after another (`N`: their [`count`]).
const fn flatten<T: Copy, const N: usize>(lists: &[&[T]]) -> [T; N] {
    let mut out = [lists[0][0]; N];
    let (mut at, mut i) = (0, 0);
    while i < lists.len() {
        let mut j = 0;
        while j < lists[i].len() {
            out[at] = lists[i][j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

aggregate!(MatmulKernel, KERNELS, KERNEL_FOLDERS, KERNELS:
    matmul::matmul_clamp_f32_qai8dxp_qsi4cxp,
    matmul::matmul_clamp_f32_qai8dxp_qsi8cxp,
    matmul::matmul_clamp_f32_qai8dxp_qsi4c32p,
    matmul::matmul_clamp_f32_qai8dxp_qsu2cxp,
    matmul::matmul_clamp_f32_qsi8d32p_qsi4c32p,
    matmul::matmul_clamp_f32_qsi8d32p_qai4c32p,
    matmul::matmul_clamp_f32_f32_f32p,
    matmul::matmul_clamp_f16_f16_f16p,
    matmul::bf16_gemm,
    matmul::matmul_clamp_fp32_bf16p_bf16p,
    matmul::imatmul_clamp_f32_f32_f32p,
    matmul::matmul_clamp_f32_f16p_qsi4c32p,
    matmul::matmul_clamp_f32_f32p_f32p,
    matmul::matmul_clamp_f16_f16p_f16p,
    matmul::imatmul_clamp_f32_f32p_f32p,
    matmul::imatmul_clamp_f16_f16p_f16p,
    matmul::imatmul_clamp_qai8_qai8p_qsi8cxp,
    matmul::matmul_clamp_qai8_qai8p_qsi8cxp,
    matmul::matmul_clamp_qai8_qai8_qsi8cxp,
);

aggregate!(Packer, PACKERS, PACKER_MODULES, PACKERS:
    pack::lhs_quant_pack_qai8dxp,
    pack::rhs_pack_qsi4cxp_qs4cxs1s0,
    pack::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0,
    pack::rhs_pack_qsi8cxp_qsi8cx,
    pack::rhs_pack_nxk_qsu2cxp,
    pack::rhs_pack_qsi4c32p_qsu4c32s1s0,
    pack::lhs_quant_pack_qsi8d32p,
    pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0,
    pack::lhs_quant_pack_qsi8d32pscalef32,
    pack::rhs_pack_nxk_qai4c32p,
    pack::rhs_pack_float,
    pack::lhs_pack_bf16,
    pack::lhs_pack_f16pmrx2_f32,
    pack::lhs_pack_sme_rows,
    pack::rhs_pack_bf16,
    pack::lhs_imatmul_pack_sme,
    pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme,
);

aggregate!(UkerRhsPacker, UKER_RHS_PACKERS, UKER_RHS_PACKER_MODULES, PACKERS:
    pack::rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve,
    pack::matmul_pack_rhs_x32p4vsx1bx32,
    pack::matmul_pack_rhs_x8p4vsx4,
    pack::matmul_pack_rhs_qsi8cxp4vsx4bi32sf32,
    pack::matmul_pack_rhs_qsi4cxp8vsx4,
);

aggregate!(UkerKernel, UKER_KERNELS, UKER_KERNEL_MODULES, KERNELS:
    matmul::uker,
);

aggregate!(UkerLhsPacker, UKER_LHS_PACKERS, UKER_LHS_PACKER_MODULES, PACKERS:
    pack::matmul_pack_lhs_mxk,
);

aggregate!(DwconvKernel, DWCONV_KERNELS, DWCONV_KERNEL_FOLDERS, KERNELS:
    dwconv::dwconv_f32_f32_f32p,
    dwconv::dwconv_f16_f16_f16p,
);

aggregate!(DwconvPacker, DWCONV_PACKERS, DWCONV_PACKER_MODULES, PACKERS:
    dwconv::pack,
);

/// Looks a kernel up by stem (with or without its `kai_` / `rkai_` prefix).
pub fn kernel(stem: &str) -> Option<&'static MatmulKernel> {
    let stem = stem
        .strip_prefix("rkai_")
        .or_else(|| stem.strip_prefix("kai_"))
        .unwrap_or(stem);
    KERNELS.iter().copied().find(|k| k.stem == stem)
}

/// Looks a packer up by name (with or without the `kai_` prefix).
pub fn packer(name: &str) -> Option<&'static Packer> {
    let name = name.strip_prefix("kai_").unwrap_or(name);
    PACKERS.iter().copied().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::KERNELS;

    /// Dispatch relies on it: a kernel's hand-written function takes its family's argument shape.
    #[test]
    fn every_kernel_function_takes_its_family_arguments() {
        for k in KERNELS {
            let description = k.family.description();
            assert!(
                k.native.fits(description.operands, description.output),
                "{}: {:?} does not take {:?}",
                k.stem,
                k.native,
                k.family.description().operands
            );
        }
    }

    /// Every family with a kernel is described, and every described family has a kernel.
    #[test]
    fn every_family_has_kernels() {
        for family in crate::family::Family::ALL {
            assert!(
                KERNELS.iter().any(|k| k.family == family),
                "{family:?} has no kernel"
            );
        }
    }
}
