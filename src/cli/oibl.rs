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
