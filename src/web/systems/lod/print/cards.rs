//! Unit cards (spec section 6): one per distinct profile with a count and the units' names, or
//! one per unit on request. The dice on a card are built by `mechanics` for the unit at full
//! strength, so "4 bases → 10 dice at effective range" is the odds calculator's number too.

use std::collections::BTreeMap;

use super::{ForceState, CARDS_PER_PAGE};
use crate::rules::systems::lod::catalogue::{DifficultTerrain, MovementRow, ObstacleRule};
use crate::rules::systems::lod::mechanics::{self, Against, Fight, Shot, TestKind};
use crate::rules::systems::lod::types::{HitState, RangeBand};
use crate::rules::systems::lod::validate::units;
use crate::rules::systems::lod::{Catalogue, Kind, Profile, RosterDoc, SpecialRule};
use crate::web::pages::print::{lines_within, list_within, names_within};

/// One box of a hit track; `mark` is `W`, `S` or `AB` where the unit reaches that value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackBox {
    pub n: u32,
    pub mark: &'static str,
}

/// The hit track 1…AUTO BROKEN with WORN and SHAKEN marked (1.7).
pub fn hit_track(worn: u32, shaken: u32, auto_broken: u32) -> Vec<TrackBox> {
    (1..=auto_broken)
        .map(|n| TrackBox {
            n,
            mark: if n == worn {
                "W"
            } else if n == shaken {
                "S"
            } else if n == auto_broken {
                "AB"
            } else {
                ""
            },
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct MoveLine {
    /// Empty for kinds with one row; `Limbered` / `Unlimbered` for guns.
    pub label: String,
    pub advance: String,
    pub run: String,
    pub charge: String,
    pub difficult: String,
    pub obstacles: String,
    pub road: String,
    pub march_column: String,
}

#[derive(Debug, Clone)]
pub struct RuleLine {
    pub name: String,
    pub summary: String,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub names: Vec<String>,
    /// The type symbol's id ([`crate::web::pages::print::TypeIcon::id`]).
    pub icon: &'static str,
    /// The kind's name, beside the symbol for those who cannot see it.
    pub kind_name: String,
    pub count: usize,
    pub entry: String,
    /// "Elite Infantry" (quality and kind, 1.2).
    pub kind_quality: String,
    /// "4 bases · 24 figures · bases 50 × 50 mm".
    pub bases_line: String,
    pub worn: u32,
    pub shaken: u32,
    pub auto_broken: u32,
    pub track: Vec<TrackBox>,
    pub weapon: String,
    pub short: String,
    pub effective: String,
    pub long: String,
    /// What each artillery hit becomes, and canister; empty for small arms.
    pub explodes: String,
    pub canister: String,
    pub shoot_per_base: String,
    pub shoot_effective: u32,
    pub shoot_short: u32,
    pub shoot_long: u32,
    pub melee_direct: String,
    pub melee_supporting: String,
    pub melee_total: u32,
    /// "+2 ELITE rule included" and the like.
    pub dice_notes: Vec<String>,
    pub shoot_to_hit: String,
    pub melee_to_hit: String,
    pub saves: String,
    /// ORDER and MORALE dice by STEADY / WORN / SHAKEN.
    pub order_dice: [u32; 3],
    pub morale_dice: [u32; 3],
    pub test_notes: Vec<String>,
    pub successes: String,
    pub rerolls: Vec<String>,
    pub movement: Vec<MoveLine>,
    pub rules: Vec<RuleLine>,
    pub command: String,
    pub brigades: Vec<String>,
    pub history: Vec<String>,
    pub disorder_boxes: Vec<u8>,
    pub under_fire_boxes: Vec<u8>,
}

impl Card {
    /// The names as the card's title prints them: as many as fit, then "and N more" (the
    /// roster sheet lists every one).
    pub fn names_text(&self) -> String {
        names_within(&self.names, NAMES_BUDGET)
    }

    pub fn brigades_text(&self) -> String {
        list_within(&self.brigades, "; ", BRIGADES_BUDGET)
    }

    /// The campaign history as the card prints it.
    pub fn history_lines(&self) -> Vec<String> {
        lines_within(&self.history, HISTORY_LINES)
    }
}

/// Boxes for disorder and under-fire markers. The rules set no limit; a unit rarely carries more
/// than four before it stops mattering.
pub const MARKER_BOXES: u8 = 4;

/// Characters of unit names in a card's title (two lines of a quarter-page card).
const NAMES_BUDGET: usize = 110;
/// Characters of brigade names on a card's command line.
const BRIGADES_BUDGET: usize = 90;
/// Lines of campaign history on a card.
const HISTORY_LINES: usize = 3;

pub struct CardSet {
    /// The side's colour class ([`crate::web::pages::print::SideColour::class`]).
    pub side: &'static str,
    pub pages: Vec<Vec<Card>>,
    pub total_cards: usize,
}

fn inches(band: [u32; 2]) -> String {
    format!("{}–{}\"", band[0], band[1])
}

fn faces(list: &[u8]) -> String {
    match list {
        [] => "—".to_string(),
        [one] => one.to_string(),
        [first, .., last] => format!("{first}–{last}"),
    }
}

/// Movement rows of a kind, in the words of the movement table (1.5b).
pub fn movement_lines(cat: &Catalogue, kind: Kind, scouts: bool) -> Vec<MoveLine> {
    let rows: Vec<&MovementRow> = cat.movement.iter().filter(|m| m.kind == kind).collect();
    let several = rows.len() > 1;
    rows.into_iter()
        .map(|m| {
            let bonus = m.charge_bonus.label();
            MoveLine {
                label: if several {
                    let mut f = m.formation.clone();
                    if let Some(first) = f.get_mut(0..1) {
                        first.make_ascii_uppercase();
                    }
                    f
                } else {
                    String::new()
                },
                advance: format!("{}\"", m.advance),
                run: m.run.map_or("—".to_string(), |r| format!("{r}\"")),
                charge: match m.run {
                    Some(r) => format!("{r}\"+{bonus}"),
                    None => format!("route {}\"+{bonus}", m.advance),
                },
                difficult: if scouts {
                    "ignored (SCOUTS)".to_string()
                } else {
                    match m.difficult {
                        DifficultTerrain::NoRun => "no RUN".to_string(),
                        DifficultTerrain::Ignore => "ignored".to_string(),
                        DifficultTerrain::NoRunHalfMove => "no RUN, ½ move".to_string(),
                    }
                },
                obstacles: match m.obstacles {
                    ObstacleRule::MinusD3Plus1 => "−(D3+1)\"".to_string(),
                    ObstacleRule::NoMove => "cannot cross".to_string(),
                },
                road: m
                    .road
                    .map_or("—".to_string(), |d| format!("+{}\"", d.label())),
                march_column: m
                    .march_column
                    .map_or("—".to_string(), |d| format!("+{}\"", d.label())),
            }
        })
        .collect()
}

fn shooting_dice(cat: &Catalogue, p: &Profile, band: RangeBand) -> u32 {
    mechanics::shooting_pool(
        cat,
        p,
        &Shot {
            firing_bases: p.bases(),
            shooter_state: HitState::Steady,
            band,
            target_skirmishers_or_guns: false,
            cover: false,
            obscured: false,
            enfiladed: false,
        },
    )
    .dice
}

/// Every base fighting to its front, nothing else counted (no charge, no General).
fn melee_dice(cat: &Catalogue, p: &Profile) -> u32 {
    mechanics::melee_pool(
        cat,
        p,
        &Fight {
            direct_bases: p.bases(),
            supporting_bases: 0,
            state: HitState::Steady,
            disordered: false,
            charging: false,
            against: Against::Front,
            enemy_kind: Kind::Infantry,
            in_the_open: false,
            enemy_defending_obstacle: false,
            enemy_uphill: false,
            limbered: false,
            general_attached: false,
            lead_the_fight: false,
        },
    )
    .dice
}

/// The card of one unit profile.
pub fn card(cat: &Catalogue, p: &Profile) -> Card {
    let kind = cat.kind(p.kind());
    let quality = cat.quality(p.quality());
    let weapon = cat.weapon(p.entry.weapon);
    let bases = p.bases();
    let figures = bases * kind.figures_per_base;
    let mut bases_line = format!(
        "{bases} base{} · {figures} {} · bases {} × {} mm",
        if bases == 1 { "" } else { "s" },
        if figures == 1 {
            kind.figure_word.trim_end_matches('s').to_string()
        } else {
            kind.figure_word.clone()
        },
        kind.base_mm[0],
        kind.base_mm[1]
    );
    if p.grenadiers_detached {
        bases_line.push_str(&format!(
            " · {} chosen, grenadiers detached (L-50)",
            p.chosen_bases
        ));
    }
    let elite = p.has(SpecialRule::Elite);
    let mut dice_notes = Vec::new();
    if elite {
        dice_notes.push(format!(
            "Totals include +{} dice for the ELITE rule.",
            cat.tables.elite_rule_dice
        ));
    }
    dice_notes.push(format!(
        "An attached General adds +{} melee dice (+{} with Lead The Fight!).",
        cat.general.melee_dice, cat.general.lead_the_fight_dice
    ));
    let hit = |faces: u32| format!("{}+", 7 - faces.clamp(1, 6));
    let mut shoot_to_hit = hit(mechanics::shooting_hit_faces(cat, p));
    if p.has(SpecialRule::Marksmen) {
        shoot_to_hit.push_str(" (MARKSMEN)");
    }
    if p.has(SpecialRule::PoorlyTrained) {
        shoot_to_hit.push_str(" (POORLY TRAINED)");
    }
    let mut melee_to_hit = hit(mechanics::melee_hit_faces(cat, p));
    if p.has(SpecialRule::ToughFighters) {
        melee_to_hit.push_str(", misses re-rolled once");
    }
    let saves = &cat.tables.saves;
    let states = [HitState::Steady, HitState::Worn, HitState::Shaken];
    let order_dice = states.map(|s| mechanics::test_dice(cat, p, s, TestKind::Order).0);
    let morale_dice = states.map(|s| mechanics::test_dice(cat, p, s, TestKind::Morale).0);
    let mut test_notes = Vec::new();
    if p.has(SpecialRule::Drilled) {
        test_notes.push("ORDER dice include +1 DRILLED".to_string());
    }
    if p.has(SpecialRule::Brave) {
        test_notes.push("MORALE dice include +1 BRAVE".to_string());
    }
    let unreliable = p.has(SpecialRule::Unreliable);
    let successes = format!(
        "{}: 1 · {}: {}",
        faces(&quality.one_success),
        faces(&quality.two_successes),
        if unreliable { "1 (UNRELIABLE)" } else { "2" }
    );
    let mut rerolls = vec![if p.has(SpecialRule::Natives) {
        "1 in command; never Supported (NATIVES)".to_string()
    } else {
        "1 in command, 1 Supported".to_string()
    }];
    if p.has(SpecialRule::Reliable) {
        rerolls.push("1 more in ORDER tests only: RELIABLE (L-7)".to_string());
    }
    if p.has(SpecialRule::Stubborn) {
        rerolls.push("a failed MORALE test taken again: STUBBORN (L-9)".to_string());
    }
    let range = if p.has(SpecialRule::Independent) {
        cat.general.independent_range
    } else {
        cat.general.command_range
    };
    let command = format!(
        "In command within {range}\" of its brigade's General{}.",
        if p.has(SpecialRule::Independent) {
            " (INDEPENDENT)"
        } else {
            ""
        }
    );
    let supporting = kind.dice.supporting_melee;
    Card {
        names: Vec::new(),
        icon: super::type_icon(p.kind()).id(),
        kind_name: kind.name.clone(),
        count: 0,
        entry: p.entry.name.clone(),
        kind_quality: format!("{} {}", quality.name, kind.name),
        bases_line,
        worn: p.size.worn,
        shaken: p.size.shaken,
        auto_broken: p.size.auto_broken,
        track: hit_track(p.size.worn, p.size.shaken, p.size.auto_broken),
        weapon: weapon.name.clone(),
        short: inches(weapon.short),
        effective: inches(weapon.effective),
        long: inches(weapon.long),
        explodes: weapon
            .explodes
            .map(|d| format!("each hit becomes {} hits before saves", d.label()))
            .unwrap_or_default(),
        canister: if weapon.artillery {
            format!(
                "canister {}: each hit becomes {} instead (L-20)",
                inches(cat.canister.range),
                cat.canister.explodes.label()
            )
        } else {
            String::new()
        },
        shoot_per_base: kind.dice.shooting.to_string(),
        shoot_effective: shooting_dice(cat, p, RangeBand::Effective),
        shoot_short: shooting_dice(cat, p, RangeBand::Short),
        shoot_long: shooting_dice(cat, p, RangeBand::Long),
        melee_direct: kind.dice.melee.to_string(),
        melee_supporting: if supporting.0 == 0 {
            "—".to_string()
        } else {
            supporting.to_string()
        },
        melee_total: melee_dice(cat, p),
        dice_notes,
        shoot_to_hit,
        melee_to_hit,
        saves: format!(
            "shooting {}+ ({}+ fortified), melee {} only",
            saves.shooting, saves.fortified, saves.melee
        ),
        order_dice,
        morale_dice,
        test_notes,
        successes,
        rerolls,
        movement: movement_lines(cat, p.kind(), p.has(SpecialRule::Scouts)),
        rules: p
            .entry
            .rules
            .iter()
            .map(|r| {
                let d = cat.rule(*r);
                RuleLine {
                    name: d.name.clone(),
                    summary: d.summary.clone(),
                }
            })
            .collect(),
        command,
        brigades: Vec::new(),
        history: Vec::new(),
        disorder_boxes: (1..=MARKER_BOXES).collect(),
        under_fire_boxes: (1..=MARKER_BOXES).collect(),
    }
}

/// The unit's name as printed: the player's, or its entry's.
pub fn unit_name(name: &str, p: Option<&Profile>, entry: &str) -> String {
    if !name.trim().is_empty() {
        name.to_string()
    } else {
        p.map_or_else(|| entry.to_string(), |p| p.entry.name.clone())
    }
}

/// A brigade as cards and the sheet name it: "1st Brigade (General Greene)".
pub fn brigade_label(name: &str, number: usize, general: Option<&str>) -> String {
    let name = if name.trim().is_empty() {
        format!("Brigade {number}")
    } else {
        name.to_string()
    };
    match general.filter(|g| !g.trim().is_empty()) {
        Some(g) => format!("{name} ({g})"),
        None => name,
    }
}

/// The cards of a roster; units whose entry cannot be read get none (the sheet lists them).
pub fn build(
    cat: &Catalogue,
    doc: &RosterDoc,
    state: Option<&ForceState>,
    one_per_unit: bool,
) -> CardSet {
    let views = units(cat, doc);
    let mut order: Vec<String> = Vec::new();
    let mut cards: BTreeMap<String, Card> = BTreeMap::new();
    for (view, (b, _, unit)) in views.iter().zip(doc.units()) {
        let Some(p) = &view.profile else { continue };
        let key = if one_per_unit {
            format!("{:03}-{:03}", view.brigade, view.index)
        } else {
            format!(
                "{}.{}|{}|{}",
                p.list.id(),
                p.entry.id,
                p.chosen_bases,
                p.grenadiers_detached
            )
        };
        let brigade = &doc.brigades[b];
        let label = brigade_label(
            &brigade.name,
            b + 1,
            brigade.general.as_ref().map(|g| g.name.as_str()),
        );
        let history = ForceState::history_of(state, unit.id.as_ref());
        let card = cards.entry(key.clone()).or_insert_with(|| {
            order.push(key.clone());
            card(cat, p)
        });
        card.count += 1;
        card.names.push(unit_name(&unit.name, Some(p), &unit.entry));
        if !card.brigades.contains(&label) {
            card.brigades.push(label);
        }
        card.history.extend(history);
    }
    let ordered: Vec<Card> = order.iter().filter_map(|k| cards.remove(k)).collect();
    let total_cards = ordered.len();
    CardSet {
        side: super::side_colour(&doc.army_list).class(),
        pages: ordered.chunks(CARDS_PER_PAGE).map(|c| c.to_vec()).collect(),
        total_cards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lod::{ArmyList, UnitDoc};

    fn profile(cat: &Catalogue, list: ArmyList, entry: &str, bases: u32) -> Profile {
        let (list, e) = cat.find_entry(list, entry).unwrap();
        cat.profile(list, e, bases, false).unwrap()
    }

    #[test]
    fn a_four_base_continental_regiment_card_shows_its_values_and_dice() {
        let cat = Catalogue::builtin().unwrap();
        let c = card(
            &cat,
            &profile(&cat, ArmyList::Continental, "continental_regiment", 4),
        );
        assert_eq!((c.worn, c.shaken, c.auto_broken), (8, 16, 24));
        assert_eq!(c.track.len(), 24);
        assert_eq!(c.track[7].mark, "W");
        assert_eq!(c.track[15].mark, "S");
        assert_eq!(c.track[23].mark, "AB");
        // 2.5 a base × 4 = 10 at effective; +0.5 short = 12; −0.5 long = 8 (4.3).
        assert_eq!(
            (c.shoot_effective, c.shoot_short, c.shoot_long),
            (10, 12, 8)
        );
        assert_eq!(c.melee_total, 12);
        assert_eq!(c.order_dice, [5, 4, 3], "DRILLED adds one ORDER die");
        assert_eq!(c.morale_dice, [4, 3, 2]);
        assert_eq!(c.kind_quality, "Regular Infantry");
        assert_eq!(c.successes, "4–5: 1 · 6: 2");
    }

    #[test]
    fn elite_marksmen_unreliable_and_guns_read_from_the_rules() {
        let cat = Catalogue::builtin().unwrap();
        let vets = card(
            &cat,
            &profile(
                &cat,
                ArmyList::Continental,
                "experienced_infantry_regiment",
                3,
            ),
        );
        // ceil(2.5 × 3) = 8, +2 ELITE rule.
        assert_eq!(vets.shoot_effective, 10);
        assert_eq!(vets.melee_total, 11);
        assert!(vets.rerolls.iter().any(|r| r.contains("RELIABLE")));
        let rifles = card(&cat, &profile(&cat, ArmyList::Continental, "riflemen", 3));
        assert!(rifles.shoot_to_hit.starts_with("3+"), "MARKSMEN hit on 3+");
        assert_eq!(rifles.movement[0].difficult, "ignored (SCOUTS)");
        assert!(rifles.command.contains("30\""));
        let green = card(
            &cat,
            &profile(&cat, ArmyList::Continental, "green_militia_regiment", 3),
        );
        assert_eq!(green.successes, "5: 1 · 6: 1 (UNRELIABLE)");
        let guns = card(
            &cat,
            &profile(&cat, ArmyList::British, "artillery_12pdr", 2),
        );
        assert!(guns.explodes.contains("D3+1"));
        assert!(guns.canister.contains("2D3"));
        assert_eq!(guns.movement.len(), 2, "limbered and unlimbered");
    }

    #[test]
    fn identical_units_share_a_card_unless_one_per_unit_is_asked() {
        let cat = Catalogue::builtin().unwrap();
        let mut doc = RosterDoc::new("Cards", "continental");
        for name in ["1st", "2nd"] {
            let mut u = UnitDoc::new("continental_regiment", 4);
            u.name = name.into();
            doc.brigades[0].units.push(u);
        }
        doc.brigades[0].units.push(UnitDoc::new("riflemen", 3));
        let set = build(&cat, &doc, None, false);
        assert_eq!(set.total_cards, 2);
        assert_eq!(set.pages[0][0].count, 2);
        assert_eq!(set.pages[0][0].names_text(), "1st, 2nd");
        assert_eq!(set.pages[0][1].names_text(), "Riflemen");
        assert_eq!(build(&cat, &doc, None, true).total_cards, 3);
    }

    #[test]
    fn a_campaign_force_prints_reduced_units_with_their_history() {
        let cat = Catalogue::builtin().unwrap();
        let mut doc = RosterDoc::new("Reduced", "british");
        // Light Infantry is listed at 4 or 5 bases; a campaign may leave it at 3 (3.4).
        doc.brigades[0]
            .units
            .push(UnitDoc::new("light_infantry", 3));
        doc.assign_ids();
        let id = doc.brigades[0].units[0].id.clone().unwrap();
        let mut state = ForceState::default();
        state
            .history
            .insert(id, vec!["reduced to 3 bases after Camden".into()]);
        let set = build(&cat, &doc, Some(&state), false);
        let c = &set.pages[0][0];
        assert_eq!((c.worn, c.shaken, c.auto_broken), (3, 6, 9));
        assert_eq!(c.history, ["reduced to 3 bases after Camden"]);
    }
}
