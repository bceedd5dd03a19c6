//! KleidiAI's generic LHS-packing interface (`kai_matmul_pack_lhs.h`), through the C ABI: each
//! provider's table (function pointers called as C calls them) against KleidiAI's getter formulas
//! and the row-copying SME layout reference (`support::sme_pack`), at the streaming length of the
//! CPU under test (SVL 128 bits where SME is absent), with guard pages, row slices through the
//! offset getters, caller strides, threads and KleidiAI's assumptions.

use crate::support;

use rkai_capi::capi::exports::{
    kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme, kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme,
    kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme,
};
use rkai_ukernels::pack_lhs_types::*;
use support::guard::{EDGES, Guarded};
use support::sme_pack::{self, LhsPacker, slices, svl32};
use support::uker_pack::{LhsPackApi as Api, LhsPackedStride as PackedStride, LhsStride};

/// One provider: its C name, the table it returns and the bytes of its elements.
#[derive(Clone, Copy)]
struct Provider {
    name: &'static str,
    provider: extern "C" fn() -> kai_matmul_pack_lhs_uker_api,
    elem: usize,
}

const PROVIDERS: [Provider; 3] = [
    Provider {
        name: "kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme",
        provider: kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme,
        elem: 4,
    },
    Provider {
        name: "kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme",
        provider: kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme,
        elem: 2,
    },
    Provider {
        name: "kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme",
        provider: kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme,
        elem: 1,
    },
];

/// `(mr, kr)` of `p`: mr = 4 x vscale = the streaming length in 32-bit lanes, kr = 4 / elem.
fn tile(p: &Provider) -> (usize, usize) {
    (svl32(), 4 / p.elem)
}

/// The layout reference of `p` at this streaming length.
fn reference_packer(p: &Provider) -> LhsPacker {
    let (mr, kr) = tile(p);
    LhsPacker {
        name: p.name,
        tile: (mr, kr, 1),
    }
}

/// `len` source elements of `elem` bytes, never zero (padding must show), some NaN and
/// infinity bit patterns among the 32-bit ones.
fn values(elem: usize, len: usize, seed: u64) -> Vec<u8> {
    let bits = sme_pack::bit_patterns(len, seed, 32, &support::hostile::F32_SPECIALS);
    let mut out = Vec::with_capacity(len * elem);
    for v in bits {
        let v = if v & ((1u64 << (8 * elem)) - 1) as u32 == 0 {
            v | 1
        } else {
            v
        };
        out.extend_from_slice(&v.to_le_bytes()[..elem]);
    }
    out
}

#[test]
fn getters_have_kleidiai_values() {
    let mut checked = 0;
    for p in &PROVIDERS {
        let api = Api((p.provider)());
        let (mr, kr) = tile(p);
        let step = api.step();
        assert_eq!((step.m, step.k), (mr, 0), "{} get_step", p.name);
        for k in [1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 4097] {
            for m in [1, mr - 1, mr, mr + 1, 5 * mr + 3] {
                let s = api.lhs_stride(m, k);
                assert_eq!(s.m, k * p.elem, "{} get_lhs_stride k {k}", p.name);
                let ps = api.packed_stride(m, k);
                assert_eq!(
                    ps.m,
                    mr * k.div_ceil(kr) * kr * p.elem,
                    "{} get_lhs_packed_stride k {k}",
                    p.name
                );
                assert_eq!(
                    api.packed_size(m, k, &ps),
                    m.div_ceil(mr) * ps.m,
                    "{} size m {m} k {k}",
                    p.name
                );
                // The size follows the stride passed, not the shape's own.
                let wider = PackedStride { m: ps.m + 64 };
                assert_eq!(api.packed_size(m, k, &wider), m.div_ceil(mr) * wider.m);
                checked += 4;
            }
        }
        for block in [0, 1, 2, 7] {
            let m_idx = block * mr;
            let stride = api.lhs_stride(9 * mr, 3);
            assert_eq!(api.lhs_offset(m_idx, 0, &stride), m_idx * stride.m);
            // The offset uses the stride passed (a padded source).
            let padded = LhsStride { m: 1000 };
            assert_eq!(api.lhs_offset(m_idx, 0, &padded), m_idx * 1000);
            let ps = api.packed_stride(9 * mr, 5);
            assert_eq!(api.packed_offset(m_idx, 0, &ps), block * ps.m);
            checked += 3;
        }
        // The zero sizes.
        let ps = api.packed_stride(0, 0);
        assert_eq!((ps.m, api.packed_size(0, 0, &ps)), (0, 0));
    }
    eprintln!("{checked} getter values checked (mr {})", svl32());
}

/// Shapes around the block and step edges.
fn shapes(mr: usize) -> Vec<(usize, usize)> {
    let ms = [1, 2, mr - 1, mr, mr + 1, 2 * mr + 3, 3 * mr];
    let ks = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17];
    ms.iter()
        .flat_map(|&m| ks.iter().map(move |&k| (m, k)))
        .collect()
}

/// Packs `m` x `k` of `p` from `data` (rows of `k + pad` values) against each guard edge, whole
/// and in row slices of one block moved through the offset getters, and compares every byte with
/// the layout reference.
fn check_case(p: &Provider, api: &Api, data: &[u8], (m, k, pad): (usize, usize, usize)) -> usize {
    let mr = tile(p).0;
    let row_bytes = (k + pad) * p.elem;
    let expect = reference_packer(p).rows_reference(data, p.elem, (m, k, k + pad));
    let ps = api.packed_stride(m, k);
    let size = api.packed_size(m, k, &ps);
    assert_eq!(size, expect.len(), "{} size m {m} k {k}", p.name);
    let ls = LhsStride { m: row_bytes };
    let mut cases = 0;
    for edge in EDGES {
        // The last row ends at its last value: no read past it is allowed.
        let src = Guarded::from_bytes(&data[..(m - 1) * row_bytes + k * p.elem], edge);
        // SAFETY (closure): the source and output buffers hold the whole problem; the offsets
        // come from the getters for rows m0..m0 + rows.
        let pack = |out: *mut u8, (m0, rows): (usize, usize)| unsafe {
            let source = src.ptr().add(api.lhs_offset(m0, 0, &ls));
            let out = out.add(api.packed_offset(m0, 0, &ps));
            api.run((rows, k), (source, row_bytes), out, ps.m)
        };
        let what = format!("{} m={m} k={k} pad={pad} mr={mr}", p.name);
        sme_pack::packs_equal(&what, size, edge, &expect, |out| pack(out, (0, m)));
        cases += 1;
        if m > mr {
            sme_pack::slices_equal(&what, size, edge, &expect, &slices(m, mr), pack);
            cases += 1;
        }
    }
    cases
}

#[test]
fn packs_equal_reference() {
    for p in &PROVIDERS {
        let api = Api((p.provider)());
        let mut cases = 0;
        for (seed, (m, k)) in shapes(tile(p).0).into_iter().enumerate() {
            for pad in [0, 5] {
                let data = values(p.elem, m * (k + pad), seed as u64);
                cases += check_case(p, &api, &data, (m, k, pad));
            }
        }
        eprintln!(
            "{}: {cases} packings equal the reference (mr {})",
            p.name,
            svl32()
        );
    }
}

/// A caller's packed stride wider than `get_lhs_packed_stride` places each block there and
/// leaves the bytes between blocks alone, as KleidiAI's loop over blocks does; `m == 0` and
/// `k == 0` write nothing.
#[test]
fn caller_strides_and_empty_calls() {
    for p in &PROVIDERS {
        let api = Api((p.provider)());
        let (mr, _) = tile(p);
        let (m, k) = (2 * mr + 1, 5);
        let data = values(p.elem, m * k, 3);
        let expect = reference_packer(p).rows_reference(&data, p.elem, (m, k, k));
        let block = api.packed_stride(m, k).m;
        let wide = block + 24;
        let mut out = vec![sme_pack::FILL; 3 * wide];
        // SAFETY: three blocks of `wide` bytes; the source holds m rows of k values.
        unsafe { api.run((m, k), (data.as_ptr(), k * p.elem), out.as_mut_ptr(), wide) };
        for b in 0..3 {
            let got = &out[b * wide..];
            assert_eq!(
                &got[..block],
                &expect[b * block..(b + 1) * block],
                "{}",
                p.name
            );
            assert!(got[block..wide].iter().all(|&x| x == sme_pack::FILL));
        }
        for (m, k) in [(0, 5), (mr, 0), (0, 0)] {
            let mut out = Guarded::from_bytes(&[sme_pack::FILL; 64], EDGES[0]);
            // SAFETY: nothing is read or written for an empty shape.
            unsafe { api.run((m, k), (data.as_ptr(), 4), out.mut_ptr(), 0) };
            assert!(out.bytes().iter().all(|&x| x == sme_pack::FILL));
        }
    }
}

/// Threads packing disjoint row blocks at once produce the whole packing (no shared state).
#[test]
fn threads_pack_disjoint_blocks() {
    for p in &PROVIDERS {
        let api = Api((p.provider)());
        let (mr, _) = tile(p);
        let (m, k) = (6 * mr + 3, 11);
        let data = values(p.elem, m * k, 9);
        let expect = reference_packer(p).rows_reference(&data, p.elem, (m, k, k));
        let ps = api.packed_stride(m, k);
        let mut out = vec![0u8; api.packed_size(m, k, &ps)];
        let (dst, src) = (out.as_mut_ptr() as usize, data.as_ptr() as usize);
        let row_bytes = k * p.elem;
        std::thread::scope(|s| {
            for (m0, rows) in slices(m, mr) {
                s.spawn(move || {
                    let api = Api((p.provider)());
                    let ls = LhsStride { m: row_bytes };
                    // SAFETY: each thread writes its own block of the whole packing's buffer.
                    unsafe {
                        let source = (src as *const u8).add(api.lhs_offset(m0, 0, &ls));
                        let out = (dst as *mut u8).add(api.packed_offset(m0, 0, &ps));
                        api.run((rows, k), (source, row_bytes), out, ps.m)
                    }
                });
            }
        });
        assert_eq!(out, expect, "{}", p.name);
    }
}

/// KleidiAI assumes block-aligned start rows and an unsplit K; rkai aborts naming the provider
/// (the f32 packer words its row condition through `get_m_step`, the others through `get_mr`).
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    const F32: &str = "kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme";
    const X16: &str = "kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme";
    const X8: &str = "kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme";
    fn api(i: usize) -> Api {
        Api((PROVIDERS[i].provider)())
    }
    vec![
        (
            "f32_lhs_offset_m",
            F32,
            "index->m % get_m_step() == 0",
            || {
                api(0).lhs_offset(1, 0, &api(0).lhs_stride(64, 1));
            },
        ),
        ("f32_lhs_offset_k", F32, "index->k == 0", || {
            api(0).lhs_offset(0, 1, &api(0).lhs_stride(64, 4));
        }),
        (
            "f32_packed_offset_m",
            F32,
            "index->m % get_m_step() == 0",
            || {
                let a = api(0);
                a.packed_offset(a.step().m + 1, 0, &a.packed_stride(64, 4));
            },
        ),
        ("f32_packed_offset_k", F32, "index->k == 0", || {
            api(0).packed_offset(0, 2, &api(0).packed_stride(64, 4));
        }),
        ("x16_lhs_offset_m", X16, "index->m % get_mr() == 0", || {
            api(1).lhs_offset(3, 0, &api(1).lhs_stride(64, 2));
        }),
        ("x16_packed_offset_k", X16, "index->k == 0", || {
            api(1).packed_offset(0, 1, &api(1).packed_stride(64, 2));
        }),
        ("x8_packed_offset_m", X8, "index->m % get_mr() == 0", || {
            let a = api(2);
            a.packed_offset(a.step().m - 1, 0, &a.packed_stride(64, 4));
        }),
        ("x8_lhs_offset_k", X8, "index->k == 0", || {
            api(2).lhs_offset(0, 4, &api(2).lhs_stride(64, 8));
        }),
    ]
}

death_tests!(violations, "assumptions");
