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
