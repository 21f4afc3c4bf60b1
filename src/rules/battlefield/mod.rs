//! The abstract battlefield the simulators share, whatever the rule system: no tabletop, but
//! three sectors across the table and a depth between the two edges. A position is a sector and
//! a depth; two positions are their difference in depth apart plus a fixed gap per sector
//! between them (M-19). `docs/simulator.md` explains the model.

/// Depth of the table between the two edges, in inches (a 4' table).
pub const TABLE_DEPTH: f64 = 48.0;
/// Width of the table across, in inches (a 6' table).
pub const TABLE_WIDTH: f64 = 72.0;
/// Sectors across the table: left, centre, right.
pub const SECTORS: i32 = 3;
/// Extra distance for each sector between two positions (M-19).
pub const SECTOR_GAP: f64 = 12.0;

/// The edge a side starts from: the near edge is depth 0, the far edge [`TABLE_DEPTH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Near,
    Far,
}

impl Edge {
    /// The depth of the edge.
    pub fn depth(self) -> f64 {
        match self {
            Edge::Near => 0.0,
            Edge::Far => TABLE_DEPTH,
        }
    }

    /// The sign of a move toward the other edge.
    pub fn forward(self) -> f64 {
        match self {
            Edge::Near => 1.0,
            Edge::Far => -1.0,
        }
    }
}

/// Distance between two positions (sector, depth), in inches (M-19).
pub fn distance(a: (i32, f64), b: (i32, f64)) -> f64 {
    (a.1 - b.1).abs() + SECTOR_GAP * f64::from((a.0 - b.0).abs())
}

/// A depth kept on the table.
pub fn on_table(depth: f64) -> f64 {
    depth.clamp(0.0, TABLE_DEPTH)
}

/// A sector kept on the table.
pub fn clamp_sector(sector: i32) -> i32 {
    sector.clamp(0, SECTORS - 1)
}

/// The sector of the `index`-th of `count` groups: centre first, then the wings.
pub fn sector_for(index: usize, count: usize) -> i32 {
    if count <= 1 {
        return 1;
    }
    [1, 0, 2][index % 3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sector_apart_adds_the_gap_to_the_depth_between() {
        assert_eq!(distance((1, 10.0), (1, 16.0)), 6.0);
        assert_eq!(distance((0, 10.0), (2, 16.0)), 6.0 + 2.0 * SECTOR_GAP);
        assert_eq!(
            distance((2, 30.0), (1, 10.0)),
            distance((1, 10.0), (2, 30.0))
        );
    }

    #[test]
    fn groups_fill_the_centre_then_the_wings() {
        assert_eq!(sector_for(0, 1), 1);
        assert_eq!(
            (0..4).map(|g| sector_for(g, 4)).collect::<Vec<_>>(),
            [1, 0, 2, 1]
        );
    }

    #[test]
    fn moves_stay_on_the_table_and_face_the_other_edge() {
        assert_eq!(on_table(-3.0), 0.0);
        assert_eq!(on_table(60.0), TABLE_DEPTH);
        assert_eq!(clamp_sector(5), SECTORS - 1);
        assert_eq!(Edge::Near.depth() + Edge::Near.forward() * 5.0, 5.0);
        assert_eq!(
            Edge::Far.depth() + Edge::Far.forward() * 5.0,
            TABLE_DEPTH - 5.0
        );
    }
}
