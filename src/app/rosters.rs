//! Rosters: loading with an ownership check, saving with a version check, and the summary a
//! rule system gives of a document. Pages, the API and battles all go through here.

use crate::app::{Actor, Context, Error, ErrorDetail};
use crate::rules::systems::lotf::{self, Catalogue, Report, RosterDoc, Severity};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::{self, RosterContent, RosterRow, UpdateOutcome};

/// The rule system every roster so far belongs to. Other systems add their own id.
pub const LOTF: &str = "lotf";

/// A stored roster read back through its rule system.
pub struct LoadedRoster {
    pub row: RosterRow,
    pub doc: RosterDoc,
}

/// Prices and checks a document and makes the columns stored beside it. The document records
/// the catalogue version it was last saved with.
pub fn content_for(cat: &Catalogue, doc: &mut RosterDoc) -> (RosterContent, Report) {
    doc.catalogue_version = Some(cat.version().to_string());
    doc.assign_missing_ids();
    let report = lotf::validate(cat, doc);
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let content = RosterContent {
        rule_system: LOTF.to_string(),
        name: doc.name.clone(),
        war: doc.war.id().to_string(),
        nation: doc.nation.id().to_string(),
        points: i32::try_from(report.points.total).unwrap_or(i32::MAX),
        points_limit: report
            .points
            .limit
            .map(|l| i32::try_from(l).unwrap_or(i32::MAX)),
        legal: report.legal,
        error_count: errors as i32,
        warning_count: (report.findings.len() - errors) as i32,
        catalogue_version: cat.version().to_string(),
        document: doc.to_json_pretty(),
    };
    (content, report)
}

/// Reads a stored document. Documents are written by this code, so a failure means the data
/// was changed behind Muster's back or by an incompatible version.
pub fn parse_stored(row: &RosterRow) -> Result<RosterDoc, Error> {
    if row.rule_system != LOTF {
        return Err(Error::Conflict(format!(
            "This roster belongs to the rule system '{}', which this version of Muster does not know.",
            row.rule_system
        )));
    }
    lotf::parse_roster(&row.document)
        .map_err(|e| Error::internal(format!("stored roster {} does not parse: {e}", row.id)))
}

/// The roster if `user` owns it. Someone else's roster is "not found", so ids leak nothing.
pub async fn load_owned(ctx: &Context, actor: &Actor, id: i64) -> Result<LoadedRoster, Error> {
    let row = load_owned_row(ctx, actor, id).await?;
    let doc = parse_stored(&row)?;
    Ok(LoadedRoster { row, doc })
}

/// The stored row of a roster `actor` owns, unread: its system reads the document.
pub async fn load_owned_row(ctx: &Context, actor: &Actor, id: i64) -> Result<RosterRow, Error> {
    let owner = actor.id;
    let row = ctx
        .with_conn(move |conn| Ok(rosters::find(conn, id)?))
        .await?;
    row.filter(|r| r.owner_id == owner).ok_or(Error::NotFound)
}

pub async fn load_shared(ctx: &Context, token: String) -> Result<LoadedRoster, Error> {
    let row = load_shared_row(ctx, token).await?;
    let doc = parse_stored(&row)?;
    Ok(LoadedRoster { row, doc })
}

/// The stored row of a shared roster, unread: its system reads the document.
pub async fn load_shared_row(ctx: &Context, token: String) -> Result<RosterRow, Error> {
    if token.len() < 16 {
        return Err(Error::NotFound);
    }
    let row = ctx
        .with_conn(move |conn| Ok(rosters::find_by_share_token(conn, &token)?))
        .await?;
    row.ok_or(Error::NotFound)
}

/// Refuses documents too large to be a real force (the rules core sets the limits).
pub fn check_size(doc: &RosterDoc) -> Result<(), Error> {
    lotf::check_roster_size(doc).map_err(|e| Error::Validation {
        message: format!("Muster cannot keep this roster: {}.", e.message),
        details: vec![ErrorDetail {
            field: e.path,
            message: e.message,
        }],
    })
}

pub async fn create(ctx: &Context, owner: i64, mut doc: RosterDoc) -> Result<RosterRow, Error> {
    check_size(&doc)?;
    let (content, _) = content_for(&ctx.rules.lotf, &mut doc);
    ctx.with_conn(move |conn| Ok(rosters::create(conn, owner, &content)?))
        .await
}

/// Stores a roster of any system for `owner`.
pub async fn create_any(ctx: &Context, owner: i64, roster: AnyRoster) -> Result<RosterRow, Error> {
    match roster {
        AnyRoster::Lotf(doc) => create(ctx, owner, doc).await,
    }
}

/// Saves a roster of any system over roster `id` if it is still at version `based_on`.
pub async fn save_any(
    ctx: &Context,
    id: i64,
    based_on: i32,
    roster: AnyRoster,
) -> Result<Saved, Error> {
    match roster {
        AnyRoster::Lotf(doc) => save(ctx, id, based_on, doc).await,
    }
}

pub enum Saved {
    Ok(Box<RosterRow>),
    /// Not saved: the stored roster changed since `based_on`. Holds the current one.
    Stale(Box<LoadedRoster>),
}

/// Saves `doc` over roster `id` if it is still at version `based_on`.
pub async fn save(
    ctx: &Context,
    id: i64,
    based_on: i32,
    mut doc: RosterDoc,
) -> Result<Saved, Error> {
    check_size(&doc)?;
    let (content, _) = content_for(&ctx.rules.lotf, &mut doc);
    let outcome = ctx
        .with_conn(move |conn| Ok(rosters::update(conn, id, based_on, &content)?))
        .await?;
    match outcome {
        UpdateOutcome::Updated(row) => Ok(Saved::Ok(Box::new(row))),
        UpdateOutcome::Stale(row) => {
            let doc = parse_stored(&row)?;
            Ok(Saved::Stale(Box::new(LoadedRoster { row, doc })))
        }
        UpdateOutcome::NotFound => Err(Error::NotFound),
    }
}

/// A copy of a roster for the same owner, named "… (copy)", without its share link.
pub async fn duplicate(ctx: &Context, loaded: &LoadedRoster) -> Result<RosterRow, Error> {
    let mut doc = loaded.doc.clone();
    doc.name = format!("{} (copy)", doc.name);
    doc.id = None;
    create(ctx, loaded.row.owner_id, doc).await
}

pub async fn delete(ctx: &Context, id: i64) -> Result<(), Error> {
    ctx.with_conn(move |conn| {
        rosters::delete(conn, id)?;
        Ok(())
    })
    .await
}

/// Creates (or replaces) the share token; returns it.
pub async fn share(ctx: &Context, id: i64) -> Result<String, Error> {
    let token = crate::app::dice::random_token(24);
    let stored = token.clone();
    ctx.with_conn(move |conn| {
        rosters::set_share_token(conn, id, Some(&stored))?;
        Ok(())
    })
    .await?;
    Ok(token)
}

pub async fn unshare(ctx: &Context, id: i64) -> Result<(), Error> {
    ctx.with_conn(move |conn| {
        rosters::set_share_token(conn, id, None)?;
        Ok(())
    })
    .await
}

/// The actor's rosters, newest first; only those of one war when `war` is given.
pub async fn list(
    ctx: &Context,
    actor: &Actor,
    war: Option<String>,
) -> Result<Vec<RosterRow>, Error> {
    let owner = actor.id;
    ctx.with_conn(move |conn| Ok(rosters::list_for_owner(conn, owner, war.as_deref())?))
        .await
}

/// A document that names another rule system is refused by that system's name before it is
/// read as a Land of the Free roster (whose reader would only say its format is unknown).
pub fn refuse_other_system(text: &str) -> Result<(), Error> {
    match crate::rules::SystemId::of_document(text) {
        None | Some(crate::rules::SystemId::Lotf) => Ok(()),
        Some(other) => Err(Error::invalid(
            "This is not a Land of the Free roster.",
            "format",
            &format!(
                "This file is a {0} roster. Muster does not serve {0} yet, so it cannot be \
                 read here.",
                other.label()
            ),
        )),
    }
}
