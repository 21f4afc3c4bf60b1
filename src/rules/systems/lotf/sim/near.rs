//! Where each side's elements stand, coarsely: the table cut into 6" columns
//! across and 6" rows deep, and for each side a bit mask of the elements in
//! play in each span of columns and in each span of rows. A scan that only
//! cares about elements within some box (an enemy in charge reach, a friend
//! close enough to support, an enemy whose Threat Zone may hold the active
//! element) reads the elements in the columns and rows the box touches
//! instead of the whole side.
//!
//! The masks only ever skip elements: a scan still reads the elements it is
//! given in the side's order, with all its own tests, so the answer is the one
//! a scan of the whole side gives as long as every skipped element fails those
//! tests (it stands outside the box). The engine tells the index whenever an
//! element moves, comes on or leaves play (`View::relocated`); debug builds
//! check the index against the elements after every order.

use std::cell::Cell;

use crate::rules::battlefield::{TABLE_DEPTH, TABLE_WIDTH};
use crate::rules::systems::lotf::combat::Side;

/// What the index reads of an element (the board's `Unit` implements it;
/// the index does not depend on the board that uses it).
pub trait Placed {
    fn side(&self) -> Side;
    /// Where its leader stands while it is in play.
    fn in_play_at(&self) -> Option<(f64, f64)>;
    /// The depth of its Threat Zone, in inches.
    fn threat_zone(&self) -> f64;
}

/// A side's slot in per-side arrays: the attacker's first.
pub fn sidx(s: Side) -> usize {
    match s {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

/// The size of a cell of the index, in inches.
const CELL: f64 = 6.0;
const COLUMNS: usize = (TABLE_WIDTH / CELL) as usize;
const ROWS: usize = (TABLE_DEPTH / CELL) as usize;
/// A set of a side's elements, by their places in its list.
pub type Mask = u64;
/// Bits in a mask: a side with more elements goes unindexed (every scan reads it whole).
const MAX_INDEXED: usize = Mask::BITS as usize;
/// A side this small is read whole: finding its box costs more than reading
/// the few elements the box leaves out.
const MIN_INDEXED: usize = 16;

/// A box on the table: the leaders a scan may care about stand inside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub x: (f64, f64),
    pub y: (f64, f64),
}

impl Area {
    /// The box `reach_x` across and `reach_y` deep either side of a point,
    /// with an inch to spare for rounding.
    #[inline]
    pub fn around(x: f64, y: f64, reach_x: f64, reach_y: f64) -> Area {
        Area {
            x: (x - reach_x - 1.0, x + reach_x + 1.0),
            y: (y - reach_y - 1.0, y + reach_y + 1.0),
        }
    }
}

/// The index (see the module's documentation). Off until the engine builds
/// it for a battle: a board set up by hand is scanned whole.
#[derive(Debug, Clone, Default)]
pub struct NearIndex {
    on: [bool; 2],
    /// Per side, the elements in play in each span of columns `[first][last]`
    /// (and of rows): a box's elements are two look-ups. An element stands in
    /// one column, so moving it sets or clears its bit in the spans that hold
    /// that column and leaves the rest alone.
    columns: [[[Mask; COLUMNS]; COLUMNS]; 2],
    rows: [[[Mask; ROWS]; ROWS]; 2],
    /// Each element's place in its side's list (its bit), and the cell its
    /// bits are in (`None` when it is not in play).
    place: Vec<usize>,
    cell: Vec<Option<(usize, usize)>>,
    /// The deepest Threat Zone of each side's elements.
    deepest_threat_zone: [f64; 2],
    /// The enemy each element found nearest last time: a first guess that
    /// bounds the next search (only a guess; the search is exact).
    pub(super) nearest_hint: Vec<Cell<Option<usize>>>,
}

/// The column (or row) of a coordinate, clamped to the table. Any rounding
/// will do as long as it never puts a larger coordinate in an earlier bin.
/// Truncating (not `floor`, a library call on this target) puts (−6", 0") in
/// the first bin, where the clamp puts it anyway; NaN goes there too.
#[inline]
fn bin(v: f64, bins: usize) -> usize {
    ((v * (1.0 / CELL)) as i64).clamp(0, bins as i64 - 1) as usize
}

/// Set (or clear) `bit` in every span of bins that holds bin `at`.
fn mark<const N: usize>(spans: &mut [[Mask; N]; N], at: usize, bit: Mask, set: bool) {
    for row in spans.iter_mut().take(at + 1) {
        for span in row.iter_mut().skip(at) {
            if set {
                *span |= bit;
            } else {
                *span &= !bit;
            }
        }
    }
}

impl NearIndex {
    /// The index of a board whose sides' lists are `side_units`.
    pub fn build<U: Placed>(units: &[U], side_units: &[std::sync::Arc<[usize]>; 2]) -> NearIndex {
        let mut ix = NearIndex {
            place: vec![0; units.len()],
            cell: vec![None; units.len()],
            nearest_hint: vec![Cell::new(None); units.len()],
            ..NearIndex::default()
        };
        for (s, list) in side_units.iter().enumerate() {
            ix.on[s] = (MIN_INDEXED..=MAX_INDEXED).contains(&list.len());
            for (k, &i) in list.iter().enumerate() {
                ix.place[i] = k;
            }
            ix.deepest_threat_zone[s] = list
                .iter()
                .map(|&i| units[i].threat_zone())
                .fold(0.0, f64::max);
        }
        for i in 0..units.len() {
            ix.relocate(units, i);
        }
        ix
    }

    /// Put element `i`'s bits where it stands now (none if it is out of play).
    pub fn relocate<U: Placed>(&mut self, units: &[U], i: usize) {
        let Some(&place) = self.place.get(i) else {
            return;
        };
        let u = &units[i];
        let s = sidx(u.side());
        if !self.on[s] {
            return;
        }
        let now = u.in_play_at().map(|(x, y)| (bin(x, COLUMNS), bin(y, ROWS)));
        let before = self.cell[i];
        if now == before {
            return;
        }
        let bit: Mask = 1 << place;
        if let Some((c, r)) = before {
            mark(&mut self.columns[s], c, bit, false);
            mark(&mut self.rows[s], r, bit, false);
        }
        if let Some((c, r)) = now {
            mark(&mut self.columns[s], c, bit, true);
            mark(&mut self.rows[s], r, bit, true);
        }
        self.cell[i] = now;
    }

    /// Whether scans of a side's elements near a point read only those.
    #[inline]
    pub fn indexed(&self, side: Side) -> bool {
        self.on[sidx(side)]
    }

    /// The deepest Threat Zone of a side's elements.
    #[inline]
    pub fn deepest_threat_zone(&self, side: Side) -> f64 {
        self.deepest_threat_zone[sidx(side)]
    }

    /// The places (bits) in `side`'s list of its elements in play that may
    /// stand in `area`; `None` when the side is not indexed.
    #[inline]
    pub fn mask(&self, side: Side, area: Area) -> Option<Mask> {
        let s = sidx(side);
        if !self.on[s] || self.place.is_empty() {
            return None;
        }
        // A box the wrong way round (or of NaN) cannot be cut: read the whole side.
        if !(area.x.0 <= area.x.1 && area.y.0 <= area.y.1) {
            return None;
        }
        let across = self.columns[s][bin(area.x.0, COLUMNS)][bin(area.x.1, COLUMNS)];
        let deep = self.rows[s][bin(area.y.0, ROWS)][bin(area.y.1, ROWS)];
        Some(across & deep)
    }

    /// Whether the index says what the elements say (for debug checks).
    pub fn in_step_with<U: Placed>(
        &self,
        units: &[U],
        side_units: &[std::sync::Arc<[usize]>; 2],
    ) -> bool {
        if self.place.is_empty() {
            return true;
        }
        let fresh = NearIndex::build(units, side_units);
        fresh.columns == self.columns && fresh.rows == self.rows && fresh.cell == self.cell
    }
}

/// Elements of one side, in its list's order: those of a mask, or (for a
/// side not indexed) all of them.
#[derive(Debug, Clone)]
pub struct Near<'a> {
    list: &'a [usize],
    mask: Mask,
    all: std::slice::Iter<'a, usize>,
}

impl<'a> Near<'a> {
    #[inline]
    pub fn new(list: &'a [usize], mask: Option<Mask>) -> Near<'a> {
        match mask {
            Some(mask) => Near {
                list,
                mask,
                all: [].iter(),
            },
            None => Near {
                list,
                mask: 0,
                all: list.iter(),
            },
        }
    }
}

impl Iterator for Near<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if let Some(&i) = self.all.next() {
            return Some(i);
        }
        if self.mask == 0 {
            return None;
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        self.list.get(k).copied()
    }
}
