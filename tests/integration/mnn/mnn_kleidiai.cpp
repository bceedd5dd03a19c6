// MNN includes bare header names through flat include directories.
#include "kai_common.h"
#include "kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm.h"
#include "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"

#include "kai_check.h"

int mnn_kai_check() { return rkai_integration_check("mnn (KLEIDIAI_SRC_DIR + flat includes, linked)"); }
