//! Checks every GEMM family's tests share, whatever its operands look like: the portions a
//! threaded framework computes, that a call wrote its portion and nothing else, disjoint portions
//! on many threads against one call, and callee-saved registers across `kai_run_matmul_*`.

/// (row start, column start, rows, columns) of one call.
pub type Portion = (usize, usize, usize, usize);

/// A kernel run through its exported C symbol or through the portable implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    Exported,
    Portable,
}

impl Impl {
    pub fn name(self) -> &'static str {
        match self {
            Impl::Exported => "exported",
            Impl::Portable => "portable",
        }
    }
}

/// Portions the way a threaded framework splits work: the whole, the first step, the last
/// (partial) step, and a block from the middle wider than one step.
pub fn portions(m: usize, n: usize, m_step: usize, n_step: usize) -> Vec<Portion> {
    let mut out = vec![(0, 0, m, n)];
    if m == 0 || n == 0 {
        return out;
    }
    let last_m = (m - 1) / m_step * m_step;
    let last_n = (n - 1) / n_step * n_step;
    out.push((0, 0, m.min(m_step), n.min(n_step)));
    out.push((last_m, last_n, m - last_m, n - last_n));
    let mid_m = (m / 2) / m_step * m_step;
    let mid_n = (n / 2) / n_step * n_step;
    out.push((
        mid_m,
        mid_n,
        (m - mid_m).min(m_step + 1),
        (n - mid_n).min(2 * n_step + 3),
    ));
    out
}

/// Checks a destination of `m` rows by `stride` elements of `es` (2 or 4) bytes: inside
/// `portion` element (i, j) equals `expect(i * n + j)`, elsewhere `canary`. `context` describes
/// the call in the failure message.
#[allow(clippy::too_many_arguments)]
pub fn check_portion_by(
    dst: &[u8],
    es: usize,
    m: usize,
    n: usize,
    stride: usize,
    portion: Portion,
    expect: impl Fn(usize) -> u32,
    canary: u32,
    context: &dyn Fn() -> String,
) {
    let (m0, n0, mh, nw) = portion;
    let bits = |at: usize| match es {
        4 => u32::from_le_bytes(dst[at..at + 4].try_into().unwrap()),
        2 => u16::from_le_bytes(dst[at..at + 2].try_into().unwrap()).into(),
        _ => unreachable!("{es}-byte elements"),
    };
    for i in 0..m {
        for j in 0..stride {
            let got = bits((i * stride + j) * es);
            let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
            let want = if inside { expect(i * n + j) } else { canary };
            if got != want {
                panic!(
                    "{} portion={portion:?} at ({i},{j}): {got:#x} vs {want:#x}",
                    context()
                );
            }
        }
    }
}

/// Frameworks run disjoint `m_step` x `n_step` portions of one call on many threads, sharing
/// the operands: the bytes of an `m` x `n` destination of `es`-byte elements must equal one
/// single-threaded call. `run_into(dst, m0, n0, rows, cols)` runs one portion into the
/// destination at address `dst` (rows `es * n` bytes apart). Returns the number of tiles.
pub fn threads_equal_one_call(
    what: &str,
    (m, n): (usize, usize),
    (m_step, n_step): (usize, usize),
    es: usize,
    run_into: &(dyn Fn(usize, usize, usize, usize, usize) + Sync),
) -> usize {
    let threads = 8;
    let mut single = vec![0u8; es * m * n];
    run_into(single.as_mut_ptr() as usize, 0, 0, m, n);
    let tiles: Vec<(usize, usize)> = (0..m)
        .step_by(m_step)
        .flat_map(|m0| (0..n).step_by(n_step).map(move |n0| (m0, n0)))
        .collect();
    let mut shared = vec![0u8; es * m * n];
    let base = shared.as_mut_ptr() as usize;
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let tiles = &tiles;
            scope.spawn(move || {
                for &(m0, n0) in tiles.iter().skip(worker).step_by(threads) {
                    let (rows, cols) = (m_step.min(m - m0), n_step.min(n - n0));
                    run_into(base, m0, n0, rows, cols);
                }
            });
        }
    });
    assert_eq!(shared, single, "{what}: threaded portions differ");
    tiles.len()
}

/// Calls `kai_run_<stem>` with `args` and the callee-saved registers seeded; asserts they
/// survive.
///
/// # Safety
/// `args` must describe the function's arguments exactly, with valid buffers.
#[cfg(target_arch = "aarch64")]
pub unsafe fn assert_registers_survive(stem: &str, args: &super::abi::CallArgs) {
    let f = rkai_capi::capi::exports::symbol_address(&super::cabi::symbol("run", stem)).unwrap();
    // SAFETY: forwarded contract.
    let clobbered = unsafe { super::abi::call(f, args) };
    assert_eq!(
        clobbered,
        0,
        "{stem} clobbered {}",
        super::abi::describe(clobbered)
    );
}

/// Calls the f32-or-f16-output kernel `stem` (`kai_run_matmul_*` without `bl`) for m = 2,
/// n = 8, k = 4 with the given destination strides over zeroed buffers; `null` names the one
/// passed as NULL (1 the packed LHS, 2 the packed RHS, 3 the destination, 0 none). For the
/// death cases: the call is expected to abort.
pub fn run_call(stem: &str, dst_stride_row: usize, dst_stride_col: usize, null: usize) {
    use super::cabi::{MatmulFn, func};
    let lhs = vec![0u8; 1 << 16];
    let rhs = vec![0u8; 1 << 16];
    let mut dst = vec![0u8; 1 << 12];
    let p = |b: &[u8], which: usize| {
        if null == which {
            std::ptr::null()
        } else {
            b.as_ptr().cast()
        }
    };
    let d = if null == 3 {
        std::ptr::null_mut()
    } else {
        dst.as_mut_ptr().cast()
    };
    let (lhs, rhs, strides) = (p(&lhs, 1), p(&rhs, 2), (dst_stride_row, dst_stride_col));
    // SAFETY: the buffers cover the call.
    unsafe { func::<MatmulFn>("run", stem)(2, 8, 4, lhs, rhs, d, strides.0, strides.1, -1.0, 1.0) }
}
