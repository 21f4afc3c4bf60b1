//! Shooting: the pool, the roll with re-rolls and solid-shot
//! penetration, and the judgement of ragged and punishing volleys.

use serde::{Deserialize, Serialize};

use super::DicePool;
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::catalogue::{Catalogue, ShootingModifier};
use crate::rules::systems::lotf::types::{ElementType, Weapon};

/// What an artillery element loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ammunition {
    #[default]
    SolidShot,
    Grapeshot,
}

/// How a shot behaves once rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotKind {
    /// Muskets, rifles, mixed weapons.
    Musket,
    /// Cannon firing solid shot: 6s add dice (and 5s into a flank).
    SolidShot,
    /// Cannon firing grapeshot within 12" (+2 dice, R-15).
    Grapeshot,
    /// Siege mortar: ignores cover.
    Mortar,
    /// Rockets: every hitting die is a Disorder Marker, not a hit.
    Rockets,
}

impl ShotKind {
    /// Artillery kinds that add one Disorder Marker when the order hits.
    pub fn disorders_on_hit(self) -> bool {
        matches!(
            self,
            ShotKind::SolidShot | ShotKind::Grapeshot | ShotKind::Mortar
        )
    }
}

/// The shooting element as the pool needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShooterState {
    pub element_type: ElementType,
    /// The effective weapon or gun class.
    pub weapon: Weapon,
    /// Action dice from the profile.
    pub action: u8,
    /// Numbers: +2.
    pub extra_dice: u8,
    /// Effective range in inches (profile; Rifles 18", Mixed Weapons 6").
    pub range: u8,
    /// Minimum range (mortars, rockets).
    pub min_range: u8,
    pub exhausted: bool,
    pub disorder_markers: u32,
}

/// Where and how the shot is fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShotSituation {
    pub range_inches: u32,
    pub target_in_cover: bool,
    /// Target in Open Order (or unlimbered artillery, R-9).
    pub target_open_order: bool,
    pub flank: bool,
    pub ammunition: Ammunition,
}

/// Why a shot cannot be fired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum ShotBar {
    #[error("the target is {range}\" away, beyond the weapon's {max}\" range")]
    OutOfRange { range: u32, max: u8 },
    #[error("the target is {range}\" away, inside the weapon's {min}\" minimum range")]
    TooClose { range: u32, min: u8 },
    #[error("grapeshot needs a target within {max}\" (R-17)")]
    GrapeshotTooFar { max: u8 },
}

/// The kind of shot an element fires with this ammunition.
pub fn shot_kind(shooter: &ShooterState, ammo: Ammunition) -> ShotKind {
    match (shooter.element_type, shooter.weapon) {
        (ElementType::Artillery, Weapon::SiegeMortar) => ShotKind::Mortar,
        (ElementType::Artillery, Weapon::Rockets) => ShotKind::Rockets,
        (ElementType::Artillery, _) => match ammo {
            Ammunition::SolidShot => ShotKind::SolidShot,
            Ammunition::Grapeshot => ShotKind::Grapeshot,
        },
        _ => ShotKind::Musket,
    }
}

/// The shooting pool: 2 base dice + Action dice + the table's
/// modifiers. Cover never stacks and mortars ignore it; the long-range
/// −1 applies to artillery too; Numbers adds 2; an Exhausted
/// shooter loses one Action die. A pool of zero or less is kept as it
/// is: [`DicePool::dice`] and [`DicePool::to_hit`] apply R-14.
pub fn shooting_pool(
    cat: &Catalogue,
    shooter: &ShooterState,
    sit: &ShotSituation,
) -> Result<(DicePool, ShotKind), ShotBar> {
    shooting_pool_with(cat, shooter, sit, true)
}

/// [`shooting_pool`] without its terms (the same total and to-hit numbers),
/// for the simulator when it does not narrate: no allocation.
pub fn shooting_pool_unexplained(
    cat: &Catalogue,
    shooter: &ShooterState,
    sit: &ShotSituation,
) -> Result<(DicePool, ShotKind), ShotBar> {
    shooting_pool_with(cat, shooter, sit, false)
}

fn shooting_pool_with(
    cat: &Catalogue,
    shooter: &ShooterState,
    sit: &ShotSituation,
    explain: bool,
) -> Result<(DicePool, ShotKind), ShotBar> {
    let n = cat.numbers();
    let kind = shot_kind(shooter, sit.ammunition);
    if sit.range_inches > u32::from(shooter.range) {
        return Err(ShotBar::OutOfRange {
            range: sit.range_inches,
            max: shooter.range,
        });
    }
    if sit.range_inches < u32::from(shooter.min_range) {
        return Err(ShotBar::TooClose {
            range: sit.range_inches,
            min: shooter.min_range,
        });
    }
    if kind == ShotKind::Grapeshot && sit.range_inches > u32::from(n.grapeshot_max_inches) {
        return Err(ShotBar::GrapeshotTooFar {
            max: n.grapeshot_max_inches,
        });
    }
    let t = &cat.tables().shooting;
    let mut pool = if explain {
        DicePool::new(t.to_hit, n.zero_pool_to_hit)
    } else {
        DicePool::unexplained(t.to_hit, n.zero_pool_to_hit)
    };
    pool.put(explain, "base", "base", i32::from(t.base_dice));
    pool.put(explain, "action", "Action", i32::from(shooter.action));
    pool.put(explain, "numbers", "Numbers", i32::from(shooter.extra_dice));
    if shooter.exhausted {
        pool.put(
            explain,
            "exhausted",
            "Exhausted",
            cat.shooting_modifier(ShootingModifier::Exhausted),
        );
    }
    if kind == ShotKind::Grapeshot {
        pool.put(
            explain,
            "grapeshot",
            "grapeshot",
            cat.shooting_modifier(ShootingModifier::Grapeshot),
        );
    }
    if sit.range_inches <= u32::from(n.point_blank_inches) {
        pool.put(
            explain,
            "point_blank",
            "point blank",
            cat.shooting_modifier(ShootingModifier::PointBlank),
        );
    }
    if sit.range_inches > u32::from(n.long_range_over_inches) {
        pool.put(
            explain,
            "long_range",
            "long range",
            cat.shooting_modifier(ShootingModifier::LongRange),
        );
    }
    if sit.flank {
        pool.put(
            explain,
            "flank",
            "flank",
            cat.shooting_modifier(ShootingModifier::Flank),
        );
    }
    if sit.target_in_cover && kind != ShotKind::Mortar {
        pool.put(
            explain,
            "cover",
            "cover",
            cat.shooting_modifier(ShootingModifier::Cover),
        );
    }
    if sit.target_open_order {
        pool.put(
            explain,
            "open_order",
            "open order",
            cat.shooting_modifier(ShootingModifier::OpenOrder),
        );
    }
    if shooter.disorder_markers > 0 {
        let per = cat.shooting_modifier(ShootingModifier::Disorder);
        let label = if shooter.disorder_markers == 1 {
            "Disorder Marker"
        } else {
            "Disorder Markers"
        };
        pool.put(
            explain,
            "disorder",
            label,
            per.saturating_mul(shooter.disorder_markers.min(1000) as i32),
        );
    }
    Ok((pool, kind))
}

/// Everything that decides how one shooting order rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotSpec {
    /// Dice rolled (at least 1).
    pub dice: u32,
    pub to_hit: u8,
    pub kind: ShotKind,
    /// Solid shot into a flank: 5s penetrate too (raking fire, R-17).
    pub raking: bool,
    /// Concentrated Volley or German Ranks: misses re-rolled once.
    pub reroll_misses: bool,
    /// Concentrated Volley or German Ranks: a ragged volley is ignored.
    pub ignore_ragged: bool,
    /// Marksmen: a single 6 disorders the target.
    pub marksmen: bool,
}

impl ShotSpec {
    /// A spec from a pool.
    pub fn from_pool(pool: &DicePool, kind: ShotKind, flank: bool) -> ShotSpec {
        ShotSpec {
            dice: pool.dice(),
            to_hit: pool.to_hit(),
            kind,
            raking: flank && kind == ShotKind::SolidShot,
            reroll_misses: false,
            ignore_ragged: false,
            marksmen: false,
        }
    }

    /// The face from which a hitting solid-shot die adds another die.
    /// A penetrating die must also hit, so an empty pool penetrates only on
    /// its 6 (M-13).
    pub fn penetration_face(&self, cat: &Catalogue) -> Option<u8> {
        if self.kind != ShotKind::SolidShot {
            return None;
        }
        let n = cat.numbers();
        let face = if self.raking {
            n.raking_penetration_face
        } else {
            n.penetration_face
        };
        Some(face.max(self.to_hit))
    }
}

/// What a volley does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VolleyEffect {
    /// Hits after a ragged volley took one off (rockets: always 0).
    pub hits: u32,
    /// Disorder Markers for the target.
    pub disorder_markers: u32,
    pub ragged: bool,
    pub punishing: bool,
}

/// Judge a volley from its final dice: two or more 1s take a
/// hit off (unless ignored), two or more 6s add a Disorder Marker, and both
/// together cancel (M-14: when the ragged volley is ignored, there is nothing
/// to cancel and the punishing volley stands). Marksmen disorder on any 6, and
/// a punishing volley then gives two markers in all; their single-6 marker
/// survives a cancellation. Rocket hits become Disorder Markers; a cannon or
/// mortar order that still hits adds one marker.
pub fn judge_volley(
    cat: &Catalogue,
    spec: &ShotSpec,
    hitting_dice: u32,
    ones: u32,
    sixes: u32,
) -> VolleyEffect {
    let doubles = u32::from(cat.numbers().volley_doubles);
    let mut ragged = !spec.ignore_ragged && ones >= doubles;
    let mut punishing = sixes >= doubles;
    if ragged && punishing {
        ragged = false;
        punishing = false;
    }
    let hits = if ragged {
        hitting_dice.saturating_sub(1)
    } else {
        hitting_dice
    };
    let mut dm = 0;
    if punishing {
        dm += 1;
    }
    if spec.marksmen && sixes >= 1 {
        dm += 1;
    }
    let (hits, dm) = match spec.kind {
        ShotKind::Rockets => (0, dm + hits),
        k if k.disorders_on_hit() && hits > 0 => (hits, dm + 1),
        _ => (hits, dm),
    };
    VolleyEffect {
        hits,
        disorder_markers: dm,
        ragged,
        punishing,
    }
}

/// One rolled volley.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VolleyRoll {
    /// Final faces: the pool after re-rolls, then penetration dice.
    pub faces: Vec<u8>,
    pub hitting_dice: u32,
    pub effect: VolleyEffect,
}

/// Roll a volley: the pool, one re-roll of each miss if allowed (a re-roll
/// stands), then solid-shot penetration dice, which are never re-rolled
/// (M-13). Ragged and punishing are judged on all final faces.
pub fn roll_volley(cat: &Catalogue, spec: &ShotSpec, dice: &mut Dice) -> VolleyRoll {
    let mut faces: Vec<u8> = Vec::with_capacity(spec.dice as usize + 2);
    for _ in 0..spec.dice.min(10_000) {
        let mut f = dice.d6();
        if spec.reroll_misses && f < spec.to_hit {
            f = dice.d6();
        }
        faces.push(f);
    }
    if let Some(pen) = spec.penetration_face(cat) {
        let mut pending = faces.iter().filter(|&&f| f >= pen).count();
        while pending > 0 {
            pending -= 1;
            let f = dice.d6();
            faces.push(f);
            if f >= pen {
                pending += 1;
            }
        }
    }
    let hitting = faces.iter().filter(|&&f| f >= spec.to_hit).count() as u32;
    let ones = faces.iter().filter(|&&f| f == 1).count() as u32;
    let sixes = faces.iter().filter(|&&f| f == 6).count() as u32;
    VolleyRoll {
        effect: judge_volley(cat, spec, hitting, ones, sixes),
        faces,
        hitting_dice: hitting,
    }
}

/// What [`roll_volley`] does to the target, with the same dice drawn in the
/// same order, counted as they fall instead of kept (no allocation).
pub fn roll_volley_effect(cat: &Catalogue, spec: &ShotSpec, dice: &mut Dice) -> VolleyEffect {
    let (mut hitting, mut ones, mut sixes) = (0u32, 0u32, 0u32);
    let mut count = |f: u8| {
        hitting += u32::from(f >= spec.to_hit);
        ones += u32::from(f == 1);
        sixes += u32::from(f == 6);
    };
    let pen = spec.penetration_face(cat);
    let mut pending = 0usize;
    for _ in 0..spec.dice.min(10_000) {
        let mut f = dice.d6();
        if spec.reroll_misses && f < spec.to_hit {
            f = dice.d6();
        }
        count(f);
        if pen.is_some_and(|p| f >= p) {
            pending += 1;
        }
    }
    if let Some(pen) = pen {
        while pending > 0 {
            pending -= 1;
            let f = dice.d6();
            count(f);
            if f >= pen {
                pending += 1;
            }
        }
    }
    judge_volley(cat, spec, hitting, ones, sixes)
}
