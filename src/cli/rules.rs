//! `muster validate`, `muster simulate` and `muster catalog`: the rules core
//! on the command line.

use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::rules::systems::lod;
use crate::rules::systems::lotf::{self, Catalogue, Report, Severity};
use crate::rules::SystemId;

use super::args::SimulateArgs;

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

/// A Liberty or Death! report line: no points, the derived figures instead.
#[derive(Serialize)]
struct LodFileReport<'a> {
    file: String,
    system: &'static str,
    #[serde(flatten)]
    report: &'a lod::Report,
}

enum Outcome {
    Checked(Report),
    CheckedLod(lod::Report),
    /// A system's own check, ready to print (the AWI wargames rules).
    CheckedOther(super::awi::Checked),
    CheckedAtkm(crate::rules::systems::atkm::Report),
    CheckedOibl(crate::rules::systems::oibl::Report),
    /// The file could not be read, or is not a roster; the text says why.
    Unusable(String),
}

fn check_file(catalogue: &Catalogue, path: &Path, forced: Option<SystemId>) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return Outcome::Unusable(format!("cannot read the file: {e}")),
    };
    // A file that names no system is read as the default system, whose reader says what is
    // wrong with it.
    let system = forced
        .or_else(|| SystemId::of_document(&text))
        .unwrap_or(SystemId::Lotf);
    if system == SystemId::Lod {
        return check_lod(&text);
    }
    if system == SystemId::Awi {
        return match super::awi::check_text(&path.display().to_string(), &text) {
            Ok(c) => Outcome::CheckedOther(c),
            Err(e) => Outcome::Unusable(e),
        };
    }
    if system == SystemId::Atkm {
        return match super::atkm::check_text(&text) {
            Ok(report) => Outcome::CheckedAtkm(report),
            Err(e) => Outcome::Unusable(e),
        };
    }
    if system == SystemId::Oibl {
        return match super::oibl::check(&text) {
            Ok(report) => Outcome::CheckedOibl(report),
            Err(e) => Outcome::Unusable(e),
        };
    }
    match lotf::parse_roster(&text) {
        Ok(doc) => Outcome::Checked(lotf::validate(catalogue, &doc)),
        Err(e) => Outcome::Unusable(format!("not a roster: {e}")),
    }
}

fn check_lod(text: &str) -> Outcome {
    let catalogue = match lod::Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Unusable(format!("the built-in rules data is inconsistent: {e}"))
        }
    };
    let doc = lod::parse_roster(text).and_then(|doc| {
        lod::roster::check_roster_size(&doc)?;
        Ok(doc)
    });
    match doc {
        Ok(doc) => Outcome::CheckedLod(lod::validate(&catalogue, &doc, lod::Setting::Standalone)),
        Err(e) => Outcome::Unusable(format!(
            "not a Liberty or Death! roster: {}{}",
            e.path.map(|p| format!("{p}: ")).unwrap_or_default(),
            e.message
        )),
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

pub fn validate_files(
    files: &[std::path::PathBuf],
    csv: bool,
    system: Option<SystemId>,
) -> ExitCode {
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
        match check_file(&catalogue, path, system) {
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
            Outcome::CheckedOther(c) => {
                any_illegal |= !c.legal;
                eprintln!("{}", c.line);
                if csv {
                    println!(
                        "{},checked,{},,,{},{},{}",
                        csv_field(&name),
                        c.legal,
                        c.errors,
                        c.warnings,
                        csv_field(&c.first_error)
                    );
                } else {
                    println!("{}", c.json);
                }
            }
            Outcome::CheckedAtkm(report) => {
                any_illegal |= !report.legal;
                super::atkm::print_report(&name, &report, csv, csv_field);
            }
            Outcome::CheckedLod(report) => {
                any_illegal |= !report.legal;
                let errors = report
                    .findings
                    .iter()
                    .filter(|f| f.severity == crate::rules::system::Severity::Error)
                    .count();
                let warnings = report.findings.len() - errors;
                eprintln!(
                    "{name}: {}, {} units in {} brigades (break point {}), {errors} error(s), {warnings} warning(s)",
                    if report.legal { "legal" } else { "ILLEGAL" },
                    report.units,
                    report.brigades,
                    report.break_point,
                );
                if csv {
                    let first = report
                        .findings
                        .iter()
                        .find(|f| f.severity == crate::rules::system::Severity::Error)
                        .map(|f| f.message.as_str())
                        .unwrap_or("");
                    println!(
                        "{},checked,{},,,{errors},{warnings},{}",
                        csv_field(&name),
                        report.legal,
                        csv_field(first)
                    );
                } else {
                    let out = LodFileReport {
                        file: name,
                        system: "lod",
                        report: &report,
                    };
                    match serde_json::to_string(&out) {
                        Ok(line) => println!("{line}"),
                        Err(e) => eprintln!("{}: cannot write the report: {e}", path.display()),
                    }
                }
            }
            Outcome::CheckedOibl(report) => {
                any_illegal |= !report.legal;
                let errors = report
                    .findings
                    .iter()
                    .filter(|f| f.severity == crate::rules::system::Severity::Error)
                    .count();
                let warnings = report.findings.len() - errors;
                eprintln!(
                    "{name}: {}, {} units in {} brigades, {} figures, {errors} error(s), {warnings} warning(s)",
                    if report.legal { "legal" } else { "ILLEGAL" },
                    report.units,
                    report.brigades,
                    report.figures,
                );
                if csv {
                    let first = report
                        .findings
                        .iter()
                        .find(|f| f.severity == crate::rules::system::Severity::Error)
                        .map(|f| f.message.as_str())
                        .unwrap_or("");
                    println!(
                        "{},checked,{},,,{errors},{warnings},{}",
                        csv_field(&name),
                        report.legal,
                        csv_field(first)
                    );
                } else {
                    #[derive(Serialize)]
                    struct OiblFileReport<'a> {
                        file: String,
                        system: &'static str,
                        #[serde(flatten)]
                        report: &'a crate::rules::systems::oibl::Report,
                    }
                    let out = OiblFileReport {
                        file: name,
                        system: "oibl",
                        report: &report,
                    };
                    match serde_json::to_string(&out) {
                        Ok(line) => println!("{line}"),
                        Err(e) => eprintln!("{}: cannot write the report: {e}", path.display()),
                    }
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

pub fn print_catalog(json: bool, system: SystemId) -> ExitCode {
    if system == SystemId::Lod {
        return print_lod_catalog(json);
    }
    if system == SystemId::Awi {
        return super::awi::print_catalog(json);
    }
    if system == SystemId::Atkm {
        return super::atkm::print_catalog(json);
    }
    if system == SystemId::Oibl {
        return super::oibl::print_catalog(json);
    }
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

fn print_lod_catalog(json: bool) -> ExitCode {
    match lod::Catalogue::builtin() {
        Ok(c) if json => match serde_json::to_string_pretty(&c) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("muster: cannot write the catalogue: {e}");
                ExitCode::from(2)
            }
        },
        Ok(c) => {
            print!("{}", lod_tables(&c));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("muster: the built-in rules data is inconsistent: {e}");
            ExitCode::from(2)
        }
    }
}

/// Rows padded into columns.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..rows.iter().map(Vec::len).max().unwrap_or(0))
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths[i]))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
}

/// The Liberty or Death! catalogue as readable tables.
fn lod_tables(c: &lod::Catalogue) -> String {
    let mut out = format!("Liberty or Death! catalogue {}\n", c.version());
    out.push_str("\nUnit kinds (sizes: bases = WORN/SHAKEN/AUTO BROKEN hits; dice per base)\n");
    let mut rows = vec![vec![
        "kind".into(),
        "base".into(),
        "per base".into(),
        "sizes".into(),
        "shooting".into(),
        "melee".into(),
        "supporting".into(),
    ]];
    for k in &c.kinds {
        rows.push(vec![
            k.name.clone(),
            format!("{}×{} mm", k.base_mm[0], k.base_mm[1]),
            if k.figures_per_base == 1 {
                format!("1 {}", k.figure_word.trim_end_matches('s'))
            } else {
                format!("{} {}", k.figures_per_base, k.figure_word)
            },
            k.sizes
                .iter()
                .map(|s| format!("{} = {}/{}/{}", s.bases, s.worn, s.shaken, s.auto_broken))
                .collect::<Vec<_>>()
                .join(" · "),
            k.dice.shooting.to_string(),
            k.dice.melee.to_string(),
            k.dice.supporting_melee.to_string(),
        ]);
    }
    table(&mut out, &rows);
    out.push_str("\nQualities (to-hit on a D6; test dice successes)\n");
    let faces = |f: &[u8]| f.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    let mut rows = vec![vec![
        "quality".into(),
        "shooting".into(),
        "melee".into(),
        "1 success on".into(),
        "2 successes on".into(),
    ]];
    for q in &c.qualities {
        rows.push(vec![
            q.name.clone(),
            format!("{}+", q.shooting_to_hit),
            format!("{}+", q.melee_to_hit),
            faces(&q.one_success),
            faces(&q.two_successes),
        ]);
    }
    table(&mut out, &rows);
    out.push_str("\nWeapons (ranges in inches)\n");
    let band = |b: [u32; 2]| format!("{}–{}", b[0], b[1]);
    let mut rows = vec![vec![
        "weapon".into(),
        "short".into(),
        "effective".into(),
        "long".into(),
        "each hit".into(),
    ]];
    for w in &c.weapons {
        rows.push(vec![
            w.name.clone(),
            band(w.short),
            band(w.effective),
            band(w.long),
            w.explodes
                .map_or_else(|| "1".to_string(), |d| d.label().to_string()),
        ]);
    }
    table(&mut out, &rows);
    out.push_str(&format!(
        "Canister at {}: each hit becomes {} instead.\n",
        band(c.canister.range),
        c.canister.explodes.label()
    ));
    out.push_str("\nSpecial rules\n");
    let rows: Vec<Vec<String>> = c
        .special_rules
        .iter()
        .map(|r| vec![r.name.clone(), r.summary.clone()])
        .collect();
    table(&mut out, &rows);
    for list in &c.lists {
        let allies: Vec<&str> = list
            .allies
            .iter()
            .map(|a| c.list(*a).name.as_str())
            .collect();
        out.push_str(&format!(
            "\n{} army list{}\n",
            list.name,
            if allies.is_empty() {
                String::new()
            } else {
                format!(" (may field {} entries as allies)", allies.join(", "))
            }
        ));
        let mut rows = vec![vec![
            "entry".into(),
            "id".into(),
            "type".into(),
            "bases".into(),
            "weapon".into(),
            "special rules".into(),
            "options".into(),
        ]];
        for e in &list.entries {
            rows.push(vec![
                e.name.clone(),
                e.id.clone(),
                format!("{} {}", e.quality.label(), e.kind.label()),
                e.bases
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
                c.weapon(e.weapon).name.clone(),
                e.rules
                    .iter()
                    .map(|r| r.label())
                    .collect::<Vec<_>>()
                    .join(", "),
                e.options
                    .iter()
                    .map(|o| o.label())
                    .collect::<Vec<_>>()
                    .join(", "),
            ]);
        }
        table(&mut out, &rows);
    }
    out
}

fn read_roster_file(path: &Path) -> Result<lotf::RosterDoc, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
    lotf::parse_roster(&text).map_err(|e| format!("{}: not a roster: {e}", path.display()))
}

fn build_setup(args: &SimulateArgs) -> Result<lotf::BattleSetup, String> {
    if let Some(path) = &args.setup {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
        let mut setup =
            lotf::parse_battle(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(seed) = args.seed {
            setup.seed = seed;
        }
        return Ok(setup);
    }
    let (Some(a), Some(d)) = (&args.attacker, &args.defender) else {
        return Err("give two roster files (attacker, defender) or --setup BATTLE.json".into());
    };
    let scenario = match &args.scenario {
        None => lotf::ScenarioId::TakeTheField,
        Some(id) => lotf::ScenarioId::from_id(id).ok_or_else(|| {
            let all: Vec<&str> = lotf::ScenarioId::ALL.iter().map(|s| s.id()).collect();
            format!("unknown scenario '{id}'; choose one of {}", all.join(", "))
        })?,
    };
    let seed = args.seed.unwrap_or_else(crate::app::dice::fresh_seed);
    let mut setup =
        lotf::BattleSetup::new(read_roster_file(a)?, read_roster_file(d)?, scenario, seed);
    setup.points = args.points;
    setup.check().map_err(|e| e.to_string())?;
    Ok(setup)
}

fn percent(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// Fights one battle (or many with --runs) and prints what happened.
pub fn simulate(args: SimulateArgs) -> ExitCode {
    match run_simulation(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("muster simulate: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_simulation(args: &SimulateArgs) -> Result<(), String> {
    // The other systems' simulators answer in their own modules; one without a simulator is
    // told so rather than fought with Land of the Free's.
    if args.system != SystemId::Lotf {
        return Err(format!(
            "{} has no battle simulator in this version of Muster",
            args.system.label()
        ));
    }
    let catalogue = Catalogue::builtin()
        .map_err(|e| format!("the built-in rules data is inconsistent: {e}"))?;
    let setup = build_setup(args)?;
    if let Some(path) = &args.save_setup {
        std::fs::write(path, lotf::serialize_battle(&setup))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    if let Some(runs) = args.runs {
        if runs == 0 || runs > 1_000_000 {
            return Err("--runs must be from 1 to 1000000".into());
        }
        return print_odds(&catalogue, &setup, runs, args.json);
    }
    let outcome = lotf::simulate(&catalogue, &setup, !args.json).map_err(|e| e.to_string())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&outcome).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let (a, d) = (&setup.attacker.roster.name, &setup.defender.roster.name);
    println!(
        "{a} (attacker) against {d} (defender): {}, {} points, seed {}",
        setup.scenario.id(),
        outcome.points_size,
        outcome.seed
    );
    let mut turn = u32::MAX;
    for line in &outcome.log {
        if line.turn != turn {
            turn = line.turn;
            println!("\n-- Turn {turn} --");
        }
        println!("{}", line.text);
    }
    println!();
    match outcome.winner {
        Some(side) => println!(
            "{} wins: {} ({}:{} victory points)",
            if side == lotf::Side::Attacker { a } else { d },
            outcome.victory_level.id(),
            outcome.attacker_vp.max(outcome.defender_vp),
            outcome.attacker_vp.min(outcome.defender_vp)
        ),
        None => println!(
            "A tie ({}:{} victory points)",
            outcome.attacker_vp, outcome.defender_vp
        ),
    }
    println!("{}", outcome.arithmetic);
    println!(
        "Points lost: {a} {}, {d} {}",
        outcome.attacker_points_lost, outcome.defender_points_lost
    );
    for c in outcome.commanders.iter().filter(|c| c.killed) {
        println!(
            "{} ({}) fell{}.",
            c.name,
            c.role,
            c.killed_turn
                .map(|t| format!(" in turn {t}"))
                .unwrap_or_default()
        );
    }
    println!(
        "Replay: muster simulate ... --seed {} (engine {})",
        outcome.seed, outcome.engine_version
    );
    Ok(())
}

fn print_odds(
    catalogue: &Catalogue,
    setup: &lotf::BattleSetup,
    runs: u32,
    json: bool,
) -> Result<(), String> {
    use std::io::{IsTerminal, Write};
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
    let done = AtomicU32::new(0);
    let finished = AtomicBool::new(false);
    let summary = std::thread::scope(|scope| {
        let bar = scope.spawn(|| {
            let tty = std::io::stderr().is_terminal();
            let mut last_shown = u32::MAX;
            while !finished.load(Ordering::Relaxed) {
                let n = done.load(Ordering::Relaxed);
                if n != last_shown {
                    let filled = (n as u64 * 30 / runs as u64) as usize;
                    let line = format!(
                        "[{}{}] {n}/{runs} battles",
                        "#".repeat(filled),
                        "-".repeat(30 - filled)
                    );
                    if tty {
                        eprint!("\r{line}");
                    } else if n == 0
                        || n == runs
                        || filled != (last_shown.min(runs) as u64 * 30 / runs as u64) as usize
                    {
                        eprintln!("{line}");
                    }
                    let _ = std::io::stderr().flush();
                    last_shown = n;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            if tty {
                eprintln!("\r[{}] {runs}/{runs} battles", "#".repeat(30));
            } else if last_shown != runs {
                eprintln!("[{}] {runs}/{runs} battles", "#".repeat(30));
            }
        });
        let ranges = match lotf::OddsRun::new(catalogue, setup) {
            Ok(run) => crate::app::sim::in_parallel(
                runs,
                crate::app::sim::default_threads(),
                &done,
                |start, end, progress| run.range(start, end, progress),
            ),
            Err(e) => vec![Err(e)],
        };
        let result = lotf::merge_ranges(setup.seed, ranges);
        finished.store(true, Ordering::Relaxed);
        let _ = bar.join();
        result
    })
    .map_err(|e| e.to_string())?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let (a, d) = (&setup.attacker.roster.name, &setup.defender.roster.name);
    println!(
        "{runs} battles of {a} (attacker) against {d} (defender), {}, seeds from {}",
        setup.scenario.id(),
        setup.seed
    );
    for (label, e) in [
        (format!("{a} wins"), summary.attacker_win),
        ("Draw".to_string(), summary.draw),
        (format!("{d} wins"), summary.defender_win),
    ] {
        println!(
            "  {label:<32} {:>7}  (95 % interval {} – {})",
            percent(e.p),
            percent(e.low),
            percent(e.high)
        );
    }
    println!(
        "  Average points lost: {a} {:.1}, {d} {:.1}",
        summary.avg_attacker_points_lost, summary.avg_defender_points_lost
    );
    Ok(())
}
