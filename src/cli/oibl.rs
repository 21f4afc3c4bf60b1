//! `muster catalog --system oibl`, `muster validate` of `muster.oibl.roster/1` files,
//! `muster simulate --system oibl` and `muster calibrate --system oibl`: One if by Land on the
//! command line.

use std::process::ExitCode;

use crate::rules::systems::oibl::{self, Catalogue};

fn catalogue() -> Result<Catalogue, String> {
    Catalogue::builtin().map_err(|e| format!("the built-in rules data is inconsistent: {e}"))
}

/// Reads and checks one roster text.
pub fn check(text: &str) -> Result<oibl::Report, String> {
    let cat = catalogue()?;
    let doc = oibl::parse_roster(text)
        .and_then(|doc| {
            oibl::roster::check_roster_size(&doc)?;
            Ok(doc)
        })
        .map_err(|e| {
            format!(
                "not a One if by Land roster: {}{}",
                e.path.map(|p| format!("{p}: ")).unwrap_or_default(),
                e.message
            )
        })?;
    Ok(oibl::validate(&cat, &doc))
}

/// Rows padded into columns.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
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
    let mut out = format!("One if by Land catalogue {}\n", c.version());
    out.push_str("\nCombat Table (figures rolling × Modified Die Roll = figures removed; B-2)\n");
    let mut rows = vec![std::iter::once("figures".to_string())
        .chain((0..=c.combat_table.max_mdr).map(|m| m.to_string()))
        .collect::<Vec<_>>()];
    for r in &c.combat_table.rows {
        rows.push(
            std::iter::once(format!("{}-{}", r.min, r.max))
                .chain(r.cells.iter().map(u32::to_string))
                .collect(),
        );
    }
    table(&mut out, &rows);
    out.push_str("\nTroop quality\n");
    let mut rows = vec![vec![
        "quality".to_string(),
        "Morale Number".into(),
        "firing".into(),
    ]];
    for q in &c.qualities {
        rows.push(vec![
            q.name.clone(),
            q.morale_number.to_string(),
            format!("{:+}", q.fire_modifier),
        ]);
    }
    table(&mut out, &rows);
    for (title, list) in [
        ("Firing modifiers", &c.fire_modifiers),
        ("Melee modifiers", &c.melee_modifiers),
        ("Morale test modifiers (minus is good)", &c.morale_modifiers),
    ] {
        out.push_str(&format!("\n{title}\n"));
        let rows: Vec<Vec<String>> = list
            .iter()
            .map(|m| {
                vec![
                    m.id.clone(),
                    if m.id == "commander_with_unit" {
                        "-X".into()
                    } else {
                        format!("{:+}", m.value)
                    },
                    m.words.clone(),
                ]
            })
            .collect();
        table(&mut out, &rows);
    }
    out.push_str("\nMovement (inches)\n");
    let rows: Vec<Vec<String>> = c
        .movement
        .iter()
        .map(|m| {
            vec![
                m.words.clone(),
                if m.die {
                    format!("1d6+{}", m.base)
                } else {
                    format!("{}", m.base)
                },
                format!("fixed {}", m.fixed),
            ]
        })
        .collect();
    table(&mut out, &rows);
    out.push_str("\nWeapons\n");
    let rows: Vec<Vec<String>> = c
        .weapons
        .iter()
        .map(|w| vec![w.name.clone(), format!("{}\"", w.range)])
        .collect();
    table(&mut out, &rows);
    out.push_str("\nGuns (figures when firing; default crew, B-7)\n");
    let rows: Vec<Vec<String>> = c
        .guns
        .iter()
        .map(|g| {
            vec![
                g.name.clone(),
                g.calibre.clone(),
                format!("{} figures", g.figures),
                format!("crew {}", g.default_crew),
            ]
        })
        .collect();
    table(&mut out, &rows);
    out.push_str("\nBasing\n");
    let rows: Vec<Vec<String>> = c
        .basings
        .iter()
        .map(|b| {
            vec![
                b.name.clone(),
                format!("{} per stand", b.figures_per_stand),
                format!("{}\" x {}\"", b.stand[0], b.stand[1]),
                b.deployment.clone(),
            ]
        })
        .collect();
    table(&mut out, &rows);
    out.push_str("\nTroop classes (formations: defaults; [a scenario may grant])\n");
    let rows: Vec<Vec<String>> = c
        .classes
        .iter()
        .map(|k| {
            let words = |fs: &[oibl::Formation]| {
                fs.iter().map(|f| f.words()).collect::<Vec<_>>().join(", ")
            };
            vec![
                k.id.clone(),
                k.name.clone(),
                k.basing.clone(),
                k.weapons.join("/"),
                if k.bayonets { "bayonets" } else { "-" }.into(),
                words(&k.formations),
                if k.authorizable.is_empty() {
                    String::new()
                } else {
                    format!("[{}]", words(&k.authorizable))
                },
            ]
        })
        .collect();
    table(&mut out, &rows);
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

use std::path::Path;
use std::sync::atomic::AtomicU32;

use crate::rules::system::RuleSystem;
use crate::rules::systems::oibl::{montecarlo, sim, BattleSetup, Oibl};

use super::args::SimulateArgs;

fn read_roster(path: &Path) -> Result<oibl::RosterDoc, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
    oibl::parse_roster(&text).map_err(|e| {
        format!(
            "{}: not a One if by Land roster: {}{}",
            path.display(),
            e.path.map(|p| format!("{p}: ")).unwrap_or_default(),
            e.message
        )
    })
}

/// The battle to fight: a stored set-up (`--setup`), or two rosters set up afresh (commander
/// ratings rolled where left out, B-8). A roster argument may also name a starting point
/// (`example:american`).
fn build_setup(cat: &Catalogue, args: &SimulateArgs) -> Result<BattleSetup, String> {
    if let Some(path) = &args.setup {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
        let mut setup = Oibl::parse_setup(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(seed) = args.seed {
            setup.seed = seed;
        }
        return Ok(setup);
    }
    let (Some(a), Some(d)) = (&args.attacker, &args.defender) else {
        return Err("give two roster files (attacker, defender) or --setup BATTLE.json".into());
    };
    let load = |p: &Path| match p.to_str().and_then(oibl::system::example_force) {
        Some(r) => Ok(r),
        None => read_roster(p),
    };
    let seed = args.seed.unwrap_or_else(crate::app::dice::fresh_seed);
    let p = oibl::record::prepare(
        cat,
        load(a)?,
        load(d)?,
        args.scenario.as_deref(),
        false,
        seed,
    )?;
    Ok(p.setup)
}

fn percent(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// `muster simulate --system oibl`: one narrated battle, or many with --runs.
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
        std::fs::write(path, Oibl::write_setup(&setup))
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
        let s = montecarlo::merge_ranges(setup.seed, parts)?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?
            );
            return Ok(());
        }
        println!(
            "{runs} battles of {a} against {d}, seeds from {}",
            setup.seed
        );
        for (label, e) in [
            (format!("{a} wins"), s.attacker),
            ("Draw".to_string(), s.draw),
            (format!("{d} wins"), s.defender),
        ] {
            println!(
                "  {label:<40} {:>7}  (95 % interval {} – {})",
                percent(e.p),
                percent(e.low),
                percent(e.high)
            );
        }
        println!(
            "  {:.1} turns on average; {} of the battles won by army morale (B-34)",
            s.mean_turns,
            percent(f64::from(s.decisive) / f64::from(s.runs.max(1)))
        );
        return Ok(());
    }
    let o = sim::fight(&cat, &setup)?;
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
    println!();
    for r in [&o.attacker, &o.defender] {
        println!(
            "{}: {} of {} units lost, {} of {} figures{}",
            r.name,
            r.lost_units(),
            r.start_units(),
            r.figures_lost(),
            r.start_figures(),
            if r.defeated { ", defeated" } else { "" }
        );
    }
    let winner = match o.winner {
        Some(s) => format!("{} wins ({})", setup.side(s).roster.name, o.level.id()),
        None => "a draw".into(),
    };
    println!("Result after {} turns: {winner}. {}", o.turns, o.reason);
    println!(
        "Replay: muster simulate --system oibl --setup FILE --seed {}",
        setup.seed
    );
    Ok(())
}

/// `muster calibrate --system oibl`: the policy's calibration table (issue item 6).
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
    let mut rows = Vec::new();
    if !json {
        println!("| match | battles | measure | share | 95 % interval | bound | draws | ok |");
        println!("|---|---|---|---|---|---|---|---|");
    }
    for m in montecarlo::calibration_matches(&cat)? {
        let done = AtomicU32::new(0);
        let parts = crate::app::sim::in_parallel(
            battles,
            crate::app::sim::default_threads(),
            &done,
            |start, end, progress| montecarlo::run_range(&cat, &m.setup, start, end, progress),
        );
        let mut t = montecarlo::Tally::default();
        for p in parts {
            t.merge(&p?);
        }
        let r = montecarlo::row(m.name, battles, m.a, m.d, &t);
        if !json {
            println!(
                "| {} | {} | {} | {} | {} – {} | {} | {} | {} |",
                r.name,
                r.battles,
                r.measure,
                percent(r.share.p),
                percent(r.share.low),
                percent(r.share.high),
                r.bound,
                r.draws,
                if r.ok { "yes" } else { "NO" }
            );
        }
        rows.push(r);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?
        );
    }
    Ok(rows.iter().all(|r| r.ok))
}
