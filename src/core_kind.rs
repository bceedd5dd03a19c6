//! Which kind of cores this machine has: in-order little cores want KleidiAI's `_cortexa55`
//! schedules, out-of-order cores the generic ones. HWCAP cannot tell; each core's MIDR_EL1 can,
//! and Linux publishes it per CPU under sysfs.

use std::path::Path;

/// Arm's implementer code in MIDR_EL1 bits 31:24.
const ARM: u64 = 0x41;
/// Part numbers (MIDR_EL1 bits 15:4) of Arm's in-order application cores: Cortex-A53, A55, A510,
/// A520.
const IN_ORDER_PARTS: [u64; 4] = [0xd03, 0xd05, 0xd46, 0xd80];

/// Whether every core listed under `cpu_root` (normally `/sys/devices/system/cpu`) reports an
/// in-order Arm part. False when no core reports (another OS, an emulator, a restricted sysfs)
/// or when big cores are present: threads migrate, and the generic schedules lose little on an
/// in-order core compared with what the in-order ones lose on a big core.
pub fn all_cores_in_order(cpu_root: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(cpu_root) else {
        return false;
    };
    let mut seen = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let is_cpu = name
            .to_str()
            .and_then(|n| n.strip_prefix("cpu"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !is_cpu {
            continue;
        }
        let path = entry.path().join("regs/identification/midr_el1");
        let Some(midr) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| parse_hex(&t))
        else {
            continue; // offline cores publish no MIDR
        };
        let in_order = midr >> 24 & 0xff == ARM && IN_ORDER_PARTS.contains(&(midr >> 4 & 0xfff));
        if !in_order {
            return false;
        }
        seen += 1;
    }
    seen > 0
}

/// `0x00000000410fd050` (sysfs' format) as a number.
fn parse_hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// Whether this machine's cores are all in-order little cores (cached; see
/// [`all_cores_in_order`]).
pub fn in_order() -> bool {
    static IN_ORDER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *IN_ORDER.get_or_init(|| {
        cfg!(target_arch = "aarch64") && all_cores_in_order(Path::new("/sys/devices/system/cpu"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(midrs: &[Option<&str>]) -> std::path::PathBuf {
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
        root
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
        assert!(!all_cores_in_order(Path::new("/nonexistent/rkai")));
        // Another implementer with the same part number is not an Arm core.
        assert!(!all_cores_in_order(&machine(&[Some("0x00000000510fd050")])));
    }
}
