//! Test odds (`POST /api/v1/awi/odds/test`): morale (4.3, W-6, W-7, W-9), uncontrolled movement
//! and brigadier tests (4.4, W-4), the entering-melee test (4.5), the melee losers test (4.6,
//! W-23) and the general's risk (W-29). Each answers the distribution of the modified total, the
//! result bands with their meaning, and how the dice were built.

use serde::{Deserialize, Serialize};

use super::super::catalogue::Catalogue;
use super::super::types::{Grade, MoraleReason, TroopType};
use super::dist::{Dist, Row};
use super::firing::{grade, trained, troop};
use super::{OddsError, Term};

/// Every count and flag any test reads; each kind reads its own.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TestRequest {
    /// `morale`, `uncontrolled`, `brigadier`, `entering`, `losers` or `general`.
    pub kind: String,
    #[serde(default = "trained")]
    pub grade: String,
    #[serde(rename = "type", default)]
    pub troop_type: Option<String>,
    /// Morale: `wishing_to_charge`, `being_charged`, `firing_hits`, `half_strength`, `routing`.
    #[serde(default)]
    pub reason: Option<String>,
    // Morale flags and counts (W-7).
    #[serde(default)]
    pub rear_support: bool,
    #[serde(default)]
    pub brigadier_attached: bool,
    #[serde(default)]
    pub cinc_attached: bool,
    #[serde(default)]
    pub no_enemy_within_12: bool,
    #[serde(default)]
    pub defending_obstacle: bool,
    #[serde(default)]
    pub pursuing: bool,
    #[serde(default)]
    pub won_melee: bool,
    #[serde(default)]
    pub lost_melee: bool,
    #[serde(default)]
    pub in_rout: bool,
    #[serde(default)]
    pub enemy_flank_rear: bool,
    #[serde(default)]
    pub routing_same_class: u32,
    #[serde(default)]
    pub routing_higher_class: u32,
    /// 10 % steps of dead in bases (W-3); or give `bases_lost` and `start_bases`.
    #[serde(default)]
    pub dead_10pct_steps: Option<u32>,
    #[serde(default)]
    pub dead_20pct_steps: Option<u32>,
    #[serde(default)]
    pub bases_lost: Option<u32>,
    #[serde(default)]
    pub start_bases: Option<u32>,
    // Uncontrolled and entering.
    #[serde(default)]
    pub disordered: bool,
    // Brigadier.
    #[serde(default)]
    pub ability: Option<u32>,
    // Entering.
    #[serde(default)]
    pub charging: bool,
    #[serde(default)]
    pub led_by_general: bool,
    #[serde(default)]
    pub charging_flank_rear: bool,
    #[serde(default)]
    pub charging_unsupported_gunners: bool,
    #[serde(default)]
    pub charging_defended_obstacle: bool,
    #[serde(default)]
    pub figures_killed_by_fire: u32,
    #[serde(default)]
    pub in_column: bool,
    #[serde(default)]
    pub cavalry_v_ordered_infantry: bool,
    #[serde(default)]
    pub charged_in_flank_or_rear: bool,
    #[serde(default)]
    pub unsupported_gunners: bool,
    // Losers.
    #[serde(default)]
    pub casualties_suffered: Option<u32>,
    #[serde(default)]
    pub casualties_inflicted: Option<u32>,
    #[serde(default)]
    pub charged_this_move: bool,
    #[serde(default)]
    pub lost_to_charging_cavalry: bool,
    #[serde(default)]
    pub could_not_fight_back: bool,
    // General.
    #[serde(default)]
    pub casualties: Option<u32>,
}

/// A result band of a test and its chance.
#[derive(Debug, Clone, Serialize)]
pub struct BandOdds {
    pub id: String,
    /// The totals it covers ("5+").
    pub totals: String,
    pub meaning: String,
    pub p: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct TestAnswer {
    pub kind: String,
    pub dice_built: String,
    pub terms: Vec<Term>,
    pub modifier: i32,
    /// The modified total.
    pub totals: Vec<Row>,
    pub bands: Vec<BandOdds>,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

fn steps(req: &TestRequest, ten: bool) -> Result<u32, OddsError> {
    let given = if ten {
        req.dead_10pct_steps
    } else {
        req.dead_20pct_steps
    };
    if let Some(s) = given {
        return Ok(s.min(10));
    }
    match (req.bases_lost, req.start_bases) {
        (Some(l), Some(s)) if s > 0 && l <= s => {
            let (t, w) = super::super::validate::dead_steps(l, s);
            Ok(if ten { t } else { w })
        }
        (Some(_), Some(_)) => Err(OddsError::field(
            "bases_lost",
            "Bases lost must be between 0 and the unit's starting bases, which is 1 or more.",
        )),
        _ => Ok(0),
    }
}

struct Terms<'c> {
    cat: &'c Catalogue,
    table: &'static str,
    list: Vec<Term>,
}

impl Terms<'_> {
    fn add(&mut self, id: &str, value: i32) {
        if value != 0 {
            self.list.push(Term {
                id: id.to_string(),
                label: self.cat.modifier_label(self.table, id),
                value,
            });
        }
    }
    fn sum(&self) -> i32 {
        self.list.iter().map(|t| t.value).sum()
    }
}

fn count(n: u32) -> i32 {
    i32::try_from(n.min(100)).unwrap_or(100)
}

/// The exact odds of one test.
pub fn test(cat: &Catalogue, req: &TestRequest) -> Result<TestAnswer, OddsError> {
    let g = grade("grade", &req.grade)?;
    let t = match &req.troop_type {
        Some(s) => Some(troop("type", s)?),
        None => None,
    };
    match req.kind.as_str() {
        "morale" => morale(cat, req, g),
        "uncontrolled" => uncontrolled(cat, req, g, t),
        "brigadier" => brigadier(cat, req),
        "entering" => entering(cat, req, g),
        "losers" => losers(cat, req, g, t),
        "general" => general(req),
        other => Err(OddsError::field(
            "kind",
            format!("'{other}' is not a test: morale, uncontrolled, brigadier, entering, losers or general."),
        )),
    }
}

fn morale(cat: &Catalogue, req: &TestRequest, g: Grade) -> Result<TestAnswer, OddsError> {
    let reason_text = req.reason.as_deref().unwrap_or("firing_hits");
    let reason = MoraleReason::from_id(reason_text).ok_or_else(|| {
        OddsError::field(
            "reason",
            format!("'{reason_text}' is not a reason to test: wishing_to_charge, being_charged, firing_hits, half_strength or routing."),
        )
    })?;
    let mut notes = Vec::new();
    let mut t = Terms {
        cat,
        table: "morale",
        list: Vec::new(),
    };
    match g {
        Grade::Elite => t.add("elite", cat.grade(g).morale),
        Grade::Raw => t.add("raw", cat.grade(g).morale),
        Grade::Militia => t.add("militia", cat.grade(g).morale),
        Grade::Trained => {}
    }
    let routing = reason == MoraleReason::Routing;
    if routing && !(req.in_rout && req.no_enemy_within_12) {
        notes.push("A routing unit tests only with no visible enemy within 12\", and is in rout: both modifiers apply (W-27).".into());
    }
    let flags: [(&str, bool); 10] = [
        ("rear_support", req.rear_support),
        ("brigadier_attached", req.brigadier_attached),
        ("no_enemy_within_12", req.no_enemy_within_12 || routing),
        ("defending_obstacle", req.defending_obstacle),
        ("pursuing", req.pursuing),
        ("won_melee", req.won_melee),
        ("cinc_attached", req.cinc_attached),
        ("enemy_flank_rear", req.enemy_flank_rear),
        ("lost_melee", req.lost_melee),
        ("in_rout", req.in_rout || routing),
    ];
    for (id, on) in flags {
        if on {
            t.add(id, cat.morale_mod(id));
        }
    }
    t.add(
        "per_10pct_dead",
        cat.morale_mod("per_10pct_dead") * count(steps(req, true)?),
    );
    t.add(
        "per_routing_same_class",
        cat.morale_mod("per_routing_same_class") * count(req.routing_same_class),
    );
    t.add(
        "per_routing_higher_class",
        cat.morale_mod("per_routing_higher_class") * count(req.routing_higher_class),
    );
    if req.routing_higher_class > 0 && g == Grade::Elite {
        notes.push("No grade is higher than elite: routing friends of a higher grade cannot be counted for an elite unit (W-7).".into());
    }
    let dice = cat.grade(g).morale_dice;
    let one = Dist::die(dice.sides());
    let modifier = t.sum();
    let totals = one.add(&one).shift(modifier);
    let bands = cat
        .morale
        .bands
        .iter()
        .map(|b| BandOdds {
            id: b.id.clone(),
            totals: b.range_label(),
            meaning: cat.morale_meaning(reason, &b.id),
            p: totals.p(|x| b.holds(x)),
        })
        .collect();
    Ok(TestAnswer {
        kind: "morale".into(),
        dice_built: format!(
            "{} for a {} unit ({}), {} {modifier:+}; reason: {}",
            dice.label(),
            g.id(),
            if dice.sides() == 5 {
                "each D5 is a D10 halved, rounded up (W-6)"
            } else {
                "raw and militia throw 2D6 (W-6)"
            },
            "modifier",
            reason.label()
        ),
        terms: t.list,
        modifier,
        totals: totals.rows(),
        bands,
        rulings: vec!["W-3", "W-6", "W-7", "W-9", "W-10"],
        notes,
    })
}

fn uncontrolled(
    cat: &Catalogue,
    req: &TestRequest,
    g: Grade,
    ty: Option<TroopType>,
) -> Result<TestAnswer, OddsError> {
    let mut t = Terms {
        cat,
        table: "uncontrolled",
        list: Vec::new(),
    };
    t.add(
        "per_10pct_dead",
        cat.uncontrolled_mod("per_10pct_dead") * count(steps(req, true)?),
    );
    match g {
        Grade::Elite => t.add("elite", cat.grade(g).uncontrolled),
        Grade::Raw => t.add("raw", cat.grade(g).uncontrolled),
        Grade::Militia => t.add("militia", cat.grade(g).uncontrolled),
        Grade::Trained => {}
    }
    if req.disordered {
        t.add("disordered", cat.uncontrolled_mod("disordered"));
    }
    if ty == Some(TroopType::Cavalry) {
        t.add("cavalry", cat.uncontrolled_mod("cavalry"));
    }
    let modifier = t.sum();
    let totals = Dist::die(10).shift(modifier);
    let bands = cat
        .uncontrolled
        .bands
        .iter()
        .map(|b| BandOdds {
            id: b.id.clone(),
            totals: b.range_label(),
            meaning: b.meaning.clone().unwrap_or_default(),
            p: totals.p(|x| b.holds(x)),
        })
        .collect();
    Ok(TestAnswer {
        kind: "uncontrolled".into(),
        dice_built: format!("One D10 {modifier:+} for an uncontrolled unit"),
        terms: t.list,
        modifier,
        totals: totals.rows(),
        bands,
        rulings: vec!["W-3", "W-5"],
        notes: vec![
            "Routers, pursuers, evaders and cavalry counter-charging always move fully.".into(),
        ],
    })
}

fn brigadier(cat: &Catalogue, req: &TestRequest) -> Result<TestAnswer, OddsError> {
    let ability = req.ability.ok_or_else(|| {
        OddsError::field(
            "ability",
            "Give the brigadier's ability rating, 1–10 (W-4).",
        )
    })?;
    if !(cat.command.ability_min..=cat.command.ability_max).contains(&ability) {
        return Err(OddsError::field(
            "ability",
            "An ability rating is a whole number from 1 to 10 (W-4).",
        ));
    }
    let totals = Dist::die(cat.brigadier.die);
    let a = i32::try_from(ability).unwrap_or(10);
    Ok(TestAnswer {
        kind: "brigadier".into(),
        dice_built: format!("One D10 against ability {ability}: at or under it passes (W-4)"),
        terms: Vec::new(),
        modifier: 0,
        bands: vec![
            BandOdds {
                id: "pass".into(),
                totals: format!("{ability} or less"),
                meaning: "His influenced units move fully.".into(),
                p: totals.p(|x| x <= a),
            },
            BandOdds {
                id: "fail".into(),
                totals: format!("{}+", ability + 1),
                meaning: "His influenced units move half speed at most and may not charge; cavalry may still counter-charge.".into(),
                p: totals.p(|x| x > a),
            },
        ],
        totals: totals.rows(),
        rulings: vec!["W-4", "W-5"],
        notes: Vec::new(),
    })
}

fn entering(cat: &Catalogue, req: &TestRequest, g: Grade) -> Result<TestAnswer, OddsError> {
    let mut t = Terms {
        cat,
        table: "entering",
        list: Vec::new(),
    };
    if req.led_by_general {
        t.add("led_by_general", cat.entering_mod("led_by_general"));
    }
    match g {
        Grade::Elite => t.add("elite", cat.grade(g).entering),
        Grade::Raw => t.add("raw", cat.grade(g).entering),
        Grade::Militia => t.add("militia", cat.grade(g).entering),
        Grade::Trained => {}
    }
    let flags: [(&str, bool); 9] = [
        ("defending_obstacle", req.defending_obstacle),
        ("charging_flank_rear", req.charging_flank_rear),
        (
            "charging_unsupported_gunners",
            req.charging_unsupported_gunners,
        ),
        ("charging_defended_obstacle", req.charging_defended_obstacle),
        ("disordered", req.disordered),
        ("in_column", req.in_column),
        ("cavalry_v_ordered_infantry", req.cavalry_v_ordered_infantry),
        ("charged_flank_rear", req.charged_in_flank_or_rear),
        ("unsupported_gunners", req.unsupported_gunners),
    ];
    for (id, on) in flags {
        if on {
            t.add(id, cat.entering_mod(id));
        }
    }
    t.add(
        "per_figure_killed_by_fire",
        cat.entering_mod("per_figure_killed_by_fire") * count(req.figures_killed_by_fire),
    );
    t.add(
        "per_20pct_dead",
        cat.entering_mod("per_20pct_dead") * count(steps(req, false)?),
    );
    let modifier = t.sum();
    let totals = Dist::die(6).shift(modifier);
    let pass_above = cat.entering.pass_above;
    let fail_words = if req.charging {
        "Halts disordered: it charged without making contact (W-28)."
    } else {
        "Breaks and makes an initial rout move; the chargers do not contact it (W-28)."
    };
    Ok(TestAnswer {
        kind: "entering".into(),
        dice_built: format!("One D6 {modifier:+}; above {pass_above} goes in"),
        bands: vec![
            BandOdds {
                id: "goes_in".into(),
                totals: format!("{}+", pass_above + 1),
                meaning: if req.charging {
                    "The charge goes in.".into()
                } else {
                    "It stands and fights.".into()
                },
                p: totals.p(|x| x > pass_above),
            },
            BandOdds {
                id: "fails".into(),
                totals: format!("{pass_above} or less"),
                meaning: fail_words.into(),
                p: totals.p(|x| x <= pass_above),
            },
        ],
        terms: t.list,
        modifier,
        totals: totals.rows(),
        rulings: vec!["W-3", "W-28", "W-37", "W-38"],
        notes: Vec::new(),
    })
}

fn losers(
    cat: &Catalogue,
    req: &TestRequest,
    g: Grade,
    ty: Option<TroopType>,
) -> Result<TestAnswer, OddsError> {
    let ty = ty.unwrap_or(TroopType::Infantry);
    let suffered = req.casualties_suffered.unwrap_or(1);
    let inflicted = req.casualties_inflicted.unwrap_or(0);
    if suffered <= inflicted {
        return Err(OddsError::field(
            "casualties_suffered",
            "Only a loser tests: it suffered more casualties than it inflicted.",
        ));
    }
    let auto = if ty == TroopType::Artillery {
        Some("A beaten gun breaks automatically and is lost (W-17).")
    } else if ty == TroopType::Infantry && req.lost_to_charging_cavalry {
        Some("Infantry beaten by charging cavalry break automatically.")
    } else if req.could_not_fight_back {
        Some("A unit hit by an enemy it could not fight back against breaks automatically (W-22).")
    } else {
        None
    };
    let mut t = Terms {
        cat,
        table: "losers",
        list: Vec::new(),
    };
    t.add(
        "per_casualty_difference",
        cat.losers_mod("per_casualty_difference") * count(suffered - inflicted),
    );
    match g {
        Grade::Elite => t.add("elite", cat.grade(g).losers),
        Grade::Raw => t.add("raw", cat.grade(g).losers),
        Grade::Militia => t.add("militia", cat.grade(g).losers),
        Grade::Trained => {}
    }
    if req.charged_this_move {
        match ty {
            TroopType::Infantry | TroopType::Skirmishers => {
                t.add("infantry_charged", cat.losers_mod("infantry_charged"))
            }
            TroopType::Cavalry => t.add("cavalry_charged", cat.losers_mod("cavalry_charged")),
            TroopType::Artillery => {}
        }
    }
    let modifier = t.sum();
    let totals = Dist::die(10).shift(modifier);
    let break_at = cat.losers.break_at;
    let back = match ty {
        TroopType::Cavalry => cat.losers.fall_back.cavalry,
        TroopType::Skirmishers => cat.losers.fall_back.skirmishers,
        _ => cat.losers.fall_back.infantry,
    };
    let (p_break, p_back) = match auto {
        Some(_) => (1.0, 0.0),
        None => (totals.p(|x| x >= break_at), totals.p(|x| x < break_at)),
    };
    Ok(TestAnswer {
        kind: "losers".into(),
        dice_built: match auto {
            Some(why) => format!("No dice: {why}"),
            None => format!("One D10 {modifier:+}; {break_at} or more breaks"),
        },
        bands: vec![
            BandOdds {
                id: "breaks".into(),
                totals: format!("{break_at}+"),
                meaning: "Breaks and routs.".into(),
                p: p_break,
            },
            BandOdds {
                id: "falls_back".into(),
                totals: format!("{} or less", break_at - 1),
                meaning: format!("Falls back {back}\" disordered."),
                p: p_back,
            },
        ],
        terms: t.list,
        modifier,
        totals: totals.rows(),
        rulings: vec!["W-17", "W-22", "W-23"],
        notes: auto.map(|s| vec![s.to_string()]).unwrap_or_default(),
    })
}

fn general(req: &TestRequest) -> Result<TestAnswer, OddsError> {
    let c = req.casualties.ok_or_else(|| {
        OddsError::field(
            "casualties",
            "Give the casualties his unit suffered in this firing or melee phase.",
        )
    })?;
    let totals = Dist::die(10);
    let c = count(c);
    Ok(TestAnswer {
        kind: "general".into(),
        dice_built: format!(
            "One D10: at or under the {c} casualties his unit suffered kills him (W-29)"
        ),
        terms: Vec::new(),
        modifier: 0,
        bands: vec![
            BandOdds {
                id: "killed".into(),
                totals: format!("{c} or less"),
                meaning: "The general is killed; no replacement in this battle.".into(),
                p: totals.p(|x| x <= c),
            },
            BandOdds {
                id: "survives".into(),
                totals: format!("{}+", c + 1),
                meaning: "The general survives.".into(),
                p: totals.p(|x| x > c),
            },
        ],
        totals: totals.rows(),
        rulings: vec!["W-29"],
        notes: Vec::new(),
    })
}
