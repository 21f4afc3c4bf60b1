//! Exact odds for *One if by Land* (spec 4.7): fire, morale tests, melee, the whole charge chain
//! and the Risk to Generals. Every answer is an enumeration over the d10s (0–9, B-1), never a
//! sample: probabilities are sums of products of tenths, exact to floating point (1e-12). Each
//! answer lists the modifiers it applied, how the dice were built and the rulings it used.
//!
//! One entry point per kind for the web layer: [`answer`] takes the kind (`fire`, `morale`,
//! `melee`, `charge`, `general`) and the request body and answers the response JSON.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::catalogue::Catalogue;
use super::types::{Cover, Formation, GunClass, MoraleResult, Quality};

/// Why a request cannot be answered, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OddsError(pub String);

fn err(text: impl Into<String>) -> OddsError {
    OddsError(text.into())
}

/// The kinds of odds Muster answers.
pub const KINDS: [&str; 5] = ["fire", "morale", "melee", "charge", "general"];

/// Answers one odds request of `kind` with `body`.
pub fn answer(cat: &Catalogue, kind: &str, body: &Value) -> Result<Value, OddsError> {
    fn read<T: for<'de> Deserialize<'de>>(body: &Value) -> Result<T, OddsError> {
        serde_json::from_value(body.clone())
            .map_err(|e| err(format!("The request cannot be read: {e}")))
    }
    let out = match kind {
        "fire" => serde_json::to_value(fire(cat, &read(body)?)?),
        "morale" => serde_json::to_value(morale(cat, &read(body)?)?),
        "melee" => serde_json::to_value(melee(cat, &read(body)?)?),
        "charge" => serde_json::to_value(charge(cat, &read(body)?)?),
        "general" => serde_json::to_value(general(&read(body)?)?),
        other => {
            return Err(err(format!(
                "'{other}' is not a kind of odds; ask for {}.",
                KINDS.join(", ")
            )))
        }
    };
    out.map_err(|e| err(e.to_string()))
}

/// A modifier as applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Applied {
    pub id: String,
    pub value: i32,
    pub words: String,
}

/// One value of a distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    pub value: u32,
    pub p: f64,
}

/// A distribution over 0..n and its "at least" view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    pub distribution: Vec<Point>,
    pub at_least: Vec<Point>,
    pub mean: f64,
}

impl Distribution {
    fn from(p: &[f64]) -> Distribution {
        let distribution: Vec<Point> = p
            .iter()
            .enumerate()
            .map(|(v, &p)| Point { value: v as u32, p })
            .collect();
        let mut at_least = Vec::with_capacity(p.len());
        let mut tail = 0.0;
        for (v, &q) in p.iter().enumerate().rev() {
            tail += q;
            at_least.push(Point {
                value: v as u32,
                p: tail.min(1.0),
            });
        }
        at_least.reverse();
        let mean = p.iter().enumerate().map(|(v, q)| v as f64 * q).sum();
        Distribution {
            distribution,
            at_least,
            mean,
        }
    }
}

/// Figures removed by `figures` rolling with `modifier`, capped at `cap`: one d10 per chunk
/// of 30 (B-2), every face 1/10. Index = figures removed.
pub fn casualties(cat: &Catalogue, figures: u32, modifier: i32, cap: u32) -> Vec<f64> {
    let mut dist = vec![1.0];
    for chunk in cat.combat_table.chunks(figures) {
        let mut one = vec![0.0; 7];
        for face in 0..10 {
            let hit = cat.combat_table.cell(chunk, face + modifier) as usize;
            if hit >= one.len() {
                one.resize(hit + 1, 0.0);
            }
            one[hit] += 0.1;
        }
        let mut next = vec![0.0; dist.len() + one.len() - 1];
        for (a, pa) in dist.iter().enumerate() {
            if *pa == 0.0 {
                continue;
            }
            for (b, pb) in one.iter().enumerate() {
                next[a + b] += pa * pb;
            }
        }
        dist = next;
    }
    // Cap at the figures the target has.
    let cap = cap as usize;
    if dist.len() > cap + 1 {
        let over: f64 = dist[cap + 1..].iter().sum();
        dist.truncate(cap + 1);
        dist[cap] += over;
    }
    while dist.len() > 1 && dist.last() == Some(&0.0) {
        dist.pop();
    }
    dist
}

// ---------------------------------------------------------------- fire

/// How many of the firing figures fire (B-45).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Half {
    #[default]
    None,
    Up,
    Down,
}

/// What the target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetType {
    #[default]
    Infantry,
    Cavalry,
    Artillery,
    Indian,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTarget {
    pub figures: u32,
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub mounted: bool,
    #[serde(default)]
    pub cover: Cover,
    #[serde(default, rename = "type")]
    pub kind: TargetType,
}

/// `POST /api/v1/oibl/odds/fire`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireRequest {
    /// Small-arms figures firing (before halving).
    #[serde(default)]
    pub firing_figures: Option<u32>,
    /// A gun firing instead: light, medium or heavy.
    #[serde(default)]
    pub gun: Option<GunClass>,
    #[serde(default = "regular")]
    pub firer_quality: Quality,
    #[serde(default)]
    pub marksmen: bool,
    #[serde(default)]
    pub range_inches: Option<f64>,
    /// Left out: read from `range_inches` (2" or less).
    #[serde(default)]
    pub point_blank: Option<bool>,
    #[serde(default)]
    pub flank_or_rear: bool,
    pub target: FireTarget,
    #[serde(default)]
    pub half: Half,
}

fn regular() -> Quality {
    Quality::Regular
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FireAnswer {
    pub kind: &'static str,
    pub figures_firing: u32,
    pub chunks: Vec<u32>,
    pub modifiers: Vec<Applied>,
    pub total_modifier: i32,
    #[serde(flatten)]
    pub casualties: Distribution,
    pub p_at_least_one: f64,
    /// Against artillery: the chance the shot also destroys the gun (B-6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_gun_destroyed: Option<f64>,
    pub dice: String,
    pub notes: Vec<String>,
    pub rulings: Vec<&'static str>,
}

fn apply(cat: &Catalogue, list: &mut Vec<Applied>, id: &str, value: i32) {
    let words = cat
        .fire_modifiers
        .iter()
        .chain(&cat.melee_modifiers)
        .chain(&cat.morale_modifiers)
        .find(|m| m.id == id)
        .map(|m| m.words.clone())
        .unwrap_or_else(|| id.replace('_', " "));
    list.push(Applied {
        id: id.to_string(),
        value,
        words,
    });
}

/// The fire modifiers of a request (B-4, B-5).
fn fire_modifiers(
    cat: &Catalogue,
    r: &FireRequest,
    rulings: &mut Vec<&'static str>,
) -> Vec<Applied> {
    let mut m = Vec::new();
    let cannon = r.gun.is_some();
    let skirmish_target = r.target.formation.as_deref().and_then(Formation::from_id)
        == Some(Formation::Skirmish)
        || r.target.kind == TargetType::Indian;
    let point_blank = r
        .point_blank
        .unwrap_or_else(|| r.range_inches.is_some_and(|d| d <= cat.point_blank));
    if point_blank && !cannon {
        apply(cat, &mut m, "point_blank", cat.fire_mod("point_blank"));
    }
    if r.marksmen && !cannon {
        apply(cat, &mut m, "marksmen", cat.fire_mod("marksmen"));
    }
    let column =
        r.target.formation.as_deref().and_then(Formation::from_id) == Some(Formation::Column);
    if column || r.target.mounted {
        // Counted once, even for a mounted column (B-4).
        apply(
            cat,
            &mut m,
            "target_column_or_mounted",
            cat.fire_mod("target_column_or_mounted"),
        );
    }
    if r.flank_or_rear && !skirmish_target {
        apply(cat, &mut m, "flank_or_rear", cat.fire_mod("flank_or_rear"));
        rulings.push("B-4");
    }
    match r.firer_quality {
        Quality::Poor => apply(cat, &mut m, "firer_poor", cat.fire_mod("firer_poor")),
        Quality::Wretched => apply(
            cat,
            &mut m,
            "firer_wretched",
            cat.fire_mod("firer_wretched"),
        ),
        _ => {}
    }
    match r.target.cover {
        Cover::Light => apply(
            cat,
            &mut m,
            "target_light_cover",
            cat.fire_mod("target_light_cover"),
        ),
        Cover::Heavy => apply(
            cat,
            &mut m,
            "target_heavy_cover",
            cat.fire_mod("target_heavy_cover"),
        ),
        Cover::None => {}
    }
    if cannon {
        if let Some(band) = r.range_inches.and_then(|d| cat.cannon_band(d)) {
            apply(cat, &mut m, band, cat.fire_mod(band));
        }
        rulings.push("B-5");
    }
    m
}

fn halve(figures: u32, half: Half) -> u32 {
    match half {
        Half::None => figures,
        Half::Up => figures.div_ceil(2),
        Half::Down => figures / 2,
    }
}

/// The casualties one unit's (or one gun's) shot removes.
pub fn fire(cat: &Catalogue, r: &FireRequest) -> Result<FireAnswer, OddsError> {
    let mut rulings = vec!["B-1", "B-2", "B-4"];
    let mut notes = Vec::new();
    let base = match (r.firing_figures, r.gun) {
        (Some(_), Some(_)) => {
            return Err(err("Give firing_figures for small arms or gun for a cannon, not both (B-3: cannon never combine)."))
        }
        (Some(f), None) => f,
        (None, Some(g)) => {
            rulings.push("B-7");
            cat.gun(g).figures
        }
        (None, None) => return Err(err("Give firing_figures or gun.")),
    };
    if base > 600 {
        return Err(err("No unit fires with more than 600 figures."));
    }
    if let Some(d) = r.range_inches {
        if !(0.0..=1000.0).contains(&d) {
            return Err(err("range_inches must be from 0 to 1000."));
        }
        if r.gun.is_some() && d > cat.cannon_bands.long_to {
            return Err(err(format!("Cannon reach {}\".", cat.cannon_bands.long_to)));
        }
    }
    if r.target.figures > 600 {
        return Err(err("No target has more than 600 figures."));
    }
    let figures = halve(base, r.half);
    if r.half != Half::None {
        rulings.push("B-45");
        notes.push(format!(
            "Half of {base} figures, rounded {}: {figures}.",
            if r.half == Half::Up { "up" } else { "down" }
        ));
    }
    let modifiers = fire_modifiers(cat, r, &mut rulings);
    let total: i32 = modifiers.iter().map(|m| m.value).sum();
    let chunks = cat.combat_table.chunks(figures);
    if figures < cat.destroyed_below {
        notes.push(
            "Fewer than 2 figures: the Combat Table starts at 2, so there is no roll (B-2).".into(),
        );
    }
    if chunks.len() > 1 {
        notes.push(format!(
            "{figures} figures roll in chunks of 30 and the remainder, each its own d10 (B-2)."
        ));
    }
    let dist = casualties(cat, figures, total, r.target.figures);
    let p1: f64 = dist.iter().skip(1).sum();
    let p_gun = (r.target.kind == TargetType::Artillery).then(|| {
        rulings.push("B-6");
        let faces = cat.counter_battery.destroys_on.len() as f64;
        p1 * faces / 10.0
    });
    rulings.sort();
    rulings.dedup();
    Ok(FireAnswer {
        kind: "fire",
        figures_firing: figures,
        dice: format!(
            "{} d10 read 0–9, each {:+} and read on the Combat Table row of its chunk; a roll below 0 misses, above 12 reads 12; casualties capped at the target's {} figures.",
            chunks.len(),
            total,
            r.target.figures
        ),
        chunks,
        modifiers,
        total_modifier: total,
        casualties: Distribution::from(&dist),
        p_at_least_one: p1,
        p_gun_destroyed: p_gun,
        notes,
        rulings,
    })
}

// ---------------------------------------------------------------- morale

/// What a test is about (B-11: Indians test higher for charge and melee tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    #[default]
    General,
    Charge,
    Charged,
    Closing,
    PostMelee,
}

impl TestKind {
    fn about_melee(self) -> bool {
        !matches!(self, TestKind::General)
    }
}

/// Who routs in view (the two "friend routing" modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FriendRouting {
    #[default]
    None,
    Equal,
    Higher,
}

/// `POST /api/v1/oibl/odds/morale`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRequest {
    #[serde(default)]
    pub quality: Option<Quality>,
    #[serde(default)]
    pub morale_number: Option<i32>,
    #[serde(default)]
    pub indian: bool,
    #[serde(default)]
    pub in_woods: bool,
    #[serde(default)]
    pub test_kind: TestKind,
    /// X of the commander with the unit (B-8); left out, none is with it.
    #[serde(default)]
    pub commander_rating: Option<i32>,
    #[serde(default)]
    pub cover: Cover,
    #[serde(default)]
    pub outflanked: bool,
    #[serde(default)]
    pub friend_routing: FriendRouting,
    #[serde(default)]
    pub equal_friend_routing: bool,
    #[serde(default)]
    pub higher_friend_routing: bool,
    #[serde(default)]
    pub open_charged_by_cavalry: bool,
    #[serde(default)]
    pub skirmish_charged_by_cavalry: bool,
    #[serde(default)]
    pub skirmish_charged_by_infantry: bool,
    #[serde(default)]
    pub artillery_charged_by_cavalry: bool,
    /// Modifier ids from the morale table, as a list (the same as the booleans above).
    #[serde(default)]
    pub modifiers: Vec<String>,
    /// Any further modifier the table does not name (+ is bad).
    #[serde(default)]
    pub other_modifier: i32,
    #[serde(default)]
    pub start_figures: Option<u32>,
    #[serde(default)]
    pub figures: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoraleAnswer {
    pub kind: &'static str,
    pub morale_number: i32,
    /// After B-11's steps for Indians.
    pub effective_morale_number: i32,
    pub modifiers: Vec<Applied>,
    pub total_modifier: i32,
    pub p_pass: f64,
    pub p_failed_by_1: f64,
    pub p_failed_by_2: f64,
    /// The d10 faces that pass (empty when none does).
    pub pass_on: Vec<u32>,
    pub need: String,
    pub dice: String,
    pub rulings: Vec<&'static str>,
}

/// The chances of each result of one test: margin = d10 + modifier − number (B-10).
pub fn test_chances(number: i32, modifier: i32) -> [f64; 3] {
    let mut out = [0.0; 3];
    for face in 0..10 {
        let i = match MoraleResult::from_margin(face + modifier - number) {
            MoraleResult::Pass => 0,
            MoraleResult::FailedBy1 => 1,
            MoraleResult::FailedBy2 => 2,
        };
        out[i] += 0.1;
    }
    out
}

/// The number a test is taken against and its modifiers.
fn morale_setup(
    cat: &Catalogue,
    r: &MoraleRequest,
    rulings: &mut Vec<&'static str>,
) -> Result<(i32, i32, Vec<Applied>), OddsError> {
    let number = match (r.quality, r.morale_number) {
        (_, Some(n)) if !(0..=9).contains(&n) => {
            return Err(err("A Morale Number is from 0 to 9."));
        }
        (_, Some(n)) => n,
        (Some(q), None) => cat.morale_number(q),
        (None, None) => return Err(err("Give quality or morale_number.")),
    };
    let mut effective = number;
    if r.indian {
        // B-11: one step for charge and melee tests, one in woods, capped at Elite.
        let steps = i32::from(r.test_kind.about_melee()) + i32::from(r.in_woods);
        effective = (number + steps).min(cat.morale_number(Quality::Elite));
        if steps > 0 {
            rulings.push("B-11");
        }
    }
    let mut m = Vec::new();
    let mut ids: Vec<String> = r.modifiers.clone();
    for (on, id) in [
        (r.outflanked, "outflanked"),
        (
            r.equal_friend_routing || r.friend_routing == FriendRouting::Equal,
            "equal_friend_routing",
        ),
        (
            r.higher_friend_routing || r.friend_routing == FriendRouting::Higher,
            "higher_friend_routing",
        ),
        (r.open_charged_by_cavalry, "open_charged_by_cavalry"),
        (r.skirmish_charged_by_cavalry, "skirmish_charged_by_cavalry"),
        (
            r.skirmish_charged_by_infantry,
            "skirmish_charged_by_infantry",
        ),
        (
            r.artillery_charged_by_cavalry,
            "artillery_charged_by_cavalry",
        ),
    ] {
        if on {
            ids.push(id.to_string());
        }
    }
    match r.cover {
        Cover::Light => ids.push("light_cover".into()),
        Cover::Heavy => ids.push("heavy_cover".into()),
        Cover::None => {}
    }
    ids.sort();
    ids.dedup();
    // The friend routing modifiers: only the highest (spec 4.3).
    if ids.iter().any(|i| i == "higher_friend_routing") {
        ids.retain(|i| i != "equal_friend_routing");
    }
    for id in &ids {
        if id.starts_with("losses_") || id == "commander_with_unit" {
            continue; // from the figures and the rating
        }
        let Some(v) = cat.morale_modifier(id) else {
            return Err(err(format!("'{id}' is not a morale test modifier.")));
        };
        if id.contains("charged_by") && r.test_kind != TestKind::Charged {
            // Only the test taken on being charged (spec 4.3).
            continue;
        }
        apply(cat, &mut m, id, v);
    }
    if let Some(x) = r.commander_rating {
        if !(0..=3).contains(&x) {
            return Err(err("A commander's rating is 0 to 3 (B-8)."));
        }
        apply(cat, &mut m, "commander_with_unit", -x);
        rulings.push("B-8");
    }
    if let (Some(start), Some(now)) = (r.start_figures, r.figures) {
        if now > start {
            return Err(err("figures cannot exceed start_figures."));
        }
        if let Some((id, v)) = cat.loss_band(start, start - now) {
            let id = id.to_string();
            apply(cat, &mut m, &id, v);
        }
        rulings.push("B-9");
    }
    if r.other_modifier != 0 {
        if r.other_modifier.abs() > 20 {
            return Err(err("other_modifier must be from -20 to 20."));
        }
        m.push(Applied {
            id: "other".into(),
            value: r.other_modifier,
            words: "further modifier".into(),
        });
    }
    let total = m.iter().map(|a| a.value).sum();
    Ok((effective, total, m))
}

pub fn morale(cat: &Catalogue, r: &MoraleRequest) -> Result<MoraleAnswer, OddsError> {
    let mut rulings = vec!["B-1", "B-10"];
    if r.test_kind == TestKind::Charged {
        rulings.push("B-14");
    }
    let (effective, total, modifiers) = morale_setup(cat, r, &mut rulings)?;
    let number = r
        .morale_number
        .or(r.quality.map(|q| cat.morale_number(q)))
        .unwrap_or(effective);
    let [p_pass, p1, p2] = test_chances(effective, total);
    let pass_on: Vec<u32> = (0..10u32)
        .filter(|f| *f as i32 + total <= effective)
        .collect();
    let need = match pass_on.last() {
        None => format!("No roll passes: even a 0 {total:+} exceeds {effective}."),
        Some(9) => format!("Every roll passes: 9 {total:+} is at most {effective}."),
        Some(top) => format!(
            "Pass on 0 to {top} ({} in 10): the roll {total:+} must be at most {effective}; one more fails by 1, more than that by 2 or more.",
            pass_on.len()
        ),
    };
    rulings.sort();
    rulings.dedup();
    Ok(MoraleAnswer {
        kind: "morale",
        morale_number: number,
        effective_morale_number: effective,
        modifiers,
        total_modifier: total,
        p_pass,
        p_failed_by_1: p1,
        p_failed_by_2: p2,
        pass_on,
        need,
        dice: "one d10 read 0–9 plus the modifiers (minus is good), against the Morale Number"
            .into(),
        rulings,
    })
}

// ---------------------------------------------------------------- melee

/// Round 2 figures: every survivor, or at most `round2_figures` (skirmishers' stands in contact
/// plus one per flank, B-17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round2 {
    #[default]
    All,
    Cap,
}

/// One side of a melee.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeSide {
    #[serde(default = "regular")]
    pub quality: Quality,
    #[serde(default)]
    pub start_figures: Option<u32>,
    pub figures: u32,
    /// Figures fighting round 1 (front rank in contact plus overlaps); left out, all.
    #[serde(default)]
    pub round1_figures: Option<u32>,
    #[serde(default)]
    pub round2: Round2,
    /// With `round2: cap`, the most figures fighting round 2.
    #[serde(default)]
    pub round2_figures: Option<u32>,
    /// Mounted cavalry.
    #[serde(default)]
    pub cavalry: bool,
    #[serde(default)]
    pub infantry: bool,
    #[serde(default)]
    pub artillery: bool,
    #[serde(default)]
    pub indian: bool,
    #[serde(default)]
    pub in_woods: bool,
    #[serde(default)]
    pub bayonets: bool,
    #[serde(default)]
    pub panic_marker: bool,
    #[serde(default)]
    pub routing: bool,
    /// The defender's cover.
    #[serde(default)]
    pub cover: Cover,
    /// The attack strikes the defender's flank or rear.
    #[serde(default)]
    pub flank_or_rear: bool,
    #[serde(default)]
    pub commander_rating: Option<i32>,
    /// Further morale modifiers for the post-melee test (outflanked, friends routing…).
    #[serde(default)]
    pub other_test_modifiers: i32,
}

/// `POST /api/v1/oibl/odds/melee`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRequest {
    pub attacker: MeleeSide,
    pub defender: MeleeSide,
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Outcomes {
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub both_rout: f64,
    pub attacker_repulsed: f64,
}

impl Outcomes {
    fn add(&mut self, o: Outcomes, w: f64) {
        self.attacker_wins += o.attacker_wins * w;
        self.defender_wins += o.defender_wins * w;
        self.both_rout += o.both_rout * w;
        self.attacker_repulsed += o.attacker_repulsed * w;
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeleeAnswer {
    pub kind: &'static str,
    pub outcomes: Outcomes,
    pub rounds: u32,
    pub attacker_modifiers: Vec<Applied>,
    pub defender_modifiers: Vec<Applied>,
    pub attacker_casualties: Distribution,
    pub defender_casualties: Distribution,
    pub dice: String,
    pub notes: Vec<String>,
    pub rulings: Vec<&'static str>,
}

fn foot(s: &MeleeSide) -> bool {
    !s.cavalry
}

/// Melee modifiers of `me` against `them` (B-18), fixed for both rounds (B-19).
fn melee_modifiers(
    cat: &Catalogue,
    me: &MeleeSide,
    them: &MeleeSide,
    attacker: bool,
) -> Vec<Applied> {
    let mut m = Vec::new();
    let steps = me.quality.step() - them.quality.step();
    if steps > 0 {
        apply(
            cat,
            &mut m,
            "higher_quality",
            steps * cat.melee_mod("higher_quality"),
        );
    }
    if them.panic_marker {
        apply(
            cat,
            &mut m,
            "opponent_panic_marker",
            cat.melee_mod("opponent_panic_marker"),
        );
    }
    let flank = me.flank_or_rear || them.flank_or_rear;
    if flank {
        if attacker {
            apply(
                cat,
                &mut m,
                "attacking_flank_rear",
                cat.melee_mod("attacking_flank_rear"),
            );
        } else {
            apply(
                cat,
                &mut m,
                "attacked_flank_rear",
                cat.melee_mod("attacked_flank_rear"),
            );
        }
    }
    let armed = |s: &MeleeSide| s.bayonets || s.indian;
    if foot(me) && foot(them) && armed(me) && !armed(them) {
        apply(
            cat,
            &mut m,
            "bayonets_vs_none",
            cat.melee_mod("bayonets_vs_none"),
        );
    }
    if !attacker {
        match me.cover {
            Cover::Light => apply(
                cat,
                &mut m,
                "defending_light_cover",
                cat.melee_mod("defending_light_cover"),
            ),
            Cover::Heavy => apply(
                cat,
                &mut m,
                "defending_heavy_cover",
                cat.melee_mod("defending_heavy_cover"),
            ),
            Cover::None => {}
        }
    }
    if me.cavalry && !them.cavalry {
        apply(
            cat,
            &mut m,
            "cavalry_vs_non_cavalry",
            cat.melee_mod("cavalry_vs_non_cavalry"),
        );
    }
    if me.routing {
        apply(cat, &mut m, "routing", cat.melee_mod("routing"));
    }
    m
}

/// The post-melee test of a side: (pass, failed by 1, failed by 2+).
fn post_melee_test(
    cat: &Catalogue,
    s: &MeleeSide,
    defender: bool,
    lost: u32,
) -> Result<[f64; 3], OddsError> {
    let start = s.start_figures.unwrap_or(s.figures).max(s.figures);
    let now = s.figures.saturating_sub(lost);
    let r = MoraleRequest {
        quality: Some(s.quality),
        indian: s.indian,
        in_woods: s.in_woods,
        test_kind: TestKind::PostMelee,
        commander_rating: s.commander_rating,
        cover: if defender { s.cover } else { Cover::None },
        other_modifier: s.other_test_modifiers,
        start_figures: Some(start),
        figures: Some(now),
        ..MoraleRequest::default()
    };
    let mut rulings = Vec::new();
    let (number, total, _) = morale_setup(cat, &r, &mut rulings)?;
    Ok(test_chances(number, total))
}

/// The outcome of a melee whose totals are (attacker lost `la`, defender lost `ld`) (B-20).
fn winner(
    cat: &Catalogue,
    a: &MeleeSide,
    d: &MeleeSide,
    la: u32,
    ld: u32,
) -> Result<Outcomes, OddsError> {
    // Each side: P(routs).
    let routs = |s: &MeleeSide, defender: bool, lost: u32| -> Result<f64, OddsError> {
        if lost == 0 {
            return Ok(0.0);
        }
        Ok(post_melee_test(cat, s, defender, lost)?[2])
    };
    let (pa, pd) = if la > ld {
        (1.0, routs(d, true, ld)?)
    } else if ld > la {
        (routs(a, false, la)?, 1.0)
    } else {
        // Equal losses (0–0 too): both test (B-20); a side that lost nothing tests with no loss band.
        let ta = post_melee_test(cat, a, false, la)?[2];
        let td = post_melee_test(cat, d, true, ld)?[2];
        (ta, td)
    };
    Ok(Outcomes {
        attacker_wins: (1.0 - pa) * pd,
        defender_wins: pa * (1.0 - pd),
        both_rout: pa * pd,
        attacker_repulsed: (1.0 - pa) * (1.0 - pd),
    })
}

fn check_side(s: &MeleeSide, who: &str) -> Result<(), OddsError> {
    if s.figures > 600 || s.start_figures.is_some_and(|f| f > 600) {
        return Err(err(format!("The {who} has more than 600 figures.")));
    }
    if s.round1_figures.is_some_and(|f| f > s.figures) {
        return Err(err(format!(
            "The {who}'s round1_figures exceed its figures."
        )));
    }
    if s.commander_rating.is_some_and(|x| !(0..=3).contains(&x)) {
        return Err(err("A commander's rating is 0 to 3 (B-8).".to_string()));
    }
    if s.other_test_modifiers.abs() > 20 {
        return Err(err("other_test_modifiers must be from -20 to 20."));
    }
    Ok(())
}

/// A melee of one unit a side (B-17 to B-22).
pub fn melee(cat: &Catalogue, r: &MeleeRequest) -> Result<MeleeAnswer, OddsError> {
    let (a, d) = (&r.attacker, &r.defender);
    check_side(a, "attacker")?;
    check_side(d, "defender")?;
    let mut rulings = vec!["B-1", "B-2", "B-17", "B-18", "B-19", "B-20", "B-10"];
    let mut notes = Vec::new();
    let am = melee_modifiers(cat, a, d, true);
    let dm = melee_modifiers(cat, d, a, false);
    let (amod, dmod): (i32, i32) = (
        am.iter().map(|m| m.value).sum(),
        dm.iter().map(|m| m.value).sum(),
    );
    // B-21: mounted cavalry against any foot unit (not guns) fight one round.
    let one_round =
        (a.cavalry && !d.cavalry && !d.artillery) || (d.cavalry && !a.cavalry && !a.artillery);
    if one_round {
        rulings.push("B-21");
        notes.push("Mounted cavalry against foot: one round only (B-21).".into());
    }
    if a.indian || d.indian {
        rulings.push("B-11");
        rulings.push("B-39");
    }
    // Round 1: joint distribution of (attacker lost, defender lost).
    let r1a = a.round1_figures.unwrap_or(a.figures);
    let r1d = d.round1_figures.unwrap_or(d.figures);
    let hits_on_d = casualties(cat, r1a, amod, d.figures);
    let hits_on_a = casualties(cat, r1d, dmod, a.figures);
    let mut outcomes = Outcomes::default();
    let mut dist_a = vec![0.0; a.figures as usize + 1];
    let mut dist_d = vec![0.0; d.figures as usize + 1];
    let round2 = |s: &MeleeSide, survivors: u32| match s.round2 {
        Round2::All => survivors,
        Round2::Cap => survivors.min(s.round2_figures.or(s.round1_figures).unwrap_or(survivors)),
    };
    for (la1, pa1) in hits_on_a.iter().enumerate() {
        for (ld1, pd1) in hits_on_d.iter().enumerate() {
            let p = pa1 * pd1;
            if p == 0.0 {
                continue;
            }
            let (la1, ld1) = (la1 as u32, ld1 as u32);
            let mut finals: Vec<(u32, u32, f64)> = Vec::new();
            if one_round {
                finals.push((la1, ld1, p));
            } else {
                let sa = a.figures - la1;
                let sd = d.figures - ld1;
                let h_d = casualties(cat, round2(a, sa), amod, sd);
                let h_a = casualties(cat, round2(d, sd), dmod, sa);
                for (x, px) in h_a.iter().enumerate() {
                    for (y, py) in h_d.iter().enumerate() {
                        let q = p * px * py;
                        if q > 0.0 {
                            finals.push((la1 + x as u32, ld1 + y as u32, q));
                        }
                    }
                }
            }
            for (la, ld, q) in finals {
                dist_a[la as usize] += q;
                dist_d[ld as usize] += q;
                outcomes.add(winner(cat, a, d, la, ld)?, q);
            }
        }
    }
    while dist_a.len() > 1 && dist_a.last() == Some(&0.0) {
        dist_a.pop();
    }
    while dist_d.len() > 1 && dist_d.last() == Some(&0.0) {
        dist_d.pop();
    }
    rulings.sort();
    rulings.dedup();
    Ok(MeleeAnswer {
        kind: "melee",
        outcomes,
        rounds: if one_round { 1 } else { 2 },
        attacker_modifiers: am,
        defender_modifiers: dm,
        attacker_casualties: Distribution::from(&dist_a),
        defender_casualties: Distribution::from(&dist_d),
        dice: format!(
            "Each round each side rolls one d10 per 30 figures fighting on the Combat Table (attacker {amod:+}, defender {dmod:+}); losses are removed together at the end of the round. Round 1: {r1a} against {r1d} figures; round 2: the survivors. The side that lost more routs; a side that lost figures and did not lose more tests, both test on equal losses."
        ),
        notes,
        rulings,
    })
}

// ---------------------------------------------------------------- charge

/// The defender's fire at the charger (B-14).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeDefender {
    #[serde(flatten)]
    pub side: MeleeSide,
    /// The defender's formation: open_order or skirmish change the charged test (spec 4.3).
    #[serde(default)]
    pub formation: Option<String>,
    /// Figures eligible to fire at the charger (left out: all; guns: their value).
    #[serde(default)]
    pub firing_figures: Option<u32>,
    /// A gun defending: it fires its value at 2" with no range modifier.
    #[serde(default)]
    pub gun: Option<GunClass>,
    #[serde(default)]
    pub marksmen: bool,
    /// Further modifiers of the charged test.
    #[serde(default)]
    pub charged_test_modifiers: i32,
}

/// The charger.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeAttacker {
    #[serde(flatten)]
    pub side: MeleeSide,
    /// The charger's formation (a column for the target of its fire, B-4).
    #[serde(default)]
    pub formation: Option<String>,
    /// Further modifiers of the declaration test (outflanked, friends routing…).
    #[serde(default)]
    pub declaration_test_modifiers: i32,
}

/// `POST /api/v1/oibl/odds/charge`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeRequest {
    pub attacker: ChargeAttacker,
    pub defender: ChargeDefender,
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct ChargeEnds {
    /// Declaration failed by 1: the charger falls back (B-13).
    pub charger_falls_back: f64,
    /// Declaration failed by 2 or more: the charger routs.
    pub charger_routs_at_declaration: f64,
    /// The defender failed its test by 2 or more: it routs before contact (B-14).
    pub defender_routs_before_contact: f64,
    /// Closing test failed by 1: halts 2" short (B-15).
    pub charger_halts: f64,
    /// Closing test failed by 2 or more.
    pub charger_routs_closing: f64,
    /// Contact: the melee is fought.
    pub melee: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChargeAnswer {
    pub kind: &'static str,
    pub ends: ChargeEnds,
    /// The melee's outcomes, weighted by the chance it is fought.
    pub melee_outcomes: Outcomes,
    /// Over the whole chain: the defender gone (routed before contact or beaten).
    pub p_charge_succeeds: f64,
    pub p_declaration_pass: f64,
    pub p_defender_pass: f64,
    pub p_defender_failed_by_1: f64,
    pub defender_fire: Vec<Point>,
    pub steps: Vec<String>,
    pub rulings: Vec<&'static str>,
}

pub fn charge(cat: &Catalogue, r: &ChargeRequest) -> Result<ChargeAnswer, OddsError> {
    let a = &r.attacker.side;
    let d = &r.defender.side;
    check_side(a, "attacker")?;
    check_side(d, "defender")?;
    let mut rulings = vec!["B-1", "B-2", "B-10", "B-12", "B-13", "B-14", "B-15"];
    let mut steps = Vec::new();
    let start_a = a.start_figures.unwrap_or(a.figures).max(a.figures);
    // 1. Declaration test (B-13).
    let decl = MoraleRequest {
        quality: Some(a.quality),
        indian: a.indian,
        in_woods: a.in_woods,
        test_kind: TestKind::Charge,
        commander_rating: a.commander_rating,
        other_modifier: r.attacker.declaration_test_modifiers,
        start_figures: Some(start_a),
        figures: Some(a.figures),
        ..MoraleRequest::default()
    };
    let mut ru = Vec::new();
    let (n, m, _) = morale_setup(cat, &decl, &mut ru)?;
    rulings.extend(ru);
    let [dp, d1, d2] = test_chances(n, m);
    steps.push(format!(
        "Declaration test against {n} with {m:+}: pass {dp:.3}."
    ));
    // 2. The defender's test on being charged.
    let formation = r.defender.formation.as_deref().and_then(Formation::from_id);
    let charged_by_cavalry = a.cavalry;
    let mut charged = MoraleRequest {
        quality: Some(d.quality),
        indian: d.indian,
        in_woods: d.in_woods,
        test_kind: TestKind::Charged,
        commander_rating: d.commander_rating,
        cover: d.cover,
        other_modifier: r.defender.charged_test_modifiers,
        start_figures: Some(d.start_figures.unwrap_or(d.figures).max(d.figures)),
        figures: Some(d.figures),
        ..MoraleRequest::default()
    };
    match (formation, charged_by_cavalry, d.artillery) {
        (_, true, true) => charged.artillery_charged_by_cavalry = true,
        (Some(Formation::OpenOrder), true, _) => charged.open_charged_by_cavalry = true,
        (Some(Formation::Skirmish), true, _) => charged.skirmish_charged_by_cavalry = true,
        (Some(Formation::Skirmish), false, _) if !a.indian => {
            charged.skirmish_charged_by_infantry = true
        }
        _ => {}
    }
    let mut ru = Vec::new();
    let (n2, m2, _) = morale_setup(cat, &charged, &mut ru)?;
    rulings.extend(ru);
    let [cp, c1, c2] = test_chances(n2, m2);
    steps.push(format!(
        "The defender's test against {n2} with {m2:+}: pass {cp:.3}, failed by 1 {c1:.3}."
    ));
    // 3. The defender's fire at 2" (B-14): full on a pass; half rounded down for Elite,
    // Veteran and Regular infantry failing by 1; nothing from mounted cavalry.
    let eligible = if d.cavalry {
        0
    } else {
        r.defender.firing_figures.unwrap_or(d.figures)
    };
    let fire_dist = |figures: u32| -> Result<Vec<f64>, OddsError> {
        if figures == 0 && r.defender.gun.is_none() {
            return Ok(vec![1.0]);
        }
        let req = FireRequest {
            firing_figures: if r.defender.gun.is_some() {
                None
            } else {
                Some(figures)
            },
            gun: r.defender.gun,
            firer_quality: d.quality,
            marksmen: r.defender.marksmen,
            range_inches: Some(0.0),
            point_blank: Some(r.defender.gun.is_none()),
            flank_or_rear: false,
            target: FireTarget {
                figures: a.figures,
                formation: r.attacker.formation.clone(),
                mounted: a.cavalry,
                cover: Cover::None,
                kind: if a.cavalry {
                    TargetType::Cavalry
                } else {
                    TargetType::Infantry
                },
            },
            half: Half::None,
        };
        Ok(fire(cat, &req)?
            .casualties
            .distribution
            .iter()
            .map(|p| p.p)
            .collect())
    };
    let full = fire_dist(eligible)?;
    let half_fires = !d.quality.is_low() && d.infantry && !d.cavalry && !d.artillery;
    let half = if half_fires && r.defender.gun.is_none() {
        fire_dist(eligible / 2)?
    } else {
        vec![1.0]
    };
    // 4. Closing test after casualties (B-15), then the melee.
    let mut ends = ChargeEnds {
        charger_falls_back: d1,
        charger_routs_at_declaration: d2,
        defender_routs_before_contact: dp * c2,
        ..ChargeEnds::default()
    };
    let mut mo = Outcomes::default();
    let mut fire_mix = vec![0.0; a.figures as usize + 1];
    for (p_branch, dist, marker) in [(dp * cp, &full, false), (dp * c1, &half, true)] {
        if p_branch == 0.0 {
            continue;
        }
        for (lost, pl) in dist.iter().enumerate() {
            let q = p_branch * pl;
            if q == 0.0 {
                continue;
            }
            fire_mix[lost] += pl * p_branch / (dp * (cp + c1)).max(f64::MIN_POSITIVE);
            let lost = lost as u32;
            let (close_pass, close1, close2) = if lost == 0 {
                (1.0, 0.0, 0.0)
            } else {
                let t = MoraleRequest {
                    quality: Some(a.quality),
                    indian: a.indian,
                    in_woods: a.in_woods,
                    test_kind: TestKind::Closing,
                    commander_rating: a.commander_rating,
                    other_modifier: r.attacker.declaration_test_modifiers,
                    start_figures: Some(start_a),
                    figures: Some(a.figures - lost),
                    ..MoraleRequest::default()
                };
                let (n, m, _) = morale_setup(cat, &t, &mut Vec::new())?;
                let [x, y, z] = test_chances(n, m);
                (x, y, z)
            };
            ends.charger_halts += q * close1;
            ends.charger_routs_closing += q * close2;
            let pm = q * close_pass;
            if pm == 0.0 {
                continue;
            }
            ends.melee += pm;
            let mut att = a.clone();
            att.figures = a.figures - lost;
            att.start_figures = Some(start_a);
            att.round1_figures = a.round1_figures.map(|f| f.min(att.figures));
            let mut def = d.clone();
            def.panic_marker = marker;
            let req = MeleeRequest {
                attacker: att,
                defender: def,
            };
            if req.attacker.figures < cat.destroyed_below {
                // Too few to fight: the charge collapses (B-33); counted as repulsed.
                mo.attacker_repulsed += pm;
                continue;
            }
            let ans = melee(cat, &req)?;
            mo.add(ans.outcomes, pm);
        }
    }
    while fire_mix.len() > 1 && fire_mix.last() == Some(&0.0) {
        fire_mix.pop();
    }
    steps.push(format!(
        "The defender fires at 2\" with {eligible} figures on a pass{}.",
        if half_fires {
            ", half of them rounded down on a failure by 1"
        } else {
            ", none on a failure by 1"
        }
    ));
    rulings.extend(["B-4", "B-16", "B-17", "B-18", "B-19", "B-20", "B-36"]);
    if a.indian || d.indian {
        rulings.push("B-11");
    }
    rulings.sort();
    rulings.dedup();
    Ok(ChargeAnswer {
        kind: "charge",
        p_charge_succeeds: ends.defender_routs_before_contact + mo.attacker_wins,
        ends,
        melee_outcomes: mo,
        p_declaration_pass: dp,
        p_defender_pass: cp,
        p_defender_failed_by_1: c1,
        defender_fire: Distribution::from(&fire_mix).distribution,
        steps,
        rulings,
    })
}

// ---------------------------------------------------------------- generals

/// `POST /api/v1/oibl/odds/general`: a general with a unit that takes `casualties`, in one or
/// several separate applications (B-32).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralRequest {
    #[serde(default)]
    pub casualties: Option<u32>,
    /// Separate applications of casualties in the turn (each rolls its own dice).
    #[serde(default)]
    pub applications: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneralAnswer {
    pub kind: &'static str,
    pub dice: u32,
    pub p_unhurt: f64,
    pub p_light_wound: f64,
    pub p_serious_wound: f64,
    pub p_killed: f64,
    pub how: String,
    pub rulings: Vec<&'static str>,
}

pub fn general(r: &GeneralRequest) -> Result<GeneralAnswer, OddsError> {
    let mut apps = r.applications.clone();
    if let Some(c) = r.casualties {
        apps.push(c);
    }
    if apps.is_empty() {
        return Err(err("Give casualties or applications."));
    }
    if apps.len() > 100 || apps.iter().any(|&c| c > 600) {
        return Err(err("At most 100 applications of at most 600 casualties."));
    }
    let n: u32 = apps.iter().map(|c| c.div_ceil(2)).sum();
    // Per die: a 1 (1 in 10) then a d6: 1–2 light, 3–4 serious, 5–6 killed: 1/30 each.
    // Only the worst result counts.
    let pow = |x: f64| x.powi(n as i32);
    let none = pow(27.0 / 30.0);
    let at_most_light = pow(28.0 / 30.0);
    let at_most_serious = pow(29.0 / 30.0);
    Ok(GeneralAnswer {
        kind: "general",
        dice: n,
        p_unhurt: none,
        p_light_wound: at_most_light - none,
        p_serious_wound: at_most_serious - at_most_light,
        p_killed: 1.0 - at_most_serious,
        how: format!(
            "{n} d10 (one per 2 casualties, rounded up, for each application); each 1 rolls a d6: 1–2 light wound, 3–4 serious, 5–6 killed; the worst counts. P(killed) = 1 − (29/30)^{n}."
        ),
        rulings: vec!["B-1", "B-32"],
    })
}

#[cfg(test)]
mod tests;
