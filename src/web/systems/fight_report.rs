//! The parts of a fight report every rule system shares: the two sides' colours and marks, the
//! narration collapsed by turn with a one-line summary, a small diagram of the table at the end
//! of each turn, and a chart of what each side lost by turn. Each system fills them from its own
//! outcome (`lotf/fight.rs`, `lod/fight.rs` and their battle pages);
//! `templates/_fight_report.html` draws them.
//!
//! A side is named by `"attacker"` or `"defender"`, which the templates turn into the classes
//! `side-attacker` and `side-defender`: one colour each, always paired with a mark (a solid
//! square for the attacker, a hollow circle for the defender) so that the sides stay apart in
//! greyscale print and for readers who do not tell the colours apart.

use crate::rules::battlefield::{SECTORS, TABLE_DEPTH, TABLE_WIDTH};
use crate::rules::system::BattleSide;

pub const ATTACKER: &str = "attacker";
pub const DEFENDER: &str = "defender";

/// The side's name in classes and keys.
pub fn side_id(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => ATTACKER,
        BattleSide::Defender => DEFENDER,
    }
}

/// The side of a log key such as `attacker:e3`.
pub fn side_of_key(key: &str) -> Option<&'static str> {
    match key.split(':').next() {
        Some(ATTACKER) => Some(ATTACKER),
        Some(DEFENDER) => Some(DEFENDER),
        _ => None,
    }
}

/// The side a line of narration is about, from its words: the first unit it names as
/// "Name (attacker)", or a sentence that starts "The defender …". Both simulators name sides
/// this way; `None` when the line names neither.
pub fn side_named_in(text: &str) -> Option<&'static str> {
    let first = |a: usize, d: usize| if a < d { ATTACKER } else { DEFENDER };
    match (text.find("(attacker)"), text.find("(defender)")) {
        (Some(a), Some(d)) => return Some(first(a, d)),
        (Some(_), None) => return Some(ATTACKER),
        (None, Some(_)) => return Some(DEFENDER),
        (None, None) => {}
    }
    if text.starts_with("The attacker ") {
        Some(ATTACKER)
    } else if text.starts_with("The defender ") {
        Some(DEFENDER)
    } else {
        None
    }
}

/// The two forces' names, for the legend.
pub struct Legend {
    pub attacker: String,
    pub defender: String,
}

/// One line of narration, with the side it is about when it names one.
pub struct Line {
    pub side: Option<&'static str>,
    pub text: String,
}

/// A piece of a turn's one-line summary; a side's piece is shown in its colour.
pub struct SummaryPart {
    pub side: Option<&'static str>,
    pub text: String,
}

/// One element or unit in a diagram, in the diagram's own coordinates.
pub struct Marker {
    pub side: &'static str,
    /// Centre, in diagram units (see [`Diagram`]).
    pub x: String,
    pub y: String,
    /// Points toward the defender's edge (up the diagram) rather than the attacker's.
    pub faces_up: bool,
    /// Shaken, routing or otherwise not fit to fight: drawn dashed and paler.
    pub weak: bool,
    /// What a pointer (or a screen reader) is told: name, state.
    pub title: String,
}

/// The table seen from above at the end of a turn, the attacker's edge at the bottom.
pub struct Diagram {
    pub markers: Vec<Marker>,
    /// The sector boundaries, for systems that place units by sector.
    pub sector_lines: Vec<String>,
    /// "Where the forces stood: Crown with 5 on the table (squares), …".
    pub label: String,
    /// What a dashed marker means in this system, and how to read the points.
    pub key: String,
}

/// Diagram units per inch, and the margin for the edge labels above and below the table.
const SCALE: f64 = 4.0;
const MARGIN_X: f64 = 6.0;
const MARGIN_Y: f64 = 16.0;
/// The whole diagram's size, in its own units (the template's `viewBox`).
pub const DIAGRAM_WIDTH: f64 = TABLE_WIDTH * SCALE + 2.0 * MARGIN_X;
pub const DIAGRAM_HEIGHT: f64 = TABLE_DEPTH * SCALE + 2.0 * MARGIN_Y;

impl Diagram {
    /// A diagram of markers placed by [`Diagram::marker`]; `weak` says which markers are
    /// drawn dashed ("Shaken or Exhausted").
    pub fn new(markers: Vec<Marker>, by_sector: bool, legend: &Legend, weak: &str) -> Diagram {
        let count = |side| markers.iter().filter(|m| m.side == side).count();
        let label = format!(
            "Where the forces stood: {} with {} on the table (squares), {} with {} (circles)",
            legend.attacker,
            count(ATTACKER),
            legend.defender,
            count(DEFENDER)
        );
        let sector_lines = if by_sector {
            (1..SECTORS)
                .map(|s| {
                    format!(
                        "{:.1}",
                        MARGIN_X + f64::from(s) * TABLE_WIDTH / f64::from(SECTORS) * SCALE
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        Diagram {
            markers,
            sector_lines,
            label,
            key: format!(
                "Dashed markers: {weak}. The point shows which way each faces.{}",
                if by_sector {
                    " Dashed lines part the left, centre and right sectors."
                } else {
                    ""
                }
            ),
        }
    }

    /// A marker at `x` inches across (from the left as the attacker sees it) and `depth` inches
    /// from the attacker's edge.
    pub fn marker(
        side: &'static str,
        x: f64,
        depth: f64,
        faces_up: bool,
        weak: bool,
        title: String,
    ) -> Marker {
        let x = x.clamp(0.0, TABLE_WIDTH);
        let depth = depth.clamp(0.0, TABLE_DEPTH);
        Marker {
            side,
            x: format!("{:.1}", MARGIN_X + x * SCALE),
            y: format!("{:.1}", MARGIN_Y + (TABLE_DEPTH - depth) * SCALE),
            faces_up,
            weak,
            title,
        }
    }

    pub fn width(&self) -> String {
        format!("{DIAGRAM_WIDTH:.0}")
    }
    pub fn height(&self) -> String {
        format!("{DIAGRAM_HEIGHT:.0}")
    }
    pub fn table_x(&self) -> String {
        format!("{MARGIN_X:.0}")
    }
    pub fn table_y(&self) -> String {
        format!("{MARGIN_Y:.0}")
    }
    pub fn table_width(&self) -> String {
        format!("{:.0}", TABLE_WIDTH * SCALE)
    }
    pub fn table_height(&self) -> String {
        format!("{:.0}", TABLE_DEPTH * SCALE)
    }
    pub fn table_bottom(&self) -> String {
        format!("{:.0}", MARGIN_Y + TABLE_DEPTH * SCALE)
    }
    pub fn bottom_label_y(&self) -> String {
        format!("{:.0}", DIAGRAM_HEIGHT - 4.0)
    }
    pub fn middle_x(&self) -> String {
        format!("{:.0}", DIAGRAM_WIDTH / 2.0)
    }
}

/// Spread `count` markers evenly across sector `sector` (0 left, as the attacker sees the
/// table); returns the x of the `index`-th, in inches. Systems that only know a unit's sector
/// draw it this way, side by side with the others of its side there.
pub fn across_sector(sector: u8, index: usize, count: usize) -> f64 {
    let width = TABLE_WIDTH / f64::from(SECTORS);
    let sector = f64::from(u32::from(sector).min(SECTORS.unsigned_abs() - 1));
    sector * width + width * (index as f64 + 1.0) / (count.max(1) as f64 + 1.0)
}

/// One turn of the report: its heading, summary, narration and diagram.
pub struct TurnSection {
    pub turn: u32,
    pub summary: Vec<SummaryPart>,
    pub lines: Vec<Line>,
    pub diagram: Option<Diagram>,
}

/// The narration of a battle, by turn: what came before the first turn, then each turn.
pub struct TurnLog {
    pub legend: Legend,
    pub before: Vec<Line>,
    pub turns: Vec<TurnSection>,
}

impl TurnLog {
    /// Lines grouped by turn (turn 0 is before the battle), each turn with an empty summary and
    /// no diagram, for the system to fill in. Every turn up to `turns_played` gets a section,
    /// even one the log says nothing of.
    pub fn group(
        legend: Legend,
        turns_played: u32,
        lines: impl IntoIterator<Item = (u32, Line)>,
    ) -> TurnLog {
        let mut log = TurnLog {
            legend,
            before: Vec::new(),
            turns: (1..=turns_played)
                .map(|turn| TurnSection {
                    turn,
                    summary: Vec::new(),
                    lines: Vec::new(),
                    diagram: None,
                })
                .collect(),
        };
        for (turn, line) in lines {
            if turn == 0 {
                log.before.push(line);
                continue;
            }
            match log.turns.iter_mut().find(|t| t.turn == turn) {
                Some(t) => t.lines.push(line),
                // A line past the turns played (none should be): keep it, in a section of its own.
                None => log.turns.push(TurnSection {
                    turn,
                    summary: Vec::new(),
                    lines: vec![line],
                    diagram: None,
                }),
            }
        }
        log
    }

    pub fn is_empty(&self) -> bool {
        self.before.is_empty() && self.turns.iter().all(|t| t.lines.is_empty())
    }
}

/// A side's change over a turn in words: "lost 12 points (30 so far)"; `total_words` follows
/// the total ("so far", "of 9 so far").
pub fn change_words(before: u32, after: u32, unit: (&str, &str), total_words: &str) -> String {
    let (one, many) = unit;
    let n = |v: u32| if v == 1 { one } else { many };
    let change = match after.cmp(&before) {
        std::cmp::Ordering::Greater => format!("lost {} {}", after - before, n(after - before)),
        std::cmp::Ordering::Equal => format!("lost no {many}"),
        std::cmp::Ordering::Less => {
            format!("got {} {} back", before - after, n(before - after))
        }
    };
    format!("{change} ({after} {total_words})")
}

/// Bars of what each side had lost by the end of each turn, the attacker's and the defender's
/// side by side in their colours.
pub struct SideChart {
    pub title: String,
    pub width: u32,
    pub turns: Vec<ChartTurn>,
}

pub struct ChartTurn {
    pub label: String,
    pub label_x: u32,
    pub bars: Vec<ChartBar>,
}

pub struct ChartBar {
    pub side: &'static str,
    pub x: u32,
    pub y: u32,
    pub height: u32,
    pub value: u32,
    pub value_x: u32,
    pub title: String,
}

const CHART_BASE: u32 = 120;
const CHART_BAR: u32 = 16;

/// A chart of `(turn, attacker's, defender's)` totals; `what` names the quantity ("points
/// lost").
pub fn side_chart(
    title: &str,
    what: &str,
    legend: &Legend,
    totals: &[(u32, u32, u32)],
) -> SideChart {
    let max = totals
        .iter()
        .map(|&(_, a, d)| a.max(d))
        .max()
        .unwrap_or(0)
        .max(1);
    let height =
        |v: u32| (f64::from(v) / f64::from(max) * f64::from(CHART_BASE - 20)).round() as u32;
    let turns = totals
        .iter()
        .enumerate()
        .map(|(i, &(turn, a, d))| {
            let left = 6 + i as u32 * (2 * CHART_BAR + 10);
            let bar = |k: u32, side: &'static str, value: u32, name: &str| ChartBar {
                side,
                x: left + k * CHART_BAR,
                y: CHART_BASE - height(value),
                height: height(value),
                value,
                value_x: left + k * CHART_BAR + CHART_BAR / 2,
                title: format!("Turn {turn}, {name}: {value} {what}"),
            };
            ChartTurn {
                label: format!("T{turn}"),
                label_x: left + CHART_BAR,
                bars: vec![
                    bar(0, ATTACKER, a, &legend.attacker),
                    bar(1, DEFENDER, d, &legend.defender),
                ],
            }
        })
        .collect::<Vec<_>>();
    SideChart {
        title: title.to_string(),
        width: 12 + totals.len() as u32 * (2 * CHART_BAR + 10),
        turns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend() -> Legend {
        Legend {
            attacker: "Crown".into(),
            defender: "Continentals".into(),
        }
    }

    #[test]
    fn every_turn_played_gets_a_section_and_lines_go_to_their_turn() {
        let line = |t: &str| Line {
            side: None,
            text: t.into(),
        };
        let log = TurnLog::group(
            legend(),
            3,
            [
                (0, line("deploy")),
                (1, line("a")),
                (3, line("c")),
                (3, line("d")),
            ],
        );
        assert_eq!(log.before.len(), 1);
        assert_eq!(
            log.turns
                .iter()
                .map(|t| (t.turn, t.lines.len()))
                .collect::<Vec<_>>(),
            [(1, 1), (2, 0), (3, 2)]
        );
    }

    #[test]
    fn a_line_is_about_the_side_of_the_first_unit_it_names() {
        assert_eq!(
            side_named_in("Legion Horse (defender) charges home into Minutemen (attacker)."),
            Some(DEFENDER)
        );
        assert_eq!(
            side_named_in("Minutemen (attacker) routes 16\"."),
            Some(ATTACKER)
        );
        assert_eq!(
            side_named_in("The attacker force is broken and gives up the field."),
            Some(ATTACKER)
        );
        assert_eq!(side_named_in("Initiative: attacker 8, defender 7."), None);
    }

    #[test]
    fn the_attacker_edge_is_at_the_bottom_and_markers_stay_on_the_table() {
        let near = Diagram::marker(ATTACKER, 0.0, 0.0, true, false, String::new());
        let far = Diagram::marker(DEFENDER, 100.0, 60.0, false, false, String::new());
        assert_eq!((near.x.as_str(), near.y.as_str()), ("6.0", "208.0"));
        assert_eq!((far.x.as_str(), far.y.as_str()), ("294.0", "16.0"));
        let spread: Vec<f64> = (0..3).map(|i| across_sector(1, i, 3)).collect();
        assert_eq!(spread, [30.0, 36.0, 42.0]);
    }

    #[test]
    fn a_change_is_told_in_words() {
        assert_eq!(
            change_words(10, 22, ("point", "points"), "in all"),
            "lost 12 points (22 in all)"
        );
        assert_eq!(
            change_words(5, 5, ("unit", "units"), "of 6"),
            "lost no units (5 of 6)"
        );
        assert_eq!(
            change_words(9, 8, ("point", "points"), "in all"),
            "got 1 point back (8 in all)"
        );
    }

    #[test]
    fn the_chart_has_a_bar_per_side_per_turn_scaled_to_the_largest() {
        let c = side_chart(
            "Lost",
            "points lost",
            &legend(),
            &[(1, 0, 50), (2, 100, 50)],
        );
        let bars: Vec<(&str, u32)> = c
            .turns
            .iter()
            .flat_map(|t| t.bars.iter().map(|b| (b.side, b.height)))
            .collect();
        assert_eq!(
            bars,
            [
                (ATTACKER, 0),
                (DEFENDER, 50),
                (ATTACKER, 100),
                (DEFENDER, 50)
            ]
        );
    }
}
