//! Unit cards and general cards (spec section 6): one unit card per distinct profile with a
//! count and the units' names (or one per unit on request), tally boxes for the rank and file
//! with the break point marked, officer and ensign boxes, movement, range and the dice per
//! figure, and a resolve track. Every number is read from the catalogue.

use std::collections::BTreeMap;

use super::CARDS_PER_PAGE;
use crate::rules::systems::atkm::catalogue::Catalogue;
use crate::rules::systems::atkm::roster::{RosterDoc, UnitDoc};
use crate::rules::systems::atkm::types::{
    AdvancedRule, FireClass, Gun, MeleeTarget, Quality, Role, UnitType,
};
use crate::rules::systems::atkm::validate::{profile, UnitProfile};
use crate::web::pages::print::{names_within, TypeIcon};
use crate::web::systems::atkm::view;

/// One tally box of the rank and file; `lost_at_break` marks the boxes that, once reached, make
/// the unit collapse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TallyBox {
    pub n: u32,
    pub breaks: bool,
}

/// One cell of a dice row: the dice a figure rolls, or a dash.
#[derive(Debug, Clone)]
pub struct DiceCell {
    pub against: String,
    pub dice: String,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub names: Vec<String>,
    pub icon: &'static str,
    pub type_name: String,
    pub count: usize,
    /// "Elite (guard): defends one colour better", or empty without the quality rule.
    pub quality: String,
    /// "Morgan (Commanding General, rating 2)".
    pub general: String,
    pub men: String,
    pub rank_and_file: u32,
    pub break_point: u32,
    pub tally: Vec<TallyBox>,
    pub officer: bool,
    pub ensign: bool,
    /// "line 6\" · column 10\"".
    pub moves: String,
    /// "12\"", or "cannot fire".
    pub range: String,
    /// Guns: what changes within close range; empty for the rest.
    pub close: String,
    pub gun: String,
    pub fire: Vec<DiceCell>,
    pub melee: Vec<DiceCell>,
    pub rules: Vec<String>,
}

/// Characters of unit names in a card's title (two lines of a quarter-page card).
const NAMES_BUDGET: usize = 110;

impl Card {
    pub fn names_text(&self) -> String {
        names_within(&self.names, NAMES_BUDGET)
    }
}

#[derive(Debug, Clone)]
pub struct GeneralCard {
    pub name: String,
    pub role: String,
    pub rating: u32,
    pub rating_words: &'static str,
    pub radius: u32,
    /// How he gets command points.
    pub command_points: String,
    /// Banking and overriding allowances, when the army uses them.
    pub allowances: Vec<String>,
    pub units: usize,
}

pub struct CardSet {
    pub units: Vec<Card>,
    pub generals: Vec<GeneralCard>,
    /// Unit cards first, then general cards, four to a page.
    pub pages: Vec<Vec<Printed>>,
    pub total_cards: usize,
    pub side: &'static str,
}

/// A card on a page.
pub enum Printed {
    Unit(Box<Card>),
    General(GeneralCard),
}

pub fn icon(t: UnitType) -> TypeIcon {
    match t {
        UnitType::Infantry => TypeIcon::Infantry,
        UnitType::Skirmishers | UnitType::WoodlandIndians => TypeIcon::Skirmishers,
        UnitType::Cavalry | UnitType::SkirmishingCavalry => TypeIcon::Cavalry,
        UnitType::FootArtillery | UnitType::HorseArtillery => TypeIcon::Artillery,
    }
}

fn inches(n: u32) -> String {
    format!("{n}\"")
}

fn moves(cat: &Catalogue, t: UnitType) -> String {
    let m = &cat.unit(t).moves;
    let mut parts = Vec::new();
    for (label, v) in [("line", m.line), ("column", m.column), ("loose", m.loose)] {
        if let Some(v) = v {
            parts.push(format!("{label} {}", inches(v)));
        }
    }
    parts.join(" · ")
}

/// The defender's extra dice against fire, by the target's class (spec 1.7, K-23).
fn fire_defence_note(cat: &Catalogue, class: FireClass) -> String {
    match class {
        FireClass::Cavalry => format!(" (+{} def)", cat.bonus("cavalry_under_fire")),
        FireClass::Skirmishers => format!(" (+{} def)", cat.bonus("loose_under_fire")),
        FireClass::Artillery => format!(" (+{} def if loose)", cat.bonus("loose_under_fire")),
        FireClass::Infantry => String::new(),
    }
}

fn fire_row(cat: &Catalogue, p: &UnitProfile) -> Vec<DiceCell> {
    let row = cat.unit(p.unit_type);
    FireClass::ALL
        .iter()
        .map(|class| DiceCell {
            against: class.label().to_string(),
            dice: if row.can_fire {
                let close = if p.unit_type.is_artillery() {
                    let close = p
                        .gun
                        .map_or(cat.tables.fire_dice.artillery_close_dice, |g| {
                            cat.gun(g).close_dice
                        });
                    if close == row.fire_dice {
                        String::new()
                    } else {
                        format!(" ({close} close)")
                    }
                } else {
                    String::new()
                };
                format!("{}{close}{}", row.fire_dice, fire_defence_note(cat, *class))
            } else {
                "—".into()
            },
        })
        .collect()
}

fn melee_row(cat: &Catalogue, p: &UnitProfile) -> Vec<DiceCell> {
    MeleeTarget::ALL
        .iter()
        .map(|target| DiceCell {
            against: target.label().to_string(),
            dice: match cat.melee_dice(p.unit_type, *target) {
                Some(n) => n.to_string(),
                None => "—".into(),
            },
        })
        .collect()
}

fn special_rules(cat: &Catalogue, doc: &RosterDoc, u: &UnitDoc, p: &UnitProfile) -> Vec<String> {
    let row = cat.unit(p.unit_type);
    let mut rules = Vec::new();
    if !row.can_attack_in_melee {
        rules.push("Never starts a melee; defends with red dice (K-6).".to_string());
    }
    match p.unit_type {
        UnitType::Infantry if doc.uses(AdvancedRule::Square) => rules.push(
            "Square: contacted by cavalry, roll the general's rating in its colour; any success forms square."
                .into(),
        ),
        UnitType::Cavalry => rules.push(format!(
            "Cannot fire; +{} defence dice when fired on.",
            cat.bonus("cavalry_under_fire")
        )),
        UnitType::WoodlandIndians => rules.push(format!(
            "+{} dice in every melee; always 1 command point to activate; never attacks cavalry (K-29).",
            cat.bonus("indian_melee")
        )),
        UnitType::SkirmishingCavalry => rules.push(
            "Loose; defends as skirmishers; 1 die a trooper against all (K-30).".into(),
        ),
        _ => {}
    }
    if let Some(g) = p.gun {
        let gun = cat.gun(g);
        if !gun.move_and_fire {
            rules.push("Cannot move and fire in one activation (K-20).".into());
        }
        if let Some(cap) = gun.colour_cap {
            rules.push(format!(
                "Fires {} dice at best; a hit also disorders (K-21).",
                cap.label().to_lowercase()
            ));
        }
    }
    let v = &u.variations;
    if v.scrap_ammunition {
        rules.push(format!(
            "Scrap ammunition: targets beyond {} get +{} defence dice (K-22).",
            inches(cat.tables.fire_dice.artillery_close_range),
            cat.bonus("scrap_ammunition")
        ));
    }
    if v.repeating_rifles {
        rules.push(format!(
            "Repeating rifles: +{} dice firing without moving, turning or changing formation.",
            cat.bonus("repeating_rifles")
        ));
    }
    if v.marksmen {
        rules.push("Marksmen: two dice for officer and ensign losses (K-8).".into());
    }
    if let Some(s) = v.attack_shift.filter(|s| *s != 0) {
        rules.push(format!(
            "Attacks one colour {}.",
            if s < 0 { "better" } else { "worse" }
        ));
    }
    if let Some(s) = v.defence_shift.filter(|s| *s != 0) {
        rules.push(format!(
            "Defends one colour {}.",
            if s < 0 { "better" } else { "worse" }
        ));
    }
    if let Some(r) = &v.reroll {
        rules.push(format!(
            "Re-rolls {}: keeps the {}.",
            r.roll.replace('_', " "),
            r.keep
        ));
    }
    if let Some(c) = &v.extra_counter {
        rules.push(format!(
            "Extra {c} resolve counter: the next fall from {c} removes it instead."
        ));
    }
    rules
}

fn general_line(doc: &RosterDoc, u: &UnitDoc) -> String {
    let Some(g) = doc
        .generals
        .iter()
        .find(|g| g.id.is_some() && g.id == u.general)
    else {
        return "no general".into();
    };
    let role = Role::from_id(&g.role).map_or(g.role.as_str(), |r| r.label());
    format!("{} ({role}, rating {})", g.name, g.rating)
}

fn card_for(cat: &Catalogue, doc: &RosterDoc, u: &UnitDoc, p: &UnitProfile) -> Card {
    let row = cat.unit(p.unit_type);
    let quality = if doc.uses(AdvancedRule::EliteMilitia) || u.quality.is_some() {
        view::quality_words(cat, p.quality, u.label.as_deref())
    } else {
        String::new()
    };
    let range = match cat.range(p.unit_type, p.gun) {
        Some(r) if row.can_fire => inches(r),
        _ => "cannot fire".into(),
    };
    let close = match p.gun {
        Some(g) => {
            let gun = cat.gun(g);
            let bonus = if gun.close_bonus > 0 {
                format!(" +{} dice", gun.close_bonus)
            } else {
                String::new()
            };
            format!(
                "within {}: {} dice a gunner{bonus}",
                inches(cat.tables.fire_dice.artillery_close_range),
                gun.close_dice
            )
        }
        None => String::new(),
    };
    Card {
        names: vec![if u.name.trim().is_empty() {
            row.name.clone()
        } else {
            u.name.clone()
        }],
        icon: icon(p.unit_type).id(),
        type_name: row.name.clone(),
        count: 1,
        quality,
        general: general_line(doc, u),
        men: row.men.clone(),
        rank_and_file: p.rank_and_file,
        break_point: p.break_point,
        tally: (1..=p.rank_and_file)
            .map(|n| TallyBox {
                n,
                breaks: n <= p.break_point,
            })
            .collect(),
        officer: p.officer,
        ensign: p.ensign,
        moves: moves(cat, p.unit_type),
        range,
        close,
        gun: p.gun.map(|g| cat.gun(g).name.clone()).unwrap_or_default(),
        fire: fire_row(cat, p),
        melee: melee_row(cat, p),
        rules: special_rules(cat, doc, u, p),
    }
}

fn general_cards(cat: &Catalogue, doc: &RosterDoc) -> Vec<GeneralCard> {
    doc.generals
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let rating = u32::try_from(g.rating).unwrap_or(0);
            let commanding = g.role == Role::Commanding.id();
            let mut allowances = Vec::new();
            if doc.uses(AdvancedRule::Override) {
                allowances.push(format!(
                    "Overriding: may skip up to {rating} card{} of his colour a turn (never a 2).",
                    if rating == 1 { "" } else { "s" }
                ));
            }
            if doc.uses(AdvancedRule::Banking) && commanding {
                allowances.push(format!(
                    "Banking: 1 command point sets a card aside, up to {rating} a turn."
                ));
            }
            GeneralCard {
                name: if g.name.trim().is_empty() {
                    format!("General {}", i + 1)
                } else {
                    g.name.clone()
                },
                role: Role::from_id(&g.role).map_or(g.role.clone(), |r| r.label().to_string()),
                rating,
                rating_words: view::rating_words(rating),
                radius: g.command_radius.unwrap_or(cat.tables.command.default_radius),
                command_points: if commanding {
                    format!(
                        "Rolls {rating} d6 each turn; the highest die is his command points, which he may hand to his lieutenants (at most {} each).",
                        cat.tables.command.largest_lieutenant_cp
                    )
                } else {
                    format!("{rating} command point{} each turn, plus any the Commanding General hands him.", if rating == 1 { "" } else { "s" })
                },
                allowances,
                units: doc
                    .units
                    .iter()
                    .filter(|u| u.general.is_some() && u.general == g.id)
                    .count(),
            }
        })
        .collect()
}

/// Quality as the card key sees it.
fn quality_key(q: Quality) -> &'static str {
    q.id()
}

/// The cards of an army: units with the same profile, general and variations share one (unless
/// `each`), then one card per general.
pub fn build(cat: &Catalogue, doc: &RosterDoc, each: bool, side: &'static str) -> CardSet {
    let mut units: Vec<Card> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for u in &doc.units {
        let Some(p) = profile(cat, u) else {
            continue;
        };
        let key = format!(
            "{}|{}|{}|{}|{}|{}|{:?}|{:?}|{}|{:?}",
            p.unit_type.id(),
            p.rank_and_file,
            p.break_point,
            quality_key(p.quality),
            p.officer,
            p.ensign,
            p.gun.map(Gun::id),
            u.general,
            u.label.clone().unwrap_or_default(),
            u.variations,
        );
        let name = if u.name.trim().is_empty() {
            cat.unit(p.unit_type).name.clone()
        } else {
            u.name.clone()
        };
        match seen.get(&key) {
            Some(&i) if !each => {
                units[i].names.push(name);
                units[i].count += 1;
            }
            _ => {
                seen.insert(key, units.len());
                units.push(card_for(cat, doc, u, &p));
            }
        }
    }
    let generals = general_cards(cat, doc);
    let printed: Vec<Printed> = units
        .iter()
        .cloned()
        .map(|c| Printed::Unit(Box::new(c)))
        .chain(generals.iter().cloned().map(Printed::General))
        .collect();
    let total_cards = printed.len();
    let mut pages: Vec<Vec<Printed>> = Vec::new();
    for card in printed {
        match pages.last_mut() {
            Some(page) if page.len() < CARDS_PER_PAGE => page.push(card),
            _ => pages.push(vec![card]),
        }
    }
    CardSet {
        units,
        generals,
        pages,
        total_cards,
        side,
    }
}
