// Both include styles ATen has used: the canonical <kai/...> paths and bare header names.
#include <kai/kai_common.h>
#include <kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h>
#include <kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h>
#include <kai_common.h>
#include <kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h>
#include <kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h>

#include "kai_check.h"

int torch_kai_check() {
    return rkai_integration_check("pytorch (add_subdirectory of the submodule, C++17)");
}
