/*
 * int4_linear: one linear layer of an LLM, y = x * W^T + b, with int4 weights, run through the
 * KleidiAI C API exactly as a framework does it (PyTorch's _dyn_quant_matmul_4bit, oneDNN,
 * XNNPACK's qp8-f32-qc4w GEMM):
 *
 *   - weights: N x K signed int4 stored as unsigned nibbles with zero point 8 ("nxk" layout,
 *     row stride roundup(K, 2) / 2 bytes, the low nibble holds the even k), one f32 scale per
 *     output channel, an f32 bias;
 *   - activations: M x K f32, quantized per row to int8 at run time (qai8dx) by the LHS packer;
 *   - kernels: the dotprod GEMV (M = 1, token generation) and the i8mm GEMM (M = 32, prompt
 *     processing) of family matmul_clamp_f32_qai8dxp_qsi4cxp, used through the family's
 *     interface struct;
 *   - then the GEMV and GEMM that rkai_select_matmul_clamp_f32_qai8dxp_qsi4cxp (rkai's run-time
 *     selection, rkai/rkai_select.h) picks for this CPU, run the same way, their weights packed
 *     by the packer the choice names (the SME2 kernels read another format than the NEON ones);
 *   - the RHS is packed once with the kernel's mr/nr/kr/sr; the LHS is quantized and packed on
 *     every call; the matmul runs in n_step-wide column tiles addressed with
 *     get_rhs_packed_offset / get_dst_offset, as a framework hands tiles to its threads.
 *
 * The result is checked against a plain C float loop (spread over threads only so that the check
 * stays quick under QEMU). int8 quantization of the activations costs about 1e-2 of relative
 * accuracy; the check fails above 5e-2 (relative to max |reference|), on any output left unwritten,
 * and when repeated calls disagree. Prints the versions, the CPU features, per kernel its
 * parameters, the time per matmul and the errors, then `int4_linear: OK`, and exits 0 on success.
 * On aarch64 a kernel whose extension the CPU lacks (rkai_get_cpu_features) is skipped; elsewhere
 * rkai runs every kernel on its portable path.
 *
 * Build: link the KleidiAI library (rkai's libkleidiai) and pthreads, e.g.
 *   cc -std=c99 -O2 -pthread int4_linear.c $(pkg-config --cflags --libs --static rkai)
 */
#define _POSIX_C_SOURCE 200112L

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>
#include <unistd.h>

#include "kai/kai_common.h"
#include "rkai/rkai_select.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h"
#include "kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/matmul/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/matmul/pack/kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"
#include "rkai.h"

enum { N_DIM = 4096, K_DIM = 4096, M_MAX = 32 };

static const double REL_TOLERANCE = 5e-2;

/* Timed repetitions: until this much time has been spent, at most MAX_RUNS calls. */
static const double MIN_TIMED_SECONDS = 0.25;
enum { MAX_RUNS = 50 };

/* All getters of a kernel, positionally, as frameworks fill the interface struct. */
#define KAI_UKERNEL(stem)                                                                      \
    {                                                                                          \
        kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem,    \
            kai_get_kr_##stem, kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem,            \
            kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                       \
            kai_get_dst_size_##stem, kai_run_##stem                                             \
    }

/* The family's two packed RHS formats, each with its N x K packer (the two share one signature
 * and one params struct): `s16s0` for the NEON/SVE kernels and SME's, sequential nibbles for the
 * SME2 kernels. A kernel's packer is named by its getters' family documentation or, at run time,
 * by rkai_select's choice. */
struct rhs_packer {
    const char* name;
    size_t (*get_size)(size_t n, size_t k, size_t nr, size_t kr, size_t sr);
    size_t (*get_offset)(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs,
                const float* bias, const float* scale, void* rhs_packed, size_t extra_bytes,
                const struct kai_rhs_pack_qs4cxs1s0_param* params);
};

#define KAI_RHS_PACKER(stem) \
    {#stem, kai_get_rhs_packed_size_##stem, kai_get_rhs_packed_offset_##stem, kai_run_##stem}

static const struct rhs_packer S16S0_PACKER = KAI_RHS_PACKER(rhs_pack_nxk_qsi4cxp_qs4cxs1s0);
static const struct rhs_packer SEQUENTIAL_PACKER = KAI_RHS_PACKER(rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon);

struct variant {
    const char* role;
    const char* name;
    uint32_t required_feature;
    const char* feature_name;
    size_t m;
    struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel ukernel;
    const struct rhs_packer* rhs_packer;
};

static const struct variant VARIANTS[] = {
    {"GEMV", "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", RKAI_FEATURE_DOTPROD,
     "dotprod", 1, KAI_UKERNEL(matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod), &S16S0_PACKER},
    {"GEMM", "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", RKAI_FEATURE_I8MM, "i8mm",
     M_MAX, KAI_UKERNEL(matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm), &S16S0_PACKER},
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64*: deterministic data on every platform. */
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint32_t rng_u32(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static float rng_uniform(float lo, float hi) {
    return lo + (hi - lo) * (float)(rng_u32() >> 8) * (1.0f / 16777216.0f);
}

static void* xmalloc(size_t bytes) {
    void* p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "int4_linear: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* The layer in plain C floats: ref[m][n] = sum_k x[m][k] * (w[n][k] - 8) * scale[n] + bias[n].
 * k runs in order for every output; the loop over m is innermost (x transposed) so that the
 * compiler may vectorize it without reassociating any sum. Columns are split over threads only
 * to keep the check quick under emulation (QEMU runs threads on host cores). */
struct reference_job {
    size_t m, n, k, n_begin, n_end, w_stride;
    const float* xt; /* k x m */
    const uint8_t* w;
    const float *scale, *bias;
    float* ref;
};

static void* reference_columns(void* arg) {
    const struct reference_job* job = arg;
    const size_t m = job->m, n = job->n, k = job->k;
    float* restrict acc = malloc(m * sizeof(float));
    if (acc == NULL) {
        return (void*)job; /* non-NULL: failure */
    }
    for (size_t j = job->n_begin; j < job->n_end; ++j) {
        const uint8_t* row = job->w + j * job->w_stride;
        for (size_t i = 0; i < m; ++i) {
            acc[i] = 0.0f;
        }
        for (size_t kk = 0; kk < k; ++kk) {
            const uint8_t byte = row[kk / 2];
            const int q = (kk % 2 == 0) ? (byte & 0x0F) : (byte >> 4);
            const float wv = (float)(q - 8);
            const float* restrict xk = job->xt + kk * m;
            for (size_t i = 0; i < m; ++i) {
                acc[i] += xk[i] * wv;
            }
        }
        for (size_t i = 0; i < m; ++i) {
            job->ref[i * n + j] = acc[i] * job->scale[j] + job->bias[j];
        }
    }
    free(acc);
    return NULL;
}

static int reference_linear(size_t m, size_t n, size_t k, const float* x, const uint8_t* w, size_t w_stride,
                            const float* scale, const float* bias, float* ref) {
    enum { MAX_THREADS = 64 };
    float* xt = xmalloc(k * m * sizeof(float));
    for (size_t i = 0; i < m; ++i) {
        for (size_t kk = 0; kk < k; ++kk) {
            xt[kk * m + i] = x[i * k + kk];
        }
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t threads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (size_t)cpus;
    if (threads > n) {
        threads = n;
    }
    struct reference_job jobs[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS];
    int failed = 0;
    for (size_t t = 0; t < threads; ++t) {
        const struct reference_job job = {m, n, k, n * t / threads, n * (t + 1) / threads, w_stride, xt, w,
                                          scale, bias, ref};
        jobs[t] = job;
        started[t] = t > 0 && pthread_create(&ids[t], NULL, reference_columns, &jobs[t]) == 0;
    }
    failed |= reference_columns(&jobs[0]) != NULL;
    for (size_t t = 1; t < threads; ++t) {
        void* result = NULL;
        if (started[t]) {
            pthread_join(ids[t], &result);
        } else {
            result = reference_columns(&jobs[t]); /* could not start a thread: do it here */
        }
        failed |= result != NULL;
    }
    free(xt);
    return failed ? 0 : (int)threads;
}

struct layer {
    size_t n, k;
    const float* x;       /* M_MAX x K activations */
    const uint8_t* w;     /* N x roundup(K, 2) / 2 int4 weights, zero point 8 */
    size_t w_stride;
    const float* scale;   /* N per-channel scales */
    const float* bias;    /* N */
    const float* ref;     /* M_MAX x N reference output */
};

/* Packs, runs and checks one kernel. Returns 0 when the result is within tolerance. */
static int run_variant(const struct variant* v, const struct layer* L) {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* uk = &v->ukernel;
    const size_t m = v->m, n = L->n, k = L->k;
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    const size_t m_step = uk->get_m_step(), n_step = uk->get_n_step();
    int failed = 0;

    printf("[%s] %s\n", v->role, v->name);
    printf("    M=%zu N=%zu K=%zu  mr=%zu nr=%zu kr=%zu sr=%zu  m_step=%zu n_step=%zu  tiles=%zu\n",
           m, n, k, mr, nr, kr, sr, m_step, n_step, (n + n_step - 1) / n_step);
    if (m_step == 0 || n_step == 0) {
        printf("    FAIL: unusable steps\n");
        return 1;
    }

    /* RHS: packed once, when the model is loaded. */
    const struct rhs_packer* packer = v->rhs_packer;
    const size_t rhs_packed_size = packer->get_size(n, k, nr, kr, sr);
    uint8_t* rhs_packed = xmalloc(rhs_packed_size);
    struct kai_rhs_pack_qs4cxs1s0_param params;
    params.lhs_zero_point = 1;
    params.rhs_zero_point = 8;
    double t0 = now_seconds();
    packer->run(1, n, k, nr, kr, sr, L->w, L->bias, L->scale, rhs_packed, 0, &params);
    const double rhs_pack_seconds = now_seconds() - t0;

    /* Offsets the kernel and the packer report must agree: frameworks use either. */
    for (size_t n_idx = 0; n_idx < n; n_idx += n_step) {
        const size_t by_kernel = uk->get_rhs_packed_offset(n_idx, k);
        const size_t by_packer = packer->get_offset(n_idx, k, nr, kr, sr);
        if (by_kernel != by_packer || by_kernel >= rhs_packed_size) {
            printf("    FAIL: rhs packed offset of column %zu: kernel %zu, packer %zu, size %zu\n", n_idx,
                   by_kernel, by_packer, rhs_packed_size);
            failed = 1;
            break;
        }
    }
    const size_t dst_size = uk->get_dst_size(m, n);
    if (dst_size != m * n * sizeof(float)) {
        printf("    FAIL: dst size %zu, expected %zu\n", dst_size, m * n * sizeof(float));
        free(rhs_packed);
        return 1;
    }

    /* LHS: quantized and packed on every call. */
    const size_t lhs_packed_size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr);
    uint8_t* lhs_packed = xmalloc(lhs_packed_size);
    float* dst = xmalloc(dst_size);
    float* first = xmalloc(dst_size);
    const size_t dst_stride = n * sizeof(float);
    for (size_t i = 0; i < m * n; ++i) {
        dst[i] = NAN; /* anything left untouched fails the check */
    }

    double total = 0.0, best = INFINITY, lhs_seconds = 0.0;
    int runs = 0, nondeterministic = 0;
    do {
        const double start = now_seconds();
        kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, L->x, k * sizeof(float), lhs_packed);
        const double packed = now_seconds();
        const void* lhs_tile = lhs_packed + uk->get_lhs_packed_offset(0, k);
        for (size_t n_idx = 0; n_idx < n; n_idx += n_step) {
            const size_t n_tile = n - n_idx < n_step ? n - n_idx : n_step;
            const void* rhs_tile = rhs_packed + uk->get_rhs_packed_offset(n_idx, k);
            float* dst_tile = (float*)((uint8_t*)dst + uk->get_dst_offset(0, n_idx, dst_stride));
            uk->run_matmul(m, n_tile, k, lhs_tile, rhs_tile, dst_tile, dst_stride, sizeof(float), -FLT_MAX,
                           FLT_MAX);
        }
        const double elapsed = now_seconds() - start;
        total += elapsed;
        lhs_seconds += packed - start;
        if (elapsed < best) {
            best = elapsed;
        }
        if (runs == 0) {
            memcpy(first, dst, dst_size);
        } else if (memcmp(first, dst, dst_size) != 0) {
            nondeterministic = 1;
        }
        ++runs;
    } while (total < MIN_TIMED_SECONDS && runs < MAX_RUNS);

    /* Check the first result against the reference. */
    double max_abs = 0.0, max_ref = 0.0;
    size_t worst = 0, bad = 0;
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            const double got = first[i * n + j];
            const double want = L->ref[i * n + j];
            const double err = fabs(got - want);
            if (!(err <= max_abs)) { /* also catches NaN */
                if (err != err) {
                    ++bad;
                    continue;
                }
                max_abs = err;
                worst = i * n + j;
            }
            if (fabs(want) > max_ref) {
                max_ref = fabs(want);
            }
        }
    }
    const double rel = max_ref > 0.0 ? max_abs / max_ref : max_abs;
    const double mean = total / runs;
    const double ops = 2.0 * (double)m * (double)n * (double)k;

    printf("    rhs pack (%s) %.2f ms (%zu bytes); lhs quant+pack %zu bytes\n", packer->name,
           rhs_pack_seconds * 1e3, rhs_packed_size, lhs_packed_size);
    printf("    time per matmul (lhs quant+pack + %zu tiles): mean %.3f ms, best %.3f ms over %d call%s"
           " (lhs pack %.3f ms) = %.2f GOPS\n",
           (n + n_step - 1) / n_step, mean * 1e3, best * 1e3, runs, runs == 1 ? "" : "s",
           lhs_seconds / runs * 1e3, ops / best * 1e-9);
    printf("    max abs error %.3e at [%zu][%zu] (got %.6f, ref %.6f), max |ref| %.4f, max rel error %.3e\n",
           max_abs, worst / n, worst % n, (double)first[worst], (double)L->ref[worst], max_ref, rel);
    if (bad != 0) {
        printf("    FAIL: %zu outputs are NaN or were not written\n", bad);
        failed = 1;
    }
    if (!(rel <= REL_TOLERANCE)) {
        printf("    FAIL: relative error %.3e above %.1e\n", rel, REL_TOLERANCE);
        failed = 1;
    }
    if (nondeterministic) {
        printf("    FAIL: repeated calls gave different results\n");
        failed = 1;
    }
    printf("    %s\n", failed ? "FAIL" : "PASS");

    free(first);
    free(dst);
    free(lhs_packed);
    free(rhs_packed);
    return failed;
}

/* Runs M_MAX rows as rkai's work planner splits them for a pool of `threads` threads: the SME side
 * (at most one thread per SME unit) and the other side each compute their own columns with the
 * pair rkai_select_..._nxk returns for their features (the plan asks for N x K weights, so it
 * names the same pairs), packing weights and activations with that selection's typed packers. The sides run one after the other here; a framework hands each
 * side's column tiles to its own threads. Returns 0 when the result is within tolerance. */
static int run_plan(const struct layer* L, size_t threads) {
    const size_t m = M_MAX, n = L->n, k = L->k;
    struct rkai_plan plan;
    if (rkai_plan_matmul("matmul_clamp_f32_qai8dxp_qsi4cxp", RKAI_SHAPE_GEMM, n, threads, RKAI_FEATURES_ALL,
                         RKAI_LAYOUT_NXK, 0.0f, &plan) != 0) {
        printf("[planned] no kernel of the family runs on this CPU\n");
        return 0;
    }
    printf("[planned] %zu threads, %zu SME unit%s (%s)%s\n", threads, plan.sme_units, plan.sme_units == 1 ? "" : "s",
           plan.sme_units_source, plan.shared_packing ? ", one packing" : "");
    const struct rkai_plan_part* parts[2] = {&plan.sme, &plan.neon};
    /* The SME side's features, and the other side's: the same without SME. */
    const uint32_t masks[2] = {RKAI_FEATURES_ALL, RKAI_FEATURES_ALL & ~(uint32_t)RKAI_FEATURE_SME};
    float* dst = xmalloc(m * n * sizeof(float));
    for (size_t i = 0; i < m * n; ++i) {
        dst[i] = NAN;
    }
    int failed = 0;
    for (int s = 0; s < 2; ++s) {
        const struct rkai_plan_part* part = parts[s];
        if (part->n_len == 0) {
            continue;
        }
        struct rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_selection_nxk sel;
        if (rkai_select_matmul_clamp_f32_qai8dxp_qsi4cxp_nxk(masks[s], &sel) != 0 || sel.gemm_lhs_packer.run == NULL) {
            printf("    FAIL: no selection for the %s side\n", s == 0 ? "SME" : "other");
            failed = 1;
            continue;
        }
        if (strcmp(sel.gemm.name, part->kernel) != 0) {
            printf("    FAIL: the plan names %s, the selection %s\n", part->kernel, sel.gemm.name);
            failed = 1;
            continue;
        }
        const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* uk = &sel.gemm.ukernel;
        printf("    %s side: %s on %zu thread%s, columns [%zu, %zu), packed for %zu-byte vectors\n",
               s == 0 ? "SME" : "other", part->kernel, part->threads, part->threads == 1 ? "" : "s", part->n_start,
               part->n_start + part->n_len, sel.gemm.packed_vector_bytes);
        const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
        uint8_t* rhs_packed = xmalloc(sel.rhs_packer.get_rhs_packed_size(n, k, nr, kr, sr));
        struct kai_rhs_pack_qs4cxs1s0_param params;
        params.lhs_zero_point = 1;
        params.rhs_zero_point = 8;
        sel.rhs_packer.run(1, n, k, nr, kr, sr, L->w, L->bias, L->scale, rhs_packed, 0, &params);
        uint8_t* lhs_packed = xmalloc(sel.gemm_lhs_packer.get_lhs_packed_size(m, k, mr, kr, sr));
        sel.gemm_lhs_packer.run(m, k, mr, kr, sr, 0, L->x, k * sizeof(float), lhs_packed);
        const size_t n_step = uk->get_n_step(), dst_stride = n * sizeof(float);
        for (size_t n_idx = part->n_start; n_idx < part->n_start + part->n_len; n_idx += n_step) {
            const size_t end = part->n_start + part->n_len;
            const size_t cols = end - n_idx < n_step ? end - n_idx : n_step;
            uk->run_matmul(m, cols, k, lhs_packed + uk->get_lhs_packed_offset(0, k),
                           rhs_packed + uk->get_rhs_packed_offset(n_idx, k),
                           (float*)((uint8_t*)dst + uk->get_dst_offset(0, n_idx, dst_stride)), dst_stride,
                           sizeof(float), -FLT_MAX, FLT_MAX);
        }
        free(lhs_packed);
        free(rhs_packed);
    }
    double max_abs = 0.0, max_ref = 0.0;
    size_t bad = 0;
    for (size_t i = 0; i < m * n; ++i) {
        const double err = fabs((double)dst[i] - (double)L->ref[i]);
        if (err != err) {
            ++bad;
        } else if (err > max_abs) {
            max_abs = err;
        }
        if (fabs((double)L->ref[i]) > max_ref) {
            max_ref = fabs((double)L->ref[i]);
        }
    }
    const double rel = max_ref > 0.0 ? max_abs / max_ref : max_abs;
    printf("    max rel error %.3e over every column\n", rel);
    if (bad != 0 || !(rel <= REL_TOLERANCE)) {
        printf("    FAIL: %zu outputs NaN or unwritten, relative error %.3e\n", bad, rel);
        failed = 1;
    }
    printf("    %s\n", failed ? "FAIL" : "PASS");
    free(dst);
    return failed;
}

int main(void) {
    const size_t n = N_DIM, k = K_DIM;
    const size_t w_stride = (k + 1) / 2;
    const uint32_t features = rkai_get_cpu_features();
#if defined(__aarch64__) || defined(_M_ARM64)
    const int on_arm = 1;
    const char* arch = "aarch64";
#else
    const int on_arm = 0;
#if defined(__x86_64__) || defined(_M_X64)
    const char* arch = "x86_64";
#else
    const char* arch = "other";
#endif
#endif

    printf("int4_linear: kai_get_version() = %s, rkai_get_version() = %s, rkai_get_kleidiai_version() = %s\n",
           kai_get_version(), rkai_get_version(), rkai_get_kleidiai_version());
    printf("int4_linear: arch %s, rkai_get_cpu_features() = 0x%x: neon=%s dotprod=%s i8mm=%s%s\n", arch,
           (unsigned)features, (features & RKAI_FEATURE_NEON) ? "yes" : "no",
           (features & RKAI_FEATURE_DOTPROD) ? "yes" : "no", (features & RKAI_FEATURE_I8MM) ? "yes" : "no",
           on_arm ? "" : " (not Arm: rkai runs every kernel on its portable path)");
    printf("int4_linear: linear layer N=%zu K=%zu, int4 per-channel weights (zero point 8), f32 bias\n", n, k);

    /* Model: int4 weights, per-channel scales, bias. Input: M_MAX rows of activations. */
    float* x = xmalloc((size_t)M_MAX * k * sizeof(float));
    uint8_t* w = xmalloc(n * w_stride);
    float* scale = xmalloc(n * sizeof(float));
    float* bias = xmalloc(n * sizeof(float));
    float* ref = xmalloc((size_t)M_MAX * n * sizeof(float));
    for (size_t i = 0; i < (size_t)M_MAX * k; ++i) {
        x[i] = rng_uniform(-1.0f, 1.0f);
    }
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < w_stride; ++b) {
            const uint8_t lo = (uint8_t)(rng_u32() & 0x0F); /* even k */
            const uint8_t hi = (2 * b + 1 < k) ? (uint8_t)(rng_u32() & 0x0F) : 0;
            w[j * w_stride + b] = (uint8_t)(lo | (hi << 4));
        }
        scale[j] = rng_uniform(0.005f, 0.02f);
        bias[j] = rng_uniform(-0.5f, 0.5f);
    }

    /* rkai's run-time selection for N x K weights: the best GEMV and GEMM of the family this CPU
     * runs, with the functions of the packer writing the one RHS format both read (a framework
     * packs its weights once, with the GEMM's nr, kr, sr) and of each kernel's LHS packer. */
    struct rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_selection_nxk selection;
    const int found = rkai_select_matmul_clamp_f32_qai8dxp_qsi4cxp_nxk(RKAI_FEATURES_ALL, &selection) == 0;
    const struct rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_choice* chosen[2] = {&selection.gemv, &selection.gemm};
    const int selected[2] = {found, found};
    const struct rhs_packer selected_packer = {selection.rhs_packer.name, selection.rhs_packer.get_rhs_packed_size,
                                               selection.rhs_packer.get_rhs_packed_offset, selection.rhs_packer.run};

    /* The reference covers the rows of the largest M among the kernels this CPU can run. */
    const size_t variant_count = sizeof(VARIANTS) / sizeof(VARIANTS[0]);
    int runnable[sizeof(VARIANTS) / sizeof(VARIANTS[0])];
    size_t m_ref = selected[1] ? (size_t)M_MAX : (selected[0] ? 1 : 0);
    for (size_t i = 0; i < variant_count; ++i) {
        runnable[i] = !on_arm || (features & VARIANTS[i].required_feature) != 0;
        if (runnable[i] && VARIANTS[i].m > m_ref) {
            m_ref = VARIANTS[i].m;
        }
    }
    if (m_ref > 0) {
        const double t0 = now_seconds();
        const int threads = reference_linear(m_ref, n, k, x, w, w_stride, scale, bias, ref);
        if (threads == 0) {
            fprintf(stderr, "int4_linear: out of memory in the reference\n");
            return 1;
        }
        printf("int4_linear: reference (plain C floats, M=%zu, %d thread%s) took %.1f ms\n", m_ref, threads,
               threads == 1 ? "" : "s", (now_seconds() - t0) * 1e3);
    }

    const struct layer layer = {n, k, x, w, w_stride, scale, bias, ref};
    int failures = 0, ran = 0;
    for (size_t i = 0; i < variant_count; ++i) {
        const struct variant* v = &VARIANTS[i];
        if (!runnable[i]) {
            printf("[%s] %s\n    SKIP: this CPU has no %s\n", v->role, v->name, v->feature_name);
            continue;
        }
        failures += run_variant(v, &layer);
        ++ran;
    }
    for (int s = 0; s < 2; ++s) {
        const char* role = s == 0 ? "selected GEMV" : "selected GEMM";
        if (!selected[s]) {
            printf("[%s] none: no kernel of the family runs on this CPU\n", role);
            continue;
        }
        const struct variant v = {role, chosen[s]->name, 0, chosen[s]->isa, s == 0 ? 1 : (size_t)M_MAX,
                                  chosen[s]->ukernel, &selected_packer};
        /* A framework caching packed weights stores packed_vector_bytes with them and repacks
         * where it differs (SVE and SME formats follow the machine's vector length). */
        printf("[%s] isa %s, RHS packer %s, LHS packer %s, packed for %zu-byte vectors\n", role, chosen[s]->isa,
               selection.rhs_packer.name, s == 0 ? selection.gemv_lhs_packer.name : selection.gemm_lhs_packer.name,
               chosen[s]->packed_vector_bytes);
        failures += run_variant(&v, &layer);
        ++ran;
    }

    if (selected[1]) {
        failures += run_plan(&layer, 8);
        ++ran;
    }

    free(ref);
    free(bias);
    free(scale);
    free(w);
    free(x);

    if (failures != 0) {
        printf("int4_linear: FAILED (%d of %d kernels)\n", failures, ran);
        return 1;
    }
    printf("int4_linear: %d kernel%s run, all within tolerance\n", ran, ran == 1 ? "" : "s");
    printf("int4_linear: OK\n");
    return 0;
}
