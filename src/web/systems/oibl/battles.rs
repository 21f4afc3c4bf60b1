//! One if by Land battles on the generic battle pages: the set-up choices and setting a battle
//! up (two orders of battle or the example brigades, `oibl:example:<key>`; an open field or a
//! defended line, rolled when none is chosen, B-51; who attacks as given or rolled; every
//! commander's missing rating rolled, B-8; the seed stored), the battle page's parts (both orders
//! of battle with each commander's X, what was rolled, how each unit and commander ended and
//! Muster's victory arithmetic, B-34/B-35), recording a result from the table in the game's own
//! terms (figures and guns lost, routed, off the table; commanders wounded or killed; turns
//! played; the players' own result or Muster's rule), the set-up document and a side's roster
//! sheet or cards for the table. A stored battle is fought through the generic `Systems::fight`
//! arm; the table state and the pack are in `table.rs`.

use actix_web::web;
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::app::battles::{self as records, NewBattleRequest};
use crate::app::rosters as roster_store;
use crate::app::{self, Actor, ErrorDetail};
use crate::rules::system::{BattleSide, Method, RuleSystem};
use crate::rules::systems::oibl::battle::{
    Fate, Level, Outcome, SideResult, UnitResult, SCENARIOS,
};
use crate::rules::systems::oibl::record::{
    self, CommanderReport, PlayersResult, TabletopReport, UnitReport, PLAYERS_DECIDED,
};
use crate::rules::systems::oibl::system::{example_forces, OIBL_PREFIX};
use crate::rules::systems::oibl::table::{
    beaten_at, commanders, side_key, units, TableCommander, TableUnit, FATES, SIDES,
};
use crate::rules::systems::oibl::types::Kind;
use crate::rules::systems::oibl::{BattleSetup, Catalogue, Oibl};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::battles::{
    form_field as field, form_ticked as ticked, problem_details, record_entry, BattleChoices,
    BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

// ---------- setting a battle up ----------

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let cat = &state.app.rules.oibl;
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let option = |value: String, label: String| SelectOption { value, label };
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Oibl.id())
        .map(|r| option(format!("r:{}", r.id), r.name.clone()))
        .collect();
    let historical = example_forces()
        .into_iter()
        .filter(|(value, _)| !value.ends_with(":empty"))
        // `h:oibl:example:…`: `h:example:…` alone would be read as another system's.
        .map(|(value, label)| option(format!("h:{OIBL_PREFIX}{value}"), label))
        .collect();
    let scenarios = SCENARIOS
        .iter()
        .map(|(id, words)| {
            option(
                (*id).to_string(),
                format!("{words}; {} turns (Muster's B-35, B-51)", cat.victory.turns),
            )
        })
        .collect();
    Ok(BattleChoices {
        mine,
        historical,
        historical_label: "Example brigades".into(),
        scenarios,
        roles: vec![
            option("given".into(), "The first force attacks".into()),
            option("roll".into(), "Roll a d6 each for the attack (B-51)".into()),
        ],
    })
}

/// A stored One if by Land set-up.
pub fn setup_of(row: &BattleRow) -> Result<BattleSetup, app::Error> {
    Oibl::parse_setup(&row.setup)
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
        Some(s) if SCENARIOS.iter().any(|(id, _)| *id == s) => Some(s.to_string()),
        Some(_) => {
            return Err(records::invalid(
                "scenario",
                "Choose an open field or a defended line from the list (B-51).",
            ))
        }
    };
    let first = records::load_force(ctx, actor, SystemId::Oibl, &request.first).await?;
    let second = records::load_force(ctx, actor, SystemId::Oibl, &request.second).await?;
    let first_player =
        records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second_player =
        records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    records::create(
        ctx,
        actor,
        NewBattleRequest {
            system: SystemId::Oibl,
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
    pub brigade: String,
    /// "Continental infantry, veteran (Morale Number 8) · 6 stands, 18 figures · musket 7"".
    pub profile: String,
    /// How it ended, once the battle is decided.
    pub end: String,
}

pub struct CommanderView {
    /// "Howard (Howard's Continentals, X 1)".
    pub name: String,
    pub fate: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side_id: &'static str,
    pub force: String,
    pub player: String,
    /// "5 units, 62 figures; beaten with 3 units lost (B-34)".
    pub summary: String,
    pub units: Vec<UnitLine>,
    pub commanders: Vec<CommanderView>,
}

#[derive(Template)]
#[template(path = "systems/oibl/battles/outcome.html")]
struct OutcomePart {
    headline: String,
    arithmetic: Vec<String>,
    players: bool,
}

#[derive(Template)]
#[template(path = "systems/oibl/battles/details.html")]
struct DetailsPart {
    battle_id: i64,
    sides: Vec<SideView>,
    rolls: Vec<String>,
    /// A simulated battle's narration.
    log: Vec<String>,
    printable: bool,
}

/// A side's role and id as the pages name them.
pub fn role(side: BattleSide) -> (&'static str, &'static str) {
    match side {
        BattleSide::Attacker => ("Attacker", "attacker"),
        BattleSide::Defender => ("Defender", "defender"),
    }
}

/// What a unit is, in the game's words.
pub fn profile_words(cat: &Catalogue, u: &TableUnit) -> String {
    let s = &u.stats;
    let quality = cat.quality(s.quality).name.to_lowercase();
    let size = if s.kind == Kind::Artillery {
        let gun = s
            .gun
            .map(|g| cat.gun(g).name.to_lowercase())
            .unwrap_or_default();
        format!("{} × {gun}, {} crew figures", s.guns, s.figures)
    } else {
        format!(
            "{} stand{}, {} figures",
            s.stands,
            if s.stands == 1 { "" } else { "s" },
            s.figures
        )
    };
    let weapon = cat
        .weapon(&s.weapon)
        .map_or_else(|| s.weapon.clone(), |w| w.name.to_lowercase());
    format!(
        "{}, {quality} (Morale Number {}) · {size} · {weapon} {}\"",
        s.class_name, s.morale_number, s.range
    )
}

/// The brigade a unit belongs to, as its roster names it.
fn brigade_name(setup: &BattleSetup, u: &TableUnit) -> String {
    setup
        .side(u.side)
        .roster
        .brigades
        .get(u.brigade)
        .map(|b| {
            if b.name.trim().is_empty() {
                format!("Brigade {}", u.brigade + 1)
            } else {
                b.name.clone()
            }
        })
        .unwrap_or_default()
}

/// A commander as the pages name him: "Howard (Howard's Continentals, X 1)".
pub fn commander_name(c: &TableCommander) -> String {
    let name = if c.line.name.trim().is_empty() {
        "Commander"
    } else {
        c.line.name.as_str()
    };
    format!("{name} ({}, X {})", c.line.command, c.line.rating)
}

/// How a unit ended, in words.
pub fn end_words(u: &UnitResult) -> String {
    let mut words = vec![format!(
        "{} of {} figures left",
        u.start_figures.saturating_sub(u.figures_lost),
        u.start_figures
    )];
    if u.guns_lost > 0 {
        words.push(format!(
            "{} gun{} lost",
            u.guns_lost,
            if u.guns_lost == 1 { "" } else { "s" }
        ));
    }
    if u.destroyed {
        words.push("destroyed (B-33)".into());
    }
    if u.left_table {
        words.push("off the table".into());
    }
    if u.routed {
        words.push("routing".into());
    }
    words.join(" · ")
}

fn level_words(level: Level) -> &'static str {
    match level {
        Level::Decisive => "a decisive victory (B-34)",
        Level::Marginal => "a marginal victory (B-35)",
        Level::Draw => "a draw",
    }
}

/// Whether the players decided the result themselves (a scenario's objectives, spec 5.5).
fn players_decided(o: &Outcome) -> bool {
    o.method == Method::Tabletop && o.reason == PLAYERS_DECIDED
}

/// The outcome in one line: who won and how clearly.
pub fn headline(setup: &BattleSetup, o: &Outcome) -> String {
    match o.winner {
        Some(side) if players_decided(o) => format!(
            "{} wins, by the players' own result",
            setup.side(side).roster.name
        ),
        Some(side) => format!(
            "{} wins: {}",
            setup.side(side).roster.name,
            level_words(o.level)
        ),
        None => "A draw".into(),
    }
}

fn side_line(cat: &Catalogue, s: &SideResult) -> String {
    let start = s.start_figures();
    let lost = s.figures_lost();
    let share = if start == 0 {
        0.0
    } else {
        f64::from(lost) * 100.0 / f64::from(start)
    };
    let guns = s.guns_lost();
    format!(
        "{}: {} of {} units lost (routing, destroyed or off the table; beaten at {}, B-34){}; {lost} of {start} figures lost ({share:.1} %){}.",
        s.name,
        s.lost_units(),
        s.start_units(),
        beaten_at(cat, s.start_units()),
        if s.defeated { " — beaten" } else { "" },
        if guns > 0 {
            format!("; {guns} gun{} lost", if guns == 1 { "" } else { "s" })
        } else {
            String::new()
        }
    )
}

/// Why: the rule that decided it, and each army's units and figures lost against it.
pub fn arithmetic(cat: &Catalogue, o: &Outcome) -> Vec<String> {
    let mut lines = vec![format!(
        "After {} turn{}: {}",
        o.turns,
        if o.turns == 1 { "" } else { "s" },
        o.reason
    )];
    lines.push(side_line(cat, &o.attacker));
    lines.push(side_line(cat, &o.defender));
    lines
}

fn result_side(o: &Outcome, side: BattleSide) -> &SideResult {
    match side {
        BattleSide::Attacker => &o.attacker,
        BattleSide::Defender => &o.defender,
    }
}

/// What a side starts with, and when it is beaten (B-34).
fn side_summary(cat: &Catalogue, units: &[&TableUnit]) -> String {
    let n = u32::try_from(units.len()).unwrap_or(u32::MAX);
    let figures: u32 = units.iter().map(|u| u.stats.figures).sum();
    let guns: u32 = units.iter().map(|u| u.stats.guns).sum();
    format!(
        "{n} unit{}, {figures} figures{}; beaten with {} unit{} lost at a turn's end (B-34)",
        if n == 1 { "" } else { "s" },
        if guns > 0 {
            format!(" and {guns} gun{}", if guns == 1 { "" } else { "s" })
        } else {
            String::new()
        },
        beaten_at(cat, n),
        if beaten_at(cat, n) == 1 { "" } else { "s" }
    )
}

pub fn view(
    state: &AppState,
    row: &BattleRow,
    players: &Players,
    printable: bool,
) -> Result<BattleView, AppError> {
    let cat = &state.app.rules.oibl;
    let setup = setup_of(row)?;
    let result = result_of(row);
    let all = units(cat, &setup);
    let leaders = commanders(&setup);
    let mut sides = Vec::new();
    for (side, player) in [
        (BattleSide::Attacker, &players.attacker),
        (BattleSide::Defender, &players.defender),
    ] {
        let (role, side_id) = role(side);
        let mine: Vec<&TableUnit> = all.iter().filter(|u| u.side == side).collect();
        let ended = result.as_ref().map(|o| result_side(o, side));
        let units = mine
            .iter()
            .map(|u| UnitLine {
                name: u.stats.name.clone(),
                brigade: brigade_name(&setup, u),
                profile: profile_words(cat, u),
                end: ended
                    .and_then(|r| r.units.iter().find(|e| e.id == u.stats.id))
                    .map(end_words)
                    .unwrap_or_default(),
            })
            .collect();
        let commanders = leaders
            .iter()
            .filter(|c| c.side == side)
            .map(|c| CommanderView {
                name: commander_name(c),
                fate: ended
                    .and_then(|r| r.commanders.iter().find(|e| e.id == c.line.id))
                    .map(|e| e.fate.words().to_string())
                    .unwrap_or_default(),
            })
            .collect();
        sides.push(SideView {
            role,
            side_id,
            force: setup.side(side).roster.name.clone(),
            player: player.clone(),
            summary: side_summary(cat, &mine),
            units,
            commanders,
        });
    }
    let outcome = match &result {
        Some(o) => OutcomePart {
            headline: headline(&setup, o),
            arithmetic: arithmetic(cat, o),
            players: players_decided(o),
        }
        .render()?,
        None => String::new(),
    };
    let rolls: Vec<String> = serde_json::from_str(&row.rolls).unwrap_or_default();
    let details = DetailsPart {
        battle_id: row.id,
        sides,
        rolls,
        log: result.map(|o| o.log).unwrap_or_default(),
        printable,
    }
    .render()?;
    Ok(BattleView {
        scenario: scenario_name(&setup),
        outcome,
        details,
    })
}

/// The scenario as the pages name it.
pub fn scenario_name(setup: &BattleSetup) -> String {
    SCENARIOS
        .iter()
        .find(|(id, _)| *id == setup.scenario)
        .map_or_else(
            || "An open field".to_string(),
            |(_, words)| {
                words
                    .split_once(':')
                    .map_or(*words, |(name, _)| name)
                    .to_string()
            },
        )
}

// ---------- recording a result from the table ----------

pub struct RecordUnit {
    pub key: String,
    pub name: String,
    pub profile: String,
    pub figures: u32,
    pub lost: String,
    /// A battery: how many guns, and how many were lost.
    pub guns: u32,
    pub guns_lost: String,
    pub routed: bool,
    pub left_table: bool,
}

pub struct RecordCommander {
    pub key: String,
    pub name: String,
    /// (value, words, chosen).
    pub fates: Vec<(&'static str, &'static str, bool)>,
}

pub struct RecordSide {
    pub role: &'static str,
    pub force: String,
    pub units: Vec<RecordUnit>,
    pub commanders: Vec<RecordCommander>,
}

#[derive(Template)]
#[template(path = "systems/oibl/battles/record.html")]
struct RecordFields {
    scenario: String,
    turns_limit: u32,
    turns: String,
    sides: Vec<RecordSide>,
    /// (value, words, chosen).
    results: Vec<(&'static str, String, bool)>,
}

/// A table key (`a.u1`) as the record form names it (`a_u1`).
pub fn form_key(table_key: &str) -> String {
    table_key.replacen('.', "_", 1)
}

/// The most turns a record may give: Muster's game is 12 (B-35), a scenario may run longer.
const MAX_TURNS: u32 = 99;

/// A commander's fate as the form sends it.
fn fate_value(f: Fate) -> &'static str {
    match f {
        Fate::Unhurt => "unhurt",
        Fate::LightWound => "light_wound",
        Fate::SeriousWound => "serious_wound",
        Fate::Killed => "killed",
    }
}

pub fn record_form(
    state: &AppState,
    row: &BattleRow,
    fields: &[(String, String)],
) -> Result<String, AppError> {
    let cat = &state.app.rules.oibl;
    let setup = setup_of(row)?;
    let all = units(cat, &setup);
    let leaders = commanders(&setup);
    let sides = SIDES
        .iter()
        .map(|side| {
            let (role, _) = role(*side);
            RecordSide {
                role,
                force: setup.side(*side).roster.name.clone(),
                units: all
                    .iter()
                    .filter(|u| u.side == *side)
                    .map(|u| {
                        let key = form_key(&u.key);
                        RecordUnit {
                            name: u.stats.name.clone(),
                            profile: profile_words(cat, u),
                            figures: u.stats.figures,
                            lost: field(fields, &format!("lost_{key}"))
                                .unwrap_or("0")
                                .to_string(),
                            guns: u.stats.guns,
                            guns_lost: field(fields, &format!("guns_{key}"))
                                .unwrap_or("0")
                                .to_string(),
                            routed: ticked(fields, &format!("routed_{key}")),
                            left_table: ticked(fields, &format!("off_{key}")),
                            key,
                        }
                    })
                    .collect(),
                commanders: leaders
                    .iter()
                    .filter(|c| c.side == *side)
                    .map(|c| {
                        let key = form_key(&c.key);
                        let now = field(fields, &format!("fate_{key}")).unwrap_or("unhurt");
                        RecordCommander {
                            name: commander_name(c),
                            fates: FATES
                                .iter()
                                .map(|f| {
                                    let v = fate_value(*f);
                                    (v, f.words(), v == now)
                                })
                                .collect(),
                            key,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let chosen = field(fields, "result").unwrap_or("");
    let results = [
        ("", "Muster's rule decides (B-34, B-35)".to_string()),
        (
            "attacker",
            format!(
                "{} won by the scenario's objectives",
                setup.attacker.roster.name
            ),
        ),
        (
            "defender",
            format!(
                "{} won by the scenario's objectives",
                setup.defender.roster.name
            ),
        ),
        ("draw", "A draw by the scenario's objectives".to_string()),
    ]
    .into_iter()
    .map(|(v, words)| (v, words, v == chosen))
    .collect();
    Ok(RecordFields {
        scenario: scenario_name(&setup),
        turns_limit: setup.turns,
        turns: field(fields, "turns").unwrap_or("").to_string(),
        sides,
        results,
    }
    .render()?)
}

/// The record form's fields from a tabletop report, as [`record_form`] names them.
pub fn fields_of_report(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Vec<(String, String)> {
    let mut fields = vec![("turns".to_string(), report.turns.to_string())];
    for u in units(cat, setup) {
        let given = match u.side {
            BattleSide::Attacker => &report.attacker,
            BattleSide::Defender => &report.defender,
        };
        let Some(r) = given.units.iter().find(|r| r.id == u.stats.id) else {
            continue;
        };
        unit_fields(
            &mut fields,
            &form_key(&u.key),
            r.figures_lost,
            r.guns_lost,
            r.routed,
            r.left_table,
        );
    }
    for c in commanders(setup) {
        let given = match c.side {
            BattleSide::Attacker => &report.attacker,
            BattleSide::Defender => &report.defender,
        };
        if let Some(r) = given.commanders.iter().find(|r| r.id == c.line.id) {
            fields.push((
                format!("fate_{}", form_key(&c.key)),
                fate_value(r.fate).to_string(),
            ));
        }
    }
    fields
}

fn unit_fields(
    fields: &mut Vec<(String, String)>,
    key: &str,
    lost: u32,
    guns: u32,
    routed: bool,
    left_table: bool,
) {
    fields.push((format!("lost_{key}"), lost.to_string()));
    if guns > 0 {
        fields.push((format!("guns_{key}"), guns.to_string()));
    }
    if routed {
        fields.push((format!("routed_{key}"), "1".into()));
    }
    if left_table {
        fields.push((format!("off_{key}"), "1".into()));
    }
}

/// The record form's fields as a recorded result filled them in, so that a correction starts
/// from it. Empty for a battle not recorded from the table.
pub fn record_fields_of(recorded: &BattleRow) -> Vec<(String, String)> {
    let Some(o) = result_of(recorded).filter(|o| o.method == Method::Tabletop) else {
        return Vec::new();
    };
    let mut fields = vec![("turns".to_string(), o.turns.to_string())];
    if players_decided(&o) {
        let value = match o.winner {
            Some(side) => side.id(),
            None => "draw",
        };
        fields.push(("result".into(), value.into()));
    }
    for side in SIDES {
        let r = result_side(&o, side);
        for u in &r.units {
            let key = format!("{}_{}", side_key(side), u.id);
            unit_fields(
                &mut fields,
                &key,
                u.figures_lost,
                u.guns_lost,
                u.routed,
                u.left_table,
            );
        }
        for c in r.commanders.iter().filter(|c| c.fate != Fate::Unhurt) {
            fields.push((
                format!("fate_{}_{}", side_key(side), c.id),
                fate_value(c.fate).to_string(),
            ));
        }
    }
    fields
}

fn whole(
    fields: &[(String, String)],
    key: &str,
    high: u32,
    what: &str,
    problems: &mut Vec<ErrorDetail>,
) -> Option<u32> {
    let text = field(fields, key).unwrap_or("").trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(n) if n <= high => Some(n),
        _ => {
            problems.push(ErrorDetail {
                field: Some(key.to_string()),
                message: format!("{what} is a whole number from 0 to {high}."),
            });
            None
        }
    }
}

/// Reads the record form into the rules core's report; each wrong entry is named by its field
/// and its unit or commander.
fn read_report(
    cat: &Catalogue,
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<ErrorDetail>> {
    let mut problems = Vec::new();
    let turns_problem = ErrorDetail {
        field: Some("turns".into()),
        message: format!(
            "Say how many turns were played: 1 to {MAX_TURNS} (Muster's game is {}, B-35).",
            setup.turns
        ),
    };
    let turns = match field(fields, "turns").unwrap_or("").trim().parse::<u32>() {
        Ok(n) if (1..=MAX_TURNS).contains(&n) => n,
        _ => {
            problems.push(turns_problem);
            0
        }
    };
    let result = match field(fields, "result").unwrap_or("") {
        "" => None,
        "attacker" => Some(PlayersResult {
            winner: Some(BattleSide::Attacker),
        }),
        "defender" => Some(PlayersResult {
            winner: Some(BattleSide::Defender),
        }),
        "draw" => Some(PlayersResult { winner: None }),
        _ => {
            problems.push(ErrorDetail {
                field: Some("result".into()),
                message: "Choose who won from the list, or leave it to Muster's rule.".into(),
            });
            None
        }
    };
    let mut report = TabletopReport {
        turns,
        result,
        ..TabletopReport::default()
    };
    for u in units(cat, setup) {
        let key = form_key(&u.key);
        let name = &u.stats.name;
        let lost = whole(
            fields,
            &format!("lost_{key}"),
            u.stats.figures,
            &format!(
                "{} lost by {name}",
                if u.stats.kind == Kind::Artillery {
                    "Crew figures"
                } else {
                    "Figures"
                }
            ),
            &mut problems,
        )
        .unwrap_or(0);
        let guns_lost = if u.stats.kind == Kind::Artillery {
            whole(
                fields,
                &format!("guns_{key}"),
                u.stats.guns,
                &format!("Guns lost by {name}"),
                &mut problems,
            )
            .unwrap_or(0)
        } else {
            0
        };
        let entry = UnitReport {
            id: u.stats.id.clone(),
            figures_lost: lost,
            routed: ticked(fields, &format!("routed_{key}")),
            left_table: ticked(fields, &format!("off_{key}")),
            destroyed: false,
            guns_lost,
        };
        if entry.figures_lost > 0 || entry.guns_lost > 0 || entry.routed || entry.left_table {
            match u.side {
                BattleSide::Attacker => report.attacker.units.push(entry),
                BattleSide::Defender => report.defender.units.push(entry),
            }
        }
    }
    for c in commanders(setup) {
        let key = format!("fate_{}", form_key(&c.key));
        let fate = match field(fields, &key).unwrap_or("unhurt") {
            "" | "unhurt" => Fate::Unhurt,
            "light_wound" => Fate::LightWound,
            "serious_wound" => Fate::SeriousWound,
            "killed" => Fate::Killed,
            _ => {
                problems.push(ErrorDetail {
                    field: Some(key),
                    message: format!("Choose what befell {} from the list.", commander_name(&c)),
                });
                continue;
            }
        };
        if fate != Fate::Unhurt {
            let given = CommanderReport {
                id: c.line.id.clone(),
                fate,
            };
            match c.side {
                BattleSide::Attacker => report.attacker.commanders.push(given),
                BattleSide::Defender => report.defender.commanders.push(given),
            }
        }
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems)
    }
}

/// What the entries add up to, in words, without saving them.
fn preview(cat: &Catalogue, setup: &BattleSetup, report: &TabletopReport) -> RecordAnswer {
    RecordAnswer::Checked(match record::assess(cat, setup, report) {
        Ok(o) => {
            let mut words = vec![format!("{}.", headline(setup, &o))];
            words.extend(arithmetic(cat, &o));
            Ok(words.join(" "))
        }
        Err(problems) => Err(problem_details(problems)),
    })
}

pub async fn record(
    ctx: &app::Context,
    actor: &Actor,
    row: &BattleRow,
    version: i32,
    entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    let cat = &ctx.rules.oibl;
    let setup = setup_of(row)?;
    record_entry(
        ctx,
        actor,
        row,
        version,
        entry,
        |fields| read_report(cat, &setup, fields),
        |report| preview(cat, &setup, report),
    )
    .await
}

// ---------- the set-up document and a side at the table ----------

pub fn pack(row: &BattleRow) -> Result<String, AppError> {
    Ok(Oibl::write_setup(&setup_of(row)?))
}

/// One side's roster sheet or unit cards as it stood at the start of the battle, with every
/// commander's rating as rolled (B-8).
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
    super::print::pages::print_force(
        &state,
        ctx,
        &setup.side(side).roster,
        None,
        kind,
        &query,
        action,
    )
}
