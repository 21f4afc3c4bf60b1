//! What the generic at-the-table page and the printed battle pack exchange with a rule
//! system's hooks (issue 19, items 8 and 10). The system fills these in its own terms; the
//! generic pages own the addresses, who may see them, the forms and the page frame.

/// One button of a control: the value it sends, its words, and whether it is the current
/// choice.
pub struct Choice {
    pub value: i32,
    pub label: String,
    /// Said to screen readers and shown on hover ("One more hit on 1st Foot").
    pub title: String,
    pub chosen: bool,
}

/// A row of buttons that changes one thing: a count (− and +) or a choice (one of several).
pub struct Control {
    /// What it changes, e.g. "Hits".
    pub label: String,
    /// How it stands, e.g. "2 of 4".
    pub value: String,
    /// The tap's `what` and `target`, as the system's table state reads them.
    pub what: &'static str,
    pub target: String,
    pub choices: Vec<Choice>,
}

impl Control {
    /// A count changed one at a time: − (disabled at `low`) and + (at `high`).
    pub fn count(
        label: &str,
        value: String,
        what: &'static str,
        target: String,
        name: &str,
    ) -> Control {
        Control {
            choices: vec![
                Choice {
                    value: -1,
                    label: "−".into(),
                    title: format!("{label}: one fewer on {name}"),
                    chosen: false,
                },
                Choice {
                    value: 1,
                    label: "+".into(),
                    title: format!("{label}: one more on {name}"),
                    chosen: false,
                },
            ],
            label: label.to_string(),
            value,
            what,
            target,
        }
    }

    /// A switch: `no` (value 0) or `yes` (value 1); its value reads as the current words.
    pub fn yes_no(
        label: &str,
        now: bool,
        what: &'static str,
        target: &str,
        yes: &str,
        no: &str,
    ) -> Control {
        Control::choice(
            label,
            if now { yes } else { no }.to_lowercase(),
            what,
            target.to_string(),
            &[(0, no), (1, yes)],
            i32::from(now),
        )
    }

    /// One of several: `options` are (value, words); `now` is the current value.
    pub fn choice(
        label: &str,
        value: String,
        what: &'static str,
        target: String,
        options: &[(i32, &str)],
        now: i32,
    ) -> Control {
        Control {
            choices: options
                .iter()
                .map(|(v, words)| Choice {
                    value: *v,
                    label: (*words).to_string(),
                    title: format!("{label}: {words}"),
                    chosen: *v == now,
                })
                .collect(),
            label: label.to_string(),
            value,
            what,
            target,
        }
    }
}

/// One element or unit at the table.
pub struct TableUnit {
    pub name: String,
    /// What it is, e.g. "Medium infantry, group 2".
    pub detail: String,
    /// Its state in the system's own words, e.g. "Shaken · 2 Disorder Markers".
    pub status: String,
    /// `ok`, `warn` or `lost`: how the status is coloured.
    pub tone: &'static str,
    pub controls: Vec<Control>,
}

/// One side at the table.
pub struct TableSide {
    /// `Attacker` or `Defender`.
    pub role: &'static str,
    /// `attacker` or `defender`.
    pub side_id: &'static str,
    pub force: String,
    /// A line about the whole side, e.g. "2 of 7 units lost; it breaks at 4".
    pub summary: String,
    /// Controls for the whole side (Command Points spent).
    pub controls: Vec<Control>,
    pub units: Vec<TableUnit>,
    /// One control per commander or General: its fate.
    pub commanders: Vec<Control>,
    /// What the side calls its commanders ("Commanders", "Generals").
    pub commanders_label: &'static str,
}

/// The table as the system shows it.
pub struct TableView {
    /// The turn, as a control (− and +), with "Turn 2 of 6".
    pub turn: Control,
    pub sides: Vec<TableSide>,
    /// One control per objective (empty: the scenario has none).
    pub objectives: Vec<Control>,
}

/// A section of the printed briefing: a heading and its lines, in Muster's own words.
pub struct BriefingSection {
    pub heading: String,
    pub lines: Vec<String>,
}

/// The printed battle pack's parts, filled by the system.
pub struct BattlePack {
    /// The scenario's name.
    pub scenario: String,
    /// Deployment, objectives, turns, special rules, what was rolled.
    pub briefing: Vec<BriefingSection>,
    /// Each side's roster sheet as it stood, with the rolled ratings (HTML, `article.paper`).
    pub sheets: Vec<String>,
    /// The system's quick reference (HTML, `section.paper` sides).
    pub reference: String,
}

/// A battle's stored table state, read and checked by its system's [`TableDocument`]; a state
/// that does not read is the server's fault (it wrote it), never the player's.
///
/// [`TableDocument`]: crate::rules::table::TableDocument
pub fn stored_state<T: crate::rules::table::TableDocument>(
    cat: &T::Catalogue,
    setup: &T::Setup,
    row: &crate::store::battles::BattleRow,
    table: &str,
) -> Result<T, crate::web::AppError> {
    T::stored(cat, setup, table).map_err(|e| {
        crate::web::AppError::from(crate::app::Error::internal(format!(
            "battle {}'s table: {e}",
            row.id
        )))
    })
}
