//! The two-sided quick reference (spec section 6): the turn, the special cards, activation and
//! its costs, resolve, movement, ranges, the two dice tables, colours, bonus dice, melee and
//! escape moves, break points and army collapse, the optional rules and the rulings Muster
//! made. Every number is read from the catalogue; the tables are built here so the template
//! only lays them out.

use crate::rules::systems::atkm::catalogue::Catalogue;
use crate::rules::systems::atkm::types::{FireClass, MeleeTarget, UnitType};

pub struct Row {
    pub cells: Vec<String>,
}

pub struct Ruling {
    pub id: &'static str,
    pub gist: &'static str,
}

pub struct Reference {
    pub version: String,
    pub colours: Vec<Row>,
    pub cards: Vec<Row>,
    pub units: Vec<Row>,
    pub guns: Vec<Row>,
    pub fire: Vec<Row>,
    pub fire_head: Vec<String>,
    pub melee: Vec<Row>,
    pub melee_head: Vec<String>,
    pub bonuses: Vec<Row>,
    pub rules: Vec<Row>,
    pub rulings: Vec<Ruling>,
    pub general_move: u32,
    pub escape_loser: u32,
    pub escape_tie: u32,
    pub rally_escape: u32,
    pub radius: u32,
    pub smallest_radius: u32,
    pub close_range: u32,
    pub turn_limit: u32,
    pub road: String,
    pub indians: String,
}

fn inches(v: Option<u32>) -> String {
    v.map_or("—".into(), |v| format!("{v}\""))
}

/// The rulings a player meets at the table, each in one line of Muster's words.
pub const RULINGS: &[Ruling] = &[
    Ruling { id: "K-1", gist: "Cavalry move 16\" in line and 20\" in column (lost cells restored)." },
    Ruling { id: "K-2", gist: "Artillery on the random force table: 10 to 12 on 2d6." },
    Ruling { id: "K-3", gist: "Heavy guns: 10 to 12 on 2d6; a horse battery rolling heavy gets a medium gun." },
    Ruling { id: "K-4", gist: "General's rating by d6: 1 gives 1, 2 to 5 give 2, 6 gives 3." },
    Ruling { id: "K-6", gist: "Colour: the situation's colour, then quality (defence only), then variations, never past green or red." },
    Ruling { id: "K-9", gist: "Infantry fire with the front two ranks; defenders roll for all their rank and file." },
    Ruling { id: "K-10", gist: "A turn starts green; without an ensign yellow; without an officer red." },
    Ruling { id: "K-11", gist: "A Queen on a red unit does not disorder it." },
    Ruling { id: "K-13", gist: "A unit whose escape runs off the table or is blocked is removed as collapsed." },
    Ruling { id: "K-14", gist: "An undecided battle ends in a draw after 24 turns unless the scenario says otherwise." },
    Ruling { id: "K-16", gist: "An army collapses with half its starting units or fewer left, checked after every loss; both at once is a draw." },
    Ruling { id: "K-17", gist: "A unit that collapses in a melee loses it; if both collapse, both go." },
    Ruling { id: "K-18", gist: "Never more casualties than figures present." },
    Ruling { id: "K-19", gist: "With an eligible unit you must activate one for each card of your colour." },
    Ruling { id: "K-25", gist: "A melee turns both units red instead of the usual downgrade; a unit already red is disordered." },
    Ruling { id: "K-32", gist: "Joker and 2: any unit not already disordered; none left, no effect." },
    Ruling { id: "K-43", gist: "Guns fire only deployed (loose); column to loose and fire in one activation is allowed." },
    Ruling { id: "K-44", gist: "Indians pay 1 command point for every activation; skirmishing cavalry activate free." },
];

pub fn build(cat: &Catalogue) -> Reference {
    let t = &cat.tables;
    let colours = t
        .colours
        .iter()
        .map(|c| Row {
            cells: vec![
                c.id.label().to_string(),
                if c.succeeds_on >= 6 {
                    "6".to_string()
                } else {
                    format!("{}+", c.succeeds_on)
                },
                format!("{}/6", 7 - u32::from(c.succeeds_on)),
            ],
        })
        .collect();
    let cards = t
        .special_cards
        .iter()
        .map(|c| Row {
            cells: vec![
                match c.card.as_str() {
                    "jack" | "queen" | "king" | "ace" | "joker" => {
                        let mut s = c.card.clone();
                        if let Some(first) = s.get_mut(0..1) {
                            first.make_ascii_uppercase();
                        }
                        s
                    }
                    other => other.to_string(),
                },
                c.effect.clone(),
            ],
        })
        .collect();
    let units = UnitType::ALL
        .iter()
        .map(|u| {
            let row = cat.unit(*u);
            let size = if *u == UnitType::WoodlandIndians {
                format!(
                    "{}–{} {}",
                    t.woodland_indians_size.min, t.woodland_indians_size.max, row.men
                )
            } else {
                format!("{} {}", row.rank_and_file, row.men)
            };
            let breaks = if *u == UnitType::WoodlandIndians {
                "half".to_string()
            } else {
                row.break_point.to_string()
            };
            Row {
                cells: vec![
                    row.name.clone(),
                    size,
                    breaks,
                    inches(row.moves.line),
                    inches(row.moves.column),
                    inches(row.moves.loose),
                    if row.can_fire {
                        inches(Some(row.range))
                    } else {
                        "—".into()
                    },
                ],
            }
        })
        .collect();
    let guns = t
        .guns
        .iter()
        .map(|g| Row {
            cells: vec![
                g.name.clone(),
                inches(Some(g.foot_range)),
                inches(g.horse_range),
                format!(
                    "{} a gunner{}",
                    g.close_dice,
                    if g.close_bonus > 0 {
                        format!(" +{}", g.close_bonus)
                    } else {
                        String::new()
                    }
                ),
                if g.move_and_fire { "yes" } else { "no" }.to_string(),
            ],
        })
        .collect();
    let fire_head = FireClass::ALL
        .iter()
        .map(|c| c.label().to_string())
        .collect();
    let firers = [
        (UnitType::Infantry, "Infantry"),
        (UnitType::Skirmishers, "Skirmishers"),
        (UnitType::FootArtillery, "Artillery"),
    ];
    let fire = firers
        .iter()
        .map(|(u, name)| {
            let row = cat.unit(*u);
            let mut cells = vec![name.to_string()];
            for class in FireClass::ALL {
                let close = if u.is_artillery() {
                    format!(" ({} close)", t.fire_dice.artillery_close_dice)
                } else {
                    String::new()
                };
                let def = match class {
                    FireClass::Cavalry => format!(" +{}", cat.bonus("cavalry_under_fire")),
                    FireClass::Skirmishers => format!(" +{}", cat.bonus("loose_under_fire")),
                    FireClass::Artillery => {
                        format!(" +{} if loose", cat.bonus("loose_under_fire"))
                    }
                    FireClass::Infantry => String::new(),
                };
                cells.push(format!(
                    "{}{close}/{}{def}",
                    row.fire_dice, t.fire_dice.defender_dice_per_figure
                ));
            }
            Row { cells }
        })
        .collect();
    let melee_head = MeleeTarget::ALL
        .iter()
        .map(|c| c.label().to_string())
        .collect();
    let melee = t
        .melee_dice
        .iter()
        .map(|m| {
            let mut cells = vec![cat.unit(m.attacker).name.clone()];
            for target in MeleeTarget::ALL {
                cells.push(m.against(*target).map_or("—".into(), |d| format!("{d}/1")));
            }
            Row { cells }
        })
        .collect();
    let bonuses = t
        .bonus_dice
        .iter()
        .map(|b| Row {
            cells: vec![
                b.id.replace('_', " "),
                b.side.clone(),
                format!("+{}", b.dice),
                b.applies.clone(),
            ],
        })
        .collect();
    let rules = t
        .advanced_rules
        .iter()
        .map(|r| Row {
            cells: vec![r.name.clone(), r.gist.clone()],
        })
        .collect();
    let road = f64::from(t.movement.road_multiplier_tenths) / 10.0;
    Reference {
        version: cat.version().to_string(),
        colours,
        cards,
        units,
        guns,
        fire,
        fire_head,
        melee,
        melee_head,
        bonuses,
        rules,
        rulings: RULINGS
            .iter()
            .map(|r| Ruling {
                id: r.id,
                gist: r.gist,
            })
            .collect(),
        general_move: t.movement.general_move,
        escape_loser: t.movement.escape_loser,
        escape_tie: t.movement.escape_tie,
        rally_escape: t.movement.rally_escape,
        radius: t.command.default_radius,
        smallest_radius: t.command.smallest_advised_radius,
        close_range: t.fire_dice.artillery_close_range,
        turn_limit: t.army.turn_limit,
        road: format!("×{road}"),
        indians: t.woodland_indians_size.dice.clone(),
    }
}
