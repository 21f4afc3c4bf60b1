//! What the generic battle pages and API exchange with a rule system's battle hooks
//! ([`SystemPages`]'s `// Battles` block): the set-up choices, the parts of a battle page a system
//! fills in, and a result entered from the table. The generic handlers own the addresses, the
//! record's status and the page frame.

use std::future::Future;
use std::pin::Pin;

use crate::app::battles as records;
use crate::app::ErrorDetail;
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::SelectOption;
use crate::web::state::AppState;
use crate::web::systems::{pages_for, SystemPages};
use crate::web::AppError;

/// A hook's answer that needs the database first. Pages run on one thread, so it need not be
/// `Send`.
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// What the set-up form offers for a system.
#[derive(Default)]
pub struct BattleChoices {
    /// The user's own rosters.
    pub mine: Vec<SelectOption>,
    /// Ready-made forces: historical orders of battle, or example armies.
    pub historical: Vec<SelectOption>,
    /// What the ready-made forces are called on the form; empty: historical orders of battle.
    pub historical_label: String,
    pub scenarios: Vec<SelectOption>,
    /// How the attacker is chosen.
    pub roles: Vec<SelectOption>,
}

/// A battle to set up, as the form or the API sent it; the system reads the forces and the
/// scenario.
pub struct BattleRequest {
    /// `r:<roster id>` or a system's own force value (`h:...`).
    pub first: String,
    pub second: String,
    /// Empty for the actor, an email of a Muster user, or a guest's name.
    pub first_player: String,
    pub second_player: String,
    /// A scenario id; `None` to roll for it.
    pub scenario: Option<String>,
    pub roll_roles: bool,
}

/// The system's parts of a battle page; the generic frame adds the status and the actions.
pub struct BattleView {
    /// The scenario as the system names it.
    pub scenario: String,
    /// HTML shown above the actions: how the battle ended, once it has.
    pub outcome: String,
    /// HTML shown below the actions: the sides, what was rolled before, how it went.
    pub details: String,
}

/// The players' names, attacker first, as the generic page found them.
pub struct Players {
    pub attacker: String,
    pub defender: String,
}

/// A result entered from the table.
pub enum RecordEntry<'a> {
    /// The record form's fields; `check_only` shows what they add up to and saves nothing.
    Form {
        fields: &'a [(String, String)],
        check_only: bool,
    },
    /// The API's `report` object.
    Json(serde_json::Value),
}

/// What became of a result entered from the table.
pub enum RecordAnswer {
    Saved(Box<BattleRow>),
    /// Checked only: what it would be, or why it cannot be right.
    Checked(Result<String, Vec<ErrorDetail>>),
    /// Unreadable or impossible entries, each named; nothing was saved.
    Refused(Vec<ErrorDetail>),
}

/// The pages of the rule system a stored battle plays by. A battle of a system this build does
/// not serve is refused in words, never a panic.
pub fn pages_of(row: &BattleRow) -> Result<&'static dyn SystemPages, AppError> {
    let system = SystemId::from_id(&row.rule_system).ok_or_else(|| {
        AppError::Conflict(format!(
            "This battle is played by the rule system '{}', which this version of Muster does \
             not know.",
            row.rule_system
        ))
    })?;
    served(system)
}

/// A battle's size in its system's own measure ("600 points", "124 figures", "12 units"), or
/// nothing when the system gives it none.
pub fn size_words(state: &AppState, row: &BattleRow) -> String {
    if row.points <= 0 {
        return String::new();
    }
    let unit = SystemId::from_id(&row.rule_system)
        .and_then(|id| state.app.rules.forces(id))
        .map_or("points", |f| f.battle_size().unit);
    format!("{} {unit}", row.points)
}

/// The pages of `system`, or a refusal naming it when this build does not serve it.
pub fn served(system: SystemId) -> Result<&'static dyn SystemPages, AppError> {
    pages_for(system).ok_or_else(|| {
        AppError::Conflict(format!(
            "Muster does not serve battles of {} yet.",
            system.label()
        ))
    })
}

/// Sets a battle up, for the page and the API alike: two forces of one rule system (a mix is
/// refused before either force is read), set up by that system.
pub async fn set_up_battle(
    state: &AppState,
    user: &SignedInUser,
    request: BattleRequest,
) -> Result<BattleRow, AppError> {
    let actor = user.actor();
    if request.first == OPEN_SIDE || request.second == OPEN_SIDE {
        return set_up_open_battle(state, &actor, request).await;
    }
    let system =
        records::system_of_forces(&state.app, &actor, &request.first, &request.second).await?;
    let pages = served(system)?;
    Ok(pages.set_up_battle(&state.app, &actor, request).await?)
}

/// The force value that leaves a side open for its player to bring their own roster.
pub const OPEN_SIDE: &str = "open";

/// Sets a battle up with one side open: the other force decides the rule system (which must be
/// served); the invited player attaches their roster later, and the set-up is made then.
async fn set_up_open_battle(
    state: &AppState,
    actor: &crate::app::Actor,
    request: BattleRequest,
) -> Result<BattleRow, AppError> {
    let ctx = &state.app;
    let mine_first = request.second == OPEN_SIDE;
    let mine = if mine_first {
        &request.first
    } else {
        &request.second
    };
    if mine == OPEN_SIDE {
        return Err(records::invalid(
            "second",
            "Only one side can be left open: choose your own force for the other.",
        )
        .into());
    }
    let system = records::system_of_force(ctx, actor, mine).await?;
    served(system)?;
    let force = records::load_force(ctx, actor, system, mine).await?;
    let first = records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second = records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    let (mine_player, theirs) = if mine_first {
        (first, second)
    } else {
        (second, first)
    };
    let scenario = request.scenario.filter(|s| !s.is_empty());
    Ok(records::club_night::create_open(
        ctx,
        actor,
        records::club_night::OpenBattleRequest {
            system,
            mine: force,
            mine_first,
            my_player: mine_player,
            their_player: theirs,
            scenario,
            roll_roles: request.roll_roles,
        },
    )
    .await?)
}

/// The rules core's record problems as the form's and the API's error details, each naming its
/// field.
pub fn problem_details(problems: Vec<crate::rules::system::RecordProblem>) -> Vec<ErrorDetail> {
    problems
        .into_iter()
        .map(|p| ErrorDetail {
            field: Some(p.field),
            message: p.message,
        })
        .collect()
}

/// A result entered from the table, as a system's `record` hook answers it: the form's fields
/// are read into the system's own report by `read` (or refused, each entry named), only checked
/// by `preview` when asked, or saved; the API's report is saved as sent. The rules core decides
/// the outcome when it is saved.
pub async fn record_entry<R: serde::Serialize>(
    ctx: &crate::app::Context,
    actor: &crate::app::Actor,
    row: &BattleRow,
    version: i32,
    entry: RecordEntry<'_>,
    read: impl FnOnce(&[(String, String)]) -> Result<R, Vec<ErrorDetail>>,
    preview: impl FnOnce(&R) -> RecordAnswer,
) -> Result<RecordAnswer, crate::app::Error> {
    let report = match entry {
        RecordEntry::Form { fields, check_only } => match read(fields) {
            Ok(report) if check_only => return Ok(preview(&report)),
            Ok(report) => serde_json::to_value(&report).map_err(crate::app::Error::internal)?,
            Err(problems) => return Ok(RecordAnswer::Refused(problems)),
        },
        RecordEntry::Json(report) => report,
    };
    Ok(
        match records::record_result(ctx, actor, row, version, &report).await? {
            Ok(saved) => RecordAnswer::Saved(Box::new(saved)),
            Err(problems) => RecordAnswer::Refused(problem_details(problems)),
        },
    )
}

/// A record form's field by its name, as the form sent it.
pub fn form_field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A record form's tick box: sent, and neither empty nor `0`.
pub fn form_ticked(fields: &[(String, String)], key: &str) -> bool {
    form_field(fields, key).is_some_and(|v| !v.is_empty() && v != "0")
}
