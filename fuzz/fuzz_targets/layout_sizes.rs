//! Size and offset arithmetic of every packed layout on arbitrary (huge, zero, odd) arguments:
//! never panics, never wraps (a result is either a `Violation` or exact), and offsets of groups
//! inside a packed buffer stay inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rkai_ukernels::layout::{RhsLayout, dst, qai8dxp};

/// Reads little-endian words, biased towards small and boundary values.
struct Words<'a>(&'a [u8]);

impl Words<'_> {
    fn next(&mut self) -> usize {
        let Some((&tag, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        let take = |w: &mut Self, bytes: usize| {
            let n = bytes.min(w.0.len());
            let mut buf = [0u8; 8];
            buf[..n].copy_from_slice(&w.0[..n]);
            w.0 = &w.0[n..];
            u64::from_le_bytes(buf) as usize
        };
        match tag % 4 {
            0 => take(self, 1),
            1 => take(self, 2),
            2 => usize::MAX - take(self, 1), // near the top: overflow boundaries
            _ => take(self, 8),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut w = Words(data);
    let (n, k, nr, kr, sr, bl, idx) = (
        w.next(),
        w.next(),
        w.next(),
        w.next(),
        w.next(),
        w.next(),
        w.next(),
    );
    let layouts = [
        RhsLayout::Qsi4cxp,
        RhsLayout::Qsi8cxp,
        RhsLayout::Qsi4c32p { bl },
    ];
    for layout in layouts {
        let stride = layout.stride(k, nr, kr, sr);
        let size = layout.size(n, k, nr, kr, sr);
        if let (Ok(stride), Ok(size)) = (stride, size) {
            // Exact arithmetic: groups of nr columns times the stride (no group when nr is 0,
            // which the layouts answer as KleidiAI's getters do on Arm).
            let groups = if nr == 0 { 0 } else { n.div_ceil(nr) };
            assert_eq!(Some(size), groups.checked_mul(stride));
            if idx < n && nr != 0 {
                let start = idx / nr * nr;
                let offset = layout
                    .offset(start, k, nr, kr, sr)
                    .expect("offset inside a valid size");
                assert!(
                    offset + stride <= size,
                    "group {start} ends past the buffer"
                );
            }
        }
    }
    let (m, mr) = (n, nr);
    if let (Ok(stride), Ok(size)) = (
        qai8dxp::stride(k, mr, kr, sr),
        qai8dxp::size(m, k, mr, kr, sr),
    ) {
        assert_eq!(Some(size), m.div_ceil(mr).checked_mul(stride));
        if idx < m {
            let offset = qai8dxp::offset(idx, k, mr, kr, sr).expect("offset inside a valid size");
            assert!(offset + stride <= size);
        }
    }
    if let Ok(size) = dst::size(n, k, 4) {
        assert_eq!(Some(size), n.checked_mul(k).and_then(|c| c.checked_mul(4)));
        if idx < n && k > 0 {
            let offset = dst::offset(idx, k - 1, k * 4, 4).expect("dst offset inside a valid size");
            assert!(offset + 4 <= size);
        }
    }
});
