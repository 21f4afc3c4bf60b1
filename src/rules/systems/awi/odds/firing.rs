//! Firing odds (spec 4.2, `POST /api/v1/awi/odds/firing`): the score needed and its terms, the
//! chance per die, and the exact distribution of casualties, bases lost and the general's risk.

use serde::{Deserialize, Serialize};

use super::super::catalogue::{band_at, Catalogue, Fires};
use super::super::types::{Arms, Grade, GunClass, RangeBand, TroopType};
use super::dist::{general_killed, hit_chance, hit_fraction, Dist, Row};
use super::{OddsError, Term};

/// Who fires.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Firer {
    #[serde(rename = "type")]
    pub troop_type: String,
    #[serde(default = "trained")]
    pub grade: String,
    /// Bases of infantry or skirmishers that fire (line: all; column: the 2 front bases, W-16).
    #[serde(default)]
    pub bases_firing: Option<u32>,
    /// A gun's class, `light` or `medium`.
    #[serde(default)]
    pub gun: Option<String>,
    /// A gun's gunners, 1–4 (default 4).
    #[serde(default)]
    pub gunners: Option<u32>,
    /// Skirmishers' arms: `musket` (default) or `rifle` (Muster's extension).
    #[serde(default)]
    pub arms: Option<String>,
    #[serde(default)]
    pub disordered: bool,
    /// This is the unit's first close-order volley of the battle (W-20).
    #[serde(default)]
    pub first_volley: bool,
    /// Close-order infantry that moved in its own last move (W-21).
    #[serde(default)]
    pub moved_last_move: bool,
}

pub(super) fn trained() -> String {
    "trained".into()
}

/// What is fired at.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    #[serde(rename = "type", default = "infantry")]
    pub troop_type: String,
    #[serde(default)]
    pub column: bool,
    #[serde(default)]
    pub enfiladed: bool,
    #[serde(default)]
    pub in_cover: bool,
    #[serde(default)]
    pub strong_house: bool,
    #[serde(default)]
    pub general_attached: bool,
    /// Figures the target had lost before this fire (Muster's extension), for the bases lost.
    #[serde(default)]
    pub figures_lost: u32,
}

fn infantry() -> String {
    "infantry".into()
}

impl Default for Target {
    /// Formed infantry in the open, nothing lost before.
    fn default() -> Target {
        Target {
            troop_type: infantry(),
            column: false,
            enfiladed: false,
            in_cover: false,
            strong_house: false,
            general_attached: false,
            figures_lost: 0,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FiringRequest {
    pub firer: Firer,
    #[serde(default)]
    pub target: Target,
    pub range_inches: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FiringAnswer {
    pub kind: &'static str,
    pub band: RangeBand,
    pub dice: u32,
    /// How the dice were built, in words.
    pub dice_built: String,
    pub base_need: i32,
    pub terms: Vec<Term>,
    pub need: i32,
    pub p_hit: f64,
    pub p_hit_fraction: String,
    pub casualties: Vec<Row>,
    pub expected_casualties: f64,
    /// A unit that takes 2 or more hits tests morale next move (W-10).
    pub p_two_or_more: f64,
    /// `None` without a general attached.
    pub p_general_killed: Option<f64>,
    /// Bases the target loses to this fire, given the figures it had lost before (W-2).
    pub bases_lost: Vec<Row>,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

pub(super) fn troop(field: &str, s: &str) -> Result<TroopType, OddsError> {
    TroopType::from_id(s).ok_or_else(|| {
        OddsError::field(
            field,
            format!("'{s}' is not a troop type: infantry, skirmishers, cavalry or artillery."),
        )
    })
}

pub(super) fn grade(field: &str, s: &str) -> Result<Grade, OddsError> {
    Grade::from_id(s).ok_or_else(|| {
        OddsError::field(
            field,
            format!("'{s}' is not a grade: elite, trained, raw or militia."),
        )
    })
}

/// The exact odds of one unit's fire.
pub fn firing(cat: &Catalogue, req: &FiringRequest) -> Result<FiringAnswer, OddsError> {
    let ft = troop("firer.type", &req.firer.troop_type)?;
    let g = grade("firer.grade", &req.firer.grade)?;
    let tt = troop("target.type", &req.target.troop_type)?;
    let mut notes = Vec::new();
    let mut rulings = vec!["W-1", "W-2", "W-16", "W-18", "W-19"];
    if !req.range_inches.is_finite() || req.range_inches < 0.0 {
        return Err(OddsError::field(
            "range_inches",
            "The range is a distance in inches, 0 or more.",
        ));
    }
    let (dice, bands, dice_built) = match cat.troop(ft).fires {
        Fires::None => {
            return Err(OddsError::field(
                "firer.type",
                "Cavalry never fire in these rules (W-16).",
            ))
        }
        Fires::PerBase => {
            let arms = match (&req.firer.arms, ft) {
                (None, _) => Arms::Musket,
                (Some(a), _) => Arms::from_id(a).ok_or_else(|| {
                    OddsError::field("firer.arms", format!("'{a}' is not musket or rifle."))
                })?,
            };
            if arms == Arms::Rifle && ft != TroopType::Skirmishers {
                return Err(OddsError::field(
                    "firer.arms",
                    "Only skirmishers carry rifles (W-34).",
                ));
            }
            let bases = req.firer.bases_firing.unwrap_or(0);
            if !(1..=100).contains(&bases) {
                return Err(OddsError::field(
                    "firer.bases_firing",
                    "Give the bases that fire: 1 or more (a column fires with its 2 front bases, W-16).",
                ));
            }
            (
                bases,
                &cat.weapon(arms).bands,
                format!(
                    "{bases} D10, one per {} base firing ({}, W-16)",
                    ft.id(),
                    arms.id()
                ),
            )
        }
        Fires::Gun => {
            let class = req.firer.gun.as_deref().unwrap_or("light");
            let class = GunClass::from_id(class).ok_or_else(|| {
                OddsError::field("firer.gun", format!("'{class}' is not light or medium."))
            })?;
            let gunners = req.firer.gunners.unwrap_or(cat.gunners.default);
            if !(cat.gunners.min..=cat.gunners.max).contains(&gunners) {
                return Err(OddsError::field(
                    "firer.gunners",
                    "A gun fires with 1 to 4 gunners (W-17).",
                ));
            }
            rulings.push("W-17");
            let dice = cat.gun_dice_for(gunners);
            (
                dice,
                &cat.gun(class).bands,
                format!(
                    "{dice} D10 for a {} with {gunners} gunner{} (2 dice with 3–4 gunners, 1 with 1–2)",
                    class.label().to_lowercase(),
                    if gunners == 1 { "" } else { "s" }
                ),
            )
        }
    };
    let band = band_at(bands, req.range_inches).ok_or_else(|| {
        let max = bands.last().map_or(0, |b| b.to);
        OddsError::field(
            "range_inches",
            format!(
                "{} inches is out of range: this weapon reaches {max} inches at most (W-18).",
                req.range_inches
            ),
        )
    })?;
    let mut terms = Vec::new();
    let mut term = |id: &str, value: i32| {
        terms.push(Term {
            id: id.to_string(),
            label: cat.modifier_label("firing", id),
            value,
        });
    };
    match band {
        RangeBand::Canister => term("canister", cat.firing_mod("canister")),
        RangeBand::Close => {}
        RangeBand::Long => term("long", cat.firing_mod("long")),
        RangeBand::Extreme => term("extreme", cat.firing_mod("extreme")),
    }
    let close_order_infantry = ft == TroopType::Infantry;
    if req.firer.first_volley {
        if close_order_infantry && !req.firer.disordered {
            term("first_volley", cat.firing_mod("first_volley"));
            rulings.push("W-20");
        } else {
            notes.push("The first-volley bonus is for close-order infantry that is not disordered (W-20); it does not apply here.".into());
        }
    }
    if req.firer.moved_last_move {
        if close_order_infantry {
            term("moving_and_firing", cat.firing_mod("moving_and_firing"));
            rulings.push("W-21");
        } else {
            notes.push("Moving and firing costs only close-order infantry (W-21).".into());
        }
    }
    if cat.grade(g).firing_need != 0 {
        term("militia", cat.grade(g).firing_need);
    }
    if req.firer.disordered {
        term("disordered", cat.firing_mod("disordered"));
    }
    if tt == TroopType::Skirmishers {
        term("skirmishers", cat.firing_mod("skirmishers"));
    }
    if req.target.column || req.target.enfiladed {
        term("column_or_enfilade", cat.firing_mod("column_or_enfilade"));
    }
    if req.target.in_cover {
        term("cover", cat.firing_mod("cover"));
    }
    if req.target.strong_house {
        term("strong_house", cat.firing_mod("strong_house"));
        rulings.push("W-35");
    }
    let base_need = cat.hit.base_need;
    let need = base_need + terms.iter().map(|t| t.value).sum::<i32>();
    let p_hit = hit_chance(need);
    if need <= 1 {
        notes.push("A need of 1 or less: every die hits (W-19).".into());
    } else if need >= 11 {
        notes.push("A need of 11 or more: no hit is possible (W-19).".into());
    }
    let casualties = Dist::binomial(dice, p_hit);
    let fpb = i32::try_from(cat.troop(tt).figures_per_base.max(1)).unwrap_or(1);
    let before = i32::try_from(req.target.figures_lost).unwrap_or(0);
    let bases_lost = casualties.map(|c| (before + c) / fpb - before / fpb);
    let p_general = req.target.general_attached.then(|| {
        rulings.push("W-29");
        general_killed(&casualties)
    });
    rulings.push("W-10");
    Ok(FiringAnswer {
        kind: "firing",
        band,
        dice,
        dice_built,
        base_need,
        terms,
        need,
        p_hit,
        p_hit_fraction: hit_fraction(need),
        expected_casualties: casualties.mean(),
        p_two_or_more: casualties.p(|c| c >= 2),
        p_general_killed: p_general,
        bases_lost: bases_lost.rows(),
        casualties: casualties.rows(),
        rulings,
        notes,
    })
}
