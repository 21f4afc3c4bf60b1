//! `muster calibrate --system lotf`: the Land of the Free simulator's calibration table
//! (`docs/simulator.md`, "Calibration").

use std::process::ExitCode;
use std::sync::atomic::AtomicU32;

use crate::rules::systems::lotf::calibration::{self, MatchTally};
use crate::rules::systems::lotf::{battle_seed, simulate, BattleSetup, Catalogue};

fn percent(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// Print the table; exit 1 when a row is out of its bound. With `show` (a row and a seed),
/// print one narrated battle of that row instead.
pub fn calibrate(battles: u32, json: bool, show: Option<(usize, u64)>) -> ExitCode {
    let result = match show {
        Some((row, seed)) => narrate(row, seed).map(|()| true),
        None => run(battles, json),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("muster calibrate: {message}");
            ExitCode::from(2)
        }
    }
}

/// One battle of a calibration row, narrated.
fn narrate(row: usize, seed: u64) -> Result<(), String> {
    let cat = Catalogue::builtin().map_err(|e| e.to_string())?;
    let rows = calibration::calibration_matches();
    let m = rows
        .get(row)
        .ok_or_else(|| format!("--row must be below {}", rows.len()))?;
    let setup = BattleSetup::new(m.a.clone(), m.b.clone(), m.scenario, seed);
    let o = simulate(&cat, &setup, true).map_err(|e| e.to_string())?;
    println!("{}: {} ({})", m.scenario.id(), m.name, m.a.name);
    for l in &o.log {
        println!("T{} {}", l.turn, l.text);
    }
    println!("{:?}", o.stats);
    Ok(())
}

fn run(battles: u32, json: bool) -> Result<bool, String> {
    if battles == 0 || battles > 1_000_000 {
        return Err("--battles must be from 1 to 1000000".into());
    }
    let cat = Catalogue::builtin().map_err(|e| e.to_string())?;
    let mut all_ok = true;
    let mut rows = Vec::new();
    let mut total = MatchTally::default();
    if !json {
        println!("| scenario | match | A wins | draws | B wins | A's share of decisive (95 %) | charges | melees | volleys | snap fires | bound | ok |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    }
    let matches = calibration::calibration_matches();
    for (i, m) in matches.iter().enumerate() {
        // Progress on standard error, so the table (or the JSON) stays clean.
        eprintln!(
            "muster calibrate: row {}/{}: {} {}",
            i + 1,
            matches.len(),
            m.scenario.id(),
            m.name
        );
        let done = AtomicU32::new(0);
        let base = battle_seed(0x0005_EED5, i as u32);
        let parts = crate::app::sim::in_parallel(
            battles,
            crate::app::sim::default_threads(),
            &done,
            |start, end, progress| calibration::run_match(&cat, m, base, start, end, progress),
        );
        let mut t = MatchTally::default();
        for p in parts {
            t.merge(&p?);
        }
        total.merge(&t);
        let (bound, ok) = t.judge(m);
        all_ok &= ok;
        let d = t.decisive_share();
        if json {
            rows.push(serde_json::json!({
                "scenario": m.scenario.id(), "match": m.name, "kind": m.kind,
                "battles": t.battles, "a_wins": t.a_wins, "draws": t.draws(), "b_wins": t.b_wins,
                "a_share_of_decisive": d.p, "low": d.low, "high": d.high,
                "charges_per_battle": t.mean(t.stats.charges),
                "melees_per_battle": t.mean(t.stats.melees),
                "volleys_per_battle": t.mean(t.stats.volleys),
                "snap_fires_per_battle": t.mean(t.stats.snap_fires),
                "counter_charges_per_battle": t.mean(t.stats.counter_charges),
                "flank_attacks_per_battle": t.mean(t.stats.flank_attacks),
                "bound": bound, "ok": ok,
            }));
        } else {
            let a = t.a_share();
            let b = t.b_share();
            println!(
                "| {} | {} | {} ({}–{}) | {} | {} ({}–{}) | {} ({}–{}) | {:.1} | {:.1} | {:.1} | {:.1} | {bound} | {} |",
                m.scenario.id(),
                m.name,
                percent(a.p),
                percent(a.low),
                percent(a.high),
                percent(t.draws() as f64 / t.battles as f64),
                percent(b.p),
                percent(b.low),
                percent(b.high),
                percent(d.p),
                percent(d.low),
                percent(d.high),
                t.mean(t.stats.charges),
                t.mean(t.stats.melees),
                t.mean(t.stats.volleys),
                t.mean(t.stats.snap_fires),
                if ok { "yes" } else { "NO" }
            );
        }
    }
    let ratio = f64::from(total.stats.melees) / f64::from(total.stats.volleys.max(1));
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "rows": rows,
                "melees_per_volley": ratio,
                "ok": all_ok,
            }))
            .map_err(|e| e.to_string())?
        );
    } else {
        println!(
            "\nAll rows: {:.2} melees per volley (at least 0.10 wanted); {}.",
            ratio,
            if all_ok {
                "every row within its bound"
            } else {
                "some rows out of bounds"
            }
        );
    }
    Ok(all_ok && ratio >= 0.10)
}
