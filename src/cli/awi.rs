//! The AWI wargames rules on the command line: `muster validate` of an order of battle
//! (`muster.awi.oob/1`), `muster catalog --system awi`.

use std::process::ExitCode;

use serde::Serialize;

use crate::rules::system::Severity;
use crate::rules::systems::awi::{self, roster::check_roster_size, Catalogue, RosterDoc};

fn catalogue() -> Result<Catalogue, String> {
    Catalogue::builtin().map_err(|e| format!("the built-in rules data is inconsistent: {e}"))
}

/// One file's check, ready for the command's three outputs.
pub struct Checked {
    pub legal: bool,
    /// The line on standard error.
    pub line: String,
    pub errors: usize,
    pub warnings: usize,
    pub first_error: String,
    /// The JSON report line on standard output.
    pub json: String,
}

#[derive(Serialize)]
struct FileReport<'a> {
    file: &'a str,
    system: &'static str,
    #[serde(flatten)]
    report: &'a awi::Report,
}

/// Checks an order of battle's text; `Err` says why it is not one.
pub fn check_text(name: &str, text: &str) -> Result<Checked, String> {
    let cat = catalogue()?;
    let doc: RosterDoc = awi::parse_roster(text)
        .and_then(|d| {
            check_roster_size(&d)?;
            Ok(d)
        })
        .map_err(|e| {
            format!(
                "not an AWI order of battle: {}{}",
                e.path.map(|p| format!("{p}: ")).unwrap_or_default(),
                e.message
            )
        })?;
    let report = awi::validate(&cat, &doc);
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count();
    let json = serde_json::to_string(&FileReport {
        file: name,
        system: "awi",
        report: &report,
    })
    .map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(Checked {
        legal: report.legal,
        line: format!(
            "{name}: {}, {} units and {} guns in {} brigades, {} bases (breaks at {} units gone), {errors} error(s), {warnings} warning(s)",
            if report.legal { "legal" } else { "ILLEGAL" },
            report.army_units,
            report.guns,
            report.brigades.len(),
            report.bases,
            report.break_threshold,
        ),
        errors,
        warnings,
        first_error: report
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error)
            .map(|f| f.message.clone())
            .unwrap_or_default(),
        json,
    })
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

fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn mods(out: &mut String, title: &str, list: &[awi::catalogue::Modifier]) {
    out.push_str(&format!("\n{title}\n"));
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|m| {
            vec![
                signed(m.value),
                m.label.clone(),
                m.ruling.clone().unwrap_or_default(),
            ]
        })
        .collect();
    table(out, &rows);
}

/// The catalogue as readable tables.
pub fn tables(c: &Catalogue) -> String {
    let mut out = format!(
        "{} (catalogue {})\n\nTroop types\n",
        c.meta.name,
        c.version()
    );
    let mut rows = vec![vec![
        "type".into(),
        "figures/base".into(),
        "base mm".into(),
        "men/base".into(),
        "order".into(),
        "arms".into(),
    ]];
    for t in &c.types {
        rows.push(vec![
            t.id.label().into(),
            t.figures_per_base.to_string(),
            format!("{}×{}", t.base_mm[0], t.base_mm[1]),
            t.men_per_base.to_string(),
            if t.close_order { "close" } else { "open" }.into(),
            t.arms.iter().map(|a| a.id()).collect::<Vec<_>>().join(", "),
        ]);
    }
    table(&mut out, &rows);
    out.push_str("\nGrades\n");
    let mut rows = vec![vec![
        "grade".into(),
        "morale dice".into(),
        "morale".into(),
        "uncontrolled".into(),
        "fire need".into(),
        "entering".into(),
        "melee need".into(),
        "losers".into(),
    ]];
    for g in &c.grades {
        rows.push(vec![
            g.id.label().into(),
            g.morale_dice.label().into(),
            signed(g.morale),
            signed(g.uncontrolled),
            signed(g.firing_need),
            signed(g.entering),
            signed(g.melee_need),
            signed(g.losers),
        ]);
    }
    table(&mut out, &rows);
    out.push_str("\nMovement (inches per move)\n");
    let opt = |v: Option<u32>| v.map_or("–".to_string(), |v| v.to_string());
    let mut rows = vec![vec![
        "".into(),
        "normal".into(),
        "charge bonus".into(),
        "charge move".into(),
        "pursuit".into(),
        "rout".into(),
    ]];
    for m in &c.movement {
        rows.push(vec![
            m.id.label().into(),
            m.normal.to_string(),
            opt(m.charge_bonus),
            opt(m.charge()),
            opt(m.pursuit),
            opt(m.rout),
        ]);
    }
    table(&mut out, &rows);
    out.push_str("\nRanges (inches, each band up to and including its figure, W-18)\n");
    let mut rows = Vec::new();
    for w in &c.weapons {
        let mut r = vec![w.id.label().to_string()];
        r.extend(
            w.bands
                .iter()
                .map(|b| format!("{} {}", b.band.label(), b.to)),
        );
        rows.push(r);
    }
    for g in &c.guns {
        let mut r = vec![g.id.label().to_string()];
        r.extend(
            g.bands
                .iter()
                .map(|b| format!("{} {}", b.band.label(), b.to)),
        );
        rows.push(r);
    }
    table(&mut out, &rows);
    out.push_str(&format!(
        "\nHitting: {} or more on a D10 after modifiers; a gun throws {} (1–2 gunners: {} die, 3–4: {} dice).\n",
        c.hit.base_need,
        "1 or 2 D10",
        c.gun_dice_for(1),
        c.gun_dice_for(4)
    ));
    mods(&mut out, "Firing: modifiers to the score needed", &c.firing);
    mods(&mut out, "Melee: modifiers to the score needed", &c.melee);
    mods(
        &mut out,
        "Morale (2D5 elite/trained, 2D6 raw/militia), reconstructed table (W-7)",
        &c.morale.modifiers,
    );
    out.push_str(&format!(
        "Results: {}\n",
        c.morale
            .bands
            .iter()
            .map(|b| format!("{} {}", b.range_label(), b.id))
            .collect::<Vec<_>>()
            .join("; ")
    ));
    mods(
        &mut out,
        "Uncontrolled movement test (D10)",
        &c.uncontrolled.modifiers,
    );
    mods(
        &mut out,
        "Entering melee test (D6; above 0 goes in)",
        &c.entering.modifiers,
    );
    mods(
        &mut out,
        &format!(
            "Melee losers test (D10; {}+ breaks and routs)",
            c.losers.break_at
        ),
        &c.losers.modifiers,
    );
    let v = &c.victory;
    out.push_str(&format!(
        "\nMuster's victory rule (W-31, W-32; not in the source): {} turns of two moves; an army breaks when half its units (guns not counted, rounded up) have routed, been destroyed or left. Points on enemy units: {} destroyed or routed off, {} routing at the end, {} at or below half strength, {} per gun lost, {} if the enemy army broke. A difference of 0–{} is a draw, up to {} a minor victory, more a major one.\n",
        v.turns, v.destroyed_or_routed_off, v.routing_at_end, v.at_or_below_half, v.gun_lost, v.enemy_broke, v.draw_max, v.minor_max
    ));
    out
}

pub fn print_catalog(json: bool) -> ExitCode {
    match catalogue() {
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
            print!("{}", tables(&c));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("muster: {e}");
            ExitCode::from(2)
        }
    }
}

// `muster simulate --system awi` and `muster calibrate --system awi`.

use std::path::Path;
use std::sync::atomic::AtomicU32;

use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::awi::{montecarlo, record, sim, Awi, BattleSetup};

use super::args::SimulateArgs;

fn read_roster(path: &Path) -> Result<RosterDoc, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
    awi::parse_roster(&text).map_err(|e| format!("{}: not an order of battle: {e}", path.display()))
}

fn build_setup(cat: &Catalogue, args: &SimulateArgs) -> Result<BattleSetup, String> {
    if let Some(path) = &args.setup {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
        let mut setup = Awi::parse_setup(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(seed) = args.seed {
            setup.seed = seed;
        }
        return Ok(setup);
    }
    let (Some(a), Some(d)) = (&args.attacker, &args.defender) else {
        return Err("give two order-of-battle files or --setup BATTLE.json".into());
    };
    let seed = args.seed.unwrap_or_else(crate::app::dice::fresh_seed);
    let p = record::prepare(
        cat,
        read_roster(a)?,
        read_roster(d)?,
        args.scenario.as_deref(),
        false,
        seed,
    )?;
    Ok(p.setup)
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
    let cat = catalogue()?;
    let setup = build_setup(&cat, args)?;
    if let Some(path) = &args.save_setup {
        std::fs::write(path, Awi::write_setup(&setup))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    let (a, d) = (&setup.attacker.roster.name, &setup.defender.roster.name);
    if let Some(runs) = args.runs {
        if runs == 0 || runs > 1_000_000 {
            return Err("--runs must be from 1 to 1000000".into());
        }
        let done = AtomicU32::new(0);
        let parts = crate::app::sim::in_parallel(
            runs,
            crate::app::sim::default_threads(),
            &done,
            |start, end, progress| montecarlo::run_range(&cat, &setup, start, end, progress),
        );
        let summary = montecarlo::merge_ranges(setup.seed, parts)?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?
            );
            return Ok(());
        }
        println!(
            "{runs} battles of {a} against {d}, seeds from {}",
            setup.seed
        );
        for (label, e) in [
            (format!("{a} wins"), summary.attacker_win),
            ("Draw".to_string(), summary.draw),
            (format!("{d} wins"), summary.defender_win),
        ] {
            println!(
                "  {label:<40} {:>7}  (95 % interval {} – {})",
                percent(e.p),
                percent(e.low),
                percent(e.high)
            );
        }
        println!(
            "  Average points (W-31): {a} {:.1}, {d} {:.1}; {:.1} moves; {} ended by an army break",
            summary.avg_attacker_vp,
            summary.avg_defender_vp,
            summary.avg_moves,
            percent(summary.ended_by_army_break)
        );
        return Ok(());
    }
    let outcome = sim::fight(&cat, &setup)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&outcome).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    for line in &outcome.log {
        println!("{line}");
    }
    println!();
    for (side, r) in [
        (BattleSide::Attacker, &outcome.attacker),
        (BattleSide::Defender, &outcome.defender),
    ] {
        let gone = r.units.iter().filter(|u| u.state.gone()).count();
        println!(
            "{} ({}): {} points, {gone} of {} units routed, gone or destroyed{}",
            r.name,
            side.id(),
            r.vp,
            r.units.len(),
            if r.broke { ", army broken" } else { "" }
        );
    }
    println!(
        "Replay: muster simulate --system awi --setup FILE --seed {}",
        setup.seed
    );
    Ok(())
}

/// `muster calibrate --system awi`: the calibration table (issue item 6).
pub fn calibrate(battles: u32, json: bool) -> ExitCode {
    match run_calibration(battles, json) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("muster calibrate: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_calibration(battles: u32, json: bool) -> Result<bool, String> {
    if battles == 0 || battles > 1_000_000 {
        return Err("--battles must be from 1 to 1000000".into());
    }
    let cat = catalogue()?;
    let examples = Awi::starting_rosters(&cat);
    let mut all_ok = true;
    let mut rows = Vec::new();
    if !json {
        println!("| match | battles | measure | share | 95 % interval | bound | ok |");
        println!("|---|---|---|---|---|---|---|");
    }
    for (i, m) in montecarlo::calibration_matches(&examples)
        .iter()
        .enumerate()
    {
        let done = AtomicU32::new(0);
        let base = montecarlo::battle_seed(0x00A1_7E57, i as u32);
        let parts = crate::app::sim::in_parallel(
            battles,
            crate::app::sim::default_threads(),
            &done,
            |start, end, progress| montecarlo::run_match(&cat, m, base, start, end, progress),
        );
        let mut t = montecarlo::MatchTally::default();
        for p in parts {
            t.merge(&p?);
        }
        let (e, ok) = t.judge(m.kind);
        all_ok &= ok;
        let (measure, bound) = match m.kind {
            montecarlo::MatchKind::Mirror => ("side A's share of decisive results", "40–60 %"),
            montecarlo::MatchKind::TwoToOne => ("larger force wins (draws not won)", "> 85 %"),
        };
        if json {
            rows.push(serde_json::json!({
                "match": m.name, "kind": m.kind, "battles": t.battles, "a_wins": t.a_wins,
                "b_wins": t.b_wins, "share": e.p, "low": e.low, "high": e.high, "ok": ok,
            }));
        } else {
            println!(
                "| {} | {} | {measure} | {} | {} – {} | {bound} | {} |",
                m.name,
                t.battles,
                percent(e.p),
                percent(e.low),
                percent(e.high),
                if ok { "yes" } else { "NO" }
            );
        }
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?
        );
    }
    Ok(all_ok)
}
