//! How a campaign is shown: log entries in words, what a user may see of it (never another
//! player's orders before the reveal), the map's drawing, and "needs my attention".

use serde::Serialize;
use serde_json::{json, Value};

use crate::app::campaigns::{parse_entry, phase_id, Loaded};
use crate::rules::campaign::movement::{PlaceKind, RouteKind};
use crate::rules::campaign::state::{
    BattleSite, BattleStatus, CampaignState, Entry, Event, Phase, SetAside,
};
use crate::rules::campaign::visibility::{entry_visible, visible_orders};
use crate::rules::campaign::words::{describe, force_label, plural};
use crate::rules::campaign::ForceRules;
use crate::store::campaigns::LogRow;
use crate::web::state::AppState;
use crate::web::AppError;

/// Whether a battle entry concerns a force (it fought or stood by in that battle).
fn in_battle(st: &CampaignState, e: &Event, force: &str) -> bool {
    let involves = |b: &crate::rules::campaign::state::CampaignBattle| {
        b.attacker == force
            || b.defender == force
            || b.attacker_support.iter().any(|f| f == force)
            || b.defender_support.iter().any(|f| f == force)
    };
    match e {
        Event::BattleSet { battle, .. } | Event::BattleRearranged { battle, .. } => {
            involves(battle)
        }
        Event::BattleFought { battle, .. } | Event::BattleVoided { battle, .. } => {
            st.battle(*battle).is_some_and(involves)
        }
        _ => false,
    }
}

/// Where a campaign battle stands, in words, for the user looking at it.
pub fn battle_words(c: &Loaded, b: &crate::rules::campaign::state::CampaignBattle) -> String {
    if let (BattleStatus::Resolved, Some(r)) = (&b.status, &b.result) {
        return match r.winner.as_deref() {
            Some("attacker") => format!(
                "Attacker won: {} victory ({}:{})",
                r.level, r.attacker_vp, r.defender_vp
            ),
            Some("defender") => format!(
                "Defender won: {} victory ({}:{})",
                r.level, r.defender_vp, r.attacker_vp
            ),
            _ => format!("Tie ({}:{})", r.attacker_vp, r.defender_vp),
        };
    }
    match c.record_status(b.record) {
        "provisional" if c.recorded_by(b.record) == Some(c.user) => {
            "Result recorded; waiting for the other player to confirm it".into()
        }
        "provisional" => "Result recorded; waiting for its confirmation".into(),
        "disputed" => "Disputed: the organiser can void it to have it fought again".into(),
        _ => "To be fought or recorded".into(),
    }
}

/// A log entry as a user may see it.
#[derive(Debug, Clone, Serialize)]
pub struct LogLine {
    pub seq: i64,
    pub turn: i32,
    pub kind: String,
    pub force: Option<String>,
    pub seed: Option<String>,
    pub text: String,
    pub at: String,
    /// The stored entry; absent for another player's hidden order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Value>,
    pub set_aside: bool,
}

/// The log as `c`'s user may see it, filtered by turn and force.
pub fn log_lines(
    system: &dyn ForceRules,
    c: &Loaded,
    rows: &[LogRow],
    turn: Option<i32>,
    force: Option<&str>,
) -> Result<Vec<LogLine>, AppError> {
    let aside = set_aside_of(rows)?;
    if rows.iter().all(|r| r.words.is_some()) {
        return stored_lines(c, rows, &aside, turn, force);
    }
    replayed_lines(system, c, rows, &aside, turn, force)
}

/// What voided battles set aside, from the voiding entries among `rows`.
pub fn set_aside_of(rows: &[LogRow]) -> Result<SetAside, AppError> {
    let voids: Vec<Entry> = rows
        .iter()
        .filter(|r| r.kind == "battle_voided")
        .map(parse_entry)
        .collect::<Result<_, _>>()?;
    Ok(SetAside::of(&voids))
}

/// One entry as a line for `c`'s user: another player's order this turn shows only that it was
/// given; otherwise the entry's `words` (made only when shown).
fn line_of(
    c: &Loaded,
    r: &LogRow,
    e: &Entry,
    aside: &SetAside,
    words: impl FnOnce() -> String,
) -> LogLine {
    let st = &c.state;
    let hidden = !entry_visible(
        st,
        c.force.as_deref(),
        &e.event,
        u32::try_from(r.turn).unwrap_or(u32::MAX),
    );
    let (text, event) = if hidden {
        let who = r
            .force_id
            .as_deref()
            .map_or("A player".to_string(), |f| force_label(st, f));
        (
            format!("{who} gave an order (hidden until the turn closes)."),
            None,
        )
    } else {
        (words(), serde_json::from_str::<Value>(&r.event).ok())
    };
    LogLine {
        seq: r.seq,
        turn: r.turn,
        kind: r.kind.clone(),
        force: r.force_id.clone(),
        seed: if hidden { None } else { r.seed.clone() },
        text,
        at: r.created_at.format("%Y-%m-%d %H:%M").to_string(),
        event,
        set_aside: aside.contains(r.seq),
    }
}

/// Log lines from the words stored with each entry, for any run of entries (a page, the
/// latest few) without replaying the log: every row must have its words (entries written
/// before words were stored need [`log_lines`] over the whole log). `aside` comes from every
/// voiding entry of the campaign ([`set_aside_of`]).
pub fn stored_lines(
    c: &Loaded,
    rows: &[LogRow],
    aside: &SetAside,
    turn: Option<i32>,
    force: Option<&str>,
) -> Result<Vec<LogLine>, AppError> {
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let Some(words) = &r.words else {
            return Err(AppError::internal("a log entry without its words"));
        };
        if turn.is_some_and(|t| t != r.turn) {
            continue;
        }
        let e = parse_entry(r)?;
        if force
            .is_some_and(|f| r.force_id.as_deref() != Some(f) && !in_battle(&c.state, &e.event, f))
        {
            continue;
        }
        out.push(line_of(c, r, &e, aside, || words.clone()));
    }
    Ok(out)
}

/// The log told by replaying it from the start (the whole log in order): for campaigns whose
/// older entries were written before their words were stored.
fn replayed_lines(
    system: &dyn ForceRules,
    c: &Loaded,
    rows: &[LogRow],
    aside: &SetAside,
    turn: Option<i32>,
    force: Option<&str>,
) -> Result<Vec<LogLine>, AppError> {
    let st = &c.state;
    let mut out = Vec::new();
    // Each entry is told against the campaign as it stood just before it (where a force stood
    // when it was ordered, what a place was called then): the words are made first, then the
    // entry is applied, so no copy of the state is ever taken.
    let mut before = CampaignState::default();
    for r in rows {
        let e = parse_entry(r)?;
        let line = {
            let told = if before.settings.is_none() {
                st
            } else {
                &before
            };
            let shown = !(turn.is_some_and(|t| t != r.turn)
                || force.is_some_and(|f| {
                    r.force_id.as_deref() != Some(f) && !in_battle(told, &e.event, f)
                }));
            shown.then(|| line_of(c, r, &e, aside, || describe(system, told, &e.event)))
        };
        // A stored entry that no longer applies is still shown, told against the present.
        if !aside.contains(r.seq) && before.apply(system, r.seq, &e.event).is_err() {
            before = st.clone();
        }
        out.extend(line);
    }
    Ok(out)
}

/// Things the user should do now.
pub fn attention(c: &Loaded, system: &dyn ForceRules) -> Vec<String> {
    attention_of(c, system, true)
}

/// [`attention`] for a page that also lists the user's battle records (the home page): a result
/// waiting for the user's confirmation is on that list already, with its own link, so it is not
/// said twice (issue 18).
pub fn attention_beside_battles(c: &Loaded, system: &dyn ForceRules) -> Vec<String> {
    attention_of(c, system, false)
}

fn attention_of(c: &Loaded, system: &dyn ForceRules, results_to_confirm: bool) -> Vec<String> {
    let st = &c.state;
    let mut out = Vec::new();
    if st.phase == Phase::Ended {
        return out;
    }
    if let Some(f) = c.force.as_deref().and_then(|f| st.forces.get(f)) {
        if f.active() {
            if st.phase == Phase::Orders && !st.orders.contains_key(&f.id) {
                out.push(format!("Give your order for turn {}.", st.turn));
            }
            for b in st.pending_battles() {
                if b.attacker != f.id && b.defender != f.id {
                    continue;
                }
                match c.record_status(b.record) {
                    "provisional" if !results_to_confirm => {}
                    "provisional" if c.recorded_by(b.record) != Some(c.user) => out.push(format!(
                        "Confirm or dispute the result recorded for battle {} at {}.",
                        b.no, b.name
                    )),
                    "provisional" | "disputed" => {}
                    _ => out.push(format!("Fight or record battle {} at {}.", b.no, b.name)),
                }
            }
            let room = st
                .points()
                .saturating_sub(crate::rules::campaign::turn::force_points(system, f));
            if f.bank >= 5 && room >= 5 && st.phase == Phase::Orders {
                let last = st.settings().is_some_and(|s| st.turn >= s.turns);
                out.push(format!(
                    "You have {} reinforcement points to spend (the force has room for {} more).{}",
                    f.bank,
                    room,
                    if last {
                        " This is the last turn: points not spent now go unused."
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    if c.organiser {
        match st.phase {
            Phase::Enlisting => {
                if st.sides_in_field().len() == 2 {
                    out.push(
                        "Both sides have forces: start the campaign when everyone has joined."
                            .into(),
                    );
                } else {
                    out.push("Invite players with the link or code below (to play yourself, open the link too): each side needs at least one force.".into());
                }
            }
            Phase::Orders => {
                let (given, all) = st.orders_in();
                out.push(format!(
                    "{given} of {all} orders in for turn {}; close the turn when you are ready.",
                    st.turn
                ));
            }
            Phase::Battles => {
                let n = st.pending_battles().count();
                out.push(format!(
                    "{} of turn {} still to be decided.",
                    plural(n, "battle", "battles"),
                    st.turn
                ));
                for b in st.pending_battles() {
                    if c.record_status(b.record) == "disputed" {
                        out.push(format!(
                            "Battle {} at {} is disputed: void it on the organiser tools page to have it fought again.",
                            b.no, b.name
                        ));
                    }
                }
            }
            Phase::Ended => {}
        }
    }
    out
}

/// The campaign as JSON for `c`'s user. Other players' orders never appear.
pub fn campaign_json(c: &Loaded, system: &dyn ForceRules) -> Value {
    let st = &c.state;
    let settings = st.settings();
    let (given, all) = st.orders_in();
    json!({
        "id": c.row.id,
        "name": c.row.name,
        "rule_system": c.row.rule_system,
        "version": c.row.version,
        "phase": phase_id(st.phase),
        "turn": st.turn,
        "turns": settings.map(|s| s.turns),
        "points": settings.map(|s| s.points),
        "war": settings.map(|s| s.war.clone()),
        "scenario": settings.and_then(|s| s.scenario.clone()),
        "sides": settings.map(|s| s.sides.iter().map(|x| json!({"name": x.name, "home": x.home})).collect::<Vec<_>>()),
        "rules": settings.map(|s| s.rules.clone()),
        "organiser": c.organiser,
        "invite_code": if c.organiser { Some(c.row.invite_code.clone()) } else { None },
        "my_force": c.force,
        "orders": {"in": given, "of": all,
                   "mine": c.force.as_deref().and_then(|f| visible_orders(st, Some(f)).get(f).copied())},
        "forces": st.forces.values().map(|f| json!({
            "id": f.id, "player": f.player, "side": f.side, "place": f.place,
            "name": f.roster.name(), "elements": system.shape(&f.roster).map_or(0, |s| s.elements().count()), "out": f.out,
        })).collect::<Vec<_>>(),
        "battles": battles_json(st),
        "ended": st.ended,
        "attention": attention(c, system),
    })
}

pub fn battles_json(st: &CampaignState) -> Vec<Value> {
    st.battles
        .iter()
        .map(|b| {
            json!({
                "no": b.no, "turn": b.turn, "name": b.name, "attacker": b.attacker,
                "defender": b.defender, "scenario": b.scenario, "record": b.record,
                "status": match b.status { BattleStatus::Pending => "pending", BattleStatus::Resolved => "resolved" },
                "result": b.result,
                "at": match &b.site { BattleSite::Place { place } => json!({"place": place}),
                                      BattleSite::Route { route, .. } => json!({"route": route}) },
            })
        })
        .collect()
}

pub fn map_json(st: &CampaignState) -> Value {
    json!({
        "places": st.map.places,
        "routes": st.map.routes,
        "homes": st.settings().map(|s| [s.sides[0].home.clone(), s.sides[1].home.clone()]),
        "holders": st.holders,
        "forces": st.active_forces().map(|f| json!({"id": f.id, "side": f.side, "place": f.place})).collect::<Vec<_>>(),
        "last_moves": st.last_moves,
    })
}

// ---------- the SVG map ----------

pub struct SvgPlace {
    pub id: String,
    pub name: String,
    pub x: i32,
    pub y: i32,
    /// `side0`, `side1` or `none`.
    pub holder: &'static str,
    pub fort: bool,
    pub kind: &'static str,
    pub value: u8,
    pub supply: bool,
    /// Label below or above the marker, to keep labels off the edge.
    pub label_y: i32,
}

pub struct SvgRoute {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
    pub kind: &'static str,
}

pub struct SvgForce {
    pub x: i32,
    pub y: i32,
    pub side: u8,
    /// The player's name, shortened with an ellipsis to fit the marker.
    pub label: String,
    /// The whole name, for the marker's tooltip.
    pub player: String,
    /// The marker's width, from the label's characters (not its bytes).
    pub width: usize,
    pub mine: bool,
}

pub struct SvgArrow {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

pub struct SvgBattle {
    pub x: i32,
    pub y: i32,
    pub no: u32,
    pub record: i64,
    pub pending: bool,
}

pub struct SvgMap {
    pub places: Vec<SvgPlace>,
    pub routes: Vec<SvgRoute>,
    pub forces: Vec<SvgForce>,
    pub arrows: Vec<SvgArrow>,
    pub battles: Vec<SvgBattle>,
}

/// The drawing of the map: coordinates in the 1000 × 700 view box.
pub fn svg_map(c: &Loaded) -> SvgMap {
    let st = &c.state;
    let at = |id: &str| {
        st.map
            .place(id)
            .map_or((0, 0), |p| (i32::from(p.x), i32::from(p.y)))
    };
    let places = st
        .map
        .places
        .iter()
        .map(|p| SvgPlace {
            id: p.id.clone(),
            name: p.name.clone(),
            x: i32::from(p.x),
            y: i32::from(p.y),
            holder: match st.holders.get(&p.id).map(|h| h.side) {
                Some(0) => "side0",
                Some(1) => "side1",
                _ => "none",
            },
            fort: p.kind == PlaceKind::Fort,
            kind: p.kind.id(),
            value: p.value,
            supply: p.supply,
            label_y: if p.y > 640 { -22 } else { 34 },
        })
        .collect();
    let routes = st
        .map
        .routes
        .iter()
        .map(|r| {
            let ((x1, y1), (x2, y2)) = (at(&r.from), at(&r.to));
            SvgRoute {
                x1,
                y1,
                x2,
                y2,
                kind: match r.kind {
                    RouteKind::Road => "road",
                    RouteKind::Trail => "trail",
                    RouteKind::River => "river",
                },
            }
        })
        .collect();
    // Forces in one place stack beside the marker.
    let mut stacked: std::collections::BTreeMap<&str, i32> = Default::default();
    let forces = st
        .active_forces()
        .map(|f| {
            let (x, y) = at(&f.place);
            let n = stacked.entry(f.place.as_str()).or_insert(0);
            let slot = *n;
            *n += 1;
            // The force's own name (issue 18: it showed the player's), kept inside the map:
            // a marker near the right edge has its label on its left, one near the top below it.
            let name = f.roster.name();
            let label = short_label(&name);
            let width = label.chars().count() as i32 * 9 + 16;
            let right = x + 16 + width > MAP_RIGHT;
            let above = y - 26 - slot * 22 - 15 >= MAP_TOP;
            SvgForce {
                x: if right { x - 16 - width } else { x + 16 },
                y: if above {
                    y - 26 - slot * 22
                } else {
                    y + 40 + slot * 22
                },
                side: f.side,
                width: width as usize,
                label,
                player: format!("{name} ({})", f.player),
                mine: c.force.as_deref() == Some(f.id.as_str()),
            }
        })
        .collect();
    let arrows = st
        .last_moves
        .iter()
        .map(|m| {
            let ((x1, y1), (x2, y2)) = (at(&m.from), at(&m.to));
            // Stop short of both markers so the arrowhead stays visible.
            let (dx, dy) = (f64::from(x2 - x1), f64::from(y2 - y1));
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let trim = 18.0 / len;
            SvgArrow {
                x1: x1 + (dx * trim) as i32,
                y1: y1 + (dy * trim) as i32,
                x2: x2 - (dx * trim) as i32,
                y2: y2 - (dy * trim) as i32,
            }
        })
        .collect();
    let battles = st
        .battles
        .iter()
        .filter(|b| b.turn + 1 >= st.turn)
        .map(|b| {
            let (x, y) = match &b.site {
                BattleSite::Place { place } => at(place),
                BattleSite::Route { route, .. } => st
                    .map
                    .routes
                    .iter()
                    .find(|r| &r.id == route)
                    .map_or((0, 0), |r| {
                        let ((x1, y1), (x2, y2)) = (at(&r.from), at(&r.to));
                        ((x1 + x2) / 2, (y1 + y2) / 2)
                    }),
            };
            SvgBattle {
                x: x - 22,
                y: y - 22,
                no: b.no,
                record: b.record,
                pending: b.status == BattleStatus::Pending,
            }
        })
        .collect();
    SvgMap {
        places,
        routes,
        forces,
        arrows,
        battles,
    }
}

/// The campaign's rule system, as the campaign pages ask it.
pub fn system_of<'a>(state: &'a AppState, c: &Loaded) -> Result<&'a dyn ForceRules, AppError> {
    Ok(crate::app::campaigns::system_of(&state.app.rules, &c.row)?)
}

/// The right and top edges of the map's drawing (its `viewBox` in `_map.html`), inside which
/// force labels are kept.
const MAP_RIGHT: i32 = 1035;
const MAP_TOP: i32 = -35;

/// A name of at most 14 characters for a map marker: a longer one is cut to 13 and ends
/// with an ellipsis, so it reads as shortened rather than misspelt.
fn short_label(name: &str) -> String {
    if name.chars().count() <= 14 {
        name.to_string()
    } else {
        let mut short: String = name.chars().take(13).collect();
        short.push('…');
        short
    }
}

#[cfg(test)]
mod tests {
    use super::short_label;

    /// A long name on the map ends with an ellipsis; one that fits, accented or not, is whole.
    #[test]
    fn map_labels_are_cut_with_an_ellipsis() {
        assert_eq!(short_label("Ännchen Ø'Brien"), "Ännchen Ø'Bri…");
        assert_eq!(short_label("Tuesday Organiser"), "Tuesday Organ…");
        assert_eq!(short_label("Ännchen Ø'Brie"), "Ännchen Ø'Brie");
        assert_eq!(short_label("Howe"), "Howe");
    }
}
