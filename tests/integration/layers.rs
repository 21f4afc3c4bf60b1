//! The layers keep their shape: `src/app` knows nothing of HTTP or templates (no actix, no
//! askama), and no modules of the library import each other in a circle. Both checks read the
//! source, with comments (and, for the circles, string literals) taken out, and each has a test
//! that it catches what it is meant to catch.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
}

/// The source with comments blanked out (line and block comments, doc comments included), and
/// with the contents of string and character literals blanked too unless `keep_strings`.
/// Line breaks are kept, so line numbers stay right.
fn strip(text: &str, keep_strings: bool) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0
                || !is_ident(c[i - 1])
                || (c[i - 1] == 'b' && (i < 2 || !is_ident(c[i - 2]))))
            && raw_string_start(&c, i).is_some()
        {
            // A raw string: r"…", r#"…"#, …
            let hashes = raw_string_start(&c, i).unwrap_or(0);
            out.push('r');
            for _ in 0..hashes {
                out.push('#');
            }
            out.push('"');
            i += 2 + hashes;
            while i < c.len() {
                if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
                    out.push('"');
                    for _ in 0..hashes {
                        out.push('#');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(if keep_strings { c[i] } else { blank(c[i]) });
                i += 1;
            }
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                let len = if c[i] == '\\' { 2 } else { 1 };
                for k in 0..len {
                    if let Some(&ch) = c.get(i + k) {
                        out.push(if keep_strings { ch } else { blank(ch) });
                    }
                }
                i += len;
            }
            out.push('"');
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{7f}') or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 3..c.len()).find(|&k| c[k] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.push('\'');
                    for &ch in &c[i + 1..end] {
                        out.push(if keep_strings { ch } else { ' ' });
                    }
                    out.push('\'');
                    i = end + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting at `i` (`r"`, `r#"`, …).
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    let mut k = i + 1;
    while c.get(k) == Some(&'#') {
        k += 1;
    }
    (c.get(k) == Some(&'"')).then_some(k - i - 1)
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

// ---------------------------------------------------------------------------------------------
// src/app knows no HTTP and no templates.

const NOT_IN_APP: &[&str] = &["actix", "askama"];

/// Every use of a forbidden crate in the code (not the comments) of `text`.
fn framework_uses(text: &str) -> Vec<(usize, &'static str)> {
    let code = strip(text, true);
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for word in NOT_IN_APP {
            if line.contains(word) {
                found.push((n + 1, *word));
            }
        }
    }
    found
}

#[test]
fn the_application_layer_uses_no_web_framework_or_templates() {
    let mut files = Vec::new();
    rust_files(&src().join("app"), &mut files);
    assert!(files.len() > 5, "src/app has its Rust files: {files:?}");
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        for (line, word) in framework_uses(&text) {
            offences.push(format!("{}:{line}: {word}", file.display()));
        }
    }
    assert!(
        offences.is_empty(),
        "src/app must not know about HTTP or templates:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_framework_scan_catches_a_bad_line_and_skips_comments() {
    let text = "//! Nothing here knows actix or askama.\n\
                use crate::app::Error; // not actix\n\
                /* askama\n   would go here */\n\
                use actix_web::HttpResponse;\n\
                #[derive(askama::Template)]\n";
    assert_eq!(framework_uses(text), vec![(5, "actix"), (6, "askama")]);
    assert!(framework_uses("use crate::store::DbConnection;\n").is_empty());
}

// ---------------------------------------------------------------------------------------------
// No import circles between the library's modules.

/// A module's path from its file: `src/web/auth/session.rs` is `web::auth::session`, a
/// `mod.rs` its folder's module, `src/lib.rs` the crate root (the empty path).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// A path the code names, resolved from the crate root, with the line it is on and, in a `use`
/// declaration, the name it binds (`use crate::store::{self as db}` binds `db`).
#[derive(Debug, Clone, PartialEq)]
struct Named {
    line: usize,
    path: Vec<String>,
    binds: Option<String>,
}

fn skip_space(c: &[char], mut i: usize) -> usize {
    while c.get(i).is_some_and(|ch| ch.is_whitespace()) {
        i += 1;
    }
    i
}

fn word_at(c: &[char], i: usize) -> (String, usize) {
    let mut k = i;
    while c.get(k).is_some_and(|ch| is_ident(*ch)) {
        k += 1;
    }
    (c[i..k].iter().collect(), k)
}

/// Expands the path starting at `c[i]` (after `crate::`, `super::`, `self::` or a bound name and
/// its `::` have been read), including `use` groups (`{a, b::{c, d}}`, `self`, `*`, `as`), into
/// full paths made of `prefix` and what follows, each with the name it would bind.
fn expand(
    c: &[char],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut path = prefix;
    // The name bound by a path that ends at `i`: its `as` name, else its last segment.
    let bound = |path: &Vec<String>, i: usize| -> (Option<String>, usize) {
        let k = skip_space(c, i);
        let (w, end) = word_at(c, k);
        if w == "as" {
            let (alias, end) = word_at(c, skip_space(c, end));
            return (Some(alias), end);
        }
        (path.last().cloned(), i)
    };
    loop {
        i = skip_space(c, i);
        match c.get(i) {
            Some('{') => {
                i += 1;
                loop {
                    while c.get(i).is_some_and(|ch| ch.is_whitespace() || *ch == ',') {
                        i += 1;
                    }
                    match c.get(i) {
                        None => return i,
                        Some('}') => return i + 1,
                        _ => {}
                    }
                    let before = i;
                    i = expand(c, i, path.clone(), out);
                    while c.get(i).is_some_and(|ch| *ch != ',' && *ch != '}') {
                        i += 1;
                    }
                    if i == before {
                        i += 1;
                    }
                }
            }
            Some('*') => {
                out.push((path, None));
                return i + 1;
            }
            Some(ch) if is_ident(*ch) => {
                let (word, end) = word_at(c, i);
                i = end;
                if word == "self" {
                    let (name, end) = bound(&path, i);
                    out.push((path, name));
                    return end;
                }
                if word == "super" {
                    path.pop();
                } else {
                    path.push(word);
                }
                // More path only if `::` follows.
                let k = skip_space(c, i);
                if c.get(k) == Some(&':') && c.get(k + 1) == Some(&':') {
                    i = k + 2;
                } else {
                    let (name, end) = bound(&path, i);
                    out.push((path, name));
                    return end;
                }
            }
            _ => {
                out.push((path, None));
                return i;
            }
        }
    }
}

/// The paths a file's code names through `crate::`, `super::` or `self::`, or through a name
/// a `use` bound to a module (`bound`), each resolved to an absolute path from the crate root.
/// `super::` is relative to the module the code is in, inline modules (`mod tests { … }`)
/// included.
fn crate_paths(module: &[String], text: &str, bound: &BTreeMap<String, Vec<String>>) -> Vec<Named> {
    let code = strip(text, false);
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut counted) = (1, 0);
    // The inline modules we are in, with the brace depth at which each closes.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<String> = None;
    let mut in_use = false;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '{' {
            depth += 1;
            if let Some(name) = pending_mod.take() {
                inline.push((name, depth));
            }
            i += 1;
            continue;
        }
        if ch == '}' {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        if ch == ';' {
            pending_mod = None;
            in_use = false;
            i += 1;
            continue;
        }
        if !is_ident(ch) || (i > 0 && is_ident(c[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        let (word, end) = word_at(&c, i);
        i = end;
        match word.as_str() {
            "mod" => {
                let (name, end) = word_at(&c, skip_space(&c, i));
                pending_mod = Some(name);
                i = end;
                continue;
            }
            "use" => {
                in_use = true;
                continue;
            }
            _ => {}
        }
        // Only a path's first segment: followed by `::`, not preceded by `::` or `.`.
        let before = c[..start].iter().rev().find(|ch| !ch.is_whitespace());
        let preceded = before == Some(&'.')
            || (before == Some(&':') && start >= 2 && {
                let k = c[..start].iter().rposition(|ch| !ch.is_whitespace());
                k.is_some_and(|k| k >= 1 && c[k - 1] == ':')
            });
        let after = skip_space(&c, i);
        if preceded || c.get(after) != Some(&':') || c.get(after + 1) != Some(&':') {
            continue;
        }
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|(n, _)| n.clone()));
        let prefix = match word.as_str() {
            "crate" => Vec::new(),
            "self" => here,
            "super" => {
                here.pop();
                here
            }
            other => match bound.get(other) {
                Some(path) => path.clone(),
                None => continue,
            },
        };
        line += c[counted..start].iter().filter(|ch| **ch == '\n').count();
        counted = start;
        let mut paths = Vec::new();
        i = expand(&c, after + 2, prefix, &mut paths);
        out.extend(paths.into_iter().map(|(path, binds)| Named {
            line,
            path,
            binds: binds.filter(|_| in_use),
        }));
    }
    out
}

/// The longest prefix of `path` that is a module file.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
}

/// One module within the other (or the same).
fn nested(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The import graph of the library: module → (module it names → where).
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn library_graph() -> Graph {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // `main.rs` (and any `bin/`) is another crate, where `crate::` means something else.
    files.retain(|f| {
        let rel = f.strip_prefix(&src).unwrap();
        rel != Path::new("main.rs") && !rel.starts_with("bin")
    });
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    assert!(modules.len() > 50, "the library's modules are found");
    let mut graph = Graph::new();
    for file in &files {
        let from = module_of(&src, file);
        let text = std::fs::read_to_string(file).expect("read");
        // The names `use` binds to whole modules, then every path, through them too.
        let bound: BTreeMap<String, Vec<String>> = crate_paths(&from, &text, &BTreeMap::new())
            .into_iter()
            .filter(|n| modules.contains(&n.path))
            .filter_map(|n| n.binds.map(|b| (b, n.path)))
            .filter(|(b, _)| b != "self" && b != "super" && b != "crate")
            .collect();
        let edges = graph.entry(name(&from)).or_default();
        for Named { line, path, .. } in crate_paths(&from, &text, &bound) {
            let Some(to) = resolve(&path, &modules) else {
                continue;
            };
            if !nested(&from, &to) {
                edges.entry(name(&to)).or_default().push(format!(
                    "{}:{line}: {}",
                    file.strip_prefix(src.parent().unwrap()).unwrap().display(),
                    path.join("::")
                ));
            }
        }
    }
    graph
}

/// The strongly connected components with more than one node (Tarjan).
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            if let Some(edges) = self.graph.get(v) {
                for w in edges.keys() {
                    let w = w.as_str();
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let lw = self.low[w];
                        let lv = self.low.get_mut(v).unwrap();
                        *lv = (*lv).min(lw);
                    } else if self.on_stack.contains(w) {
                        let iw = self.index[w];
                        let lv = self.low.get_mut(v).unwrap();
                        *lv = (*lv).min(iw);
                    }
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found.sort();
    walk.found
}

/// A circle described with the imports that make it.
fn describe(graph: &Graph, component: &[String]) -> String {
    let mut out = format!("circle: {}\n", component.join(", "));
    for from in component {
        for (to, wheres) in &graph[from] {
            if component.contains(to) {
                out.push_str(&format!("  {from} -> {to}\n"));
                for w in wheres {
                    out.push_str(&format!("      {w}\n"));
                }
            }
        }
    }
    out
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let graph = library_graph();
    // The graph is real: the application layer imports the store, the web the application.
    assert!(graph["app::battles"].contains_key("store::battles"));
    assert!(graph.values().flat_map(|e| e.keys()).any(|t| t == "app"));
    let found = circles(&graph);
    let report: Vec<String> = found.iter().map(|c| describe(&graph, c)).collect();
    assert!(
        found.is_empty(),
        "{} import circle(s):\n{}",
        found.len(),
        report.join("\n")
    );
}

#[test]
fn the_layers_point_one_way() {
    // web → app → store → rules, app → rules, cli → app: no layer imports one above it.
    let graph = library_graph();
    let above: &[(&str, &[&str])] = &[
        (
            "rules",
            &["config", "store", "app", "web", "cli", "telemetry"],
        ),
        ("store", &["app", "web", "cli"]),
        ("app", &["web", "cli"]),
    ];
    let layer = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut offences = Vec::new();
    for (from, edges) in &graph {
        for (below, forbidden) in above {
            if layer(from) != *below {
                continue;
            }
            for (to, wheres) in edges {
                if forbidden.contains(&layer(to).as_str()) {
                    offences.push(format!("{from} -> {to}\n      {}", wheres.join("\n      ")));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "imports against the layers:\n{}",
        offences.join("\n")
    );
}

fn graph_of(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph::new();
    for (a, b) in edges {
        g.entry((*a).into())
            .or_default()
            .insert((*b).into(), vec![format!("{a} uses {b}")]);
        g.entry((*b).into()).or_default();
    }
    g
}

#[test]
fn the_circle_detector_finds_a_circle_in_a_small_graph() {
    let g = graph_of(&[
        ("web::pages", "app::battles"),
        ("app::battles", "app::campaigns"),
        ("app::campaigns", "app::battle_record"),
        ("app::campaigns", "app::battles"),
        ("app::battles", "store"),
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
    ]);
    assert_eq!(
        circles(&g),
        vec![
            vec!["a".to_string(), "b".into(), "c".into()],
            vec!["app::battles".to_string(), "app::campaigns".into()],
        ]
    );
    assert!(circles(&graph_of(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

#[test]
fn imports_are_read_as_the_compiler_reads_them() {
    let m = |s: &str| -> Vec<String> { s.split("::").map(String::from).collect() };
    let here = m("app::campaigns::actions");
    let text = r#"
        //! Uses crate::web::nothing in a comment.
        use super::change::{close_turn_events, void_events};
        use crate::app::{Actor, battles::{self, Player}, Error as E};
        use crate::store::*;
        use crate::store::{self as db};
        fn f() { let s = "crate::cli::nothing"; crate::rules::systems::lotf::simulate(); }
        mod tests {
            use super::*;
            use super::inner::Thing;
        }
        fn g() { self::helper(); }
    "#;
    let found = crate_paths(&here, text, &BTreeMap::new());
    let paths: Vec<String> = found.iter().map(|n| n.path.join("::")).collect();
    assert_eq!(
        paths,
        vec![
            "app::campaigns::change::close_turn_events",
            "app::campaigns::change::void_events",
            "app::Actor",
            "app::battles",
            "app::battles::Player",
            "app::Error",
            "store",
            "store",
            "rules::systems::lotf::simulate",
            "app::campaigns::actions",
            "app::campaigns::actions::inner::Thing",
            "app::campaigns::actions::helper",
        ]
    );
    let lines: Vec<usize> = found.iter().map(|n| n.line).collect();
    assert_eq!(lines, vec![3, 3, 4, 4, 4, 4, 5, 6, 7, 9, 10, 12]);
    // What `use` binds, and only there.
    let binds: Vec<Option<&str>> = found.iter().map(|n| n.binds.as_deref()).collect();
    assert_eq!(
        binds,
        vec![
            Some("close_turn_events"),
            Some("void_events"),
            Some("Actor"),
            Some("battles"),
            Some("Player"),
            Some("E"),
            None,
            Some("db"),
            None,
            None,
            Some("Thing"),
            None,
        ]
    );
    // Paths through a bound name resolve through it.
    let bound = BTreeMap::from([("db".to_string(), m("store"))]);
    let through: Vec<String> =
        crate_paths(&here, "fn f() { db::users::find(); x.db::<u8>(); }", &bound)
            .iter()
            .map(|n| n.path.join("::"))
            .collect();
    assert_eq!(through, vec!["store::users::find"]);
    // Literals hide nothing and show nothing: quotes, braces and slashes inside them.
    let tricky = r##"fn f<'a>(x: &'a str) { let q = '\''; let b = '{'; let s = "// { \" crate::web::x";
        let r = r#"crate::cli::y "#; let c = b'"'; crate::store::x(); }
        mod inner { fn g() { super::z(); } }"##;
    let found: Vec<(usize, String)> = crate_paths(&here, tricky, &BTreeMap::new())
        .iter()
        .map(|n| (n.line, n.path.join("::")))
        .collect();
    assert_eq!(
        found,
        vec![
            (2, "store::x".to_string()),
            (3, "app::campaigns::actions::z".to_string())
        ]
    );
    let modules: BTreeSet<Vec<String>> = [m("app"), m("app::battles"), m("store"), vec![]]
        .into_iter()
        .collect();
    assert_eq!(
        resolve(&m("app::battles::Player"), &modules),
        Some(m("app::battles"))
    );
    assert_eq!(resolve(&m("app::Actor"), &modules), Some(m("app")));
    assert_eq!(
        module_of(Path::new("src"), Path::new("src/web/auth/session.rs")),
        m("web::auth::session")
    );
    assert_eq!(
        module_of(Path::new("src"), Path::new("src/web/auth/mod.rs")),
        m("web::auth")
    );
    assert!(
        nested(&m("app"), &m("app::battles"))
            && !nested(&m("app::battles"), &m("app::battle_record"))
    );
}
