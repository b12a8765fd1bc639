//! Sample rectangles: half-open `[x0, x1) × [z0, z1)` ranges of grid sample indices.

/// A rectangle of grid samples (half-open). Empty when `x0 >= x1` or `z0 >= z1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// First sample column.
    pub x0: usize,
    /// First sample row.
    pub z0: usize,
    /// One past the last column.
    pub x1: usize,
    /// One past the last row.
    pub z1: usize,
}

impl Rect {
    /// A rectangle from its corners (half-open).
    pub const fn new(x0: usize, z0: usize, x1: usize, z1: usize) -> Self {
        Self { x0, z0, x1, z1 }
    }

    /// The empty rectangle.
    pub const EMPTY: Rect = Rect::new(0, 0, 0, 0);

    /// True when it holds no sample.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.z0 >= self.z1
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.x1.saturating_sub(self.x0)
    }

    /// Rows.
    pub fn depth(&self) -> usize {
        self.z1.saturating_sub(self.z0)
    }

    /// Samples inside.
    pub fn area(&self) -> usize {
        self.width() * self.depth()
    }

    /// The overlap (possibly empty).
    pub fn intersect(&self, o: &Rect) -> Rect {
        let r = Rect::new(
            self.x0.max(o.x0),
            self.z0.max(o.z0),
            self.x1.min(o.x1),
            self.z1.min(o.z1),
        );
        if r.is_empty() { Rect::EMPTY } else { r }
    }

    /// True when they share a sample.
    pub fn intersects(&self, o: &Rect) -> bool {
        !self.intersect(o).is_empty()
    }

    /// The bounding rectangle of the samples of a `w × h` grid (row-major indices) for which
    /// `changed` holds; empty when none does.
    pub fn bounding(w: usize, h: usize, changed: impl Fn(usize) -> bool) -> Rect {
        let (mut x0, mut z0, mut x1, mut z1) = (usize::MAX, usize::MAX, 0, 0);
        for z in 0..h {
            for x in 0..w {
                if changed(z * w + x) {
                    x0 = x0.min(x);
                    z0 = z0.min(z);
                    x1 = x1.max(x + 1);
                    z1 = z1.max(z + 1);
                }
            }
        }
        if x1 == 0 {
            Rect::EMPTY
        } else {
            Rect::new(x0, z0, x1, z1)
        }
    }

    /// The bounding rectangle of both (an empty side is ignored).
    pub fn union(&self, o: &Rect) -> Rect {
        if self.is_empty() {
            return *o;
        }
        if o.is_empty() {
            return *self;
        }
        Rect::new(
            self.x0.min(o.x0),
            self.z0.min(o.z0),
            self.x1.max(o.x1),
            self.z1.max(o.z1),
        )
    }

    /// Grown by `n` samples on every side, clipped to a `w × h` sample grid.
    pub fn grow(&self, n: usize, w: usize, h: usize) -> Rect {
        if self.is_empty() {
            return Rect::EMPTY;
        }
        Rect::new(
            self.x0.saturating_sub(n),
            self.z0.saturating_sub(n),
            (self.x1 + n).min(w),
            (self.z1 + n).min(h),
        )
    }

    /// Copies this rectangle out of `all`, a row-major array `w` columns wide that covers
    /// `outer` (the full grid: `Rect::new(0, 0, w, h)`), row-major over this rectangle.
    pub fn copy_from<T: Copy>(&self, all: &[T], outer: &Rect) -> Vec<T> {
        let w = outer.width();
        let mut out = Vec::with_capacity(self.area());
        for z in self.z0..self.z1 {
            let row = (z - outer.z0) * w + (self.x0 - outer.x0);
            out.extend_from_slice(&all[row..row + self.width()]);
        }
        out
    }

    /// Writes `values` (row-major over this rectangle) into `all`, which covers `outer`.
    pub fn write_into<T: Copy>(&self, all: &mut [T], outer: &Rect, values: &[T]) {
        let w = outer.width();
        for z in self.z0..self.z1 {
            let row = (z - outer.z0) * w + (self.x0 - outer.x0);
            let src = (z - self.z0) * self.width();
            all[row..row + self.width()].copy_from_slice(&values[src..src + self.width()]);
        }
    }

    /// True when sample (x, z) is inside.
    pub fn contains(&self, x: usize, z: usize) -> bool {
        x >= self.x0 && x < self.x1 && z >= self.z0 && z < self.z1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Rect::new(0, 0, 4, 4);
        let b = Rect::new(2, 3, 6, 8);
        assert_eq!(a.intersect(&b), Rect::new(2, 3, 4, 4));
        assert_eq!(a.union(&b), Rect::new(0, 0, 6, 8));
        assert!(a.intersect(&Rect::new(4, 0, 5, 4)).is_empty());
        assert_eq!(a.grow(2, 5, 5), Rect::new(0, 0, 5, 5));
        assert_eq!(Rect::EMPTY.union(&a), a);
        assert_eq!(Rect::EMPTY.grow(3, 9, 9), Rect::EMPTY);
        let outer = Rect::new(0, 0, 4, 3);
        let all: Vec<u16> = (0..12).collect();
        let part = Rect::new(1, 1, 3, 3);
        assert_eq!(part.copy_from(&all, &outer), vec![5, 6, 9, 10]);
        let mut back = vec![0u16; 12];
        part.write_into(&mut back, &outer, &[5, 6, 9, 10]);
        assert_eq!(back[5..7], [5, 6]);
        assert_eq!(back[9..11], [9, 10]);
        let inner = Rect::new(2, 1, 3, 2);
        assert_eq!(
            inner.copy_from(&part.copy_from(&all, &outer), &part),
            vec![6]
        );
    }
}
