/* Shared body of the integration stand-ins (tests/integration/<framework>/): after the stand-in
 * has included the KleidiAI headers its own way, call a getter, a packer size function and
 * kai_get_version() through the library, and print "<name>: OK". Works as C99 and C++. */
#ifndef RKAI_INTEGRATION_KAI_CHECK_H
#define RKAI_INTEGRATION_KAI_CHECK_H

#include <stdio.h>
#include <string.h>

static int rkai_integration_check(const char* name) {
    /* Through a pointer: the call must reach the library's exported symbol, not only the
     * header's inline definition. */
    const char* (*get_version)(void) = kai_get_version;
    const char* version = get_version();
    const size_t mr = kai_get_mr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm();
    const size_t kr = kai_get_kr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm();
    const size_t sr = kai_get_sr_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm();
    const size_t lhs_bytes = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(8, 64, mr, kr, sr);
    printf("%s: kai_get_version() = %s, mr = %zu, kr = %zu, sr = %zu, packed LHS 8x64 = %zu bytes\n", name,
           version, mr, kr, sr, lhs_bytes);
    if (strcmp(version, "1.30.0") != 0 || mr == 0 || kr == 0 || sr == 0 || lhs_bytes == 0) {
        printf("%s: FAILED\n", name);
        return 1;
    }
    printf("%s: OK\n", name);
    return 0;
}

#endif
