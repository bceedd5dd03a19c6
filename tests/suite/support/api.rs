//! The safe API's kernels as the tests look them up in the catalog.

use rkai_ukernels::api::Kernel;
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;

/// The first kernel of `family` this CPU runs.
pub fn kernel_of(family: Family) -> Option<Kernel> {
    KERNELS
        .iter()
        .filter(|k| k.family == family)
        .find_map(|k| Kernel::new(k).ok())
}

/// The catalog kernel named `stem`, if this CPU runs it.
pub fn kernel_named(stem: &str) -> Option<Kernel> {
    let entry = KERNELS.iter().find(|k| k.stem == stem).unwrap();
    Kernel::new(entry).ok()
}
