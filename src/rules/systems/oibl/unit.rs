//! A roster unit read against the catalogue: the statistics the cards, the odds and the
//! simulator use (spec 1.7), with every default filled in from the class.

use serde::Serialize;

use super::catalogue::Catalogue;
use super::roster::{RosterDoc, UnitDoc};
use super::types::{Formation, GunClass, Kind, Quality};

/// A unit's static statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitStats {
    pub id: String,
    pub name: String,
    pub class: String,
    pub class_name: String,
    pub kind: Kind,
    pub quality: Quality,
    pub morale_number: i32,
    pub basing: String,
    pub figures_per_stand: u32,
    pub stands: u32,
    /// Figures at the start (artillery: crew).
    pub figures: u32,
    pub weapon: String,
    pub range: f64,
    pub bayonets: bool,
    /// Counts as bayonet-armed in melee: bayonets, Indian hatchets (B-39); mounted cavalry are
    /// "armed" and handled apart (B-18).
    pub melee_armed: bool,
    /// Every formation it may use (class defaults, free flags and grants).
    pub formations: Vec<Formation>,
    pub marksmen: bool,
    pub light_infantry: bool,
    pub gun: Option<GunClass>,
    pub guns: u32,
    /// Figures each gun fires with.
    pub gun_figures: u32,
}

impl UnitStats {
    /// The formation it starts a battle in: its class's first formation it may use (guns
    /// unlimbered, B-47's simulator keeps them so).
    pub fn start_formation(&self) -> Formation {
        if self.kind == Kind::Artillery {
            return Formation::Unlimbered;
        }
        self.formations
            .first()
            .copied()
            .unwrap_or(Formation::OpenOrder)
    }

    pub fn can_skirmish(&self) -> bool {
        self.formations.contains(&Formation::Skirmish)
    }
}

/// The formations a unit may use: the class's defaults, skirmish order where a flag makes it
/// free (B-40), and the scenario's grants the class may receive.
pub fn allowed_formations(cat: &Catalogue, unit: &UnitDoc) -> Vec<Formation> {
    let Some(class) = cat.class(&unit.class) else {
        return Vec::new();
    };
    let mut out = class.formations.clone();
    let flags = unit.flags();
    if class
        .free_skirmish_flags
        .iter()
        .any(|f| flags.contains(&f.as_str()))
        && !out.contains(&Formation::Skirmish)
    {
        out.push(Formation::Skirmish);
    }
    for a in &unit.authorizations {
        if let Some(f) = Formation::from_id(a) {
            if class.authorizable.contains(&f) && !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// Reads a unit; `None` when its class, quality, basing, weapon or gun cannot be read.
pub fn stats(cat: &Catalogue, unit: &UnitDoc, fallback_id: &str) -> Option<UnitStats> {
    let class = cat.class(&unit.class)?;
    let quality = Quality::from_id(&unit.quality)?;
    let basing_id = unit.basing.clone().unwrap_or_else(|| class.basing.clone());
    let basing = cat.basing(&basing_id)?;
    let weapon_id = unit
        .weapon
        .clone()
        .or_else(|| class.weapons.first().cloned())?;
    let weapon = cat.weapon(&weapon_id)?;
    let (gun, guns, gun_figures, stands, figures) = if class.kind == Kind::Artillery {
        let gun = GunClass::from_id(unit.gun.as_deref()?)?;
        let g = cat.gun(gun);
        let guns = unit.guns.unwrap_or(1);
        let crew = unit.crew.unwrap_or(g.default_crew);
        let figures = unit
            .figures
            .unwrap_or_else(|| guns.saturating_mul(crew))
            .min(guns.saturating_mul(crew).max(1));
        (Some(gun), guns, g.figures, guns, figures)
    } else {
        let full = unit.stands.saturating_mul(basing.figures_per_stand);
        (None, 0, 0, unit.stands, unit.figures.unwrap_or(full))
    };
    Some(UnitStats {
        id: unit
            .id
            .clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| fallback_id.to_string()),
        name: if unit.name.is_empty() {
            class.name.clone()
        } else {
            unit.name.clone()
        },
        class: class.id.clone(),
        class_name: class.name.clone(),
        kind: class.kind,
        quality,
        morale_number: cat.morale_number(quality),
        basing: basing.id.clone(),
        figures_per_stand: basing.figures_per_stand,
        stands,
        figures,
        weapon: weapon.id.clone(),
        range: weapon.range,
        bayonets: unit.bayonets.unwrap_or(class.bayonets) && class.kind == Kind::Infantry,
        melee_armed: (unit.bayonets.unwrap_or(class.bayonets) && class.kind == Kind::Infantry)
            || class.kind == Kind::Indian,
        formations: allowed_formations(cat, unit),
        marksmen: unit.marksmen,
        light_infantry: unit.light_infantry,
        gun,
        guns,
        gun_figures,
    })
}

/// Every readable unit of a roster with its brigade index.
pub fn roster_units(cat: &Catalogue, doc: &RosterDoc) -> Vec<(usize, UnitStats)> {
    doc.units()
        .filter_map(|(b, u, unit)| stats(cat, unit, &format!("b{b}u{u}")).map(|s| (b, s)))
        .collect()
}
