//! Exact odds for *All the King's Men* (spec 4, K-6, K-9, K-17, K-18, K-23): fire, melee, the
//! command-point and advanced rolls, and leader losses. Every answer enumerates the dice: each
//! pool's successes are Binomial(n, p) with p = 1/2, 1/3 or 1/6 by colour, and two pools are
//! convolved; nothing is sampled. Requests mirror the JSON bodies of
//! `POST /api/v1/atkm/odds/{fire,melee,command,leaders}` (spec 4.8); every answer names the
//! rulings it used and how each pool was built.

use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::types::{Colour, Gun, MeleeTarget, Quality, UnitType};

/// Why the odds cannot be worked out: the field at fault and why, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{field}: {message}")]
pub struct OddsError {
    /// The request field at fault, e.g. `attacker.type` or `range_inches`.
    pub field: String,
    /// `unknown`, `out_of_range`, `not_allowed` or `invalid`.
    pub code: &'static str,
    pub message: String,
}

fn err(field: &str, code: &'static str, message: impl Into<String>) -> OddsError {
    OddsError {
        field: field.into(),
        code,
        message: message.into(),
    }
}

/// Most dice a pool may have (far above any real roll: a brigaded 12-man unit with every bonus).
pub const MAX_DICE: u32 = 200;

/// The kinds of odds, as the routes name them.
pub const KINDS: [&str; 4] = ["fire", "melee", "command", "leaders"];

/// The one entry point the web calls: the answer to `POST /api/v1/atkm/odds/<kind>` as JSON.
pub fn answer(
    cat: &Catalogue,
    kind: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, OddsError> {
    let value = match kind {
        "fire" => to_json(&fire_odds(cat, &read(body)?)?),
        "melee" => to_json(&melee_odds(cat, &read(body)?)?),
        "command" => to_json(&command_odds(cat, &read(body)?)?),
        "leaders" => to_json(&leader_odds(cat, &read(body)?)?),
        other => {
            return Err(err(
                "kind",
                "unknown",
                format!("'{other}' is not a kind of odds; choose fire, melee, command or leaders."),
            ))
        }
    };
    value.map_err(|e| err("", "invalid", e.to_string()))
}

fn to_json<T: Serialize>(t: &T) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::to_value(t)
}

fn read<T: serde::de::DeserializeOwned>(body: &serde_json::Value) -> Result<T, OddsError> {
    if !body.is_object() {
        return Err(err("", "invalid", "the request must be a JSON object"));
    }
    serde_json::from_value(body.clone()).map_err(|e| err("", "invalid", e.to_string()))
}

// --- distributions -------------------------------------------------------------------------

/// P(k successes) for k = 0..=n dice each succeeding with `p`.
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    let n = n as usize;
    let mut out = vec![0.0; n + 1];
    // Multiplicative recurrence on the coefficients keeps every term exact to f64 rounding.
    let q = 1.0 - p;
    let mut coeff = 1.0f64;
    for (k, slot) in out.iter_mut().enumerate() {
        if k > 0 {
            coeff = coeff * (n + 1 - k) as f64 / k as f64;
        }
        *slot = coeff * p.powi(k as i32) * q.powi((n - k) as i32);
    }
    out
}

/// The "at least" view: element k is P(value ≥ k).
pub fn at_least(d: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; d.len()];
    let mut acc = 0.0;
    for k in (0..d.len()).rev() {
        acc += d[k];
        out[k] = acc;
    }
    out
}

/// P(a die of this colour succeeds), from the catalogue's success numbers.
pub fn success(cat: &Catalogue, c: Colour) -> f64 {
    f64::from(7 - cat.succeeds_on(c).clamp(1, 6)) / 6.0
}

/// P(at least one success among `n` dice of colour `c`).
pub fn any_success(cat: &Catalogue, n: u32, c: Colour) -> f64 {
    1.0 - (1.0 - success(cat, c)).powi(n as i32)
}

/// One source of dice in a pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    pub what: String,
    pub dice: u32,
}

/// A pool as built: its colour, its dice and where each came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pool {
    pub colour: Colour,
    pub succeeds_on: u8,
    pub dice: u32,
    pub terms: Vec<Term>,
    /// How the colour was reached (K-6).
    pub colour_steps: Vec<String>,
}

impl Pool {
    fn new(cat: &Catalogue, colour: Colour, terms: Vec<Term>, steps: Vec<String>) -> Pool {
        Pool {
            colour,
            succeeds_on: cat.succeeds_on(colour),
            dice: terms.iter().map(|t| t.dice).sum(),
            terms,
            colour_steps: steps,
        }
    }

    fn successes(&self, cat: &Catalogue) -> Vec<f64> {
        binomial(self.dice, success(cat, self.colour))
    }
}

/// K-6: the quality shift (defence rolls only), then a roll modifier, clamping at each step.
fn defence_colour(
    cat: &Catalogue,
    base: Colour,
    base_why: &str,
    quality: Quality,
    shift: i32,
) -> (Colour, Vec<String>) {
    let mut steps = vec![format!("{}: {}", base_why, base.label())];
    let q = cat.quality(quality);
    let mut c = base.shifted(q.shift);
    if q.shift != 0 {
        steps.push(format!("{} quality: {}", q.name, c.label()));
    }
    if shift != 0 {
        c = c.shifted(shift);
        steps.push(format!("roll modifier: {}", c.label()));
    }
    (c, steps)
}

fn unit_type(field: &str, id: &str) -> Result<UnitType, OddsError> {
    UnitType::from_id(id)
        .ok_or_else(|| err(field, "unknown", format!("'{id}' is not a unit type.")))
}

fn colour(field: &str, id: &Option<String>) -> Result<Colour, OddsError> {
    match id.as_deref() {
        None => Ok(Colour::Green),
        Some(c) => Colour::from_id(c)
            .ok_or_else(|| err(field, "unknown", format!("'{c}' is not a colour."))),
    }
}

fn quality(field: &str, id: &Option<String>) -> Result<Quality, OddsError> {
    match id.as_deref() {
        None => Ok(Quality::Regular),
        Some(q) => Quality::from_id(q)
            .ok_or_else(|| err(field, "unknown", format!("'{q}' is not a quality."))),
    }
}

fn shift(field: &str, s: Option<i32>) -> Result<i32, OddsError> {
    match s.unwrap_or(0) {
        s @ -1..=1 => Ok(s),
        s => Err(err(
            field,
            "out_of_range",
            format!("a colour shift is -1, 0 or 1, not {s}"),
        )),
    }
}

fn capped(field: &str, dice: u32) -> Result<u32, OddsError> {
    if dice > MAX_DICE {
        Err(err(
            field,
            "out_of_range",
            format!("at most {MAX_DICE} dice in a roll"),
        ))
    } else {
        Ok(dice)
    }
}

/// Cover a defender stands in.
fn cover_bonus(
    cat: &Catalogue,
    cover: Option<&str>,
    in_building: bool,
    vs_heavy_gun: bool,
    terms: &mut Vec<Term>,
) -> Result<(), OddsError> {
    let cover = if in_building { Some("heavy") } else { cover };
    match cover {
        None | Some("none") => {}
        Some("light") => {
            let id = if vs_heavy_gun {
                "light_cover_vs_heavy_gun"
            } else {
                "light_cover"
            };
            let dice = cat.bonus(id);
            terms.push(Term {
                what: if vs_heavy_gun {
                    "light cover, no help against a heavy gun (K-20)".into()
                } else {
                    "light cover".into()
                },
                dice,
            });
        }
        Some("heavy") => {
            let id = if vs_heavy_gun {
                "heavy_cover_vs_heavy_gun"
            } else {
                "heavy_cover"
            };
            terms.push(Term {
                what: if vs_heavy_gun {
                    "heavy cover against a heavy gun (K-20)".into()
                } else {
                    "heavy cover".into()
                },
                dice: cat.bonus(id),
            });
        }
        Some(other) => {
            return Err(err(
                "defender.cover",
                "unknown",
                format!("'{other}' is not a cover; choose none, light or heavy."),
            ))
        }
    }
    Ok(())
}

// --- fire ---------------------------------------------------------------------------------

/// The firing unit (spec 4.8).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireAttacker {
    #[serde(rename = "type")]
    pub unit_type: String,
    /// Figures that fire (privates in the front two ranks, skirmishers, gunners; K-9).
    #[serde(default)]
    pub firing_figures: Option<u32>,
    /// Or: its formation and rank and file, from which the firing figures follow (K-26).
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub figures: Option<u32>,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub gun: Option<String>,
    #[serde(default)]
    pub moved: bool,
    /// Read and ignored: quality never changes attack dice (K-6).
    #[serde(default)]
    pub quality: Option<String>,
    #[serde(default)]
    pub high_ground: bool,
    #[serde(default)]
    pub repeating_rifles: bool,
    #[serde(default)]
    pub attack_shift: Option<i32>,
    /// Two dice for the officer and ensign roll (K-8).
    #[serde(default)]
    pub marksmen: bool,
}

/// The unit fired on (spec 4.8).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireDefender {
    #[serde(rename = "type")]
    pub unit_type: String,
    pub figures: u32,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub quality: Option<String>,
    #[serde(default)]
    pub formation: Option<String>,
    /// `none`, `light` or `heavy`.
    #[serde(default)]
    pub cover: Option<String>,
    #[serde(default)]
    pub in_building: bool,
    #[serde(default)]
    pub high_ground: bool,
    /// The firer is a battery firing scrap (K-22): beyond 12" the target gets 2 dice.
    #[serde(default)]
    pub scrap_target: bool,
    #[serde(default)]
    pub disordered: bool,
    /// Absent: the type's standard (Indians: half the figures).
    #[serde(default)]
    pub break_point: Option<u32>,
    #[serde(default)]
    pub defence_shift: Option<i32>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireRequest {
    pub attacker: FireAttacker,
    pub defender: FireDefender,
    pub range_inches: u32,
    #[serde(default)]
    pub flank: bool,
    #[serde(default)]
    pub rear: bool,
    #[serde(default)]
    pub enfilade: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FireOdds {
    pub attack: Pool,
    pub defence: Pool,
    /// P(exactly k figures lost), k = 0..=defender figures (K-18 caps at the figures present).
    pub casualties: Vec<f64>,
    /// P(at least k figures lost).
    pub casualties_at_least: Vec<f64>,
    pub expected_casualties: f64,
    pub p_no_effect: f64,
    /// The target drops a colour (green or yellow target hit).
    pub p_downgrade: f64,
    /// The target gets a disorder marker (a red target hit; rockets: any hit, K-21).
    pub p_disorder: f64,
    /// A disordered target struck by rockets falls back 12" as a mob (K-21).
    pub p_rocket_rout: f64,
    /// The target falls to its break point or below.
    pub p_collapse: f64,
    /// Casualties reach the break-point value: the officer and ensign roll is made (advanced).
    pub p_leader_check: f64,
    pub p_ensign_lost: f64,
    pub p_officer_lost: f64,
    pub rulings: Vec<&'static str>,
}

/// Figures that fire for a formation and rank and file (K-9, K-26).
fn firing_figures(t: UnitType, formation: Formation2, figures: u32) -> u32 {
    match (t, formation) {
        (UnitType::Infantry, Formation2::Column) => figures.min(4),
        _ => figures,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Formation2 {
    Line,
    Column,
    Loose,
    Mob,
    Square,
}

fn formation(field: &str, f: Option<&str>, t: UnitType) -> Result<Formation2, OddsError> {
    Ok(match f {
        None if t.is_skirmishing() || t.is_artillery() => Formation2::Loose,
        None | Some("line") => Formation2::Line,
        Some("column") => Formation2::Column,
        Some("loose") => Formation2::Loose,
        Some("mob") => Formation2::Mob,
        Some("square") => Formation2::Square,
        Some(other) => {
            return Err(err(
                field,
                "unknown",
                format!("'{other}' is not a formation; choose line, column, loose, mob or square."),
            ))
        }
    })
}

/// Exact odds of one fire attack.
pub fn fire_odds(cat: &Catalogue, req: &FireRequest) -> Result<FireOdds, OddsError> {
    let a = &req.attacker;
    let d = &req.defender;
    let at = unit_type("attacker.type", &a.unit_type)?;
    let dt = unit_type("defender.type", &d.unit_type)?;
    let row = cat.unit(at);
    if !row.can_fire {
        return Err(err(
            "attacker.type",
            "not_allowed",
            format!("{} cannot fire.", row.name),
        ));
    }
    let a_form = formation("attacker.formation", a.formation.as_deref(), at)?;
    let d_form = formation("defender.formation", d.formation.as_deref(), dt)?;
    match a_form {
        Formation2::Mob => {
            return Err(err(
                "attacker.formation",
                "not_allowed",
                "a mob cannot fire until it reforms",
            ))
        }
        Formation2::Square => {
            return Err(err(
                "attacker.formation",
                "not_allowed",
                "infantry in square cannot fire",
            ))
        }
        Formation2::Column if at.is_artillery() => {
            return Err(err(
                "attacker.formation",
                "not_allowed",
                "artillery fires only when deployed loose (K-43)",
            ))
        }
        _ => {}
    }
    let gun = if at.is_artillery() {
        Some(match a.gun.as_deref() {
            None => Gun::Medium,
            Some(g) => Gun::from_id(g)
                .ok_or_else(|| err("attacker.gun", "unknown", format!("'{g}' is not a gun.")))?,
        })
    } else {
        None
    };
    let range = cat.range(at, gun).ok_or_else(|| {
        err(
            "attacker.gun",
            "not_allowed",
            "horse artillery never has a heavy gun or rockets",
        )
    })?;
    if req.range_inches > range {
        return Err(err(
            "range_inches",
            "out_of_range",
            format!(
                "{}\" is beyond the firer's {range}\" range.",
                req.range_inches
            ),
        ));
    }
    let gun_row = gun.map(|g| cat.gun(g));
    if a.moved && gun_row.is_some_and(|g| !g.move_and_fire) {
        return Err(err(
            "attacker.moved",
            "not_allowed",
            "a heavy gun cannot move and fire in one activation (K-20)",
        ));
    }
    let figures = match (a.firing_figures, a.figures) {
        (Some(n), _) => n,
        (None, Some(n)) => firing_figures(at, a_form, n),
        (None, None) => {
            return Err(err(
                "attacker.firing_figures",
                "invalid",
                "give firing_figures, or formation and figures",
            ))
        }
    };
    let close = req.range_inches <= cat.tables.fire_dice.artillery_close_range;
    let per = match gun_row {
        Some(g) if close => g.close_dice,
        _ => row.fire_dice,
    };
    let mut rulings = vec!["K-6", "K-9", "K-18", "K-23", "K-33"];
    let mut aterms = vec![Term {
        what: format!(
            "{figures} firing {} × {per} dice{}",
            row.men,
            if gun_row.is_some() && close {
                " (within 12\")"
            } else {
                ""
            }
        ),
        dice: figures * per,
    }];
    if let Some(g) = gun_row {
        if close && g.close_bonus > 0 {
            aterms.push(Term {
                what: "heavy gun within 12\"".into(),
                dice: cat.bonus("heavy_gun_close"),
            });
            rulings.push("K-20");
        }
    }
    if a.high_ground {
        aterms.push(Term {
            what: "high ground".into(),
            dice: cat.bonus("high_ground"),
        });
    }
    let exposed = !(dt.is_skirmishing() || matches!(d_form, Formation2::Mob | Formation2::Square));
    if req.rear && exposed {
        aterms.push(Term {
            what: "fire into the rear".into(),
            dice: cat.bonus("rear"),
        });
    } else if req.flank && exposed {
        aterms.push(Term {
            what: "fire into the flank".into(),
            dice: cat.bonus("flank"),
        });
    }
    if d_form == Formation2::Mob {
        aterms.push(Term {
            what: "target is a mob".into(),
            dice: cat.bonus("mob"),
        });
    }
    if req.enfilade && d_form == Formation2::Column {
        aterms.push(Term {
            what: "enfilade into a column's front".into(),
            dice: cat.bonus("enfilade"),
        });
    }
    if a.repeating_rifles && !a.moved {
        aterms.push(Term {
            what: "repeating rifles, fired without moving".into(),
            dice: cat.bonus("repeating_rifles"),
        });
    }
    // Attack colour: the firer's colour; rockets never better than yellow (K-21); any firer
    // against a square rolls green; then a roll modifier.
    let mut acol = colour("attacker.colour", &a.colour)?;
    let mut asteps = vec![format!("firer's colour: {}", acol.label())];
    if d_form == Formation2::Square {
        acol = Colour::Green;
        asteps.push("target in square: green".into());
    }
    if let Some(cap) = gun_row.and_then(|g| g.colour_cap) {
        if (acol as u8) < (cap as u8) {
            acol = cap;
            asteps.push(format!("rockets, {} at best (K-21)", cap.label()));
        }
        rulings.push("K-21");
    }
    let ash = shift("attacker.attack_shift", a.attack_shift)?;
    if ash != 0 {
        acol = acol.shifted(ash);
        asteps.push(format!("roll modifier: {}", acol.label()));
    }
    // Defence.
    let drow = cat.unit(dt);
    let mut dterms = vec![Term {
        what: format!("{} {} × 1 die", d.figures, drow.men),
        dice: d.figures * cat.tables.fire_dice.defender_dice_per_figure,
    }];
    if dt == UnitType::Cavalry {
        dterms.push(Term {
            what: "cavalry under fire".into(),
            dice: cat.bonus("cavalry_under_fire"),
        });
    }
    if dt.is_skirmishing() || (dt.is_artillery() && d_form == Formation2::Loose) {
        dterms.push(Term {
            what: "loose order under fire".into(),
            dice: cat.bonus("loose_under_fire"),
        });
    }
    let heavy = gun.is_some_and(|g| matches!(g, Gun::Heavy | Gun::Rockets));
    cover_bonus(cat, d.cover.as_deref(), d.in_building, heavy, &mut dterms)?;
    if d.high_ground {
        dterms.push(Term {
            what: "high ground".into(),
            dice: cat.bonus("high_ground"),
        });
    }
    if d.scrap_target && req.range_inches > cat.tables.fire_dice.artillery_close_range {
        dterms.push(Term {
            what: "scrap ammunition beyond 12\" (K-22)".into(),
            dice: cat.bonus("scrap_ammunition"),
        });
        rulings.push("K-22");
    }
    let dcol = colour("defender.colour", &d.colour)?;
    let dq = quality("defender.quality", &d.quality)?;
    let dsh = shift("defender.defence_shift", d.defence_shift)?;
    let (dcol, dsteps) = defence_colour(cat, dcol, "target's colour", dq, dsh);
    let attack = Pool::new(cat, acol, aterms, asteps);
    let defence = Pool::new(cat, dcol, dterms, dsteps);
    capped("attacker", attack.dice)?;
    capped("defender", defence.dice)?;
    let ad = attack.successes(cat);
    let dd = defence.successes(cat);
    let n = d.figures as usize;
    let mut cas = vec![0.0; n + 1];
    for (x, pa) in ad.iter().enumerate() {
        for (y, pd) in dd.iter().enumerate() {
            let k = x.saturating_sub(y).min(n);
            cas[k] += pa * pd;
        }
    }
    let bp = d
        .break_point
        .unwrap_or_else(|| super::validate::standard_break_point(cat, dt, d.figures));
    let hit: f64 = cas.iter().skip(1).sum();
    let rockets = gun == Some(Gun::Rockets);
    let red = d.colour.as_deref() == Some("red");
    let p_collapse: f64 = cas
        .iter()
        .enumerate()
        .filter(|(k, _)| d.figures.saturating_sub(*k as u32) <= bp)
        .map(|(_, p)| p)
        .sum();
    // The officer and ensign roll: losses at least the break-point value; artillery any loss.
    let trigger = if dt.is_artillery() {
        1
    } else {
        drow.break_point.max(1)
    } as usize;
    let p_check: f64 = cas.iter().skip(trigger).sum();
    let one = if a.marksmen {
        1.0 - (5.0f64 / 6.0).powi(2)
    } else {
        1.0 / 6.0
    };
    rulings.push("K-16");
    if a.marksmen {
        rulings.push("K-8");
    }
    let expected = cas.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    Ok(FireOdds {
        casualties_at_least: at_least(&cas),
        expected_casualties: expected,
        p_no_effect: cas[0],
        p_downgrade: if red || rockets { 0.0 } else { hit },
        p_disorder: if red || rockets { hit } else { 0.0 },
        p_rocket_rout: if rockets && d.disordered { hit } else { 0.0 },
        p_collapse,
        p_leader_check: p_check,
        p_ensign_lost: p_check * one,
        p_officer_lost: p_check * one,
        casualties: cas,
        attack,
        defence,
        rulings,
    })
}

// --- melee --------------------------------------------------------------------------------

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeAttacker {
    #[serde(rename = "type")]
    pub unit_type: String,
    pub figures: u32,
    #[serde(default)]
    pub break_point: Option<u32>,
    #[serde(default)]
    pub attack_shift: Option<i32>,
    #[serde(default)]
    pub high_ground: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeDefender {
    #[serde(rename = "type")]
    pub unit_type: String,
    pub figures: u32,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub quality: Option<String>,
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub cover: Option<String>,
    #[serde(default)]
    pub break_point: Option<u32>,
    /// Infantry charged by cavalry rolls this many dice to form square (advanced Square).
    #[serde(default)]
    pub general_rating: Option<u32>,
    /// The loser rolls this many red dice to rally (advanced Rallying).
    #[serde(default)]
    pub rally_rating: Option<u32>,
    #[serde(default)]
    pub high_ground: bool,
    #[serde(default)]
    pub defence_shift: Option<i32>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRequest {
    pub attacker: MeleeAttacker,
    pub defender: MeleeDefender,
    #[serde(default)]
    pub flank: bool,
    #[serde(default)]
    pub rear: bool,
    /// `attacker` or `defender`: who stands higher (also settable on each side).
    #[serde(default)]
    pub high_ground: Option<String>,
}

/// One way the melee can be fought (formed or in square) and its exact results.
#[derive(Debug, Clone, Serialize)]
pub struct MeleeCase {
    pub attack: Pool,
    pub defence: Pool,
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub tie: f64,
    pub both_collapse: f64,
    pub attacker_collapses: f64,
    pub defender_collapses: f64,
    /// P(the attacker loses exactly k figures).
    pub attacker_losses: Vec<f64>,
    /// P(the defender loses exactly k figures).
    pub defender_losses: Vec<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MeleeOdds {
    /// P(the infantry forms square in time), when it may roll for it.
    pub p_square: Option<f64>,
    /// The melee as fought formed (no square).
    pub formed: MeleeCase,
    /// The melee against a square, when one may form.
    pub square: Option<MeleeCase>,
    /// Overall, weighting the two by the square roll.
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub tie: f64,
    pub both_collapse: f64,
    pub attacker_losses: Vec<f64>,
    pub attacker_losses_at_least: Vec<f64>,
    pub defender_losses: Vec<f64>,
    pub defender_losses_at_least: Vec<f64>,
    /// P(a beaten side rallies), given it loses and stands inside its general's radius.
    pub p_rally_if_beaten: Option<f64>,
    pub rulings: Vec<&'static str>,
}

struct Side {
    pool: Pool,
    figures: u32,
    break_point: u32,
}

fn melee_case(cat: &Catalogue, a: &Side, d: &Side) -> MeleeCase {
    let ad = a.pool.successes(cat);
    let dd = d.pool.successes(cat);
    let (na, nd) = (a.figures as usize, d.figures as usize);
    let mut case = MeleeCase {
        attack: a.pool.clone(),
        defence: d.pool.clone(),
        attacker_wins: 0.0,
        defender_wins: 0.0,
        tie: 0.0,
        both_collapse: 0.0,
        attacker_collapses: 0.0,
        defender_collapses: 0.0,
        attacker_losses: vec![0.0; na + 1],
        defender_losses: vec![0.0; nd + 1],
    };
    for (x, pa) in ad.iter().enumerate() {
        for (y, pd) in dd.iter().enumerate() {
            let p = pa * pd;
            // Each side loses the other's successes, never more than it has (K-18).
            let def_lost = x.min(nd);
            let att_lost = y.min(na);
            case.defender_losses[def_lost] += p;
            case.attacker_losses[att_lost] += p;
            let a_col = (na - att_lost) as u32 <= a.break_point;
            let d_col = (nd - def_lost) as u32 <= d.break_point;
            if a_col {
                case.attacker_collapses += p;
            }
            if d_col {
                case.defender_collapses += p;
            }
            // K-17: a collapsing unit loses; both collapsing, neither wins.
            match (a_col, d_col) {
                (true, true) => case.both_collapse += p,
                (true, false) => case.defender_wins += p,
                (false, true) => case.attacker_wins += p,
                (false, false) => match att_lost.cmp(&def_lost) {
                    std::cmp::Ordering::Less => case.attacker_wins += p,
                    std::cmp::Ordering::Greater => case.defender_wins += p,
                    std::cmp::Ordering::Equal => case.tie += p,
                },
            }
        }
    }
    case
}

/// Exact odds of one melee (spec 4.3, K-5, K-6, K-17, K-18, K-24, K-29, K-30).
pub fn melee_odds(cat: &Catalogue, req: &MeleeRequest) -> Result<MeleeOdds, OddsError> {
    let a = &req.attacker;
    let d = &req.defender;
    let at = unit_type("attacker.type", &a.unit_type)?;
    let dt = unit_type("defender.type", &d.unit_type)?;
    let arow = cat.unit(at);
    let drow = cat.unit(dt);
    let target = drow.melee_defends_as;
    let per = cat.melee_dice(at, target).ok_or_else(|| {
        err(
            "attacker.type",
            "not_allowed",
            format!(
                "{} may not attack {} in melee.",
                arow.name,
                drow.name.to_lowercase()
            ),
        )
    })?;
    let d_form = formation("defender.formation", d.formation.as_deref(), dt)?;
    let mut rulings = vec!["K-5", "K-6", "K-9", "K-17", "K-18", "K-23"];
    let high = req.high_ground.as_deref();
    if let Some(h) = high {
        if h != "attacker" && h != "defender" {
            return Err(err(
                "high_ground",
                "unknown",
                "high_ground is attacker or defender",
            ));
        }
    }
    let a_high = a.high_ground || high == Some("attacker");
    let d_high = d.high_ground || high == Some("defender");
    let ash = shift("attacker.attack_shift", a.attack_shift)?;
    let dsh = shift("defender.defence_shift", d.defence_shift)?;
    let dq = quality("defender.quality", &d.quality)?;
    let dcol_now = colour("defender.colour", &d.colour)?;
    let a_bp = a
        .break_point
        .unwrap_or_else(|| super::validate::standard_break_point(cat, at, a.figures));
    let d_bp = d
        .break_point
        .unwrap_or_else(|| super::validate::standard_break_point(cat, dt, d.figures));
    if at == UnitType::WoodlandIndians || dt == UnitType::WoodlandIndians {
        rulings.push("K-29");
    }
    if at == UnitType::SkirmishingCavalry || dt == UnitType::SkirmishingCavalry {
        rulings.push("K-30");
    }
    // Build one case; `square` fights against a formed square (K-24).
    let build = |square: bool| -> Result<(Side, Side), OddsError> {
        let mut aterms = vec![Term {
            what: format!("{} {} × {per} dice", a.figures, arow.men),
            dice: a.figures * per,
        }];
        let exposed = !(dt.is_skirmishing() || square || d_form == Formation2::Mob);
        if req.rear && exposed {
            aterms.push(Term {
                what: "attack on the rear".into(),
                dice: cat.bonus("rear"),
            });
        } else if req.flank && exposed {
            aterms.push(Term {
                what: "attack on the flank".into(),
                dice: cat.bonus("flank"),
            });
        }
        if d_form == Formation2::Mob {
            aterms.push(Term {
                what: "defender is a mob".into(),
                dice: cat.bonus("mob"),
            });
        }
        if a_high {
            aterms.push(Term {
                what: "high ground".into(),
                dice: cat.bonus("high_ground"),
            });
        }
        if at == UnitType::WoodlandIndians {
            aterms.push(Term {
                what: "Indians in melee".into(),
                dice: cat.bonus("indian_melee"),
            });
        }
        // Attack colour: green always; cavalry against a square red (spec 4.1).
        let (mut acol, mut asteps) = if square {
            (
                Colour::Red,
                vec!["cavalry against a square: red".to_string()],
            )
        } else {
            (Colour::Green, vec!["melee attack: green".to_string()])
        };
        if ash != 0 {
            acol = acol.shifted(ash);
            asteps.push(format!("roll modifier: {}", acol.label()));
        }
        let mut dterms = vec![Term {
            what: format!("{} {} × 1 die", d.figures, drow.men),
            dice: d.figures,
        }];
        cover_bonus(cat, d.cover.as_deref(), false, false, &mut dterms)?;
        if d_high {
            dterms.push(Term {
                what: "high ground".into(),
                dice: cat.bonus("high_ground"),
            });
        }
        if dt == UnitType::WoodlandIndians {
            dterms.push(Term {
                what: "Indians in melee".into(),
                dice: cat.bonus("indian_melee"),
            });
        }
        // Defence colour: skirmishers and artillery always red, Indians their own (K-29).
        let (base, why) = if (target == MeleeTarget::Skirmishers && dt != UnitType::WoodlandIndians)
            || dt.is_artillery()
        {
            (Colour::Red, "skirmishers and artillery defend a melee red")
        } else {
            (dcol_now, "defender's colour")
        };
        let (dcol, dsteps) = defence_colour(cat, base, why, dq, dsh);
        let aside = Side {
            pool: Pool::new(cat, acol, aterms, asteps),
            figures: a.figures,
            break_point: a_bp,
        };
        let dside = Side {
            pool: Pool::new(cat, dcol, dterms, dsteps),
            figures: d.figures,
            break_point: d_bp,
        };
        capped("attacker", aside.pool.dice)?;
        capped("defender", dside.pool.dice)?;
        Ok((aside, dside))
    };
    let already_square = d_form == Formation2::Square;
    let (fa, fd) = build(already_square)?;
    let formed = melee_case(cat, &fa, &fd);
    // The square roll: infantry (not a mob) charged by cavalry, with the general's rating.
    let may_square = at == UnitType::Cavalry
        && dt == UnitType::Infantry
        && !already_square
        && d_form != Formation2::Mob
        && d.general_rating.is_some();
    let (p_square, square) = if may_square {
        rulings.push("K-24");
        let rating = d.general_rating.unwrap_or(0).min(3);
        let (c, _) = defence_colour(cat, dcol_now, "", dq, 0);
        let p = any_success(cat, rating, c);
        let (sa, sd) = build(true)?;
        (Some(p), Some(melee_case(cat, &sa, &sd)))
    } else {
        (None, None)
    };
    let mix = |f: fn(&MeleeCase) -> f64| match (&square, p_square) {
        (Some(s), Some(p)) => (1.0 - p) * f(&formed) + p * f(s),
        _ => f(&formed),
    };
    let mix_vec = |f: fn(&MeleeCase) -> &Vec<f64>| -> Vec<f64> {
        match (&square, p_square) {
            (Some(s), Some(p)) => f(&formed)
                .iter()
                .zip(f(s))
                .map(|(x, y)| (1.0 - p) * x + p * y)
                .collect(),
            _ => f(&formed).clone(),
        }
    };
    let attacker_losses = mix_vec(|c| &c.attacker_losses);
    let defender_losses = mix_vec(|c| &c.defender_losses);
    let p_rally_if_beaten = d.rally_rating.map(|r| {
        let (c, _) = defence_colour(cat, Colour::Red, "", dq, 0);
        any_success(cat, r.min(3), c)
    });
    Ok(MeleeOdds {
        p_square,
        attacker_wins: mix(|c| c.attacker_wins),
        defender_wins: mix(|c| c.defender_wins),
        tie: mix(|c| c.tie),
        both_collapse: mix(|c| c.both_collapse),
        attacker_losses_at_least: at_least(&attacker_losses),
        defender_losses_at_least: at_least(&defender_losses),
        attacker_losses,
        defender_losses,
        formed,
        square,
        p_rally_if_beaten,
        rulings,
    })
}

// --- command and advanced rolls -----------------------------------------------------------

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRequest {
    /// The general's rating, 1 to 3.
    pub rating: u32,
    /// The unit's colour for an advanced activation or a square roll.
    #[serde(default)]
    pub unit_colour: Option<String>,
    /// The unit's quality (shifts those rolls and the rally roll, K-6).
    #[serde(default)]
    pub quality: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CommandOdds {
    /// P(command points = k), k = 0..=6 (0 never happens): the highest of `rating` dice.
    pub command_points: Vec<f64>,
    pub command_points_at_least: Vec<f64>,
    pub expected_command_points: f64,
    /// Advanced activation (and the square roll): any success on `rating` dice of the unit's
    /// colour, quality-shifted.
    pub advanced_activation: f64,
    pub square: f64,
    /// Rally a beaten unit: any 6 on `rating` red dice, quality-shifted.
    pub rally: f64,
    /// Advanced army collapse: any 5+ on `rating` yellow dice (the army fights on).
    pub army_fights_on: f64,
    /// General casualties: a 6 on one die.
    pub general_hit: f64,
    pub rolled_colour: Colour,
    pub rally_colour: Colour,
    pub rulings: Vec<&'static str>,
}

/// Exact odds of the command roll and the advanced rolls for a general of `rating`.
pub fn command_odds(cat: &Catalogue, req: &CommandRequest) -> Result<CommandOdds, OddsError> {
    if !(1..=3).contains(&req.rating) {
        return Err(err("rating", "out_of_range", "a rating is 1, 2 or 3"));
    }
    let r = req.rating as i32;
    let mut cp = vec![0.0; 7];
    for (k, slot) in cp.iter_mut().enumerate().skip(1) {
        *slot = (k as f64 / 6.0).powi(r) - ((k - 1) as f64 / 6.0).powi(r);
    }
    let q = quality("quality", &req.quality)?;
    let ucol = colour("unit_colour", &req.unit_colour)?;
    let (c, _) = defence_colour(cat, ucol, "", q, 0);
    let (rc, _) = defence_colour(cat, Colour::Red, "", q, 0);
    let general_hit = f64::from(7 - cat.tables.general_casualty_on.clamp(1, 6)) / 6.0;
    Ok(CommandOdds {
        expected_command_points: cp.iter().enumerate().map(|(k, p)| k as f64 * p).sum(),
        command_points_at_least: at_least(&cp),
        command_points: cp,
        advanced_activation: any_success(cat, req.rating, c),
        square: any_success(cat, req.rating, c),
        rally: any_success(cat, req.rating, rc),
        army_fights_on: any_success(cat, req.rating, Colour::Yellow),
        general_hit,
        rolled_colour: c,
        rally_colour: rc,
        rulings: vec!["K-4", "K-6"],
    })
}

// --- leader losses ------------------------------------------------------------------------

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRequest {
    /// The firers are marksmen: two dice, each read alone (K-8).
    #[serde(default)]
    pub marksmen: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct LeaderOdds {
    pub dice: u32,
    pub ensign_lost: f64,
    pub officer_lost: f64,
    pub both_lost: f64,
    pub neither_lost: f64,
    pub rulings: Vec<&'static str>,
}

/// The officer and ensign roll once it is triggered: 5 the ensign, 6 the officer (spec 4.7).
pub fn leader_odds(cat: &Catalogue, req: &LeaderRequest) -> Result<LeaderOdds, OddsError> {
    let ll = &cat.tables.leader_loss;
    let (e, o) = (ll.ensign_on, ll.officer_on);
    let faces = 1..=6u8;
    let dice: u32 = if req.marksmen { 2 } else { 1 };
    let (mut ens, mut off, mut both, mut none) = (0.0, 0.0, 0.0, 0.0);
    if dice == 1 {
        for f in faces {
            let p = 1.0 / 6.0;
            if f == e {
                ens += p;
            } else if f == o {
                off += p;
            } else {
                none += p;
            }
        }
    } else {
        // K-8: each die is read alone; 5 and 6 lose both, doubles lose one.
        for f in faces.clone() {
            for g in faces.clone() {
                let p = 1.0 / 36.0;
                let le = f == e || g == e;
                let lo = f == o || g == o;
                if le {
                    ens += p;
                }
                if lo {
                    off += p;
                }
                if le && lo {
                    both += p;
                }
                if !le && !lo {
                    none += p;
                }
            }
        }
    }
    Ok(LeaderOdds {
        dice,
        ensign_lost: ens,
        officer_lost: off,
        both_lost: both,
        neither_lost: none,
        rulings: if req.marksmen { vec!["K-8"] } else { vec![] },
    })
}
