//! Which kind of cores this machine has: in-order little cores want KleidiAI's `_cortexa55`
//! schedules, out-of-order cores the generic ones. HWCAP cannot tell; each core's MIDR_EL1 can,
//! and Linux publishes it per CPU under sysfs. With the instruction sets, that makes the
//! features selection and `rkai_get_cpu_features` report ([`detected_features`]).

use crate::arch::Features;
use core::ffi::CStr;
use core::sync::atomic::{AtomicU8, Ordering};

/// Arm's implementer code in MIDR_EL1 bits 31:24.
const ARM: u64 = 0x41;
/// Part numbers (MIDR_EL1 bits 15:4) of Arm's in-order application cores: Cortex-A53, A55, A510,
/// A520.
const IN_ORDER_PARTS: [u64; 4] = [0xd03, 0xd05, 0xd46, 0xd80];

/// Whether every core listed under `cpu_root` (normally `/sys/devices/system/cpu`) reports an
/// in-order Arm part. False when no core reports (another OS, an emulator, a restricted sysfs)
/// or when big cores are present: threads migrate, and the generic schedules lose little on an
/// in-order core compared with what the in-order ones lose on a big core.
#[cfg(unix)]
pub fn all_cores_in_order(cpu_root: &CStr) -> bool {
    use crate::sys::{PathBuf, for_each_dir_entry, read_file};
    let root = cpu_root.to_bytes();
    let Some(dir) = PathBuf::join(root, &[]) else {
        return false;
    };
    let (mut seen, mut big) = (0, false);
    let listed = for_each_dir_entry(&dir, |name| {
        let is_cpu = name
            .strip_prefix(b"cpu")
            .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit));
        if !is_cpu || big {
            return;
        }
        let path = PathBuf::join(root, &[b"/", name, b"/regs/identification/midr_el1"]);
        let mut text = [0u8; 64];
        let midr = path
            .and_then(|p| read_file(&p, &mut text))
            .and_then(|len| parse_hex(text.get(..len)?));
        // Offline cores publish no MIDR.
        let Some(midr) = midr else { return };
        if midr >> 24 & 0xff == ARM && IN_ORDER_PARTS.contains(&(midr >> 4 & 0xfff)) {
            seen += 1;
        } else {
            big = true;
        }
    });
    listed && !big && seen > 0
}

/// Without a Unix file system there is no MIDR to read: false.
#[cfg(not(unix))]
pub fn all_cores_in_order(_cpu_root: &CStr) -> bool {
    false
}

/// `0x00000000410fd050` (sysfs' format, surrounding white space allowed) as a number.
fn parse_hex(text: &[u8]) -> Option<u64> {
    let text = text.trim_ascii();
    let digits = text.strip_prefix(b"0x").unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |value, &c| {
        let digit = (c as char).to_digit(16)?;
        value.checked_mul(16)?.checked_add(u64::from(digit))
    })
}

/// Whether this machine's cores are all in-order little cores (read once; see
/// [`all_cores_in_order`]).
pub fn in_order() -> bool {
    // 0: not read yet, 1: no, 2: yes. Threads that race both read sysfs and agree.
    static IN_ORDER: AtomicU8 = AtomicU8::new(0);
    match IN_ORDER.load(Ordering::Relaxed) {
        0 => {
            let yes =
                cfg!(target_arch = "aarch64") && all_cores_in_order(c"/sys/devices/system/cpu");
            IN_ORDER.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        known => known == 2,
    }
}

/// Features of this CPU: the instruction sets detected at run time, plus
/// [`Features::IN_ORDER`] when every core is an in-order little core.
pub fn detected_features() -> Features {
    let isa = Features::detect();
    if in_order() {
        isa.union(Features::IN_ORDER)
    } else {
        isa
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::format;

    fn machine(midrs: &[Option<&str>]) -> CString {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "rkai-cores-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        for (i, midr) in midrs.iter().enumerate() {
            let dir = root.join(format!("cpu{i}/regs/identification"));
            std::fs::create_dir_all(&dir).unwrap();
            if let Some(m) = midr {
                std::fs::write(dir.join("midr_el1"), format!("{m}\n")).unwrap();
            }
        }
        std::fs::create_dir_all(root.join("cpufreq")).unwrap();
        CString::new(root.into_os_string().into_encoded_bytes()).unwrap()
    }

    #[test]
    fn in_order_only_when_every_core_is_little() {
        let a55 = Some("0x00000000410fd050");
        let a53 = Some("0x00000000410fd034");
        let a76 = Some("0x00000000414fd0b1");
        let x2 = Some("0x00000000410fd480");
        assert!(all_cores_in_order(&machine(&[a55, a55, a55, a55])));
        assert!(all_cores_in_order(&machine(&[a53, a55, None])));
        assert!(!all_cores_in_order(&machine(&[a55, a55, a76, a76])));
        assert!(!all_cores_in_order(&machine(&[a55, x2])));
        assert!(!all_cores_in_order(&machine(&[None, None])));
        assert!(!all_cores_in_order(&machine(&[Some("garbage")])));
        assert!(!all_cores_in_order(c"/nonexistent/rkai"));
        // Another implementer with the same part number is not an Arm core.
        assert!(!all_cores_in_order(&machine(&[Some("0x00000000510fd050")])));
    }
}
