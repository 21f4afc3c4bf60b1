//! The conformance suite every rule system passes through the `RuleSystem` seam: its check never
//! panics on any JSON, its documents round-trip, and what generic code reads of an outcome is the
//! outcome's own verdict. A new system adds one line per test at the bottom.

use muster::rules::system::{BattleSide, RuleSystem, Severity};
use muster::rules::systems::atkm::{self, Atkm};
use muster::rules::systems::awi::{self, Awi};
use muster::rules::systems::lod::{self, Lod};
use muster::rules::systems::lotf::{self, Lotf};
use muster::rules::systems::oibl::{self, Oibl};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Field names the systems' documents use, so that generated objects reach past the top level.
const KEYS: &[&str] = &[
    "format",
    "name",
    "war",
    "nation",
    "points_limit",
    "mode",
    "force_commander",
    "groups",
    "commander",
    "elements",
    "type",
    "size",
    "weapon",
    "upgrades",
    "id",
    "note",
    "army",
    "list",
    "brigades",
    "units",
    "entry",
    "bases",
    "general",
    "options",
    "side",
    "cinc",
    "brigadier",
    "ability",
    "grade",
    "arms",
    "gun",
    "gunners",
];

/// Words the systems' documents use as values, so that mutations keep many documents readable
/// and reach the check itself.
const WORDS: &[&str] = &[
    "tiny",
    "small",
    "medium",
    "large",
    "infantry",
    "cavalry",
    "artillery",
    "elite",
    "militia",
    "grenadiers",
    "light_dragoons",
    "rifles",
    "rifled",
    "smoothbore",
    "mixed",
    "light_gun",
    "heavy_gun",
    "rockets",
    "historical",
    "points",
    "british",
    "american",
    "french",
    "hessian",
    "american_revolution",
    "war_of_1812",
    "skirmishers",
    "trained",
    "raw",
    "musket",
    "rifle",
    "light",
    "french_indian_war",
    "",
];

pub(crate) fn plausible_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(WORDS).prop_map(|w| Value::String(w.to_string())),
        (0u32..3000).prop_map(|n| json!(n)),
        prop::collection::vec(
            prop::sample::select(WORDS).prop_map(|w| Value::String(w.to_string())),
            0..4
        )
        .prop_map(Value::Array),
    ]
}

pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u32>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".{0,16}".prop_map(Value::String),
        prop::sample::select(KEYS).prop_map(|k| Value::String(k.to_string())),
    ];
    leaf.prop_recursive(5, 96, 8, |inner| {
        let key = prop_oneof![
            prop::sample::select(KEYS).prop_map(str::to_string),
            "[a-z_]{1,10}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Replaces one node of `doc`, found by walking `path` (each step picks a child by index), with
/// `new`.
pub(crate) fn mutate(node: &mut Value, path: &[usize], new: Value) {
    let Some((step, rest)) = path.split_first() else {
        *node = new;
        return;
    };
    match node {
        Value::Array(items) if !items.is_empty() => {
            let i = step % items.len();
            mutate(&mut items[i], rest, new);
        }
        Value::Object(fields) if !fields.is_empty() => {
            let i = step % fields.len();
            if let Some(child) = fields.values_mut().nth(i) {
                mutate(child, rest, new);
            }
        }
        _ => *node = new,
    }
}

/// Reads and checks `text`; says whether it was read as a roster.
fn parse_and_check<R: RuleSystem>(cat: &R::Catalogue, text: &str) -> bool {
    let read = R::parse_roster(text);
    if let Ok(roster) = &read {
        let (summary, findings) = R::check(cat, roster);
        assert_eq!(
            summary.legal,
            summary.errors == 0,
            "legal exactly when no error"
        );
        // Notes (`info`, such as an AWI ability still to be rolled) are neither.
        let counted = findings
            .iter()
            .filter(|f| f.severity != Severity::Info)
            .count();
        assert_eq!(
            (summary.errors + summary.warnings) as usize,
            counted,
            "the summary counts every error and warning"
        );
    }
    read.is_ok()
}

/// Any JSON text, and any starting roster with one node replaced by any JSON value: reading and
/// checking never panics, and the summary counts the findings.
fn check_never_panics<R: RuleSystem>(cat: &R::Catalogue, cases: u32) {
    let starts: Vec<Value> = R::starting_rosters(cat)
        .iter()
        .map(|r| serde_json::to_value(r).expect("a roster serialises"))
        .collect();
    assert!(!starts.is_empty(), "{} offers starting rosters", R::ID);
    // A fixed seed: the same cases every run, so the count below cannot flake.
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(
        ProptestConfig {
            cases,
            ..ProptestConfig::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let strategy = (
        json_value(),
        plausible_value(),
        any::<bool>(),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<usize>(), 0..7),
    );
    let checked = std::sync::atomic::AtomicU32::new(0);
    runner
        .run(&strategy, |(value, plausible, wild, start, path)| {
            parse_and_check::<R>(cat, &value.to_string());
            let mut doc = starts[start.index(starts.len())].clone();
            mutate(&mut doc, &path, if wild { value } else { plausible });
            if parse_and_check::<R>(cat, &doc.to_string()) {
                checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(())
        })
        .expect("no panic and counted findings");
    // The mutations must reach the check itself, not only the reader's refusals.
    assert!(
        checked.into_inner() >= cases / 20,
        "too few mutated rosters were read and checked"
    );
    // Not JSON at all.
    for text in ["", "{", "null", "[]", "\"roster\"", "{\"format\": 7}"] {
        assert!(!parse_and_check::<R>(cat, text), "{text:?} is no roster");
    }
}

/// Every starting roster reads back as it was written and checks the same.
fn documents_round_trip<R: RuleSystem>(cat: &R::Catalogue) {
    for roster in R::starting_rosters(cat) {
        let text = serde_json::to_string(&roster).expect("a roster serialises");
        let again = R::parse_roster(&text).unwrap_or_else(|e| panic!("{} reads back: {e}", R::ID));
        assert_eq!(
            serde_json::to_value(&again).expect("serialises"),
            serde_json::to_value(&roster).expect("serialises"),
            "{} round-trips",
            R::ID
        );
        assert_eq!(R::check(cat, &again), R::check(cat, &roster));
    }
}

/// A fought battle's summary survives storing the outcome, and a winner has at least the
/// loser's score.
fn summaries_follow_their_outcome<R: RuleSystem>(cat: &R::Catalogue, battles: usize) {
    let starts = R::starting_rosters(cat);
    for i in 0..battles {
        let (a, d) = (
            starts[i % starts.len()].clone(),
            starts[(i * 7 + 1) % starts.len()].clone(),
        );
        let Ok(prepared) = R::prepare_battle(cat, a, d, None, true, i as u64) else {
            continue;
        };
        let setup = prepared.setup;
        // A stored set-up reads back as the same battle.
        let stored_setup = R::parse_setup(&R::write_setup(&setup))
            .unwrap_or_else(|e| panic!("{} battle {i}: the set-up reads back: {e}", R::ID));
        assert_eq!(
            R::setup_facts(cat, &stored_setup),
            R::setup_facts(cat, &setup),
            "{} battle {i}",
            R::ID
        );
        let Some(fought) = R::fight(cat, &setup) else {
            return; // No simulator: nothing to fight.
        };
        let outcome = fought.unwrap_or_else(|e| panic!("{} battle {i}: {e}", R::ID));
        let summary = R::summary(&outcome);
        let stored: R::Outcome =
            serde_json::from_str(&serde_json::to_string(&outcome).expect("serialises"))
                .expect("an outcome reads back");
        assert_eq!(R::summary(&stored), summary, "{} battle {i}", R::ID);
        if let (Some(winner), Some((a, d))) = (summary.winner, summary.score) {
            let (won, lost) = match winner {
                BattleSide::Attacker => (a, d),
                BattleSide::Defender => (d, a),
            };
            assert!(
                won >= lost,
                "{} battle {i}: the winner scored {won}:{lost}",
                R::ID
            );
        }
    }
}

fn lotf_catalogue() -> lotf::Catalogue {
    lotf::Catalogue::builtin().expect("the built-in catalogue")
}

#[test]
fn lotf_check_never_panics_on_any_json() {
    check_never_panics::<Lotf>(&lotf_catalogue(), 400);
}

#[test]
fn lotf_documents_round_trip() {
    documents_round_trip::<Lotf>(&lotf_catalogue());
}

fn lod_catalogue() -> lod::Catalogue {
    lod::Catalogue::builtin().expect("the built-in catalogue")
}

#[test]
fn lod_check_never_panics_on_any_json() {
    check_never_panics::<Lod>(&lod_catalogue(), 400);
}

#[test]
fn lod_documents_round_trip() {
    documents_round_trip::<Lod>(&lod_catalogue());
}

fn oibl_catalogue() -> oibl::Catalogue {
    oibl::Catalogue::builtin().expect("the built-in catalogue")
}

#[test]
fn oibl_check_never_panics_on_any_json() {
    check_never_panics::<Oibl>(&oibl_catalogue(), 400);
}

#[test]
fn oibl_documents_round_trip() {
    documents_round_trip::<Oibl>(&oibl_catalogue());
}

#[test]
fn oibl_summaries_follow_their_outcome() {
    let cat = oibl_catalogue();
    summaries_follow_their_outcome::<Oibl>(&cat, 12);
    // The generic summary says what the simulator decided (B-34, B-35).
    let starts = Oibl::starting_rosters(&cat);
    for seed in 0..4u64 {
        let setup = Oibl::prepare_battle(
            &cat,
            starts[1].clone(),
            starts[2].clone(),
            None,
            false,
            seed,
        )
        .expect("the two example brigades set up")
        .setup;
        let Some(Ok(o)) = Oibl::fight(&cat, &setup) else {
            panic!("One if by Land has a simulator");
        };
        let summary = Oibl::summary(&o);
        assert_eq!(summary.winner, o.winner);
        assert_eq!(summary.level.as_deref(), Some(o.level.id()));
        assert_eq!(summary.method, muster::rules::system::Method::Simulated);
        assert!(!o.log.is_empty(), "a fought battle is narrated");
    }
}

#[test]
fn lod_summaries_follow_their_outcome() {
    summaries_follow_their_outcome::<Lod>(&lod_catalogue(), 12);
}

fn awi_catalogue() -> awi::Catalogue {
    awi::Catalogue::builtin().expect("the built-in catalogue")
}

#[test]
fn awi_check_never_panics_on_any_json() {
    check_never_panics::<Awi>(&awi_catalogue(), 400);
}

#[test]
fn awi_documents_round_trip() {
    documents_round_trip::<Awi>(&awi_catalogue());
}

#[test]
fn awi_summaries_follow_their_outcome() {
    summaries_follow_their_outcome::<Awi>(&awi_catalogue(), 12);
}

#[test]
fn lotf_summaries_follow_their_outcome() {
    summaries_follow_their_outcome::<Lotf>(&lotf_catalogue(), 12);
}

#[test]
fn lotf_summary_names_the_simulators_winner() {
    // The generic summary against Land of the Free's own fields.
    let cat = lotf_catalogue();
    let starts = Lotf::starting_rosters(&cat);
    for seed in 0..6u64 {
        let setup = Lotf::prepare_battle(
            &cat,
            starts[0].clone(),
            starts[1].clone(),
            None,
            false,
            seed,
        )
        .expect("two historical forces set up")
        .setup;
        let Some(Ok(outcome)) = Lotf::fight(&cat, &setup) else {
            panic!("Land of the Free has a simulator");
        };
        let lotf::Outcome::Simulated { outcome: o } = &outcome else {
            panic!("the simulator's outcome");
        };
        let summary = Lotf::summary(&outcome);
        assert_eq!(
            summary.winner,
            o.winner.map(|w| match w {
                lotf::Side::Attacker => BattleSide::Attacker,
                lotf::Side::Defender => BattleSide::Defender,
            })
        );
        assert_eq!(summary.level.as_deref(), Some(o.victory_level.id()));
        assert_eq!(
            summary.score,
            Some((u32::from(o.attacker_vp), u32::from(o.defender_vp)))
        );
    }
}

/// The command line's system switch: a file names its system in its `format`, `--system`
/// chooses one, and an unknown system is refused with the list of those there are.
#[test]
fn the_command_line_dispatches_on_the_system() {
    const BIN: &str = env!("CARGO_BIN_EXE_muster");
    let dir = crate::helpers::TempDir::new("systems");
    let oibl = dir.0.join("brigade.json");
    std::fs::write(
        &oibl,
        r#"{"format": "muster.oibl.roster/1", "name": "Brigade"}"#,
    )
    .unwrap();
    let awi = dir.0.join("awi.json");
    std::fs::write(
        &awi,
        r#"{"format": "muster.awi.oob/1", "name": "Brigade", "cinc": {"name": "C"},
            "brigades": [{"name": "B", "brigadier": {"name": "G", "ability": 5},
                          "units": [{"type": "infantry", "grade": "raw", "bases": 4}]}]}"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(BIN)
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
    };

    // Every system's roster is recognised by its format on the command line: an empty One if
    // by Land order of battle is read and judged (illegal: it has no brigade, B-49).
    let out = run(&["validate", oibl.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: Value = serde_json::from_slice(&out.stdout).expect("a JSON report line");
    assert_eq!(line["system"], "oibl");
    assert_eq!(line["legal"], false);

    let out = run(&["catalog", "--system", "oibl"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("One if by Land"));

    // The AWI wargames rules' order of battle is recognised by its format.
    let out = run(&["validate", awi.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: Value = serde_json::from_slice(&out.stdout).expect("a JSON report line");
    assert_eq!(line["system"], "awi");
    assert_eq!(line["legal"], true);
    let out = run(&["catalog", "--system", "awi"]);
    assert_eq!(out.status.code(), Some(0));

    let out = run(&["catalog", "--system", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lotf, lod, awi, oibl, atkm"));

    let out = run(&["catalog", "--system", "lotf", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let catalogue: Value = serde_json::from_slice(&out.stdout).expect("the catalogue as JSON");
    assert!(catalogue.is_object());
}

/// Each system's tools live under its prefix; the addresses they had before answer with a
/// permanent redirect that keeps the query (and, being a 308, the method of a form post).
#[tokio::test]
async fn old_tool_addresses_redirect_to_the_system_prefix() {
    let app = crate::helpers::spawn_app().await;
    for (old, new) in [
        (
            "/odds?calc=shooting&s_size=large",
            "/lotf/odds?calc=shooting&s_size=large",
        ),
        (
            "/reference/lotf?paper=letter",
            "/lotf/reference?paper=letter",
        ),
        ("/fight", "/lotf/fight"),
        ("/fight/jobs/abc", "/lotf/fight/jobs/abc"),
    ] {
        let res = app.get(old).await;
        assert_eq!(res.status(), 308, "{old}");
        assert_eq!(crate::helpers::location(&res), new, "{old}");
    }
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(app.url("/fight/battle"))
        .form(&[("attacker", "h:cowpens:0:0")])
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        308,
        "a form post is redirected with its method"
    );
    assert_eq!(crate::helpers::location(&res), "/lotf/fight/battle");
    // The new addresses answer, and the navigation points at them.
    let page = app.get_html("/lotf/odds").await;
    assert!(page.contains(r#"href="/lotf/odds""#) && page.contains(r#"href="/lotf/reference""#));
    // A system's API is registered by the system, documented like the rest.
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/v1/lotf/validate",
        "/api/v1/lotf/odds/shooting",
        "/api/v1/lotf/battles/odds",
        "/api/v1/jobs/{id}",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
    let home = app.get_html("/").await;
    for href in ["/lotf/reference", "/lotf/odds", "/lotf/fight"] {
        assert!(
            home.contains(&format!(r#"href="{href}""#)),
            "the home page links {href}"
        );
    }
}

/// The roster list names each roster's rule system and filters by it; a roster is created for a
/// system this build serves, and an unknown one is refused beside the field, keeping what was
/// typed.
#[tokio::test]
async fn rosters_are_made_for_a_served_system_and_listed_by_it() {
    let app = crate::helpers::spawn_app().await;
    app.register("systems@example.org", "Systems", crate::helpers::PASSWORD)
        .await;
    let fields = |system: &'static str| {
        vec![
            ("system", system),
            ("name", "Marsh's Brigade"),
            ("war", "american_revolution"),
            ("nation", "american"),
            ("points_limit", "150"),
            ("mode", "standard"),
        ]
    };
    let refused = app
        .post_form("/rosters", "/rosters", &fields("chess"))
        .await;
    assert_eq!(refused.status(), 422);
    let page = refused.text().await.unwrap();
    assert!(page.contains("Choose a rule system from the list."));
    assert!(
        page.contains(r#"value="Marsh&#39;s Brigade""#),
        "what was typed is kept"
    );

    let made = app.post_form("/rosters", "/rosters", &fields("lotf")).await;
    assert_eq!(made.status(), 303);
    let list = app.get_html("/rosters").await;
    assert!(
        list.contains("<td>Land of the Free</td>"),
        "the system column"
    );
    let only_lotf = app.get_html("/rosters?system=lotf").await;
    assert!(only_lotf.contains("Brigade"));
    let only_awi = app.get_html("/rosters?system=oibl").await;
    assert!(
        !only_awi.contains("<td>Land of the Free</td>")
            && only_awi.contains("No rosters that match")
    );
}

/// A campaign is created for a rule system whose campaigns this build runs; another is refused
/// beside the field, on the API as on the page.
#[tokio::test]
async fn campaigns_are_created_for_a_served_system() {
    let app = crate::helpers::spawn_app().await;
    let token = app.api_user("organiser@example.org").await;
    let create = |system: &'static str| {
        let (app, token) = (&app, token.clone());
        async move {
            reqwest::Client::new()
                .post(app.url("/api/v1/campaigns"))
                .bearer_auth(token)
                .json(
                    &json!({"system": system, "name": "Saratoga", "map": "philadelphia-1777",
                              "points": 200, "turns": 4}),
                )
                .send()
                .await
                .unwrap()
        }
    };
    for (system, says) in [
        ("oibl", "Muster does not run One if by Land campaigns yet."),
        ("chess", "Choose a rule system from the list."),
    ] {
        let res = create(system).await;
        assert_eq!(res.status(), 422, "{system}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"]["details"][0]["field"], "system");
        assert_eq!(body["error"]["details"][0]["message"], says);
    }
    let res = create("lotf").await;
    assert_eq!(res.status(), 201);
    // The page's form offers the systems whose campaigns this build runs.
    app.register("player@example.org", "Player", crate::helpers::PASSWORD)
        .await;
    let page = app.get_html("/campaigns").await;
    assert!(
        page.contains(r#"<option value="lotf" selected>Land of the Free</option>"#),
        "the system select"
    );
    assert!(!page.contains(r#"<option value="oibl""#));
    assert!(
        page.contains(r#"<option value="awi""#),
        "the AWI rules run campaigns"
    );
    let res = create("awi").await;
    assert_eq!(res.status(), 201, "200-base AWI battles");
}

/// A file is imported as a roster of the system its `format` names, on the import page and
/// through the API, whichever served system that is.
#[tokio::test]
async fn a_file_is_imported_for_the_system_it_names() {
    let app = crate::helpers::spawn_app().await;
    app.register("importer@example.org", "Importer", crate::helpers::PASSWORD)
        .await;
    let oibl = r#"{"format": "muster.oibl.roster/1", "name": "Marsh's Brigade"}"#;
    let page = app
        .post_form("/rosters/import", "/rosters/import", &[("document", oibl)])
        .await;
    assert_eq!(page.status(), 303);
    let list = app.get_html("/rosters?system=oibl").await;
    assert!(
        list.contains("Marsh&#39;s Brigade") && list.contains("One if by Land"),
        "the imported roster is listed under its system"
    );

    let token = app.api_user("api-importer@example.org").await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters/import"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(oibl)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert!(body.to_string().contains("oibl"), "{body}");
}

fn atkm_catalogue() -> atkm::Catalogue {
    atkm::Catalogue::builtin().expect("the built-in catalogue")
}

#[test]
fn atkm_check_never_panics_on_any_json() {
    check_never_panics::<Atkm>(&atkm_catalogue(), 400);
}

#[test]
fn atkm_documents_round_trip() {
    documents_round_trip::<Atkm>(&atkm_catalogue());
}

#[test]
fn atkm_summaries_follow_their_outcome() {
    summaries_follow_their_outcome::<Atkm>(&atkm_catalogue(), 12);
}
