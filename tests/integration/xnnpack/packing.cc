#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/matmul/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"

#include "kai_check.h"

extern "C" int xnn_kai_check_cc(void) {
    // XNNPACK's packing code fills KleidiAI's parameter structs from C++.
    struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params;
    params.lhs_zero_point = 1;
    params.rhs_zero_point = 8;
    params.scale_dt = kai_dt_bf16;
    (void)params;
    return rkai_integration_check("xnnpack (C++ weight packing)");
}
