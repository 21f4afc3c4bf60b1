//! Building and running the server.

use std::net::TcpListener;
use std::time::Duration;

use actix_web::middleware::from_fn;
use actix_web::{web, App, HttpResponse, HttpServer};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

use crate::app::dice::random_token;
use crate::app::throttles::LoginThrottle;
use crate::config::Config;
use crate::rules::Systems;
use crate::store::{self, settings, DbPool};
use crate::web::api::{self, ApiDoc};
use crate::web::assets;
use crate::web::auth::csrf;
use crate::web::middleware::{guard_input, log_request, render_errors, security_headers};
use crate::web::pages::{
    accounts, admin, battles, campaigns, home, inbox, own_data, password_reset, print, rosters,
    table,
};
use crate::web::state::{AppState, Keys};

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("the built-in rules data is inconsistent: {0}")]
    Catalogue(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("cannot bring the stored display names up to date: {0}")]
    DisplayNames(String),
    #[error("cannot start sending mail: {0}")]
    Mail(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
}

pub struct Application {
    port: u16,
    server: actix_web::dev::Server,
}

/// Opens the database, applies migrations and loads (or creates) the signing secret.
pub fn prepare_state(config: &Config, rules: Systems) -> Result<AppState, StartupError> {
    let pool: DbPool = store::connect(&config.database, 8)?;
    let mut conn = pool.get().map_err(store::StoreError::from)?;
    let applied = store::run_migrations(&mut conn)?;
    if !applied.is_empty() {
        tracing::info!(count = applied.len(), "applied database migrations");
    }
    // Display names stored before the current rules (or by the migration's ASCII-only
    // lower case) are brought up to them.
    let renamed = crate::app::accounts::tidy_display_names(&mut conn)
        .map_err(|e| StartupError::DisplayNames(format!("{e:?}")))?;
    if renamed > 0 {
        tracing::info!(count = renamed, "normalised stored display names");
    }
    let backend = conn.backend();
    let secret = match &config.jwt_secret {
        Some(s) => s.clone(),
        // Kept in the database so restarts (and other servers on the same database) keep
        // everyone logged in.
        None => settings::get_or_insert(&mut conn, "jwt_secret", &random_token(48))
            .map_err(store::StoreError::from)?,
    };
    drop(conn);
    let outbox =
        crate::app::mail::Outbox::start(pool.clone(), config.mail.as_ref(), &config.base_url())
            .map_err(StartupError::Mail)?;
    if let Some(mail) = &config.mail {
        tracing::info!(smtp = %mail.describe(), "notification mail is on");
    }
    Ok(AppState {
        app: crate::app::Context::new(pool, rules, backend)
            .with_work_limits(crate::app::work::WorkLimits {
                global: config.work.global,
                per_caller: config.work.per_caller,
                direct_cost: config.work.direct_cost,
            })
            .with_jobs(config.work.job_queue_max, config.work.job_workers)
            .with_scheduler(config.work.scheduler_poll),
        keys: Keys::from_secret(&secret),
        secure_cookies: config.secure_cookies(),
        public_url: config.public_url.clone(),
        trusted_proxy: config.trusted_proxy,
        body_timeout: config.body_timeout,
        throttle: LoginThrottle,
        outbox,
    })
}

impl Application {
    /// Builds the server with the built-in rules data (checked for consistency first).
    pub fn build(config: &Config) -> Result<Self, StartupError> {
        let rules = Systems::builtin().map_err(|e| StartupError::Catalogue(e.to_string()))?;
        Self::build_with_rules(config, rules)
    }

    /// Builds the server with the given rules data (tests use modified catalogues).
    pub fn build_with_rules(config: &Config, rules: Systems) -> Result<Self, StartupError> {
        let state = prepare_state(config, rules)?;
        let listener = TcpListener::bind(config.bind).map_err(|source| StartupError::Bind {
            addr: config.bind.to_string(),
            source,
        })?;
        Self::with_listener(state, listener)
    }

    pub fn with_listener(state: AppState, listener: TcpListener) -> Result<Self, StartupError> {
        let addr = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        // Links in mails go to the address the server really listens on (a port of 0 is
        // only known now), unless MUSTER_PUBLIC_URL says otherwise.
        if state.public_url.is_none() && !addr.is_empty() {
            state.outbox.set_base_url(&format!("http://{addr}"));
        }
        let state = web::Data::new(state);
        let server = HttpServer::new(move || {
            let (app, openapi) = App::new()
                .into_utoipa_app()
                .openapi(ApiDoc::openapi())
                // Before the `/api/v1` scope, which would otherwise answer 404 for it.
                .route("/api/v1/openapi.json", web::get().to(openapi_json))
                .configure(api::configure)
                .split_for_parts();
            let openapi = web::Data::new(api::finish_document(openapi));
            app.app_data(state.clone())
                .app_data(openapi)
                .app_data(web::Data::new(crate::web::page::NavTools(
                    crate::web::systems::tools().collect(),
                )))
                .app_data(api::json_config())
                .app_data(api::path_config())
                .app_data(api::query_config())
                .service(web::resource("/").get(home::home))
                .service(
                    web::resource("/register")
                        .get(accounts::register_page)
                        .post(accounts::register),
                )
                .service(
                    web::resource("/login")
                        .get(accounts::login_page)
                        .post(accounts::login),
                )
                .service(web::resource("/logout").post(accounts::logout))
                .service(web::resource("/account").get(accounts::account_page))
                .service(web::resource("/account/profile").post(accounts::update_profile))
                .service(web::resource("/account/password").post(accounts::update_password))
                .service(web::resource("/account/export").get(own_data::export))
                .service(
                    web::resource("/account/delete")
                        .get(own_data::delete_page)
                        .post(own_data::delete),
                )
                // Notifications and password reset by e-mail.
                .service(
                    web::resource("/account/notifications").post(accounts::update_notifications),
                )
                .service(web::resource("/inbox").get(inbox::inbox))
                .service(web::resource("/inbox/read-all").post(inbox::mark_all_read))
                .service(web::resource("/inbox/{id}/read").post(inbox::mark_read))
                .service(
                    web::resource("/unsubscribe/{token}/{kind}")
                        .get(inbox::unsubscribe_page)
                        .post(inbox::unsubscribe),
                )
                .service(
                    web::resource("/password/forgot")
                        .get(password_reset::forgot_page)
                        .post(password_reset::forgot),
                )
                .service(
                    web::resource("/password/reset/{token}")
                        .get(password_reset::reset_page)
                        .post(password_reset::reset),
                )
                .service(web::resource("/admin/users").get(admin::users_page))
                .service(web::resource("/admin/users/{id}/disable").post(admin::disable_user))
                .service(web::resource("/admin/users/{id}/enable").post(admin::enable_user))
                .service(
                    web::resource("/rosters")
                        .get(rosters::list)
                        .post(rosters::create),
                )
                .service(
                    web::resource("/rosters/import")
                        .get(rosters::import_page)
                        .post(rosters::import),
                )
                .service(web::resource("/rosters/new").get(rosters::from_book_page))
                .service(web::resource("/rosters/new/{how}").post(rosters::start_with))
                .service(web::resource("/rosters/{id}").get(rosters::show))
                .service(
                    web::resource("/rosters/{id}/edit")
                        .get(rosters::editor)
                        .post(rosters::apply_edit),
                )
                .service(web::resource("/rosters/{id}/duplicate").post(rosters::duplicate))
                .service(
                    web::resource("/rosters/{id}/delete")
                        .get(rosters::confirm_delete)
                        .post(rosters::delete),
                )
                .service(web::resource("/rosters/{id}/share").post(rosters::share))
                .service(web::resource("/rosters/{id}/unshare").post(rosters::unshare))
                .service(web::resource("/rosters/{id}/export.json").get(rosters::export_json))
                .service(web::resource("/rosters/{id}/export.txt").get(rosters::export_text))
                .service(web::resource("/rosters/{id}/print/{kind}").get(print::roster_print))
                .service(web::resource("/shared/{token}").get(rosters::shared))
                .service(web::resource("/shared/{token}/copy").post(rosters::copy_shared))
                .service(web::resource("/shared/{token}/print/{kind}").get(print::shared_print))
                .service(
                    web::resource("/battles")
                        .get(battles::list)
                        .post(battles::create),
                )
                .service(web::resource("/battles/public/{token}").get(battles::public))
                .service(web::resource("/battles/{id}").get(battles::show))
                .service(web::resource("/battles/{id}/simulate").post(battles::fight))
                .service(
                    web::resource("/battles/{id}/record")
                        .get(battles::record_form)
                        .post(battles::record),
                )
                .service(web::resource("/battles/{id}/confirm").post(battles::confirm))
                .service(web::resource("/battles/{id}/dispute").post(battles::dispute))
                .service(web::resource("/battles/{id}/correct").post(battles::correct))
                .service(web::resource("/battles/{id}/publish").post(battles::publish))
                .service(web::resource("/battles/{id}/accept").post(battles::accept))
                .service(web::resource("/battles/{id}/decline").post(battles::decline))
                .service(web::resource("/battles/{id}/withdraw").post(battles::withdraw))
                .service(web::resource("/battles/{id}/attach").post(battles::attach))
                .service(
                    web::resource("/battles/{id}/withdraw-roster").post(battles::withdraw_roster),
                )
                .service(web::resource("/battles/{id}/engine/{step}").post(battles::engine))
                .service(
                    web::resource("/battles/{id}/print/{side}/{kind}").get(battles::print_side),
                )
                // At the table and the printed battle pack (issue 19).
                .service(
                    web::resource("/battles/{id}/table")
                        .get(table::show)
                        .post(table::tap),
                )
                .service(web::resource("/battles/{id}/table/finish").get(table::finish))
                .service(web::resource("/battles/{id}/print/pack").get(table::pack))
                .service(
                    web::resource("/campaigns")
                        .get(campaigns::list)
                        .post(campaigns::create),
                )
                .service(web::resource("/campaigns/join").post(campaigns::join_code))
                .service(
                    web::resource("/campaigns/join/{code}")
                        .get(campaigns::join_show)
                        .post(campaigns::join),
                )
                .service(web::resource("/campaigns/{id}").get(campaigns::show))
                .service(web::resource("/campaigns/{id}/start").post(campaigns::start))
                .service(web::resource("/campaigns/{id}/orders").post(campaigns::give_order))
                .service(web::resource("/campaigns/{id}/close").post(campaigns::close_turn))
                .service(
                    web::resource("/campaigns/{id}/map")
                        .get(campaigns::map_edit)
                        .post(campaigns::map_change),
                )
                .service(web::resource("/campaigns/{id}/standings").get(campaigns::standings_page))
                .service(web::resource("/campaigns/{id}/log").get(campaigns::log_page))
                .service(
                    web::resource("/campaigns/{id}/organiser")
                        .get(campaigns::organiser)
                        .post(campaigns::organiser_action),
                )
                .service(web::resource("/campaigns/{id}/webhook").post(campaigns::webhook))
                .service(web::resource("/campaigns/{id}/forces/{force}").get(campaigns::force))
                // Campaign administration (issue 19).
                .service(
                    web::resource("/campaigns/{id}/forces/{force}/enlistment")
                        .get(campaigns::enlistment),
                )
                .service(
                    web::resource("/campaigns/{id}/forces/{force}/change")
                        .post(campaigns::change_force),
                )
                .service(
                    web::resource("/campaigns/{id}/forces/{force}/withdraw")
                        .post(campaigns::withdraw),
                )
                .service(
                    web::resource("/campaigns/{id}/delete")
                        .get(campaigns::delete_confirm)
                        .post(campaigns::delete_campaign),
                )
                .service(web::resource("/public/campaigns/{token}").get(campaigns::public_page))
                .service(web::resource("/campaigns/{id}/forces/{force}/buy").post(campaigns::buy))
                .service(
                    web::resource("/campaigns/{id}/forces/{force}/reorganise")
                        .post(campaigns::reorganise),
                )
                .service(
                    web::resource("/campaigns/{id}/forces/{force}/print/{kind}")
                        .get(campaigns::force_print),
                )
                .configure(crate::web::systems::configure)
                .service(web::resource("/static/{name}").get(assets::serve))
                .default_service(web::to(api::fallback))
                // Outermost last: the log sees the final status; headers go on every response.
                .wrap(from_fn(guard_input))
                .wrap(from_fn(render_errors))
                .wrap(from_fn(csrf::ensure_nonce))
                .wrap(from_fn(security_headers))
                .wrap(from_fn(log_request))
        })
        // Limits on connections, each against a way one client could hold the server:
        // - the request head (line and headers) must arrive within 5 s of connecting, or the
        //   connection is closed with 408 (the body has its own deadline, `guard_input`);
        .client_request_timeout(Duration::from_secs(5))
        // - a client that does not close its side after the response gets 2 s;
        .client_disconnect_timeout(Duration::from_secs(2))
        // - an idle kept-alive connection is closed after 15 s (browsers reuse it sooner);
        .keep_alive(Duration::from_secs(15))
        // - each worker holds at most 2 048 connections; beyond that new ones wait in the
        //   kernel's listen queue instead of taking file descriptors the database and the log
        //   need. (`backlog` would only apply to a socket the server binds itself, and
        //   `max_connection_rate` only limits TLS handshakes, which Muster leaves to the
        //   reverse proxy.)
        .max_connections(2_048)
        .listen(listener)
        .map_err(|source| StartupError::Bind {
            addr: addr.clone(),
            source,
        })?
        .run();
        Ok(Self { port, server })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

async fn openapi_json(doc: web::Data<api::ApiDocument>) -> HttpResponse {
    HttpResponse::Ok().json(&doc.0)
}
