//! How a campaign is shown: log entries in words, what a user may see of it (never another
//! player's orders before the reveal), the map's drawing, and "needs my attention".

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use crate::app::campaigns::{parse_entry, phase_id, Loaded};
use crate::rules::campaign::movement::{PlaceKind, MAP_HEIGHT, MAP_WIDTH};
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
    // An archived campaign is read-only: nothing in it waits for anyone.
    if st.phase == Phase::Ended || st.archived {
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
        "archived": st.archived,
        "public_path": public_path(c),
        "deadline": st.open_deadline().map(|d| json!({"turn": d.turn, "at": d.rfc3339(), "words": d.words()})),
        "turn_length_hours": st.turn_length_minutes.map(|m| m / 60),
    })
}

/// The public read-only page's address, for the organiser, while it is on.
pub fn public_path(c: &Loaded) -> Option<String> {
    if !c.organiser || !c.state.public {
        return None;
    }
    c.row
        .public_token
        .as_ref()
        .map(|t| format!("/public/campaigns/{t}"))
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

mod map_labels;

use map_labels::{
    place_labels, text_width, LabelBox, LabelWish, Placed, FORCE_SPOTS, MARKER_HALF, PLACE_SPOTS,
};

/// The map's drawing (its `viewBox` in `_map.html`): the 1000 × 700 grid and a margin round it.
const VIEW: LabelBox = LabelBox {
    x: -40,
    y: -40,
    w: 1080,
    h: 780,
};
/// How far labels keep inside the drawing's edge.
const EDGE: i32 = 2;
/// Place names: their size in px, their box's height and where the baseline sits in it (room
/// for the font's ascent above and descent below).
const PLACE_FONT: i32 = 19;
const PLACE_LABEL_HEIGHT: i32 = 25;
const PLACE_BASELINE: i32 = 19;
/// How many characters of a place's name the map shows (the list of places gives it whole).
const PLACE_NAME_CHARS: usize = 24;
/// Force names: their size, one line's height and the gap between lines of a stack.
const FORCE_FONT: i32 = 15;
const FORCE_LINE: i32 = 20;
const FORCE_LINE_GAP: i32 = 2;
const FORCE_BASELINE: i32 = 15;
/// Room either side of a force's name inside its box.
const FORCE_PAD: i32 = 8;
const FORCE_NAME_CHARS: usize = 14;
/// The most lines a stack of forces at one place has; more forces are counted on the last.
const STACK_LINES: usize = 4;

/// A label's text: where it starts, its baseline, and the length it is drawn to (the width the
/// layout reserved for it, so the box on the screen is the box laid out).
pub struct SvgText {
    pub x: i32,
    pub y: i32,
    pub length: i32,
    pub text: String,
}

/// A thin line from a point to its label, where the label had to go further off.
pub struct SvgLeader {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

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
    /// Its name on the map; none only when the map has no room left for it.
    pub label: Option<SvgText>,
    /// The route the user's force would march here by, when their order is open and this
    /// place is one march away: the place then picks that march.
    pub move_route: Option<String>,
}

pub struct SvgRoute {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
    pub kind: &'static str,
}

/// One line of a stack of forces: a force's name, or how many more stand there.
pub struct SvgForceLine {
    /// The line's top.
    pub y: i32,
    /// `force-side0`, `force-side1`, with `force-mine` for the user's own; `force-more`.
    pub class: String,
    /// The force's name, shortened with an ellipsis to fit.
    pub text: SvgText,
    /// The force's whole name and its player, for the tooltip.
    pub title: String,
}

/// The forces standing at one place, as one label of one line each.
pub struct SvgForceStack {
    pub x: i32,
    pub width: i32,
    pub lines: Vec<SvgForceLine>,
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

/// A place in the list beside the map, which says in words all the map shows.
pub struct MapListPlace {
    pub id: String,
    pub name: String,
    /// Its kind, victory value and supply, in words.
    pub about: String,
    /// `side0`, `side1` or `none`.
    pub holder: &'static str,
    pub held_by: String,
    /// Each force there: its name, player and side.
    pub forces: Vec<String>,
    /// Each route from it: its kind and where it leads.
    pub routes: Vec<String>,
    /// As on the map: the route to march here by, when the user may.
    pub move_route: Option<String>,
}

pub struct SvgMap {
    pub campaign: i64,
    pub places: Vec<SvgPlace>,
    pub routes: Vec<SvgRoute>,
    pub forces: Vec<SvgForceStack>,
    pub leaders: Vec<SvgLeader>,
    pub arrows: Vec<SvgArrow>,
    pub battles: Vec<SvgBattle>,
    pub list: Vec<MapListPlace>,
    /// In the organiser's editor: places may be dragged to a new spot.
    pub draggable: bool,
    /// The largest coordinates a place may have (where a dragged place stops).
    pub width: u16,
    pub height: u16,
}

impl SvgMap {
    /// Whether anything on the map is to be clicked or dragged (a march, a battle, a place in
    /// the editor): then it is a group of controls to assistive technology, not one picture.
    pub fn interactive(&self) -> bool {
        self.draggable
            || !self.battles.is_empty()
            || self.places.iter().any(|p| p.move_route.is_some())
    }
}

/// A line of a stack of forces before it is laid out.
struct StackLine {
    class: String,
    label: String,
    title: String,
}

/// Where the user's force may march to this turn, by which route: each place one march away,
/// while the user's order is open.
fn marches(c: &Loaded) -> BTreeMap<String, String> {
    let st = &c.state;
    let mut out = BTreeMap::new();
    let Some(mine) = c.force.as_deref().and_then(|f| st.forces.get(f)) else {
        return out;
    };
    if st.phase != Phase::Orders || !mine.active() {
        return out;
    }
    for r in &st.map.routes {
        if let Some(to) = st.map.other_end(&r.id, &mine.place) {
            out.entry(to.to_string()).or_insert_with(|| r.id.clone());
        }
    }
    out
}

/// The drawing of the map: coordinates in the 1000 × 700 grid, labels laid out so none covers
/// another or a marker, or crosses the drawing's edge.
pub fn svg_map(c: &Loaded) -> SvgMap {
    let st = &c.state;
    let at = |id: &str| {
        st.map
            .place(id)
            .map_or((0, 0), |p| (i32::from(p.x), i32::from(p.y)))
    };
    let marches = marches(c);
    let holder = |id: &str| match st.holders.get(id).map(|h| h.side) {
        Some(0) => "side0",
        Some(1) => "side1",
        _ => "none",
    };
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
                kind: r.kind.id(),
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
    let battles: Vec<SvgBattle> = st
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

    // The forces at each place, the user's own first, as one stack.
    let mut at_place: BTreeMap<&str, Vec<&crate::rules::campaign::state::Force>> = BTreeMap::new();
    for f in st.active_forces() {
        at_place.entry(f.place.as_str()).or_default().push(f);
    }
    let is_mine = |id: &str| c.force.as_deref() == Some(id);
    for forces in at_place.values_mut() {
        forces.sort_by_key(|f| !is_mine(&f.id));
    }
    let stacks: Vec<(&str, Vec<StackLine>)> = at_place
        .iter()
        .map(|(place, forces)| {
            let named = if forces.len() > STACK_LINES {
                STACK_LINES - 1
            } else {
                forces.len()
            };
            let mut lines: Vec<StackLine> = forces[..named]
                .iter()
                .map(|f| {
                    let name = f.roster.name();
                    let class = if is_mine(&f.id) {
                        format!("force-side{} force-mine", f.side)
                    } else {
                        format!("force-side{}", f.side)
                    };
                    StackLine {
                        class,
                        label: short_text(&name, FORCE_NAME_CHARS),
                        title: format!("{name} ({}, {})", f.player, st.side_name(f.side)),
                    }
                })
                .collect();
            if named < forces.len() {
                let more = forces.len() - named;
                lines.push(StackLine {
                    class: "force-more".into(),
                    label: format!("and {more} more"),
                    title: format!("{more} more forces here: see the list of places"),
                });
            }
            (*place, lines)
        })
        .collect();

    let place_texts: Vec<String> = st
        .map
        .places
        .iter()
        .map(|p| {
            let name = short_text(&p.name, PLACE_NAME_CHARS);
            if p.value > 0 {
                format!("{name} · {}", p.value)
            } else {
                name
            }
        })
        .collect();
    let mut wishes: Vec<LabelWish> = st
        .map
        .places
        .iter()
        .zip(&place_texts)
        .map(|(p, text)| LabelWish {
            x: i32::from(p.x),
            y: i32::from(p.y),
            w: text_width(text, PLACE_FONT),
            h: PLACE_LABEL_HEIGHT,
            spots: &PLACE_SPOTS,
        })
        .collect();
    let stack_width = |lines: &[StackLine]| {
        lines
            .iter()
            .map(|l| text_width(&l.label, FORCE_FONT))
            .max()
            .unwrap_or(0)
            + 2 * FORCE_PAD
    };
    for (place, lines) in &stacks {
        let (x, y) = at(place);
        let n = i32::try_from(lines.len()).unwrap_or(1);
        wishes.push(LabelWish {
            x,
            y,
            w: stack_width(lines),
            h: n * (FORCE_LINE + FORCE_LINE_GAP) - FORCE_LINE_GAP,
            spots: &FORCE_SPOTS,
        });
    }
    let markers: Vec<LabelBox> = st
        .map
        .places
        .iter()
        .map(|p| LabelBox::around(i32::from(p.x), i32::from(p.y), MARKER_HALF))
        .chain(
            battles
                .iter()
                .map(|b| LabelBox::around(b.x, b.y, MARKER_HALF)),
        )
        .collect();
    let bounds = LabelBox {
        x: VIEW.x + EDGE,
        y: VIEW.y + EDGE,
        w: VIEW.w - 2 * EDGE,
        h: VIEW.h - 2 * EDGE,
    };
    let placed = place_labels(&bounds, &markers, &wishes);
    let (place_boxes, stack_boxes) = placed.split_at(st.map.places.len());

    let mut leaders = Vec::new();
    let mut leader_to = |x: i32, y: i32, p: &Placed| {
        if p.leader {
            let (x2, y2) = p.at.nearest_point(x, y);
            leaders.push(SvgLeader {
                x1: x,
                y1: y,
                x2,
                y2,
            });
        }
    };
    let places = st
        .map
        .places
        .iter()
        .zip(place_texts)
        .zip(place_boxes)
        .map(|((p, text), placed)| {
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            let label = placed.map(|placed| {
                leader_to(x, y, &placed);
                SvgText {
                    x: placed.at.x,
                    y: placed.at.y + PLACE_BASELINE,
                    length: placed.at.w,
                    text,
                }
            });
            SvgPlace {
                id: p.id.clone(),
                name: p.name.clone(),
                x,
                y,
                holder: holder(&p.id),
                fort: p.kind == PlaceKind::Fort,
                kind: p.kind.id(),
                value: p.value,
                supply: p.supply,
                label,
                move_route: marches.get(&p.id).cloned(),
            }
        })
        .collect();
    let forces = stacks
        .into_iter()
        .zip(stack_boxes)
        .filter_map(|((place, lines), placed)| {
            let placed = (*placed)?;
            let (x, y) = at(place);
            leader_to(x, y, &placed);
            let lines = lines
                .into_iter()
                .zip(0..)
                .map(
                    |(
                        StackLine {
                            class,
                            label,
                            title,
                        },
                        i,
                    )| {
                        let top = placed.at.y + i * (FORCE_LINE + FORCE_LINE_GAP);
                        SvgForceLine {
                            y: top,
                            class,
                            text: SvgText {
                                x: placed.at.x + FORCE_PAD,
                                y: top + FORCE_BASELINE,
                                length: text_width(&label, FORCE_FONT),
                                text: label,
                            },
                            title,
                        }
                    },
                )
                .collect();
            Some(SvgForceStack {
                x: placed.at.x,
                width: placed.at.w,
                lines,
            })
        })
        .collect();

    SvgMap {
        campaign: c.id(),
        places,
        routes,
        forces,
        leaders,
        arrows,
        battles,
        list: map_list(c, &at_place, &marches),
        draggable: false,
        width: MAP_WIDTH,
        height: MAP_HEIGHT,
    }
}

/// The map in words: each place, who holds it, who stands there and where its routes lead.
fn map_list(
    c: &Loaded,
    at_place: &BTreeMap<&str, Vec<&crate::rules::campaign::state::Force>>,
    marches: &BTreeMap<String, String>,
) -> Vec<MapListPlace> {
    let st = &c.state;
    st.map
        .places
        .iter()
        .map(|p| {
            let mut about = vec![p.kind.id().to_string()];
            if p.value > 0 {
                about.push(format!("victory value {}", p.value));
            }
            if p.supply {
                about.push("supply".into());
            }
            let held = st.holders.get(&p.id).map(|h| h.side);
            MapListPlace {
                id: p.id.clone(),
                name: p.name.clone(),
                about: about.join(", "),
                holder: match held {
                    Some(0) => "side0",
                    Some(1) => "side1",
                    _ => "none",
                },
                held_by: held.map_or("Unclaimed".to_string(), |s| {
                    format!("Held by {}", st.side_name(s))
                }),
                forces: at_place
                    .get(p.id.as_str())
                    .map(|fs| {
                        fs.iter()
                            .map(|f| {
                                format!(
                                    "{} ({}, {})",
                                    f.roster.name(),
                                    f.player,
                                    st.side_name(f.side)
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                routes: st
                    .map
                    .routes
                    .iter()
                    .filter_map(|r| {
                        let to = st.map.other_end(&r.id, &p.id)?;
                        Some(format!("{} to {}", r.kind.id(), st.place_name(to)))
                    })
                    .collect(),
                move_route: marches.get(&p.id).cloned(),
            }
        })
        .collect()
}

/// A name of at most `most` characters for the map: a longer one is cut and ends with an
/// ellipsis, so it reads as shortened rather than misspelt.
fn short_text(name: &str, most: usize) -> String {
    if name.chars().count() <= most {
        name.to_string()
    } else {
        let mut short: String = name.chars().take(most.saturating_sub(1)).collect();
        short.push('…');
        short
    }
}

/// The campaign's rule system, as the campaign pages ask it.
pub fn system_of<'a>(state: &'a AppState, c: &Loaded) -> Result<&'a dyn ForceRules, AppError> {
    Ok(crate::app::campaigns::system_of(&state.app.rules, &c.row)?)
}

/// A campaign as its public page shows it (issue 19): the standings, the map as every member
/// sees it, the finished battles. Nothing a non-member may not see: no orders (not even how
/// many are in), no rosters, ratings, banks or log.
pub fn public_json(c: &Loaded) -> Value {
    let st = &c.state;
    let s = crate::rules::campaign::standings::standings(st);
    json!({
        "name": c.row.name,
        "phase": phase_id(st.phase),
        "turn": st.turn,
        "turns": st.settings().map(|s| s.turns),
        "sides": st.settings().map(|s| s.sides.iter().map(|x| json!({"name": x.name})).collect::<Vec<_>>()),
        "standings": {"final": st.ended.is_some(), "sides": s.sides, "players": s.players},
        "map": {
            "places": st.map.places,
            "routes": st.map.routes,
            "holders": st.holders,
            "forces": st.forces.values().map(|f| json!({
                "id": f.id, "name": f.roster.name(), "player": f.player, "side": f.side,
                "place": f.place, "out": f.out,
            })).collect::<Vec<_>>(),
        },
        "battles": finished_battles(st).map(|b| json!({
            "no": b.no, "turn": b.turn, "name": b.name,
            "attacker": crate::rules::campaign::words::force_label(st, &b.attacker),
            "defender": crate::rules::campaign::words::force_label(st, &b.defender),
            "result": b.result,
        })).collect::<Vec<_>>(),
        "ended": st.ended,
    })
}

/// The battles that have been decided, in order.
pub fn finished_battles(
    st: &CampaignState,
) -> impl Iterator<Item = &crate::rules::campaign::state::CampaignBattle> {
    st.battles
        .iter()
        .filter(|b| b.status == BattleStatus::Resolved)
}

#[cfg(test)]
mod tests {
    use super::short_text;

    /// A long name on the map ends with an ellipsis; one that fits, accented or not, is whole.
    #[test]
    fn map_labels_are_cut_with_an_ellipsis() {
        assert_eq!(short_text("Ännchen Ø'Brien", 14), "Ännchen Ø'Bri…");
        assert_eq!(short_text("Tuesday Organiser", 14), "Tuesday Organ…");
        assert_eq!(short_text("Ännchen Ø'Brie", 14), "Ännchen Ø'Brie");
        assert_eq!(short_text("Howe", 14), "Howe");
    }
}
