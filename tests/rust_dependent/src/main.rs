//! Defines one of KleidiAI's C functions, as Arm's library would provide it, and calls rkai's safe
//! API: linking fails if rkai also exports the name.

use rkai::{Family, Kernel};

/// KleidiAI's getter for this kernel, from "elsewhere" (returns a marker rkai's would not).
#[unsafe(no_mangle)]
pub extern "C" fn kai_get_m_step_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod() -> usize {
    4242
}

fn main() {
    let (gemv, gemm) = Kernel::select_pair(Family::F32Qai8dxpQsi4cxp).expect("a kernel pair");
    println!(
        "rkai-dependent: {} {} {}",
        gemv.entry().stem,
        gemm.entry().stem,
        kai_get_m_step_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod()
    );
}
