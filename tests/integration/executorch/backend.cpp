#include <kai/kai_common.h>
#include <kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h>
#include <kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h>

#include <string>

#include "kai_check.h"

// A packed-weight cache key of the kind ExecuTorch's KleidiAI operator builds: the library's
// version string plus the kernel's packing parameters.
std::string executorch_packed_weights_key() {
    return std::string(kai_get_version()) + "/nr" +
           std::to_string(kai_get_nr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm()) + "/kr" +
           std::to_string(kai_get_kr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm()) + "/sr" +
           std::to_string(kai_get_sr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm());
}

int executorch_kai_check() {
    printf("executorch packed-weight key: %s\n", executorch_packed_weights_key().c_str());
    return rkai_integration_check("executorch (XNNPACK subdirectory, kleidiai installed and exported)");
}
