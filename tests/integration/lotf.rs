//! Land of the Free through the API and the command line.

use std::process::Command;

use muster::rules::{systems::lotf::Catalogue, Systems};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with_rules, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

/// The book's 140-point example: two groups of two large infantry (standard mode, no upgrades).
fn two_by_two_large_infantry(limit: u32) -> Value {
    let group = |name: &str, units: [&str; 2]| {
        json!({"commander": {"name": name}, "elements": units.iter().map(|u| json!(
            {"name": u, "type": "infantry", "size": "large", "weapon": "smoothbore", "upgrades": []}
        )).collect::<Vec<_>>()})
    };
    json!({
        "format": "muster.lotf.roster/1", "name": "Two by two", "war": "american_revolution",
        "nation": "british", "points_limit": limit, "mode": "standard",
        "force_commander": {"name": "Knowleton"},
        "groups": [group("Jacobs", ["1st Foot", "2nd Foot"]), group("von Stark", ["3rd Foot", "4th Foot"])]
    })
}

async fn post_validate(app: &crate::helpers::TestApp, body: String) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url("/api/v1/lotf/validate"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_api_validates_and_prices_a_roster_without_a_login() {
    let app = spawn_app().await;
    let res = post_validate(&app, two_by_two_large_infantry(150).to_string()).await;
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(report["legal"], true, "{report}");
    assert_eq!(report["points"]["total"], 140);
    assert_eq!(report["points"]["limit"], 150);
    assert_eq!(report["points"]["by_group"][0]["points"], 70);

    let over = post_validate(&app, two_by_two_large_infantry(139).to_string())
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(over["legal"], false);
    let finding = over["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "points_over_limit")
        .unwrap();
    assert_eq!(finding["severity"], "error");
    assert!(
        finding["message"].as_str().unwrap().contains("140"),
        "{finding}"
    );
}

#[tokio::test]
async fn an_array_of_rosters_gets_an_array_of_reports_in_order() {
    let app = spawn_app().await;
    let body = json!([
        two_by_two_large_infantry(150),
        two_by_two_large_infantry(100)
    ])
    .to_string();
    let reports: Value = post_validate(&app, body).await.json().await.unwrap();
    let legal: Vec<bool> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["legal"].as_bool().unwrap())
        .collect();
    assert_eq!(legal, [true, false]);
}

#[tokio::test]
async fn broken_json_is_refused_with_its_position_and_a_non_roster_names_the_field() {
    let app = spawn_app().await;
    let res = post_validate(
        &app,
        "{\n  \"format\": \"muster.lotf.roster/1\",\n  \"name\": }".into(),
    )
    .await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_request");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 3"),
        "{body}"
    );

    let mut doc = two_by_two_large_infantry(150);
    doc["groups"][1]["elements"][0]["size"] = json!("huge");
    let res = post_validate(&app, doc.to_string()).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["field"], "groups[1].elements[0].size",
        "{body}"
    );
    assert!(
        body["error"]["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("large"),
        "names the allowed sizes: {body}"
    );

    let mut doc = two_by_two_large_infantry(150);
    doc["colour"] = json!("red");
    let res = post_validate(
        &app,
        json!([two_by_two_large_infantry(150), doc]).to_string(),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"]["details"][0]["field"]
            .as_str()
            .unwrap()
            .starts_with("[1]"),
        "{body}"
    );
    assert!(
        body["error"]["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("colour"),
        "{body}"
    );
}

#[tokio::test]
async fn the_catalogue_and_historical_orders_of_battle_are_served() {
    let app = spawn_app().await;
    let catalogue: Value = app.get("/api/v1/lotf/catalog").await.json().await.unwrap();
    assert_eq!(
        catalogue["meta"]["version"],
        Catalogue::builtin().unwrap().version()
    );
    assert!(catalogue["upgrades"].as_array().unwrap().len() == 13);

    let list: Value = app
        .get("/api/v1/lotf/historical")
        .await
        .json()
        .await
        .unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 20);
    let elements: u64 = list.iter().map(|b| b["elements"].as_u64().unwrap()).sum();
    assert_eq!(elements, 878);

    let brandywine: Value = app
        .get("/api/v1/lotf/historical/brandywine")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(brandywine["name"], "Brandywine");
    let forces = brandywine["sides"][0]["forces"].as_array().unwrap();
    assert_eq!(forces[0]["format"], "muster.lotf.roster/1");
    assert_eq!(forces[0]["mode"], "historical");
    // A force of the refight validates through the API in historical mode without errors.
    let report: Value = post_validate(&app, forces[0].to_string())
        .await
        .json()
        .await
        .unwrap();
    assert!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["severity"] != "error"),
        "{report}"
    );

    let res = app.get("/api/v1/lotf/historical/waterloo").await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"]["code"],
        "not_found"
    );
}

#[tokio::test]
async fn a_server_started_with_a_modified_catalogue_prices_with_it() {
    let mut doc: Value = serde_json::from_str(&Catalogue::builtin().unwrap().to_json()).unwrap();
    doc["meta"]["version"] = json!("lotf-test");
    for t in doc["element_types"].as_array_mut().unwrap() {
        if t["id"] == "infantry" {
            for s in t["sizes"].as_array_mut().unwrap() {
                if s["size"] == "large" {
                    s["points"] = json!(50);
                }
            }
        }
    }
    let modified =
        Catalogue::from_json(&doc.to_string()).expect("modified catalogue is consistent");
    let app = spawn_app_with_rules(Systems {
        lotf: modified,
        ..Systems::builtin().unwrap()
    })
    .await;
    let catalogue: Value = app.get("/api/v1/lotf/catalog").await.json().await.unwrap();
    assert_eq!(catalogue["meta"]["version"], "lotf-test");
    let report: Value = post_validate(&app, two_by_two_large_infantry(500).to_string())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        report["points"]["total"], 200,
        "4 large infantry at 50 points each"
    );
}

fn write(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.0.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `validate` and `catalog` need no configuration: a broken setting does not stop them.
fn muster_without_config() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("MUSTER_BIND", "not an address")
        .env("DATABASE_URL", "mysql://nope");
    cmd
}

#[test]
fn muster_validate_prints_one_report_per_file_and_exits_by_the_worst_result() {
    let dir = TempDir::new("validate");
    let legal = write(
        &dir,
        "legal.json",
        &two_by_two_large_infantry(150).to_string(),
    );
    let illegal = write(
        &dir,
        "illegal.json",
        &two_by_two_large_infantry(100).to_string(),
    );

    let out = muster_without_config()
        .arg("validate")
        .arg(&legal)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["file"], legal.display().to_string());
    assert_eq!(report["points"]["total"], 140);
    assert!(report["points"]["by_group"].is_array());
    assert!(String::from_utf8_lossy(&out.stderr).contains("legal, 140 / 150 points"));

    let out = muster_without_config()
        .arg("validate")
        .arg(&legal)
        .arg(&illegal)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["legal"], false);
    assert!(lines[1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "points_over_limit"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ILLEGAL"));
}

#[test]
fn muster_validate_exits_2_for_unreadable_files_and_non_rosters_with_the_reason() {
    let dir = TempDir::new("validate");
    let legal = write(
        &dir,
        "legal.json",
        &two_by_two_large_infantry(150).to_string(),
    );
    let broken = write(
        &dir,
        "broken.json",
        "{\"format\": \"muster.lotf.roster/1\",\n\"name\": ",
    );
    let missing = dir.0.join("missing.json");
    let out = muster_without_config()
        .arg("validate")
        .args([&legal, &broken, &missing])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.json: not a roster") && err.contains("line 2"),
        "{err}"
    );
    assert!(err.contains("missing.json: cannot read the file"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        1,
        "the readable file is still reported"
    );
}

#[test]
fn muster_validate_csv_gives_one_row_per_file() {
    let dir = TempDir::new("validate");
    let legal = write(&dir, "a.json", &two_by_two_large_infantry(150).to_string());
    let illegal = write(&dir, "b.json", &two_by_two_large_infantry(100).to_string());
    let out = muster_without_config()
        .args(["validate", "--csv"])
        .args([&legal, &illegal])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(
        rows[0],
        "file,status,legal,points,limit,errors,warnings,first_problem"
    );
    assert!(
        rows[1].ends_with("a.json,checked,true,140,150,0,0,"),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].contains("b.json,checked,false,140,100,1,"),
        "{}",
        rows[2]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn muster_catalog_prints_tables_or_json() {
    let out = muster_without_config().arg("catalog").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Grenadiers") && text.contains("lotf-"),
        "{text}"
    );
    let out = muster_without_config()
        .args(["catalog", "--json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["meta"]["rule_system"], "lotf");
}
