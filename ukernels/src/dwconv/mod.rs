//! Depthwise convolution (KleidiAI's `kai/ukernels/dwconv`): a 3x3 filter, stride 1, over an
//! NHWC image whose channels are packed in groups of one streaming vector (the bias of a group
//! in front of its nine taps, `pack`). Two C interfaces: `planar` (f32; a call computes up to
//! four output rows) and `depthfirst` (f16; a call computes a whole output image in 4x4 tiles).
//!
//! These are not matmul kernels: their C functions, arguments and interfaces are their own. A
//! family folder (`dwconv_<types>/`) declares its kernels as [`DwconvKernel`] entries; the
//! catalog lists the folders and [`pack`], and the build script writes the C shims and headers
//! from the entries (`build/dwconv.rs`).

pub mod dwconv_f16_f16_f16p;
pub mod dwconv_f32_f32_f32p;
pub mod pack;

use crate::arch::Isa;
use crate::contract::{Checked, require};
use core::ffi::c_void;

/// The C interface a kernel belongs to (KleidiAI names the two differently, and their `run`
/// functions take different arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// `kai_dwconv_clamp_f32_f32_f32p_planar_ukernel`: a call computes up to `m_step` output
    /// rows, full width, every channel; the geometry comes from the strides.
    Planar,
    /// `kai_dwconv_clamp_f16_f16_f16p_depthfirst_ukernel`: a call computes the whole output
    /// image (every channel) from an input image and its padding.
    Depthfirst,
}

/// The portable or native function of a planar kernel.
pub type PlanarFn = unsafe fn(&PlanarArgs);

/// The portable or native function of a depthfirst kernel.
pub type DepthfirstFn = unsafe fn(&DepthfirstArgs);

/// `kai_run_dwconv_<stem>` of a planar kernel as KleidiAI declares it: [`PlanarArgs`]' fields
/// in order.
pub type PlanarCFn = unsafe extern "C" fn(
    *const c_void,
    *const c_void,
    *mut c_void,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    f32,
    f32,
    f32,
);

/// `kai_run_dwconv_<stem>` of a depthfirst kernel as KleidiAI declares it: [`DepthfirstArgs`]'
/// fields in order.
pub type DepthfirstCFn = unsafe extern "C" fn(
    *const c_void,
    *const c_void,
    *mut c_void,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    f32,
    f32,
);

/// A kernel's functions, by interface: the asm function (aarch64), run by the C symbol, and the
/// same computation in portable Rust, bit for bit.
#[derive(Clone, Copy, Debug)]
pub enum Run {
    /// A planar kernel.
    Planar {
        /// The asm function.
        native: Option<PlanarFn>,
        /// The portable function.
        portable: PlanarFn,
    },
    /// A depthfirst kernel.
    Depthfirst {
        /// The asm function.
        native: Option<DepthfirstFn>,
        /// The portable function.
        portable: DepthfirstFn,
    },
}

/// A depthwise convolution kernel: everything its C functions and tests need.
#[derive(Debug)]
pub struct DwconvKernel {
    /// The stem, e.g. `dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla`.
    pub stem: &'static str,
    /// KleidiAI's directory below `kai/ukernels/dwconv/`.
    pub dir: &'static str,
    /// Instructions the native function needs.
    pub isa: Isa,
    /// Output rows one call computes (`get_m_step`; a depthfirst kernel's tile height).
    pub m_step: usize,
    /// Filter height and width.
    pub filter: (usize, usize),
    /// Bytes of one element (input, weights, bias and output alike).
    pub element_bytes: usize,
    /// The packer writing its weights.
    pub packer: &'static pack::DwconvPacker,
    /// Its functions (and so its C interface).
    pub run: Run,
}

impl DwconvKernel {
    /// `get_m_step`.
    pub fn m_step(&self) -> usize {
        self.m_step
    }

    /// `get_filter_height`, `get_filter_width`.
    pub fn filter(&self) -> (usize, usize) {
        self.filter
    }

    /// Its C interface.
    pub fn interface(&self) -> Interface {
        match self.run {
            Run::Planar { .. } => Interface::Planar,
            Run::Depthfirst { .. } => Interface::Depthfirst,
        }
    }
}

/// The arguments of a depthfirst `run_dwconv` call, under their C names. KleidiAI asserts
/// nothing about them.
#[derive(Clone, Copy, Debug)]
pub struct DepthfirstArgs {
    /// Input pixel (0, 0).
    pub src: *const u8,
    /// The packed weights and biases.
    pub rhs_packed: *const u8,
    /// Output pixel (0, 0).
    pub dst: *mut u8,
    /// Channels.
    pub num_channels: usize,
    /// Input rows.
    pub src_rows: usize,
    /// Input columns.
    pub src_cols: usize,
    /// Output rows.
    pub dst_rows: usize,
    /// Output columns.
    pub dst_cols: usize,
    /// Zero columns left of the input.
    pub pad_left: usize,
    /// Zero rows above the input.
    pub pad_top: usize,
    /// Bytes between input rows.
    pub in_stride_row: usize,
    /// Bytes between input pixels.
    pub in_stride_col: usize,
    /// Bytes between output rows.
    pub out_stride_row: usize,
    /// Bytes between output pixels.
    pub out_stride_col: usize,
    /// Lower clamp bound (rounded to a half).
    pub clamp_min: f32,
    /// Upper clamp bound (rounded to a half).
    pub clamp_max: f32,
}

impl DepthfirstArgs {
    /// Calls `run`, a C `kai_run_dwconv_<stem>` of a depthfirst kernel, with these arguments.
    ///
    /// # Safety
    /// `run` is such a function; the arguments follow its contract.
    pub unsafe fn call_c(&self, run: DepthfirstCFn) {
        // SAFETY: forwarded to the caller.
        unsafe {
            run(
                self.src.cast(),
                self.rhs_packed.cast(),
                self.dst.cast(),
                self.num_channels,
                self.src_rows,
                self.src_cols,
                self.dst_rows,
                self.dst_cols,
                self.pad_left,
                self.pad_top,
                self.in_stride_row,
                self.in_stride_col,
                self.out_stride_row,
                self.out_stride_col,
                self.clamp_min,
                self.clamp_max,
            )
        }
    }
}

/// The arguments of a planar `run_dwconv` call, under their C names.
#[derive(Clone, Copy, Debug)]
pub struct PlanarArgs {
    /// First valid input row (row `pad_top` of the call's window).
    pub src: *const u8,
    /// The packed weights and biases.
    pub rhs_packed: *const u8,
    /// First output row of the call.
    pub dst: *mut u8,
    /// Bytes between input rows; the input width is `in_stride_row / in_stride_col`.
    pub in_stride_row: usize,
    /// Bytes between input pixels; the channel count is `dst_stride_col / element size`.
    pub in_stride_col: usize,
    /// Bytes between output rows; the output width is `dst_stride_row / dst_stride_col`.
    pub dst_stride_row: usize,
    /// Bytes between output pixels.
    pub dst_stride_col: usize,
    /// Input rows readable from `src` on.
    pub valid_input_rows: usize,
    /// Output rows to write (at most `m_step` are).
    pub valid_dst_rows: usize,
    /// Zero columns left of the input.
    pub pad_left: usize,
    /// Zero rows above `src` in the call's window.
    pub pad_top: usize,
    /// The padding value (must be 0).
    pub pad_value: f32,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
}

/// Input rows a planar call's window spans: `m_step` output rows and the filter's extra two.
pub const PLANAR_WINDOW_ROWS: usize = 6;

/// What a planar call computes, derived from its arguments once (the native and the portable
/// function read the same values).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct PlanarGeometry {
    /// Address of window row 0 (`pad_top` rows above `src`; never read unless valid).
    pub window: *const u8,
    /// Channels.
    pub channels: usize,
    /// Input columns (`in_stride_row / in_stride_col`).
    pub input_cols: usize,
    /// Output columns (`dst_stride_row / dst_stride_col`).
    pub output_cols: usize,
    /// Window rows `[rows_lo, rows_hi)` hold input; the others are zeros.
    pub rows_lo: usize,
    /// See `rows_lo`.
    pub rows_hi: usize,
    /// Output rows written (`min(valid_dst_rows, 4)`).
    pub out_rows: usize,
}

impl PlanarArgs {
    /// Calls `run`, a C `kai_run_dwconv_<stem>` of a planar kernel, with these arguments.
    ///
    /// # Safety
    /// `run` is such a function; the arguments follow its contract.
    pub unsafe fn call_c(&self, run: PlanarCFn) {
        // SAFETY: forwarded to the caller.
        unsafe {
            run(
                self.src.cast(),
                self.rhs_packed.cast(),
                self.dst.cast(),
                self.in_stride_row,
                self.in_stride_col,
                self.dst_stride_row,
                self.dst_stride_col,
                self.valid_input_rows,
                self.valid_dst_rows,
                self.pad_left,
                self.pad_top,
                self.pad_value,
                self.clamp_min,
                self.clamp_max,
            )
        }
    }

    /// KleidiAI's assertions of a planar `run_dwconv`, in its order.
    pub fn check(&self) -> Checked {
        require(!self.src.is_null(), "src != NULL")?;
        require(!self.rhs_packed.is_null(), "rhs_packed != NULL")?;
        require(!self.dst.is_null(), "dst != NULL")?;
        require(self.valid_dst_rows != 0, "valid_dst_rows != 0")?;
        require(self.pad_value == 0.0, "pad_value == 0.0F")?;
        require(
            self.dst_stride_col == self.in_stride_col,
            "dst_stride_col == in_stride_col",
        )
    }

    /// The call's geometry for elements of `element_bytes` bytes and `m_step` output rows.
    pub fn geometry(&self, element_bytes: usize, m_step: usize) -> PlanarGeometry {
        let channels = self.dst_stride_col / element_bytes;
        let per = |stride: usize| stride.checked_div(channels * element_bytes).unwrap_or(0);
        PlanarGeometry {
            window: self
                .src
                .wrapping_sub(self.pad_top.wrapping_mul(self.in_stride_row)),
            channels,
            input_cols: per(self.in_stride_row),
            output_cols: per(self.dst_stride_row),
            rows_lo: self.pad_top,
            rows_hi: PLANAR_WINDOW_ROWS.min(self.pad_top.saturating_add(self.valid_input_rows)),
            out_rows: self.valid_dst_rows.min(m_step),
        }
    }
}

/// `get_dst_size`: bytes of an output image.
pub fn dst_size(k: &DwconvKernel, height: usize, width: usize, channels: usize) -> usize {
    height
        .wrapping_mul(width)
        .wrapping_mul(channels)
        .wrapping_mul(k.element_bytes)
}

/// `get_dst_offset`: where output row `row` starts; KleidiAI asserts it starts a call's rows.
pub fn dst_offset(
    k: &DwconvKernel,
    row: usize,
    stride_row: usize,
) -> Result<usize, crate::contract::Violation> {
    require(row % k.m_step == 0, "dst_row_idx % kai_mr == 0")?;
    Ok(row.wrapping_mul(stride_row))
}

/// `get_src_offset`: where input row `row` starts.
pub fn src_offset(row: usize, stride_row: usize) -> usize {
    row.wrapping_mul(stride_row)
}
