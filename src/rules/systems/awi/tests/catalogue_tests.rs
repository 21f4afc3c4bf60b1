//! The catalogue holds the spec's numbers (sections 1 and 4) and checks itself.

use super::super::catalogue::band_at;
use super::super::types::{Arms, Grade, GunClass, MoveRow, RangeBand, TroopType};
use super::super::Catalogue;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

#[test]
fn the_builtin_catalogue_reads_and_checks() {
    let c = cat();
    assert_eq!(c.meta.system, "awi");
    assert_eq!(c.hit.base_need, 7);
}

#[test]
fn troop_types_carry_figures_men_and_close_order() {
    let c = cat();
    let inf = c.troop(TroopType::Infantry);
    assert_eq!((inf.figures_per_base, inf.men_per_base), (3, 60));
    assert!(inf.close_order);
    let sk = c.troop(TroopType::Skirmishers);
    assert_eq!((sk.figures_per_base, sk.men_per_base), (2, 30));
    assert!(!sk.close_order, "W-33: skirmishers are open order");
    assert!(sk.arms.contains(&Arms::Rifle));
    assert!(!inf.arms.contains(&Arms::Rifle), "W-34");
    assert_eq!(c.troop(TroopType::Cavalry).base_mm, [45, 40]);
    assert!(!c.troop(TroopType::Artillery).close_order);
}

#[test]
fn grades_change_every_number_of_table_1_3() {
    let c = cat();
    let m = |g| {
        let x = c.grade(g);
        (
            x.morale,
            x.uncontrolled,
            x.firing_need,
            x.entering,
            x.melee_need,
            x.losers,
        )
    };
    assert_eq!(m(Grade::Elite), (1, 2, 0, 1, -1, -2));
    assert_eq!(m(Grade::Trained), (0, 0, 0, 0, 0, 0));
    assert_eq!(m(Grade::Raw), (-1, -1, 0, -1, 0, 1));
    assert_eq!(m(Grade::Militia), (-2, -2, 1, -3, 1, 2));
    assert_eq!(c.grade(Grade::Trained).morale_dice.sides(), 5, "W-6");
    assert_eq!(c.grade(Grade::Raw).morale_dice.sides(), 6, "W-6");
}

#[test]
fn movement_and_charge_moves_follow_table_1_4() {
    let c = cat();
    let row = |r| {
        let m = c.movement_row(r);
        (m.normal, m.charge(), m.pursuit, m.rout)
    };
    assert_eq!(row(MoveRow::InfantryLine), (6, Some(8), Some(10), Some(16)));
    assert_eq!(
        row(MoveRow::InfantryColumn),
        (10, Some(12), Some(12), Some(16))
    );
    assert_eq!(
        row(MoveRow::Skirmishers),
        (12, Some(14), Some(12), Some(16))
    );
    assert_eq!(row(MoveRow::Cavalry), (12, Some(18), Some(24), Some(28)));
    assert_eq!(row(MoveRow::ManHandledMedium), (2, None, None, None));
}

#[test]
fn range_bands_include_their_upper_figure() {
    let c = cat();
    let musket = &c.weapon(Arms::Musket).bands;
    assert_eq!(band_at(musket, 4.0), Some(RangeBand::Close), "W-18");
    assert_eq!(band_at(musket, 4.5), Some(RangeBand::Long));
    assert_eq!(band_at(musket, 8.0), Some(RangeBand::Long));
    assert_eq!(band_at(musket, 8.5), None);
    let medium = &c.gun(GunClass::Medium).bands;
    assert_eq!(band_at(medium, 3.0), Some(RangeBand::Canister));
    assert_eq!(band_at(medium, 30.0), Some(RangeBand::Extreme));
    assert_eq!(band_at(medium, 31.0), None);
    assert_eq!(
        band_at(&c.weapon(Arms::Rifle).bands, 12.0),
        Some(RangeBand::Long)
    );
    assert_eq!(band_at(musket, f64::NAN), None);
}

#[test]
fn gun_dice_follow_the_gunners() {
    let c = cat();
    assert_eq!(
        (0..=4).map(|g| c.gun_dice_for(g)).collect::<Vec<_>>(),
        [0, 1, 1, 2, 2]
    );
}

#[test]
fn the_reconstructed_morale_table_is_the_digest_s() {
    // W-7: +1 rear support, elite, brigadier, no enemy within 12", obstacle; +2 pursuing, won,
    // CinC; -1 per 10 %, same-class routers, flank/rear, raw; -2 lost, in rout, higher-class
    // routers, militia.
    let c = cat();
    for (id, v) in [
        ("rear_support", 1),
        ("no_enemy_within_12", 1),
        ("cinc_attached", 2),
        ("per_10pct_dead", -1),
        ("enemy_flank_rear", -1),
        ("per_routing_higher_class", -2),
        ("militia", -2),
    ] {
        assert_eq!(c.morale_mod(id), v, "{id}");
    }
    assert_eq!(c.morale_band(5).id, "ok");
    assert_eq!(c.morale_band(4).id, "halt");
    assert_eq!(c.morale_band(1).id, "halt_disordered");
    assert_eq!(c.morale_band(0).id, "rout");
    assert_eq!(c.morale_band(-7).id, "rout");
}

#[test]
fn modifier_tables_hold_the_spec_s_values() {
    let c = cat();
    assert_eq!(c.firing_mod("canister"), -2);
    assert_eq!(c.firing_mod("strong_house"), 2);
    assert_eq!(c.melee_mod("v_unsupported_gunners"), -4);
    assert_eq!(c.melee_mod("infantry_v_strong_house"), 3);
    assert_eq!(c.entering_mod("unsupported_gunners"), -4);
    assert_eq!(c.entering_mod("cavalry_v_ordered_infantry"), -3);
    assert_eq!(c.uncontrolled_mod("cavalry"), 2);
    assert_eq!(c.losers_mod("cavalry_charged"), -2);
    assert_eq!(c.losers.break_at, 6);
    assert_eq!(c.uncontrolled_band(9).id, "full");
    assert_eq!(c.uncontrolled_band(8).id, "half");
    assert_eq!(c.uncontrolled_band(4).id, "none");
    assert_eq!((c.victory.turns, c.victory.enemy_broke), (6, 5));
}
