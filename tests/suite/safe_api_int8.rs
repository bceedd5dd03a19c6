//! The int8-output families through the safe API (`Weights::Int8Requantized`,
//! `Activations::Int8`, `matmul_requantized`): the SME GEMMs `matmul_clamp_qai8_qai8p_qsi8cxp`
//! and the SME2 GEMV `matmul_clamp_qai8_qai8_qsi8cxp`, at the streaming length of the CPU running
//! the test (their portable paths off SME). The safe API's packed weights and activations are the
//! bytes of the C packers `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` and
//! `lhs_pack_x8p2vlx4_x8_sme` for the same operands and parameters, and `matmul_requantized`
//! writes the bytes of the exported C kernel on those bytes and of `reference::qai8::matmul`, over
//! shapes around the tile (m = 1, n and k off every step), with a destination row stride wider
//! than a row whose padding stays untouched; threads change nothing; the GEMV reads weights
//! packed for the GEMMs; every misuse is an `Err`.

use crate::qai8_sme::Problem;
use crate::support;

use rkai_ukernels::api::{
    self, Activations, Clamp, Error, InputQuantization, Kernel, Lhs, PackedActivations,
    PackedWeights, Requantize, Weights,
};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::matmul_clamp_qai8_qai8p_qsi8cxp::clamp_order;
use support::api::kernel_of;
use support::cabi::{MatmulQai8Fn, func};
use support::guard::Edge;
use support::{sme_pack, tester};

/// The int8-output families the safe API covers (the indirect one is not among them).
const FAMILIES: [Family; 2] = [Family::Qai8Qai8pQsi8cxp, Family::Qai8Qai8Qsi8cxp];

/// The byte every destination holds before a call.
const CANARY: i8 = 0x5a;

/// Extra elements at the end of each destination row.
const ROW_PAD: usize = 3;

/// The kernels of the int8-output families (narrowed by `RKAI_TEST_KERNEL`) this CPU runs;
/// every one of them is covered.
fn kernels() -> Vec<Kernel> {
    let entries = KERNELS
        .iter()
        .copied()
        .filter(|k| FAMILIES.contains(&k.family));
    let entries: Vec<&MatmulKernel> = tester::narrowed(entries).collect();
    let runnable: Vec<Kernel> = (entries.iter())
        .filter_map(|&entry| match Kernel::new(entry) {
            Ok(kernel) => Some(kernel),
            Err(Error::NotSupportedByCpu(_)) => None,
            Err(e) => panic!("{}: {e}", entry.stem),
        })
        .collect();
    eprintln!(
        "streaming length {} x 32 bits: {} of {} int8-output kernels run here",
        sme_pack::svl32(),
        runnable.len(),
        entries.len()
    );
    runnable
}

/// Whether `kernel` is the GEMV (one row as it is).
fn is_gemv(kernel: &Kernel) -> bool {
    !kernel.reads_packed_lhs()
}

/// The safe forms of a problem's operands.
fn input(p: &Problem) -> InputQuantization {
    InputQuantization {
        zero_point: i8::try_from(p.lhs_zero_point).unwrap(),
        scale_multiplier: p.scale_multiplier,
    }
}

fn weights(p: &Problem) -> Weights<'_> {
    Weights::Int8Requantized {
        data: &p.rhs,
        scales: &p.scale,
        bias: &p.bias,
        input: input(p),
    }
}

fn rows(p: &Problem) -> Activations<'_> {
    Activations::Int8 {
        data: &p.lhs,
        stride: p.k,
    }
}

fn requantize(p: &Problem) -> Requantize {
    let byte = |v: i32| i8::try_from(v).unwrap();
    Requantize {
        min: byte(p.params.min_value),
        max: byte(p.params.max_value),
        zero_point: byte(p.params.output_zero_point),
    }
}

/// The problem's weights packed by the safe API for `kernel`.
fn packed_weights(kernel: &Kernel, p: &Problem) -> PackedWeights<Vec<u8>> {
    let storage = vec![0u8; kernel.packed_weights_size(p.n, p.k, 0).unwrap()];
    PackedWeights::pack(kernel, p.n, p.k, weights(p), None, storage).unwrap()
}

/// The problem's activations as `kernel` reads them from the safe API: packed (the GEMMs) or the
/// rows as they are (the GEMV). Packed ones are kept in `storage`.
fn lhs<'a>(
    kernel: &Kernel,
    p: &'a Problem,
    storage: &'a mut Option<PackedActivations<Vec<u8>>>,
) -> Lhs<'a> {
    if is_gemv(kernel) {
        return Lhs::Rows {
            m: p.m,
            k: p.k,
            rows: rows(p),
        };
    }
    let size = kernel.packed_activations_size(p.m, p.k, 0).unwrap();
    let packed = PackedActivations::pack(kernel, p.m, p.k, 0, rows(p), vec![0u8; size]);
    Lhs::from(&*storage.insert(packed.unwrap()))
}

/// A destination of `m` rows `n + ROW_PAD` apart, filled with [`CANARY`].
fn destination(p: &Problem) -> Vec<i8> {
    vec![CANARY; p.m * (p.n + ROW_PAD)]
}

/// The rows of `dst` (stride `n + ROW_PAD`) without their padding, which must hold the canary.
fn outputs(p: &Problem, dst: &[i8]) -> Vec<u8> {
    let stride = p.n + ROW_PAD;
    for row in dst.chunks(stride) {
        assert!(row[p.n..].iter().all(|&v| v == CANARY), "padding written");
    }
    dst.chunks(stride)
        .flat_map(|r| &r[..p.n])
        .map(|&v| v as u8)
        .collect()
}

/// The problem through the exported C functions: packed by the C packers, run by the kernel's
/// symbol into rows `n + ROW_PAD` apart. Returns the packed weights, the packed activations
/// (the GEMV's: its row) and the destination.
fn c_call(kernel: &Kernel, p: &Problem) -> (Vec<u8>, Vec<u8>, Vec<i8>) {
    let entry = kernel.entry();
    let (lhs, rhs) = p.pack(entry, Edge::End);
    let mut dst = destination(p);
    let run = func::<MatmulQai8Fn>("run", entry.stem);
    let stride = p.n + ROW_PAD;
    // SAFETY: operands packed for the kernel's formats, `dst` holds m rows of `stride` bytes.
    unsafe {
        run(
            p.m,
            p.n,
            p.k,
            lhs.ptr().cast(),
            rhs.ptr().cast(),
            dst.as_mut_ptr().cast(),
            stride,
            1,
            &p.params,
        )
    };
    (rhs.bytes().to_vec(), lhs.bytes().to_vec(), dst)
}

/// The shapes a kernel runs: one of everything, then rows and columns around its tile and K off
/// the step of 4 (the GEMV: one row, columns around its group and its step).
fn shapes(kernel: &Kernel) -> Vec<(usize, usize, usize)> {
    let t = kernel.entry().tile();
    if is_gemv(kernel) {
        vec![(1, 1, 1), (1, t.nr + 1, 39), (1, t.n_step + 3, 130)]
    } else {
        vec![
            (1, 1, 1),
            (1, t.nr + 3, 13),
            (t.mr + 1, t.nr - 1, 39),
            (13, 2 * t.nr + 5, 128),
        ]
    }
}

#[test]
fn packed_bytes_and_outputs_equal_the_c_functions() {
    let mut cases = 0;
    for kernel in kernels() {
        let stem = kernel.entry().stem;
        let order = clamp_order(kernel.entry());
        for (i, (m, n, k)) in shapes(&kernel).into_iter().enumerate() {
            let mut p = Problem::random(m, n, k, 0x1a8 + i as u64);
            // A multiplier that is not the one every other test uses.
            p.scale_multiplier = 0.625;
            let (c_weights, c_lhs, c_dst) = c_call(&kernel, &p);
            let packed = packed_weights(&kernel, &p);
            assert_eq!(
                packed.bytes(),
                &c_weights[..],
                "{stem} {m}x{n}x{k}: weights"
            );
            let mut lhs_storage = None;
            let x = lhs(&kernel, &p, &mut lhs_storage);
            if let Lhs::Packed(packed_x) = x {
                assert_eq!(
                    packed_x.bytes(),
                    &c_lhs[..],
                    "{stem} {m}x{n}x{k}: activations"
                );
            }
            let mut dst = destination(&p);
            let stride = n + ROW_PAD;
            api::matmul_requantized(&kernel, x, &packed, &mut dst, stride, requantize(&p)).unwrap();
            assert_eq!(dst, c_dst, "{stem} {m}x{n}x{k}: outputs");
            assert_eq!(outputs(&p, &dst), p.reference(order), "{stem} {m}x{n}x{k}");
            // Spread over threads: the same bytes.
            let mut threaded = destination(&p);
            let q = requantize(&p);
            api::parallel::matmul_requantized(&kernel, x, &packed, &mut threaded, stride, q, 3)
                .unwrap();
            assert_eq!(threaded, c_dst, "{stem} {m}x{n}x{k}: threads");
            cases += 1;
        }
    }
    eprintln!("{cases} cases: safe API bytes equal the C functions' and the reference");
}

/// The buffer a call found too small.
fn short<T: std::fmt::Debug>(r: Result<T, Error>) -> &'static str {
    match r {
        Err(Error::BufferTooSmall { buffer, .. }) => buffer,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_gemv_reads_weights_packed_for_the_gemms() {
    let (Some(gemm), Some(gemv)) = (
        kernel_of(Family::Qai8Qai8pQsi8cxp),
        kernel_of(Family::Qai8Qai8Qsi8cxp),
    ) else {
        return;
    };
    let p = Problem::random(3, 2 * gemv.entry().tile().n_step + 7, 45, 0x6e);
    let packed = packed_weights(&gemm, &p);
    assert!(packed.is_read_by(&gemv));
    let order = clamp_order(gemv.entry());
    let expected = p.reference(order);
    for row in 0..p.m {
        let x = &p.lhs[row * p.k..];
        let lhs = Lhs::Rows {
            m: 1,
            k: p.k,
            rows: Activations::Int8 {
                data: x,
                stride: p.k,
            },
        };
        let mut dst = vec![0i8; p.n];
        api::matmul_requantized(&gemv, lhs, &packed, &mut dst, p.n, requantize(&p)).unwrap();
        let bytes: Vec<u8> = dst.iter().map(|&v| v as u8).collect();
        assert_eq!(bytes, expected[row * p.n..][..p.n], "row {row}");
    }
}

#[test]
fn misuse_of_the_int8_forms_is_an_error() {
    let Some(gemm) = kernel_of(Family::Qai8Qai8pQsi8cxp) else {
        assert!(!support::cpu::can_run(rkai_ukernels::arch::Isa::Sme));
        return;
    };
    let (m, n, k) = (3, 11, 21);
    let p = Problem::random(m, n, k, 0xe7);
    let size = gemm.packed_weights_size(n, k, 0).unwrap();
    let pack = |w, bias| PackedWeights::pack(&gemm, n, k, w, bias, vec![0u8; size]);
    let (scales, bias, input) = (&p.scale[..], &p.bias[..], input(&p));
    let form = |data, scales, bias| Weights::Int8Requantized {
        data,
        scales,
        bias,
        input,
    };
    // Short sources and storage.
    assert_eq!(
        short(pack(form(&p.rhs[1..], scales, bias), None)),
        "int8 weights"
    );
    assert_eq!(
        short(pack(form(&p.rhs, &scales[1..], bias), None)),
        "scales"
    );
    assert_eq!(short(pack(form(&p.rhs, scales, &bias[1..]), None)), "bias");
    let small = PackedWeights::pack(&gemm, n, k, weights(&p), None, vec![0u8; size - 1]);
    assert_eq!(short(small), "packed weight storage");
    // The bias is in the form.
    assert_eq!(
        pack(weights(&p), Some(&[0.0; 11][..])).unwrap_err(),
        Error::Precondition("the bias of Int8Requantized is in the form")
    );
    // A weight form the kernel's packer does not take.
    let int8 = Weights::Int8PerChannel {
        data: &p.rhs,
        scales,
    };
    assert_eq!(
        pack(int8, None).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    let packed = pack(weights(&p), None).unwrap();

    // Activations: float rows for the int8 packer, short or narrow rows, rows as they are for a
    // kernel that reads them packed.
    let lhs_size = gemm.packed_activations_size(m, k, 0).unwrap();
    let pack_x = |x| PackedActivations::pack(&gemm, m, k, 0, x, vec![0u8; lhs_size]);
    let floats = vec![0f32; m * k];
    let f32_rows = Activations::F32 {
        data: &floats,
        stride: k,
    };
    assert_eq!(
        pack_x(f32_rows).unwrap_err(),
        Error::FormatMismatch("activations")
    );
    let short_rows = Activations::Int8 {
        data: &p.lhs[1..],
        stride: k,
    };
    assert_eq!(short(pack_x(short_rows)), "activations");
    let narrow = Activations::Int8 {
        data: &p.lhs,
        stride: k - 1,
    };
    assert_eq!(
        pack_x(narrow).unwrap_err(),
        Error::Precondition("stride >= k")
    );
    let x = pack_x(rows(&p)).unwrap();
    let q = requantize(&p);
    let mut dst = vec![0i8; m * n];
    let as_rows = Lhs::Rows {
        m,
        k,
        rows: rows(&p),
    };
    assert_eq!(
        api::matmul_requantized(&gemm, as_rows, &packed, &mut dst, n, q).unwrap_err(),
        Error::LhsForm {
            kernel_reads_packed: true
        }
    );
    // Another k, a short or narrow destination.
    let longer = vec![0i8; m * (k + 4)];
    let other_k = Activations::Int8 {
        data: &longer,
        stride: k + 4,
    };
    let other_size = gemm.packed_activations_size(m, k + 4, 0).unwrap();
    let x_k = PackedActivations::pack(&gemm, m, k + 4, 0, other_k, vec![0u8; other_size]);
    assert!(matches!(
        api::matmul_requantized(&gemm, &x_k.unwrap(), &packed, &mut dst, n, q),
        Err(Error::ShapeMismatch { dimension: "k", .. })
    ));
    assert_eq!(
        short(api::matmul_requantized(
            &gemm,
            &x,
            &packed,
            &mut dst[1..],
            n,
            q
        )),
        "dst"
    );
    assert_eq!(
        api::matmul_requantized(&gemm, &x, &packed, &mut dst, n - 1, q).unwrap_err(),
        Error::Precondition("dst_stride >= n")
    );
    // The wrong output stage or type: a float clamp (into floats or into int8) for a kernel that
    // requantizes.
    let requantizes = Error::OutputStage {
        kernel_requantizes: true,
    };
    let mut floats_out = vec![0f32; m * n];
    assert_eq!(
        api::matmul(&gemm, &x, &packed, &mut floats_out, n, Clamp::NONE).unwrap_err(),
        requantizes
    );
    assert_eq!(
        api::matmul(&gemm, &x, &packed, &mut dst, n, Clamp::NONE).unwrap_err(),
        requantizes
    );
    api::matmul_requantized(&gemm, &x, &packed, &mut dst, n, q).unwrap();

    // The GEMV: one row as it is, of int8.
    if let Some(gemv) = kernel_of(Family::Qai8Qai8Qsi8cxp) {
        let mut run = |lhs| api::matmul_requantized(&gemv, lhs, &packed, &mut dst, n, q);
        assert_eq!(
            run(Lhs::from(&x)).unwrap_err(),
            Error::LhsForm {
                kernel_reads_packed: false
            }
        );
        let float_row = Lhs::Rows {
            m: 1,
            k,
            rows: f32_rows,
        };
        assert_eq!(
            run(float_row).unwrap_err(),
            Error::FormatMismatch("activation rows")
        );
        // KleidiAI's one assertion of the GEMV.
        assert_eq!(run(as_rows).unwrap_err(), Error::Precondition("m == 1"));
        let row = Lhs::Rows {
            m: 1,
            k,
            rows: rows(&p),
        };
        run(row).unwrap();
    }

    // A float kernel: no int8 forms, no requantization.
    if let Some(float) = kernel_of(Family::F32Qai8dxpQsi8cxp) {
        let w_size = float.packed_weights_size(n, k, 0).unwrap();
        let r = PackedWeights::pack(&float, n, k, weights(&p), None, vec![0u8; w_size]);
        assert_eq!(r.unwrap_err(), Error::FormatMismatch("weights"));
        let x_size = float.packed_activations_size(m, k, 0).unwrap();
        let r = PackedActivations::pack(&float, m, k, 0, rows(&p), vec![0u8; x_size]);
        assert_eq!(r.unwrap_err(), Error::FormatMismatch("activations"));
        let w = Weights::Int8PerChannel {
            data: &p.rhs,
            scales,
        };
        let float_weights = PackedWeights::pack(&float, n, k, w, None, vec![0u8; w_size]);
        let x = PackedActivations::pack(&float, m, k, 0, f32_rows, vec![0u8; x_size]).unwrap();
        assert_eq!(
            api::matmul_requantized(&float, &x, &float_weights.unwrap(), &mut dst, n, q)
                .unwrap_err(),
            Error::OutputStage {
                kernel_requantizes: false
            }
        );
        // And int8 weights packed for the int8 kernels are not its format.
        assert_eq!(
            api::matmul(&float, &x, &packed, &mut floats_out, n, Clamp::NONE).unwrap_err(),
            Error::FormatMismatch("packed weights")
        );
    }
}
