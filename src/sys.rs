//! The operating-system calls of the C library: the kernel crate's ([`rkai_ukernels::sys`]:
//! stderr, environment, sysfs) and what only the C ABI needs, aborting as KleidiAI's
//! assertions do.

pub use rkai_ukernels::sys::*;

/// Prints `rkai: <symbol>: assertion failed: <condition>` and aborts, as KleidiAI's assertions
/// do in its debug builds: flushes the C program's buffered output first (`fflush`), so what it
/// printed before the failure is not lost.
#[cold]
#[inline(never)]
pub fn assertion_failed(symbol: &str, condition: &str) -> ! {
    // SAFETY: fflush(NULL) flushes every output stream of the C library.
    unsafe { libc::fflush(core::ptr::null_mut()) };
    Line::new()
        .str("rkai: ")
        .str(symbol)
        .str(": assertion failed: ")
        .str(condition)
        .str("\n")
        .flush();
    abort()
}

/// `value` in decimal, written at the end of `buf`.
pub fn decimal(mut value: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 || start == 0 {
            break;
        }
    }
    &buf[start..]
}

/// Ends the process abnormally (SIGABRT), as C's `abort`.
pub fn abort() -> ! {
    // SAFETY: abort has no preconditions.
    unsafe { libc::abort() }
}
