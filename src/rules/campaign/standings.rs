//! Standings: campaign points per player and per side (battle victory points, plus the victory
//! value of places held, plus the organiser's adjustments), with battles won, drawn and lost.

use serde::Serialize;

use super::state::{BattleStatus, CampaignState};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Record {
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerStanding {
    pub force: String,
    pub force_name: String,
    pub player: String,
    pub side: u8,
    pub battle_points: u32,
    /// Victory value of places this player's force took that their side still holds.
    pub place_points: u32,
    pub adjustment: i32,
    pub total: i64,
    pub record: Record,
    pub places: Vec<String>,
    pub out: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideStanding {
    pub side: u8,
    pub name: String,
    pub battle_points: u32,
    pub place_points: u32,
    pub adjustment: i32,
    pub total: i64,
    pub record: Record,
    /// Names of the places the side holds.
    pub places: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    pub sides: Vec<SideStanding>,
    /// Best first.
    pub players: Vec<PlayerStanding>,
}

/// Standings as the campaign stands now (at the end, the final standings).
pub fn standings(state: &CampaignState) -> Standings {
    let scoring = state.rules().place_scoring;
    let value_of = |place: &str| -> u32 {
        if scoring {
            state.map.place(place).map_or(0, |p| u32::from(p.value))
        } else {
            0
        }
    };
    let mut players: Vec<PlayerStanding> = state
        .forces
        .values()
        .map(|f| {
            let mut record = Record::default();
            let mut battle_points = 0;
            for b in state
                .battles
                .iter()
                .filter(|b| b.status == BattleStatus::Resolved)
            {
                let Some(r) = &b.result else { continue };
                let role = if b.attacker == f.id {
                    "attacker"
                } else if b.defender == f.id {
                    "defender"
                } else {
                    continue;
                };
                battle_points += u32::from(if role == "attacker" {
                    r.attacker_vp
                } else {
                    r.defender_vp
                });
                match r.winner.as_deref() {
                    None => record.drawn += 1,
                    Some(w) if w == role => record.won += 1,
                    Some(_) => record.lost += 1,
                }
            }
            let taken: Vec<&String> = state
                .holders
                .iter()
                .filter(|(_, h)| h.side == f.side && h.taken_by.as_deref() == Some(f.id.as_str()))
                .map(|(p, _)| p)
                .collect();
            let place_points = taken.iter().map(|p| value_of(p)).sum();
            PlayerStanding {
                force: f.id.clone(),
                force_name: f.roster.name().to_string(),
                player: f.player.clone(),
                side: f.side,
                battle_points,
                place_points,
                adjustment: f.adjustment,
                total: i64::from(battle_points) + i64::from(place_points) + i64::from(f.adjustment),
                record,
                places: taken
                    .iter()
                    .map(|p| state.place_name(p).to_string())
                    .collect(),
                out: f.out.clone(),
            }
        })
        .collect();
    players.sort_by(|a, b| b.total.cmp(&a.total).then(a.force.cmp(&b.force)));
    let sides = (0..2u8)
        .map(|side| {
            let mine: Vec<&PlayerStanding> = players.iter().filter(|p| p.side == side).collect();
            let held: Vec<&str> = state.places_held(side);
            let battle_points = mine.iter().map(|p| p.battle_points).sum();
            let place_points = held.iter().map(|p| value_of(p)).sum();
            let adjustment = state.side_adjustment[usize::from(side)]
                + mine.iter().map(|p| p.adjustment).sum::<i32>();
            let mut record = Record::default();
            for p in &mine {
                record.won += p.record.won;
                record.drawn += p.record.drawn;
                record.lost += p.record.lost;
            }
            SideStanding {
                side,
                name: state.side_name(side).to_string(),
                battle_points,
                place_points,
                adjustment,
                total: i64::from(battle_points) + i64::from(place_points) + i64::from(adjustment),
                record,
                places: held
                    .iter()
                    .map(|p| state.place_name(p).to_string())
                    .collect(),
            }
        })
        .collect();
    Standings { sides, players }
}
