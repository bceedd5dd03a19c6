//! The typed selection of `rkai/rkai_select.h` (`rkai_select_<family>_<layout>`): for a family and
//! a weight layout, the members of its RHS and LHS packer structs and the packers that fill them.
//! The header (`headers.rs`) and the entry points (`shims.rs`) both read this one description.
//!
//! A packer struct holds KleidiAI's own functions of the packer, typed as KleidiAI declares them.
//! Its members are the union of the functions of the family's packers for that side and layout,
//! in the order of the first one; a packer lacking a member fills it with NULL. A packer whose
//! function of a member's name has another prototype (the f32 bf16 family's quantizing K x N
//! packer beside its f16 one) cannot fill that struct and is left out of it.

use crate::cabi::{CFunction, CSurface, c_defines};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;
use rkai_ukernels::pack::kinds::Packer;

/// How the weights a framework holds are laid out.
pub use rkai_ukernels::pack::kinds::WeightLayout as Layout;

/// Layout of the source an RHS packer reads.
fn layout_of(packer: &Packer) -> Layout {
    (packer.weight_layout())
        .unwrap_or_else(|| panic!("{}: no single weight layout in the name", packer.name))
}

/// The members of one packer struct and the packers that fill it.
pub struct PackerStruct {
    /// Struct name without `struct `, e.g. `rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_rhs_packer_nxk`.
    pub c_name: String,
    /// The functions, in member order.
    pub members: Vec<&'static CFunction>,
    /// The packers that fill it, in catalog order (kernels first to last).
    pub packers: Vec<&'static Packer>,
}

/// `f`'s prototype as `packer` declares it, its parameters' C types with the packer's aliases
/// resolved (the per-packer `kai_<packer>_params` names one struct for several packers).
fn prototype_types(f: &CFunction, packer: &Packer) -> (String, Vec<String>) {
    let resolve = |c: &str| {
        let aliased = c_defines(packer.kind)
            .iter()
            .fold(c.to_string(), |c, (alias, real)| c.replace(alias, real));
        aliased.replace("{name}", packer.name)
    };
    let params = f.params.iter().map(|p| resolve(p.c)).collect();
    (f.ret_c.to_string(), params)
}

impl PackerStruct {
    fn build(c_name: String, candidates: Vec<&'static Packer>) -> Option<PackerStruct> {
        let first = *candidates.first()?;
        let mut members: Vec<&'static CFunction> = first.kind.c_functions().iter().collect();
        let mut packers = Vec::new();
        for p in candidates {
            let functions = p.kind.c_functions();
            let agrees = functions.iter().all(|f| {
                members
                    .iter()
                    .find(|m| m.field == f.field)
                    .is_none_or(|m| prototype_types(m, first) == prototype_types(f, p))
            });
            if agrees {
                for f in functions {
                    if !members.iter().any(|m| m.field == f.field) {
                        members.push(f);
                    }
                }
                packers.push(p);
            }
        }
        Some(PackerStruct {
            c_name,
            members,
            packers,
        })
    }

    /// The C type of member `f`: a pointer to a function of its prototype.
    pub fn member_declaration(&self, f: &CFunction) -> String {
        let (ret, types) = prototype_types(f, self.packers[0]);
        let named: Vec<String> = (types.iter().zip(f.params))
            .map(|(t, p)| format!("{t} {}", p.name))
            .collect();
        let params = match named.is_empty() {
            true => "void".to_string(),
            false => named.join(", "),
        };
        format!("{ret} (*{})({params})", f.field)
    }
}

/// The packers of `family`'s kernels on one side, each once, in catalog order.
fn family_packers(family: Family, lhs: bool) -> Vec<&'static Packer> {
    let mut out: Vec<&'static Packer> = Vec::new();
    for k in KERNELS.iter().filter(|k| k.family == family) {
        let packers = if lhs { k.lhs_packers } else { k.rhs_packers };
        for p in packers {
            if !out.iter().any(|q| core::ptr::eq(*q, *p)) {
                out.push(p);
            }
        }
    }
    out
}

/// The RHS packer struct of `family` for weights in `layout`, if any packer reads them.
pub fn rhs_struct(family: Family, layout: Layout) -> Option<PackerStruct> {
    let candidates: Vec<_> = family_packers(family, false)
        .into_iter()
        .filter(|p| layout_of(p) == layout)
        .collect();
    let c_name = format!("rkai_{}_rhs_packer_{}", family.dir(), layout.name());
    PackerStruct::build(c_name, candidates)
}

/// The LHS packer struct of `family`, if any of its kernels reads a packed LHS.
pub fn lhs_struct(family: Family) -> Option<PackerStruct> {
    let c_name = format!("rkai_{}_lhs_packer", family.dir());
    PackerStruct::build(c_name, family_packers(family, true))
}
