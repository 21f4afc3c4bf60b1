//! The random force generator (spec 2.2): 2d6 per unit on the unit type table, a d6 for the kind
//! of artillery (K-2), 2d6 for the gun size with "artillery sizes" (K-3: a horse battery that
//! rolls heavy gets medium), a d6 for quality with "elite and militia units", and a d6 for the
//! general's rating (K-4). Seeded; every roll is kept on the unit and in words on the army.

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;

use super::catalogue::{band, Catalogue};
use super::roster::{GeneralDoc, RandomRecord, RosterDoc, UnitDoc, UnitRolls, Variations};
use super::types::{AdvancedRule, Gun, Period, Quality, UnitType};

/// Most units one roll of the generator makes (a large game is 10 or more a side).
pub const MAX_RANDOM_UNITS: u32 = 40;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomForceRequest {
    pub seed: u64,
    /// Units to roll: small 5, medium 8, large 10 or more.
    pub units: u32,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub period: Option<String>,
    /// Roll each unit's quality (turns on "elite and militia units").
    #[serde(default)]
    pub elite_militia: bool,
    /// Roll each battery's gun (turns on "artillery sizes").
    #[serde(default)]
    pub artillery_sizes: bool,
    /// Roll the general's rating (K-4); otherwise he is rated 2, the book's default.
    #[serde(default)]
    pub roll_general: bool,
}

/// Rolls an army. Refuses a unit count outside 1 to [`MAX_RANDOM_UNITS`] or an unknown period.
pub fn generate(cat: &Catalogue, req: &RandomForceRequest) -> Result<RosterDoc, String> {
    if req.units == 0 || req.units > MAX_RANDOM_UNITS {
        return Err(format!(
            "Roll from 1 to {MAX_RANDOM_UNITS} units (a small game has 5 a side, a medium one 8, a large one 10 or more)."
        ));
    }
    let period = req.period.clone().unwrap_or_else(|| "generic".into());
    if Period::from_id(&period).is_none() {
        return Err(format!("'{period}' is not a period Muster knows."));
    }
    let rt = &cat.tables.random_tables;
    let mut dice = Dice::from_seed(req.seed);
    let mut words = Vec::new();
    let mut rules = Vec::new();
    if req.elite_militia {
        rules.push(AdvancedRule::EliteMilitia.id().to_string());
    }
    if req.artillery_sizes {
        rules.push(AdvancedRule::ArtillerySizes.id().to_string());
    }
    let (rating, rating_roll) = if req.roll_general {
        let d = dice.d6();
        let r = band(&rt.general_rating, d)
            .and_then(|b| b.result.parse::<i64>().ok())
            .unwrap_or(2);
        words.push(format!(
            "General's rating: rolled {d}, rated {r} (K-4, Muster's reading of the lost chart)."
        ));
        (r, Some(d))
    } else {
        words.push("General's rating: 2, the book's default.".into());
        (2, None)
    };
    let mut counts = std::collections::BTreeMap::<UnitType, u32>::new();
    let mut units = Vec::new();
    for n in 1..=req.units {
        let (a, b) = (dice.d6(), dice.d6());
        let sum = a + b;
        let kind = band(&rt.unit_type, sum).map_or("infantry", |b| b.result.as_str());
        let mut rolls = UnitRolls {
            unit_type: [a, b],
            artillery_kind: None,
            artillery_size: None,
            quality: None,
        };
        let mut line = format!("Unit {n}: rolled {a}+{b}={sum}, {kind}");
        let t = if kind == "artillery" {
            let d = dice.d6();
            rolls.artillery_kind = Some(d);
            let k = band(&rt.artillery_kind, d)
                .and_then(|b| UnitType::from_id(&b.result))
                .unwrap_or(UnitType::FootArtillery);
            line.push_str(&format!("; kind rolled {d}, {}", k.label().to_lowercase()));
            k
        } else {
            UnitType::from_id(kind).unwrap_or(UnitType::Infantry)
        };
        let mut gun = None;
        if t.is_artillery() && req.artillery_sizes {
            let (x, y) = (dice.d6(), dice.d6());
            rolls.artillery_size = Some([x, y]);
            let rolled = band(&rt.artillery_size, x + y)
                .and_then(|b| Gun::from_id(&b.result))
                .unwrap_or(Gun::Medium);
            let g = if rolled == Gun::Heavy && t == UnitType::HorseArtillery {
                line.push_str(&format!(
                    "; gun rolled {x}+{y}={}, heavy, which horse artillery takes as medium (K-3)",
                    x + y
                ));
                Gun::Medium
            } else {
                line.push_str(&format!(
                    "; gun rolled {x}+{y}={}, {}",
                    x + y,
                    rolled.label().to_lowercase()
                ));
                rolled
            };
            gun = Some(g.id().to_string());
        }
        let mut quality = None;
        if req.elite_militia {
            let d = dice.d6();
            rolls.quality = Some(d);
            let q = band(&rt.unit_quality, d)
                .and_then(|b| Quality::from_id(&b.result))
                .unwrap_or(Quality::Regular);
            line.push_str(&format!(
                "; quality rolled {d}, {}",
                q.label().to_lowercase()
            ));
            quality = Some(q.id().to_string());
        }
        words.push(line);
        let count = counts.entry(t).or_insert(0);
        *count += 1;
        let row = cat.unit(t);
        units.push(UnitDoc {
            id: Some(format!("u{n}")),
            name: format!("{} {}", row.name, count),
            unit_type: t.id().to_string(),
            general: Some("g1".into()),
            rank_and_file: Some(row.rank_and_file),
            break_point: Some(row.break_point),
            officer: true,
            ensign: true,
            quality,
            label: None,
            gun,
            group: None,
            variations: Variations::default(),
            random_roll: Some(rolls),
            arrives: "start".into(),
        });
    }
    Ok(RosterDoc {
        format: super::roster::ROSTER_FORMAT.to_string(),
        id: None,
        name: req
            .name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| format!("Random army of {} units", req.units)),
        period,
        scenario: None,
        side: None,
        catalogue_version: Some(cat.version().to_string()),
        advanced_rules: rules,
        generals: vec![GeneralDoc {
            id: Some("g1".into()),
            name: "Commanding General".into(),
            rating,
            role: "commanding".into(),
            command_radius: Some(cat.tables.command.default_radius),
            rating_roll,
        }],
        units,
        random: Some(RandomRecord {
            seed: req.seed,
            rolls: words,
        }),
        carried_losses: false,
    })
}
