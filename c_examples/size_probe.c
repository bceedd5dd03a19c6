/*
 * size_probe: the smallest useful consumer of the KleidiAI C API, to measure what a program pays
 * in code for the functions it calls. It makes the calls of an int4 linear layer the way
 * torchao's and PyTorch's _dyn_quant_matmul_4bit do: one GEMV (dotprod) and one GEMM (i8mm) of
 * family matmul_clamp_f32_qai8dxp_qsi4cxp, the LHS quantizing packer and the nxk RHS packer, the
 * getters it needs and the four run functions (11 kai_* functions).
 *
 * scripts/size-report.sh links it statically with -Wl,--gc-sections and prints the .text size;
 * tests/suite/c_size.rs keeps that size under a committed bound. Run on a CPU with dotprod and i8mm it
 * prints `size_probe: OK` when the GEMV and the GEMM agree on the first row.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/matmul/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"

enum { M = 8, N = 16, K = 64 };

int main(void) {
    /* The GEMV and the GEMM read one packed RHS: same nr, kr, sr. */
    const size_t mr_gemv = kai_get_mr_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod();
    const size_t mr = kai_get_mr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t nr = kai_get_nr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t kr = kai_get_kr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t sr = kai_get_sr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();

    static float lhs[M * K], bias[N], scale[N], gemv_dst[N], gemm_dst[M * N];
    static uint8_t rhs[N * K / 2];
    for (size_t i = 0; i < M * K; i++) lhs[i] = (float)((int)(i * 7 % 23) - 11) / 8.0f;
    for (size_t i = 0; i < N * K / 2; i++) rhs[i] = (uint8_t)(i * 37 + 11);
    for (size_t i = 0; i < N; i++) {
        bias[i] = (float)i / 4.0f;
        scale[i] = 0.01f + (float)i / 512.0f;
    }

    const size_t rhs_size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(N, K, nr, kr, sr);
    const size_t lhs_size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(M, K, mr, kr, sr);
    void* rhs_packed = malloc(rhs_size);
    void* lhs_packed = malloc(lhs_size);
    if (rhs_packed == NULL || lhs_packed == NULL) return 1;

    const struct kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {.lhs_zero_point = 1, .rhs_zero_point = 8};
    kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, N, K, nr, kr, sr, rhs, bias, scale, rhs_packed, 0, &params);

    kai_run_lhs_quant_pack_qai8dxp_f32(1, K, mr_gemv, kr, sr, 0, lhs, K * sizeof(float), lhs_packed);
    kai_run_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod(
        1, N, K, lhs_packed, rhs_packed, gemv_dst, N * sizeof(float), sizeof(float), -1e30f, 1e30f);

    kai_run_lhs_quant_pack_qai8dxp_f32(M, K, mr, kr, sr, 0, lhs, K * sizeof(float), lhs_packed);
    kai_run_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(
        M, N, K, lhs_packed, rhs_packed, gemm_dst, N * sizeof(float), sizeof(float), -1e30f, 1e30f);

    int ok = 1;
    for (size_t j = 0; j < N; j++) ok &= gemv_dst[j] == gemm_dst[j];
    free(lhs_packed);
    free(rhs_packed);
    printf("size_probe: %s\n", ok ? "OK" : "GEMV and GEMM disagree");
    return ok ? 0 : 1;
}
