//! Unit tests of All the King's Men in a campaign (K-51 to K-53): enlistment by war, the
//! army's shape, strengths as the campaign stores them, what a decided battle carries over,
//! and a campaign battle's set-up fought by the simulator with those losses.

use super::battle::{Outcome, OPEN_BATTLE};
use super::campaign::{read, read_size, report_of, size_code};
use super::catalogue::{scenario_rosters, Catalogue};
use super::roster::RosterDoc;
use super::system::Atkm;
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::forces_api::{Carried, ForceRules, RosterJson, SetupForce};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, RuleSystem};

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("catalogue: {e}"),
    }
}

fn sample(id: &str) -> RosterDoc {
    scenario_rosters()
        .into_iter()
        .find(|r| r.id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("sample force {id}"))
}

fn json(doc: &RosterDoc) -> RosterJson {
    RosterJson::read(doc.clone())
}

fn enlisted(cat: &Catalogue, id: &str) -> RosterJson {
    cat.enlistment(&json(&sample(id)), "american_revolution", 8)
        .unwrap_or_else(|e| panic!("{id} enlists: {e}"))
}

#[test]
fn a_strength_reads_back_as_it_was_written() {
    for (n, o, e) in [
        (12, true, true),
        (9, true, false),
        (5, false, true),
        (3, false, false),
    ] {
        assert_eq!(read_size(&size_code(n, o, e)), Some((n, o, e)));
    }
    assert_eq!(size_code(9, true, false), "9+O");
    assert_eq!(read_size("9+O+O"), None, "one officer only");
    assert_eq!(read_size("nine"), None);
    assert_eq!(
        cat().size_label("9+O"),
        "9 rank and file, officer, no ensign (colours taken)"
    );
}

#[test]
fn an_army_enlists_only_in_the_war_of_its_period() {
    let cat = cat();
    let cowpens = json(&sample("cowpens_1781_americans"));
    assert!(cat.enlistment(&cowpens, "american_revolution", 8).is_ok());
    let refused = cat
        .enlistment(&cowpens, "war_of_1812", 8)
        .expect_err("an AWI army is not raised for 1812");
    assert!(refused.contains("American Revolution"), "{refused}");
    // K-52: an army of no particular war takes the campaign's.
    let any = RosterDoc::new("Anyone");
    let taken = cat
        .enlistment(&json(&any), "french_indian_war", 8)
        .expect("a generic army enlists");
    assert_eq!(
        read(&taken).map(|d| d.period.clone()).ok(),
        Some("fiw".into())
    );
}

#[test]
fn the_commanding_general_leads_and_each_general_has_his_command() {
    let cat = cat();
    let mut doc = sample("cowpens_1781_americans");
    doc.generals.push(super::roster::GeneralDoc {
        id: Some("g2".into()),
        name: "Pickens".into(),
        rating: 2,
        role: "lieutenant".into(),
        command_radius: None,
        rating_roll: None,
    });
    doc.units[1].general = Some("g2".into());
    let shape = cat.shape(&json(&doc)).expect("a shape");
    assert_eq!(
        shape.commander.as_ref().map(|c| c.name.as_str()),
        Some("Daniel Morgan")
    );
    assert_eq!(shape.groups.len(), 2);
    assert!(shape.groups[0].commander.is_none(), "Morgan is named once");
    assert_eq!(
        shape.groups[1].commander.as_ref().map(|c| c.id.as_str()),
        Some("g2")
    );
    assert_eq!(shape.groups[1].elements.len(), 1);
    assert_eq!(shape.elements().count(), 7);
    let first = shape.element("u1").expect("the Continentals");
    assert_eq!(first.size, "12+O+E");
    assert_eq!(
        first.rank, 7,
        "12 privates stand 8 above a break point of 4"
    );
    assert!(cat.switch_label("field_promotion", "x").is_none());
    assert!(cat.switch_label("reinforcements", "x").is_none());
    assert!(cat
        .switch_label("persistent_casualties", "x")
        .is_some_and(|l| l.contains("K-51")));
}

/// A decided battle: the Americans' u1 lost three privates and its colours, u2 collapsed; the
/// British gun collapsed with its battery.
fn outcome(cat: &Catalogue) -> Outcome {
    let setup = cat
        .battle_setup(
            SetupForce {
                roster: &enlisted(cat, "cowpens_1781_americans"),
                ratings: &Default::default(),
            },
            SetupForce {
                roster: &enlisted(cat, "cowpens_1781_british"),
                ratings: &Default::default(),
            },
            OPEN_BATTLE,
            8,
            3,
        )
        .expect("set up");
    let setup = Atkm::parse_setup(&setup.setup).expect("an ATKM set-up");
    let mut o = super::sim::fight(cat, &setup).expect("fought");
    for u in &mut o.attacker.units {
        u.collapsed = u.id == "u2";
        u.rank_and_file_end = if u.id == "u1" {
            9
        } else {
            u.rank_and_file_start
        };
        u.officer_lost = false;
        u.ensign_lost = u.id == "u1";
        u.gun_lost = false;
    }
    for u in &mut o.defender.units {
        u.collapsed = u.id == "u3";
        u.gun_lost = u.id == "u3";
        u.rank_and_file_end = u.rank_and_file_start;
        u.officer_lost = false;
        u.ensign_lost = false;
    }
    o.winner = Some(BattleSide::Attacker);
    o.level = "victory".into();
    o
}

#[test]
fn a_battle_carries_figures_colours_and_collapses_over() {
    let cat = cat();
    let report = report_of(&outcome(&cat));
    let end = |side: BattleSide, id: &str| {
        report
            .elements
            .iter()
            .find(|e| e.side == side && e.id == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id}"))
    };
    // K-51: as the battle left them, no roll.
    assert_eq!(
        end(BattleSide::Attacker, "u1").carried,
        Some(Carried::Size("9+O".into()))
    );
    assert_eq!(end(BattleSide::Attacker, "u1").end, EndState::Shaken);
    assert_eq!(end(BattleSide::Attacker, "u2").carried, Some(Carried::Lost));
    assert_eq!(
        end(BattleSide::Attacker, "u3").carried,
        Some(Carried::Size("12+O+E".into()))
    );
    assert_eq!(
        end(BattleSide::Defender, "u3").carried,
        Some(Carried::Lost),
        "a collapsed battery is gone with its gun"
    );
    // K-53: one point per enemy unit broken, 2 more for a victory.
    assert_eq!(report.result.winner.as_deref(), Some("attacker"));
    assert_eq!(report.result.level, "clear");
    assert_eq!(
        (report.result.attacker_vp, report.result.defender_vp),
        (3, 1)
    );
}

#[test]
fn a_reduced_army_fights_its_next_battle_as_it_stands() {
    let cat = cat();
    let mut americans = enlisted(&cat, "cowpens_1781_americans");
    // K-51: u1 without its ensign, nine privates left; the skirmishers at three.
    assert_eq!(
        cat.resize(&mut americans, "u1", "9+O", &[]).as_deref(),
        Ok("9 rank and file, officer, no ensign (colours taken)")
    );
    cat.resize(&mut americans, "u6", "3+O+E", &[])
        .expect("resized");
    let doc = read(&americans).expect("read").into_owned();
    assert_eq!(doc.units[0].rank_and_file, Some(9));
    assert!(!doc.units[0].ensign && doc.units[0].officer);
    assert_eq!(doc.units[0].break_point, Some(4), "the break point is kept");
    assert!(
        cat.problems(&americans, 8, true).is_empty(),
        "losses are no faults in a running campaign: {:?}",
        cat.problems(&americans, 8, true)
    );
    assert!(
        !cat.problems(&americans, 8, false).is_empty(),
        "but a fresh army must be whole"
    );
    let british = enlisted(&cat, "cowpens_1781_british");
    let setup = cat
        .battle_setup(
            SetupForce {
                roster: &americans,
                ratings: &Default::default(),
            },
            SetupForce {
                roster: &british,
                ratings: &Default::default(),
            },
            OPEN_BATTLE,
            8,
            11,
        )
        .expect("set up");
    let setup = Atkm::parse_setup(&setup.setup).expect("an ATKM set-up");
    assert_eq!(
        setup.attacker.roster.name, doc.name,
        "the campaign's attacker attacks"
    );
    assert!(setup.attacker.roster.carried_losses);
    let o = super::sim::fight(&cat, &setup).expect("the simulator takes the reduced army");
    let u1 = o.attacker.units.iter().find(|u| u.id == "u1").expect("u1");
    assert_eq!(u1.rank_and_file_start, 9);
    assert!(u1.ensign_lost, "a lost ensign stays lost (K-51)");
}

#[test]
fn a_war_party_keeps_its_break_point_as_it_shrinks() {
    let cat = cat();
    let mut doc = RosterDoc::new("Raiders");
    doc.period = "fiw".into();
    doc.advanced_rules.push("woodland_indians".into());
    let mut party = super::catalogue::scenario_rosters()[0].units[0].clone();
    party.id = Some("w1".into());
    party.unit_type = "woodland_indians".into();
    party.rank_and_file = Some(10);
    party.break_point = None;
    party.quality = None;
    party.label = None;
    party.general = Some("g1".into());
    doc.units = vec![party];
    let mut force = cat
        .enlistment(&json(&doc), "french_indian_war", 8)
        .expect("enlists");
    assert!(cat.problems(&force, 8, false).is_empty());
    cat.resize(&mut force, "w1", "6+O+E", &[]).expect("resized");
    let shape = cat.shape(&force).expect("shape");
    let w1 = shape.element("w1").expect("w1");
    assert_eq!(
        w1.rank, 0,
        "six warriors stand one above the break point of 5"
    );
    assert!(cat.problems(&force, 8, true).is_empty());
    assert_eq!(cat.reduce(&force, "w1", 0), None, "nothing smaller stands");
}

#[test]
fn a_winners_unit_rises_a_quality_step_on_a_six() {
    let cat = cat();
    let mut americans = enlisted(&cat, "cowpens_1781_americans");
    let report = report_of(&outcome(&cat));
    let mut rises = 0;
    for seed in 0..60 {
        let promotions = cat.unit_experience(
            &americans,
            &report,
            BattleSide::Attacker,
            &mut Dice::from_seed(seed),
        );
        assert!(
            promotions.iter().all(|p| p.element != "u2"),
            "a collapsed unit does not roll"
        );
        assert_eq!(promotions.len(), 6, "every other unit rolls");
        for p in &promotions {
            assert_eq!(p.to.is_some(), p.roll == 6);
        }
        rises += promotions.iter().filter(|p| p.to.is_some()).count();
    }
    assert!(rises > 20, "about one in six: {rises}");
    let loser = cat.unit_experience(
        &enlisted(&cat, "cowpens_1781_british"),
        &report,
        BattleSide::Defender,
        &mut Dice::from_seed(1),
    );
    assert!(loser.is_empty(), "only the winner rolls");
    // Militia u3 becomes regular.
    let words = cat
        .promote(&mut americans, "u3", "regular")
        .expect("promoted");
    assert!(words.starts_with("Regular"), "{words}");
    let doc = read(&americans).expect("read");
    assert_eq!(doc.units[2].quality.as_deref(), Some("regular"));
    assert!(cat.problems(&americans, 8, true).is_empty());
}
