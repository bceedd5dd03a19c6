//! The weight packers of the depthwise kernels (KleidiAI's `kai/ukernels/dwconv/pack`): the
//! channels in groups of one streaming vector of elements, each group the biases of its
//! channels, then for every filter tap (row-major) the weights of its channels. The last
//! group's lanes past the channel count are left as the buffer held them, as KleidiAI does.

use crate::arch::Isa;
use crate::contract::{Checked, require};

/// A depthwise weight packer.
#[derive(Debug)]
pub struct DwconvPacker {
    /// Its name after `kai_rhs_` / `kai_run_rhs_` (C symbols `kai_rhs_get_dst_size_<name>`,
    /// `kai_run_rhs_<name>`), e.g. `dwconv_pack_x32p1vlx1b_x32_x32_sme`.
    pub name: &'static str,
    /// KleidiAI's ISA of the packer (rkai's runs on any CPU).
    pub isa: Isa,
    /// Bytes of one element.
    pub element_bytes: usize,
    /// Whether KleidiAI asserts `height == filter_height` and `width == filter_width` (its x16
    /// packer does; its x32 packer ignores both).
    pub asserts_filter_shape: bool,
}

/// `kai_rhs_dwconv_pack_x32p1vlx1b_x32_x32_sme`: f32 weights and biases.
#[allow(non_upper_case_globals)]
pub static dwconv_pack_x32p1vlx1b_x32_x32_sme: DwconvPacker = DwconvPacker {
    name: "dwconv_pack_x32p1vlx1b_x32_x32_sme",
    isa: Isa::Sme,
    element_bytes: 4,
    asserts_filter_shape: false,
};

/// `kai_rhs_dwconv_pack_x16p1vlx1b_x16_x16_sme`: 16-bit weights and biases (f16).
#[allow(non_upper_case_globals)]
pub static dwconv_pack_x16p1vlx1b_x16_x16_sme: DwconvPacker = DwconvPacker {
    name: "dwconv_pack_x16p1vlx1b_x16_x16_sme",
    isa: Isa::Sme,
    element_bytes: 2,
    asserts_filter_shape: true,
};

/// Every packer of this module, for the catalog.
pub static PACKERS: &[&DwconvPacker] = &[
    &dwconv_pack_x32p1vlx1b_x32_x32_sme,
    &dwconv_pack_x16p1vlx1b_x16_x16_sme,
];

/// Channels of one packed group: one streaming vector of `element_bytes` elements.
pub fn group_channels(p: &DwconvPacker) -> usize {
    crate::arch::sme_lanes32() * 4 / p.element_bytes
}

/// `kai_rhs_get_dst_size_<name>`: bytes of the packed weights.
pub fn packed_size(p: &DwconvPacker, height: usize, width: usize, channels: usize) -> usize {
    let group = group_channels(p);
    channels
        .div_ceil(group)
        .wrapping_mul(group)
        .wrapping_mul(height.wrapping_mul(width).wrapping_add(1))
        .wrapping_mul(p.element_bytes)
}

/// The arguments of `kai_run_rhs_<name>`, under their C names.
#[derive(Clone, Copy, Debug)]
pub struct PackArgs {
    /// Filter rows.
    pub filter_height: usize,
    /// Filter columns.
    pub filter_width: usize,
    /// The weights' rows as the caller states them (checked by some packers only).
    pub height: usize,
    /// The weights' columns as the caller states them (checked by some packers only).
    pub width: usize,
    /// Channels.
    pub num_channels: usize,
    /// Weights, `[filter_height][filter_width][num_channels]`.
    pub rhs: *const u8,
    /// Biases, `[num_channels]`.
    pub bias: *const u8,
    /// The packed buffer (`packed_size` bytes).
    pub rhs_packed: *mut u8,
}

impl PackArgs {
    /// KleidiAI's assertions of packer `p`, in its order.
    pub fn check(&self, p: &DwconvPacker) -> Checked {
        require(!self.rhs.is_null(), "rhs != NULL")?;
        require(!self.rhs_packed.is_null(), "rhs_packed != NULL")?;
        require(!self.bias.is_null(), "bias != NULL")?;
        if p.asserts_filter_shape {
            require(self.height == self.filter_height, "height == filter_height")?;
            require(self.width == self.filter_width, "width == filter_width")?;
        }
        Ok(())
    }
}

/// Packs the weights.
///
/// # Safety
/// `rhs` holds `filter_height * filter_width * num_channels` elements, `bias` `num_channels`,
/// and `rhs_packed` [`packed_size`] bytes, none overlapping the others.
pub unsafe fn run(p: &DwconvPacker, a: &PackArgs) {
    let (group, size) = (group_channels(p), p.element_bytes);
    let taps = a.filter_height * a.filter_width;
    let mut out = a.rhs_packed;
    for first in (0..a.num_channels).step_by(group.max(1)) {
        let count = group.min(a.num_channels - first);
        for row in 0..=taps {
            let from = match row {
                0 => a.bias.wrapping_add(first * size),
                tap => a
                    .rhs
                    .wrapping_add(((tap - 1) * a.num_channels + first) * size),
            };
            // SAFETY: `from` holds `count` elements of a row of the weights or the biases, `out`
            // one group row of the packed buffer (the caller's sizes); they do not overlap.
            unsafe { core::ptr::copy_nonoverlapping(from, out, count * size) };
            out = out.wrapping_add(group * size);
        }
    }
}
