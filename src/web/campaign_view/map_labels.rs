//! Where the campaign map's labels go (issue 18): every label box beside its point, clear of
//! every other label and of every marker, and inside the map. A small greedy placement: each
//! label tries the spots around its point in its own order of preference, then the nearest free
//! spot anywhere (drawn with a leader line), and is left off only when the map has no room for
//! it at all (the list of places beside the map still names everything).
//!
//! Text is measured by estimate, from the advance widths of a bold sans-serif (Helvetica Bold's,
//! which Arial and Liberation Sans share); the map draws each text with exactly that length, so
//! the box laid out here is the box on the screen whatever font the browser picks.

/// A rectangle in the map's units: left, top, width, height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelBox {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl LabelBox {
    pub fn around(x: i32, y: i32, half: i32) -> LabelBox {
        LabelBox {
            x: x - half,
            y: y - half,
            w: 2 * half,
            h: 2 * half,
        }
    }

    pub fn right(&self) -> i32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> i32 {
        self.y + self.h
    }

    /// Whether the two boxes come closer than `gap` to each other.
    pub fn crowds(&self, other: &LabelBox, gap: i32) -> bool {
        self.x < other.right() + gap
            && other.x < self.right() + gap
            && self.y < other.bottom() + gap
            && other.y < self.bottom() + gap
    }

    pub fn inside(&self, outer: &LabelBox) -> bool {
        self.x >= outer.x
            && self.y >= outer.y
            && self.right() <= outer.right()
            && self.bottom() <= outer.bottom()
    }

    /// The point of the box nearest to (`x`, `y`): where a leader line from there meets it.
    pub fn nearest_point(&self, x: i32, y: i32) -> (i32, i32) {
        (
            x.clamp(self.x, self.right()),
            y.clamp(self.y, self.bottom()),
        )
    }

    /// How far (`x`, `y`) is from the box, squared (0 inside it).
    fn distance2(&self, x: i32, y: i32) -> i64 {
        let (nx, ny) = self.nearest_point(x, y);
        let (dx, dy) = (i64::from(x - nx), i64::from(y - ny));
        dx * dx + dy * dy
    }
}

/// A spot beside a point, where a label may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    Right,
    Left,
    Below,
    Above,
    BelowRight,
    BelowLeft,
    AboveRight,
    AboveLeft,
}

/// Place names: under their marker first, as maps are usually lettered.
pub const PLACE_SPOTS: [Spot; 8] = [
    Spot::Below,
    Spot::Above,
    Spot::Right,
    Spot::Left,
    Spot::BelowRight,
    Spot::BelowLeft,
    Spot::AboveRight,
    Spot::AboveLeft,
];

/// Forces: beside their place, where its name is not.
pub const FORCE_SPOTS: [Spot; 8] = [
    Spot::Right,
    Spot::Left,
    Spot::AboveRight,
    Spot::AboveLeft,
    Spot::BelowRight,
    Spot::BelowLeft,
    Spot::Above,
    Spot::Below,
];

/// The least room between two labels, or a label and a marker (room for the text's halo).
pub const LABEL_GAP: i32 = 4;

/// Half the width of the box a marker keeps clear (a place's ring or fort is 26 across, with a
/// thick outline).
pub const MARKER_HALF: i32 = 15;

/// How far a label keeps from its point: clear of its marker by the gap.
const REACH: i32 = MARKER_HALF + LABEL_GAP;

/// The step of the search for a free spot away from the point.
const SEARCH_STEP: usize = 8;

/// How far from its point the search looks first.
const NEAR_ENOUGH: i64 = 200;

impl Spot {
    /// The box of a `w` × `h` label at this spot beside (`x`, `y`).
    fn at(self, x: i32, y: i32, w: i32, h: i32) -> LabelBox {
        let (left, top) = match self {
            Spot::Right => (x + REACH, y - h / 2),
            Spot::Left => (x - REACH - w, y - h / 2),
            Spot::Below => (x - w / 2, y + REACH),
            Spot::Above => (x - w / 2, y - REACH - h),
            Spot::BelowRight => (x + REACH / 2, y + REACH),
            Spot::BelowLeft => (x - REACH / 2 - w, y + REACH),
            Spot::AboveRight => (x + REACH / 2, y - REACH - h),
            Spot::AboveLeft => (x - REACH / 2 - w, y - REACH - h),
        };
        LabelBox {
            x: left,
            y: top,
            w,
            h,
        }
    }
}

/// One label to place: its point and its size, and the spots it prefers in order.
#[derive(Debug, Clone, Copy)]
pub struct LabelWish {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
    pub spots: &'static [Spot],
}

/// Where a label went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub at: LabelBox,
    /// Away from its point (no spot beside it was free): draw a line to it.
    pub leader: bool,
}

/// Places every label, in order, inside `bounds`, clear of each `markers` box and of the labels
/// placed before it. A label answers `None` only when no free spot is left anywhere.
pub fn place_labels(
    bounds: &LabelBox,
    markers: &[LabelBox],
    wishes: &[LabelWish],
) -> Vec<Option<Placed>> {
    let mut taken: Vec<LabelBox> = markers.to_vec();
    let free = |b: &LabelBox, taken: &[LabelBox]| {
        b.inside(bounds) && !taken.iter().any(|t| t.crowds(b, LABEL_GAP))
    };
    wishes
        .iter()
        .map(|wish| {
            let (w, h) = (wish.w.max(1), wish.h.max(1));
            let beside = wish
                .spots
                .iter()
                .map(|s| s.at(wish.x, wish.y, w, h))
                .find(|b| free(b, &taken))
                .map(|at| Placed { at, leader: false });
            let placed = beside.or_else(|| {
                nearest_free(bounds, wish.x, wish.y, w, h, |b| free(b, &taken))
                    .map(|at| Placed { at, leader: true })
            });
            if let Some(p) = placed {
                taken.push(p.at);
            }
            placed
        })
        .collect()
}

/// The free `w` × `h` box on a grid over `bounds` nearest to (`x`, `y`); ties go to the
/// highest, then the leftmost, so the answer never depends on anything but the input.
fn nearest_free(
    bounds: &LabelBox,
    x: i32,
    y: i32,
    w: i32,
    h: i32,
    free: impl Fn(&LabelBox) -> bool,
) -> Option<LabelBox> {
    let lefts = (bounds.x..=bounds.right() - w).step_by(SEARCH_STEP);
    let tops: Vec<i32> = (bounds.y..=bounds.bottom() - h)
        .step_by(SEARCH_STEP)
        .collect();
    let spots = lefts.flat_map(|left| {
        tops.iter().map(move |&top| LabelBox {
            x: left,
            y: top,
            w,
            h,
        })
    });
    // The spots near the point first (most labels find room there), the rest only if need be:
    // every near spot is nearer than every other, so the answer is the same, sooner.
    let (mut near, mut far): (Vec<LabelBox>, Vec<LabelBox>) =
        spots.partition(|b| b.distance2(x, y) <= NEAR_ENOUGH * NEAR_ENOUGH);
    let order = |b: &LabelBox| (b.distance2(x, y), b.y, b.x);
    near.sort_by_key(order);
    if let Some(found) = near.into_iter().find(|b| free(b)) {
        return Some(found);
    }
    far.sort_by_key(order);
    far.into_iter().find(|b| free(b))
}

/// How wide `text` is at `size` px in a bold sans-serif, rounded up: Helvetica Bold's advance
/// widths (thousandths of the size) for ASCII, a broad guess for other letters.
pub fn text_width(text: &str, size: i32) -> i32 {
    let thousandths: i64 = text.chars().map(advance).sum();
    let px = thousandths * i64::from(size);
    i32::try_from((px + 999) / 1000).unwrap_or(i32::MAX)
}

fn advance(c: char) -> i64 {
    match c {
        ' ' | '\'' | ',' | '.' | '/' | 'I' | 'i' | 'j' | 'l' | '\\' | '|' => 278,
        '!' | '(' | ')' | '-' | ':' | ';' | '[' | ']' | '`' | 'f' | 't' => 333,
        '*' | 'r' | '{' | '}' => 389,
        '"' => 474,
        'z' => 500,
        '#' | '$' | '0'..='9' | '_' | 'J' | 'a' | 'c' | 'e' | 'k' | 's' | 'v' | 'x' | 'y' => 556,
        '+' | '<' | '=' | '>' | '^' | '~' => 584,
        '?' | 'F' | 'L' | 'T' | 'Z' | 'b' | 'd' | 'g' | 'h' | 'n' | 'o' | 'p' | 'q' | 'u' => 611,
        'E' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
        '&' | 'A' | 'B' | 'C' | 'D' | 'H' | 'K' | 'N' | 'R' | 'U' => 722,
        'G' | 'O' | 'Q' | 'w' => 778,
        'M' => 833,
        '%' | 'm' => 889,
        'W' => 944,
        '@' => 975,
        '·' | '’' | '‘' => 278,
        '…' | '—' => 1000,
        '–' => 556,
        c if c.is_whitespace() => 278,
        // Accented Latin letters are as wide as their plain ones, near enough; an upper-case
        // one is a little wider.
        c if c.is_uppercase() => 760,
        c if c.is_alphabetic() && u32::from(c) < 0x2E80 => 640,
        // Ideographs and the like fill the whole em.
        _ => 1000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: LabelBox = LabelBox {
        x: -38,
        y: -38,
        w: 1076,
        h: 776,
    };

    fn marker(x: i32, y: i32) -> LabelBox {
        LabelBox::around(x, y, MARKER_HALF)
    }

    fn name(x: i32, y: i32, text: &str) -> LabelWish {
        LabelWish {
            x,
            y,
            w: text_width(text, 19),
            h: 25,
            spots: &PLACE_SPOTS,
        }
    }

    fn stack(x: i32, y: i32, lines: i32) -> LabelWish {
        LabelWish {
            x,
            y,
            w: 150,
            h: lines * 22 - 2,
            spots: &FORCE_SPOTS,
        }
    }

    /// Every label placed, none crowding another or any marker, all inside the map.
    fn assert_sound(markers: &[LabelBox], wishes: &[LabelWish], placed: &[Option<Placed>]) {
        assert_eq!(placed.len(), wishes.len());
        let boxes: Vec<LabelBox> = placed
            .iter()
            .enumerate()
            .map(|(i, p)| p.unwrap_or_else(|| panic!("label {i} was left off")).at)
            .collect();
        for (i, (b, wish)) in boxes.iter().zip(wishes).enumerate() {
            assert!(b.inside(&MAP), "label {i} crosses the edge: {b:?}");
            assert_eq!((b.w, b.h), (wish.w, wish.h), "label {i} keeps its size");
            for (j, other) in boxes[..i].iter().enumerate() {
                assert!(!b.crowds(other, 1), "labels {j} and {i} overlap");
            }
            for m in markers {
                assert!(!b.crowds(m, 1), "label {i} covers a marker at {m:?}");
            }
        }
    }

    #[test]
    fn a_lone_place_is_named_under_its_marker() {
        let wish = name(500, 300, "Germantown");
        let placed = place_labels(&MAP, &[marker(500, 300)], &[wish]);
        let p = placed[0].expect("placed");
        assert!(!p.leader);
        assert_eq!((p.at.x, p.at.y), (500 - p.at.w / 2, 300 + REACH));
    }

    #[test]
    fn labels_at_the_edges_turn_inwards() {
        // Corners and edges: each name and each force stack stays on the map.
        let points = [
            (0, 0),
            (1000, 0),
            (0, 700),
            (1000, 700),
            (500, 0),
            (0, 350),
            (1000, 350),
            (500, 700),
        ];
        let markers: Vec<LabelBox> = points.iter().map(|&(x, y)| marker(x, y)).collect();
        let mut wishes: Vec<LabelWish> = points
            .iter()
            .map(|&(x, y)| name(x, y, "Fort Ticonderoga · 3"))
            .collect();
        wishes.extend(points.iter().map(|&(x, y)| stack(x, y, 3)));
        let placed = place_labels(&MAP, &markers, &wishes);
        assert_sound(&markers, &wishes, &placed);
    }

    #[test]
    fn a_crowded_map_has_no_overlapping_labels() {
        // Five by five places at the least distance the map allows, long names, a stack of
        // forces at every other place.
        let points: Vec<(i32, i32)> = (0..25)
            .map(|i| (400 + (i % 5) * 40, 250 + (i / 5) * 40))
            .collect();
        let markers: Vec<LabelBox> = points.iter().map(|&(x, y)| marker(x, y)).collect();
        let mut wishes: Vec<LabelWish> = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| name(x, y, &format!("Stony Brook Meeting House {i} · 2")))
            .collect();
        wishes.extend(points.iter().step_by(2).map(|&(x, y)| stack(x, y, 4)));
        let placed = place_labels(&MAP, &markers, &wishes);
        assert_sound(&markers, &wishes, &placed);
        assert!(
            placed.iter().flatten().any(|p| p.leader),
            "so crowded a map needs leader lines"
        );
    }

    #[test]
    fn the_largest_map_is_laid_out_whole() {
        // Sixty places (the most a map may have) spread over the map, each with a name, and a
        // force at every third: all are placed.
        let points: Vec<(i32, i32)> = (0..60)
            .map(|i| ((i % 10) * 110 + 5, (i / 10) * 130 + 20))
            .collect();
        let markers: Vec<LabelBox> = points.iter().map(|&(x, y)| marker(x, y)).collect();
        let mut wishes: Vec<LabelWish> = points
            .iter()
            .map(|&(x, y)| name(x, y, "Lundy's Lane · 1"))
            .collect();
        wishes.extend(points.iter().step_by(3).map(|&(x, y)| stack(x, y, 1)));
        let placed = place_labels(&MAP, &markers, &wishes);
        assert_sound(&markers, &wishes, &placed);
    }

    #[test]
    fn the_same_map_is_always_laid_out_the_same() {
        let points = [(100, 100), (140, 100), (120, 140), (900, 650)];
        let markers: Vec<LabelBox> = points.iter().map(|&(x, y)| marker(x, y)).collect();
        let wishes: Vec<LabelWish> = points
            .iter()
            .map(|&(x, y)| name(x, y, "Valley Forge"))
            .collect();
        assert_eq!(
            place_labels(&MAP, &markers, &wishes),
            place_labels(&MAP, &markers, &wishes)
        );
    }

    #[test]
    fn a_label_with_no_room_anywhere_is_left_off() {
        let tiny = LabelBox {
            x: 0,
            y: 0,
            w: 60,
            h: 30,
        };
        let placed = place_labels(&tiny, &[], &[name(30, 15, "Philadelphia")]);
        assert_eq!(placed, vec![None]);
    }

    #[test]
    fn text_widths_follow_the_letters() {
        assert!(text_width("WWW", 19) > text_width("iii", 19) * 3);
        assert_eq!(text_width("", 19), 0);
        // "Head of Elk" in Helvetica Bold at 1000 px: 722+556+556+611+278+611+333+278+667+278+556.
        assert_eq!(text_width("Head of Elk", 1000), 5446);
        assert!(text_width("Ännchen", 15) >= text_width("Annchen", 15));
        assert_eq!(text_width("要塞", 10), 20);
    }
}
