// ggml's kleidiai/kernels.cpp includes bare header names through flat include directories.
#include "kai_common.h"
#include "kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm.h"
#include "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"

#include "kai_check.h"

int ggml_kai_check() { return rkai_integration_check("llama.cpp (KleidiAI_Download + flat includes, linked)"); }
