//! `src/rules` stays pure: no web, database, template, runtime, file, network or environment code.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "actix",
    "diesel",
    "askama",
    "tokio",
    "reqwest",
    "std::fs",
    "std::net",
    "std::env",
    "std::io",
    "std::process",
    "std::time::SystemTime",
    "File::",
    "TcpStream",
    "println!",
    "eprintln!",
    "thread_rng",
    "rand::rng()",
    "OsRng",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_rules_core_uses_no_io_or_framework_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(!files.is_empty(), "src/rules has Rust files");
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in FORBIDDEN {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {}", file.display(), n + 1, word));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "impure code in src/rules:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_check_itself_catches_an_offence() {
    // Guard against a check that cannot fail: the same scan flags a known-bad line.
    let line = "use diesel::prelude::*;";
    assert!(FORBIDDEN
        .iter()
        .any(|w| line.split("//").next().unwrap().contains(w)));
}

/// Words that name one rule system's types, id or addresses.
/// `rules.lotf` is a system's catalogue reached through the shared state.
const SYSTEM_WORDS: &[&str] = &[
    "lotf::",
    "lod::",
    "RosterDoc",
    "\"lotf\"",
    "\"lod\"",
    "/lotf/",
    "/lod/",
    "rules.lotf",
    "rules.lod",
    "awi::",
    "oibl::",
    "atkm::",
    "\"awi\"",
    "\"oibl\"",
    "\"atkm\"",
    "/awi/",
    "/oibl/",
    "/atkm/",
    "rules.awi",
    "rules.oibl",
    "rules.atkm",
];

/// Where a rule system may be named: its own folders, the dispatch files (with the systems'
/// identity) and the command line's system switch.
fn may_name_a_system(path: &str) -> bool {
    let in_system_folder = [
        "src/rules/systems/",
        "src/web/systems/",
        "templates/systems/",
    ]
    .iter()
    .any(|root| {
        path.strip_prefix(root)
            .is_some_and(|rest| rest.contains('/'))
    });
    in_system_folder
        || [
            "src/rules/systems/mod.rs",
            "src/web/systems/mod.rs",
            "src/rules/system.rs",
            "src/cli/mod.rs",
            "src/cli/rules.rs",
            "src/cli/lod.rs",
            "src/cli/lotf.rs",
            "src/cli/awi.rs",
            "src/cli/oibl.rs",
            "src/cli/atkm.rs",
        ]
        .contains(&path)
}

fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The generic files under `src/` and `templates/` that name a rule system, as paths from the
/// crate root.
fn files_naming_a_system() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("src"), &mut files);
    files_under(&root.join("templates"), &mut files);
    let mut out: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let rel = f
                .strip_prefix(root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(f).ok()?;
            let named = text.lines().any(|line| {
                let code = if rel.ends_with(".rs") {
                    line.split("//").next().unwrap_or("")
                } else {
                    line
                };
                SYSTEM_WORDS.iter().any(|w| code.contains(w))
            });
            (named && !may_name_a_system(&rel)).then_some(rel)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn generic_code_names_no_rule_system() {
    let naming = files_naming_a_system();
    assert!(
        naming.is_empty(),
        "generic files that name a rule system (ask the dispatch in rules/systems/mod.rs or \
         web/systems/mod.rs instead): {naming:?}"
    );
}

#[test]
fn the_system_scan_tells_system_folders_from_generic_code() {
    assert!(may_name_a_system("src/rules/systems/lotf/roster.rs"));
    assert!(may_name_a_system("templates/systems/lotf/odds.html"));
    assert!(may_name_a_system("src/web/systems/mod.rs"));
    assert!(!may_name_a_system("src/rules/systems/lotf.rs"));
    assert!(!may_name_a_system("src/app/rosters.rs"));
    assert!(!may_name_a_system("templates/base.html"));
    let line = "use crate::rules::systems::lotf::RosterDoc;";
    assert!(SYSTEM_WORDS.iter().any(|w| line.contains(w)));
}
