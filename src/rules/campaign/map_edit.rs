//! The organiser's edits to a campaign map before the start, one change at a time, and the
//! check of the whole map with the sides' home places before it is saved.

use super::error::FieldProblem;
use super::movement::{Map, Place, PlaceKind, Route, RouteKind, MAP_HEIGHT, MAP_WIDTH};

/// A place's fields as the organiser typed them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlaceInput<'a> {
    pub name: &'a str,
    /// A place kind id (`fort`, `town`, …).
    pub kind: &'a str,
    /// Across, 0 to the map's width.
    pub x: &'a str,
    /// Down, 0 to the map's height.
    pub y: &'a str,
    /// The victory value, 0 to 3.
    pub value: &'a str,
    pub supply: bool,
}

fn number(text: &str, max: u16) -> Option<u16> {
    text.trim().parse::<u16>().ok().filter(|v| *v <= max)
}

impl PlaceInput<'_> {
    /// The place these fields describe, with the given id; every problem at once. The name is
    /// checked with the whole map.
    fn place(&self, id: String) -> Result<Place, Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let kind = PlaceKind::from_id(self.kind);
        if kind.is_none() {
            problems.push(FieldProblem::new(
                "kind",
                "Choose what kind of place it is.",
            ));
        }
        let mut coordinate = |field, label, text, max| {
            let v = number(text, max);
            if v.is_none() {
                problems.push(FieldProblem::new(
                    field,
                    format!("{label} is a whole number from 0 to {max}."),
                ));
            }
            v
        };
        let x = coordinate("x", "Across", self.x, MAP_WIDTH);
        let y = coordinate("y", "Down", self.y, MAP_HEIGHT);
        let value = coordinate("value", "The victory value", self.value, 3);
        match (kind, x, y, value) {
            (Some(kind), Some(x), Some(y), Some(value)) if problems.is_empty() => Ok(Place {
                id,
                name: self.name.trim().to_string(),
                kind,
                x,
                y,
                value: u8::try_from(value).unwrap_or(0),
                supply: self.supply,
            }),
            _ => Err(problems),
        }
    }
}

impl Map {
    /// A fresh place id from a name: lower-case letters and digits joined by underscores, at
    /// most 30 characters, numbered on (`_2`, `_3`, …) if the map has it already.
    pub fn new_place_id(&self, name: &str) -> String {
        let base: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let mut base: String = base.trim_matches('_').chars().take(30).collect();
        if base.is_empty() {
            base = "place".into();
        }
        let mut id = base.clone();
        let mut n = 2;
        while self.place(&id).is_some() {
            id = format!("{base}_{n}");
            n += 1;
        }
        id
    }

    /// Adds a place with an id made from its name; gives the id.
    pub fn add_place(&mut self, input: &PlaceInput) -> Result<String, Vec<FieldProblem>> {
        let place = input.place(self.new_place_id(input.name))?;
        let id = place.id.clone();
        self.places.push(place);
        Ok(id)
    }

    /// Changes a place's fields; its id (and so its routes) stay.
    pub fn update_place(&mut self, id: &str, input: &PlaceInput) -> Result<(), Vec<FieldProblem>> {
        let slot = self.places.iter_mut().find(|p| p.id == id).ok_or_else(|| {
            vec![FieldProblem::new(
                "place",
                "There is no such place on the map.",
            )]
        })?;
        *slot = input.place(id.to_string())?;
        Ok(())
    }

    /// Removes a place and every route to it. A side's home stays until another is chosen.
    pub fn remove_place(&mut self, id: &str, homes: &[String; 2]) -> Result<(), Vec<FieldProblem>> {
        if homes.iter().any(|h| h == id) {
            return Err(vec![FieldProblem::new(
                "place",
                "That place is a side's home; choose another home first.",
            )]);
        }
        self.places.retain(|p| p.id != id);
        self.routes.retain(|r| r.from != id && r.to != id);
        Ok(())
    }

    /// Adds a route with the first free id (`r1`, `r2`, …); gives the id. Its ends are checked
    /// with the whole map.
    pub fn add_route(
        &mut self,
        from: &str,
        to: &str,
        kind: &str,
    ) -> Result<String, Vec<FieldProblem>> {
        let kind = RouteKind::from_id(kind)
            .ok_or_else(|| vec![FieldProblem::new("kind", "Choose road, trail or river.")])?;
        let id = (1..)
            .map(|i| format!("r{i}"))
            .find(|id| !self.routes.iter().any(|r| &r.id == id))
            .unwrap_or_default();
        self.routes.push(Route {
            id: id.clone(),
            from: from.to_string(),
            to: to.to_string(),
            kind,
        });
        Ok(id)
    }

    pub fn remove_route(&mut self, id: &str) {
        self.routes.retain(|r| r.id != id);
    }

    /// Everything that stops the map being saved with these home places: the map's own
    /// problems (field `map`), then the homes (field `homes`): each a place on the map, and
    /// not the same place.
    pub fn check_with_homes(&self, homes: &[String; 2]) -> Result<(), Vec<FieldProblem>> {
        let mut problems: Vec<FieldProblem> = match self.check() {
            Ok(()) => Vec::new(),
            Err(found) => found
                .into_iter()
                .map(|m| FieldProblem::new("map", m))
                .collect(),
        };
        if homes.iter().any(|h| self.place(h).is_none()) {
            problems.push(FieldProblem::new(
                "homes",
                "Each side's home must be a place on the map.",
            ));
        } else if homes[0] == homes[1] {
            problems.push(FieldProblem::new(
                "homes",
                "The two sides need different home places.",
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::campaign::presets::{blank_map, BLANK_SIDES};

    fn homes() -> [String; 2] {
        BLANK_SIDES.map(|(_, home)| home.to_string())
    }

    fn fort(name: &str) -> PlaceInput<'_> {
        PlaceInput {
            name,
            kind: "fort",
            x: "500",
            y: " 200 ",
            value: "3",
            supply: true,
        }
    }

    fn messages(problems: Vec<FieldProblem>) -> Vec<(&'static str, String)> {
        problems.into_iter().map(|p| (p.field, p.message)).collect()
    }

    #[test]
    fn place_ids_come_from_names_and_never_repeat() {
        let mut map = blank_map();
        assert_eq!(map.new_place_id("Fort Duquesne"), "fort_duquesne");
        assert_eq!(map.new_place_id("  Lundy's Lane! "), "lundy_s_lane");
        assert_eq!(map.new_place_id("!!!"), "place");
        assert_eq!(map.new_place_id("Trois-Rivières"), "trois_rivi_res");
        assert_eq!(map.new_place_id(&"a".repeat(40)).len(), 30);
        assert_eq!(
            map.add_place(&fort("Fort Duquesne")),
            Ok("fort_duquesne".into())
        );
        assert_eq!(
            map.add_place(&fort("Fort Duquesne")),
            Ok("fort_duquesne_2".into())
        );
        assert_eq!(map.new_place_id("Fort Duquesne"), "fort_duquesne_3");
    }

    #[test]
    fn an_added_place_has_what_was_typed() {
        let mut map = blank_map();
        let id = map.add_place(&fort("  Fort Pitt ")).expect("sound fields");
        let p = map.place(&id).expect("on the map");
        assert_eq!(
            (p.name.as_str(), p.kind, p.x, p.y, p.value, p.supply),
            ("Fort Pitt", PlaceKind::Fort, 500, 200, 3, true)
        );
        assert!(map.check_with_homes(&homes()).is_ok());
    }

    #[test]
    fn bad_place_fields_are_each_named_and_change_nothing() {
        let mut map = blank_map();
        let before = map.clone();
        let bad = PlaceInput {
            kind: "castle",
            x: "1001",
            y: "-1",
            value: "4",
            ..fort("Camelot")
        };
        assert_eq!(
            messages(map.add_place(&bad).expect_err("refused")),
            [
                ("kind", "Choose what kind of place it is.".to_string()),
                ("x", "Across is a whole number from 0 to 1000.".to_string()),
                ("y", "Down is a whole number from 0 to 700.".to_string()),
                (
                    "value",
                    "The victory value is a whole number from 0 to 3.".to_string()
                ),
            ]
        );
        assert!(map.update_place("home_a", &bad).is_err());
        assert_eq!(map, before);
        let edge = PlaceInput {
            x: "1000",
            y: "700",
            value: "0",
            ..fort("Edge")
        };
        assert!(map.add_place(&edge).is_ok(), "the edges are on the map");
    }

    #[test]
    fn an_updated_place_keeps_its_id_and_routes() {
        let mut map = blank_map();
        map.update_place("home_a", &fort("Fort Niagara"))
            .expect("sound fields");
        let p = map.place("home_a").expect("same id");
        assert_eq!((p.name.as_str(), p.kind), ("Fort Niagara", PlaceKind::Fort));
        assert_eq!(map.neighbours("home_a"), ["home_b"]);
        assert_eq!(
            messages(
                map.update_place("nowhere", &fort("X"))
                    .expect_err("refused")
            ),
            [("place", "There is no such place on the map.".to_string())]
        );
    }

    #[test]
    fn a_removed_place_takes_its_routes_but_a_home_stays() {
        let mut map = blank_map();
        let fort_id = map.add_place(&fort("Fort Erie")).expect("added");
        map.add_route("home_a", &fort_id, "trail").expect("added");
        map.add_route(&fort_id, "home_b", "river").expect("added");
        assert_eq!(
            messages(map.remove_place("home_a", &homes()).expect_err("a home")),
            [(
                "place",
                "That place is a side's home; choose another home first.".to_string()
            )]
        );
        map.remove_place(&fort_id, &homes()).expect("not a home");
        assert!(map.place(&fort_id).is_none());
        assert_eq!(
            map.routes.len(),
            1,
            "only the road between the homes is left"
        );
        assert!(map.check_with_homes(&homes()).is_ok());
    }

    #[test]
    fn routes_take_the_first_free_id_and_a_known_kind() {
        let mut map = blank_map();
        let fort_id = map.add_place(&fort("Fort Erie")).expect("added");
        assert_eq!(map.add_route("home_a", &fort_id, "road"), Ok("r2".into()));
        map.remove_route("r1");
        assert_eq!(map.add_route("home_b", &fort_id, "river"), Ok("r1".into()));
        assert_eq!(
            messages(
                map.add_route("home_a", "home_b", "canal")
                    .expect_err("refused")
            ),
            [("kind", "Choose road, trail or river.".to_string())]
        );
        assert_eq!(map.routes.len(), 2);
    }

    #[test]
    fn two_places_on_one_spot_or_of_one_name_are_refused() {
        let mut map = blank_map();
        let first = map.places[0].clone();
        let mut twin = first.clone();
        twin.id = "twin".into();
        twin.name = "Twin".into();
        map.places.push(twin);
        let found = messages(map.check_with_homes(&homes()).expect_err("one spot"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.contains("stand on the same spot"), "{found:?}");

        let mut map = blank_map();
        let mut namesake = first.clone();
        namesake.id = "namesake".into();
        namesake.x = first.x.saturating_add(200).min(1000);
        namesake.name = format!(" {} ", first.name.to_uppercase());
        map.places.push(namesake);
        let found = messages(map.check_with_homes(&homes()).expect_err("one name"));
        assert_eq!(
            found,
            [(
                "map",
                format!(
                    "Two places are called {}; give each its own name.",
                    first.name.to_uppercase()
                )
            )]
        );
    }

    #[test]
    fn the_map_is_saved_only_sound_and_with_two_different_homes_on_it() {
        let mut map = blank_map();
        map.add_route("home_a", "nowhere", "road")
            .expect("checked later");
        assert_eq!(
            messages(
                map.check_with_homes(&homes())
                    .expect_err("a route to nowhere")
            ),
            [(
                "map",
                "A route from First home to nowhere joins a place that is not on the map."
                    .to_string()
            )]
        );
        let map = blank_map();
        assert_eq!(
            messages(
                map.check_with_homes(&["home_a".into(), "gone".into()])
                    .expect_err("not on the map")
            ),
            [(
                "homes",
                "Each side's home must be a place on the map.".to_string()
            )]
        );
        assert_eq!(
            messages(
                map.check_with_homes(&["home_b".into(), "home_b".into()])
                    .expect_err("the same place")
            ),
            [(
                "homes",
                "The two sides need different home places.".to_string()
            )]
        );
        assert!(map
            .check_with_homes(&["home_b".into(), "home_a".into()])
            .is_ok());
    }
}
