//! One melee round between two units (4.5): both sides roll at once; hits are marked, the score
//! judged (size bonus after this round's hits, L-29), the loser tests MORALE (need 3) and the
//! winner may route, pursue or break through.

use serde::{Deserialize, Serialize};

use super::super::catalogue::Catalogue;
use super::super::mechanics::{melee_hit_faces, melee_pool, save_faces, Against, Fight, Pool};
use super::super::types::{HitState, Kind, MoraleResult, MoraleTrigger, SpecialRule};
use super::dist::{at_least, binomial, mean};
use super::shooting::StateTest;
use super::test::morale_test;
use super::{cite, unit, OddsError, StateChances, UnitAt};

/// One side of a melee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeSide {
    pub list: String,
    pub entry: String,
    pub bases: u32,
    #[serde(default)]
    pub grenadiers_detached: bool,
    #[serde(default)]
    pub hits: u32,
    #[serde(default)]
    pub disorder_markers: u32,
    /// Front-rank bases in base contact; all its bases when absent.
    #[serde(default)]
    pub direct_bases: Option<u32>,
    #[serde(default)]
    pub supporting_bases: Option<u32>,
    /// Charged in and this is the first round (L-33).
    #[serde(default)]
    pub charging: bool,
    /// Which side of the enemy it fights.
    #[serde(default)]
    pub against: Against,
    #[serde(default)]
    pub enemy_defending_obstacle: bool,
    #[serde(default)]
    pub enemy_uphill: bool,
    /// Neither unit in difficult terrain, behind an obstacle, in a building or fortified (L-25).
    #[serde(default)]
    pub in_the_open: bool,
    #[serde(default)]
    pub general_attached: bool,
    #[serde(default)]
    pub lead_the_fight: bool,
    #[serde(default)]
    pub in_command: bool,
    #[serde(default)]
    pub supported: bool,
    #[serde(default)]
    pub hold_the_line: bool,
    /// Limbered guns fight with the half-die minimum only (L-25).
    #[serde(default)]
    pub limbered: bool,
}

/// `POST /api/v1/lod/odds/melee`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeRequest {
    pub a: MeleeSide,
    pub b: MeleeSide,
}

/// What happens to a side as the loser, as chances of the whole round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LoserResults {
    /// Passed while STEADY or WORN: the melee goes on next Melee phase.
    pub holds: f64,
    pub retire: f64,
    pub route: f64,
    pub broken_by_test: f64,
    pub broken_by_hits: f64,
}

/// One side's dice, hits and fate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideOdds {
    pub unit: String,
    pub state: HitState,
    pub pool: Pool,
    pub dice: u32,
    pub hit_faces: u32,
    pub to_hit: String,
    pub tough_fighters: bool,
    /// The chance a die hits (after TOUGH FIGHTERS re-rolls, L-27).
    pub p_hit: f64,
    /// The chance a die inflicts an unsaved hit (saves on 6).
    pub p_unsaved_per_die: f64,
    /// Unsaved hits it inflicts, index = hits.
    pub hits_inflicted: Vec<f64>,
    pub hits_inflicted_at_least: Vec<f64>,
    pub expected_hits_inflicted: f64,
    /// Added to its score for fighting the enemy's flank (+2) or rear (+4).
    pub position_bonus: u32,
    /// It has more bases in the melee (+2 if not SHAKEN after the hits, L-29).
    pub more_bases: bool,
    pub state_after: StateChances,
    /// It wins the round (by score, or the enemy BROKEN by hits while it stands).
    pub wins: f64,
    pub as_loser: LoserResults,
    /// It won, its loser held, and it is SHAKEN: it routes at once (L-30).
    pub winner_routes_shaken: f64,
    /// It won, the loser routed, and it pursues (D6 4+, IMPETUOUS without the roll).
    pub pursues: f64,
    /// It won, the loser was BROKEN, and it breaks through (D6 4+, L-32).
    pub breaks_through: f64,
    /// Its attached General is killed at the end of the round (L-34).
    pub p_general_killed: f64,
    /// The lost-melee MORALE test (need 3) in each state it may be taken in.
    pub morale_tests: Vec<StateTest>,
}

/// The answer to a melee request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeleeOdds {
    pub a: SideOdds,
    pub b: SideOdds,
    /// A wins by score, neither BROKEN by hits.
    pub p_a_wins: f64,
    pub p_draw: f64,
    pub p_b_wins: f64,
    pub p_a_broken_by_hits: f64,
    pub p_b_broken_by_hits: f64,
    pub p_both_broken_by_hits: f64,
    /// Score difference A − B, from `score_difference_min` up, when neither is BROKEN.
    pub score_difference: Vec<f64>,
    pub score_difference_min: i32,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

struct Prepared {
    u: UnitAt,
    pool: Pool,
    hit_faces: u32,
    p_hit: f64,
    p_unsaved: f64,
    hits: Vec<f64>,
    position_bonus: u32,
    tests: Vec<StateTest>,
    can_follow_up: bool,
    impetuous: bool,
}

fn prepare(
    cat: &Catalogue,
    at: &str,
    s: &MeleeSide,
    enemy_kind: Kind,
    rulings: &mut Vec<&'static str>,
) -> Result<Prepared, OddsError> {
    let u = unit(
        cat,
        at,
        &s.list,
        &s.entry,
        s.bases,
        s.grenadiers_detached,
        s.hits,
    )?;
    let bases = u.profile.bases();
    let direct = s.direct_bases.unwrap_or(bases);
    let supporting = s.supporting_bases.unwrap_or(0);
    if direct + supporting == 0 {
        return Err(OddsError::new(
            format!("{at}.direct_bases"),
            "out_of_range",
            "a unit with no bases in the fight does not fight: give at least one direct or \
             supporting base",
        ));
    }
    if direct + supporting > bases {
        return Err(OddsError::new(
            format!("{at}.direct_bases"),
            "out_of_range",
            format!("{direct} direct and {supporting} supporting bases are more than the unit's {bases}"),
        ));
    }
    if s.lead_the_fight && !s.general_attached {
        return Err(OddsError::new(
            format!("{at}.lead_the_fight"),
            "not_allowed",
            "Lead The Fight! needs an attached General (L-26)",
        ));
    }
    if s.limbered && u.profile.kind() != Kind::Artillery {
        return Err(OddsError::new(
            format!("{at}.limbered"),
            "not_allowed",
            "only artillery limbers",
        ));
    }
    let fight = Fight {
        direct_bases: direct,
        supporting_bases: supporting,
        state: u.state,
        disordered: s.disorder_markers > 0,
        charging: s.charging,
        against: s.against,
        enemy_kind,
        in_the_open: s.in_the_open,
        enemy_defending_obstacle: s.enemy_defending_obstacle,
        enemy_uphill: s.enemy_uphill,
        limbered: s.limbered,
        general_attached: s.general_attached,
        lead_the_fight: s.lead_the_fight,
    };
    let pool = melee_pool(cat, &u.profile, &fight);
    cite(rulings, &pool.rulings);
    let hit_faces = melee_hit_faces(cat, &u.profile);
    let mut p_hit = f64::from(hit_faces) / 6.0;
    if u.profile.has(SpecialRule::ToughFighters) {
        p_hit += (1.0 - p_hit) * p_hit;
        cite(rulings, &["L-27"]);
    }
    let p_unsaved = p_hit * (1.0 - f64::from(save_faces(cat.tables.saves.melee)) / 6.0);
    let hits = binomial(pool.dice, p_unsaved);
    let score = &cat.tables.melee_score;
    let position_bonus = match s.against {
        Against::Front => 0,
        Against::Flank => score.against_flank,
        Against::Rear => score.against_rear,
    };
    let kind = u.profile.kind();
    Ok(Prepared {
        can_follow_up: matches!(
            kind,
            Kind::Infantry | Kind::MountedCavalry | Kind::DismountedCavalry
        ) && !s.limbered,
        impetuous: u.profile.has(SpecialRule::Impetuous),
        u,
        pool,
        hit_faces,
        p_hit,
        p_unsaved,
        hits,
        position_bonus,
        tests: Vec::new(),
    })
}

fn lost_test<'a>(
    cat: &Catalogue,
    side: &'a mut Prepared,
    s: &MeleeSide,
    state: HitState,
) -> &'a mut StateTest {
    let i = match side.tests.iter().position(|t| t.state == state) {
        Some(i) => i,
        None => {
            let need = cat.tables.trigger(MoraleTrigger::LostMelee).need;
            let test = morale_test(
                cat,
                &side.u.profile,
                state,
                need,
                s.in_command,
                s.supported,
                s.hold_the_line,
            );
            side.tests.push(StateTest {
                state,
                p_taken: 0.0,
                failed_result: cat.tables.morale_results.result(state, true, false),
                test,
            });
            side.tests.len() - 1
        }
    };
    &mut side.tests[i]
}

#[derive(Default)]
struct Fate {
    state_after: StateChances,
    wins: f64,
    as_loser: LoserResults,
    winner_routes_shaken: f64,
    pursues: f64,
    breaks_through: f64,
}

/// Exact odds of one melee round (4.5).
pub fn melee_odds(cat: &Catalogue, req: &MeleeRequest) -> Result<MeleeOdds, OddsError> {
    let mut rulings = vec!["L-24", "L-28", "L-29", "L-30", "L-34"];
    let a_kind = lookup_kind(cat, "a", &req.a)?;
    let b_kind = lookup_kind(cat, "b", &req.b)?;
    // A fight across a defended obstacle is not in the open, for either side (L-25).
    let open = !req.a.enemy_defending_obstacle && !req.b.enemy_defending_obstacle;
    let side = |s: &MeleeSide| MeleeSide {
        in_the_open: s.in_the_open && open,
        ..s.clone()
    };
    let mut a = prepare(cat, "a", &side(&req.a), b_kind, &mut rulings)?;
    let mut b = prepare(cat, "b", &side(&req.b), a_kind, &mut rulings)?;
    let more = cat.tables.melee_score.more_bases;
    let (a_bases, b_bases) = (a.u.profile.bases(), b.u.profile.bases());
    let follow_up = f64::from(7 - u32::from(cat.tables.pursuit_on).min(7)) / 6.0;
    let breakthrough = f64::from(7 - u32::from(cat.tables.breakthrough_on).min(7)) / 6.0;

    let mut fa = Fate::default();
    let mut fb = Fate::default();
    let (mut p_a, mut p_b, mut p_draw) = (0.0, 0.0, 0.0);
    // A unit broken by the round's hits loses whatever the score (L-57).
    let (mut a_broken, mut b_broken, mut both_broken) = (0.0, 0.0, 0.0);
    let max_diff = a.hits.len() as i32 + 8;
    let min_diff = -(b.hits.len() as i32 + 8);
    let mut diff = vec![0.0; (max_diff - min_diff + 1) as usize];
    let a_hits = a.hits.clone();
    let b_hits = b.hits.clone();
    for (ha, pa) in a_hits.iter().enumerate() {
        for (hb, pb) in b_hits.iter().enumerate() {
            let p = pa * pb;
            if p == 0.0 {
                continue;
            }
            // a inflicts ha on b, b inflicts hb on a
            let a_state = a.u.profile.state(a.u.hits + hb as u32);
            let b_state = b.u.profile.state(b.u.hits + ha as u32);
            fa.state_after.add(a_state, p);
            fb.state_after.add(b_state, p);
            let a_out = a_state == HitState::Broken;
            let b_out = b_state == HitState::Broken;
            if a_out && b_out {
                both_broken += p;
                continue;
            }
            if a_out || b_out {
                // The side left standing wins; the BROKEN side is removed (L-24).
                let (w, wf, lf, w_state) = if b_out {
                    b_broken += p;
                    (&a, &mut fa, &mut fb, a_state)
                } else {
                    a_broken += p;
                    (&b, &mut fb, &mut fa, b_state)
                };
                wf.wins += p;
                lf.as_loser.broken_by_hits += p;
                if w.can_follow_up && w_state != HitState::Shaken {
                    wf.breaks_through += p * if w.impetuous { 1.0 } else { breakthrough };
                }
                continue;
            }
            let score = |bonus: u32, hits: usize, larger: bool, state: HitState| {
                hits as i32
                    + bonus as i32
                    + if larger && matches!(state, HitState::Steady | HitState::Worn) {
                        more as i32
                    } else {
                        0
                    }
            };
            let sa = score(a.position_bonus, ha, a_bases > b_bases, a_state);
            let sb = score(b.position_bonus, hb, b_bases > a_bases, b_state);
            diff[(sa - sb - min_diff) as usize] += p;
            if sa == sb {
                p_draw += p;
                continue;
            }
            let a_won = sa > sb;
            if a_won {
                p_a += p;
            } else {
                p_b += p;
            }
            let (winner, loser, wf, lf, w_state, l_state, l_side) = if a_won {
                (&a, &mut b, &mut fa, &mut fb, a_state, b_state, &req.b)
            } else {
                (&b, &mut a, &mut fb, &mut fa, b_state, a_state, &req.a)
            };
            wf.wins += p;
            let test = lost_test(cat, loser, l_side, l_state);
            test.p_taken += p;
            let pass = test.test.p_pass;
            let passed = cat.tables.morale_results.result(l_state, true, true);
            let failed = test.failed_result;
            let winner_follows = winner.can_follow_up && w_state != HitState::Shaken;
            let chance = if winner.impetuous { 1.0 } else { follow_up };
            let through = if winner.impetuous { 1.0 } else { breakthrough };
            for (result, q) in [(passed, p * pass), (failed, p * (1.0 - pass))] {
                match result {
                    MoraleResult::Holds => {
                        lf.as_loser.holds += q;
                        if w_state == HitState::Shaken {
                            wf.winner_routes_shaken += q;
                        }
                    }
                    MoraleResult::Retire => lf.as_loser.retire += q,
                    MoraleResult::Route => {
                        lf.as_loser.route += q;
                        if winner_follows {
                            wf.pursues += q * chance;
                        }
                    }
                    _ => {
                        lf.as_loser.broken_by_test += q;
                        if winner_follows {
                            wf.breaks_through += q * through;
                        }
                    }
                }
            }
        }
    }
    let mut notes = vec![
        "The side with more bases scores +2 only if it is not SHAKEN once this round's hits are marked (L-29).".to_string(),
        "A unit BROKEN by hits loses the round whatever the score; if both are BROKEN neither side is left (L-24).".to_string(),
    ];
    if req.a.charging || req.b.charging {
        cite(&mut rulings, &["L-33"]);
    }
    if req.a.in_command || req.a.supported || req.b.in_command || req.b.supported {
        cite(&mut rulings, &["L-10"]);
    }
    if !a.tests.is_empty() || !b.tests.is_empty() {
        cite(&mut rulings, &["L-6", "L-8"]);
    }
    if a.tests
        .iter()
        .chain(b.tests.iter())
        .any(|t| t.test.retakes > 0)
    {
        cite(&mut rulings, &["L-9"]);
    }
    if fa.pursues + fb.pursues > 0.0 {
        cite(&mut rulings, &["L-31"]);
        notes.push(
            "A pursuer that reaches its router fights a free round in which only it rolls (L-31)."
                .into(),
        );
    }
    if fa.breaks_through + fb.breaks_through > 0.0 {
        cite(&mut rulings, &["L-32"]);
    }
    let killed = cat.general.killed_on.len() as f64 / 6.0;
    let first = diff.iter().position(|p| *p > 0.0).unwrap_or(0);
    let last = diff.iter().rposition(|p| *p > 0.0).unwrap_or(0);
    let score_difference = diff[first..=last.max(first)].to_vec();
    let side = |s: Prepared, f: Fate, spec: &MeleeSide, larger: bool| SideOdds {
        unit: s.u.profile.describe(),
        state: s.u.state,
        dice: s.pool.dice,
        pool: s.pool,
        hit_faces: s.hit_faces,
        to_hit: format!("{}+", 7 - s.hit_faces.max(1)),
        tough_fighters: s.u.profile.has(SpecialRule::ToughFighters),
        p_hit: s.p_hit,
        p_unsaved_per_die: s.p_unsaved,
        expected_hits_inflicted: mean(&s.hits),
        hits_inflicted_at_least: at_least(&s.hits),
        hits_inflicted: s.hits,
        position_bonus: s.position_bonus,
        more_bases: larger,
        state_after: f.state_after,
        wins: f.wins,
        as_loser: f.as_loser,
        winner_routes_shaken: f.winner_routes_shaken,
        pursues: f.pursues,
        breaks_through: f.breaks_through,
        p_general_killed: if spec.general_attached { killed } else { 0.0 },
        morale_tests: s.tests,
    };
    Ok(MeleeOdds {
        a: side(a, fa, &req.a, a_bases > b_bases),
        b: side(b, fb, &req.b, b_bases > a_bases),
        p_a_wins: p_a,
        p_draw,
        p_b_wins: p_b,
        p_a_broken_by_hits: a_broken,
        p_b_broken_by_hits: b_broken,
        p_both_broken_by_hits: both_broken,
        score_difference,
        score_difference_min: min_diff + first as i32,
        rulings,
        notes,
    })
}

fn lookup_kind(cat: &Catalogue, at: &str, s: &MeleeSide) -> Result<Kind, OddsError> {
    unit(
        cat,
        at,
        &s.list,
        &s.entry,
        s.bases,
        s.grenadiers_detached,
        s.hits,
    )
    .map(|u| u.profile.kind())
}
