//! The C surface of the depthwise convolution kernels and their packers
//! (`rkai_ukernels::dwconv`, catalog lists `DWCONV_KERNELS` and `DWCONV_PACKERS`): each C
//! function once, as data, from which come the exported shims and the headers at KleidiAI's
//! paths (`kai/ukernels/dwconv/...`).

use rkai_ukernels::catalog::{
    DWCONV_KERNEL_FOLDERS, DWCONV_KERNELS, DWCONV_PACKER_MODULES, DWCONV_PACKERS,
};
use rkai_ukernels::dwconv::pack::DwconvPacker;
use rkai_ukernels::dwconv::{DwconvKernel, Interface};
use std::fmt::Write;
use std::path::PathBuf;

/// A parameter: C type, Rust type, C name, name in the interface typedef.
type Param = (&'static str, &'static str, &'static str, &'static str);

const fn size(name: &'static str, typedef: &'static str) -> Param {
    ("size_t", "usize", name, typedef)
}

/// One C function: verb (symbol `kai_<verb>_<name>`), interface member (if the struct has it),
/// return type (C, Rust), parameters, the forwarding call (`$E`: the entry, `$S`: the symbol),
/// documentation.
struct CFn {
    verb: &'static str,
    member: Option<&'static str>,
    ret: (&'static str, &'static str),
    params: &'static [Param],
    call: &'static str,
    doc: &'static str,
}

const SIZE: (&str, &str) = ("size_t", "usize");

/// `get_filter_height` or (`width`) `get_filter_width`, an interface member (`member`) in
/// `depthfirst` only.
const fn filter_getter(width: bool, member: bool) -> CFn {
    let (verb, call, doc) = if width {
        ("get_filter_width", "$E.filter().1", "Filter columns.")
    } else {
        ("get_filter_height", "$E.filter().0", "Filter rows.")
    };
    CFn {
        verb,
        member: if member { Some(verb) } else { None },
        ret: SIZE,
        params: &[],
        call,
        doc,
    }
}

/// `get_dst_size`, the same in both interfaces.
const GET_DST_SIZE: CFn = CFn {
    verb: "get_dst_size",
    member: Some("get_dst_size"),
    ret: SIZE,
    params: &[
        size("dst_height", "out_height"),
        size("dst_width", "out_width"),
        size("num_channels", "num_channels"),
    ],
    call: "rkai_ukernels::dwconv::dst_size(&$E, dst_height, dst_width, num_channels)",
    doc: "Bytes of an output image.",
};

const PLANAR: &[CFn] = &[
    CFn {
        verb: "get_m_step",
        member: Some("get_m_step"),
        ret: SIZE,
        params: &[],
        call: "$E.m_step()",
        doc: "Output rows one call computes.",
    },
    filter_getter(false, false),
    filter_getter(true, false),
    CFn {
        verb: "get_kr",
        member: None,
        ret: SIZE,
        params: &[],
        call: "1",
        doc: "Channels interleaved per packed element (1).",
    },
    GET_DST_SIZE,
    CFn {
        verb: "get_dst_offset",
        member: Some("get_dst_offset"),
        ret: SIZE,
        params: &[
            size("dst_row_idx", "out_row_idx"),
            size("dst_stride_row", "dst_stride_row"),
        ],
        call: "crate::capi::dwconv::dst_offset(&$E, $S, dst_row_idx, dst_stride_row)",
        doc: "Byte offset of output row `dst_row_idx` (a multiple of the m step).",
    },
    CFn {
        verb: "get_src_offset",
        member: None,
        ret: SIZE,
        params: &[
            size("in_row_idx", "in_row_idx"),
            size("in_stride_row", "in_stride_row"),
        ],
        call: "rkai_ukernels::dwconv::src_offset(in_row_idx, in_stride_row)",
        doc: "Byte offset of input row `in_row_idx`.",
    },
    CFn {
        verb: "run",
        member: Some("run_dwconv"),
        ret: ("void", "()"),
        params: &[
            ("const void*", "*const core::ffi::c_void", "src", "inptr"),
            (
                "const void*",
                "*const core::ffi::c_void",
                "rhs_packed",
                "packed_rhs",
            ),
            ("void*", "*mut core::ffi::c_void", "dst", "outptr_start"),
            size("in_stride_row", "in_stride_row"),
            size("in_stride_col", "in_stride_col"),
            size("dst_stride_row", "dst_stride_row"),
            size("dst_stride_col", "dst_stride_col"),
            size("valid_input_rows", "valid_input_rows"),
            size("valid_dst_rows", "valid_out_rows"),
            size("pad_left", "pad_left"),
            size("pad_top", "pad_top"),
            ("float", "f32", "pad_value", "pad_value"),
            ("float", "f32", "clamp_min", "clamp_min"),
            ("float", "f32", "clamp_max", "clamp_max"),
        ],
        call: "crate::capi::dwconv::run_planar(&$E, $S, &rkai_ukernels::dwconv::PlanarArgs { \
               src: src.cast(), rhs_packed: rhs_packed.cast(), dst: dst.cast(), in_stride_row, \
               in_stride_col, dst_stride_row, dst_stride_col, valid_input_rows, valid_dst_rows, \
               pad_left, pad_top, pad_value, clamp_min, clamp_max })",
        doc: "Computes up to m_step output rows (full width, every channel); see the interface.",
    },
];

const DEPTHFIRST: &[CFn] = &[
    filter_getter(false, true),
    filter_getter(true, true),
    GET_DST_SIZE,
    CFn {
        verb: "run",
        member: Some("run_dwconv"),
        ret: ("void", "()"),
        params: &[
            ("const void*", "*const core::ffi::c_void", "src", "src"),
            (
                "const void*",
                "*const core::ffi::c_void",
                "rhs_packed",
                "rhs_packed",
            ),
            ("void*", "*mut core::ffi::c_void", "dst", "dst"),
            size("num_channels", "num_channels"),
            size("src_rows", "src_rows"),
            size("src_cols", "src_cols"),
            size("dst_rows", "dst_rows"),
            size("dst_cols", "dst_cols"),
            size("pad_left", "pad_left"),
            size("pad_top", "pad_top"),
            size("in_stride_row", "in_stride_row"),
            size("in_stride_col", "in_stride_col"),
            size("out_stride_row", "out_stride_row"),
            size("out_stride_col", "out_stride_col"),
            ("float", "f32", "clamp_min", "clamp_min"),
            ("float", "f32", "clamp_max", "clamp_max"),
        ],
        call: "crate::capi::dwconv::run_depthfirst(&$E, $S, \
               &rkai_ukernels::dwconv::DepthfirstArgs { src: src.cast(), \
               rhs_packed: rhs_packed.cast(), dst: dst.cast(), num_channels, src_rows, src_cols, \
               dst_rows, dst_cols, pad_left, pad_top, in_stride_row, in_stride_col, \
               out_stride_row, out_stride_col, clamp_min, clamp_max })",
        doc: "Computes the whole output image, every channel, in 4x4 tiles; see the interface.",
    },
];

/// A packer's functions (symbols `kai_rhs_get_dst_size_<name>` and `kai_run_rhs_<name>`).
const PACKER: &[CFn] = &[
    CFn {
        verb: "rhs_get_dst_size",
        member: None,
        ret: SIZE,
        params: &[
            size("filter_height", ""),
            size("filter_width", ""),
            size("num_channels", ""),
        ],
        call: "rkai_ukernels::dwconv::pack::packed_size(&$E, filter_height, filter_width, num_channels)",
        doc: "Bytes of the packed weights and biases.",
    },
    CFn {
        verb: "run_rhs",
        member: None,
        ret: ("void", "()"),
        params: &[
            size("filter_height", ""),
            size("filter_width", ""),
            size("height", ""),
            size("width", ""),
            size("num_channels", ""),
            ("const void*", "*const core::ffi::c_void", "rhs", ""),
            ("const void*", "*const core::ffi::c_void", "bias", ""),
            ("void*", "*mut core::ffi::c_void", "rhs_packed", ""),
        ],
        call: "crate::capi::dwconv::pack(&$E, $S, &rkai_ukernels::dwconv::pack::PackArgs { \
               filter_height, filter_width, height, width, num_channels, rhs: rhs.cast(), \
               bias: bias.cast(), rhs_packed: rhs_packed.cast() })",
        doc: "Packs `[filter_height][filter_width][num_channels]` weights and the biases \
              (`height`, `width`: the filter's shape again; checked by the x16 packer).",
    },
];

fn functions(k: &DwconvKernel) -> &'static [CFn] {
    functions_of(k.interface())
}

fn functions_of(i: Interface) -> &'static [CFn] {
    match i {
        Interface::Planar => PLANAR,
        Interface::Depthfirst => DEPTHFIRST,
    }
}

/// The members of an interface struct, in KleidiAI's order.
fn member_order(i: Interface) -> &'static [&'static str] {
    match i {
        Interface::Planar => &["get_m_step", "get_dst_offset", "get_dst_size", "run_dwconv"],
        Interface::Depthfirst => &[
            "get_filter_height",
            "get_filter_width",
            "get_dst_size",
            "run_dwconv",
        ],
    }
}

/// `planar` for the f32 kernels' interface, `depthfirst` for the f16 ones
/// (`kai_<stem>_<name>_ukernel`).
fn interface_name(i: Interface) -> &'static str {
    match i {
        Interface::Planar => "planar",
        Interface::Depthfirst => "depthfirst",
    }
}

/// `dwconv_clamp_f32_f32_f32p` for the directory `dwconv_f32_f32_f32p`.
fn interface_stem(k: &DwconvKernel) -> String {
    format!("dwconv_clamp_{}", k.dir.trim_start_matches("dwconv_"))
}

fn entry_path<T>(modules: &[(&str, &[&T])], entry: &T, name: &str) -> String {
    let (module, _) = modules
        .iter()
        .find(|(_, entries)| entries.iter().any(|e| std::ptr::eq(*e, entry)))
        .unwrap_or_else(|| panic!("{name} is in no module of the catalog"));
    format!("rkai_ukernels::{}::{name}", module.replace(' ', ""))
}

fn emit(out: &mut String, f: &CFn, name: &str, entry: &str) -> String {
    let symbol = format!("kai_{}_{name}", f.verb);
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| format!("{}: {}", p.2, p.1))
        .collect();
    let pointers = f.params.iter().any(|p| p.1.starts_with('*'));
    let ret = if f.ret.1 == "()" {
        String::new()
    } else {
        format!(" -> {}", f.ret.1)
    };
    let call = f
        .call
        .replace("$E", entry)
        .replace("$S", &format!("\"{symbol}\""));
    let (unsafety, safety, body) = if pointers {
        (
            "unsafe ",
            "/// # Safety\n/// Pointers must satisfy the KleidiAI contract of this function.\n",
            format!(
                "// SAFETY: the caller upholds the C contract forwarded here.\n    unsafe {{ {call} }}"
            ),
        )
    } else {
        ("", "", call)
    };
    writeln!(
        out,
        "/// {}\n{safety}#[unsafe(no_mangle)]\npub {unsafety}extern \"C\" fn {symbol}({}){ret} {{\n    {body}\n}}\n",
        f.doc,
        params.join(", ")
    )
    .expect("write to String");
    symbol
}

/// The shims of every depthwise kernel and packer; returns their symbols.
pub fn shims(out: &mut String) -> Vec<String> {
    let mut symbols = Vec::new();
    for k in DWCONV_KERNELS {
        let entry = entry_path(DWCONV_KERNEL_FOLDERS, k, k.stem);
        for f in functions(k) {
            symbols.push(emit(out, f, k.stem, &entry));
        }
    }
    for p in DWCONV_PACKERS {
        let entry = entry_path(DWCONV_PACKER_MODULES, p, p.name);
        for f in PACKER {
            symbols.push(emit(out, f, p.name, &entry));
        }
    }
    symbols
}

fn prototype(f: &CFn, name: &str) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| format!("{} {}", p.0, p.2))
        .collect();
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    format!(
        "/// {}\n{} kai_{}_{name}({params});\n",
        f.doc, f.ret.0, f.verb
    )
}

/// The headers: per kernel, per interface, per packer.
pub fn headers(open: impl Fn(&mut String), close: impl Fn(&mut String)) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut interfaces = std::collections::BTreeMap::new();
    for k in DWCONV_KERNELS {
        let mut out = String::new();
        open(&mut out);
        writeln!(
            out,
            "/// Depthwise convolution micro-kernel `kai_{}` ({}): {}x{} filter, {}, `{}` \
             interface.\n/// Weights packer: `kai_run_rhs_{}`.\n",
            k.stem,
            k.isa.name(),
            k.filter.0,
            k.filter.1,
            match k.interface() {
                Interface::Planar => format!("m_step {}", k.m_step),
                Interface::Depthfirst => format!("{0}x{0} output tiles", k.m_step),
            },
            interface_name(k.interface()),
            k.packer.name
        )
        .unwrap();
        for f in functions(k) {
            writeln!(out, "{}", prototype(f, k.stem)).unwrap();
        }
        close(&mut out);
        files.push((
            PathBuf::from(format!("kai/ukernels/dwconv/{}/kai_{}.h", k.dir, k.stem)),
            out,
        ));
        interfaces.insert((k.dir, interface_stem(k)), k.interface());
    }
    for ((dir, stem), interface) in interfaces {
        let name = format!("{stem}_{}", interface_name(interface));
        let mut out = String::new();
        open(&mut out);
        writeln!(
            out,
            "/// Function table of one `{name}` micro-kernel; field order is ABI.\n"
        )
        .unwrap();
        let members = member_order(interface).iter().map(|&m| {
            let f = functions_of(interface)
                .iter()
                .find(|f| f.member == Some(m))
                .expect("every member is a function of the interface");
            (f, m)
        });
        for (f, m) in members.clone() {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|p| format!("{} {}", p.0, p.3))
                .collect();
            let params = if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            };
            writeln!(
                out,
                "typedef {} (*kai_{name}_{m}_func_t)({params});",
                f.ret.0
            )
            .unwrap();
        }
        writeln!(out, "\nstruct kai_{name}_ukernel {{").unwrap();
        for (_, m) in members {
            writeln!(out, "    kai_{name}_{m}_func_t {m};").unwrap();
        }
        out.push_str("};\n\n");
        close(&mut out);
        files.push((
            PathBuf::from(format!("kai/ukernels/dwconv/{dir}/kai_{stem}_interface.h")),
            out,
        ));
    }
    for p in DWCONV_PACKERS {
        files.push((
            PathBuf::from(format!("kai/ukernels/dwconv/pack/kai_rhs_{}.h", p.name)),
            packer_header(p, &open, &close),
        ));
    }
    files
}

fn packer_header(
    p: &DwconvPacker,
    open: impl Fn(&mut String),
    close: impl Fn(&mut String),
) -> String {
    let mut out = String::new();
    open(&mut out);
    writeln!(
        out,
        "/// Depthwise weights packer `kai_run_rhs_{}` ({}; rkai: any CPU): groups of one streaming\n\
         /// vector of channels, the biases of a group in front of its taps.\n",
        p.name,
        p.isa.name()
    )
    .unwrap();
    for f in PACKER {
        writeln!(out, "{}", prototype(f, p.name)).unwrap();
    }
    close(&mut out);
    out
}
