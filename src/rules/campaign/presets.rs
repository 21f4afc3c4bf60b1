//! Ready-made campaign maps from the book's theatres, with real place names. Positions are on
//! the 1000 × 700 map grid, north up; they are drawn for play, not surveyed.

use super::movement::{Map, Place, PlaceKind, Route, RouteKind};

/// A preset map and the sides that fight over it.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// The rule system's war id.
    pub war: &'static str,
    pub blurb: &'static str,
    /// Side names and home place ids.
    pub sides: [(&'static str, &'static str); 2],
    pub map: Map,
}

type PlaceRow = (&'static str, &'static str, PlaceKind, u16, u16, u8, bool);
type RouteRow = (&'static str, &'static str, RouteKind);

fn build(places: &[PlaceRow], routes: &[RouteRow]) -> Map {
    Map {
        places: places
            .iter()
            .map(|(id, name, kind, x, y, value, supply)| Place {
                id: (*id).into(),
                name: (*name).into(),
                kind: *kind,
                x: *x,
                y: *y,
                value: *value,
                supply: *supply,
            })
            .collect(),
        routes: routes
            .iter()
            .enumerate()
            .map(|(i, (from, to, kind))| Route {
                id: format!("r{}", i + 1),
                from: (*from).into(),
                to: (*to).into(),
                kind: *kind,
            })
            .collect(),
    }
}

use PlaceKind::*;
use RouteKind::*;

/// Every preset.
pub fn presets() -> Vec<Preset> {
    vec![forks_of_the_ohio(), philadelphia(), niagara()]
}

/// The preset with this id.
pub fn preset(id: &str) -> Option<Preset> {
    presets().into_iter().find(|p| p.id == id)
}

/// The map id that asks for a blank map instead of a preset.
pub const BLANK: &str = "blank";

/// The blank map's sides: names to change and its two home places.
pub const BLANK_SIDES: [(&str, &str); 2] = [("First side", "home_a"), ("Second side", "home_b")];

/// A blank map: the two home places joined by a road, to edit from.
pub fn blank_map() -> Map {
    let place = |id: &str, name: &str, x| Place {
        id: id.into(),
        name: name.into(),
        kind: Town,
        x,
        y: 350,
        value: 2,
        supply: true,
    };
    Map {
        places: vec![
            place("home_a", "First home", 150),
            place("home_b", "Second home", 850),
        ],
        routes: vec![Route {
            id: "r1".into(),
            from: "home_a".into(),
            to: "home_b".into(),
            kind: Road,
        }],
    }
}

fn forks_of_the_ohio() -> Preset {
    let places: &[PlaceRow] = &[
        ("cumberland", "Fort Cumberland", Fort, 900, 560, 2, true),
        (
            "little_meadows",
            "Little Meadows",
            Wilderness,
            760,
            500,
            0,
            false,
        ),
        (
            "great_meadows",
            "Great Meadows",
            Wilderness,
            620,
            560,
            1,
            false,
        ),
        ("redstone", "Redstone Old Fort", Fort, 470, 610, 1, true),
        ("gists", "Gist's Plantation", Village, 520, 450, 1, false),
        ("stewarts", "Stewart's Crossing", Ford, 400, 420, 1, false),
        (
            "monongahela",
            "Monongahela Crossing",
            Ford,
            300,
            300,
            1,
            false,
        ),
        (
            "turtle_creek",
            "Turtle Creek",
            Wilderness,
            420,
            250,
            0,
            false,
        ),
        ("duquesne", "Fort Duquesne", Fort, 160, 220, 3, true),
        ("logstown", "Logstown", Village, 80, 110, 1, false),
        ("kittanning", "Kittanning", Village, 330, 90, 1, false),
        ("venango", "Venango", Landing, 200, 40, 1, true),
    ];
    let routes: &[RouteRow] = &[
        ("cumberland", "little_meadows", Road),
        ("little_meadows", "great_meadows", Road),
        ("great_meadows", "gists", Road),
        ("great_meadows", "redstone", Trail),
        ("redstone", "stewarts", River),
        ("gists", "stewarts", Road),
        ("stewarts", "monongahela", Road),
        ("gists", "turtle_creek", Trail),
        ("monongahela", "duquesne", Road),
        ("monongahela", "turtle_creek", Trail),
        ("turtle_creek", "kittanning", Trail),
        ("duquesne", "logstown", River),
        ("duquesne", "venango", River),
        ("kittanning", "venango", River),
    ];
    Preset {
        id: "forks-of-the-ohio-1755",
        title: "The Forks of the Ohio, 1755",
        war: "french_indian_war",
        blurb: "A road cut through the mountains from Fort Cumberland towards the French fort \
                where the Allegheny and Monongahela meet. Forts and river landings supply; \
                Fort Duquesne is the prize.",
        sides: [
            ("British and Provincials", "cumberland"),
            ("French and Allies", "duquesne"),
        ],
        map: build(places, routes),
    }
}

fn philadelphia() -> Preset {
    let places: &[PlaceRow] = &[
        ("head_of_elk", "Head of Elk", Landing, 80, 620, 1, true),
        (
            "iron_hill",
            "Cooch's Bridge",
            Crossroads,
            200,
            520,
            1,
            false,
        ),
        ("wilmington", "Wilmington", Town, 420, 560, 2, true),
        ("kennett", "Kennett Square", Village, 220, 380, 1, false),
        ("chadds_ford", "Chadds Ford", Ford, 380, 400, 1, false),
        (
            "brandywine",
            "Birmingham Meeting",
            Village,
            330,
            300,
            1,
            false,
        ),
        ("paoli", "Paoli", Crossroads, 360, 170, 1, false),
        ("valley_forge", "Valley Forge", Village, 470, 110, 1, true),
        ("swedes_ford", "Swede's Ford", Ford, 560, 150, 1, false),
        ("germantown", "Germantown", Village, 690, 190, 2, false),
        ("philadelphia", "Philadelphia", Town, 800, 330, 3, true),
        ("fort_mifflin", "Fort Mifflin", Fort, 760, 470, 2, false),
        ("whitemarsh", "Whitemarsh", Village, 700, 60, 1, false),
    ];
    let routes: &[RouteRow] = &[
        ("head_of_elk", "iron_hill", Road),
        ("iron_hill", "wilmington", Road),
        ("iron_hill", "kennett", Road),
        ("kennett", "chadds_ford", Road),
        ("kennett", "brandywine", Trail),
        ("wilmington", "chadds_ford", Road),
        ("chadds_ford", "brandywine", Road),
        ("brandywine", "paoli", Road),
        ("chadds_ford", "philadelphia", Road),
        ("paoli", "valley_forge", Road),
        ("valley_forge", "swedes_ford", Road),
        ("swedes_ford", "germantown", Road),
        ("paoli", "swedes_ford", Trail),
        ("germantown", "philadelphia", Road),
        ("germantown", "whitemarsh", Road),
        ("valley_forge", "whitemarsh", Trail),
        ("philadelphia", "fort_mifflin", River),
        ("wilmington", "fort_mifflin", River),
    ];
    Preset {
        id: "philadelphia-1777",
        title: "The Philadelphia campaign, 1777",
        war: "american_revolution",
        blurb: "Landed at the head of the Chesapeake, the Crown's army marches on the rebel \
                capital across the Brandywine and the Schuylkill, while the Continentals try to \
                bar the fords. Philadelphia is the prize.",
        sides: [
            ("Crown Forces", "head_of_elk"),
            ("Continental Army", "philadelphia"),
        ],
        map: build(places, routes),
    }
}

fn niagara() -> Preset {
    let places: &[PlaceRow] = &[
        ("buffalo", "Buffalo", Town, 920, 620, 2, true),
        ("black_rock", "Black Rock", Landing, 860, 520, 1, false),
        ("fort_erie", "Fort Erie", Fort, 760, 600, 2, true),
        ("streets_creek", "Street's Creek", Ford, 700, 460, 1, false),
        ("chippawa", "Chippawa", Village, 620, 380, 1, false),
        (
            "lundys_lane",
            "Lundy's Lane",
            Crossroads,
            520,
            320,
            2,
            false,
        ),
        ("queenston", "Queenston", Village, 480, 190, 1, false),
        ("lewiston", "Lewiston", Landing, 640, 170, 1, true),
        ("fort_george", "Fort George", Fort, 400, 60, 2, true),
        ("fort_niagara", "Fort Niagara", Fort, 560, 40, 2, false),
        ("twelve_mile", "Twelve Mile Creek", Ford, 180, 120, 1, false),
        ("beaver_dams", "Beaver Dams", Wilderness, 260, 260, 0, false),
    ];
    let routes: &[RouteRow] = &[
        ("buffalo", "black_rock", Road),
        ("black_rock", "fort_erie", River),
        ("buffalo", "fort_erie", River),
        ("fort_erie", "streets_creek", Road),
        ("streets_creek", "chippawa", Road),
        ("chippawa", "lundys_lane", Road),
        ("lundys_lane", "queenston", Road),
        ("lundys_lane", "beaver_dams", Trail),
        ("queenston", "lewiston", River),
        ("queenston", "fort_george", Road),
        ("queenston", "beaver_dams", Trail),
        ("fort_george", "fort_niagara", River),
        ("lewiston", "fort_niagara", Road),
        ("fort_george", "twelve_mile", Road),
        ("beaver_dams", "twelve_mile", Trail),
        ("black_rock", "lewiston", Road),
    ];
    Preset {
        id: "niagara-1814",
        title: "The Niagara frontier, 1814",
        war: "war_of_1812",
        blurb: "The American Left Division crosses at Fort Erie and pushes down the Canadian \
                bank of the Niagara towards Fort George, with the British falling back on their \
                forts and the roads inland.",
        sides: [
            ("United States", "buffalo"),
            ("British and Canadians", "fort_george"),
        ],
        map: build(places, routes),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn every_preset_is_a_sound_map() {
        for p in presets() {
            assert!(p.map.check().is_ok(), "{}: {:?}", p.id, p.map.check());
            for (_, home) in p.sides {
                assert!(p.map.places.iter().any(|x| x.id == home), "{}", p.id);
            }
            assert_ne!(p.sides[0].1, p.sides[1].1);
            // Every place can be reached from the first side's home.
            let mut seen = BTreeSet::from([p.sides[0].1.to_string()]);
            let mut todo = vec![p.sides[0].1.to_string()];
            while let Some(x) = todo.pop() {
                for n in p.map.neighbours(&x) {
                    if seen.insert(n.to_string()) {
                        todo.push(n.to_string());
                    }
                }
            }
            assert_eq!(seen.len(), p.map.places.len(), "{} is not connected", p.id);
        }
    }

    #[test]
    fn the_blank_map_joins_two_homes_by_a_road() {
        let map = blank_map();
        assert!(map.check().is_ok(), "{:?}", map.check());
        let homes: Vec<&str> = BLANK_SIDES.iter().map(|(_, home)| *home).collect();
        assert_eq!(
            map.neighbours(homes[0]),
            [homes[1]],
            "one road from home to home"
        );
        assert!(map.places.iter().all(|p| p.supply && p.value == 2));
    }

    #[test]
    fn presets_use_the_places_of_their_theatre() {
        let names = |id: &str| -> Vec<String> {
            preset(id)
                .map(|p| p.map.places.into_iter().map(|x| x.name).collect())
                .unwrap_or_default()
        };
        assert!(names("forks-of-the-ohio-1755").contains(&"Fort Duquesne".to_string()));
        assert!(names("philadelphia-1777").contains(&"Chadds Ford".to_string()));
        assert!(names("niagara-1814").contains(&"Lundy's Lane".to_string()));
    }
}
