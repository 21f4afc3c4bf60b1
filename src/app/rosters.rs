//! Rosters: loading with an ownership check, saving with a version check, and the summary a
//! rule system gives of a document. Pages, the API and battles all go through here.

use crate::app::{Actor, Context, Error, ErrorDetail};
use crate::rules::systems::{AnyRoster, Systems};
use crate::rules::SystemId;
use crate::store::rosters::{self, RosterContent, RosterRow, UpdateOutcome};

/// A stored roster read back through its rule system: as [`AnyRoster`], or as the system's own
/// type for code inside a system (`R` is any type [`AnyRoster`] converts into).
pub struct LoadedRoster<R = AnyRoster> {
    pub row: RosterRow,
    pub doc: R,
}

/// Makes a roster ready to store (its system gives its parts ids and records the catalogue
/// version), checks it, and makes the columns stored beside it from the system's summary.
pub fn content_for(rules: &Systems, roster: &mut AnyRoster) -> RosterContent {
    rules.prepare_for_storing(roster);
    let (summary, _) = rules.check(roster);
    let column = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    RosterContent {
        rule_system: roster.system().id().to_string(),
        name: summary.name,
        war: summary.war.unwrap_or_default(),
        nation: summary.nation.unwrap_or_default(),
        points: summary.points.map_or(0, column),
        points_limit: summary.limit.map(column),
        legal: summary.legal,
        error_count: column(summary.errors),
        warning_count: column(summary.warnings),
        catalogue_version: rules.catalogue_version(roster).to_string(),
        document: roster.to_json(),
    }
}

/// Reads a stored document through its row's system. Documents are written by this code, so a
/// failure means the data was changed behind Muster's back or by an incompatible version.
pub fn parse_stored(rules: &Systems, row: &RosterRow) -> Result<AnyRoster, Error> {
    let system = SystemId::from_id(&row.rule_system)
        .filter(|s| s.capabilities().is_some())
        .ok_or_else(|| {
            Error::Conflict(format!(
                "This roster belongs to the rule system '{}', which this version of Muster does \
                 not know.",
                row.rule_system
            ))
        })?;
    rules
        .parse_roster(system, &row.document)
        .map_err(|e| Error::internal(format!("stored roster {} does not parse: {e}", row.id)))
}

/// Reads a stored document as `R`: a system's own roster type, for code inside that system.
/// A roster of another system is refused by its system's name.
pub fn parse_stored_as<R: TryFrom<AnyRoster>>(
    rules: &Systems,
    row: &RosterRow,
) -> Result<R, Error> {
    let roster = parse_stored(rules, row)?;
    let system = roster.system();
    R::try_from(roster).map_err(|_| {
        Error::Conflict(format!(
            "This roster plays by {}, which cannot be read here.",
            system.label()
        ))
    })
}

/// The roster if `user` owns it. Someone else's roster is "not found", so ids leak nothing.
pub async fn load_owned<R: TryFrom<AnyRoster>>(
    ctx: &Context,
    actor: &Actor,
    id: i64,
) -> Result<LoadedRoster<R>, Error> {
    let row = load_owned_row(ctx, actor, id).await?;
    let doc = parse_stored_as(&ctx.rules, &row)?;
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

/// A roster shared by its link, read through its system.
pub async fn load_shared<R: TryFrom<AnyRoster>>(
    ctx: &Context,
    token: String,
) -> Result<LoadedRoster<R>, Error> {
    let row = load_shared_row(ctx, token).await?;
    let doc = parse_stored_as(&ctx.rules, &row)?;
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

/// Refuses documents too large to be a real force (the roster's system sets the limits).
pub fn check_size(roster: &AnyRoster) -> Result<(), Error> {
    roster.check_size().map_err(|e| Error::Validation {
        message: format!("Muster cannot keep this roster: {}.", e.message),
        details: vec![ErrorDetail {
            field: e.path,
            message: e.message,
        }],
    })
}

/// Stores a roster of any system for `owner`.
pub async fn create(
    ctx: &Context,
    owner: i64,
    roster: impl Into<AnyRoster>,
) -> Result<RosterRow, Error> {
    let mut roster = roster.into();
    check_size(&roster)?;
    let content = content_for(&ctx.rules, &mut roster);
    ctx.with_conn(move |conn| Ok(rosters::create(conn, owner, &content)?))
        .await
}

pub enum Saved {
    Ok(Box<RosterRow>),
    /// Not saved: the stored roster changed since `based_on`. Holds the current one.
    Stale(Box<LoadedRoster>),
}

/// Saves a roster of any system over roster `id` if it is still at version `based_on`.
pub async fn save(
    ctx: &Context,
    id: i64,
    based_on: i32,
    roster: impl Into<AnyRoster>,
) -> Result<Saved, Error> {
    let mut roster = roster.into();
    check_size(&roster)?;
    let content = content_for(&ctx.rules, &mut roster);
    let outcome = ctx
        .with_conn(move |conn| Ok(rosters::update(conn, id, based_on, &content)?))
        .await?;
    match outcome {
        UpdateOutcome::Updated(row) => Ok(Saved::Ok(Box::new(row))),
        UpdateOutcome::Stale(row) => {
            let doc = parse_stored(&ctx.rules, &row)?;
            Ok(Saved::Stale(Box::new(LoadedRoster { row, doc })))
        }
        UpdateOutcome::NotFound => Err(Error::NotFound),
    }
}

/// A copy of a roster for the same owner, named "… (copy)", without its share link.
pub async fn duplicate(ctx: &Context, loaded: &LoadedRoster) -> Result<RosterRow, Error> {
    let copy = loaded
        .doc
        .renamed_copy(format!("{} (copy)", loaded.doc.name()));
    create(ctx, loaded.row.owner_id, copy).await
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

/// One page of the actor's roster list (summary columns only) and how many rosters match.
pub async fn listing(
    ctx: &Context,
    actor: &Actor,
    query: rosters::ListingQuery,
) -> Result<(Vec<rosters::RosterListing>, i64), Error> {
    let owner = actor.id;
    ctx.with_conn(move |conn| Ok(rosters::listing_for_owner(conn, owner, &query)?))
        .await
}

/// "a Land of the Free", "an AWI wargames rules": the system's name with its article.
fn a_roster_of(system: SystemId) -> String {
    let label = system.label();
    // By sound, not letter: "an AWI…", "an All the King's Men…", but "a One if by Land…".
    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) && !label.starts_with("One") {
        "an"
    } else {
        "a"
    };
    format!("{article} {label}")
}

/// A document that names another rule system than `expected` is refused by that system's name
/// before `expected`'s reader sees it (which would only say its format is unknown).
pub fn refuse_other_system(text: &str, expected: SystemId) -> Result<(), Error> {
    match SystemId::of_document(text) {
        None => Ok(()),
        Some(named) if named == expected => Ok(()),
        Some(other) => Err(Error::invalid(
            &format!("This is not {} roster.", a_roster_of(expected)),
            "format",
            &if other.capabilities().is_some() {
                format!(
                    "This file is {0} roster. Import it as {0} roster.",
                    a_roster_of(other)
                )
            } else {
                format!(
                    "This file is {} roster. Muster does not serve {} yet, so it cannot be \
                     read here.",
                    a_roster_of(other),
                    other.label()
                )
            },
        )),
    }
}

/// A logged-in player copies a roster shared with them by its link into their own rosters
/// (named "… (copy)", without the original's identity or share link). The owner duplicates
/// their own roster from its page instead.
pub async fn copy_shared(ctx: &Context, actor: &Actor, token: String) -> Result<RosterRow, Error> {
    let row = load_shared_row(ctx, token).await?;
    if row.owner_id == actor.id {
        return Err(Error::Conflict(
            "This roster is yours already: duplicate it from its own page.".into(),
        ));
    }
    let doc = parse_stored(&ctx.rules, &row)?;
    let copy = doc.renamed_copy(format!("{} (copy)", doc.name()));
    create(ctx, actor.id, copy).await
}
