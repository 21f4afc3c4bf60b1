//! Exact odds (enumeration and convolution, never sampling) for a shooting
//! order, a melee round and a Morale Test. The request types mirror the JSON
//! bodies of `POST /api/v1/lotf/odds/{shooting,melee,morale}`.
//!
//! Solid-shot penetration has no upper bound: chains of penetration dice are
//! followed to a depth where the remaining probability is far below 1e-12,
//! and whatever is cut off is reported as `omitted_probability`.

use serde::{Deserialize, Serialize};

use super::catalogue::{skill_ids, Catalogue, MeleeResolutionModifier};
use super::combat::charges::{counter_charge_allowed, size_may_charge};
use super::combat::melee::side_hit_probability;
use super::combat::{
    binomial, die_hit_probability, judge_volley, melee_pool, melee_pool_unexplained,
    melee_resolution, melee_resolution_total, morale_modifier, morale_pass_probability,
    shooting_pool, take_hits, Ammunition, DicePool, MeleeSide, MoraleSituation, MoraleTest,
    ShooterState, ShotBar, ShotKind, ShotSituation, ShotSpec, Supporter, Term, TestKind,
};
use super::profile::{profile, ElementProfile};
use super::roster::ElementDoc;
use super::types::{DisciplineLevel, ElementType, Formation, Size, Upgrade, Weapon};

/// Why odds could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum OddsError {
    /// The element does not exist in this size (tiny artillery, R-2).
    #[error("{field}: {element_type} elements cannot be {size} (R-2)")]
    NoSuchElement {
        field: String,
        element_type: ElementType,
        size: Size,
    },
    /// The weapon is not one this type can carry.
    #[error("{field}: {element_type} elements cannot carry that weapon ({})", .weapon.label())]
    WeaponNotAllowed {
        field: String,
        element_type: ElementType,
        weapon: Weapon,
    },
    /// The shot is not possible.
    #[error("the shot cannot be fired: {0}")]
    Shot(#[from] ShotBar),
    /// Too many supporters (at most 3, R-18).
    #[error("{field}: at most {max} supporters per side (R-18)")]
    TooManySupporters { field: String, max: u8 },
    /// A number is out of the range the calculator accepts.
    #[error("{field}: {message}")]
    OutOfRange { field: String, message: String },
    /// An attached commander without his rating, a rating the catalogue does not have, or a
    /// Morale value that contradicts the rating.
    #[error("{field}: {message}")]
    CommanderRating { field: String, message: String },
}

fn fit() -> DisciplineLevel {
    DisciplineLevel::Fit
}

fn is_fit(l: &DisciplineLevel) -> bool {
    *l == DisciplineLevel::Fit
}

/// The shooting element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShooterSpec {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Weapon>,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    #[serde(default)]
    pub disorder_markers: u32,
    #[serde(default = "fit", skip_serializing_if = "is_fit")]
    pub discipline_level: DisciplineLevel,
}

/// The target of a shot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// Default: Battle Line, or unlimbered for artillery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    #[serde(default)]
    pub in_cover: bool,
    /// Hits the target already carries.
    #[serde(default)]
    pub hits: u32,
    #[serde(default = "fit", skip_serializing_if = "is_fit")]
    pub discipline_level: DisciplineLevel,
    /// Disorder Markers it already has (for its Discipline Test).
    #[serde(default)]
    pub disorder_markers: u32,
    /// A Fit friend within 6" (+1 on its test, R-20).
    #[serde(default)]
    pub supported: bool,
    #[serde(default)]
    pub commander_attached: bool,
    /// The attached commander's rating as the catalogue names it (`incompetent`, `competent`,
    /// `skilled`, `highly_skilled`); required with `commander_attached`, whose Morale then
    /// replaces the target's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander_rating: Option<String>,
    #[serde(default)]
    pub in_defenses: bool,
}

/// `POST /api/v1/lotf/odds/shooting`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootingRequest {
    pub shooter: ShooterSpec,
    pub target: TargetSpec,
    pub range_inches: u32,
    #[serde(default)]
    pub flank: bool,
    /// Artillery only; default solid shot.
    #[serde(default)]
    pub ammunition: Ammunition,
    /// Assume a passed Concentrated Volley: misses re-rolled, ragged ignored.
    #[serde(default)]
    pub concentrated_volley: bool,
}

/// The exact odds of one shooting order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShootingOdds {
    /// Dice rolled (one for an empty pool, R-14).
    pub dice: u32,
    /// The pool before the R-14 floor.
    pub pool_total: i32,
    pub to_hit: u8,
    pub kind: ShotKind,
    /// Probability of 0, 1, 2, … hits on the target (after a ragged volley).
    pub hits_distribution: Vec<f64>,
    pub expected_hits: f64,
    pub p_ragged_volley: f64,
    /// Two or more 6s (and no cancelling ragged volley): a Disorder Marker.
    pub p_punishing_volley: f64,
    /// The target ends the order with at least one new Disorder Marker.
    pub p_target_disordered: f64,
    /// Probability of each number of new Disorder Markers.
    pub disorder_distribution: Vec<f64>,
    /// The target reaches its Discipline and must test.
    pub p_discipline_test: f64,
    /// … and fails it (withdraws d3 Maneuvers, R-30).
    pub p_discipline_test_failed: f64,
    /// Probability mass cut off (solid-shot chains), below 1e-12.
    pub omitted_probability: f64,
    pub pool_explanation: String,
    pub pool_terms: Vec<Term>,
    pub rulings: Vec<String>,
    /// Assumptions, in plain words.
    pub notes: Vec<String>,
}

fn add_r(v: &mut Vec<String>, r: &str) {
    if !v.iter().any(|x| x == r) {
        v.push(r.to_string());
    }
}

fn element_profile(
    cat: &Catalogue,
    field: &str,
    t: ElementType,
    size: Size,
    weapon: Option<Weapon>,
    upgrades: &[Upgrade],
) -> Result<ElementProfile, OddsError> {
    if cat.stats(t, size).is_none() {
        return Err(OddsError::NoSuchElement {
            field: field.to_string(),
            element_type: t,
            size,
        });
    }
    if let Some(w) = weapon {
        let ok = cat
            .element_type(t)
            .map(|d| d.weapons.contains(&w))
            .unwrap_or(false);
        if !ok {
            return Err(OddsError::WeaponNotAllowed {
                field: field.to_string(),
                element_type: t,
                weapon: w,
            });
        }
    }
    let mut e = ElementDoc::new("", t, size);
    e.weapon = weapon;
    e.upgrades = upgrades.to_vec();
    Ok(profile(cat, &e))
}

/// Whether a profile has a skill.
pub fn has_skill(p: &ElementProfile, id: &str) -> bool {
    p.skills.iter().any(|s| s.id == id)
}

fn check_count(field: &str, v: u32) -> Result<(), OddsError> {
    if v > 100 {
        return Err(OddsError::OutOfRange {
            field: field.to_string(),
            message: format!("{v} is more than the calculator accepts (100)"),
        });
    }
    Ok(())
}

/// A commander's rating looked up in the catalogue: its name and Morale.
struct CommanderMorale {
    name: String,
    morale: u8,
}

/// The rating a request names, checked against the catalogue's table; an attached commander
/// must have one, because his Morale replaces the element's.
fn commander_morale(
    cat: &Catalogue,
    field: &str,
    rating: Option<&str>,
    attached: bool,
) -> Result<Option<CommanderMorale>, OddsError> {
    let known = || {
        cat.commander_ratings()
            .iter()
            .map(|r| r.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match rating {
        Some(id) => cat
            .commander_ratings()
            .iter()
            .find(|r| r.id == id)
            .map(|r| {
                Some(CommanderMorale {
                    name: r.name.clone(),
                    morale: r.morale,
                })
            })
            .ok_or_else(|| OddsError::CommanderRating {
                field: field.to_string(),
                message: format!("no commander rating is called {id:?}; choose one of {}", known()),
            }),
        None if attached => Err(OddsError::CommanderRating {
            field: field.to_string(),
            message: format!(
                "a commander is attached, so give his rating ({}): his Morale replaces the element's (R-33)",
                known()
            ),
        }),
        None => Ok(None),
    }
}

/// The footnote for a test taken with the commander's Morale.
fn commander_note(c: &CommanderMorale, attached: bool, own: Option<u8>) -> String {
    let own = own
        .map(|m| format!("the element's own {m}"))
        .unwrap_or_else(|| "the element's own".to_string());
    if attached {
        format!(
            "Morale {} is the attached {} commander's; it replaces {own}, even when worse, and he adds +1 (R-33, R-20).",
            c.morale, c.name
        )
    } else {
        format!(
            "Morale {} is the {} commander's, for a special order that does not attach him (such as a Forced Order), so there is no +1 (R-20).",
            c.morale, c.name
        )
    }
}

// ---------------------------------------------------------------------------
// The joint distribution of (hitting dice, ones capped at 2, sixes capped at 2).

#[derive(Clone)]
struct Joint {
    p: Vec<f64>, // index h * 9 + ones * 3 + sixes
}

impl Joint {
    fn zero(h_len: usize) -> Joint {
        Joint {
            p: vec![0.0; h_len * 9],
        }
    }
    fn unit() -> Joint {
        let mut j = Joint::zero(1);
        j.p[0] = 1.0;
        j
    }
    fn h_len(&self) -> usize {
        self.p.len() / 9
    }
    fn mass(&self) -> f64 {
        self.p.iter().sum()
    }
    /// Add one die showing `face` to every entry, scaled by `w`, into `out`.
    fn shifted_into(&self, face: u8, to_hit: u8, w: f64, out: &mut Joint) {
        let dh = usize::from(face >= to_hit);
        let d1 = usize::from(face == 1);
        let d6 = usize::from(face == 6);
        let need = self.h_len() + dh;
        if out.h_len() < need {
            out.p.resize(need * 9, 0.0);
        }
        for h in 0..self.h_len() {
            for o in 0..3 {
                for s in 0..3 {
                    let q = self.p[h * 9 + o * 3 + s];
                    if q != 0.0 {
                        let i = (h + dh) * 9 + (o + d1).min(2) * 3 + (s + d6).min(2);
                        out.p[i] += q * w;
                    }
                }
            }
        }
    }
    fn convolve(&self, other: &Joint, prune: f64, omitted: &mut f64) -> Joint {
        let mut out = Joint::zero(self.h_len() + other.h_len() - 1);
        for h1 in 0..self.h_len() {
            for a in 0..9 {
                let q1 = self.p[h1 * 9 + a];
                if q1 == 0.0 {
                    continue;
                }
                for h2 in 0..other.h_len() {
                    for b in 0..9 {
                        let q2 = other.p[h2 * 9 + b];
                        if q2 == 0.0 {
                            continue;
                        }
                        let o = (a / 3 + b / 3).min(2);
                        let s = (a % 3 + b % 3).min(2);
                        out.p[(h1 + h2) * 9 + o * 3 + s] += q1 * q2;
                    }
                }
            }
        }
        for q in out.p.iter_mut() {
            if *q != 0.0 && *q < prune {
                *omitted += *q;
                *q = 0.0;
            }
        }
        while out.h_len() > 1 && out.p[out.p.len() - 9..].iter().all(|q| *q == 0.0) {
            out.p.truncate(out.p.len() - 9);
        }
        out
    }
}

/// Depth of solid-shot chains followed: (1/3)^40 ≈ 8e-20 per die.
const CHAIN_DEPTH: usize = 40;
/// Entries below this are dropped into the omitted probability.
const PRUNE: f64 = 1e-18;

/// The exact joint distribution of a volley's final dice: (hitting dice,
/// ones, sixes) with ones and sixes capped at 2, plus the omitted mass.
fn volley_joint(cat: &Catalogue, spec: &ShotSpec) -> (Joint, f64) {
    let th = spec.to_hit;
    let pen = spec.penetration_face(cat);
    // Face probabilities of a pool die, after one re-roll of a miss.
    let misses = f64::from(th.saturating_sub(1).min(6));
    let mut first = [1.0 / 6.0; 6];
    if spec.reroll_misses {
        for (i, p) in first.iter_mut().enumerate() {
            let f = i as u8 + 1;
            *p = if f >= th { 1.0 / 6.0 } else { 0.0 } + misses / 6.0 / 6.0;
        }
    }
    // Chain of penetration dice started by one penetrating die.
    let mut chain = Joint::zero(1); // C_0: nothing (all mass omitted)
    if let Some(pf) = pen {
        for _ in 0..CHAIN_DEPTH {
            let mut next = Joint::zero(1);
            for f in 1..=6u8 {
                if f >= pf {
                    chain.shifted_into(f, th, 1.0 / 6.0, &mut next);
                } else {
                    Joint::unit().shifted_into(f, th, 1.0 / 6.0, &mut next);
                }
            }
            chain = next;
        }
    }
    let mut die = Joint::zero(1);
    for f in 1..=6u8 {
        let w = first[usize::from(f - 1)];
        match pen {
            Some(pf) if f >= pf => chain.shifted_into(f, th, w, &mut die),
            _ => Joint::unit().shifted_into(f, th, w, &mut die),
        }
    }
    let mut omitted = 0.0;
    let mut total = Joint::unit();
    for _ in 0..spec.dice {
        total = total.convolve(&die, PRUNE, &mut omitted);
    }
    // Mass lost to the chain depth (solid shot only; elsewhere nothing is cut).
    let lost = if pen.is_some() {
        (1.0 - total.mass() - omitted).max(0.0)
    } else {
        0.0
    };
    (total, omitted + lost)
}

/// The target's Discipline Test after a volley: the probability it is due
/// and failed, for each (hits, new Disorder Markers).
struct TargetModel {
    current_hits: u32,
    discipline: u32,
    resilient_left: u32,
    morale: i32,
    base: MoraleSituation,
    had_disorder: bool,
    esprit: bool,
    automatic: bool,
}

impl TargetModel {
    fn test(&self, cat: &Catalogue, hits: u32, new_dm: u32) -> (bool, f64) {
        let r = take_hits(
            self.current_hits,
            self.discipline,
            self.resilient_left,
            hits,
        );
        if !r.test_due {
            return (false, 0.0);
        }
        let mut s = self.base;
        s.excess_hits = r.excess;
        // Markers from the same volley count for the test (M-16).
        s.disordered = self.had_disorder || new_dm > 0;
        let (m, _) = morale_modifier(cat, &s, TestKind::Discipline);
        let t = MoraleTest {
            target: self.morale,
            modifier: m,
            esprit_de_corps: self.esprit,
            encouraging_words: false,
            automatic_pass: self.automatic,
        };
        (true, 1.0 - morale_pass_probability(&t))
    }
}

/// Exact odds of one shooting order.
pub fn shooting_odds(cat: &Catalogue, req: &ShootingRequest) -> Result<ShootingOdds, OddsError> {
    check_count("shooter.disorder_markers", req.shooter.disorder_markers)?;
    check_count("target.hits", req.target.hits)?;
    check_count("target.disorder_markers", req.target.disorder_markers)?;
    if req.range_inches > 1000 {
        return Err(OddsError::OutOfRange {
            field: "range_inches".into(),
            message: "more than 1000 inches".into(),
        });
    }
    let sp = element_profile(
        cat,
        "shooter",
        req.shooter.element_type,
        req.shooter.size,
        req.shooter.weapon,
        &req.shooter.upgrades,
    )?;
    let tp = element_profile(
        cat,
        "target",
        req.target.element_type,
        req.target.size,
        None,
        &req.target.upgrades,
    )?;
    let mut rulings = vec!["R-14".to_string(), "R-15".to_string(), "R-16".to_string()];
    let mut notes = Vec::new();
    let target_formation =
        req.target
            .formation
            .unwrap_or(if req.target.element_type == ElementType::Artillery {
                Formation::Unlimbered
            } else {
                Formation::BattleLine
            });
    let open = matches!(
        target_formation,
        Formation::OpenOrder | Formation::Unlimbered
    );
    if target_formation == Formation::Unlimbered {
        add_r(&mut rulings, "R-9");
    }
    let shooter = ShooterState {
        element_type: sp.element_type,
        weapon: sp.weapon,
        action: sp.action,
        extra_dice: sp.extra_dice,
        range: sp.range.max,
        min_range: sp.range.min.unwrap_or(0),
        exhausted: matches!(
            req.shooter.discipline_level,
            DisciplineLevel::Exhausted | DisciplineLevel::Shattered
        ),
        disorder_markers: req.shooter.disorder_markers,
    };
    if sp.extra_dice > 0 {
        add_r(&mut rulings, "R-10");
    }
    if shooter.exhausted {
        add_r(&mut rulings, "R-19");
    }
    let sit = ShotSituation {
        range_inches: req.range_inches,
        target_in_cover: req.target.in_cover,
        target_open_order: open,
        flank: req.flank,
        ammunition: req.ammunition,
    };
    let (pool, kind) = shooting_pool(cat, &shooter, &sit)?;
    if kind != ShotKind::Musket {
        add_r(&mut rulings, "R-17");
    }
    let mut spec = ShotSpec::from_pool(&pool, kind, req.flank);
    let german = has_skill(&sp, skill_ids::GERMAN_RANKS);
    if req.concentrated_volley || german {
        spec.reroll_misses = true;
        spec.ignore_ragged = true;
        add_r(&mut rulings, "M-14");
        if german && !req.concentrated_volley {
            add_r(&mut rulings, "R-7");
            notes.push("German Ranks: counted as the first volley of an activation, so misses are rolled again and a ragged volley is ignored.".into());
        } else {
            notes.push("Assumes the Concentrated Volley's Morale Test was passed.".into());
        }
    }
    spec.marksmen = has_skill(&sp, "marksmen");
    if kind == ShotKind::SolidShot {
        add_r(&mut rulings, "M-13");
    }
    let (joint, omitted) = volley_joint(cat, &spec);

    // The target.
    let resilient_left = if req.target.hits == 0 {
        u32::from(tp.ignores_first_hits)
    } else {
        0
    };
    if resilient_left > 0 {
        add_r(&mut rulings, "R-10");
        add_r(&mut rulings, "M-17");
        notes.push("Resilient: assumed unused while the target has no hits.".into());
    }
    let lvl = req.target.discipline_level;
    if req.target.commander_rating.is_some() && !req.target.commander_attached {
        return Err(OddsError::CommanderRating {
            field: "target.commander_rating".into(),
            message: "a rating counts only while the commander is attached: set commander_attached too (R-33)".into(),
        });
    }
    let commander = commander_morale(
        cat,
        "target.commander_rating",
        req.target.commander_rating.as_deref(),
        req.target.commander_attached,
    )?;
    let target_morale = match &commander {
        Some(c) => {
            add_r(&mut rulings, "R-33");
            notes.push(format!(
                "The target's Discipline Test: {}",
                commander_note(c, true, Some(tp.morale))
            ));
            c.morale
        }
        None => tp.morale,
    };
    let model = TargetModel {
        current_hits: req.target.hits,
        discipline: u32::from(tp.discipline),
        resilient_left,
        morale: i32::from(target_morale),
        base: MoraleSituation {
            march_column: target_formation == Formation::MarchColumn,
            shaken_or_exhausted: matches!(
                lvl,
                DisciplineLevel::Shaken | DisciplineLevel::Exhausted
            ),
            supported: req.target.supported,
            battle_line: target_formation == Formation::BattleLine,
            commander_attached: req.target.commander_attached,
            in_cover: req.target.in_cover,
            in_defenses: req.target.in_defenses,
            preserve_the_nation: has_skill(&tp, "preserve_the_nation"),
            ..MoraleSituation::default()
        },
        had_disorder: req.target.disorder_markers > 0,
        esprit: has_skill(&tp, "esprit_de_corps"),
        automatic: target_formation == Formation::Unlimbered,
    };
    add_r(&mut rulings, "R-20");

    let mut hits_dist: Vec<f64> = Vec::new();
    let mut dm_dist: Vec<f64> = Vec::new();
    let (mut p_rag, mut p_pun, mut p_test, mut p_fail) = (0.0, 0.0, 0.0, 0.0);
    for h in 0..joint.h_len() {
        for a in 0..9 {
            let q = joint.p[h * 9 + a];
            if q == 0.0 {
                continue;
            }
            let eff = judge_volley(cat, &spec, h as u32, (a / 3) as u32, (a % 3) as u32);
            let hi = eff.hits as usize;
            if hits_dist.len() <= hi {
                hits_dist.resize(hi + 1, 0.0);
            }
            hits_dist[hi] += q;
            let di = eff.disorder_markers as usize;
            if dm_dist.len() <= di {
                dm_dist.resize(di + 1, 0.0);
            }
            dm_dist[di] += q;
            if eff.ragged {
                p_rag += q;
            }
            if eff.punishing {
                p_pun += q;
            }
            let (due, pf) = model.test(cat, eff.hits, eff.disorder_markers);
            if due {
                p_test += q;
                p_fail += q * pf;
            }
        }
    }
    let expected = hits_dist
        .iter()
        .enumerate()
        .map(|(k, p)| k as f64 * p)
        .sum();
    let p_dis = 1.0 - dm_dist.first().copied().unwrap_or(0.0) - omitted;
    Ok(ShootingOdds {
        dice: pool.dice(),
        pool_total: pool.total,
        to_hit: pool.to_hit(),
        kind,
        hits_distribution: hits_dist,
        expected_hits: expected,
        p_ragged_volley: p_rag,
        p_punishing_volley: p_pun,
        p_target_disordered: p_dis.max(0.0),
        disorder_distribution: dm_dist,
        p_discipline_test: p_test,
        p_discipline_test_failed: p_fail,
        omitted_probability: omitted,
        pool_explanation: pool.explanation(),
        pool_terms: pool.terms.clone(),
        rulings,
        notes,
    })
}

/// The exact hits distribution of a volley spec, with the omitted mass
/// (used by the tests and the simulator's policy).
pub fn volley_hits_distribution(cat: &Catalogue, spec: &ShotSpec) -> (Vec<f64>, f64) {
    let (joint, omitted) = volley_joint(cat, spec);
    let mut out: Vec<f64> = Vec::new();
    for h in 0..joint.h_len() {
        for a in 0..9 {
            let q = joint.p[h * 9 + a];
            if q == 0.0 {
                continue;
            }
            let eff = judge_volley(cat, spec, h as u32, (a / 3) as u32, (a % 3) as u32);
            let i = eff.hits as usize;
            if out.len() <= i {
                out.resize(i + 1, 0.0);
            }
            out[i] += q;
        }
    }
    (out, omitted)
}

// ---------------------------------------------------------------------------
// Melee.

/// A supporting element in a melee request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupporterSpec {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// Close support: all its Action dice.
    #[serde(default)]
    pub close: bool,
    #[serde(default)]
    pub disorder_markers: u32,
    #[serde(default = "fit", skip_serializing_if = "is_fit")]
    pub discipline_level: DisciplineLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
}

/// One side of a melee request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeElementSpec {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formation: Option<Formation>,
    #[serde(default = "fit", skip_serializing_if = "is_fit")]
    pub discipline_level: DisciplineLevel,
    #[serde(default)]
    pub disorder_markers: u32,
    /// Spent the Combat Order; default true for the attacker, false for the defender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiated: Option<bool>,
    #[serde(default)]
    pub flank: bool,
    #[serde(default)]
    pub counter_charged: bool,
    #[serde(default)]
    pub in_spi: bool,
    #[serde(default)]
    pub commander_attached: bool,
    #[serde(default)]
    pub defenses: bool,
    #[serde(default)]
    pub high_ground: bool,
    #[serde(default)]
    pub in_building: bool,
    /// Assume a passed Inspirational Charge (or the skill in a melee it
    /// started): misses re-rolled once.
    #[serde(default)]
    pub inspired: bool,
    #[serde(default)]
    pub supporters: Vec<SupporterSpec>,
}

/// `POST /api/v1/lotf/odds/melee`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRequest {
    pub attacker: MeleeElementSpec,
    pub defender: MeleeElementSpec,
}

/// One side's pool and modifiers in the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeSideOdds {
    pub dice: u32,
    pub pool_total: i32,
    pub to_hit: u8,
    pub pool_explanation: String,
    pub pool_terms: Vec<Term>,
    pub resolution_modifier: i32,
    pub resolution_terms: Vec<Term>,
    pub hits_distribution: Vec<f64>,
    pub expected_hits: f64,
}

/// The probability of one margin (attacker result − defender result).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MarginP {
    pub margin: i32,
    pub p: f64,
}

/// The exact odds of one melee round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeOdds {
    pub attacker_win: f64,
    pub tie: f64,
    pub defender_win: f64,
    /// Attacker's result minus the defender's, lowest first.
    pub margin_distribution: Vec<MarginP>,
    pub attacker: MeleeSideOdds,
    pub defender: MeleeSideOdds,
    pub rulings: Vec<String>,
    pub notes: Vec<String>,
    /// What the rules would not allow in this situation (a charge the size limit forbids, R-28);
    /// the odds are worked out anyway.
    #[serde(default)]
    pub warnings: Vec<String>,
}

fn melee_side(
    cat: &Catalogue,
    field: &str,
    s: &MeleeElementSpec,
    default_initiated: bool,
) -> Result<MeleeSide, OddsError> {
    check_count(&format!("{field}.disorder_markers"), s.disorder_markers)?;
    let p = element_profile(cat, field, s.element_type, s.size, None, &s.upgrades)?;
    let max = cat.numbers().max_supporters;
    if s.supporters.len() > usize::from(max) {
        return Err(OddsError::TooManySupporters {
            field: format!("{field}.supporters"),
            max,
        });
    }
    let mut supporters = Vec::new();
    for (i, sup) in s.supporters.iter().enumerate() {
        let f = format!("{field}.supporters[{i}]");
        check_count(&format!("{f}.disorder_markers"), sup.disorder_markers)?;
        let sp = element_profile(cat, &f, sup.element_type, sup.size, None, &sup.upgrades)?;
        supporters.push(Supporter {
            action: sp.action,
            extra_dice: sp.extra_dice,
            disorder_markers: sup.disorder_markers,
            close: sup.close,
            level: sup.discipline_level,
            formation: sup.formation.unwrap_or(Formation::BattleLine),
        });
    }
    Ok(MeleeSide {
        element_type: s.element_type,
        action: p.action,
        extra_dice: p.extra_dice,
        level: s.discipline_level,
        formation: s
            .formation
            .unwrap_or(if s.element_type == ElementType::Artillery {
                Formation::Unlimbered
            } else {
                Formation::BattleLine
            }),
        disorder_markers: s.disorder_markers,
        initiated: s.initiated.unwrap_or(default_initiated),
        flank: s.flank,
        counter_charged: s.counter_charged,
        supporters,
        in_spi: s.in_spi,
        commander_attached: s.commander_attached,
        defenses: s.defenses,
        high_ground: s.high_ground,
        self_preservation: has_skill(&p, skill_ids::SELF_PRESERVATION),
        in_building: s.in_building,
        reroll_misses: s.inspired,
    })
}

fn side_odds(cat: &Catalogue, me: &MeleeSide, other: &MeleeSide) -> (MeleeSideOdds, DicePool) {
    let pool = melee_pool(cat, me, other);
    let (rm, rt) = melee_resolution(cat, me, other);
    let hd = binomial(pool.dice(), side_hit_probability(&pool, me.reroll_misses));
    let eh = hd.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    (
        MeleeSideOdds {
            dice: pool.dice(),
            pool_total: pool.total,
            to_hit: pool.to_hit(),
            pool_explanation: pool.explanation(),
            pool_terms: pool.terms.clone(),
            resolution_modifier: rm,
            resolution_terms: rt,
            hits_distribution: hd,
            expected_hits: eh,
        },
        pool,
    )
}

/// Everything a melee's odds depend on, once both pools and result modifiers are worked out:
/// per side (attacker first) the dice, the number each die needs, whether misses are rolled
/// again, and the result modifier. Two melees with the same numbers have the same odds to the
/// bit, which is what lets the simulator's policy remember odds by these few small numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeNumbers {
    pub dice: [u32; 2],
    pub to_hit: [u8; 2],
    pub reroll: [bool; 2],
    pub modifier: [i32; 2],
}

/// Hashed as three words (the derived hash would feed every byte and each array's length
/// separately, and the policy looks these up on every charge it weighs).
impl std::hash::Hash for MeleeNumbers {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let pair = |a: u32, b: u32| u64::from(a) | (u64::from(b) << 32);
        state.write_u64(pair(self.dice[0], self.dice[1]));
        state.write_u64(pair(self.modifier[0] as u32, self.modifier[1] as u32));
        state.write_u64(
            u64::from(self.to_hit[0])
                | (u64::from(self.to_hit[1]) << 8)
                | (u64::from(self.reroll[0]) << 16)
                | (u64::from(self.reroll[1]) << 17),
        );
    }
}

/// The [`MeleeNumbers`] of a melee between two sides already built.
pub fn melee_numbers(cat: &Catalogue, a: &MeleeSide, d: &MeleeSide) -> MeleeNumbers {
    let pool_a = melee_pool_unexplained(cat, a, d);
    let pool_d = melee_pool_unexplained(cat, d, a);
    MeleeNumbers {
        dice: [pool_a.dice(), pool_d.dice()],
        to_hit: [pool_a.to_hit(), pool_d.to_hit()],
        reroll: [a.reroll_misses, d.reroll_misses],
        modifier: [
            melee_resolution_total(cat, a, d),
            melee_resolution_total(cat, d, a),
        ],
    }
}

/// One side's hit distribution, as [`side_odds`] builds it.
fn side_hits(n: &MeleeNumbers, k: usize) -> Vec<f64> {
    binomial(n.dice[k], die_hit_probability(n.to_hit[k], n.reroll[k]))
}

/// The melee's result margins (attacker's result less the defender's) with their
/// probabilities, smallest margin first.
fn margin_buckets(
    per_hit: i32,
    (hits_a, rm_a): (&[f64], i32),
    (hits_d, rm_d): (&[f64], i32),
) -> Vec<(i32, f64)> {
    let margin = |ha: usize, hd: usize| (ha as i32 * per_hit + rm_a) - (hd as i32 * per_hit + rm_d);
    // The margin is linear in both hit counts, so its extremes are at the corners.
    let (top_a, top_d) = (
        hits_a.len().saturating_sub(1),
        hits_d.len().saturating_sub(1),
    );
    let corners = [
        margin(0, 0),
        margin(0, top_d),
        margin(top_a, 0),
        margin(top_a, top_d),
    ];
    let lowest = corners.iter().copied().min().unwrap_or(0);
    let highest = corners.iter().copied().max().unwrap_or(0);
    let mut buckets = vec![0.0; usize::try_from(highest - lowest + 1).unwrap_or(0)];
    // Only margins some pair of hit counts reaches are kept, as a map of them would hold.
    let mut reached = vec![false; buckets.len()];
    for (ha, pa) in hits_a.iter().enumerate() {
        for (hd, pd) in hits_d.iter().enumerate() {
            let k = (margin(ha, hd) - lowest) as usize;
            buckets[k] += pa * pd;
            reached[k] = true;
        }
    }
    buckets
        .into_iter()
        .zip(reached)
        .enumerate()
        .filter(|(_, (_, r))| *r)
        .map(|(k, (p, _))| (lowest + k as i32, p))
        .collect()
}

/// P(the attacker wins), P(the defender wins): the simulator policy's question, answered
/// with the same arithmetic as [`melee_odds_for_sides`] but without building its explanation.
pub fn melee_win_lose(cat: &Catalogue, a: &MeleeSide, d: &MeleeSide) -> (f64, f64) {
    win_lose_of(cat, &melee_numbers(cat, a, d))
}

/// P(the attacker wins), P(the defender wins) of a melee with these numbers.
pub fn win_lose_of(cat: &Catalogue, n: &MeleeNumbers) -> (f64, f64) {
    let (hits_a, rm_a) = (side_hits(n, 0), n.modifier[0]);
    let (hits_d, rm_d) = (side_hits(n, 1), n.modifier[1]);
    let per_hit = cat.melee_resolution_modifier(MeleeResolutionModifier::Hits);
    let margins = margin_buckets(per_hit, (&hits_a, rm_a), (&hits_d, rm_d));
    let win = margins.iter().filter(|(m, _)| *m > 0).map(|(_, p)| p).sum();
    let lose = margins.iter().filter(|(m, _)| *m < 0).map(|(_, p)| p).sum();
    (win, lose)
}

/// Exact odds of two melee sides already built (used by the simulator's
/// policy as well).
pub fn melee_odds_for_sides(cat: &Catalogue, a: &MeleeSide, d: &MeleeSide) -> MeleeOdds {
    let (ao, _) = side_odds(cat, a, d);
    let (dd, _) = side_odds(cat, d, a);
    let per_hit = cat.melee_resolution_modifier(MeleeResolutionModifier::Hits);
    let margins = margin_buckets(
        per_hit,
        (&ao.hits_distribution, ao.resolution_modifier),
        (&dd.hits_distribution, dd.resolution_modifier),
    );
    let win = margins.iter().filter(|(m, _)| *m > 0).map(|(_, p)| p).sum();
    let tie = margins
        .iter()
        .find(|(m, _)| *m == 0)
        .map_or(0.0, |(_, p)| *p);
    let lose = margins.iter().filter(|(m, _)| *m < 0).map(|(_, p)| p).sum();
    let mut rulings = vec!["R-14".to_string(), "R-18".to_string()];
    if a.self_preservation || d.self_preservation {
        rulings.push("R-29".into());
    }
    if a.level != DisciplineLevel::Fit || d.level != DisciplineLevel::Fit {
        rulings.push("R-19".into());
    }
    MeleeOdds {
        attacker_win: win,
        tie,
        defender_win: lose,
        margin_distribution: margins
            .into_iter()
            .map(|(margin, p)| MarginP { margin, p })
            .collect(),
        attacker: ao,
        defender: dd,
        rulings,
        notes: Vec::new(),
        warnings: Vec::new(),
    }
}

/// The charge and counter-charge limits a melee request runs into (R-28 as amended: the size
/// limit of `size_may_charge`, which the simulator applies too; artillery never charges and is
/// never counter-charged; infantry counter-charges only infantry).
fn charge_warnings(req: &MeleeRequest) -> Vec<String> {
    let (a, d) = (&req.attacker, &req.defender);
    let mut w = Vec::new();
    let anyway = "the odds are for the melee if it happened anyway";
    if a.initiated.unwrap_or(true) {
        if a.element_type == ElementType::Artillery {
            w.push(format!("Artillery never charges (R-28); {anyway}."));
        } else if !size_may_charge(a.size, d.size) {
            w.push(format!(
                "A {} element may not charge a {} one (R-28); {anyway}.",
                a.size, d.size
            ));
        }
    }
    if d.counter_charged {
        if !counter_charge_allowed(d.element_type, a.element_type) {
            w.push(format!(
                "{} may not counter-charge {} (R-28); {anyway}.",
                d.element_type.label(),
                a.element_type.label().to_lowercase()
            ));
        } else if !size_may_charge(d.size, a.size) {
            w.push(format!(
                "A {} element may not counter-charge a {} one (R-28); {anyway}.",
                d.size, a.size
            ));
        }
    }
    w
}

/// Exact odds of one melee round (R-18, R-14 extended to melee).
pub fn melee_odds(cat: &Catalogue, req: &MeleeRequest) -> Result<MeleeOdds, OddsError> {
    let a = melee_side(cat, "attacker", &req.attacker, true)?;
    let d = melee_side(cat, "defender", &req.defender, false)?;
    let mut o = melee_odds_for_sides(cat, &a, &d);
    o.warnings = charge_warnings(req);
    if !o.warnings.is_empty() {
        add_r(&mut o.rulings, "R-28");
    }
    if a.reroll_misses || d.reroll_misses {
        o.notes.push(
            "Inspired sides re-roll their misses once (a passed Inspirational Charge).".into(),
        );
    }
    Ok(o)
}

// ---------------------------------------------------------------------------
// Morale.

/// The element taking a Morale Test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleElementSpec {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
}

/// `POST /api/v1/lotf/odds/morale`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRequest {
    /// The element (its Morale, Esprit de Corps, Preserve the Nation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<MoraleElementSpec>,
    /// The Morale value to reach; overrides the element's. With a commander's rating it may be
    /// left out, and must agree with the rating when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<u8>,
    /// The commander's rating as the catalogue names it (`incompetent`, `competent`, `skilled`,
    /// `highly_skilled`): his Morale replaces the element's. Required when
    /// `situation.commander_attached`; without it, the test is one of his special orders that does
    /// not attach him (a Forced Order): his Morale, no +1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander_rating: Option<String>,
    #[serde(default)]
    pub kind: TestKind,
    #[serde(default)]
    pub situation: MoraleSituation,
    /// Default: from the element's skills.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub esprit_de_corps: Option<bool>,
    #[serde(default)]
    pub encouraging_words: bool,
    /// Unlimbered artillery taking a Discipline Test passes automatically.
    #[serde(default)]
    pub unlimbered_artillery: bool,
}

/// The exact odds of a Morale Test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoraleOdds {
    pub p_pass: f64,
    pub p_fail: f64,
    pub target: i32,
    pub modifier: i32,
    pub modifier_terms: Vec<Term>,
    /// What the two dice must show, before any re-roll.
    pub need_on_2d6: i32,
    pub explanation: String,
    pub rulings: Vec<String>,
    /// Where the Morale value came from, in plain words, when it is not the element's own.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Exact probability of passing a Morale Test.
pub fn morale_odds(cat: &Catalogue, req: &MoraleRequest) -> Result<MoraleOdds, OddsError> {
    check_count("situation.excess_hits", req.situation.excess_hits)?;
    check_count("situation.forced_orders", req.situation.forced_orders)?;
    let prof = match &req.element {
        Some(e) => Some(element_profile(
            cat,
            "element",
            e.element_type,
            e.size,
            None,
            &e.upgrades,
        )?),
        None => None,
    };
    let attached = req.situation.commander_attached;
    let commander = commander_morale(
        cat,
        "commander_rating",
        req.commander_rating.as_deref(),
        attached,
    )?;
    let mut notes = Vec::new();
    let target = match (&commander, req.morale, &prof) {
        (Some(c), Some(m), _) if m != c.morale => {
            return Err(OddsError::CommanderRating {
                field: "morale".into(),
                message: format!(
                    "Morale {m} is not the {} commander's {}, which is the value to reach (R-33); leave morale out or correct it",
                    c.name, c.morale
                ),
            })
        }
        (Some(c), _, _) => {
            notes.push(commander_note(c, attached, prof.as_ref().map(|p| p.morale)));
            i32::from(c.morale)
        }
        (None, Some(m), _) => i32::from(m),
        (None, None, Some(p)) => i32::from(p.morale),
        (None, None, None) => {
            return Err(OddsError::OutOfRange {
                field: "morale".into(),
                message: "give an element, a Morale value or a commander's rating".into(),
            })
        }
    };
    if !(0..=20).contains(&target) {
        return Err(OddsError::OutOfRange {
            field: "morale".into(),
            message: format!("{target} is not a Morale value"),
        });
    }
    let mut s = req.situation;
    if let Some(p) = &prof {
        s.preserve_the_nation |= has_skill(p, "preserve_the_nation");
    }
    let (m, terms) = morale_modifier(cat, &s, req.kind);
    let esprit = req.esprit_de_corps.unwrap_or_else(|| {
        prof.as_ref()
            .map(|p| has_skill(p, "esprit_de_corps"))
            .unwrap_or(false)
    });
    let test = MoraleTest {
        target,
        modifier: m,
        esprit_de_corps: esprit,
        encouraging_words: req.encouraging_words,
        automatic_pass: req.unlimbered_artillery && req.kind == TestKind::Discipline,
    };
    let p = morale_pass_probability(&test);
    let mut explanation = format!(
        "2d6 {} {} ≥ {target}",
        if m < 0 { "−" } else { "+" },
        m.abs()
    );
    if esprit {
        explanation.push_str(", both dice rolled again once after a failure (Esprit de Corps)");
    } else if req.encouraging_words {
        explanation
            .push_str(", the lower die rolled again once after a failure (Encouraging Words)");
    }
    let mut rulings = vec!["R-20".to_string()];
    if s.shaken_or_exhausted || s.disordered {
        rulings.push("R-19".into());
    }
    if commander.is_some() {
        rulings.push("R-11".into());
        if attached {
            rulings.push("R-33".into());
        }
    }
    Ok(MoraleOdds {
        p_pass: p,
        p_fail: 1.0 - p,
        target,
        modifier: m,
        modifier_terms: terms,
        need_on_2d6: target - m,
        explanation,
        rulings,
        notes,
    })
}
