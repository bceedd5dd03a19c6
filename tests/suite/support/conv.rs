//! Convolutions computed through indirection buffers, shared by the indirect GEMM tests
//! (`tests/suite/imatmul.rs`, `tests/suite/imatmul_sme.rs`): a 2D convolution's geometry ([`Conv`]), its
//! direct computation ([`direct_sums`], one fused multiply-add per tap in the kernels' chunk
//! order), the indirection buffer a framework builds for it in KleidiAI's block layout
//! ([`indirection`]), the geometries the tests run ([`conv_cases`]) and KleidiAI's test portions
//! ([`portions`]).

/// A 2D convolution (batch 1, NHWC input, weights as K x N with K ordered (ky, kx, c_in)).
#[derive(Clone, Copy, Debug)]
pub struct Conv {
    pub h: usize,
    pub w: usize,
    pub c_in: usize,
    pub kh: usize,
    pub kw: usize,
    pub stride: usize,
    pub pad: usize,
    pub c_out: usize,
}

impl Conv {
    /// An `h` x `w` image of `c_in` channels under a square `k` x `k` kernel.
    pub const fn square(
        (h, w, c_in): (usize, usize, usize),
        k: usize,
        stride: usize,
        pad: usize,
        c_out: usize,
    ) -> Conv {
        Conv {
            h,
            w,
            c_in,
            kh: k,
            kw: k,
            stride,
            pad,
            c_out,
        }
    }
}

impl Conv {
    pub fn out_h(&self) -> usize {
        (self.h + 2 * self.pad - self.kh) / self.stride + 1
    }
    pub fn out_w(&self) -> usize {
        (self.w + 2 * self.pad - self.kw) / self.stride + 1
    }
    /// Output pixels: the GEMM's rows.
    pub fn m(&self) -> usize {
        self.out_h() * self.out_w()
    }
    /// Taps: the chunks of each row.
    pub fn kcc(&self) -> usize {
        self.kh * self.kw
    }
    /// The input pixel chunk `c` of output row `i` reads, or `None` in the padding.
    pub fn source(&self, i: usize, c: usize) -> Option<usize> {
        let (oy, ox) = (i / self.out_w(), i % self.out_w());
        let (ky, kx) = (c / self.kw, c % self.kw);
        let iy = (oy * self.stride + ky).checked_sub(self.pad)?;
        let ix = (ox * self.stride + kx).checked_sub(self.pad)?;
        (iy < self.h && ix < self.w).then_some(iy * self.w + ix)
    }
}

/// The direct convolution before the clamp: output (i, j) starts from `start(j)` and takes one
/// fused multiply-add per (ky, kx, c_in) in that order (the kernels' chunk order), taps outside
/// the image reading `pad` (the pad chunk).
pub fn direct_sums(
    conv: &Conv,
    input: &[f32],
    pad: &[f32],
    weights: &[f32],
    start: impl Fn(usize) -> f32,
) -> Vec<f32> {
    let mut out = vec![0.0; conv.m() * conv.c_out];
    for i in 0..conv.m() {
        for j in 0..conv.c_out {
            let mut acc = start(j);
            for c in 0..conv.kcc() {
                let src = match conv.source(i, c) {
                    Some(p) => &input[p * conv.c_in..][..conv.c_in],
                    None => pad,
                };
                for (t, x) in src.iter().enumerate() {
                    acc = weights[(c * conv.c_in + t) * conv.c_out + j].mul_add(*x, acc);
                }
            }
            out[i * conv.c_out + j] = acc;
        }
    }
    out
}

/// How a test fills the indirection buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pointers {
    /// Byte offsets into the input, `lhs_ptr_offset` = its address (KleidiAI's test).
    Offsets,
    /// Absolute addresses, `lhs_ptr_offset` = 0.
    Absolute,
}

/// An indirection entry no row below `m` may read: dereferencing it faults.
pub const POISON: usize = 0xdead_0000_0000_beef;

/// The indirection buffer of `conv` (values of `elem` bytes) in KleidiAI's block layout for
/// blocks of `mr` rows (entry `block * kcc + mr * c + r`), ending at the last entry a call over
/// all rows reads; entries of rows past `m` hold [`POISON`].
pub fn indirection(
    conv: &Conv,
    (input, elem): (*const u8, usize),
    pad: *const u8,
    mode: Pointers,
    mr: usize,
) -> Vec<usize> {
    let (m, kcc) = (conv.m(), conv.kcc());
    let last_block = (m - 1) / mr * mr;
    let len = last_block * kcc + mr * (kcc - 1) + (m - last_block);
    let mut entries = vec![POISON; len];
    for i in 0..m {
        let (block, r) = (i / mr * mr, i % mr);
        for c in 0..kcc {
            entries[block * kcc + mr * c + r] = match conv.source(i, c) {
                None => pad as usize,
                Some(p) => {
                    let off = elem * p * conv.c_in;
                    match mode {
                        Pointers::Offsets => off,
                        Pointers::Absolute => input as usize + off,
                    }
                }
            };
        }
    }
    entries
}

/// The little-endian bytes of indirection entries.
pub fn entry_bytes(entries: &[usize]) -> Vec<u8> {
    entries.iter().flat_map(|e| e.to_le_bytes()).collect()
}

/// The (rows or columns, k_chunk_count, k_chunk_length) the indirect-matmul packer tests run
/// around a tile of `tile` rows or columns: one, a tile less one, a tile, a tile and `past`, three
/// tiles and five, two tiles; one to nine chunks of one to sixteen values.
pub fn chunked_edges(tile: usize, past: usize) -> Vec<(usize, usize, usize)> {
    vec![
        (1, 1, 1),
        (tile - 1, 9, 3),
        (tile, 1, 5),
        (tile + past, 4, 7),
        (3 * tile + 5, 2, 16),
        (2 * tile, 9, 1),
    ]
}

/// The geometries the tests run (3x3 and 1x1, stride 1 and 2, padded or not; channel counts
/// around the kernels' column step `ns`) and, for each, output channel counts.
pub fn conv_cases(ns: usize) -> Vec<Conv> {
    let mut cases = Vec::new();
    for (h, w, c_in, k, stride, pad) in [
        (5, 5, 3, 3, 1, 1),
        (7, 6, 4, 3, 1, 1),
        (6, 7, 5, 3, 2, 1),
        (9, 9, 8, 3, 2, 1),
        (4, 5, 17, 3, 1, 1),
        (5, 4, 16, 1, 1, 0),
        (7, 7, 9, 1, 2, 0),
        (3, 4, 6, 1, 1, 1),
        (1, 1, 3, 3, 1, 1),
    ] {
        for c_out in [1, 7, ns - 1, ns, ns + 3, 2 * ns + 5] {
            cases.push(Conv::square((h, w, c_in), k, stride, pad, c_out));
        }
    }
    cases
}

/// KleidiAI's test portions (full, halves, centre) of an `m` x `n` output, rounded down to the
/// getters' steps: (m_idx, n_idx, rows, cols).
pub fn portions(
    m: usize,
    n: usize,
    m_step: usize,
    n_step: usize,
) -> Vec<(usize, usize, usize, usize)> {
    let fr = [
        (0.0, 0.0, 1.0, 1.0),
        (0.0, 0.0, 1.0, 0.5),
        (0.0, 0.0, 0.5, 1.0),
        (0.0, 0.5, 1.0, 0.5),
        (0.5, 0.0, 0.5, 1.0),
        (0.4, 0.4, 0.3, 0.3),
    ];
    let mut out = Vec::new();
    for (r0, c0, h, w) in fr {
        let m_idx = ((m as f64 * r0) as usize) / m_step * m_step;
        let n_idx = ((n as f64 * c0) as usize) / n_step * n_step;
        let rows = (((m as f64 * h).ceil() as usize).max(1)).min(m - m_idx);
        let cols = (((n as f64 * w).ceil() as usize).max(1)).min(n - n_idx);
        if !out.contains(&(m_idx, n_idx, rows, cols)) {
            out.push((m_idx, n_idx, rows, cols));
        }
    }
    out
}

/// Runs `run_rows(m_idx, rows)` for the row blocks of `m` rows, `step` rows each, every block on
/// its own thread at once (scoped: they end before this returns); returns the number of blocks.
/// A framework's thread pool calls an indirect GEMM this way.
pub fn row_blocks_on_threads(
    m: usize,
    step: usize,
    run_rows: impl Fn(usize, usize) + Sync,
) -> usize {
    let run_rows = &run_rows;
    std::thread::scope(|s| {
        for m_idx in (0..m).step_by(step) {
            s.spawn(move || run_rows(m_idx, step.min(m - m_idx)));
        }
    });
    m.div_ceil(step)
}
