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
