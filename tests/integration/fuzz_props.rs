//! The fuzz targets (`fuzz/`) as quick property tests, for every rule system through the
//! `RuleSystem` seam. `conformance.rs` already feeds any JSON and mutated starting rosters to the
//! check; this adds what it does not reach: text that is not JSON or is damaged JSON, the
//! generic dispatch that reads a document by its `format`, storing (ids given, then read back
//! as itself), stored battle set-ups read back, and tabletop records assessed against a set-up.
//! Each property runs a few hundred fixed-seed cases.

use std::cell::Cell;

use muster::rules::system::{RuleSystem, Severity};
use muster::rules::systems::lod::{self, Lod};
use muster::rules::systems::lotf::{self, Lotf};
use muster::rules::systems::Systems;
use muster::rules::SystemId;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};

use crate::conformance::{json_value, mutate, plausible_value};

/// A fixed seed: the same cases every run, so the counts asserted below cannot flake.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        ProptestConfig {
            cases,
            ..ProptestConfig::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

fn systems() -> Systems {
    Systems::builtin().expect("the built-in catalogues")
}

/// A character boundary of `text` picked by `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `text` with `insert` put in at a place picked by `at`.
fn damaged(text: &str, at: usize, insert: &str) -> String {
    let at = boundary(text, at);
    format!("{}{insert}{}", &text[..at], &text[at..])
}

/// Reads `text` as the generic seam does (the system its `format` names, else each served
/// one), checks what it read, stores it and reads it back; says whether any system read it.
fn read_as_the_server_does(systems: &Systems, text: &str) -> bool {
    let candidates: Vec<SystemId> = match SystemId::of_document(text) {
        Some(id) => vec![id],
        None => SystemId::served().collect(),
    };
    let mut read = false;
    for id in candidates {
        let Ok(mut roster) = systems.parse_roster(id, text) else {
            continue;
        };
        read = true;
        assert_eq!(roster.system(), id);
        let _ = roster.check_size();
        let (summary, findings) = systems.check(&roster);
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        assert_eq!(summary.errors as usize, errors, "{text}");
        assert_eq!(summary.legal, errors == 0, "{text}");
        // Stored, it reads back as itself and checks the same.
        systems.prepare_for_storing(&mut roster);
        let stored = roster.to_json();
        let again = systems
            .parse_roster(id, &stored)
            .unwrap_or_else(|e| panic!("a stored {id} roster reads back: {e}\n{stored}"));
        assert_eq!(again.to_json(), stored, "a stored roster round-trips");
        assert_eq!(systems.check(&again), systems.check(&roster));
    }
    read
}

/// Every served system's starting rosters as JSON texts.
fn starting_texts(systems: &Systems) -> Vec<String> {
    let mut texts: Vec<String> = Lotf::starting_rosters(&systems.lotf)
        .iter()
        .map(|r| r.to_json_pretty())
        .collect();
    texts.extend(
        Lod::starting_rosters(&systems.lod)
            .iter()
            .map(|r| r.to_json_pretty()),
    );
    texts
}

/// Any text, and starting rosters cut and spliced with any text: read through the seam without
/// a panic, and whatever is read stores and reads back as itself.
#[test]
fn any_text_reads_through_the_seam_without_panic() {
    let systems = systems();
    let starts = starting_texts(&systems);
    let strategy = (
        prop_oneof![
            ".{0,64}",
            prop::collection::vec(any::<u8>(), 0..64)
                .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            Just(String::new()),
        ],
        any::<prop::sample::Index>(),
        any::<usize>(),
        any::<bool>(),
    );
    let read = Cell::new(0u32);
    runner(300)
        .run(&strategy, |(noise, start, at, cut)| {
            read_as_the_server_does(&systems, &noise);
            let text = &starts[start.index(starts.len())];
            let spoilt = if cut {
                text[..boundary(text, at)].to_string()
            } else {
                damaged(text, at, &noise)
            };
            if read_as_the_server_does(&systems, &spoilt) {
                read.set(read.get() + 1);
            }
            Ok(())
        })
        .expect("no panic; what is read round-trips");
    // Inserting text in whitespace or a string keeps a document readable: the spliced cases
    // must reach the check and the store, not only the JSON reader's refusals.
    let read = read.get();
    assert!(read >= 30, "only {read} damaged rosters were read");
    // Every starting roster itself reads through the seam, by the system its format names.
    for text in &starts {
        assert!(read_as_the_server_does(&systems, text), "{text}");
    }
}

/// Starting rosters with one node replaced, as in `conformance.rs`, now stored and read back:
/// prepared for storing, a readable roster is read back as itself.
#[test]
fn mutated_rosters_store_and_read_back_as_themselves() {
    let systems = systems();
    let starts: Vec<Value> = starting_texts(&systems)
        .iter()
        .map(|t| serde_json::from_str(t).expect("JSON"))
        .collect();
    let strategy = (
        json_value(),
        plausible_value(),
        any::<bool>(),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<usize>(), 0..7),
    );
    let stored = Cell::new(0u32);
    runner(300)
        .run(&strategy, |(wild, plausible, use_wild, start, path)| {
            let mut doc = starts[start.index(starts.len())].clone();
            mutate(&mut doc, &path, if use_wild { wild } else { plausible });
            if read_as_the_server_does(&systems, &doc.to_string()) {
                stored.set(stored.get() + 1);
            }
            Ok(())
        })
        .expect("no panic; stored rosters read back");
    let stored = stored.get();
    assert!(stored >= 15, "only {stored} mutated rosters were read");
}

/// Land of the Free's words in a tabletop record.
const LOTF_REPORT_WORDS: &[&str] = &[
    "attacker",
    "defender",
    "fit",
    "shaken",
    "exhausted",
    "shattered",
    "left_the_field",
    "unharmed",
    "killed",
    "captured",
    "",
];

/// Liberty or Death!'s words in a tabletop record.
const LOD_REPORT_WORDS: &[&str] = &["steady", "worn", "shaken", "broken", "routed_off", ""];

/// A system's report words and numbers around the limits, so that mutations keep many reports
/// readable.
fn report_value(words: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => prop::sample::select(words).prop_map(|w| json!(w)),
        2 => prop_oneof![0u64..12, Just(u64::from(u32::MAX)), Just(u64::MAX)].prop_map(|n| json!(n)),
        1 => prop_oneof![Just(json!(-1)), Just(json!([])), Just(json!({}))],
    ]
}

/// Set-ups between a system's starting rosters, as the battle service prepares them (the same
/// ones the fuzz targets assess reports against).
fn setups<R: RuleSystem>(cat: &R::Catalogue) -> Vec<R::Setup> {
    let starts = R::starting_rosters(cat);
    (0..6)
        .filter_map(|i| {
            let (a, b) = (
                &starts[i % starts.len()],
                &starts[(i * 7 + 1) % starts.len()],
            );
            R::prepare_battle(cat, a.clone(), b.clone(), None, true, i as u64)
                .ok()
                .map(|p| p.setup)
        })
        .collect()
}

/// A report every element of both sides Fit but the first Shattered, the first group's
/// commander killed, one objective held where the scenario has objectives.
fn lotf_report(setup: &lotf::BattleSetup) -> Value {
    let (mut elements, mut commanders) = (Vec::new(), Vec::new());
    for (side, force) in [("attacker", &setup.attacker), ("defender", &setup.defender)] {
        for (i, e) in force
            .roster
            .groups
            .iter()
            .flat_map(|g| &g.elements)
            .enumerate()
        {
            let state = if i == 0 { "shattered" } else { "fit" };
            elements.push(json!({"side": side, "id": e.id, "state": state, "hits": i % 3}));
        }
        if let Some(c) = force
            .roster
            .groups
            .first()
            .and_then(|g| g.commander.as_ref())
        {
            commanders.push(json!({"side": side, "id": c.id, "fate": "killed"}));
        }
    }
    // Objectives only where the scenario has them.
    let held = lotf::record::objective_count(setup.scenario).min(1);
    json!({"turns_played": 6, "elements": elements, "commanders": commanders,
           "attacker_objectives": held, "defender_objectives": 0})
}

/// A report every unit steady but the first of each side broken, one General killed.
fn lod_report(setup: &lod::BattleSetup) -> Value {
    let side = |force: &lod::battle::ForceSetup| {
        let units: serde_json::Map<String, Value> = force
            .roster
            .units()
            .enumerate()
            .map(|(i, (_, _, u))| {
                let end = if i == 0 { "broken" } else { "steady" };
                (u.id.clone().unwrap_or_default(), json!(end))
            })
            .collect();
        let killed: Vec<Value> = force
            .roster
            .brigades
            .iter()
            .filter_map(|b| b.general.as_ref()?.id.clone())
            .take(1)
            .map(Value::String)
            .collect();
        json!({"units": units, "generals_killed": killed})
    };
    json!({"turns_played": 5, "attacker": side(&setup.attacker), "defender": side(&setup.defender)})
}

/// Any JSON and valid reports with one node replaced, assessed against real set-ups: never a
/// panic; a report that is refused names its problems; an assessed one stores and reads back
/// with the same summary. The unchanged report is assessed, so the mutations start from a
/// report the assessor accepts.
fn records_never_panic<R: RuleSystem>(
    cat: &R::Catalogue,
    report_of: impl Fn(&R::Setup) -> Value,
    words: &'static [&'static str],
    cases: u32,
) {
    let setups = setups::<R>(cat);
    assert!(!setups.is_empty(), "{} sets battles up", R::ID);
    for setup in &setups {
        let report = report_of(setup);
        if let Err(problems) = R::assess_record(cat, setup, &report) {
            panic!("{}: a complete report is assessed: {problems:?}", R::ID);
        }
    }
    let strategy = (
        json_value(),
        report_value(words),
        // Mostly the system's own words, so that many mutated reports are still assessed.
        prop::bool::weighted(0.25),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<usize>(), 0..5),
    );
    let (assessed, refused) = (Cell::new(0u32), Cell::new(0u32));
    runner(cases)
        .run(&strategy, |(wild, word, use_wild, pick, path)| {
            let setup = &setups[pick.index(setups.len())];
            let _ = R::assess_record(cat, setup, &wild);
            let mut report = report_of(setup);
            mutate(&mut report, &path, if use_wild { wild } else { word });
            match R::assess_record(cat, setup, &report) {
                Ok(outcome) => {
                    assessed.set(assessed.get() + 1);
                    let summary = R::summary(&outcome);
                    let text = serde_json::to_string(&outcome).expect("serialises");
                    let again: R::Outcome = serde_json::from_str(&text).expect("reads back");
                    prop_assert_eq!(R::summary(&again), summary);
                }
                Err(problems) => {
                    refused.set(refused.get() + 1);
                    prop_assert!(!problems.is_empty(), "a refusal names a problem");
                    for p in &problems {
                        prop_assert!(!p.message.is_empty() && !p.field.is_empty(), "{:?}", p);
                    }
                }
            }
            Ok(())
        })
        .expect("no panic");
    let (assessed, refused) = (assessed.get(), refused.get());
    // Both ways must be reached, or the mutations test only one side of the assessor (most
    // single changes make a report impossible, so fewer are assessed).
    assert!(
        assessed >= cases / 50 && refused >= cases / 20,
        "{}: {assessed} assessed, {refused} refused",
        R::ID
    );
}

#[test]
fn lotf_records_never_panic() {
    records_never_panic::<Lotf>(&systems().lotf, lotf_report, LOTF_REPORT_WORDS, 300);
}

#[test]
fn lod_records_never_panic() {
    records_never_panic::<Lod>(&systems().lod, lod_report, LOD_REPORT_WORDS, 300);
}

/// Stored set-ups of either system with one node replaced (or damaged text): reading never
/// panics, and a set-up that reads writes and reads back as the same battle.
fn setups_read_back<R: RuleSystem>(cat: &R::Catalogue, cases: u32) {
    let texts: Vec<String> = setups::<R>(cat).iter().map(R::write_setup).collect();
    let strategy = (
        json_value(),
        plausible_value(),
        any::<bool>(),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<usize>(), 0..7),
        any::<usize>(),
    );
    let read = Cell::new(0u32);
    runner(cases)
        .run(&strategy, |(wild, plausible, use_wild, pick, path, at)| {
            let text = &texts[pick.index(texts.len())];
            let _ = R::parse_setup(&damaged(text, at, "\"}"));
            let mut doc: Value = serde_json::from_str(text).expect("a written set-up is JSON");
            mutate(&mut doc, &path, if use_wild { wild } else { plausible });
            if let Ok(setup) = R::parse_setup(&doc.to_string()) {
                read.set(read.get() + 1);
                let facts = R::setup_facts(cat, &setup);
                let again = R::parse_setup(&R::write_setup(&setup))
                    .map_err(|e| TestCaseError::fail(format!("reads back: {e}")))?;
                prop_assert_eq!(R::setup_facts(cat, &again), facts);
            }
            Ok(())
        })
        .expect("no panic; set-ups read back");
    let read = read.get();
    assert!(
        read >= cases / 20,
        "{}: only {read} set-ups were read",
        R::ID
    );
}

#[test]
fn lotf_setups_read_back() {
    setups_read_back::<Lotf>(&systems().lotf, 200);
}

#[test]
fn lod_setups_read_back() {
    setups_read_back::<Lod>(&systems().lod, 200);
}

/// Writes the seed corpora of the record and set-up fuzz targets (`fuzz/seeds/`): a complete
/// report for each set-up the targets use, alone (after the byte that picks the set-up) and
/// after its set-up. Run after a change to the set-up or report formats:
/// `cargo test --test integration fuzz_props::write_fuzz_seeds -- --ignored`.
#[test]
#[ignore = "writes files: run by hand to refresh the fuzz seeds"]
fn write_fuzz_seeds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let write = |target: &str, name: String, bytes: Vec<u8>| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).expect("the seed folder");
        std::fs::write(dir.join(name), bytes).expect("a seed");
    };
    let systems = systems();
    fn seeds<R: RuleSystem>(
        cat: &R::Catalogue,
        report_of: impl Fn(&R::Setup) -> Value,
        write: &impl Fn(&str, String, Vec<u8>),
        record_target: &str,
    ) {
        for (i, setup) in setups::<R>(cat).iter().enumerate() {
            let report = report_of(setup).to_string();
            let mut picked = vec![u8::try_from(i).expect("a few set-ups")];
            picked.extend(report.as_bytes());
            write(record_target, format!("report-{i:02}.json"), picked);
            let both = format!("{}\n==REPORT==\n{report}", R::write_setup(setup));
            write(
                "battle_setup",
                format!("{}-{i:02}.json", R::ID.id()),
                both.into_bytes(),
            );
        }
    }
    seeds::<Lotf>(&systems.lotf, lotf_report, &write, "lotf_record");
    seeds::<Lod>(&systems.lod, lod_report, &write, "lod_record");
}
