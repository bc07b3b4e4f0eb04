//! Icehouse Armada's exact geometry: integer points in micrometres, the three piece
//! sizes, a ship's pose and footprint, the field of fire, and contact between
//! triangles and segments decided by separating axes — integers only, never a float.
//!
//! Every point a caller gives has been checked to lie on the table rectangle first
//! (`on_table_rect`), so coordinates stay below 10⁶ and every product below fits
//! i64 with room to spare; the few that could not are taken in i128.

use std::fmt;

/// The table's width (x, to the east), in µm: 90 cm.
pub const TABLE_W: i64 = 900_000;
/// The table's depth (y, to the north), in µm: 60 cm.
pub const TABLE_H: i64 = 600_000;
/// How far a pose's length may differ from the ship's slant height, in µm.
pub const POSE_SLACK: i64 = 2;

/// A point on the table, in integer micrometres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

impl Point {
    pub const fn new(x: i64, y: i64) -> Self {
        Self { x, y }
    }

    const fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y)
    }

    const fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y)
    }

    /// The vector turned a quarter to the left (counter-clockwise).
    const fn perp(self) -> Self {
        Self::new(-self.y, self.x)
    }

    const fn dot(self, o: Self) -> i64 {
        self.x * o.x + self.y * o.y
    }

    /// The squared length of the vector.
    pub const fn len2(self) -> i64 {
        self.dot(self)
    }

    /// Whether the point lies in the table's closed rectangle: the first check of
    /// every point a placement or an action names.
    pub const fn on_table_rect(self) -> bool {
        0 <= self.x && self.x <= TABLE_W && 0 <= self.y && self.y <= TABLE_H
    }

    /// Whether the point lies strictly inside the table (a footprint's corner must).
    const fn inside_table(self) -> bool {
        0 < self.x && self.x < TABLE_W && 0 < self.y && self.y < TABLE_H
    }
}

/// Millimetres with all three decimals: exact, and what a person types back.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mm = |v: i64| {
            let sign = if v < 0 { "-" } else { "" };
            format!(
                "{sign}{}.{:03}",
                v.unsigned_abs() / 1000,
                v.unsigned_abs() % 1000
            )
        };
        write!(f, "{},{}", mm(self.x), mm(self.y))
    }
}

/// `n / k` rounded half away from zero (`k > 0`): the page's `R`.
pub fn round_div(n: i128, k: i128) -> i64 {
    debug_assert!(k > 0);
    let q = if n >= 0 {
        (2 * n + k) / (2 * k)
    } else {
        -((-2 * n + k) / (2 * k))
    };
    // Every caller divides a product of on-table magnitudes back to one.
    i64::try_from(q).unwrap_or(if q > 0 { i64::MAX } else { i64::MIN })
}

/// `R(v·m, k)`, component by component.
fn scale(v: Point, m: i64, k: i64) -> Point {
    Point::new(
        round_div(i128::from(v.x) * i128::from(m), i128::from(k)),
        round_div(i128::from(v.y) * i128::from(m), i128::from(k)),
    )
}

/// The three sizes of pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    Small,
    Medium,
    Large,
}

impl Size {
    pub const ALL: [Self; 3] = [Self::Small, Self::Medium, Self::Large];

    /// Hits to sink it, and shots it may fire in a turn.
    pub const fn pips(self) -> u8 {
        match self {
            Self::Small => 1,
            Self::Medium => 2,
            Self::Large => 3,
        }
    }

    /// Most steps in one move.
    pub const fn steps(self) -> usize {
        match self {
            Self::Small => 4,
            Self::Medium => 2,
            Self::Large => 1,
        }
    }

    /// The base's width `b`, µm.
    pub const fn base(self) -> i64 {
        match self {
            Self::Small => 14_288,
            Self::Medium => 19_844,
            Self::Large => 25_400,
        }
    }

    /// The slant height `s`: stern (middle of the base) to bow, µm.
    pub const fn slant(self) -> i64 {
        match self {
            Self::Small => 26_385,
            Self::Medium => 36_307,
            Self::Large => 46_229,
        }
    }

    /// The long side `l` = ⌊√(s² + (b/2)²)⌋, µm: the scale along a side.
    pub const fn long_side(self) -> i64 {
        match self {
            Self::Small => 27_335,
            Self::Medium => 37_638,
            Self::Large => 47_941,
        }
    }

    /// The largest `o` of a shot from a ship of this size.
    pub const fn max_offset(self) -> i64 {
        self.long_side() - Self::Large.base()
    }

    /// One letter: S, M or L.
    pub const fn letter(self) -> char {
        match self {
            Self::Small => 'S',
            Self::Medium => 'M',
            Self::Large => 'L',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::Small => "small",
            Self::Medium => "medium",
            Self::Large => "large",
        }
    }
}

/// A closed triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle(pub [Point; 3]);

impl Triangle {
    /// The normals of its three edges (not unit length: exactness needs none).
    fn normals(&self) -> [Point; 3] {
        let [a, b, c] = self.0;
        [b.sub(a).perp(), c.sub(b).perp(), a.sub(c).perp()]
    }

    /// The smallest and largest projection of its corners on `axis`.
    fn project(&self, axis: Point) -> (i64, i64) {
        project(&self.0, axis)
    }

    /// Whether the closed triangles share at least one point.
    pub fn touches(&self, other: &Self) -> bool {
        // A strict gap on any edge normal separates two convex polygons.
        !self.separated(other, |low, high| high < low)
    }

    /// Whether the interiors share a point.
    pub fn overlaps(&self, other: &Self) -> bool {
        // Interiors are apart when the projections at most meet on some normal.
        !self.separated(other, |low, high| high <= low)
    }

    /// Whether some edge normal of either triangle has the two projections apart
    /// as `apart(start of one, end of the other)` says.
    fn separated(&self, other: &Self, apart: impl Fn(i64, i64) -> bool) -> bool {
        self.normals()
            .into_iter()
            .chain(other.normals())
            .any(|axis| {
                let (a0, a1) = self.project(axis);
                let (b0, b1) = other.project(axis);
                apart(b0, a1) || apart(a0, b1)
            })
    }

    /// Whether the closed triangle holds the point.
    pub fn contains(&self, p: Point) -> bool {
        self.touches_segment(p, p)
    }

    /// Whether the closed segment from `a` to `b` shares a point with the triangle.
    pub fn touches_segment(&self, a: Point, b: Point) -> bool {
        let seg = [a, b];
        let mine = self.normals();
        let axes = mine.into_iter().chain((a != b).then(|| b.sub(a).perp()));
        axes.into_iter().all(|axis| {
            let (t0, t1) = self.project(axis);
            let (s0, s1) = project(&seg, axis);
            !(t1 < s0 || s1 < t0)
        })
    }

    /// Whether every corner lies strictly inside the table.
    pub fn on_table(&self) -> bool {
        self.0.iter().all(|p| p.inside_table())
    }
}

fn project(points: &[Point], axis: Point) -> (i64, i64) {
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for p in points {
        let d = p.dot(axis);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo, hi)
}

/// One of a ship's two long sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Broadside {
    /// The left side, facing the bow.
    Port,
    /// The right side.
    Starboard,
}

impl Broadside {
    pub const BOTH: [Self; 2] = [Self::Port, Self::Starboard];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Port => "port",
            Self::Starboard => "starboard",
        }
    }
}

/// Where a ship lies: `stern` (the middle of its base, the page's C) and `bow` (A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pose {
    pub stern: Point,
    pub bow: Point,
}

impl Pose {
    pub const fn new(stern: Point, bow: Point) -> Self {
        Self { stern, bow }
    }

    /// Whether stern and bow lie one ship length apart, within the slack.
    pub fn legal(&self, size: Size) -> bool {
        let d2 = self.bow.sub(self.stern).len2();
        let lo = size.slant() - POSE_SLACK;
        let hi = size.slant() + POSE_SLACK;
        lo * lo <= d2 && d2 <= hi * hi
    }

    /// The port corner P and the starboard corner S.
    pub fn corners(&self, size: Size) -> (Point, Point) {
        let half = scale(
            self.bow.sub(self.stern).perp(),
            size.base(),
            2 * size.slant(),
        );
        (self.stern.add(half), self.stern.sub(half))
    }

    /// The footprint: the closed triangle (P, S, A).
    pub fn footprint(&self, size: Size) -> Triangle {
        let (p, s) = self.corners(size);
        Triangle([p, s, self.bow])
    }

    /// The field of fire of a large pyramid laid against `side` with its base
    /// starting `o` along it (`0 ≤ o ≤ size.max_offset()`, checked by the caller).
    pub fn field(&self, size: Size, side: Broadside, o: i64) -> Field {
        // The page's names: B the side's stern corner, w the side, l its length,
        // n the side turned outward, Q₀ Q₁ the field's base, Z its tip.
        let (port, starboard) = self.corners(size);
        let corner = match side {
            Broadside::Port => port,
            Broadside::Starboard => starboard,
        };
        let long = size.long_side();
        let along = self.bow.sub(corner);
        let q0 = corner.add(scale(along, o, long));
        let q1 = corner.add(scale(along, o + Size::Large.base(), long));
        let outward = match side {
            Broadside::Port => along.perp(),
            Broadside::Starboard => Point::new(0, 0).sub(along.perp()),
        };
        let sum = q0.add(q1);
        let reach = 2 * Size::Large.slant();
        let tip_at = |base: i64, out: i64| {
            round_div(
                i128::from(base) * i128::from(long) + i128::from(out) * i128::from(reach),
                i128::from(2 * long),
            )
        };
        Field {
            base: (q0, q1),
            tip: Point::new(tip_at(sum.x, outward.x), tip_at(sum.y, outward.y)),
        }
    }
}

/// A field of fire: its base on the firing ship's side and its tip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub base: (Point, Point),
    pub tip: Point,
}

impl Field {
    pub fn triangle(&self) -> Triangle {
        Triangle([self.base.0, self.base.1, self.tip])
    }

    /// The point of the base a line of fire starts from: `j` thousandths along it.
    pub fn origin(&self, j: i64) -> Point {
        let (q0, q1) = self.base;
        q0.add(scale(q1.sub(q0), j, 1000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(round_div(5, 2), 3);
        assert_eq!(round_div(-5, 2), -3);
        assert_eq!(round_div(4, 3), 1);
        assert_eq!(round_div(-4, 3), -1);
        assert_eq!(round_div(0, 7), 0);
    }

    #[test]
    fn the_long_sides_are_the_floor_of_the_root() {
        for size in Size::ALL {
            let h = size.slant() * size.slant() + size.base() * size.base() / 4;
            let l = size.long_side();
            assert!(l * l <= h && h < (l + 1) * (l + 1), "{size:?}");
        }
    }

    #[test]
    fn contact_is_exact_at_a_shared_point_an_edge_and_a_crossing() {
        let t = Triangle([Point::new(0, 0), Point::new(10, 0), Point::new(0, 10)]);
        let corner = Triangle([Point::new(10, 0), Point::new(20, 0), Point::new(20, 10)]);
        assert!(t.touches(&corner) && !t.overlaps(&corner));
        let edge = Triangle([Point::new(10, 0), Point::new(0, 10), Point::new(10, 10)]);
        assert!(t.touches(&edge) && !t.overlaps(&edge));
        let apart = Triangle([Point::new(11, 0), Point::new(21, 0), Point::new(21, 10)]);
        assert!(!t.touches(&apart));
        let crossing = Triangle([Point::new(5, -5), Point::new(5, 20), Point::new(-5, 5)]);
        assert!(t.touches(&crossing) && t.overlaps(&crossing));
        // Near but apart diagonally: only the hypotenuse's normal separates.
        let beyond = Triangle([Point::new(6, 6), Point::new(16, 6), Point::new(6, 16)]);
        assert!(!t.touches(&beyond));
    }

    #[test]
    fn a_grazing_segment_touches_and_a_point_is_a_segment() {
        let t = Triangle([Point::new(0, 0), Point::new(10, 0), Point::new(0, 10)]);
        assert!(t.touches_segment(Point::new(-5, 15), Point::new(15, -5)));
        assert!(!t.touches_segment(Point::new(-5, 16), Point::new(16, -5)));
        assert!(t.contains(Point::new(5, 5)));
        assert!(!t.contains(Point::new(6, 5)));
        assert!(t.touches_segment(Point::new(-3, -3), Point::new(0, 0)));
    }

    #[test]
    fn corners_lie_half_a_base_either_side_of_the_stern() {
        let pose = Pose::new(Point::new(100_000, 100_000), Point::new(100_000, 146_229));
        assert!(pose.legal(Size::Large));
        let (p, s) = pose.corners(Size::Large);
        assert_eq!(p, Point::new(87_300, 100_000));
        assert_eq!(s, Point::new(112_700, 100_000));
        // The port field lies to the west, its tip a large ship's length out.
        let f = pose.field(Size::Large, Broadside::Port, 0);
        assert!(f.tip.x < 87_300 - 40_000, "{f:?}");
    }
}
