//! `muster simulate --system lod` and `muster calibrate --system lod`: Liberty or Death!
//! battles on the command line.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicU32;

use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::lod::{self, montecarlo, sim, BattleSetup, Catalogue, Lod};

use super::args::SimulateArgs;

fn catalogue() -> Result<Catalogue, String> {
    Catalogue::builtin().map_err(|e| format!("the built-in rules data is inconsistent: {e}"))
}

fn read_roster(path: &Path) -> Result<lod::RosterDoc, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
    lod::parse_roster(&text).map_err(|e| format!("{}: not a roster: {e}", path.display()))
}

fn build_setup(cat: &Catalogue, args: &SimulateArgs) -> Result<BattleSetup, String> {
    if let Some(path) = &args.setup {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
        let mut setup = Lod::parse_setup(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(seed) = args.seed {
            setup.seed = seed;
        }
        return Ok(setup);
    }
    let (Some(a), Some(d)) = (&args.attacker, &args.defender) else {
        return Err("give two roster files (attacker, defender) or --setup BATTLE.json".into());
    };
    let seed = args.seed.unwrap_or_else(crate::app::dice::fresh_seed);
    let p = lod::record::prepare(
        cat,
        read_roster(a)?,
        read_roster(d)?,
        args.scenario.as_deref(),
        false,
        seed,
    )?;
    // The battle's own dice use the seed given, so `--seed` replays it.
    let mut setup = p.setup;
    setup.seed = seed;
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
    let cat = catalogue()?;
    let setup = build_setup(&cat, args)?;
    sim::check(&cat, &setup)?;
    if let Some(path) = &args.save_setup {
        std::fs::write(path, Lod::write_setup(&setup))
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
            "{runs} battles of {a} (attacker) against {d} (defender), seeds from {}",
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
            "  Average VPs: {a} {:.1}, {d} {:.1}; {:.1} turns; {} ended at a break point",
            summary.avg_attacker_vp,
            summary.avg_defender_vp,
            summary.avg_turns,
            percent(summary.ended_by_break_point)
        );
        return Ok(());
    }
    let outcome = sim::fight(&cat, &setup, !args.json)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&outcome).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    println!(
        "{a} (attacker) against {d} (defender): open field, {} turns, seed {}",
        setup.turns, setup.seed
    );
    let mut turn = u32::MAX;
    for line in &outcome.log {
        if line.turn != turn {
            turn = line.turn;
            if turn == 0 {
                println!("\n-- Set-up --");
            } else {
                println!("\n-- Turn {turn} --");
            }
        }
        println!("{}", line.text);
    }
    println!();
    match outcome.winner {
        Some(side) => println!(
            "{} wins: {} ({} to {} VPs)",
            if side == BattleSide::Attacker { a } else { d },
            outcome.band.label(),
            outcome.attacker.vp.max(outcome.defender.vp),
            outcome.attacker.vp.min(outcome.defender.vp)
        ),
        None => println!(
            "A draw ({} to {} VPs)",
            outcome.attacker.vp, outcome.defender.vp
        ),
    }
    println!(
        "Units lost: {a} {} of {}, {d} {} of {}",
        outcome.attacker.lost_units,
        outcome.attacker.units.len(),
        outcome.defender.lost_units,
        outcome.defender.units.len()
    );
    println!(
        "Replay: muster simulate --system lod ... --seed {}",
        setup.seed
    );
    Ok(())
}

/// `muster calibrate --system lod`: the calibration table (spec 9.4).
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
    let examples = Lod::starting_rosters(&cat);
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
        let base = montecarlo::battle_seed(0x00C0_FFEE, i as u32);
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
            montecarlo::MatchKind::TwoToOne => {
                ("larger side wins (draws count as not won)", "> 85 %")
            }
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
