//! What every fuzz target does with its input: the same calls the server makes on a roster or a
//! tabletop record it is sent, and the properties that must hold whatever the input. A panic
//! (including an arithmetic overflow, checked in fuzz builds) is a crash; an `Err` is an answer.

use std::sync::OnceLock;

use muster::rules::system::{RuleSystem, Severity};
use muster::rules::systems::lod::{self, Lod};
use muster::rules::systems::lotf::{self, Lotf};
use muster::rules::systems::{AnyRoster, Systems};
use muster::rules::SystemId;

/// The built-in catalogues, read once per process.
pub fn systems() -> &'static Systems {
    static SYSTEMS: OnceLock<Systems> = OnceLock::new();
    SYSTEMS.get_or_init(|| Systems::builtin().expect("the built-in catalogues read"))
}

/// Separates a set-up from a report in the `battle_setup` target's input.
pub const REPORT_SEPARATOR: &str = "\n==REPORT==\n";

/// Bytes as the server would have them: it refuses bodies that are not UTF-8, so a fuzzed input
/// is read lossily to keep every input useful rather than discarding the invalid ones.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// A check's summary agrees with its findings.
fn summary_counts(
    summary: &muster::rules::system::RosterSummary,
    findings: &[muster::rules::system::Finding],
) {
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    assert_eq!(summary.errors as usize, errors, "errors counted");
    assert_eq!(
        summary.warnings as usize,
        findings.len() - errors,
        "warnings counted"
    );
    assert_eq!(summary.legal, errors == 0, "legal exactly when no error");
}

/// What the roster service does with a document of system `R`, and what must hold of it: the
/// size check and the system's check answer; once prepared for storing, the document reads
/// back as itself and checks the same.
fn store_and_read_back<R: RuleSystem>(cat: &R::Catalogue, roster: R::Roster) {
    let _ = R::check_size(&roster);
    let (summary, findings) = R::check(cat, &roster);
    summary_counts(&summary, &findings);
    let mut stored = roster;
    R::prepare_for_storing(cat, &mut stored);
    let json = serde_json::to_string(&stored).expect("a roster serialises");
    let again = R::parse_roster(&json)
        .unwrap_or_else(|e| panic!("a stored {} roster reads back: {e}\n{json}", R::ID));
    assert_eq!(
        serde_json::to_value(&again).expect("serialises"),
        serde_json::to_value(&stored).expect("serialises"),
        "a stored roster round-trips"
    );
    assert_eq!(
        R::check(cat, &again),
        R::check(cat, &stored),
        "and checks the same"
    );
    let copy = R::renamed_copy(&stored, format!("{} (copy)", R::roster_name(&stored)));
    let _ = R::check(cat, &copy);
}

/// A Land of the Free roster document: parsed, sized, validated, priced, profiled, stored.
pub fn lotf_roster(text: &str) {
    let cat = &systems().lotf;
    let Ok(roster) = lotf::parse_roster(text) else {
        return;
    };
    let report = lotf::validate(cat, &roster);
    assert_eq!(report.legal, report.error_count() == 0);
    let points = lotf::price_roster(cat, &roster);
    assert_eq!(
        points.total, report.points.total,
        "the report prices as pricing does"
    );
    for group in &roster.groups {
        for element in &group.elements {
            let profile = lotf::profile(cat, element);
            assert_eq!(profile.points, lotf::price_element(cat, element));
        }
    }
    let _ = roster.to_json_pretty();
    store_and_read_back::<Lotf>(cat, roster);
}

/// A Liberty or Death! roster document: parsed, sized, checked in both settings, stored.
pub fn lod_roster(text: &str) {
    let cat = &systems().lod;
    let Ok(roster) = lod::parse_roster(text) else {
        return;
    };
    for setting in [lod::Setting::Standalone, lod::Setting::Campaign] {
        let report = lod::validate(cat, &roster, setting);
        let summary = lod::validate::summary(&roster, &report);
        summary_counts(&summary, &report.findings);
    }
    let _ = lod::validate::units(cat, &roster);
    let _ = roster.to_json_pretty();
    store_and_read_back::<Lod>(cat, roster);
}

/// Any document through the generic seam, as the import page and the API read it: the system
/// its `format` names (every served system when it names none), then the generic calls.
pub fn any_roster(text: &str) {
    let systems = systems();
    let named = SystemId::of_document(text);
    let candidates: Vec<SystemId> = match named {
        Some(id) => vec![id],
        None => SystemId::served().collect(),
    };
    for id in candidates {
        let Ok(mut roster) = systems.parse_roster(id, text) else {
            continue;
        };
        assert_eq!(roster.system(), id);
        let _ = roster.check_size();
        let (summary, findings) = systems.check(&roster);
        summary_counts(&summary, &findings);
        systems.prepare_for_storing(&mut roster);
        let _ = systems.catalogue_version(&roster);
        let json = roster.to_json();
        let again = systems
            .parse_roster(id, &json)
            .unwrap_or_else(|e| panic!("a stored {id} roster reads back: {e}"));
        assert_eq!(again.to_json(), json, "a stored roster round-trips");
        let _: AnyRoster = roster.renamed_copy(format!("{} (copy)", roster.name()));
    }
}

/// Set-ups to assess reports against: battles between the system's starting rosters, the same
/// ones `tests/integration/fuzz_props.rs` writes the seed reports for.
fn setups<R: RuleSystem>(cat: &R::Catalogue) -> Vec<R::Setup> {
    let starts = R::starting_rosters(cat);
    let out: Vec<R::Setup> = (0..6)
        .filter_map(|i| {
            let (a, b) = (
                &starts[i % starts.len()],
                &starts[(i * 7 + 1) % starts.len()],
            );
            R::prepare_battle(cat, a.clone(), b.clone(), None, true, i as u64)
                .ok()
                .map(|p| p.setup)
        })
        .collect();
    assert!(!out.is_empty(), "{} sets up battles", R::ID);
    out
}

pub fn lotf_setups() -> &'static [lotf::BattleSetup] {
    static SETUPS: OnceLock<Vec<lotf::BattleSetup>> = OnceLock::new();
    SETUPS.get_or_init(|| setups::<Lotf>(&systems().lotf))
}

pub fn lod_setups() -> &'static [lod::BattleSetup] {
    static SETUPS: OnceLock<Vec<lod::BattleSetup>> = OnceLock::new();
    SETUPS.get_or_init(|| setups::<Lod>(&systems().lod))
}

/// A tabletop report, as the battle service assesses it against a stored set-up; an assessed
/// outcome stores and reads back with the same summary.
fn assess<R: RuleSystem>(cat: &R::Catalogue, setup: &R::Setup, report: &serde_json::Value) {
    if let Ok(outcome) = R::assess_record(cat, setup, report) {
        let summary = R::summary(&outcome);
        let stored = serde_json::to_string(&outcome).expect("an outcome serialises");
        let again: R::Outcome = serde_json::from_str(&stored).expect("an outcome reads back");
        assert_eq!(R::summary(&again), summary, "the summary survives storing");
    }
}

/// The first byte picks the set-up; the rest is the report.
pub fn lotf_record(data: &[u8]) {
    let Some((pick, rest)) = data.split_first() else {
        return;
    };
    let setups = lotf_setups();
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&text(rest)) else {
        return;
    };
    assess::<Lotf>(
        &systems().lotf,
        &setups[usize::from(*pick) % setups.len()],
        &report,
    );
}

pub fn lod_record(data: &[u8]) {
    let Some((pick, rest)) = data.split_first() else {
        return;
    };
    let setups = lod_setups();
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&text(rest)) else {
        return;
    };
    assess::<Lod>(
        &systems().lod,
        &setups[usize::from(*pick) % setups.len()],
        &report,
    );
}

/// A stored set-up of either system read back, told, written again, and a report (after
/// [`REPORT_SEPARATOR`]) assessed against it.
fn setup_of<R: RuleSystem>(cat: &R::Catalogue, setup: &str, report: Option<&serde_json::Value>) {
    let Ok(parsed) = R::parse_setup(setup) else {
        return;
    };
    let facts = R::setup_facts(cat, &parsed);
    let written = R::write_setup(&parsed);
    let again = R::parse_setup(&written)
        .unwrap_or_else(|e| panic!("a written {} set-up reads back: {e}", R::ID));
    assert_eq!(R::setup_facts(cat, &again), facts, "a set-up round-trips");
    if let Some(report) = report {
        assess::<R>(cat, &parsed, report);
    }
}

pub fn battle_setup(data: &[u8]) {
    let input = text(data);
    let (setup, report) = match input.split_once(REPORT_SEPARATOR) {
        Some((s, r)) => (s, serde_json::from_str::<serde_json::Value>(r).ok()),
        None => (&*input, None),
    };
    let systems = systems();
    setup_of::<Lotf>(&systems.lotf, setup, report.as_ref());
    setup_of::<Lod>(&systems.lod, setup, report.as_ref());
}

/// A report built field by field from the input (structure-aware): byte-level mutation of JSON
/// rarely changes two numbers together, which is what it took to find the objectives overflow.
/// Every element of each side is reported or left out, with any state and any hit count; any
/// turns and objectives; commanders killed or captured at will.
pub fn lotf_record_fields(data: &[u8]) {
    use libfuzzer_sys::arbitrary::Unstructured;
    const STATES: [&str; 6] = [
        "fit",
        "shaken",
        "exhausted",
        "shattered",
        "left_the_field",
        "lost",
    ];
    const FATES: [&str; 3] = ["unharmed", "killed", "captured"];
    let mut u = Unstructured::new(data);
    let setups = lotf_setups();
    let Ok(pick) = u.choose_index(setups.len()) else {
        return;
    };
    let setup = &setups[pick];
    let mut elements = Vec::new();
    let mut commanders = Vec::new();
    for (side, force) in [("attacker", &setup.attacker), ("defender", &setup.defender)] {
        for e in force.roster.groups.iter().flat_map(|g| &g.elements) {
            let times = u.choose_index(3).unwrap_or(1); // left out, once, twice
            for _ in 0..times {
                let state = u.choose(&STATES).copied().unwrap_or("fit");
                let hits: u32 = u.arbitrary().unwrap_or(0);
                elements.push(
                    serde_json::json!({"side": side, "id": e.id, "state": state, "hits": hits}),
                );
            }
        }
        for c in force
            .roster
            .groups
            .iter()
            .filter_map(|g| g.commander.as_ref())
        {
            if u.arbitrary().unwrap_or(false) {
                let fate = u.choose(&FATES).copied().unwrap_or("killed");
                commanders.push(serde_json::json!({"side": side, "id": c.id, "fate": fate}));
            }
        }
    }
    let report = serde_json::json!({
        "turns_played": u.arbitrary::<u32>().unwrap_or(6),
        "elements": elements,
        "commanders": commanders,
        "attacker_objectives": u.arbitrary::<u32>().unwrap_or(0),
        "defender_objectives": u.arbitrary::<u32>().unwrap_or(0),
    });
    assess::<Lotf>(&systems().lotf, setup, &report);
}

/// The Liberty or Death! report built field by field, as [`lotf_record_fields`].
pub fn lod_record_fields(data: &[u8]) {
    use libfuzzer_sys::arbitrary::Unstructured;
    const ENDS: [&str; 6] = ["steady", "worn", "shaken", "broken", "routed_off", "fled"];
    let mut u = Unstructured::new(data);
    let setups = lod_setups();
    let Ok(pick) = u.choose_index(setups.len()) else {
        return;
    };
    let setup = &setups[pick];
    let mut side = |force: &lod::battle::ForceSetup| {
        let mut units = serde_json::Map::new();
        for (_, _, unit) in force.roster.units() {
            if u.ratio(7u8, 8u8).unwrap_or(true) {
                let end = u.choose(&ENDS).copied().unwrap_or("steady");
                units.insert(unit.id.clone().unwrap_or_default(), serde_json::json!(end));
            }
        }
        let killed: Vec<serde_json::Value> = force
            .roster
            .brigades
            .iter()
            .filter_map(|b| b.general.as_ref()?.id.clone())
            .filter(|_| u.ratio(1u8, 4u8).unwrap_or(false))
            .map(serde_json::Value::String)
            .collect();
        serde_json::json!({"units": units, "generals_killed": killed})
    };
    let attacker = side(&setup.attacker);
    let defender = side(&setup.defender);
    let report = serde_json::json!({
        "turns_played": u.arbitrary::<u32>().unwrap_or(5),
        "attacker": attacker,
        "defender": defender,
    });
    assess::<Lod>(&systems().lod, setup, &report);
}
