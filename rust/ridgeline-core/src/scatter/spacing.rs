//! Minimum spacing by local priority against fixed potential sites.
//!
//! Every potential site (a lattice candidate that survived density and cluster thinning and is
//! not in water) has a fixed random priority. A site is placed only when no other potential
//! site of the same rule within `spacing` has a higher priority — whether or not that other
//! site is later rejected by a filter or an exclusion. So the decision is local and depends only
//! on the palette, the seed and the generated water: an exclusion or a sculpt edit removes
//! placements but never makes a distant site win (no chain of refills), a candidate in water
//! never suppresses a dry neighbour, and two placed sites are never closer than `spacing` (the
//! closer pair always has a winner).

/// A potential site: position and priority (`present` false for an empty square).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Site {
    /// Terrain-local X.
    pub x: f64,
    /// Terrain-local Z.
    pub z: f64,
    /// Priority; ties break by lattice order.
    pub priority: u64,
    /// Whether the square holds a potential site.
    pub present: bool,
}

/// Lattice offsets whose squares can hold a site closer than `spacing` to a site of the
/// centre square (squares of side `cs`), the centre excluded.
pub fn offsets(spacing: f64, cs: f64) -> Vec<(i32, i32)> {
    if spacing <= 0.0 {
        return Vec::new();
    }
    let r = (spacing / cs).ceil() as i32;
    let mut out = Vec::new();
    for dj in -r..=r {
        for di in -r..=r {
            if di == 0 && dj == 0 {
                continue;
            }
            let gap = |d: i32| (d.abs() - 1).max(0) as f64 * cs;
            let (gx, gz) = (gap(di), gap(dj));
            if gx * gx + gz * gz < spacing * spacing {
                out.push((di, dj));
            }
        }
    }
    out
}

/// A rectangle of lattice squares with their potential sites, row-major.
#[derive(Clone, Debug)]
pub struct Window {
    /// First square along X (may be negative: squares outside the lattice are empty).
    pub i0: i64,
    /// First square along Z.
    pub j0: i64,
    /// Squares along X.
    pub w: usize,
    /// Squares along Z.
    pub h: usize,
    /// The sites.
    pub sites: Vec<Site>,
}

impl Window {
    /// The site of square (i, j) (empty outside the window).
    #[inline(always)]
    pub fn at(&self, i: i64, j: i64) -> Site {
        let (a, b) = (i - self.i0, j - self.j0);
        if a < 0 || b < 0 || a as usize >= self.w || b as usize >= self.h {
            return Site::default();
        }
        self.sites[b as usize * self.w + a as usize]
    }

    /// True when the site of square (i, j) beats every potential site within `spacing`
    /// (`offsets` from [`offsets`]). Returns the comparisons made as well.
    #[inline]
    pub fn wins(&self, i: i64, j: i64, offsets: &[(i32, i32)], spacing: f64) -> (bool, u64) {
        let me = self.at(i, j);
        if !me.present {
            return (false, 0);
        }
        let s2 = spacing * spacing;
        let mut checks = 0u64;
        for &(di, dj) in offsets {
            let (oi, oj) = (i + di as i64, j + dj as i64);
            let o = self.at(oi, oj);
            if !o.present {
                continue;
            }
            checks += 1;
            let (dx, dz) = (o.x - me.x, o.z - me.z);
            if dx * dx + dz * dz < s2 && (o.priority, oj, oi) > (me.priority, j, i) {
                return (false, checks);
            }
        }
        (true, checks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_cover_every_square_that_can_be_close() {
        let o = offsets(12.0, 6.0);
        assert!(o.contains(&(2, 0)) && o.contains(&(-2, 2)) && !o.contains(&(0, 0)));
        assert!(!o.contains(&(3, 0)));
        assert!(offsets(0.0, 1.0).is_empty());
    }

    #[test]
    fn the_higher_priority_of_a_close_pair_wins() {
        let mut w = Window {
            i0: 0,
            j0: 0,
            w: 2,
            h: 1,
            sites: vec![Site::default(); 2],
        };
        w.sites[0] = Site {
            x: 0.5,
            z: 0.5,
            priority: 10,
            present: true,
        };
        w.sites[1] = Site {
            x: 1.5,
            z: 0.5,
            priority: 20,
            present: true,
        };
        let o = offsets(2.0, 1.0);
        assert!(!w.wins(0, 0, &o, 2.0).0);
        assert!(w.wins(1, 0, &o, 2.0).0);
        // Farther than the spacing: both win.
        assert!(w.wins(0, 0, &o, 0.9).0 && w.wins(1, 0, &offsets(0.9, 1.0), 0.9).0);
    }
}
