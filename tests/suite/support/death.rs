//! Death tests: run a case in a child process and check it aborts with the expected message.
//!
//! The child is this test binary, re-run with only the ignored `death_child` test selected (by
//! its path in the binary: [`child_test!`]) and
//! `RKAI_DEATH_CASE` naming the case (started as `host::run_target_program` starts programs built
//! for the target: through QEMU when cross-running).

use std::process::Output;

pub const CASE_ENV: &str = "RKAI_DEATH_CASE";

/// Runs `case` in a child and returns its output.
pub fn run_child(child_test: &str, case: &str) -> Output {
    run_child_with_env(child_test, case, &[])
}

/// [`run_child`] with extra environment variables for the child.
pub fn run_child_with_env(child_test: &str, case: &str, env: &[(&str, &str)]) -> Output {
    let exe = std::env::current_exe().expect("current_exe");
    let args = [
        "--exact",
        child_test,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ];
    let env: Vec<(&str, &str)> = [(CASE_ENV, case)]
        .into_iter()
        .chain(env.iter().copied())
        .collect();
    crate::support::host::run_target_program(&exe, &args, &env)
}

/// Asserts the child died abnormally and its stderr names `symbol` and `condition`.
pub fn expect_abort(out: &Output, symbol: &str, condition: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "child exited successfully; stderr: {stderr}"
    );
    let expected = format!("rkai: {symbol}: assertion failed: {condition}");
    assert!(
        stderr.contains(&expected),
        "expected `{expected}` in child stderr, got: {stderr}"
    );
}

/// One death case: its name, the function KleidiAI's message names, the condition, and what the
/// child does.
pub type Case<S = String, C = String> = (&'static str, S, C, fn());

/// The number a child's `RKAI_DEATH_CASE` holds (a row index, say).
pub fn case_number() -> usize {
    let case = std::env::var(CASE_ENV).expect("death case");
    case.parse().expect("a numbered death case")
}

/// The body of a test binary's ignored `death_child` test: runs the case of `cases` that
/// `RKAI_DEATH_CASE` names; prints `survived` if it returns.
pub fn child<S, C>(cases: &[Case<S, C>]) {
    let name = std::env::var(CASE_ENV).expect("death case");
    let (_, _, _, action) = cases.iter().find(|c| c.0 == name).expect("known case");
    action();
    println!("survived");
}

/// The path under which the test binary lists test `name` of module `module` (a
/// `module_path!()`, which starts with the binary's crate name, absent from test paths).
pub fn test_path(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_crate, module)) => format!("{module}::{name}"),
        None => name.to_string(),
    }
}

/// The path of the test `$name` of the module this expands in: what [`run_child`] selects.
#[macro_export]
macro_rules! child_test {
    ($name:literal) => {
        $crate::support::death::test_path(module_path!(), $name)
    };
}

/// Runs every case in a child (the ignored test `child_test`, a [`child_test!`] path) and checks
/// that it aborted with KleidiAI's message naming the function and the condition.
pub fn expect_aborts_in<S: AsRef<str>, C: AsRef<str>>(child_test: &str, cases: &[Case<S, C>]) {
    // The child runs the first case of the name it is given: a repeated name would run another.
    let mut names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    names.sort_unstable();
    let repeated = names.windows(2).find(|w| w[0] == w[1]);
    assert!(repeated.is_none(), "death case names repeat: {repeated:?}");
    for (name, symbol, condition, _) in cases {
        let out = run_child(child_test, name);
        expect_abort(&out, symbol.as_ref(), condition.as_ref());
    }
}

/// A test binary's two death tests over `$cases` (a function returning its [`Case`]s): the
/// ignored `death_child` the children run, and `violations_abort_with_function_and_condition`,
/// which prints how many `$what` it checked and, given a category, the `RELIABILITY` count.
/// `child_cases = ...` gives the child more cases than the parent runs (probes that may survive).
#[macro_export]
macro_rules! death_tests {
    ($cases:expr, $what:literal $(, $category:literal)? $(, child_cases = $child:expr)?) => {
        #[test]
        #[ignore = "child process of the death tests"]
        fn death_child() {
            // `child_cases` when given, else the parent's cases.
            let _cases = $cases;
            $(let _cases = $child;)?
            $crate::support::death::child(&_cases());
        }

        #[test]
        fn violations_abort_with_function_and_condition() {
            let cases = ($cases)();
            $crate::support::death::expect_aborts_in(&$crate::child_test!("death_child"), &cases);
            eprintln!("{} {} checked", cases.len(), $what);
            $(eprintln!("RELIABILITY {} {}", $category, cases.len());)?
        }
    };
}

/// A [`Case`] whose child calls `$helper($stem, ...)`, a helper that calls the C function `run`
/// of `$stem`: the symbol the message must name is derived from that same `$stem`.
/// `run_case!("null_lhs", "lhs != NULL" => run_call(STEM, 1, 2))`.
#[macro_export]
macro_rules! run_case {
    ($name:expr, $condition:expr => $helper:ident ($stem:expr $(, $arg:expr)* $(,)?)) => {
        $crate::run_case!(@ $name, $condition, $helper, $stem $(, $arg)*)
    };
    ($name:expr, $condition:expr
        => $helper:ident::<$generic:ty>($stem:expr $(, $arg:expr)* $(,)?)) => {
        $crate::run_case!(@ $name, $condition, $helper::<$generic>, $stem $(, $arg)*)
    };
    (@ $name:expr, $condition:expr, $helper:path, $stem:expr $(, $arg:expr)*) => {
        (
            $name,
            $crate::support::cabi::symbol("run", $stem).into(),
            $condition.into(),
            (|| {
                $helper($stem $(, $arg)*);
            }) as fn(),
        )
    };
}

/// A [`Case`] whose child calls the C getter `<verb>` of `$stem` (of type `$getter`) with the
/// given arguments, the symbol the message must name derived from the same verb and stem.
/// `getter_case!("m_idx", "m_idx % mr == 0" => get_lhs_packed_offset::<Getter2>(STEM)(3, 64))`.
#[macro_export]
macro_rules! getter_case {
    ($name:expr, $condition:expr
        => $verb:ident::<$getter:ty>($stem:expr)($($arg:expr),* $(,)?)) => {
        (
            $name,
            $crate::support::cabi::symbol(stringify!($verb), $stem).into(),
            $condition.into(),
            (|| {
                $crate::support::cabi::func::<$getter>(stringify!($verb), $stem)($($arg),*);
            }) as fn(),
        )
    };
}

/// What a forked child did: whether it died of a signal (KleidiAI's and rkai's assertions
/// abort) and what it wrote to stderr.
pub struct ForkOutcome {
    pub aborted: bool,
    pub stderr: String,
}

/// Runs `action` in a forked child of this process with its stderr captured, and reports how
/// the child ended (`_exit(0)` if `action` returns). Much cheaper than [`run_child`], which
/// starts a new process (under QEMU user mode, a new emulator); `action` must not rely on other
/// threads, which the child does not have.
pub fn in_fork(action: impl FnOnce()) -> ForkOutcome {
    use std::os::raw::c_int;
    unsafe extern "C" {
        fn fork() -> c_int;
        fn pipe(fds: *mut c_int) -> c_int;
        fn dup2(old: c_int, new: c_int) -> c_int;
        fn close(fd: c_int) -> c_int;
        fn read(fd: c_int, buf: *mut u8, len: usize) -> isize;
        fn waitpid(pid: c_int, status: *mut c_int, options: c_int) -> c_int;
        fn _exit(code: c_int) -> !;
    }
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` holds the two descriptors pipe writes.
    assert_eq!(unsafe { pipe(fds.as_mut_ptr()) }, 0, "pipe");
    let [read_end, write_end] = fds;
    // SAFETY: the child only redirects its stderr, runs `action` and exits; it never returns
    // into the test harness.
    let pid = unsafe { fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        // SAFETY: descriptors of this process; `_exit` skips the parent's atexit handlers.
        unsafe {
            dup2(write_end, 2);
            close(read_end);
            close(write_end);
        }
        action();
        unsafe { _exit(0) }
    }
    // SAFETY: the parent's own descriptors and child.
    unsafe { close(write_end) };
    let mut stderr = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: `buf` is writable for its length.
        let n = unsafe { read(read_end, buf.as_mut_ptr(), buf.len()) };
        if n <= 0 {
            break;
        }
        stderr.extend_from_slice(&buf[..n as usize]);
    }
    let mut status: c_int = 0;
    // SAFETY: waits for the child forked above.
    unsafe {
        close(read_end);
        assert_eq!(waitpid(pid, &mut status, 0), pid, "waitpid");
    }
    // Linux's wait status: the low 7 bits hold the terminating signal, 0 for a normal exit.
    ForkOutcome {
        aborted: status & 0x7f != 0,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
