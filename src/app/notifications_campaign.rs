//! A campaign's webhook: set, shown and removed by its organiser. Kept apart from
//! `app::notifications` (which the campaign service calls) so the two do not import each other.

use crate::app::campaigns::{self, Loaded};
use crate::app::mail::WebhookUrl;
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::state::Event;
use crate::store::notifications as store;

/// The campaign's webhook as its organiser sees it: the host only (the rest of a webhook's
/// address is its secret).
pub async fn webhook_host(ctx: &Context, c: &Loaded) -> Result<Option<String>, Error> {
    campaigns::require_organiser(c)?;
    let id = c.row.id;
    let url = ctx
        .with_conn(move |conn| Ok(store::webhook(conn, id)?))
        .await?;
    Ok(url.and_then(|u| WebhookUrl::parse(&u).ok()).map(|u| u.host))
}

/// Sets the campaign's webhook (`http://` or `https://`), or removes it when `url` is empty.
/// Only the organiser may.
pub async fn set_webhook(ctx: &Context, actor: &Actor, id: i64, url: &str) -> Result<(), Error> {
    let c = campaigns::load_for(ctx, actor, id).await?;
    campaigns::require_organiser(&c)?;
    let url = url.trim();
    let (stored, host) = if url.is_empty() {
        (None, None)
    } else {
        let parsed = WebhookUrl::parse(url)
            .map_err(|m| Error::invalid("The webhook was not set.", "url", &m))?;
        (Some(url.to_string()), Some(parsed.host))
    };
    // Stored with its log entry (the host only) in one campaign change.
    campaigns::change(ctx, id, actor, move |conn, _, _| {
        store::set_webhook(conn, id, stored.as_deref())?;
        Ok(vec![campaigns::Pending::new(Event::WebhookChanged {
            host: host.clone(),
        })])
    })
    .await?;
    Ok(())
}
