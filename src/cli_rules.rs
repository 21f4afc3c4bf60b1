//! `muster validate` and `muster catalog`: the rules core on the command line.

use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::rules::lotf::{self, Catalogue, Report, Severity};

#[derive(Serialize)]
struct FileReport<'a> {
    file: String,
    legal: bool,
    points: PointsOut<'a>,
    findings: &'a [lotf::Finding],
}

#[derive(Serialize)]
struct PointsOut<'a> {
    total: u32,
    limit: Option<u32>,
    by_group: &'a [lotf::GroupPoints],
}

enum Outcome {
    Checked(Report),
    /// The file could not be read, or is not a roster; the text says why.
    Unusable(String),
}

fn check_file(catalogue: &Catalogue, path: &Path) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return Outcome::Unusable(format!("cannot read the file: {e}")),
    };
    match lotf::parse_roster(&text) {
        Ok(doc) => Outcome::Checked(lotf::validate(catalogue, &doc)),
        Err(e) => Outcome::Unusable(format!("not a roster: {e}")),
    }
}

fn counts(report: &Report) -> (usize, usize) {
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    (errors, report.findings.len() - errors)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn validate_files(files: &[std::path::PathBuf], csv: bool) -> ExitCode {
    let catalogue = match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("muster: the built-in rules data is inconsistent: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut any_illegal, mut any_unusable) = (false, false);
    if csv {
        println!("file,status,legal,points,limit,errors,warnings,first_problem");
    }
    for path in files {
        let name = path.display().to_string();
        match check_file(&catalogue, path) {
            Outcome::Unusable(reason) => {
                any_unusable = true;
                eprintln!("{name}: {reason}");
                if csv {
                    println!(
                        "{},unreadable,,,,,,{}",
                        csv_field(&name),
                        csv_field(&reason)
                    );
                }
            }
            Outcome::Checked(report) => {
                any_illegal |= !report.legal;
                let (errors, warnings) = counts(&report);
                let limit = report
                    .points
                    .limit
                    .map(|l| l.to_string())
                    .unwrap_or_else(|| "no limit".into());
                eprintln!(
                    "{name}: {}, {} / {limit} points, {errors} error(s), {warnings} warning(s)",
                    if report.legal { "legal" } else { "ILLEGAL" },
                    report.points.total,
                );
                if csv {
                    let first = report
                        .findings
                        .iter()
                        .find(|f| f.severity == Severity::Error)
                        .map(|f| f.message.as_str())
                        .unwrap_or("");
                    println!(
                        "{},checked,{},{},{},{errors},{warnings},{}",
                        csv_field(&name),
                        report.legal,
                        report.points.total,
                        report
                            .points
                            .limit
                            .map(|l| l.to_string())
                            .unwrap_or_default(),
                        csv_field(first)
                    );
                } else {
                    let out = FileReport {
                        file: name,
                        legal: report.legal,
                        points: PointsOut {
                            total: report.points.total,
                            limit: report.points.limit,
                            by_group: &report.points.by_group,
                        },
                        findings: &report.findings,
                    };
                    match serde_json::to_string(&out) {
                        Ok(line) => println!("{line}"),
                        Err(e) => eprintln!("{}: cannot write the report: {e}", path.display()),
                    }
                }
            }
        }
    }
    if any_unusable {
        ExitCode::from(2)
    } else if any_illegal {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn print_catalog(json: bool) -> ExitCode {
    match Catalogue::builtin() {
        Ok(c) if json => {
            println!("{}", c.to_json());
            ExitCode::SUCCESS
        }
        Ok(c) => {
            print!("{}", c.render_text());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("muster: the built-in rules data is inconsistent: {e}");
            ExitCode::from(2)
        }
    }
}
