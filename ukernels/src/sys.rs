//! What the kernel crate needs from the operating system, through the C library: writing to
//! stderr (selection logs), reading environment variables and small files (selection, core
//! detection). Aborting on a broken assertion is the C library's alone (`rkai_capi::sys`).
//!
//! No Rust `std`, so a C program that links `libkleidiai.a` pays only for the functions it
//! calls: no formatting, panic or I/O machinery comes with an assertion message.

use core::ffi::CStr;
#[cfg(unix)]
use core::ffi::c_char;

/// Writes all of `bytes` to file descriptor 2, retrying short writes and interrupted calls;
/// gives up silently on other errors (there is nowhere to report them).
pub fn write_stderr(bytes: &[u8]) {
    let (mut p, mut left) = (bytes.as_ptr(), bytes.len());
    while left > 0 {
        // SAFETY: `left` bytes from `p` are the unwritten rest of `bytes`.
        let n = unsafe { libc::write(2, p.cast(), left as _) };
        if n > 0 {
            let n = (n as usize).min(left);
            // SAFETY: n <= left, so p stays inside (or one past) `bytes`.
            p = unsafe { p.add(n) };
            left -= n;
        } else if !(n < 0 && interrupted()) {
            return;
        }
    }
}

/// Whether the last failed call of this thread was interrupted by a signal (`EINTR`).
fn interrupted() -> bool {
    // SAFETY (each arm): the thread's errno location is always valid.
    #[cfg(any(target_os = "linux", target_os = "l4re"))]
    let errno = unsafe { *libc::__errno_location() };
    #[cfg(target_os = "android")]
    let errno = unsafe { *libc::__errno() };
    #[cfg(target_vendor = "apple")]
    let errno = unsafe { *libc::__error() };
    #[cfg(not(any(
        target_os = "linux",
        target_os = "l4re",
        target_os = "android",
        target_vendor = "apple"
    )))]
    let errno = 0;
    errno == libc::EINTR
}

/// One line for stderr, assembled from pieces and written with as few `write` calls as its
/// length allows (one, up to the buffer's size), so that lines of concurrent threads do not
/// interleave.
pub struct Line {
    buf: [u8; 512],
    len: usize,
}

impl Line {
    /// An empty line.
    pub const fn new() -> Line {
        Line {
            buf: [0; 512],
            len: 0,
        }
    }

    /// Appends `s`, writing out what the buffer holds when it is full.
    pub fn push(&mut self, s: &[u8]) -> &mut Line {
        if s.len() > self.buf.len() - self.len {
            self.flush();
        }
        match self.buf.get_mut(self.len..self.len + s.len()) {
            Some(room) => {
                room.copy_from_slice(s);
                self.len += s.len();
            }
            // Longer than the whole buffer (which is empty now).
            None => write_stderr(s),
        }
        self
    }

    /// Appends `s`.
    pub fn str(&mut self, s: &str) -> &mut Line {
        self.push(s.as_bytes())
    }

    /// Writes out what the buffer holds.
    pub fn flush(&mut self) {
        write_stderr(self.buf.get(..self.len).unwrap_or_default());
        self.len = 0;
    }
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.str(s);
        Ok(())
    }
}

/// The value of environment variable `name`, if it is set and valid UTF-8 (what
/// `std::env::var` accepts).
pub fn env(name: &CStr) -> Option<&'static str> {
    // SAFETY: `name` is NUL-terminated; getenv returns null or a NUL-terminated string that stays
    // valid while the environment is not modified (the same contract as std's).
    let value = unsafe { libc::getenv(name.as_ptr()) };
    if value.is_null() {
        return None;
    }
    // SAFETY: non-null getenv results are NUL-terminated.
    unsafe { CStr::from_ptr(value) }.to_str().ok()
}

/// Whether environment variable `name` is set (to anything).
pub fn env_is_set(name: &CStr) -> bool {
    // SAFETY: as in `env`.
    !unsafe { libc::getenv(name.as_ptr()) }.is_null()
}

/// A path assembled in a fixed buffer, NUL-terminated.
#[cfg(unix)]
pub struct PathBuf {
    buf: [u8; 256],
    len: usize,
}

#[cfg(unix)]
impl PathBuf {
    /// `root` followed by `parts`, or `None` if it does not fit.
    pub fn join(root: &[u8], parts: &[&[u8]]) -> Option<PathBuf> {
        let mut p = PathBuf {
            buf: [0; 256],
            len: 0,
        };
        for part in core::iter::once(&root).chain(parts) {
            // The bytes after `len` stay 0: the NUL (the last byte is never filled).
            let room = p.buf.get_mut(p.len..p.len + part.len())?;
            room.copy_from_slice(part);
            p.len += part.len();
        }
        (p.len < p.buf.len()).then_some(p)
    }

    /// The path as a C string.
    pub fn as_ptr(&self) -> *const c_char {
        self.buf.as_ptr().cast()
    }
}

#[cfg(unix)]
/// Reads up to `buf.len()` bytes of the file at `path`; the number read, or `None` if it
/// cannot be opened or read.
pub fn read_file(path: &PathBuf, buf: &mut [u8]) -> Option<usize> {
    // SAFETY: `path` is NUL-terminated.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    let mut len = 0;
    let result = loop {
        let rest = buf.len() - len;
        if rest == 0 {
            break Some(len);
        }
        // SAFETY: the `rest` bytes after the first `len` of `buf` are writable.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().add(len).cast(), rest) };
        match n {
            0 => break Some(len),
            n if n > 0 => len += (n as usize).min(rest),
            _ if interrupted() => {}
            _ => break None,
        }
    };
    // SAFETY: fd is open.
    unsafe { libc::close(fd) };
    result
}

#[cfg(unix)]
/// Calls `f` with the name of every entry of directory `path`; returns false if it cannot be
/// read.
pub fn for_each_dir_entry(path: &PathBuf, mut f: impl FnMut(&[u8])) -> bool {
    // SAFETY: `path` is NUL-terminated.
    let dir = unsafe { libc::opendir(path.as_ptr()) };
    if dir.is_null() {
        return false;
    }
    loop {
        // SAFETY: `dir` is an open directory stream.
        let entry = unsafe { libc::readdir(dir) };
        if entry.is_null() {
            break;
        }
        // SAFETY: readdir returns a valid entry whose name is NUL-terminated.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
        f(name.to_bytes());
    }
    // SAFETY: `dir` is open.
    unsafe { libc::closedir(dir) };
    true
}
