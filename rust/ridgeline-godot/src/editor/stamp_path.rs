//! Stamps along a drag path: one every `spacing` world units of arc length, the leftover
//! distance carried over between segments, so the stamps depend only on the path — not on how
//! many mouse events described it or on the frame rate.

/// Brush area (world units²) the live preview applies per frame: a fast drag's stamps beyond
/// it wait for the next frames (the committed stroke always holds every stamp).
pub const AREA_PER_FRAME: f64 = 65_536.0;
/// Most stamps applied per frame, however small the brush.
pub const MAX_STAMPS_PER_FRAME: usize = 32;

/// How many stamps of a brush `size` wide (world units) the live preview applies per frame:
/// `AREA_PER_FRAME / size²`, at least 1, at most [`MAX_STAMPS_PER_FRAME`].
pub fn stamps_per_frame(size: f64) -> usize {
    let n = AREA_PER_FRAME / (size * size).max(1e-9);
    if size.is_finite() && n.is_finite() {
        (n.floor() as usize).clamp(1, MAX_STAMPS_PER_FRAME)
    } else {
        1
    }
}

/// Places stamps along a polyline as it grows.
#[derive(Clone, Debug)]
pub struct StampPath {
    spacing: f64,
    /// Arc length since the last stamp.
    carry: f64,
    last: [f64; 2],
}

impl StampPath {
    /// Starts a path at `p`; the first stamp is `p` itself (returned by the caller).
    pub fn begin(p: [f64; 2], spacing: f64) -> StampPath {
        StampPath {
            spacing: spacing.max(1e-3),
            carry: 0.0,
            last: p,
        }
    }

    /// Extends the path to `p`, pushing the stamps on the new segment to `out`.
    #[cfg(test)]
    pub fn extend(&mut self, p: [f64; 2], out: &mut Vec<[f64; 2]>) {
        self.extend_at_most(p, out, usize::MAX);
    }

    /// [`Self::extend`], pushing at most `room` stamps; returns false when the segment held
    /// more (the path then ends at the last stamp pushed).
    pub fn extend_at_most(&mut self, p: [f64; 2], out: &mut Vec<[f64; 2]>, room: usize) -> bool {
        let [x0, z0] = self.last;
        let (dx, dz) = (p[0] - x0, p[1] - z0);
        let len = (dx * dx + dz * dz).sqrt();
        if !len.is_finite() || len == 0.0 {
            return true;
        }
        // A stamp that lands within float noise of the segment's end belongs to this segment,
        // however the path was split into events.
        let eps = 1e-3 * self.spacing;
        let mut at = self.spacing - self.carry;
        let mut pushed = 0;
        while at <= len + eps {
            let t = at / len;
            let stamp = [x0 + dx * t, z0 + dz * t];
            if pushed == room {
                self.carry = 0.0;
                self.last = out.last().copied().unwrap_or(self.last);
                return false;
            }
            out.push(stamp);
            pushed += 1;
            at += self.spacing;
        }
        self.carry = (len - (at - self.spacing)).max(0.0);
        self.last = p;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[[f64; 2]], spacing: f64) -> Vec<[f64; 2]> {
        let mut path = StampPath::begin(events[0], spacing);
        let mut out = vec![events[0]];
        for p in &events[1..] {
            path.extend(*p, &mut out);
        }
        out
    }

    #[test]
    fn a_segment_stops_at_the_room_it_is_given() {
        let mut path = StampPath::begin([0.0, 0.0], 0.025);
        let mut out = Vec::new();
        // 65 km at 2.5 cm: 2.6 million stamps asked for, three given.
        assert!(!path.extend_at_most([65_536.0, 0.0], &mut out, 3));
        assert_eq!(out.len(), 3);
        assert!(
            (out[2][0] - 0.075).abs() < 1e-9 && out[2][1] == 0.0,
            "{out:?}"
        );
        assert!(path.extend_at_most([0.1, 0.0], &mut out, 3));
    }

    #[test]
    fn spacing_is_exact_along_a_line() {
        let s = run(&[[0.0, 0.0], [10.0, 0.0]], 2.5);
        assert_eq!(
            s,
            vec![[0.0, 0.0], [2.5, 0.0], [5.0, 0.0], [7.5, 0.0], [10.0, 0.0]]
        );
    }

    #[test]
    fn event_count_does_not_change_the_stamps() {
        let few = run(&[[0.0, 0.0], [40.0, 0.0]], 3.0);
        let many: Vec<[f64; 2]> = (0..=40).map(|i| [i as f64, 0.0]).collect();
        let many = run(&many, 3.0);
        assert_eq!(few.len(), many.len());
        for (a, b) in few.iter().zip(&many) {
            assert!((a[0] - b[0]).abs() < 1e-9 && a[1] == b[1], "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn carry_crosses_corners() {
        // 3 along x, then 3 along z: spacing 2 → stamps at arc length 0, 2, 4, 6.
        let s = run(&[[0.0, 0.0], [3.0, 0.0], [3.0, 3.0]], 2.0);
        assert_eq!(s.len(), 4);
        assert_eq!(s[2], [3.0, 1.0]);
        assert_eq!(s[3], [3.0, 3.0]);
    }

    #[test]
    fn zero_and_non_finite_segments_add_nothing() {
        let s = run(&[[1.0, 1.0], [1.0, 1.0], [f64::NAN, 0.0]], 1.0);
        assert_eq!(s, vec![[1.0, 1.0]]);
    }

    #[test]
    fn the_per_frame_cap_scales_with_the_brush_area() {
        assert_eq!(stamps_per_frame(128.0), 4);
        assert_eq!(stamps_per_frame(20.0), MAX_STAMPS_PER_FRAME);
        assert_eq!(stamps_per_frame(2000.0), 1);
        assert_eq!(stamps_per_frame(0.0), MAX_STAMPS_PER_FRAME);
        assert_eq!(stamps_per_frame(f64::NAN), 1);
    }

    #[test]
    fn end_stamps_survive_float_noise() {
        // 48 m in 40 uneven events with spacing 4: 13 stamps, the last at the very end.
        let pts: Vec<[f64; 2]> = (0..=40)
            .map(|i| [i as f64 * 1.2 + 1e-9 * (i % 3) as f64, 0.0])
            .collect();
        let s = run(&pts, 4.0);
        assert_eq!(s.len(), 13);
        assert!((s[12][0] - 48.0).abs() < 1e-6);
    }
}
