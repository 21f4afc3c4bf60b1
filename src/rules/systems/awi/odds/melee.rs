//! Melee odds (spec 4.6, `POST /api/v1/awi/odds/melee`): both sides' scores needed and terms, the
//! casualties each way, who wins, the loser's automatic break, break-and-rout or fall-back, the
//! generals' risk, and optionally the entering-melee tests before contact (4.5).

use serde::{Deserialize, Serialize};

use super::super::catalogue::Catalogue;
use super::super::types::{Grade, TroopType};
use super::dist::{general_killed, hit_chance, hit_fraction, Dist, Row};
use super::firing::{grade, trained, troop};
use super::{OddsError, Term};

/// One side of a melee, with the flags of its entering test.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeSide {
    #[serde(rename = "type")]
    pub troop_type: String,
    #[serde(default = "trained")]
    pub grade: String,
    /// Elements fighting: bases facing the enemy in contact plus one overlap each side (W-22).
    pub elements: u32,
    /// Charged (or counter-charged) this move.
    #[serde(default)]
    pub charged: bool,
    #[serde(default)]
    pub led_by_general: bool,
    #[serde(default)]
    pub disordered: bool,
    #[serde(default)]
    pub rifle: bool,
    #[serde(default)]
    pub opponents_behind_obstacle: bool,
    #[serde(default)]
    pub opponents_in_strong_house: bool,
    /// Close order fighting skirmishers (also when the other side's type is skirmishers).
    #[serde(default)]
    pub fighting_skirmishers: bool,
    /// Fighting unsupported gunners (also when the other side is an unsupported gun).
    #[serde(default)]
    pub fighting_unsupported_gunners: bool,
    /// Struck in flank or rear: it has no elements and cannot fight back (W-22).
    #[serde(default)]
    pub struck_in_flank_or_rear: bool,
    /// A gun in base contact with close-order infantry (W-17).
    #[serde(default)]
    pub supported_gun: bool,
    /// In column: disordered in melee, and −2 to enter.
    #[serde(default)]
    pub in_column: bool,
    // Entering-test flags (4.5).
    #[serde(default)]
    pub defending_obstacle: bool,
    #[serde(default)]
    pub charging_flank_rear: bool,
    #[serde(default)]
    pub charging_defended_obstacle: bool,
    /// Figures it lost to fire this move (W-37).
    #[serde(default)]
    pub figures_killed_by_fire: u32,
    /// Its 20 % steps of dead in bases (W-3).
    #[serde(default)]
    pub dead_20pct_steps: u32,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRequest {
    pub a: MeleeSide,
    pub b: MeleeSide,
    #[serde(default)]
    pub include_entering_tests: bool,
}

/// One side's entering test.
#[derive(Debug, Clone, Serialize)]
pub struct Entering {
    /// `charger` or `receiver`.
    pub role: &'static str,
    pub terms: Vec<Term>,
    pub modifier: i32,
    /// The modified D6 (the test passes above 0).
    pub totals: Vec<Row>,
    pub p_pass: f64,
}

/// What one side's melee looks like.
#[derive(Debug, Clone, Serialize)]
pub struct SideAnswer {
    pub elements: u32,
    pub base_need: i32,
    pub terms: Vec<Term>,
    pub need: i32,
    pub p_hit: f64,
    pub p_hit_fraction: String,
    /// Casualties this side suffers (the other side's hits).
    pub casualties_suffered: Vec<Row>,
    /// Given it loses: chance of each end.
    pub p_lose: f64,
    pub p_lose_breaks_automatically: f64,
    pub p_lose_breaks_on_test: f64,
    pub p_lose_falls_back: f64,
    /// Why it would break automatically, if it would.
    pub automatic_break: Option<String>,
    pub p_general_killed: Option<f64>,
    pub entering: Option<Entering>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MeleeAnswer {
    pub kind: &'static str,
    pub dice_built: String,
    pub a: SideAnswer,
    pub b: SideAnswer,
    /// Given the melee is fought.
    pub p_a_wins: f64,
    pub p_draw: f64,
    pub p_b_wins: f64,
    /// With the entering tests: the chance the melee is fought at all, and the other ends.
    pub p_contact: Option<f64>,
    pub before_contact: Vec<Outcome>,
    /// The whole picture (entering tests × melee) when asked; else the melee alone.
    pub overall: Vec<Outcome>,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub id: String,
    pub words: String,
    pub p: f64,
}

struct Side<'a> {
    r: &'a MeleeSide,
    t: TroopType,
    g: Grade,
}

impl Side<'_> {
    fn foot(&self) -> bool {
        matches!(self.t, TroopType::Infantry | TroopType::Skirmishers)
    }
    fn unsupported_gun(&self) -> bool {
        self.t == TroopType::Artillery && !self.r.supported_gun
    }
    fn elements(&self) -> u32 {
        if self.r.struck_in_flank_or_rear {
            0
        } else {
            self.r.elements
        }
    }
}

fn melee_terms(cat: &Catalogue, me: &Side, them: &Side) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut term = |id: &str, value: i32| {
        terms.push(Term {
            id: id.to_string(),
            label: cat.modifier_label("melee", id),
            value,
        })
    };
    match me.g {
        Grade::Elite => term("elite", cat.melee_mod("elite")),
        Grade::Militia => term("militia", cat.melee_mod("militia")),
        _ => {}
    }
    // No charging bonus against an enemy defending an obstacle (a house counts as one).
    let obstacle = me.r.opponents_behind_obstacle || me.r.opponents_in_strong_house;
    if me.r.charged && !obstacle {
        if me.foot() {
            term("infantry_charging", cat.melee_mod("infantry_charging"));
        } else if me.t == TroopType::Cavalry {
            term("cavalry_charging", cat.melee_mod("cavalry_charging"));
        }
    }
    if me.r.led_by_general {
        term("led_by_general", cat.melee_mod("led_by_general"));
    }
    if me.t.close_order() && (me.r.fighting_skirmishers || them.t == TroopType::Skirmishers) {
        term(
            "close_order_v_skirmishers",
            cat.melee_mod("close_order_v_skirmishers"),
        );
    }
    if me.r.fighting_unsupported_gunners || them.unsupported_gun() {
        term(
            "v_unsupported_gunners",
            cat.melee_mod("v_unsupported_gunners"),
        );
    }
    if me.r.rifle {
        term("rifle", cat.melee_mod("rifle"));
    }
    if me.r.disordered || me.r.in_column {
        term("disordered", cat.melee_mod("disordered"));
    }
    if me.r.opponents_in_strong_house && me.foot() {
        term(
            "infantry_v_strong_house",
            cat.melee_mod("infantry_v_strong_house"),
        );
    } else if me.r.opponents_behind_obstacle {
        if me.foot() {
            term("infantry_v_obstacle", cat.melee_mod("infantry_v_obstacle"));
        } else if me.t == TroopType::Cavalry {
            term("cavalry_v_obstacle", cat.melee_mod("cavalry_v_obstacle"));
        }
    }
    terms
}

/// The entering test's terms for `me` (4.5), facing `them`.
fn entering_terms(cat: &Catalogue, me: &Side, them: &Side) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut term = |id: &str, value: i32| {
        if value != 0 {
            terms.push(Term {
                id: id.to_string(),
                label: cat.modifier_label("entering", id),
                value,
            })
        }
    };
    let per = |id: &str, n: u32| cat.entering_mod(id) * i32::try_from(n).unwrap_or(0);
    if me.r.led_by_general {
        term("led_by_general", cat.entering_mod("led_by_general"));
    }
    match me.g {
        Grade::Elite => term("elite", cat.grade(me.g).entering),
        Grade::Raw => term("raw", cat.grade(me.g).entering),
        Grade::Militia => term("militia", cat.grade(me.g).entering),
        Grade::Trained => {}
    }
    let charger = me.r.charged;
    if me.r.defending_obstacle || (!charger && them.r.opponents_behind_obstacle) {
        term("defending_obstacle", cat.entering_mod("defending_obstacle"));
    }
    if charger && (me.r.charging_flank_rear || them.r.struck_in_flank_or_rear) {
        term(
            "charging_flank_rear",
            cat.entering_mod("charging_flank_rear"),
        );
    }
    if charger && them.unsupported_gun() {
        term(
            "charging_unsupported_gunners",
            cat.entering_mod("charging_unsupported_gunners"),
        );
    }
    if charger && (me.r.charging_defended_obstacle || me.r.opponents_behind_obstacle) {
        term(
            "charging_defended_obstacle",
            cat.entering_mod("charging_defended_obstacle"),
        );
    }
    term(
        "per_figure_killed_by_fire",
        per("per_figure_killed_by_fire", me.r.figures_killed_by_fire),
    );
    term(
        "per_20pct_dead",
        per("per_20pct_dead", me.r.dead_20pct_steps),
    );
    if me.r.disordered {
        term("disordered", cat.entering_mod("disordered"));
    }
    if me.r.in_column {
        term("in_column", cat.entering_mod("in_column"));
    }
    if charger && me.t == TroopType::Cavalry && them.t == TroopType::Infantry && !them.r.disordered
    {
        term(
            "cavalry_v_ordered_infantry",
            cat.entering_mod("cavalry_v_ordered_infantry"),
        );
    }
    if !charger && me.r.struck_in_flank_or_rear {
        term("charged_flank_rear", cat.entering_mod("charged_flank_rear"));
    }
    if me.unsupported_gun() {
        term(
            "unsupported_gunners",
            cat.entering_mod("unsupported_gunners"),
        );
    }
    terms
}

fn entering(cat: &Catalogue, me: &Side, them: &Side) -> Entering {
    let terms = entering_terms(cat, me, them);
    let modifier: i32 = terms.iter().map(|t| t.value).sum();
    let totals = Dist::die(6).shift(modifier);
    let pass_above = cat.entering.pass_above;
    Entering {
        role: if me.r.charged { "charger" } else { "receiver" },
        p_pass: totals.p(|t| t > pass_above),
        totals: totals.rows(),
        modifier,
        terms,
    }
}

/// Why a loser breaks without a test (4.6), if it does.
fn automatic_break(me: &Side, them: &Side) -> Option<String> {
    if me.t == TroopType::Artillery {
        return Some("A beaten gun breaks automatically and is lost (W-17).".into());
    }
    if me.t == TroopType::Infantry && them.t == TroopType::Cavalry && them.r.charged {
        return Some("Infantry beaten by charging cavalry break automatically.".into());
    }
    if me.elements() == 0 {
        return Some(
            "A unit hit by an enemy it could not fight back against breaks automatically (W-22)."
                .into(),
        );
    }
    None
}

/// The losers test's modifier besides the difference (4.6, W-23).
fn losers_modifier(cat: &Catalogue, me: &Side) -> i32 {
    let mut m = cat.grade(me.g).losers;
    if me.r.charged {
        if me.foot() {
            m += cat.losers_mod("infantry_charged");
        } else if me.t == TroopType::Cavalry {
            m += cat.losers_mod("cavalry_charged");
        }
    }
    m
}

fn side<'a>(field: &str, r: &'a MeleeSide) -> Result<Side<'a>, OddsError> {
    let t = troop(&format!("{field}.type"), &r.troop_type)?;
    let g = grade(&format!("{field}.grade"), &r.grade)?;
    if r.elements > 100 {
        return Err(OddsError::field(
            &format!("{field}.elements"),
            "At most 100 elements fight in one melee.",
        ));
    }
    Ok(Side { r, t, g })
}

/// The exact odds of one round of melee.
pub fn melee(cat: &Catalogue, req: &MeleeRequest) -> Result<MeleeAnswer, OddsError> {
    let a = side("a", &req.a)?;
    let b = side("b", &req.b)?;
    let mut rulings = vec!["W-2", "W-19", "W-22", "W-23"];
    let mut notes = Vec::new();
    let need = |me: &Side, them: &Side| {
        let terms = melee_terms(cat, me, them);
        let need = cat.hit.base_need + terms.iter().map(|t| t.value).sum::<i32>();
        (terms, need)
    };
    let (a_terms, a_need) = need(&a, &b);
    let (b_terms, b_need) = need(&b, &a);
    // Casualties each side suffers come from the other side's dice.
    let a_suffers = Dist::binomial(b.elements(), hit_chance(b_need));
    let b_suffers = Dist::binomial(a.elements(), hit_chance(a_need));
    for (s, who) in [(&a, "a"), (&b, "b")] {
        if s.r.struck_in_flank_or_rear {
            notes.push(format!("Side {who} is struck in flank or rear: it has no elements, cannot fight back and breaks if it suffers any casualty (W-22)."));
        }
    }
    let a_auto = automatic_break(&a, &b);
    let b_auto = automatic_break(&b, &a);
    let a_mod = losers_modifier(cat, &a);
    let b_mod = losers_modifier(cat, &b);
    let break_at = cat.losers.break_at;
    // Chance a D10 + m ≥ break_at.
    let breaks = |m: i32| Dist::die(10).shift(m).p(|t| t >= break_at);
    let (mut pa, mut pd, mut pb) = (0.0, 0.0, 0.0);
    let (mut a_auto_p, mut a_test_p, mut a_back_p) = (0.0, 0.0, 0.0);
    let (mut b_auto_p, mut b_test_p, mut b_back_p) = (0.0, 0.0, 0.0);
    for &(ca, qa) in &a_suffers.0 {
        for &(cb, qb) in &b_suffers.0 {
            let q = qa * qb;
            if ca > cb {
                pb += q;
                if a_auto.is_some() {
                    a_auto_p += q;
                } else {
                    let x = breaks(a_mod + ca - cb);
                    a_test_p += q * x;
                    a_back_p += q * (1.0 - x);
                }
            } else if cb > ca {
                pa += q;
                if b_auto.is_some() {
                    b_auto_p += q;
                } else {
                    let x = breaks(b_mod + cb - ca);
                    b_test_p += q * x;
                    b_back_p += q * (1.0 - x);
                }
            } else {
                pd += q;
            }
        }
    }
    let general = |s: &Side, suffers: &Dist| s.r.led_by_general.then(|| general_killed(suffers));
    if req.a.led_by_general || req.b.led_by_general {
        rulings.push("W-29");
    }
    let mut a_ans = SideAnswer {
        elements: a.elements(),
        base_need: cat.hit.base_need,
        p_hit: hit_chance(a_need),
        p_hit_fraction: hit_fraction(a_need),
        terms: a_terms,
        need: a_need,
        casualties_suffered: a_suffers.rows(),
        p_lose: pb,
        p_lose_breaks_automatically: a_auto_p,
        p_lose_breaks_on_test: a_test_p,
        p_lose_falls_back: a_back_p,
        automatic_break: a_auto,
        p_general_killed: general(&a, &a_suffers),
        entering: None,
    };
    let mut b_ans = SideAnswer {
        elements: b.elements(),
        base_need: cat.hit.base_need,
        p_hit: hit_chance(b_need),
        p_hit_fraction: hit_fraction(b_need),
        terms: b_terms,
        need: b_need,
        casualties_suffered: b_suffers.rows(),
        p_lose: pa,
        p_lose_breaks_automatically: b_auto_p,
        p_lose_breaks_on_test: b_test_p,
        p_lose_falls_back: b_back_p,
        automatic_break: b_auto,
        p_general_killed: general(&b, &b_suffers),
        entering: None,
    };
    let melee_outcomes = |scale: f64| {
        vec![
            Outcome {
                id: "a_wins".into(),
                words: "Side a wins the melee.".into(),
                p: scale * pa,
            },
            Outcome {
                id: "draw".into(),
                words: "The melee is drawn (W-25).".into(),
                p: scale * pd,
            },
            Outcome {
                id: "b_wins".into(),
                words: "Side b wins the melee.".into(),
                p: scale * pb,
            },
        ]
    };
    let mut before = Vec::new();
    let mut p_contact = None;
    let mut overall = melee_outcomes(1.0);
    if req.include_entering_tests {
        rulings.extend(["W-28", "W-37", "W-38"]);
        let ea = entering(cat, &a, &b);
        let eb = entering(cat, &b, &a);
        let (pa_pass, pb_pass) = (ea.p_pass, eb.p_pass);
        let contact = match (a.r.charged, b.r.charged) {
            (true, true) => {
                // Charge and counter-charge: both test; one that fails halts disordered and
                // there is no contact this move (W-43).
                before.push(Outcome {
                    id: "a_halts".into(),
                    words: "Side a fails its test and halts disordered; no melee.".into(),
                    p: 1.0 - pa_pass,
                });
                before.push(Outcome {
                    id: "b_halts".into(),
                    words:
                        "Side a goes in but side b fails its test and halts disordered; no melee."
                            .into(),
                    p: pa_pass * (1.0 - pb_pass),
                });
                a_ans.entering = Some(ea);
                b_ans.entering = Some(eb);
                Some(pa_pass * pb_pass)
            }
            (true, false) | (false, true) => {
                let (ch, rc, ce, re, cn, rn) = if a.r.charged {
                    (pa_pass, pb_pass, ea, eb, "a", "b")
                } else {
                    (pb_pass, pa_pass, eb, ea, "b", "a")
                };
                before.push(Outcome {
                    id: format!("{cn}_halts"),
                    words: format!(
                        "Side {cn} fails its test and halts disordered, without contact."
                    ),
                    p: 1.0 - ch,
                });
                before.push(Outcome {
                    id: format!("{rn}_breaks"),
                    words: format!("Side {cn} goes in; side {rn} fails its test, breaks and makes an initial rout move (W-28)."),
                    p: ch * (1.0 - rc),
                });
                if a.r.charged {
                    a_ans.entering = Some(ce);
                    b_ans.entering = Some(re);
                } else {
                    b_ans.entering = Some(ce);
                    a_ans.entering = Some(re);
                }
                Some(ch * rc)
            }
            (false, false) => {
                notes.push("Neither side charged: no entering tests are taken.".into());
                None
            }
        };
        if let Some(c) = contact {
            p_contact = Some(c);
            overall = before.clone();
            overall.extend(melee_outcomes(c));
        }
    }
    Ok(MeleeAnswer {
        kind: "melee",
        dice_built: format!(
            "Side a throws {} D10 (one per element), side b {} D10; both at once, each hit one casualty (W-22, W-2).",
            a_ans.elements, b_ans.elements
        ),
        a: a_ans,
        b: b_ans,
        p_a_wins: pa,
        p_draw: pd,
        p_b_wins: pb,
        p_contact,
        before_contact: before,
        overall,
        rulings,
        notes,
    })
}
