//! The constructors of [`Kernel`]: a catalog entry the safe API covers (some source form of
//! [`super::Weights`] and [`super::Activations`] packs for it) and this CPU runs, or the best
//! pair of a family for this CPU.

use super::activations;
use super::conv;
use super::error::{Error, Result};
use super::kernel::{Kernel, lhs_kinds, rhs_kinds};
use super::weights;
use crate::arch::{self, Features};
use crate::family::Family;
use crate::kernel::MatmulKernel;
use crate::select::{self, Shape};
use crate::select_env;

/// Whether the safe API covers `kernel`: its weights and activations have a source form here,
/// packed, read as they are or gathered through an [`super::Indirection`]. Every catalog entry
/// is covered (a test checks it, and [`Kernel::new`] asserts it in debug builds).
fn covered(kernel: &'static MatmulKernel) -> bool {
    let packed_weights = rhs_kinds(kernel).any(weights::takes_some_form);
    let activations = lhs_kinds(kernel).any(activations::takes_some_form)
        || activations::FormKind::read_unpacked_by(kernel).is_some()
        || conv::takes_indirection(kernel);
    packed_weights && activations
}

impl Kernel {
    /// Wraps a catalog entry (the safe API covers every one: its weights and activations have a
    /// source form here, packed, read as they are or gathered through an
    /// [`super::Indirection`]) after checking (on aarch64) that this CPU has its features (and,
    /// for a kernel of one SVE length, that length).
    ///
    /// ```
    /// use rkai_ukernels::api::{Error, Kernel};
    /// use rkai_ukernels::catalog;
    ///
    /// let entry = catalog::kernel("matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod")
    ///     .expect("a KleidiAI stem");
    /// match Kernel::new(entry) {
    ///     // Off AArch64 every kernel runs its portable path.
    ///     Ok(kernel) => assert_eq!(kernel.entry().stem, entry.stem),
    ///     // An AArch64 CPU without dotprod.
    ///     Err(Error::NotSupportedByCpu(stem)) => assert_eq!(stem, entry.stem),
    ///     Err(other) => panic!("{other}"),
    /// }
    /// ```
    pub fn new(kernel: &'static MatmulKernel) -> Result<Kernel> {
        debug_assert!(covered(kernel), "{}: no source form", kernel.stem);
        let runs_here = kernel.runs_on(Features::detect(), arch::sve_lanes32());
        if cfg!(target_arch = "aarch64") && !runs_here {
            return Err(Error::NotSupportedByCpu(kernel.stem));
        }
        Ok(Kernel { kernel })
    }

    /// The best GEMV and GEMM of `family` for this CPU; they share one packed weight format.
    /// Chosen as C's `rkai_select_<family>` chooses ([`crate::select_env`]): `RKAI_FEATURES`
    /// restricts the features, `RKAI_LOG_SELECTION` logs the choice, and off AArch64 only the
    /// kernels whose formats follow no vector length are offered (their portable paths run).
    /// Unlike C, whose choice holds one family's interface, the pair may span two families
    /// where one has the GEMV the other lacks ([`select::best_pair_across_families`]): the int8
    /// GEMMs `matmul_clamp_qai8_qai8p_qsi8cxp` come with the SME2 int8 GEMV
    /// `matmul_clamp_qai8_qai8_qsi8cxp` (which reads its row as it is: [`Lhs::Rows`]), asked
    /// for by either family.
    ///
    /// [`Lhs::Rows`]: super::Lhs::Rows
    ///
    /// ```
    /// use rkai_ukernels::api::{Error, Kernel};
    /// use rkai_ukernels::family::Family;
    ///
    /// match Kernel::select_pair(Family::F32Qai8dxpQsi4cxp) {
    ///     Ok((gemv, gemm)) => {
    ///         // The pair reads one packed weight format: pack the weights once for both.
    ///         let (n, k) = (64, 128);
    ///         assert_eq!(gemv.packed_weights_size(n, k, 0)?, gemm.packed_weights_size(n, k, 0)?);
    ///     }
    ///     // An AArch64 CPU without the family's extensions (dotprod at least).
    ///     Err(Error::NotSupportedByCpu(_)) => {}
    ///     Err(other) => return Err(other),
    /// }
    /// # Ok::<(), rkai_ukernels::api::Error>(())
    /// ```
    pub fn select_pair(family: Family) -> Result<(Kernel, Kernel)> {
        let features = select_env::allowed_features(select_env::ALL);
        let pair = select::best_pair_across_families(family, features, arch::sve_lanes32());
        for shape in [Shape::Gemv, Shape::Gemm] {
            select_env::log_choice(family, shape, pair.map(|p| p.kernel(shape)), features);
        }
        let pair = pair.ok_or(Error::NotSupportedByCpu(family.dir()))?;
        Ok((Kernel::new(pair.gemv)?, Kernel::new(pair.gemm)?))
    }

    /// The best kernel of `family` for `shape` on this CPU.
    ///
    /// ```
    /// use rkai_ukernels::api::{Error, Kernel};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// // One row at a time (a decoder's token step): the family's GEMV.
    /// match Kernel::select(Family::F32Qai8dxpQsi4cxp, Shape::Gemv) {
    ///     Ok(gemv) => assert!(gemv.packed_activations_size(1, 256, 0)? > 256),
    ///     // An AArch64 CPU without the family's extensions (dotprod at least).
    ///     Err(Error::NotSupportedByCpu(_)) => {}
    ///     Err(other) => return Err(other),
    /// }
    /// # Ok::<(), rkai_ukernels::api::Error>(())
    /// ```
    pub fn select(family: Family, shape: Shape) -> Result<Kernel> {
        let (gemv, gemm) = Kernel::select_pair(family)?;
        Ok(match shape {
            Shape::Gemv => gemv,
            Shape::Gemm => gemm,
        })
    }
}
