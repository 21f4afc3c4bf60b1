//! All the King's Men battles on the generic battle pages: the set-up choices and setting a
//! battle up (two rosters or the sample battles' forces, an open battle or one of the three
//! sample battles, who attacks as the book or the dice say, K-49, the seed stored), the battle
//! page's parts (both armies with their generals' ratings, what was decided before the battle,
//! how each unit and general ended and why the battle was won, spec 5.4), recording a result
//! from the table in the game's terms (rank and file lost, officer and ensign lost, collapsed,
//! marched off; generals' ratings after casualties; turns played and the sample battles' own
//! facts), the set-up document and a side's printouts for the table.

use actix_web::web;
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::app::battles::{self as records, NewBattleRequest};
use crate::app::rosters as roster_store;
use crate::app::{self, Actor, ErrorDetail};
use crate::rules::system::{BattleSide, Method, RuleSystem};
use crate::rules::systems::atkm::battle::{ForceSetup, UnitResult, OPEN_BATTLE};
use crate::rules::systems::atkm::record::{self, GeneralReport, TabletopReport};
use crate::rules::systems::atkm::system::sample_forces;
use crate::rules::systems::atkm::table::{
    generals, side_key, units, TableUnit, MONMOUTH, NORTH_POINT, SIDES,
};
use crate::rules::systems::atkm::{Atkm, BattleSetup, Catalogue, Outcome};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

// ---------- setting a battle up ----------

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let cat = &state.app.rules.atkm;
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let option = |value: String, label: String| SelectOption { value, label };
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Atkm.id())
        .map(|r| option(format!("r:{}", r.id), r.name.clone()))
        .collect();
    let historical = sample_forces()
        .into_iter()
        .map(|(value, label)| option(format!("h:{value}"), label))
        .collect();
    let mut scenarios = vec![option(
        OPEN_BATTLE.into(),
        format!(
            "An open battle: to army collapse, or a draw after {} turns (K-14)",
            cat.tables.army.turn_limit
        ),
    )];
    scenarios.extend(cat.scenarios.iter().map(|s| {
        option(
            s.id.clone(),
            format!(
                "{}: the book's sample battle, {} turns at most",
                s.name, s.turn_limit
            ),
        )
    }));
    Ok(BattleChoices {
        mine,
        historical,
        historical_label: "The sample battles' forces".into(),
        scenarios,
        roles: vec![
            option(
                "given".into(),
                "The first force attacks (a sample battle: as the book says)".into(),
            ),
            option(
                "roll".into(),
                "Roll a d6 each for the attack (open battle, K-49)".into(),
            ),
        ],
    })
}

/// A stored All the King's Men set-up.
pub fn setup_of(row: &BattleRow) -> Result<BattleSetup, app::Error> {
    Atkm::parse_setup(&row.setup)
        .map_err(|e| app::Error::internal(format!("stored battle {} does not parse: {e}", row.id)))
}

/// A stored result, if the battle has one.
fn result_of(row: &BattleRow) -> Option<Outcome> {
    row.result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
}

pub async fn set_up(
    ctx: &app::Context,
    actor: &Actor,
    request: BattleRequest,
) -> Result<BattleRow, app::Error> {
    let scenario = match request.scenario.as_deref() {
        None | Some("") => None,
        Some(s) if s == OPEN_BATTLE || ctx.rules.atkm.scenario(s).is_some() => Some(s.to_string()),
        Some(_) => {
            return Err(records::invalid(
                "scenario",
                "Choose an open battle or one of the book's three sample battles from the list.",
            ))
        }
    };
    let first = records::load_force(ctx, actor, SystemId::Atkm, &request.first).await?;
    let second = records::load_force(ctx, actor, SystemId::Atkm, &request.second).await?;
    let first_player =
        records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second_player =
        records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    records::create(
        ctx,
        actor,
        NewBattleRequest {
            system: SystemId::Atkm,
            first,
            second,
            first_player,
            second_player,
            scenario,
            roll_roles: request.roll_roles,
        },
    )
    .await
}

// ---------- the battle page ----------

pub struct UnitLine {
    pub name: String,
    /// "Infantry · 12 privates, officer and ensign · collapses at 4".
    pub profile: String,
    /// How it ended, once the battle is decided.
    pub end: String,
}

pub struct GeneralLine {
    /// "Daniel Morgan (commanding, rating 2)".
    pub name: String,
    pub fate: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side_id: &'static str,
    pub force: String,
    pub player: String,
    /// "7 units; the army collapses with 3 or fewer left (K-16)".
    pub summary: String,
    pub units: Vec<UnitLine>,
    pub generals: Vec<GeneralLine>,
}

#[derive(Template)]
#[template(path = "systems/atkm/battles/outcome.html")]
struct OutcomePart {
    headline: String,
    arithmetic: Vec<String>,
}

#[derive(Template)]
#[template(path = "systems/atkm/battles/details.html")]
struct DetailsPart {
    battle_id: i64,
    sides: Vec<SideView>,
    rolls: Vec<String>,
    printable: bool,
}

fn role(side: BattleSide) -> (&'static str, &'static str) {
    match side {
        BattleSide::Attacker => ("Attacker", "attacker"),
        BattleSide::Defender => ("Defender", "defender"),
    }
}

/// What a unit is, in the game's words.
pub fn profile_words(cat: &Catalogue, u: &TableUnit) -> String {
    let p = &u.profile;
    let command = match (p.officer, p.ensign) {
        (true, true) => ", officer and ensign",
        (true, false) => ", officer, no ensign",
        (false, true) => ", ensign, no officer",
        (false, false) => ", neither officer nor ensign",
    };
    let mut words = format!(
        "{} · {} {}{command} · collapses at {}",
        p.unit_type.label(),
        p.rank_and_file,
        cat.unit(p.unit_type).men,
        p.break_point
    );
    if u.doc.arrives == "reinforcement" {
        words.push_str(" · arrives later");
    }
    words
}

/// How a unit ended, in words.
fn end_words(u: &UnitResult) -> String {
    if !u.arrived {
        return "never arrived".into();
    }
    let mut words = vec![format!(
        "{} of {} left",
        u.rank_and_file_end, u.rank_and_file_start
    )];
    if u.officer_lost {
        words.push("officer lost".into());
    }
    if u.ensign_lost {
        words.push("colours taken".into());
    }
    if u.left_table {
        words.push("marched off the north edge".into());
    }
    if u.collapsed {
        words.push(if u.gun_lost {
            "collapsed, its gun destroyed".into()
        } else {
            "collapsed".into()
        });
    }
    words.join(" · ")
}

fn level_words(level: &str) -> &'static str {
    match level {
        "major" => "a major victory",
        "minor" => "a minor victory",
        "draw" => "a draw",
        _ => "a victory",
    }
}

/// The outcome in one line: who won and how clearly.
pub fn headline(setup: &BattleSetup, o: &Outcome) -> String {
    match o.winner {
        Some(side) => format!(
            "{} wins: {}",
            setup.force(side).roster.name,
            level_words(&o.level)
        ),
        None => "A draw".into(),
    }
}

/// Why: the victory rule that decided it, and each army's count against its collapse point
/// (K-16).
pub fn arithmetic(o: &Outcome) -> Vec<String> {
    let mut lines = vec![format!(
        "After {} turn{}: {}.",
        o.turns_played,
        if o.turns_played == 1 { "" } else { "s" },
        o.reason
    )];
    for s in [&o.attacker, &o.defender] {
        lines.push(format!(
            "{}: {} of {} units left; it collapses with {} or fewer{}.",
            s.name,
            s.remaining_units,
            s.starting_units,
            s.starting_units / 2,
            if s.army_collapsed {
                " — it collapsed"
            } else {
                ""
            }
        ));
    }
    lines
}

fn general_name(g: &crate::rules::systems::atkm::GeneralDoc, rating: u32) -> String {
    let role = if g.role == "commanding" {
        "commanding"
    } else {
        "lieutenant"
    };
    let name = if g.name.trim().is_empty() {
        "General"
    } else {
        g.name.as_str()
    };
    format!("{name} ({role}, rating {rating})")
}

fn side_summary(force: &ForceSetup, units: usize, reinforcements: usize) -> String {
    let starting = units - reinforcements;
    let later = if reinforcements > 0 {
        format!(" and {reinforcements} arriving later")
    } else {
        String::new()
    };
    format!(
        "{} · {starting} units{later}; the army collapses with {} or fewer left (K-16)",
        force.roster.name,
        starting / 2
    )
}

pub fn view(
    state: &AppState,
    row: &BattleRow,
    players: &Players,
    printable: bool,
) -> Result<BattleView, AppError> {
    let cat = &state.app.rules.atkm;
    let setup = setup_of(row)?;
    let result = result_of(row);
    let all = units(cat, &setup);
    let leaders = generals(&setup);
    let mut sides = Vec::new();
    for side in SIDES {
        let (role, side_id) = role(side);
        let force = setup.force(side);
        let ended = result.as_ref().map(|o| o.side(side));
        let mine: Vec<&TableUnit> = all.iter().filter(|u| u.side == side).collect();
        let later = mine
            .iter()
            .filter(|u| u.doc.arrives == "reinforcement")
            .count();
        let units = mine
            .iter()
            .map(|u| UnitLine {
                name: u.name(),
                profile: profile_words(cat, u),
                end: ended
                    .and_then(|r| r.units.iter().find(|e| e.id == u.id()))
                    .map(end_words)
                    .unwrap_or_default(),
            })
            .collect();
        let generals = leaders
            .iter()
            .filter(|(s, _, _, _)| *s == side)
            .map(|(_, _, g, start)| {
                let id = g.id.clone().unwrap_or_default();
                let fate = ended
                    .and_then(|r| r.generals.iter().find(|e| e.id == id))
                    .map(|e| {
                        if e.rating_end < e.rating_start {
                            format!(
                                "rating fell from {} to {} (General Casualties)",
                                e.rating_start, e.rating_end
                            )
                        } else {
                            "rating unchanged".to_string()
                        }
                    })
                    .unwrap_or_default();
                GeneralLine {
                    name: general_name(g, *start),
                    fate,
                }
            })
            .collect();
        sides.push(SideView {
            role,
            side_id,
            force: force.roster.name.clone(),
            player: match side {
                BattleSide::Attacker => players.attacker.clone(),
                BattleSide::Defender => players.defender.clone(),
            },
            summary: side_summary(force, mine.len(), later),
            units,
            generals,
        });
    }
    let outcome = match &result {
        Some(o) => OutcomePart {
            headline: headline(&setup, o),
            arithmetic: arithmetic(o),
        }
        .render()?,
        None => String::new(),
    };
    let rolls: Vec<String> = serde_json::from_str(&row.rolls).unwrap_or_default();
    let details = DetailsPart {
        battle_id: row.id,
        sides,
        rolls,
        printable,
    }
    .render()?;
    Ok(BattleView {
        scenario: scenario_name(cat, &setup),
        outcome,
        details,
    })
}

/// The scenario as the pages name it.
pub fn scenario_name(cat: &Catalogue, setup: &BattleSetup) -> String {
    cat.scenario(&setup.scenario)
        .map_or_else(|| "An open battle".to_string(), |s| s.name.clone())
}

// ---------- recording a result from the table ----------

pub struct RecordUnit {
    pub key: String,
    pub name: String,
    pub profile: String,
    pub rank_and_file: u32,
    pub lost: String,
    pub officer: bool,
    pub ensign: bool,
    pub officer_lost: bool,
    pub ensign_lost: bool,
    pub collapsed: bool,
    /// Monmouth's British only: a box for marching off the north edge.
    pub may_leave: bool,
    pub left_table: bool,
}

pub struct RecordGeneral {
    pub key: String,
    pub name: String,
    /// (rating, chosen) from his start down to 1.
    pub ratings: Vec<(u32, bool)>,
}

pub struct RecordSide {
    pub role: &'static str,
    /// Its units may march off the table (Monmouth's British, K-39).
    pub marching: bool,
    pub force: String,
    pub units: Vec<RecordUnit>,
    pub generals: Vec<RecordGeneral>,
}

#[derive(Template)]
#[template(path = "systems/atkm/battles/record.html")]
struct RecordFields {
    scenario: String,
    max_turns: u32,
    turns: String,
    monmouth: bool,
    main_army: String,
    north_point: bool,
    edge: bool,
    sides: Vec<RecordSide>,
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn ticked(fields: &[(String, String)], key: &str) -> bool {
    field(fields, key).is_some_and(|v| !v.is_empty() && v != "0")
}

/// A unit's key in the form: `a_u1`, `d_u3`.
fn form_key(u: &TableUnit) -> String {
    format!("{}_{}", side_key(u.side), u.id())
}

fn general_key(side: BattleSide, g: &crate::rules::systems::atkm::GeneralDoc) -> String {
    format!("{}_{}", side_key(side), g.id.clone().unwrap_or_default())
}

pub fn record_form(
    state: &AppState,
    row: &BattleRow,
    fields: &[(String, String)],
) -> Result<String, AppError> {
    let cat = &state.app.rules.atkm;
    let setup = setup_of(row)?;
    let all = units(cat, &setup);
    let leaders = generals(&setup);
    let sides = SIDES
        .iter()
        .map(|side| {
            let (role, _) = role(*side);
            RecordSide {
                role,
                marching: setup.scenario == MONMOUTH && *side == BattleSide::Attacker,
                force: setup.force(*side).roster.name.clone(),
                units: all
                    .iter()
                    .filter(|u| u.side == *side)
                    .map(|u| {
                        let key = form_key(u);
                        RecordUnit {
                            name: u.name(),
                            profile: profile_words(cat, u),
                            rank_and_file: u.profile.rank_and_file,
                            lost: field(fields, &format!("lost_{key}"))
                                .unwrap_or("0")
                                .to_string(),
                            officer: u.profile.officer,
                            ensign: u.profile.ensign,
                            officer_lost: ticked(fields, &format!("officer_{key}")),
                            ensign_lost: ticked(fields, &format!("ensign_{key}")),
                            collapsed: ticked(fields, &format!("collapsed_{key}")),
                            may_leave: setup.scenario == MONMOUTH && u.side == BattleSide::Attacker,
                            left_table: ticked(fields, &format!("off_{key}")),
                            key,
                        }
                    })
                    .collect(),
                generals: leaders
                    .iter()
                    .filter(|(s, _, _, _)| s == side)
                    .map(|(_, _, g, start)| {
                        let key = general_key(*side, g);
                        let now = field(fields, &format!("rating_{key}"))
                            .and_then(|v| v.parse::<u32>().ok())
                            .unwrap_or(*start);
                        RecordGeneral {
                            name: general_name(g, *start),
                            ratings: (1..=*start).rev().map(|r| (r, r == now)).collect(),
                            key,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(RecordFields {
        scenario: scenario_name(cat, &setup),
        max_turns: setup.turns,
        turns: field(fields, "turns").unwrap_or("").to_string(),
        monmouth: setup.scenario == MONMOUTH,
        main_army: field(fields, "main_army").unwrap_or("").to_string(),
        north_point: setup.scenario == NORTH_POINT,
        edge: ticked(fields, "edge"),
        sides,
    }
    .render()?)
}

/// The record form's fields from a tabletop report, as [`record_form`] names them.
pub fn fields_of_report(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Vec<(String, String)> {
    let mut fields = vec![("turns".to_string(), report.turns_played.to_string())];
    if let Some(t) = report.reinforcements_arrived_turn {
        fields.push(("main_army".into(), t.to_string()));
    }
    if report.edge_reached {
        fields.push(("edge".into(), "1".into()));
    }
    for u in units(cat, setup) {
        let given = match u.side {
            BattleSide::Attacker => &report.attacker,
            BattleSide::Defender => &report.defender,
        };
        let Some(r) = given.units.iter().find(|r| r.id == u.id()) else {
            continue;
        };
        let key = form_key(&u);
        let left = r.rank_and_file_end.unwrap_or(u.profile.rank_and_file);
        fields.push((
            format!("lost_{key}"),
            u.profile.rank_and_file.saturating_sub(left).to_string(),
        ));
        for (flag, name) in [
            (r.officer_lost, "officer"),
            (r.ensign_lost, "ensign"),
            (r.collapsed, "collapsed"),
            (r.left_table, "off"),
        ] {
            if flag {
                fields.push((format!("{name}_{key}"), "1".into()));
            }
        }
    }
    for (side, _, g, _) in generals(setup) {
        let given = match side {
            BattleSide::Attacker => &report.attacker,
            BattleSide::Defender => &report.defender,
        };
        let id = g.id.clone().unwrap_or_default();
        if let Some(r) = given.generals.iter().find(|r| r.id == id) {
            fields.push((
                format!("rating_{}", general_key(side, g)),
                r.rating_end.to_string(),
            ));
        }
    }
    fields
}

/// The record form's fields as a recorded result filled them in, so that a correction starts
/// from it. Empty for a battle not recorded from the table. (The turn Monmouth's Main Army
/// arrived is not kept in a result: a correction gives the last turn played, which decides the
/// same, K-39.)
pub fn record_fields_of(recorded: &BattleRow) -> Vec<(String, String)> {
    let Some(o) = result_of(recorded).filter(|o| o.method == Method::Tabletop) else {
        return Vec::new();
    };
    let mut fields = vec![("turns".to_string(), o.turns_played.to_string())];
    if o.scenario == MONMOUTH && o.defender.units.iter().all(|u| u.arrived) {
        // Every unit counted, the Main Army among them: it came (K-39).
        fields.push(("main_army".into(), o.turns_played.to_string()));
    }
    if o.scenario == NORTH_POINT
        && o.winner == Some(BattleSide::Attacker)
        && o.reason.contains("K-40")
    {
        fields.push(("edge".into(), "1".into()));
    }
    for side in SIDES {
        for u in &o.side(side).units {
            let key = format!("{}_{}", side_key(side), u.id);
            let lost = u.rank_and_file_start.saturating_sub(u.rank_and_file_end);
            if lost > 0 {
                fields.push((format!("lost_{key}"), lost.to_string()));
            }
            for (flag, name) in [
                (u.officer_lost, "officer"),
                (u.ensign_lost, "ensign"),
                (u.collapsed, "collapsed"),
                (u.left_table, "off"),
            ] {
                if flag {
                    fields.push((format!("{name}_{key}"), "1".into()));
                }
            }
        }
        for g in &o.side(side).generals {
            fields.push((
                format!("rating_{}_{}", side_key(side), g.id),
                g.rating_end.to_string(),
            ));
        }
    }
    fields
}

fn whole(
    fields: &[(String, String)],
    key: &str,
    low: u32,
    high: u32,
    what: &str,
    problems: &mut Vec<ErrorDetail>,
) -> Option<u32> {
    let text = field(fields, key).unwrap_or("").trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(n) if (low..=high).contains(&n) => Some(n),
        _ => {
            problems.push(ErrorDetail {
                field: Some(key.to_string()),
                message: format!("{what} is a whole number from {low} to {high}."),
            });
            None
        }
    }
}

/// Reads the record form into the rules core's report; each wrong entry is named by its field
/// and its unit or general.
fn read_report(
    cat: &Catalogue,
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<ErrorDetail>> {
    let mut problems = Vec::new();
    let turns = whole(
        fields,
        "turns",
        1,
        setup.turns,
        "Turns played",
        &mut problems,
    );
    if turns.is_none() && problems.is_empty() {
        problems.push(ErrorDetail {
            field: Some("turns".into()),
            message: format!("Say how many turns were played, 1 to {}.", setup.turns),
        });
    }
    let mut report = TabletopReport {
        turns_played: turns.unwrap_or(0),
        edge_reached: setup.scenario == NORTH_POINT && ticked(fields, "edge"),
        ..TabletopReport::default()
    };
    if setup.scenario == MONMOUTH {
        report.reinforcements_arrived_turn = whole(
            fields,
            "main_army",
            1,
            setup.turns,
            "The turn the Main Army arrived",
            &mut problems,
        );
    }
    for u in units(cat, setup) {
        let key = form_key(&u);
        let has = u.profile.rank_and_file;
        let lost = whole(
            fields,
            &format!("lost_{key}"),
            0,
            has,
            &format!("Rank and file lost by {}", u.name()),
            &mut problems,
        )
        .unwrap_or(0);
        let entry = record::UnitReport {
            id: u.id(),
            rank_and_file_end: Some(has - lost),
            officer_lost: u.profile.officer && ticked(fields, &format!("officer_{key}")),
            ensign_lost: u.profile.ensign && ticked(fields, &format!("ensign_{key}")),
            collapsed: ticked(fields, &format!("collapsed_{key}")),
            left_table: setup.scenario == MONMOUTH
                && u.side == BattleSide::Attacker
                && ticked(fields, &format!("off_{key}")),
            not_arrived: false,
        };
        if lost > 0
            || entry.officer_lost
            || entry.ensign_lost
            || entry.collapsed
            || entry.left_table
        {
            match u.side {
                BattleSide::Attacker => report.attacker.units.push(entry),
                BattleSide::Defender => report.defender.units.push(entry),
            }
        }
    }
    for (side, _, g, start) in generals(setup) {
        let key = format!("rating_{}", general_key(side, g));
        let what = format!("{}'s rating after casualties", general_name(g, start));
        if let Some(now) = whole(fields, &key, 1, start, &what, &mut problems) {
            if now < start {
                let given = GeneralReport {
                    id: g.id.clone().unwrap_or_default(),
                    rating_end: now,
                };
                match side {
                    BattleSide::Attacker => report.attacker.generals.push(given),
                    BattleSide::Defender => report.defender.generals.push(given),
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems)
    }
}

fn details(problems: Vec<crate::rules::system::RecordProblem>) -> Vec<ErrorDetail> {
    problems
        .into_iter()
        .map(|p| ErrorDetail {
            field: Some(p.field),
            message: p.message,
        })
        .collect()
}

/// What the entries add up to, in words, without saving them.
fn preview(cat: &Catalogue, setup: &BattleSetup, report: &TabletopReport) -> RecordAnswer {
    RecordAnswer::Checked(match record::assess(cat, setup, report) {
        Ok(o) => {
            let mut words = vec![format!("{}.", headline(setup, &o))];
            words.extend(arithmetic(&o));
            Ok(words.join(" "))
        }
        Err(problems) => Err(details(problems)),
    })
}

pub async fn record(
    ctx: &app::Context,
    actor: &Actor,
    row: &BattleRow,
    version: i32,
    entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    let report = match entry {
        RecordEntry::Form { fields, check_only } => {
            let cat = &ctx.rules.atkm;
            let setup = setup_of(row)?;
            match read_report(cat, &setup, fields) {
                Ok(report) if check_only => return Ok(preview(cat, &setup, &report)),
                Ok(report) => serde_json::to_value(&report).map_err(app::Error::internal)?,
                Err(problems) => return Ok(RecordAnswer::Refused(problems)),
            }
        }
        RecordEntry::Json(report) => report,
    };
    Ok(
        match records::record_result(ctx, actor, row, version, &report).await? {
            Ok(saved) => RecordAnswer::Saved(Box::new(saved)),
            Err(problems) => RecordAnswer::Refused(details(problems)),
        },
    )
}

// ---------- the set-up document and a side at the table ----------

pub fn pack(row: &BattleRow) -> Result<String, AppError> {
    Ok(Atkm::write_setup(&setup_of(row)?))
}

/// One side's roster sheet or unit cards as it stood at the start of the battle.
pub async fn at_the_table(
    req: &HttpRequest,
    row: &BattleRow,
    side: &str,
    kind: &str,
) -> Result<HttpResponse, AppError> {
    let ctx = PageCtx::extract(req).await?;
    let state = crate::web::state::state_of(req)?;
    let setup = setup_of(row)?;
    let side = match side {
        "attacker" => BattleSide::Attacker,
        "defender" => BattleSide::Defender,
        _ => return Err(AppError::NotFound),
    };
    let query = super::print::PrintQuery::from_query(req.query_string())?;
    let action = req.path().to_string();
    super::print::print_force(
        &state.app.rules.atkm,
        ctx,
        &setup.force(side).roster,
        kind,
        &query,
        action,
    )
}
