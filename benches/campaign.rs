//! The campaign engine: rebuilding a campaign from its log (what the audit and a voided battle
//! do), and closing a turn for eight forces.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::campaign::after_battle::{resolve_battle, BattleReport, ElementEnd};
use muster::rules::campaign::aftermath::EndState;
use muster::rules::campaign::forces::enlist;
use muster::rules::campaign::movement::Order;
use muster::rules::campaign::presets::preset;
use muster::rules::campaign::state::{
    BattleResult, CampaignState, Entry, Event, HouseRules, Phase, Settings, SideSetup,
};
use muster::rules::campaign::turn::{close_turn, end_turn};
use muster::rules::campaign::RosterJson;
use muster::rules::system::BattleSide;
use muster::rules::systems::lotf::{
    Catalogue, CommanderDoc, ElementDoc, ElementType, GroupDoc, Nation, RosterDoc, Size, War,
};

fn force(name: &str, nation: Nation) -> RosterDoc {
    let mut r = RosterDoc::new(name, War::AmericanRevolution, nation, Some(200));
    r.force_commander = Some(CommanderDoc {
        id: None,
        name: "General".into(),
    });
    r.groups = (1..=2)
        .map(|g| GroupDoc {
            id: None,
            name: format!("Brigade {g}"),
            commander: Some(CommanderDoc {
                id: None,
                name: format!("Colonel {g}"),
            }),
            elements: (1..=3)
                .map(|e| {
                    ElementDoc::new(
                        &format!("Regiment {g}-{e}"),
                        ElementType::Infantry,
                        Size::Medium,
                    )
                })
                .collect(),
        })
        .collect();
    r
}

struct Log<'a> {
    cat: &'a Catalogue,
    state: CampaignState,
    entries: Vec<Entry>,
}

impl Log<'_> {
    fn push(&mut self, event: Event) {
        let seq = self.entries.len() as i64 + 1;
        self.state.apply(self.cat, seq, &event).expect("applies");
        self.entries.push(Entry { seq, event });
    }
}

/// Eight forces march towards each other for eight turns, every contact fought.
fn campaign(cat: &Catalogue) -> Log<'_> {
    let p = preset("philadelphia-1777").expect("preset");
    let mut log = Log {
        cat,
        state: CampaignState::default(),
        entries: Vec::new(),
    };
    log.push(Event::Created {
        settings: Settings {
            name: "bench".into(),
            rule_system: "lotf".into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 8,
            sides: [
                SideSetup {
                    name: p.sides[0].0.into(),
                    home: p.sides[0].1.into(),
                },
                SideSetup {
                    name: p.sides[1].0.into(),
                    home: p.sides[1].1.into(),
                },
            ],
            rules: HouseRules::default(),
            scenario: None,
        },
        map: p.map,
    });
    for user in 0..8i64 {
        let nation = if user < 4 {
            Nation::British
        } else {
            Nation::American
        };
        let e = enlist(
            &log.state,
            cat,
            user,
            "p",
            u8::from(user >= 4),
            &RosterJson::from_value(&serde_json::to_value(force("F", nation)).expect("roster")),
            user as u64,
        )
        .expect("enlists");
        log.push(e);
    }
    log.push(Event::Started);
    let mut seed = 1;
    while log.state.phase == Phase::Orders {
        let forces: Vec<(String, String)> = log
            .state
            .active_forces()
            .map(|f| (f.id.clone(), f.place.clone()))
            .collect();
        for (i, (id, place)) in forces.iter().enumerate() {
            let routes: Vec<String> = log
                .state
                .map
                .routes
                .iter()
                .filter(|r| &r.from == place || &r.to == place)
                .map(|r| r.id.clone())
                .collect();
            let route = routes[(i + log.state.turn as usize) % routes.len()].clone();
            log.push(Event::OrderGiven {
                force: id.clone(),
                order: Order::Move { route },
            });
        }
        seed += 1;
        let plan = close_turn(&log.state, cat, seed).expect("closes");
        for e in plan.events {
            log.push(e);
        }
        if plan.battles.is_empty() {
            for e in end_turn(&log.state, cat) {
                log.push(e);
            }
            continue;
        }
        for (i, mut b) in plan.battles.into_iter().enumerate() {
            b.battle.record = i as i64 + 1;
            log.push(Event::BattleSet {
                battle: b.battle,
                rolls: b.rolls,
            });
        }
        let pending: Vec<(u32, String)> = log
            .state
            .pending_battles()
            .map(|b| (b.no, b.defender.clone()))
            .collect();
        for (no, defender) in pending {
            if log.state.battle(no).is_none_or(|b| b.result.is_some()) {
                continue;
            }
            let roster: RosterDoc =
                muster::rules::systems::lotf::campaign::read(&log.state.forces[&defender].roster)
                    .expect("roster")
                    .into_owned();
            let elements = roster
                .groups
                .iter()
                .flat_map(|g| &g.elements)
                .enumerate()
                .map(|(i, e)| ElementEnd {
                    lost: 0,
                    side: BattleSide::Defender,
                    id: e.id.clone().unwrap_or_default(),
                    carried: None,
                    end: if i % 2 == 0 {
                        EndState::Exhausted
                    } else {
                        EndState::Shaken
                    },
                })
                .collect();
            let report = BattleReport {
                result: BattleResult {
                    winner: Some("attacker".into()),
                    level: "major".into(),
                    attacker_vp: 6,
                    defender_vp: 2,
                    method: "simulated".into(),
                    engine: None,
                },
                elements,
                killed: Vec::new(),
            };
            seed += 1;
            for e in resolve_battle(&log.state, cat, no, &report, seed).expect("resolves") {
                log.push(e);
            }
        }
    }
    log
}

fn bench(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let log = campaign(&cat);
    println!(
        "campaign log: {} entries over {} turns, {} battles",
        log.entries.len(),
        log.state.turn,
        log.state.battles.len()
    );
    c.bench_function("rebuild a campaign from its log", |b| {
        b.iter(|| CampaignState::rebuild(&cat, black_box(&log.entries)).expect("rebuilds"))
    });
    // Close turn 1 of a fresh campaign: eight forces, every one marching.
    let mut first = Log {
        cat: &cat,
        state: CampaignState::default(),
        entries: Vec::new(),
    };
    for e in log
        .entries
        .iter()
        .take_while(|e| !matches!(e.event, Event::TurnClosed { .. }))
    {
        first.push(e.event.clone());
    }
    c.bench_function("close a turn of eight forces", |b| {
        b.iter(|| close_turn(black_box(&first.state), &cat, 7).expect("closes"))
    });
    let json = serde_json::to_string(&log.state).expect("state");
    println!("stored state: {} bytes", json.len());
    c.bench_function("read the stored campaign state", |b| {
        b.iter(|| serde_json::from_str::<CampaignState>(black_box(&json)).expect("parses"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
