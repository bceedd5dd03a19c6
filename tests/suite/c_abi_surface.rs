//! The C surface: committed headers equal the generated ones, every declaration equals KleidiAI
//! 1.30's for the stems rkai claims, every declared function is exported, and the headers compile
//! as C99 and C++17 with the struct layouts KleidiAI has.

use crate::support;

use rkai_capi::cabi::CSurface;
use rkai_capi::capi::exports::SYMBOL_NAMES;
use rkai_ukernels::catalog::{
    DWCONV_KERNELS, DWCONV_PACKERS, KERNELS, PACKERS, UKER_KERNELS, UKER_LHS_PACKERS,
    UKER_RHS_PACKERS,
};
use rkai_ukernels::kernel::Origin;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

/// The entries of `dir`. Retried: under QEMU 11 user mode, reading a directory has failed with
/// EFAULT once in a CI run (the emulator's getdents64, not rkai; the same run passed before).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let read = || fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect();
    let mut result: std::io::Result<Vec<PathBuf>> = read();
    for _ in 0..2 {
        if result.is_ok() {
            break;
        }
        result = read();
    }
    result.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
}

fn files(root: &Path) -> BTreeSet<PathBuf> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeSet<PathBuf>) {
        for p in entries(dir) {
            if p.is_dir() {
                walk(&p, root, out);
            } else {
                out.insert(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, root, &mut out);
    out
}

#[test]
fn committed_headers_match_generated() {
    let generated = Path::new(env!("RKAI_GENERATED_INCLUDE"));
    let (gen_files, com_files) = (files(generated), files(&committed()));
    assert_eq!(
        gen_files, com_files,
        "header set drifted: run scripts/bless-headers.sh"
    );
    for f in &gen_files {
        assert_eq!(
            fs::read_to_string(generated.join(f)).unwrap(),
            fs::read_to_string(committed().join(f)).unwrap(),
            "{} drifted: run scripts/bless-headers.sh",
            f.display()
        );
    }
}

/// KleidiAI 1.30's declarations per header path, from the compat tables.
pub(crate) fn kleidiai_sections() -> Vec<(String, Vec<String>)> {
    let text = include_str!("data/kleidiai-1.30-api.txt");
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("## ") {
            out.push((path.to_string(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(line.to_string());
        }
    }
    out
}

/// `ret name(type a, type b)` -> `ret name(type,type)`; other lines pass through trimmed.
fn normalize(decl: &str) -> String {
    let decl = decl.trim().trim_end_matches(';').replace(" *", "* ");
    let Some(open) = decl.find('(') else {
        return decl.split_whitespace().collect::<Vec<_>>().join(" ");
    };
    let close = decl.rfind(')').unwrap();
    let head = decl[..open]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let params: Vec<String> = decl[open + 1..close]
        .split(',')
        .map(|p| {
            let words: Vec<&str> = p.split_whitespace().collect();
            if words.len() <= 1 {
                words.join(" ")
            } else {
                words[..words.len() - 1].join(" ")
            }
        })
        .collect();
    format!("{head}({})", params.join(","))
}

fn declarations(header: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut structure: Option<String> = None; // a struct's fields in order, as one entry
    let mut guard: Option<&str> = None; // the macro an `#ifndef` just tested
    for line in header.lines() {
        let l = line.trim();
        // An include guard (`#ifndef X` then `#define X`) declares nothing a caller uses.
        if let Some(name) = guard.take()
            && l == format!("#define {name}")
        {
            continue;
        }
        guard = l.strip_prefix("#ifndef ");
        if l.starts_with("struct ") && l.ends_with('{') {
            structure = Some(l.to_string());
            continue;
        }
        if let Some(s) = structure.as_mut() {
            if l.starts_with('}') {
                out.insert(structure.take().unwrap());
            } else if !l.is_empty() && !l.starts_with("//") {
                // `T *p` and `T* p` are one declaration (cbindgen writes the first).
                let l = l.replace(" *", "* ");
                s.push_str(&l.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            continue;
        }
        if l.starts_with("#define ")
            || (l.contains('(') && l.ends_with(';') && !l.starts_with("//"))
        {
            out.insert(normalize(l));
        }
    }
    out
}

/// The headers of KleidiAI's generic interface that declare one provider per kernel or packer.
const PROVIDER_HEADERS: [&str; 3] = [
    "kai/ukernels/matmul/kai_matmul.h",
    "kai/ukernels/matmul/kai_matmul_pack_lhs.h",
    "kai/ukernels/matmul/kai_matmul_pack_rhs.h",
];

/// The function a declaration line declares, if it declares one.
fn declared_function(line: &str) -> Option<&str> {
    let open = line.find('(')?;
    if line.starts_with('#') || line.starts_with("//") || !line.trim_end().ends_with(';') {
        return None;
    }
    line[..open]
        .split_whitespace()
        .last()
        .map(|n| n.trim_start_matches('*'))
}

#[test]
fn declarations_equal_kleidiai() {
    let sections = kleidiai_sections();
    let mut compared = 0;
    for rel in files(&committed()) {
        let rel_s = rel.to_string_lossy().to_string();
        if !rel_s.starts_with("kai/ukernels/") {
            continue;
        }
        let (_, theirs) = sections
            .iter()
            .find(|(p, _)| *p == rel_s)
            .unwrap_or_else(|| panic!("{rel_s} is not a KleidiAI header"));
        let theirs = declarations(&theirs.join("\n"));
        let ours = declarations(&fs::read_to_string(committed().join(&rel)).unwrap());
        assert_eq!(ours, theirs, "declarations of {rel_s}");
        compared += 1;
    }
    let families: BTreeSet<&str> = KERNELS.iter().map(|k| k.family.dir()).collect();
    assert_eq!(
        compared,
        KERNELS
            .iter()
            .filter(|k| k.origin == Origin::KleidiAi)
            .count()
            + PACKERS.len()
            + families.len()
            // The generic interfaces: three types headers, and the providers' header of each
            // packing side rkai defines a provider of.
            + 3
            + usize::from(!UKER_RHS_PACKERS.is_empty())
            + usize::from(!UKER_LHS_PACKERS.is_empty())
            + usize::from(!UKER_KERNELS.is_empty())
            + DWCONV_KERNELS.len()
            + DWCONV_PACKERS.len()
            + DWCONV_KERNELS
                .iter()
                .map(|k| k.dir)
                .collect::<BTreeSet<_>>()
                .len(),
        "headers compared (kernels, packers, one interface per family, the generic interfaces, \
         the depthwise kernels, packers and interfaces)"
    );
}

/// The functions KleidiAI 1.30's header `path` (`lines`, its declarations) declares that a library
/// defines: kai_common.h's are inline, in KleidiAI's header as in rkai's; function-pointer typedefs
/// and fields (`size_t (*get_m_step)(void);`) declare none.
pub(crate) fn kleidiai_functions<'a>(
    path: &str,
    lines: &'a [String],
) -> impl Iterator<Item = &'a str> {
    let kernel_header = path.starts_with("kai/ukernels/");
    lines
        .iter()
        .filter(move |l| kernel_header && !l.contains("(*") && !l.starts_with("typedef"))
        .filter_map(|l| declared_function(l))
}

/// rkai ships every header KleidiAI 1.30 installs and its `kai_` exports are exactly the functions
/// KleidiAI's kernel and packer headers declare; everything else it exports is an rkai extension
/// kernel's function set. With `declarations_equal_kleidiai` (each shipped header declares what
/// KleidiAI's does) this proves README's "every KleidiAI 1.30 stem".
#[test]
fn exports_are_exactly_kleidiai_functions_and_rkai_extensions() {
    let sections = kleidiai_sections();
    let mut declared = BTreeSet::new();
    for (path, lines) in &sections {
        assert!(
            committed().join(path).is_file(),
            "{path}: KleidiAI 1.30 installs it, rkai does not"
        );
        declared.extend(kleidiai_functions(path, lines));
    }
    let (kai, extensions): (BTreeSet<&str>, BTreeSet<&str>) =
        SYMBOL_NAMES.iter().partition(|s| s.starts_with("kai_"));
    let missing: Vec<_> = declared.difference(&kai).collect();
    assert!(
        missing.is_empty(),
        "declared by KleidiAI, not exported: {missing:?}"
    );
    let beyond: Vec<_> = kai.difference(&declared).collect();
    assert!(
        beyond.is_empty(),
        "kai_ exports KleidiAI does not declare: {beyond:?}"
    );
    // The generic interface's providers are the catalog's.
    let catalog = [
        UKER_KERNELS.iter().map(|k| k.name).collect::<BTreeSet<_>>(),
        UKER_LHS_PACKERS.iter().map(|p| p.name).collect(),
        UKER_RHS_PACKERS.iter().map(|p| p.name).collect(),
    ];
    for (header, names) in PROVIDER_HEADERS.iter().zip(catalog) {
        let (_, lines) = sections.iter().find(|(p, _)| p == header).unwrap();
        let providers: BTreeSet<String> = kleidiai_functions(header, lines)
            .map(String::from)
            .collect();
        let ours: BTreeSet<String> = names.iter().map(|n| format!("kai_{n}")).collect();
        assert_eq!(providers, ours, "{header}: the catalog's providers");
    }
    let rkai_kernels = KERNELS.iter().filter(|k| k.origin == Origin::Rkai);
    let rkai_functions: usize = rkai_kernels.map(|k| k.family.c_functions().len()).sum();
    assert!(
        extensions.iter().all(|s| s.starts_with("rkai_")),
        "{extensions:?}"
    );
    assert_eq!(extensions.len(), rkai_functions, "rkai_ exports");
    eprintln!(
        "{} KleidiAI 1.30 headers shipped, its {} declared functions exported, {} rkai_ extensions",
        sections.len(),
        declared.len(),
        extensions.len()
    );
}

fn compile(source: &str, cpp: bool) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(if cpp { "hdr_cpp" } else { "hdr_c" });
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join(if cpp { "all.cpp" } else { "all.c" });
    fs::write(&file, source).unwrap();
    // The cc crate picks the C/C++ compiler for this target the way build scripts do (CC/CXX and
    // target-prefixed cross compilers included).
    let triple = if cfg!(target_arch = "aarch64") {
        "aarch64-unknown-linux-gnu"
    } else {
        "x86_64-unknown-linux-gnu"
    };
    // Under QEMU on an x86_64 host the aarch64 cross compiler is what checks the Arm paths of the
    // headers (`__ARM_NEON`); telling cc the host is x86_64 makes it pick that compiler.
    let cross_gcc = std::process::Command::new("aarch64-linux-gnu-gcc")
        .arg("--version")
        .output();
    let host = if cfg!(target_arch = "aarch64") && cross_gcc.is_ok_and(|o| o.status.success()) {
        "x86_64-unknown-linux-gnu"
    } else {
        triple
    };
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .cpp(cpp)
        .opt_level(0)
        .target(triple)
        .host(host)
        .try_get_compiler()
        .unwrap_or_else(|e| panic!("no C compiler: {e}"));
    let std = if cpp { "-std=c++17" } else { "-std=c99" };
    let out = std::process::Command::new(compiler.path())
        .args([
            std,
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-fsyntax-only",
            "-I",
        ])
        .arg(committed())
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{:?}: {e}", compiler.path()));
    assert!(
        out.status.success(),
        "{:?} {std}: {}",
        compiler.path(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn headers_compile_as_c99_and_cpp17_with_kleidiai_layouts() {
    let mut src = String::from("#include <stddef.h>\n#include \"rkai.h\"\n");
    for f in files(&committed()) {
        let f = f.to_string_lossy();
        if f.starts_with("kai/") || f.starts_with("rkai/") {
            src.push_str(&format!("#include \"{f}\"\n"));
        }
    }
    // Layout facts of KleidiAI 1.30 (api.txt / reference §3.5).
    src.push_str(
        "#ifdef __cplusplus\n#define SA static_assert\n#else\n#define SA _Static_assert\n#endif\n\
         SA(sizeof(struct kai_rhs_pack_qs4cxs1s0_param) == 2, \"qs4cxs1s0 param\");\n\
         SA(sizeof(struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params) == 8, \"qsi4c32p params\");\n\
         SA(offsetof(struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, scale_dt) == 4, \"scale_dt\");\n\
         SA(sizeof(struct kai_rhs_pack_qsi8cx_params) == 8, \"qsi8cx params\");\n\
         SA(sizeof(struct kai_matmul_requantize32_params) == 12, \"requantize params\");\n\
         SA(sizeof(struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel) == 11 * sizeof(void*), \"interface\");\n\
         SA(sizeof(struct rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_choice) == 16 * sizeof(void*), \"choice\");\n\
         SA(offsetof(struct rkai_matmul_clamp_f32_qai8dxp_qsi4cxp_choice, packed_vector_bytes) == 15 * sizeof(void*), \"choice order\");\n\
         SA(kai_dt_f32 == 0x0411 && kai_dt_bf16 == 0x0213 && kai_dt_int8 == 0x0124 && kai_dt_bool == 0x0441, \"dt\");\n\
         SA(KAI_SME_VEC_LENGTH_MAX_BYTES == 256, \"sme max\");\n\
         SA(sizeof(struct kai_matmul_pack_rhs_uker_api) == 9 * sizeof(void*), \"pack rhs api\");\n\
         SA(offsetof(struct kai_matmul_pack_rhs_uker_api, get_scale_n_offset) == 8 * sizeof(void*), \"api order\");\n\
         SA(offsetof(struct kai_matmul_pack_rhs_uker_args, operand) == 8 + 2 * sizeof(size_t), \"pack rhs args\");\n\
         SA(sizeof(struct kai_matmul_pack_rhs_uker_operand_args) == 9 * sizeof(void*), \"operands\");\n\
         struct kai_matmul_pack_rhs_uker_api (*const pack_rhs_provider)(void) = kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve;\n\
         SA(sizeof(struct kai_matmul_pack_lhs_uker_api) == 7 * sizeof(void*), \"pack lhs api\");\n\
         SA(offsetof(struct kai_matmul_pack_lhs_uker_api, get_lhs_packed_size) == 6 * sizeof(void*), \"lhs api order\");\n\
         SA(offsetof(struct kai_matmul_pack_lhs_uker_args, operand) == 8 + 2 * sizeof(size_t), \"pack lhs args\");\n\
         SA(offsetof(struct kai_matmul_pack_lhs_uker_operand_args, lhs) == 2 * sizeof(void*), \"lhs operands\");\n\
         SA(sizeof(struct kai_matmul_pack_lhs_uker_config) == 3 * sizeof(size_t), \"lhs config\");\n\
         struct kai_matmul_pack_lhs_uker_api (*const pack_lhs_provider)(void) = kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme;\n\
         SA(sizeof(struct kai_matmul_uker_api) == 9 * sizeof(void*), \"matmul api\");\n\
         SA(offsetof(struct kai_matmul_uker_api, get_dst_size) == 8 * sizeof(void*), \"matmul api order\");\n\
         SA(sizeof(struct kai_matmul_uker_operand_args) == 15 * sizeof(void*), \"matmul operands\");\n\
         SA(offsetof(struct kai_matmul_uker_operand_args, bias) == 6 * sizeof(void*), \"matmul bias\");\n\
         SA(offsetof(struct kai_matmul_uker_args, operand) == 8 + 3 * sizeof(size_t), \"matmul args\");\n\
         SA(sizeof(struct kai_matmul_uker_args) == 8 + 3 * sizeof(size_t) + 17 * sizeof(void*), \"matmul args size\");\n\
         SA(KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP == 0x10000, \"clamp flag\");\n\
         static const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel table = {\n",
    );
    let k = KERNELS[0].stem;
    let offsets = [
        "get_lhs_packed_offset",
        "get_rhs_packed_offset",
        "get_dst_offset",
        "get_dst_size",
        "run_matmul",
    ];
    for f in support::cabi::TILE_GETTERS.into_iter().chain(offsets) {
        let verb = if f == "run_matmul" { "run" } else { f };
        src.push_str(&format!("    kai_{verb}_{k},\n"));
    }
    src.push_str("};\nconst void* use_table(void) { return &table; }\n");
    compile(&src, false);
    compile(&src, true);
}

#[test]
fn rust_types_have_kleidiai_layouts() {
    use rkai_ukernels::types::*;
    assert_eq!(size_of::<kai_rhs_pack_qs4cxs1s0_param>(), 2);
    assert_eq!(size_of::<kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params>(), 8);
    assert_eq!(
        std::mem::offset_of!(kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params, scale_dt),
        4
    );
    assert_eq!(size_of::<kai_rhs_pack_qsi8cx_params>(), 8);
    assert_eq!(size_of::<kai_matmul_requantize32_params>(), 12);
    {
        use rkai_ukernels::pack_rhs_types::*;
        use std::mem::offset_of;
        let ptr = size_of::<usize>();
        assert_eq!(size_of::<kai_matmul_pack_rhs_uker_api>(), 9 * ptr);
        assert_eq!(
            offset_of!(kai_matmul_pack_rhs_uker_api, get_bias_n_offset),
            7 * ptr
        );
        assert_eq!(size_of::<kai_matmul_pack_rhs_uker_operand_args>(), 9 * ptr);
        assert_eq!(
            offset_of!(kai_matmul_pack_rhs_uker_args, operand),
            8 + 2 * ptr
        );
        assert_eq!(
            offset_of!(kai_matmul_pack_rhs_uker_operand_args, bias_n),
            5 * ptr
        );
    }
    {
        use rkai_ukernels::pack_lhs_types::*;
        use std::mem::offset_of;
        let ptr = size_of::<usize>();
        assert_eq!(size_of::<kai_matmul_pack_lhs_uker_api>(), 7 * ptr);
        assert_eq!(
            offset_of!(kai_matmul_pack_lhs_uker_api, get_lhs_packed_offset),
            5 * ptr
        );
        assert_eq!(size_of::<kai_matmul_pack_lhs_uker_config>(), 3 * ptr);
        assert_eq!(
            offset_of!(kai_matmul_pack_lhs_uker_args, operand),
            8 + 2 * ptr
        );
        assert_eq!(
            offset_of!(kai_matmul_pack_lhs_uker_operand_args, lhs),
            2 * ptr
        );
        assert_eq!(size_of::<kai_matmul_pack_lhs_uker_operand_args>(), 4 * ptr);
    }
    {
        use rkai_ukernels::matmul_types::*;
        use std::mem::offset_of;
        let ptr = size_of::<usize>();
        assert_eq!(size_of::<kai_matmul_uker_api>(), 9 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_api, get_rhs_offset), 5 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_api, get_dst_size), 8 * ptr);
        // dst, lhs, rhs (two words each), six biases, three scales.
        assert_eq!(size_of::<kai_matmul_uker_operand_args>(), 15 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_operand_args, rhs), 4 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_operand_args, scale), 12 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_args, shape), 8);
        assert_eq!(offset_of!(kai_matmul_uker_args, operand), 8 + 3 * ptr);
        assert_eq!(offset_of!(kai_matmul_uker_args, activation), 8 + 18 * ptr);
        assert_eq!(size_of::<kai_matmul_uker_args>(), 8 + 20 * ptr);
        assert_eq!(
            kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u32,
            0x10000
        );
    }
    assert_eq!(kai_datatype::kai_dt_f16.size_in_bytes(), 2);
    assert_eq!(
        kai_datatype::from_raw(0x0213),
        Some(kai_datatype::kai_dt_bf16)
    );
    assert_eq!(kai_datatype::from_raw(0x0214), None);
}

#[test]
fn version_functions() {
    // SAFETY: both return static NUL-terminated strings.
    let (kai, own) = unsafe {
        (
            std::ffi::CStr::from_ptr(rkai_capi::capi::kai_get_version()),
            std::ffi::CStr::from_ptr(rkai_capi::rkai_ffi::rkai_get_version()),
        )
    };
    assert_eq!(kai.to_str().unwrap(), "1.30.0");
    assert_eq!(own.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn readme_lists_every_stem() {
    let readme = include_str!("../../README.md");
    for name in KERNELS
        .iter()
        .map(|k| k.stem)
        .chain(PACKERS.iter().map(|p| p.name))
        .chain(UKER_RHS_PACKERS.iter().map(|p| p.name))
        .chain(UKER_LHS_PACKERS.iter().map(|p| p.name))
        .chain(UKER_KERNELS.iter().map(|p| p.name))
        .chain(DWCONV_KERNELS.iter().map(|k| k.stem))
        .chain(DWCONV_PACKERS.iter().map(|p| p.name))
    {
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not list `{name}`"
        );
    }
}
