//! Orders and movement: every force holds or moves along one route; moves resolve together.
//! Opposing forces that pass each other on a route meet there; opposing forces that end in the
//! same place meet there, one battle per place; the force that moved in attacks.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub id: String,
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Map {
    pub places: Vec<Place>,
    pub routes: Vec<Route>,
}

impl Map {
    /// The far end of a route seen from `place`, if the route touches it.
    pub fn other_end(&self, route: &str, place: &str) -> Option<&str> {
        let r = self.routes.iter().find(|r| r.id == route)?;
        if r.from == place {
            Some(&r.to)
        } else if r.to == place {
            Some(&r.from)
        } else {
            None
        }
    }

    /// Places one route away.
    pub fn neighbours(&self, place: &str) -> Vec<&str> {
        self.routes
            .iter()
            .filter_map(|r| self.other_end(&r.id, place))
            .collect()
    }
}

/// Where a force stands and which side it fights for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceAt {
    pub force: String,
    pub side: u8,
    pub place: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum Order {
    Hold,
    Move { route: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    pub force: String,
    pub from: String,
    pub to: String,
    pub route: String,
}

/// Where opposing forces meet. On a route, the winner goes on and the loser goes back; in a
/// place, the forces that moved in attack (`attackers`); when both sides moved in, neither list
/// is empty and the campaign rolls off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Contact {
    OnRoute {
        route: String,
        forces: Vec<String>,
    },
    InPlace {
        place: String,
        attackers: Vec<String>,
        defenders: Vec<String>,
        both_moved: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolution {
    pub moves: Vec<Move>,
    pub contacts: Vec<Contact>,
    /// Where every force stands once the moves are made (before battles move anyone back).
    pub positions: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    #[error("force {force}: route {route} does not start where it stands ({place})")]
    RouteNotHere {
        force: String,
        route: String,
        place: String,
    },
    #[error("force {0} has an order but is not on the map")]
    UnknownForce(String),
}

/// Resolves one campaign turn's orders together. Forces without an order hold.
pub fn resolve_moves(
    map: &Map,
    forces: &[ForceAt],
    orders: &BTreeMap<String, Order>,
) -> Result<Resolution, CampaignError> {
    for f in orders.keys() {
        if !forces.iter().any(|x| &x.force == f) {
            return Err(CampaignError::UnknownForce(f.clone()));
        }
    }
    let mut moves = Vec::new();
    for f in forces {
        if let Some(Order::Move { route }) = orders.get(&f.force) {
            let to = map
                .other_end(route, &f.place)
                .ok_or_else(|| CampaignError::RouteNotHere {
                    force: f.force.clone(),
                    route: route.clone(),
                    place: f.place.clone(),
                })?;
            moves.push(Move {
                force: f.force.clone(),
                from: f.place.clone(),
                to: to.to_string(),
                route: route.clone(),
            });
        }
    }
    let side_of: BTreeMap<&str, u8> = forces.iter().map(|f| (f.force.as_str(), f.side)).collect();
    let mut contacts = Vec::new();
    // Opposing forces crossing on the same route meet there and do not arrive (yet).
    let mut stopped: BTreeSet<String> = BTreeSet::new();
    for (i, a) in moves.iter().enumerate() {
        for b in &moves[i + 1..] {
            if a.route == b.route
                && a.from == b.to
                && a.to == b.from
                && side_of.get(a.force.as_str()) != side_of.get(b.force.as_str())
            {
                contacts.push(Contact::OnRoute {
                    route: a.route.clone(),
                    forces: vec![a.force.clone(), b.force.clone()],
                });
                stopped.insert(a.force.clone());
                stopped.insert(b.force.clone());
            }
        }
    }
    let mut positions: BTreeMap<String, String> = forces
        .iter()
        .map(|f| (f.force.clone(), f.place.clone()))
        .collect();
    for m in &moves {
        if !stopped.contains(&m.force) {
            positions.insert(m.force.clone(), m.to.clone());
        }
    }
    // Opposing forces ending in one place meet there: one contact per place.
    let mut by_place: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (force, place) in &positions {
        if !stopped.contains(force) {
            by_place
                .entry(place.as_str())
                .or_default()
                .push(force.as_str());
        }
    }
    for (place, here) in by_place {
        let sides: BTreeSet<u8> = here
            .iter()
            .filter_map(|f| side_of.get(f).copied())
            .collect();
        if sides.len() < 2 {
            continue;
        }
        let moved_in: BTreeSet<&str> = moves
            .iter()
            .filter(|m| m.to == place && !stopped.contains(&m.force))
            .map(|m| m.force.as_str())
            .collect();
        let moved_sides: BTreeSet<u8> = moved_in
            .iter()
            .filter_map(|f| side_of.get(f).copied())
            .collect();
        let both_moved = moved_sides.len() > 1;
        let (attackers, defenders): (Vec<&str>, Vec<&str>) = if moved_sides.len() == 1 {
            let attacking = *moved_sides.iter().next().unwrap_or(&0);
            here.iter()
                .copied()
                .partition(|f| side_of.get(f) == Some(&attacking))
        } else {
            // Both sides moved in (or neither, which holding forces cannot cause): list by side.
            let first = *sides.iter().next().unwrap_or(&0);
            here.iter()
                .copied()
                .partition(|f| side_of.get(f) == Some(&first))
        };
        contacts.push(Contact::InPlace {
            place: place.to_string(),
            attackers: attackers.into_iter().map(String::from).collect(),
            defenders: defenders.into_iter().map(String::from).collect(),
            both_moved,
        });
    }
    Ok(Resolution {
        moves,
        contacts,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> Map {
        let place = |id: &str| Place {
            id: id.into(),
            name: id.to_uppercase(),
        };
        let route = |id: &str, a: &str, b: &str| Route {
            id: id.into(),
            from: a.into(),
            to: b.into(),
        };
        Map {
            places: vec![place("fort"), place("ford"), place("town")],
            routes: vec![route("r1", "fort", "ford"), route("r2", "ford", "town")],
        }
    }

    fn at(force: &str, side: u8, place: &str) -> ForceAt {
        ForceAt {
            force: force.into(),
            side,
            place: place.into(),
        }
    }

    fn go(route: &str) -> Order {
        Order::Move {
            route: route.into(),
        }
    }

    #[test]
    fn a_force_that_moves_into_an_enemy_attacks_it() {
        let forces = [at("red", 0, "fort"), at("blue", 1, "ford")];
        let orders = BTreeMap::from([("red".to_string(), go("r1"))]);
        let r = resolve_moves(&map(), &forces, &orders).unwrap();
        assert_eq!(
            r.contacts,
            vec![Contact::InPlace {
                place: "ford".into(),
                attackers: vec!["red".into()],
                defenders: vec!["blue".into()],
                both_moved: false
            }]
        );
        assert_eq!(r.positions["red"], "ford");
    }

    #[test]
    fn forces_passing_on_a_route_meet_there_and_stay_put_until_the_battle() {
        let forces = [at("red", 0, "fort"), at("blue", 1, "ford")];
        let orders = BTreeMap::from([
            ("red".to_string(), go("r1")),
            ("blue".to_string(), go("r1")),
        ]);
        let r = resolve_moves(&map(), &forces, &orders).unwrap();
        assert_eq!(
            r.contacts,
            vec![Contact::OnRoute {
                route: "r1".into(),
                forces: vec!["red".into(), "blue".into()]
            }]
        );
        assert_eq!(
            (r.positions["red"].as_str(), r.positions["blue"].as_str()),
            ("fort", "ford")
        );
    }

    #[test]
    fn both_sides_moving_into_one_place_is_one_battle_with_a_roll_off() {
        let forces = [
            at("red", 0, "fort"),
            at("blue", 1, "town"),
            at("red2", 0, "fort"),
        ];
        let orders = BTreeMap::from([
            ("red".to_string(), go("r1")),
            ("blue".to_string(), go("r2")),
            ("red2".to_string(), go("r1")),
        ]);
        let r = resolve_moves(&map(), &forces, &orders).unwrap();
        assert_eq!(r.contacts.len(), 1, "one battle per place");
        let Contact::InPlace {
            both_moved,
            attackers,
            ..
        } = &r.contacts[0]
        else {
            panic!("a place contact")
        };
        assert!(both_moved);
        assert_eq!(attackers.len(), 2, "both red forces are in the place");
    }

    #[test]
    fn friends_do_not_fight_and_holding_is_the_default() {
        let forces = [at("red", 0, "fort"), at("red2", 0, "ford")];
        let orders = BTreeMap::from([("red".to_string(), go("r1"))]);
        let r = resolve_moves(&map(), &forces, &orders).unwrap();
        assert!(r.contacts.is_empty());
        assert_eq!(r.positions["red2"], "ford");
    }

    #[test]
    fn a_route_that_does_not_start_here_is_refused() {
        let forces = [at("red", 0, "fort")];
        let orders = BTreeMap::from([("red".to_string(), go("r2"))]);
        assert!(matches!(
            resolve_moves(&map(), &forces, &orders),
            Err(CampaignError::RouteNotHere { .. })
        ));
        let orders = BTreeMap::from([("ghost".to_string(), Order::Hold)]);
        assert!(matches!(
            resolve_moves(&map(), &forces, &orders),
            Err(CampaignError::UnknownForce(_))
        ));
    }
}
