//! Buffers placed against an inaccessible page, so any read or write past the edge faults.

use std::ptr;

/// Which edge of the buffer touches the guard page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The byte after the last one is inaccessible (catches overruns).
    End,
    /// The byte before the first one is inaccessible (catches underruns).
    Start,
}

pub const EDGES: [Edge; 2] = [Edge::End, Edge::Start];

/// `len` bytes in an mmap'ed region with PROT_NONE pages on both sides; `edge` decides which
/// side the data touches.
pub struct Guarded {
    map: *mut u8,
    map_len: usize,
    data: *mut u8,
    len: usize,
}

fn page() -> usize {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

impl Guarded {
    pub fn new(len: usize, edge: Edge) -> Self {
        let page = page();
        let inner = len.div_ceil(page).max(1) * page;
        let map_len = inner + 2 * page;
        // SAFETY: anonymous private mapping; checked below.
        let map = unsafe {
            libc::mmap(
                ptr::null_mut(),
                map_len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(map, libc::MAP_FAILED, "mmap");
        let map = map.cast::<u8>();
        // SAFETY: the middle pages lie inside the mapping.
        let rc = unsafe {
            libc::mprotect(
                map.add(page).cast(),
                inner,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
        assert_eq!(rc, 0, "mprotect");
        let offset = match edge {
            Edge::Start => page,
            Edge::End => page + inner - len,
        };
        // SAFETY: offset lies inside the mapping.
        let data = unsafe { map.add(offset) };
        Guarded {
            map,
            map_len,
            data,
            len,
        }
    }

    pub fn from_bytes(bytes: &[u8], edge: Edge) -> Self {
        let mut g = Self::new(bytes.len(), edge);
        g.bytes_mut().copy_from_slice(bytes);
        g
    }

    pub fn from_f32(values: &[f32], edge: Edge) -> Self {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        Self::from_bytes(&bytes, edge)
    }

    pub fn ptr(&self) -> *const u8 {
        self.data
    }

    pub fn mut_ptr(&mut self) -> *mut u8 {
        self.data
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: data..data+len is readable and owned by self.
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: data..data+len is writable and owned by self.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }

    pub fn f32_at(&self, index: usize) -> f32 {
        f32::from_le_bytes(self.bytes()[4 * index..4 * index + 4].try_into().unwrap())
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmapping the region mapped in new().
        unsafe { libc::munmap(self.map.cast(), self.map_len) };
    }
}
