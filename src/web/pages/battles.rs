//! Battles as records: set up, fight or record, confirm or dispute, report, history.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::battle_record::{side_of, winner_of, RecordStatus, WinDrawLoss};
use crate::app::battles as records;
use crate::rules::system::BattleSide;
use crate::rules::Systems;
use crate::store::battles::{BattleListing, BattleRow, ListingOrder, ListingQuery};
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::listing::{ListCut, ListParams, Pager};
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::battles::{
    pages_of, set_up_battle, size_words, BattleChoices, BattleRequest, BattleView, Players,
    RecordAnswer, RecordEntry,
};
use crate::web::systems::REGISTRY;
use crate::web::AppError;

fn status_label(s: &str) -> &'static str {
    RecordStatus::from_id(s).map_or("Unknown", RecordStatus::label)
}

/// A record's status as `user` should read it: a provisional result someone else recorded waits
/// for this user, not for "the other player" (issue 18).
fn status_for(status: &str, recorded_by: Option<i64>, user: Option<i64>) -> &'static str {
    if status == RecordStatus::Provisional.id() && user.is_some() && recorded_by != user {
        "Result recorded: waiting for you to confirm or dispute it"
    } else {
        status_label(status)
    }
}

// ---------- list and set up ----------

pub struct BattleLine {
    pub id: i64,
    pub title: String,
    pub scenario: String,
    pub status: &'static str,
    pub result: String,
    pub date: String,
}

#[derive(Template)]
#[template(path = "battles/list.html")]
struct ListPage {
    ctx: PageCtx,
    battles: Vec<BattleLine>,
    invitations: Vec<InvitationLine>,
    /// Battles whose other player asked for the engine, waiting for the viewer's answer.
    engine_requests: Vec<InvitationLine>,
    record: WinDrawLoss,
    /// The search box's text.
    search: String,
    /// `newest` or `title`.
    sort: &'static str,
    /// The sort headers' links, in that order (value: the link; label: the sort).
    sort_links: Vec<SelectOption>,
    pager: Pager,
    /// The list in the same order without the search.
    show_all: String,
    /// Where the set-up form posts: the list's search, order and page kept for a form that
    /// comes back with errors.
    set_up_action: String,
    mine: Vec<SelectOption>,
    historical: Vec<SelectOption>,
    historical_label: String,
    scenarios: Vec<SelectOption>,
    roles: Vec<SelectOption>,
    /// The served systems, and the one whose forces the form offers.
    systems: Vec<SelectOption>,
    form: SetUpForm,
    errors: FormErrors,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SetUpForm {
    pub first: String,
    pub second: String,
    pub first_player: String,
    pub second_player: String,
    pub scenario: String,
    pub roles: String,
    /// The rule system whose forces the form offers; empty: the first served.
    pub system: String,
}

fn result_text(row: &BattleListing) -> String {
    match (winner_of(row), row.attacker_vp, row.defender_vp) {
        (Some(Some(BattleSide::Attacker)), Some(a), Some(d)) => format!("Attacker wins {a}:{d}"),
        (Some(Some(BattleSide::Defender)), Some(a), Some(d)) => format!("Defender wins {d}:{a}"),
        (Some(None), Some(a), Some(d)) => format!("Tie {a}:{d}"),
        _ => "—".into(),
    }
}

pub fn lines(rules: &Systems, rows: &[BattleListing]) -> Vec<BattleLine> {
    rows.iter()
        .map(|r| BattleLine {
            id: r.id,
            title: r.title.clone(),
            scenario: rules.scenario_name(&r.scenario),
            status: status_label(&r.status),
            result: result_text(r),
            date: r.created_at.format("%Y-%m-%d").to_string(),
        })
        .collect()
}

/// How a battle's line reads for `user` while it has an invitation that is not accepted.
fn invitation_status(row: &BattleListing, user: i64) -> Option<&'static str> {
    let invitation = records::Invitation::of(row)?;
    match invitation.state {
        records::InvitationState::Pending if invitation.invitee(row) == Some(user) => {
            Some("Invitation: waiting for your answer")
        }
        records::InvitationState::Pending => {
            Some("Invitation sent: waiting for the other player to accept")
        }
        records::InvitationState::Declined => Some("Invitation declined"),
        records::InvitationState::Accepted => None,
    }
}

/// The lines of `user`'s battle list.
fn lines_for(rules: &Systems, rows: &[BattleListing], user: i64) -> Vec<BattleLine> {
    let mut out = lines(rules, rows);
    for (line, row) in out.iter_mut().zip(rows) {
        line.status = status_for(&row.status, row.recorded_by, Some(user));
        if let Some(status) = invitation_status(row, user) {
            line.status = status;
        }
    }
    out
}

/// A battle another player invites the viewer to, waiting for an answer.
pub struct InvitationLine {
    pub id: i64,
    pub version: i32,
    pub inviter: String,
    pub title: String,
    /// The viewer's side is open: they answer by attaching one of their rosters.
    pub open: bool,
}

/// The invitations waiting for the viewer (as `records::listing` found them), with who sent
/// each.
async fn invitation_lines(
    state: &AppState,
    rows: &[BattleListing],
    open: &[i64],
) -> Result<Vec<InvitationLine>, AppError> {
    let mut out = Vec::new();
    for row in rows {
        out.push(InvitationLine {
            id: row.id,
            version: row.version,
            inviter: records::player_name(&state.app, Some(row.created_by), None).await?,
            title: row.title.clone(),
            open: open.contains(&row.id),
        });
    }
    Ok(out)
}

/// Battles whose other player asked for the engine, waiting for the viewer's answer; `inviter`
/// is the player who asked.
async fn engine_request_lines(
    state: &AppState,
    rows: &[BattleListing],
    user: i64,
) -> Result<Vec<InvitationLine>, AppError> {
    let mut out = Vec::new();
    for row in rows {
        let other = if row.attacker_user_id == Some(user) {
            row.defender_user_id
        } else {
            row.attacker_user_id
        };
        out.push(InvitationLine {
            id: row.id,
            version: row.version,
            inviter: records::player_name(&state.app, other, None).await?,
            title: row.title.clone(),
            open: false,
        });
    }
    Ok(out)
}

/// Battles on one page of the list.
const BATTLES_PER_PAGE: i64 = 50;

/// The battle list's sorts, its own order first.
const SORTS: [&str; 2] = ["newest", "title"];

fn listing_order(cut: &ListCut) -> ListingOrder {
    match cut.sort {
        "title" => ListingOrder::Title,
        _ => ListingOrder::Newest,
    }
}

async fn list_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    cut: ListCut,
    form: SetUpForm,
    errors: FormErrors,
) -> Result<HttpResponse, AppError> {
    let uid = user.id;
    let list = records::listing(
        &state.app,
        &user.actor(),
        ListingQuery {
            search: cut.search(),
            order: listing_order(&cut),
            page: cut.page - 1,
            per_page: BATTLES_PER_PAGE,
        },
    )
    .await?;
    // One system's choices at a time, so a player sees only forces that can meet; the forces
    // chosen still decide the battle's system.
    let chosen = REGISTRY
        .iter()
        .copied()
        .find(|s| s.id().id() == form.system)
        .or_else(|| REGISTRY.first().copied());
    let choices = match chosen {
        Some(system) => system.battle_choices(state, user).await?,
        None => BattleChoices::default(),
    };
    let mut form = form;
    form.system = chosen.map(|s| s.id().id().to_string()).unwrap_or_default();
    if form.first.is_empty() && form.second.is_empty() {
        // Two different forces to start from (issue 18: both sides used to start on the first).
        let mut offered = choices.mine.iter().chain(choices.historical.iter());
        form.first = offered.next().map(|c| c.value.clone()).unwrap_or_default();
        form.second = offered.next().map(|c| c.value.clone()).unwrap_or_default();
    }
    let systems = REGISTRY
        .iter()
        .map(|s| SelectOption {
            value: s.id().id().to_string(),
            label: s.id().label().to_string(),
        })
        .collect();
    let waiting =
        records::club_night::waiting(&state.app, &user.actor(), &list.invitations).await?;
    // This page's battles whose side waits for a roster read so in the list.
    let open_here = records::club_night::waiting(&state.app, &user.actor(), &list.battles)
        .await?
        .open_sides;
    let mut battles = lines_for(&state.app.rules, &list.battles, uid);
    for (line, row) in battles.iter_mut().zip(&list.battles) {
        if open_here.contains(&row.id) {
            line.status = if row.created_by == uid {
                "Open side: waiting for the other player's roster"
            } else {
                "Open side: waiting for your roster"
            };
        }
    }
    let status_code = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    // The list's links keep the system whose forces the form below offers, unless it is the
    // one offered anyway.
    let default_system = REGISTRY.first().map(|s| s.id().id());
    let system = if Some(form.system.as_str()) == default_system {
        String::new()
    } else {
        form.system.clone()
    };
    let href = |sort: &str, page: i64| cut.link("/battles", &[("system", &system)], sort, page);
    let sort_links = crate::web::listing::sort_options(&SORTS, href);
    let pager = Pager::new(&cut, BATTLES_PER_PAGE, list.total, |page| {
        href(cut.sort, page)
    });
    render_with_status(
        &ListPage {
            ctx,
            record: list.record,
            battles,
            invitations: invitation_lines(state, &list.invitations, &waiting.open_sides).await?,
            engine_requests: engine_request_lines(state, &waiting.engine_requests, uid).await?,
            search: cut.search.clone(),
            sort: cut.sort,
            sort_links,
            pager,
            show_all: ListCut::first_page(&SORTS).link(
                "/battles",
                &[("system", &system)],
                cut.sort,
                1,
            ),
            set_up_action: cut.link("/battles", &[], cut.sort, cut.page),
            mine: choices.mine,
            historical: choices.historical,
            historical_label: if choices.historical_label.is_empty() {
                "Historical orders of battle".into()
            } else {
                choices.historical_label
            },
            scenarios: choices.scenarios,
            systems,
            roles: choices.roles,
            form,
            errors,
        },
        status_code,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListQuery {
    /// The rule system whose forces the set-up form offers.
    pub system: String,
    /// The search (part of a battle's title), the sort (`newest` or `title`) and the page.
    #[serde(flatten)]
    pub list: ListParams,
}

pub async fn list(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, AppError> {
    let query = query.into_inner();
    let cut = query.list.cut(&SORTS);
    let form = SetUpForm {
        system: query.system,
        ..SetUpForm::default()
    };
    list_page(&state, &user, ctx, cut, form, FormErrors::default()).await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<ListQuery>,
    CsrfForm(form): CsrfForm<SetUpForm>,
) -> Result<HttpResponse, AppError> {
    // A form that comes back with errors shows the list as it was when the form was sent.
    let cut = query.list.cut(&SORTS);
    let request = BattleRequest {
        first: form.first.clone(),
        second: form.second.clone(),
        first_player: form.first_player.clone(),
        second_player: form.second_player.clone(),
        scenario: Some(form.scenario.clone()),
        roll_roles: form.roles == "roll",
    };
    match set_up_battle(&state, &user, request).await {
        Ok(row) => Ok(redirect(&format!("/battles/{}", row.id))),
        Err(AppError::Validation { details, .. }) => {
            let mut errors = FormErrors::default();
            for d in details {
                errors.add(d.field.as_deref().unwrap_or(""), d.message);
            }
            list_page(&state, &user, ctx, cut, form, errors).await
        }
        Err(AppError::BadRequest { message, .. } | AppError::Conflict(message)) => {
            let mut errors = FormErrors::default();
            errors.general.push(message);
            list_page(&state, &user, ctx, cut, form, errors).await
        }
        Err(e) => Err(e),
    }
}

// ---------- the battle page ----------

#[derive(Template)]
#[template(path = "battles/show.html")]
struct BattlePage {
    ctx: PageCtx,
    row: BattleRow,
    /// The battle's size in its system's measure.
    size: String,
    status: &'static str,
    view: BattleView,
    can_fight: bool,
    can_confirm: bool,
    can_dispute: bool,
    can_correct: bool,
    is_player: bool,
    public_url: Option<String>,
    shared: bool,
    invitation: InvitationView,
    /// The viewer set up this battle against a guest and it is not fought yet: they may delete it.
    deletable: bool,
    /// Why the player's last action on the page was refused (the page shows the battle as it
    /// now stands under it), and what they wrote or chose, kept (the dispute comment, or the
    /// roster they chose to attach).
    problem: String,
    comment: String,
    /// Bring your own roster and consent before the engine decides (issue 19).
    club: ClubNightView,
}

/// What the battle page shows of an open side and of a request for the engine, for the viewer.
#[derive(Default)]
struct ClubNightView {
    /// That side still waits for a roster (so there is no set-up yet).
    waiting: bool,
    /// The viewer may attach one of these rosters of theirs to it.
    can_attach: bool,
    rosters: Vec<SelectOption>,
    /// The viewer attached the roster and may withdraw it (the side is open again).
    can_withdraw_roster: bool,
    /// The viewer set the battle up with an open side and may withdraw it until it is fought.
    can_withdraw_battle: bool,
    /// The engine fights only when both players agree.
    needs_consent: bool,
    /// The viewer asked for the engine and waits for the other player.
    asked_by_me: bool,
    /// The other player asked for the engine: the viewer accepts or declines.
    asked_by_other: Option<String>,
}

/// What the battle page says about an invitation on one of its sides, for the viewer.
#[derive(Default)]
struct InvitationView {
    /// The viewer sent it and it waits for an answer.
    waiting: bool,
    /// The viewer sent it and it was declined.
    declined: bool,
    /// The viewer is invited, by this player.
    invited_by: Option<String>,
}

impl InvitationView {
    fn can_withdraw(&self) -> bool {
        self.waiting || self.declined
    }
}

/// The battle page for `viewer` (a player's, or the public report when `shared`).
async fn battle_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    row: BattleRow,
    viewer: Option<&SignedInUser>,
    shared: bool,
    public_url: Option<String>,
) -> Result<BattlePage, AppError> {
    let pages = pages_of(&row)?;
    let (attacker, defender) = records::player_names(&state.app, &row).await?;
    let players = Players { attacker, defender };
    let me = viewer.map(|u| u.id);
    let is_player = me.is_some_and(|id| side_of(&row, id).is_some());
    let invitation = match (records::Invitation::of(&row), me) {
        (Some(i), Some(me)) if !shared => {
            let sent = row.created_by == me;
            InvitationView {
                waiting: sent && i.state == records::InvitationState::Pending,
                declined: sent && i.state == records::InvitationState::Declined,
                invited_by: if i.invitee(&row) == Some(me) {
                    Some(records::player_name(&state.app, Some(row.created_by), None).await?)
                } else {
                    None
                },
            }
        }
        _ => InvitationView::default(),
    };
    let settled = records::Invitation::of(&row).is_none_or(|i| i.settled());
    let club = match viewer {
        Some(user) if !shared => club_night_view(state, &row, user, is_player).await?,
        _ => ClubNightView::default(),
    };
    let view = if club.waiting {
        // No set-up until the roster comes: nothing of the system's to show yet.
        BattleView {
            scenario: if row.scenario.is_empty() {
                "Scenario rolled when the roster is attached".into()
            } else {
                state.app.rules.scenario_name(&row.scenario)
            },
            outcome: String::new(),
            details: String::new(),
        }
    } else {
        pages.battle_view(state, &row, &players, is_player && !shared)?
    };
    let page = BattlePage {
        ctx,
        size: size_words(state, &row),
        status: if is_player && !shared {
            status_for(&row.status, row.recorded_by, me)
        } else {
            status_label(&row.status)
        },
        view,
        can_fight: is_player && row.status == RecordStatus::SetUp.id() && settled && !shared,
        can_confirm: is_player
            && row.status == RecordStatus::Provisional.id()
            && row.recorded_by != me
            && !shared,
        can_dispute: is_player && row.status == RecordStatus::Provisional.id() && !shared,
        can_correct: row.campaign_id.is_none()
            && is_player
            && row.method.as_deref() == Some("tabletop")
            && (row.status == RecordStatus::Confirmed.id()
                || row.status == RecordStatus::Disputed.id())
            && !shared,
        is_player: is_player && !shared,
        public_url,
        shared,
        invitation,
        deletable: !shared && me == Some(row.created_by) && records::guest_battle_not_fought(&row),
        row,
        problem: String::new(),
        comment: String::new(),
        club,
    };
    Ok(page)
}

/// The open side and the request for the engine as `user` sees them.
async fn club_night_view(
    state: &web::Data<AppState>,
    row: &BattleRow,
    user: &SignedInUser,
    is_player: bool,
) -> Result<ClubNightView, AppError> {
    let app = &state.app;
    let set_up = row.status == RecordStatus::SetUp.id();
    let open = records::club_night::open_side(app, row.id).await?;
    let invitation = records::Invitation::of(row);
    let invited = invitation.and_then(|i| i.invitee(row)) == Some(user.id);
    let mut view = ClubNightView {
        waiting: open.as_ref().is_some_and(|o| o.waiting),
        needs_consent: records::club_night::needs_consent(row),
        ..ClubNightView::default()
    };
    if let Some(open) = &open {
        view.can_attach = open.waiting && invited;
        if view.can_attach {
            view.rosters = pages_of(row)?.battle_choices(state, user).await?.mine;
        }
        let attached_by = invitation
            .filter(|i| i.state == records::InvitationState::Accepted)
            .and_then(|i| match i.side {
                BattleSide::Attacker => row.attacker_user_id,
                BattleSide::Defender => row.defender_user_id,
            });
        view.can_withdraw_roster = !open.waiting && set_up && attached_by == Some(user.id);
        view.can_withdraw_battle = set_up && row.created_by == user.id;
    }
    if is_player && set_up && view.needs_consent {
        match records::club_night::engine_requested_by(app, row.id).await? {
            Some(by) if by == user.id => view.asked_by_me = true,
            Some(by) => {
                view.asked_by_other = Some(records::player_name(app, Some(by), None).await?)
            }
            None => {}
        }
    }
    Ok(view)
}

/// A player's action from the battle page: done, back to the page; refused because the battle
/// is not (or no longer) in a state that allows it, or the form was incomplete, the page again
/// as the battle now stands, saying why (a double click, or a page left open while the other
/// player acted, lands here instead of on an error page).
async fn on_battle<F, Fut>(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    user: &SignedInUser,
    id: i64,
    comment: &str,
    act: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(BattleRow) -> Fut,
    Fut: std::future::Future<Output = Result<String, app::Error>>,
{
    let row = records::load_for(&state.app, &user.actor(), id).await?;
    let (problem, status) = match act(row).await {
        Ok(to) => return Ok(redirect(&to)),
        Err(app::Error::Conflict(m)) => (m, StatusCode::CONFLICT),
        Err(app::Error::Validation { details, message }) => (
            details
                .into_iter()
                .map(|d| d.message)
                .next()
                .unwrap_or(message),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(e) => return Err(e.into()),
    };
    let row = records::load_for(&state.app, &user.actor(), id).await?;
    let mut page = battle_page(state, ctx, row, Some(user), false, None).await?;
    page.problem = problem;
    page.comment = comment.to_string();
    render_with_status(&page, status)
}

pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let public_url = row
        .public_token
        .as_ref()
        .map(|t| state.absolute_url(&req, &format!("/battles/public/{t}")));
    render(&battle_page(&state, ctx, row, Some(&user), false, public_url).await?)
}

pub async fn public(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let row = records::public(&state.app, token.into_inner()).await?;
    render(&battle_page(&state, ctx, row, None, true, None).await?)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ActionForm {
    pub version: i32,
    pub comment: String,
}

pub async fn fight(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        let row = records::simulate(app, &actor, &row, form.version).await?;
        Ok(format!("/battles/{}", row.id))
    })
    .await
}

pub async fn confirm(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        let row = records::confirm(app, &actor, &row, form.version).await?;
        Ok(format!("/battles/{}", row.id))
    })
    .await
}

pub async fn dispute(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    let comment = form.comment.clone();
    on_battle(
        &state,
        ctx,
        &user,
        id.into_inner(),
        &comment,
        |row| async move {
            let row = records::dispute(app, &actor, &row, form.version, &form.comment).await?;
            Ok(format!("/battles/{}", row.id))
        },
    )
    .await
}

pub async fn correct(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        let new = records::correct(app, &actor, &row, form.version).await?;
        Ok(format!("/battles/{}/record", new.id))
    })
    .await
}

pub async fn publish(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    records::publish(&state.app, &user.actor(), &row).await?;
    Ok(redirect(&format!("/battles/{}", row.id)))
}

// ---------- invitations ----------

pub async fn accept(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        let row = records::accept(app, &actor, &row, form.version).await?;
        Ok(format!("/battles/{}", row.id))
    })
    .await
}

pub async fn decline(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    records::decline(&state.app, &user.actor(), &row, form.version).await?;
    // The battle is no longer theirs to see.
    Ok(redirect("/battles"))
}

pub async fn withdraw(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        records::withdraw(app, &actor, &row).await?;
        Ok("/battles".to_string())
    })
    .await
}

// ---------- bring your own roster, consent before the engine decides ----------

/// Why a battle whose open side waits for a roster has nothing to print or replay.
pub const NO_SET_UP_YET: &str =
    "This battle is not set up yet: its open side waits for its player's roster.";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AttachForm {
    pub version: i32,
    /// `r:<roster id>`: one of the player's rosters.
    pub roster: String,
}

pub async fn attach(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<AttachForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    let picked = form.roster.clone();
    on_battle(
        &state,
        ctx,
        &user,
        id.into_inner(),
        &picked,
        |row| async move {
            let row =
                records::club_night::attach(app, &actor, &row, form.version, &form.roster).await?;
            Ok(format!("/battles/{}", row.id))
        },
    )
    .await
}

pub async fn withdraw_roster(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id.into_inner(), "", |row| async move {
        let row = records::club_night::withdraw_roster(app, &actor, &row, form.version).await?;
        Ok(format!("/battles/{}", row.id))
    })
    .await
}

/// A step on asking for the engine, from the battle page: `ask`, `accept`, `decline` or
/// `withdraw`.
pub async fn engine(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, step) = path.into_inner();
    let (app, actor) = (&state.app, user.actor());
    on_battle(&state, ctx, &user, id, "", |row| async move {
        use records::club_night as club;
        let row = match step.as_str() {
            "ask" => club::ask_engine(app, &actor, &row, form.version).await?,
            "accept" => club::accept_engine(app, &actor, &row, form.version).await?,
            "decline" => club::decline_engine(app, &actor, &row, form.version).await?,
            "withdraw" => club::withdraw_engine(app, &actor, &row, form.version).await?,
            _ => return Err(app::Error::NotFound),
        };
        Ok(format!("/battles/{}", row.id))
    })
    .await
}

// ---------- recording a tabletop result ----------

#[derive(Template)]
#[template(path = "battles/record.html")]
struct RecordPage {
    ctx: PageCtx,
    row: BattleRow,
    /// The system's fields, as HTML.
    fields: String,
    problems: Vec<String>,
    /// What the entries add up to, shown before saving ("Check the result").
    preview: Option<String>,
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn record_page(
    state: &AppState,
    ctx: PageCtx,
    row: BattleRow,
    fields: &[(String, String)],
    problems: Vec<String>,
) -> Result<RecordPage, AppError> {
    let fields = pages_of(&row)?.record_form(state, &row, fields)?;
    Ok(RecordPage {
        ctx,
        fields,
        problems,
        preview: None,
        row,
    })
}

pub async fn record_form(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    // Not fought yet, or waiting for an invitation's answer: the battle page says which.
    let settled = records::Invitation::of(&row).is_none_or(|i| i.settled());
    if row.status != RecordStatus::SetUp.id() || !settled {
        return Ok(redirect(&format!("/battles/{}", row.id)));
    }
    // A correction starts from the result it corrects.
    let fields = match row.replaces_id {
        Some(old) => {
            let recorded = records::load_for(&state.app, &user.actor(), old).await?;
            pages_of(&row)?.record_fields_of(&recorded)
        }
        None => Vec::new(),
    };
    render(&record_page(&state, ctx, row, &fields, Vec::new())?)
}

fn messages(details: Vec<crate::app::ErrorDetail>) -> Vec<String> {
    details.into_iter().map(|d| d.message).collect()
}

/// A result sent for a battle that has one already (a form sent again from the history, or the
/// other player recorded first): the battle page as it stands, saying that nothing was saved.
async fn already_recorded(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    user: &SignedInUser,
    row: BattleRow,
) -> Result<HttpResponse, AppError> {
    let mut page = battle_page(state, ctx, row, Some(user), false, None).await?;
    page.problem = "This battle already has a result, shown below, so the one you sent was not \
                    saved."
        .to_string();
    render_with_status(&page, StatusCode::CONFLICT)
}

pub async fn record(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    if row.status != RecordStatus::SetUp.id() {
        return already_recorded(&state, ctx, &user, row).await;
    }
    if row.setup.is_empty() {
        // An open side waiting for its roster: nothing to record against yet.
        return Ok(redirect(&format!("/battles/{}", row.id)));
    }
    let pages = pages_of(&row)?;
    let version: i32 = field(&fields, "version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let entry = RecordEntry::Form {
        fields: &fields,
        check_only: field(&fields, "preview") == Some("1"),
    };
    let answer = match pages
        .record(&state.app, &user.actor(), &row, version, entry)
        .await
    {
        // Changed elsewhere since the form was loaded: show it again with what was typed.
        Err(crate::app::Error::Conflict(message)) => {
            let row = records::load_for(&state.app, &user.actor(), row.id).await?;
            if row.status != RecordStatus::SetUp.id() {
                return already_recorded(&state, ctx, &user, row).await;
            }
            return render_with_status(
                &record_page(&state, ctx, row, &fields, vec![message])?,
                StatusCode::CONFLICT,
            );
        }
        other => other?,
    };
    match answer {
        RecordAnswer::Saved(saved) => Ok(redirect(&format!("/battles/{}", saved.id))),
        // Check only: show the arithmetic and keep the form, save nothing.
        RecordAnswer::Checked(checked) => {
            let mut page = record_page(&state, ctx, row, &fields, Vec::new())?;
            match checked {
                Ok(preview) => page.preview = Some(preview),
                Err(problems) => page.problems = messages(problems),
            }
            render(&page)
        }
        RecordAnswer::Refused(problems) => render_with_status(
            &record_page(&state, ctx, row, &fields, messages(problems))?,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

/// The home page's "needs my attention": invitations waiting for my answer, results waiting for
/// my confirmation, and disputes.
pub async fn attention(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<BattleLine>, AppError> {
    let (invitations, results) = records::needing_attention(&state.app, &user.actor()).await?;
    let waiting = records::club_night::waiting(&state.app, &user.actor(), &invitations).await?;
    let mut out: Vec<BattleLine> = invitation_lines(state, &invitations, &waiting.open_sides)
        .await?
        .into_iter()
        .map(|i| BattleLine {
            id: i.id,
            title: if i.open {
                format!(
                    "{} asks you to bring your own roster to a battle ({})",
                    i.inviter, i.title
                )
            } else {
                format!("{} invites you to a battle ({})", i.inviter, i.title)
            },
            scenario: String::new(),
            status: if i.open {
                "attach one of your rosters"
            } else {
                "waiting for your answer"
            },
            result: "—".into(),
            date: String::new(),
        })
        .collect();
    out.extend(
        engine_request_lines(state, &waiting.engine_requests, user.id)
            .await?
            .into_iter()
            .map(|i| BattleLine {
                id: i.id,
                title: format!(
                    "{} asks for the engine to fight a battle ({})",
                    i.inviter, i.title
                ),
                scenario: String::new(),
                status: "accept or decline",
                result: "—".into(),
                date: String::new(),
            }),
    );
    out.extend(lines_for(&state.app.rules, &results, user.id));
    Ok(out)
}

/// The player's `n` newest battles, as the list shows them (the home page).
pub async fn recent(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    n: i64,
) -> Result<(Vec<BattleLine>, i64), AppError> {
    let query = ListingQuery {
        search: None,
        order: ListingOrder::Newest,
        page: 0,
        per_page: n,
    };
    let list = records::listing(&state.app, &user.actor(), query).await?;
    Ok((
        lines_for(&state.app.rules, &list.battles, user.id),
        list.total,
    ))
}

// ---------- printing a side as it stood in the battle ----------

pub async fn print_side(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    path: web::Path<(i64, String, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, side, kind) = path.into_inner();
    let row = records::load_for(&state.app, &user.actor(), id).await?;
    if row.setup.is_empty() {
        return Err(AppError::Conflict(NO_SET_UP_YET.into()));
    }
    pages_of(&row)?.at_the_table(&req, &row, &side, &kind).await
}
