//! Unit cards (spec section 6): one per distinct unit with a count and the units' names, or one
//! per unit on request. Every number is read from the catalogue through the rules core's unit
//! statistics, so a card says what the odds calculator and the checks use.

use std::collections::BTreeMap;

use super::reference::{inches, signed};
use super::{ForceState, CARDS_PER_PAGE};
use crate::rules::systems::oibl::catalogue::Catalogue;
use crate::rules::systems::oibl::roster::{RosterDoc, UnitDoc};
use crate::rules::systems::oibl::types::{Formation, Kind, Quality};
use crate::rules::systems::oibl::unit::{stats, UnitStats};
use crate::web::pages::print::{lines_within, names_within};

/// One box of a figure tally: `n` figures lost; `mark` names what that loss brings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TallyBox {
    pub n: u32,
    pub mark: String,
}

/// The loss tally 1…start: the morale modifier where each loss band begins (B-9, inclusive on
/// starting figures) and the box from which the unit is destroyed (B-33).
pub fn loss_tally(cat: &Catalogue, start: u32) -> Vec<TallyBox> {
    (1..=start)
        .map(|lost| {
            let mut marks = Vec::new();
            for band in &cat.loss_bands {
                // The first loss that reaches the band: lost × 4 ≥ quarters × start.
                let first = (band.quarters * start).div_ceil(4);
                if lost == first.max(1) {
                    marks.push(signed(cat.morale_mod(&band.id)));
                }
            }
            if start.saturating_sub(lost) < cat.destroyed_below
                && start.saturating_sub(lost - 1) >= cat.destroyed_below
            {
                marks.push("✗".to_string());
            }
            TallyBox {
                n: lost,
                mark: marks.join(" "),
            }
        })
        .collect()
}

/// A formation line of a card: how it moves, fires and whether it may charge.
#[derive(Debug, Clone)]
pub struct FormationLine {
    pub name: String,
    /// "scenario" when only a grant allows it.
    pub granted: bool,
    pub moves: String,
    pub fires: String,
    pub charge: String,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub names: Vec<String>,
    pub icon: &'static str,
    pub count: usize,
    pub class_name: String,
    pub nation: String,
    pub quality: String,
    pub morale_number: i32,
    /// Indians' extra steps (B-11), empty for others.
    pub morale_note: String,
    /// "6 stands × 3 figures = 18 figures".
    pub basing_line: String,
    pub start_figures: u32,
    pub tally: Vec<TallyBox>,
    pub small_tally: bool,
    pub formations: Vec<FormationLine>,
    pub weapon: String,
    pub range: String,
    pub melee_arms: String,
    pub marksmen: String,
    pub fire_modifier: String,
    pub flags: Vec<String>,
    /// Artillery only.
    pub gun: Option<GunLine>,
    pub brigades: Vec<String>,
    pub history: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct GunLine {
    pub name: String,
    pub guns: u32,
    pub figures: u32,
    pub bands: String,
    pub crew: u32,
}

impl Card {
    pub fn names_text(&self) -> String {
        names_within(&self.names, 70)
    }

    pub fn brigades_text(&self) -> String {
        names_within(&self.brigades, 90)
    }

    pub fn history_lines(&self) -> Vec<String> {
        lines_within(&self.history, 2)
    }
}

/// The cards of a force, page by page.
pub struct CardSet {
    pub side: &'static str,
    pub pages: Vec<Vec<Card>>,
    pub total_cards: usize,
}

fn move_rate_id(kind: Kind, formation: Formation) -> &'static str {
    match (kind, formation) {
        (Kind::Cavalry, _) => "cavalry",
        (_, Formation::CloseOrder | Formation::Limbered) => "close_order",
        (_, Formation::OpenOrder) => "open_order",
        (_, Formation::Column) => "column",
        (_, Formation::Skirmish) => "skirmish",
        (_, Formation::Unlimbered) => "prolonge",
    }
}

fn formation_line(cat: &Catalogue, s: &UnitStats, f: Formation, granted: bool) -> FormationLine {
    let moves = cat
        .move_rate(move_rate_id(s.kind, f))
        .map(|m| {
            if m.die {
                format!("1d6+{}", inches(m.base))
            } else {
                inches(m.base)
            }
        })
        .unwrap_or_default();
    let fires = match (s.kind, f) {
        (Kind::Cavalry, _) => "mounted: no (B-44)".to_string(),
        (Kind::Artillery, Formation::Unlimbered) => format!("{} figures a gun", s.gun_figures),
        (Kind::Artillery, _) => "no".to_string(),
        (_, Formation::CloseOrder) => "both ranks".to_string(),
        (_, Formation::OpenOrder) => "every stand".to_string(),
        (_, Formation::Column) => "front rank".to_string(),
        (_, Formation::Skirmish) => "each stand".to_string(),
        _ => "no".to_string(),
    };
    let charge = match (s.kind, f) {
        (Kind::Artillery, _) => "no",
        (Kind::Cavalry, _) | (Kind::Indian, _) => "yes",
        (_, Formation::CloseOrder | Formation::OpenOrder) => "yes",
        (_, Formation::Column) => "defiles only (B-28)",
        _ => "no",
    };
    FormationLine {
        name: f.words().to_string(),
        granted,
        moves,
        fires,
        charge: charge.to_string(),
    }
}

fn quality_name(cat: &Catalogue, q: Quality) -> String {
    cat.quality(q).name.clone()
}

/// What makes two units share a card: everything the card shows except names and brigades.
fn profile_key(doc_unit: &UnitDoc) -> String {
    let mut u = doc_unit.clone();
    u.id = None;
    u.name = String::new();
    serde_json::to_string(&u).unwrap_or_default()
}

fn nation_name(nation: &str) -> String {
    match nation {
        "american" => "American",
        "british" => "British",
        "loyalist" => "Loyalist",
        "german" => "German",
        "french" => "French",
        "indian" => "Indian",
        other => other,
    }
    .to_string()
}

fn build_card(
    cat: &Catalogue,
    doc: &RosterDoc,
    unit: &UnitDoc,
    s: &UnitStats,
    brigade: String,
    history: Vec<String>,
) -> Card {
    let class = cat.class(&s.class);
    let defaults: Vec<Formation> = class.map(|c| c.formations.clone()).unwrap_or_default();
    let formations = s
        .formations
        .iter()
        .map(|f| formation_line(cat, s, *f, !defaults.contains(f)))
        .collect();
    let icon = match (s.kind, s.formations.as_slice()) {
        (Kind::Cavalry, _) => "cavalry",
        (Kind::Artillery, _) => "artillery",
        (Kind::Indian, _) => "skirmishers",
        (_, [Formation::Skirmish]) => "skirmishers",
        _ => "infantry",
    };
    let morale_note = if s.kind == Kind::Indian {
        "Indians: one step better for charge and melee tests, one more in woods, never above 9 (B-11)."
            .to_string()
    } else {
        String::new()
    };
    let basing_line = match s.kind {
        Kind::Artillery => format!(
            "{} gun{} · {} crew figure{}",
            s.guns,
            if s.guns == 1 { "" } else { "s" },
            s.figures,
            if s.figures == 1 { "" } else { "s" }
        ),
        _ => {
            let full = s.stands * s.figures_per_stand;
            let under = if s.figures < full {
                format!(" (under strength: {} of {full})", s.figures)
            } else {
                String::new()
            };
            format!(
                "{} stand{} × {} figure{} = {} figures{under}",
                s.stands,
                if s.stands == 1 { "" } else { "s" },
                s.figures_per_stand,
                if s.figures_per_stand == 1 { "" } else { "s" },
                full
            )
        }
    };
    let weapon = cat
        .weapon(&s.weapon)
        .map_or_else(|| s.weapon.clone(), |w| w.name.clone());
    let melee_arms = match s.kind {
        Kind::Indian => "hatchets (count as bayonets, B-39)",
        Kind::Cavalry => "sabres (armed, B-18)",
        _ if s.bayonets => "bayonets",
        _ => "no bayonets",
    }
    .to_string();
    let fire_mod = cat.quality(s.quality).fire_modifier;
    let gun = s.gun.map(|g| {
        let data = cat.gun(g);
        let b = &cat.cannon_bands;
        GunLine {
            name: format!("{} ({})", data.name, data.calibre),
            guns: s.guns,
            figures: data.figures,
            bands: format!(
                "under {}: 0 · {}–{}: {} · to {}: {}",
                inches(b.short_below),
                inches(b.short_below),
                inches(b.medium_to),
                signed(cat.fire_mod("cannon_12_25")),
                inches(b.long_to),
                signed(cat.fire_mod("cannon_over_25"))
            ),
            crew: unit.crew.unwrap_or(data.default_crew),
        }
    });
    let mut flags = Vec::new();
    if unit.light_infantry {
        flags.push("Converged light infantry: skirmish order without a grant (B-40)".to_string());
    }
    if unit.grenadiers {
        flags.push("Converged grenadiers".to_string());
    }
    if unit.legion {
        flags.push("Legion infantry".to_string());
    }
    if unit.discharged_continentals {
        flags.push(
            "Discharged Continentals: normal basing and bayonets, militia formations (B-41)"
                .to_string(),
        );
    }
    Card {
        names: vec![s.name.clone()],
        icon,
        count: 1,
        class_name: s.class_name.clone(),
        nation: nation_name(&doc.nation),
        quality: quality_name(cat, s.quality),
        morale_number: s.morale_number,
        morale_note,
        basing_line,
        start_figures: s.figures,
        tally: loss_tally(cat, s.figures),
        small_tally: s.figures > 45,
        formations,
        weapon,
        range: inches(s.range),
        melee_arms,
        marksmen: if s.marksmen {
            format!(
                "Marksmen: {} to fire (a scenario grant)",
                signed(cat.fire_mod("marksmen"))
            )
        } else {
            String::new()
        },
        fire_modifier: if fire_mod == 0 {
            String::new()
        } else {
            format!(
                "{} quality: {} to fire",
                quality_name(cat, s.quality),
                signed(fire_mod)
            )
        },
        flags,
        gun,
        brigades: vec![brigade],
        history,
    }
}

/// The brigade as a card names it: "Howard's Continentals (Howard, X 1)".
pub fn brigade_label(doc: &RosterDoc, index: usize) -> String {
    let Some(b) = doc.brigades.get(index) else {
        return String::new();
    };
    let name = if b.name.is_empty() {
        format!("Brigade {}", index + 1)
    } else {
        b.name.clone()
    };
    match &b.commander {
        Some(c) if !c.name.is_empty() => {
            format!("{name} ({}, X {})", c.name, c.rating_or_default())
        }
        Some(c) => format!("{name} (X {})", c.rating_or_default()),
        None => format!("{name} (no commander)"),
    }
}

/// The colour a side's cards and sheet carry, by nation.
pub fn side_colour(nation: &str) -> crate::web::pages::print::SideColour {
    use crate::web::pages::print::SideColour;
    match nation {
        "british" => SideColour::Red,
        "loyalist" => SideColour::Green,
        "german" => SideColour::Green,
        "french" => SideColour::RoyalBlue,
        "indian" => SideColour::Ochre,
        _ => SideColour::Blue,
    }
}

pub fn build(
    cat: &Catalogue,
    doc: &RosterDoc,
    force: Option<&ForceState>,
    one_per_unit: bool,
) -> CardSet {
    let mut cards: Vec<Card> = Vec::new();
    let mut by_profile: BTreeMap<String, usize> = BTreeMap::new();
    for (b, u, unit) in doc.units() {
        let Some(s) = stats(cat, unit, &format!("b{b}u{u}")) else {
            // A unit the catalogue cannot read has no card; its roster page says why.
            continue;
        };
        let history = ForceState::history_of(force, unit.id.as_ref());
        let brigade = brigade_label(doc, b);
        let key = profile_key(unit);
        if !one_per_unit && history.is_empty() {
            if let Some(&i) = by_profile.get(&key) {
                let card = &mut cards[i];
                card.count += 1;
                card.names.push(s.name.clone());
                if !card.brigades.contains(&brigade) {
                    card.brigades.push(brigade);
                }
                continue;
            }
            by_profile.insert(key, cards.len());
        }
        cards.push(build_card(cat, doc, unit, &s, brigade, history));
    }
    let total_cards = cards.len();
    let pages = cards.chunks(CARDS_PER_PAGE).map(<[Card]>::to_vec).collect();
    CardSet {
        side: side_colour(&doc.nation).class(),
        pages,
        total_cards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_marks_each_loss_band_where_it_begins() {
        let cat = Catalogue::builtin().expect("catalogue");
        // 18 figures (B-9): a quarter at 5 lost (5 × 4 ≥ 18), half at 9, three quarters at 14;
        // fewer than 2 left from 17 lost (B-33).
        let tally = loss_tally(&cat, 18);
        let marked: Vec<(u32, &str)> = tally
            .iter()
            .filter(|b| !b.mark.is_empty())
            .map(|b| (b.n, b.mark.as_str()))
            .collect();
        assert_eq!(marked, vec![(5, "+1"), (9, "+2"), (14, "+3"), (17, "✗")]);
        // 4 figures: 1, 2, 3 lost; destroyed from 3 lost.
        let small: Vec<String> = loss_tally(&cat, 4).into_iter().map(|b| b.mark).collect();
        assert_eq!(small, vec!["+1", "+2", "+3 ✗", ""]);
    }
}
