//! `muster validate`, `muster catalog` for All the King's Men (and, as they come, `simulate`
//! and `calibrate --system atkm`).

use std::process::ExitCode;

use serde::Serialize;

use crate::rules::system::Severity;
use crate::rules::systems::atkm::{self, Catalogue};

fn catalogue() -> Result<Catalogue, String> {
    Catalogue::builtin().map_err(|e| format!("the built-in rules data is inconsistent: {e}"))
}

/// Reads and checks one roster document; the error says why it is not one.
pub fn check_text(text: &str) -> Result<atkm::Report, String> {
    let cat = catalogue()?;
    let doc = atkm::parse_roster(text)
        .and_then(|doc| {
            atkm::roster::check_roster_size(&doc)?;
            Ok(doc)
        })
        .map_err(|e| {
            format!(
                "not an All the King's Men roster: {}{}",
                e.path.map(|p| format!("{p}: ")).unwrap_or_default(),
                e.message
            )
        })?;
    Ok(atkm::validate(&cat, &doc))
}

#[derive(Serialize)]
struct FileReport<'a> {
    file: &'a str,
    system: &'static str,
    #[serde(flatten)]
    report: &'a atkm::Report,
}

/// Prints one checked file (a CSV line or a JSON line, and a summary on standard error).
pub fn print_report(name: &str, report: &atkm::Report, csv: bool, csv_field: fn(&str) -> String) {
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = report.findings.len() - errors;
    eprintln!(
        "{name}: {}, {} units (the army collapses at {} left), {errors} error(s), {warnings} warning(s)",
        if report.legal { "legal" } else { "ILLEGAL" },
        report.units,
        report.army_breaks_at,
    );
    if csv {
        let first = report
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error)
            .map(|f| f.message.as_str())
            .unwrap_or("");
        println!(
            "{},checked,{},,,{errors},{warnings},{}",
            csv_field(name),
            report.legal,
            csv_field(first)
        );
    } else {
        let out = FileReport {
            file: name,
            system: "atkm",
            report,
        };
        match serde_json::to_string(&out) {
            Ok(line) => println!("{line}"),
            Err(e) => eprintln!("{name}: cannot write the report: {e}"),
        }
    }
}

/// `muster catalog --system atkm`.
pub fn print_catalog(json: bool) -> ExitCode {
    let c = match catalogue() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("muster: {e}");
            return ExitCode::from(2);
        }
    };
    if json {
        return match serde_json::to_string_pretty(&c) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("muster: cannot write the catalogue: {e}");
                ExitCode::from(2)
            }
        };
    }
    print!("{}", tables(&c));
    ExitCode::SUCCESS
}

fn cell(v: Option<u32>) -> String {
    v.map_or("—".into(), |n| n.to_string())
}

fn pad(out: &mut String, rows: &[Vec<String>]) {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
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

/// The catalogue as readable tables.
pub fn tables(c: &Catalogue) -> String {
    use atkm::types::MeleeTarget;
    let t = &c.tables;
    let mut out = format!("All the King's Men catalogue {}\n", c.version());
    out.push_str("\nColours (dice succeed on)\n");
    let rows: Vec<Vec<String>> = t
        .colours
        .iter()
        .map(|r| vec![r.id.label().into(), format!("{}+", r.succeeds_on)])
        .collect();
    pad(&mut out, &rows);
    out.push_str("\nUnit types (rank and file + officer + ensign; collapses at the break point)\n");
    let mut rows = vec![vec![
        "type".into(),
        "rank and file".into(),
        "break".into(),
        "line".into(),
        "column".into(),
        "loose".into(),
        "fire dice".into(),
        "range".into(),
        "rule".into(),
        "ruling".into(),
    ]];
    for r in &t.unit_types {
        rows.push(vec![
            r.name.clone(),
            format!("{} {}", r.rank_and_file, r.men),
            r.break_point.to_string(),
            cell(r.moves.line),
            cell(r.moves.column),
            cell(r.moves.loose),
            if r.can_fire {
                format!("{}/1", r.fire_dice)
            } else {
                "cannot fire".into()
            },
            if r.can_fire {
                format!("{}\"", r.range)
            } else {
                "—".into()
            },
            r.rule.map_or(String::new(), |x| x.label().to_string()),
            r.restored.clone().unwrap_or_default(),
        ]);
    }
    pad(&mut out, &rows);
    out.push_str(&format!(
        "Woodland Indians: {} warriors ({} to {}), collapse at half.\n",
        t.woodland_indians_size.dice, t.woodland_indians_size.min, t.woodland_indians_size.max
    ));
    out.push_str(&format!(
        "\nArtillery within {}\" rolls {} dice a gunner.\nGuns\n",
        t.fire_dice.artillery_close_range, t.fire_dice.artillery_close_dice
    ));
    let mut rows = vec![vec![
        "gun".into(),
        "foot range".into(),
        "horse range".into(),
        "close dice".into(),
        "close bonus".into(),
        "move and fire".into(),
    ]];
    for g in &t.guns {
        rows.push(vec![
            g.name.clone(),
            format!("{}\"", g.foot_range),
            g.horse_range.map_or("never".into(), |r| format!("{r}\"")),
            format!("{}/1", g.close_dice),
            format!("+{}", g.close_bonus),
            if g.move_and_fire { "yes" } else { "no" }.into(),
        ]);
    }
    pad(&mut out, &rows);
    out.push_str("\nMelee dice per figure (attacker / defender 1)\n");
    let mut rows = vec![vec!["attacker \\ defender".to_string()]];
    rows[0].extend(MeleeTarget::ALL.iter().map(|m| m.label().to_string()));
    for m in &t.melee_dice {
        let mut row = vec![m.attacker.label().to_string()];
        row.extend(MeleeTarget::ALL.iter().map(|d| {
            m.against(*d)
                .map_or("may not attack".into(), |n| format!("{n}/1"))
        }));
        rows.push(row);
    }
    pad(&mut out, &rows);
    out.push_str("\nBonus dice (K-23)\n");
    let rows: Vec<Vec<String>> = t
        .bonus_dice
        .iter()
        .map(|b| {
            vec![
                b.id.clone(),
                b.side.clone(),
                format!("+{}", b.dice),
                b.applies.clone(),
            ]
        })
        .collect();
    pad(&mut out, &rows);
    out.push_str("\nRandom forces\n");
    let rt = &t.random_tables;
    for (name, table) in [
        ("unit type (2d6)", &rt.unit_type),
        ("artillery kind (d6)", &rt.artillery_kind),
        ("gun size (2d6)", &rt.artillery_size),
        ("quality (d6)", &rt.unit_quality),
        ("general's rating (d6)", &rt.general_rating),
    ] {
        let bands: Vec<String> = table
            .iter()
            .map(|b| {
                let roll = if b.from == b.to {
                    b.from.to_string()
                } else {
                    format!("{}-{}", b.from, b.to)
                };
                let mark = b
                    .restored
                    .as_deref()
                    .map_or(String::new(), |k| format!(" ({k})"));
                format!("{roll} {}{mark}", b.result)
            })
            .collect();
        out.push_str(&format!("  {name}: {}\n", bands.join(", ")));
    }
    out.push_str("\nQualities (K-7)\n");
    for q in &t.qualities {
        out.push_str(&format!(
            "  {}: defence {} ({})\n",
            q.name,
            match q.shift {
                s if s < 0 => "one colour better",
                0 => "unchanged",
                _ => "one colour worse",
            },
            q.words.join(", ")
        ));
    }
    out.push_str("\nSpecial cards\n");
    for s in &t.special_cards {
        out.push_str(&format!("  {}: {}\n", s.card, s.effect));
    }
    out.push_str("\nSample battles\n");
    for s in &c.scenarios {
        out.push_str(&format!(
            "  {} ({}), at most {} turns: {}\n",
            s.name,
            s.id,
            s.turn_limit,
            s.sides.values().cloned().collect::<Vec<_>>().join(" v ")
        ));
    }
    out
}

fn read_roster(path: &std::path::Path) -> Result<atkm::RosterDoc, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
    atkm::parse_roster(&text).map_err(|e| format!("{}: not a roster: {e}", path.display()))
}

fn build_setup(
    cat: &Catalogue,
    args: &super::args::SimulateArgs,
) -> Result<atkm::BattleSetup, String> {
    use crate::rules::system::RuleSystem;
    if let Some(path) = &args.setup {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
        let mut setup =
            atkm::Atkm::parse_setup(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(seed) = args.seed {
            setup.seed = seed;
        }
        return Ok(setup);
    }
    let (Some(a), Some(d)) = (&args.attacker, &args.defender) else {
        return Err("give two roster files (attacker, defender) or --setup BATTLE.json".into());
    };
    let seed = args.seed.unwrap_or_else(crate::app::dice::fresh_seed);
    let p = atkm::battle::prepare(
        cat,
        read_roster(a)?,
        read_roster(d)?,
        args.scenario.as_deref(),
        false,
        seed,
    )?;
    Ok(p.setup)
}

/// `muster simulate --system atkm`: one narrated battle, or many with --runs.
pub fn simulate(args: super::args::SimulateArgs) -> ExitCode {
    match run_simulation(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("muster simulate: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_simulation(args: &super::args::SimulateArgs) -> Result<(), String> {
    use crate::rules::system::RuleSystem;
    let cat = catalogue()?;
    let setup = build_setup(&cat, args)?;
    if let Some(path) = &args.save_setup {
        std::fs::write(path, atkm::Atkm::write_setup(&setup))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    if let Some(runs) = args.runs {
        if runs == 0 || runs > 1_000_000 {
            return Err("--runs must be from 1 to 1000000".into());
        }
        let t = atkm::montecarlo::run_range(&cat, &setup, 0, runs, &mut |_| {})?;
        let s = atkm::montecarlo::merge_ranges(setup.seed, vec![Ok(t)])?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?
            );
        } else {
            println!(
                "{} battles: {} wins {:.1} % [{:.1}–{:.1}], {} wins {:.1} % [{:.1}–{:.1}], draws {:.1} %; {:.1} turns on average",
                s.runs,
                setup.attacker.roster.name,
                s.attacker.p * 100.0,
                s.attacker.low * 100.0,
                s.attacker.high * 100.0,
                setup.defender.roster.name,
                s.defender.p * 100.0,
                s.defender.low * 100.0,
                s.defender.high * 100.0,
                s.draw.p * 100.0,
                s.mean_turns
            );
        }
        return Ok(());
    }
    let o = atkm::sim::fight(&cat, &setup)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&o).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    for line in &o.log {
        println!("{line}");
    }
    let winner = match o.winner {
        Some(s) => setup.force(s).roster.name.clone(),
        None => "nobody (a draw)".into(),
    };
    println!(
        "Result: {winner}, {} after {} turns: {}. Seed {}.",
        o.level, o.turns_played, o.reason, setup.seed
    );
    Ok(())
}

/// `muster calibrate --system atkm`: the policy's calibration table.
pub fn calibrate(battles: u32, json: bool) -> ExitCode {
    if battles == 0 || battles > 1_000_000 {
        eprintln!("muster calibrate: --battles must be from 1 to 1000000");
        return ExitCode::from(2);
    }
    let rows = match catalogue().and_then(|c| atkm::montecarlo::calibrate(&c, battles)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("muster calibrate: {e}");
            return ExitCode::from(2);
        }
    };
    if json {
        match serde_json::to_string_pretty(&rows) {
            Ok(t) => println!("{t}"),
            Err(e) => eprintln!("muster calibrate: {e}"),
        }
    } else {
        println!("| match | battles | measure | share | 95 % interval | bound | draws | ok |");
        println!("|---|---|---|---|---|---|---|---|");
        for r in &rows {
            println!(
                "| {} | {} | {} | {:.1} % | {:.1}–{:.1} % | {} | {} | {} |",
                r.name,
                r.battles,
                r.measure,
                r.share.p * 100.0,
                r.share.low * 100.0,
                r.share.high * 100.0,
                r.bound,
                r.draws,
                if r.ok { "yes" } else { "NO" }
            );
        }
    }
    if rows.iter().all(|r| r.ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
