//! Orders and movement: every force holds or moves along one route; moves resolve together.
//! Opposing forces that pass each other on a route meet there; opposing forces that end in the
//! same place meet there, one battle per place; the force that moved in attacks.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::CampaignError;

/// What a place on the campaign map is. A fort is attacked by Frontal Assault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    Fort,
    Town,
    Ford,
    Crossroads,
    #[default]
    Village,
    Landing,
    Wilderness,
}

impl PlaceKind {
    pub const ALL: [PlaceKind; 7] = [
        PlaceKind::Fort,
        PlaceKind::Town,
        PlaceKind::Ford,
        PlaceKind::Crossroads,
        PlaceKind::Village,
        PlaceKind::Landing,
        PlaceKind::Wilderness,
    ];

    pub fn id(self) -> &'static str {
        match self {
            PlaceKind::Fort => "fort",
            PlaceKind::Town => "town",
            PlaceKind::Ford => "ford",
            PlaceKind::Crossroads => "crossroads",
            PlaceKind::Village => "village",
            PlaceKind::Landing => "landing",
            PlaceKind::Wilderness => "wilderness",
        }
    }

    pub fn from_id(s: &str) -> Option<PlaceKind> {
        PlaceKind::ALL.iter().copied().find(|k| k.id() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RouteKind {
    #[default]
    Road,
    Trail,
    River,
}

impl RouteKind {
    pub const ALL: [RouteKind; 3] = [RouteKind::Road, RouteKind::Trail, RouteKind::River];

    pub fn id(self) -> &'static str {
        match self {
            RouteKind::Road => "road",
            RouteKind::Trail => "trail",
            RouteKind::River => "river",
        }
    }

    pub fn from_id(s: &str) -> Option<RouteKind> {
        RouteKind::ALL.iter().copied().find(|k| k.id() == s)
    }
}

/// A place on the map. Positions are on a 1000 × 700 grid (the map's SVG view box).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub kind: PlaceKind,
    #[serde(default)]
    pub x: u16,
    #[serde(default)]
    pub y: u16,
    /// Campaign points to the side that holds it at the end (0–3).
    #[serde(default)]
    pub value: u8,
    /// A supply place earns its side's forces 5 more reinforcement points a turn.
    #[serde(default)]
    pub supply: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub id: String,
    pub from: String,
    pub to: String,
    #[serde(default)]
    pub kind: RouteKind,
}

/// The largest coordinates a place may have.
pub const MAP_WIDTH: u16 = 1000;
pub const MAP_HEIGHT: u16 = 700;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Map {
    pub places: Vec<Place>,
    pub routes: Vec<Route>,
}

/// The most places and routes a map may have.
pub const MAX_PLACES: usize = 60;
pub const MAX_ROUTES: usize = 150;

/// The least distance between two places on a map, in its units: their markers and names must
/// not cover each other.
pub const MIN_PLACE_GAP: i32 = 40;

impl Map {
    /// Everything wrong with a map, in plain words (empty when it is sound).
    pub fn check(&self) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        if self.places.len() > MAX_PLACES {
            problems.push(format!("A map has at most {MAX_PLACES} places."));
        }
        if self.routes.len() > MAX_ROUTES {
            problems.push(format!("A map has at most {MAX_ROUTES} routes."));
        }
        let mut ids = BTreeSet::new();
        for p in &self.places {
            if p.id.is_empty() || p.id.len() > 40 || !ids.insert(p.id.as_str()) {
                problems.push(format!(
                    "Place id \"{}\" is empty, too long or used twice.",
                    p.id
                ));
            }
            if p.name.trim().is_empty() || p.name.chars().count() > 80 {
                problems.push(format!(
                    "Place \"{}\" needs a name of 1 to 80 characters.",
                    p.id
                ));
            }
            if p.x > MAP_WIDTH || p.y > MAP_HEIGHT {
                problems.push(format!(
                    "{} lies off the map (x 0–{MAP_WIDTH}, y 0–{MAP_HEIGHT}).",
                    p.name
                ));
            }
            if p.value > 3 {
                problems.push(format!("{}: a victory value is 0 to 3.", p.name));
            }
        }
        // Two places on one spot, or of one name, cannot be told apart on the map (issue 18).
        for (i, p) in self.places.iter().enumerate() {
            for q in &self.places[..i] {
                let (dx, dy) = (
                    i32::from(p.x) - i32::from(q.x),
                    i32::from(p.y) - i32::from(q.y),
                );
                if dx * dx + dy * dy < MIN_PLACE_GAP * MIN_PLACE_GAP {
                    problems.push(format!(
                        "{} and {} stand on the same spot; move one at least {MIN_PLACE_GAP} \
                         apart.",
                        q.name, p.name
                    ));
                } else if !p.name.trim().is_empty()
                    && p.name.trim().to_lowercase() == q.name.trim().to_lowercase()
                {
                    problems.push(format!(
                        "Two places are called {}; give each its own name.",
                        p.name.trim()
                    ));
                }
            }
        }
        let mut pairs = BTreeSet::new();
        let mut route_ids = BTreeSet::new();
        let name = |id: &str| self.place(id).map_or(id.to_string(), |p| p.name.clone());
        for r in &self.routes {
            if !route_ids.insert(r.id.as_str()) {
                problems.push(format!("Route id \"{}\" is used twice.", r.id));
            }
            if !ids.contains(r.from.as_str()) || !ids.contains(r.to.as_str()) {
                problems.push(format!(
                    "A route from {} to {} joins a place that is not on the map.",
                    name(&r.from),
                    name(&r.to)
                ));
            } else if r.from == r.to {
                problems.push(format!(
                    "A route from {} leads back to it: a route joins two different places.",
                    name(&r.from)
                ));
            }
            let pair = if r.from < r.to {
                (r.from.as_str(), r.to.as_str())
            } else {
                (r.to.as_str(), r.from.as_str())
            };
            if !pairs.insert(pair) {
                problems.push(format!(
                    "Two routes join the same two places ({} and {}).",
                    name(pair.0),
                    name(pair.1)
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    pub fn place(&self, id: &str) -> Option<&Place> {
        self.places.iter().find(|p| p.id == id)
    }

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

/// Resolves one campaign turn's orders together. Forces without an order hold. With
/// `route_contacts` off (a house rule), opposing forces pass each other on a route unhindered.
pub fn resolve_moves(
    map: &Map,
    forces: &[ForceAt],
    orders: &BTreeMap<String, Order>,
    route_contacts: bool,
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
    // Opposing forces crossing on the same route meet there and do not arrive (yet): one
    // contact per route, every force marching against an enemy on it taking part.
    let mut stopped: BTreeSet<String> = BTreeSet::new();
    let mut routes_used: Vec<&str> = moves.iter().map(|m| m.route.as_str()).collect();
    routes_used.sort();
    routes_used.dedup();
    for route in routes_used {
        if !route_contacts {
            break;
        }
        let on: Vec<&Move> = moves.iter().filter(|m| m.route == route).collect();
        let fighting: Vec<&Move> = on
            .iter()
            .copied()
            .filter(|a| {
                on.iter().any(|b| {
                    a.from == b.to
                        && a.to == b.from
                        && side_of.get(a.force.as_str()) != side_of.get(b.force.as_str())
                })
            })
            .collect();
        if fighting.is_empty() {
            continue;
        }
        for m in &fighting {
            stopped.insert(m.force.clone());
        }
        contacts.push(Contact::OnRoute {
            route: route.to_string(),
            forces: fighting.iter().map(|m| m.force.clone()).collect(),
        });
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
    // A force stopped on a route whose own starting place an enemy marches into is caught there
    // (M-91): that route fight is called off, the caught forces stand and fight in their place,
    // and the others on the route march on. Marching on can catch others, so repeat.
    loop {
        let caught: Vec<(usize, String)> = contacts
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Contact::OnRoute { forces: fs, .. } => Some((i, fs)),
                Contact::InPlace { .. } => None,
            })
            .flat_map(|(i, fs)| {
                fs.iter()
                    .filter(|f| {
                        let start = forces
                            .iter()
                            .find(|x| &x.force == *f)
                            .map(|x| x.place.as_str());
                        positions.iter().any(|(other, at)| {
                            Some(at.as_str()) == start
                                && !stopped.contains(other)
                                && side_of.get(other.as_str()) != side_of.get(f.as_str())
                                && moves
                                    .iter()
                                    .any(|m| &m.force == other && Some(m.to.as_str()) == start)
                        })
                    })
                    .map(move |f| (i, f.clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let Some((i, _)) = caught.first().cloned() else {
            break;
        };
        let Contact::OnRoute { forces: fs, .. } = contacts.remove(i) else {
            break;
        };
        for f in fs {
            stopped.remove(&f);
            if !caught.iter().any(|(j, c)| *j == i && *c == f) {
                if let Some(m) = moves.iter().find(|m| m.force == f) {
                    positions.insert(f.clone(), m.to.clone());
                }
            }
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
        // Only forces that arrived here this turn moved in (a caught force stayed put).
        let moved_in: BTreeSet<&str> = moves
            .iter()
            .filter(|m| {
                m.to == place
                    && !stopped.contains(&m.force)
                    && positions.get(&m.force) == Some(&m.to)
            })
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
            kind: PlaceKind::Village,
            x: 0,
            y: 0,
            value: 1,
            supply: false,
        };
        let route = |id: &str, a: &str, b: &str| Route {
            id: id.into(),
            from: a.into(),
            to: b.into(),
            kind: RouteKind::Road,
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
        let r = resolve_moves(&map(), &forces, &orders, true).unwrap();
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
        let r = resolve_moves(&map(), &forces, &orders, true).unwrap();
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
        let r = resolve_moves(&map(), &forces, &orders, true).unwrap();
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
        let r = resolve_moves(&map(), &forces, &orders, true).unwrap();
        assert!(r.contacts.is_empty());
        assert_eq!(r.positions["red2"], "ford");
    }

    #[test]
    fn a_route_that_does_not_start_here_is_refused() {
        let forces = [at("red", 0, "fort")];
        let orders = BTreeMap::from([("red".to_string(), go("r2"))]);
        assert!(matches!(
            resolve_moves(&map(), &forces, &orders, true),
            Err(CampaignError::RouteNotHere { .. })
        ));
        let orders = BTreeMap::from([("ghost".to_string(), Order::Hold)]);
        assert!(matches!(
            resolve_moves(&map(), &forces, &orders, true),
            Err(CampaignError::UnknownForce(_))
        ));
    }
}
