//! Framing (F): an editor camera view that shows a whole bounding box. Pure Rust.
//!
//! Godot's own *Focus Selection* only moves the editor's orbit pivot to the node's origin (a
//! terrain corner) and keeps the orbit distance, so the plugin answers F itself for a selected
//! terrain: it keeps the view's heading, looks down at least [`MIN_PITCH_DEG`], and backs off
//! until the box's bounding sphere fits the narrower field of view.

/// The least downward tilt of a framed view (degrees): a view from below or along the ground
/// would show the terrain's underside or an edge.
pub const MIN_PITCH_DEG: f64 = 30.0;
/// The steepest framed view (degrees down); straight down has no heading.
pub const MAX_PITCH_DEG: f64 = 80.0;
/// Room around the bounding sphere (share of its radius).
const MARGIN: f64 = 0.05;

type V3 = [f64; 3];

/// A framed view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    /// The camera position.
    pub eye: V3,
    /// The point looked at: the box's centre (the orbit pivot).
    pub centre: V3,
    /// Unit view direction.
    pub forward: V3,
    /// Distance from `eye` to `centre`.
    pub distance: f64,
}

impl Framing {
    /// The camera basis columns (x right, y up, z back), Godot's convention for a `Camera3D`.
    pub fn basis_columns(&self) -> [V3; 3] {
        let z = scale(self.forward, -1.0);
        let x = normalized(cross([0.0, 1.0, 0.0], z));
        let y = cross(z, x);
        [x, y, z]
    }
}

/// Frames the axis-aligned box spanned by `points` (world space) from the heading of
/// `forward` (the current view direction), for a perspective camera with vertical field of
/// view `vfov_deg` on a viewport of `aspect` = width / height. `None` for no points or
/// non-finite input.
pub fn frame(points: &[V3], forward: V3, vfov_deg: f64, aspect: f64) -> Option<Framing> {
    let first = *points.first()?;
    let (mut lo, mut hi) = (first, first);
    for p in points {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let centre = [
        (lo[0] + hi[0]) / 2.0,
        (lo[1] + hi[1]) / 2.0,
        (lo[2] + hi[2]) / 2.0,
    ];
    let radius = 0.5 * len(sub(hi, lo));
    if !(radius.is_finite() && vfov_deg.is_finite() && aspect.is_finite() && aspect > 0.0) {
        return None;
    }
    let radius = radius.max(0.5);
    // Heading from the current view; straight up or down keeps Godot's default (toward -Z).
    let flat = [forward[0], 0.0, forward[2]];
    let heading = if len(flat) > 1e-6 && forward.iter().all(|v| v.is_finite()) {
        normalized(flat)
    } else {
        [0.0, 0.0, -1.0]
    };
    let current_down = if len(forward) > 0.0 {
        (-forward[1] / len(forward))
            .clamp(-1.0, 1.0)
            .asin()
            .to_degrees()
    } else {
        MIN_PITCH_DEG
    };
    let pitch = current_down
        .clamp(MIN_PITCH_DEG, MAX_PITCH_DEG)
        .to_radians();
    let forward = [
        heading[0] * pitch.cos(),
        -pitch.sin(),
        heading[2] * pitch.cos(),
    ];
    let half_v = (vfov_deg.clamp(1.0, 179.0) / 2.0).to_radians();
    let half_h = (half_v.tan() * aspect).atan();
    let half = half_v.min(half_h);
    let distance = radius * (1.0 + MARGIN) / half.sin();
    let eye = sub(centre, scale(forward, distance));
    Some(Framing {
        eye,
        centre,
        forward,
        distance,
    })
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn len(a: V3) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

fn normalized(a: V3) -> V3 {
    let l = len(a);
    if l > 0.0 { scale(a, 1.0 / l) } else { a }
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corners(lo: V3, hi: V3) -> Vec<V3> {
        let mut out = Vec::new();
        for i in 0..8 {
            out.push([
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ]);
        }
        out
    }

    /// Every corner lies inside the view cone of the narrower field of view.
    fn sees_all(f: &Framing, pts: &[V3], vfov: f64, aspect: f64) -> bool {
        let half_v = (vfov / 2.0).to_radians();
        let half = half_v.min((half_v.tan() * aspect).atan());
        pts.iter().all(|p| {
            let d = sub(*p, f.eye);
            let cos = (d[0] * f.forward[0] + d[1] * f.forward[1] + d[2] * f.forward[2]) / len(d);
            cos >= half.cos() - 1e-9
        })
    }

    #[test]
    fn a_view_from_below_frames_from_above() {
        let pts = corners([100.0, -5.0, 100.0], [612.0, 80.0, 612.0]);
        // Looking up from under the terrain, as the editor starts on the demo.
        let f = frame(&pts, [0.3, 0.5, -0.8], 75.0, 16.0 / 9.0).expect("a framing");
        assert!(f.forward[1] < 0.0, "looks down: {:?}", f.forward);
        assert!(f.eye[1] > 80.0, "from above the terrain: {:?}", f.eye);
        assert!(sees_all(&f, &pts, 75.0, 16.0 / 9.0));
        assert_eq!(f.centre, [356.0, 37.5, 356.0]);
        // The heading is kept.
        assert!(f.forward[0] > 0.0 && f.forward[2] < 0.0);
    }

    #[test]
    fn a_narrow_viewport_backs_off_further() {
        let pts = corners([0.0, 0.0, 0.0], [128.0, 10.0, 128.0]);
        let wide = frame(&pts, [0.0, -1.0, -1.0], 75.0, 2.0).expect("a framing");
        let tall = frame(&pts, [0.0, -1.0, -1.0], 75.0, 0.5).expect("a framing");
        assert!(tall.distance > wide.distance * 1.3);
        assert!(sees_all(&tall, &pts, 75.0, 0.5) && sees_all(&wide, &pts, 75.0, 2.0));
        // A moderate downward view is kept as it is.
        assert!((wide.forward[1] + 45f64.to_radians().sin()).abs() < 1e-9);
    }

    #[test]
    fn straight_down_and_degenerate_input() {
        let pts = corners([0.0, 0.0, 0.0], [64.0, 0.0, 64.0]);
        let f = frame(&pts, [0.0, -1.0, 0.0], 70.0, 1.0).expect("a framing");
        assert!((f.forward[1] + MAX_PITCH_DEG.to_radians().sin()).abs() < 1e-9);
        let [x, y, z] = f.basis_columns();
        assert!(len(x) > 0.99 && len(y) > 0.99 && len(z) > 0.99);
        assert!(y[1] > 0.0, "no roll, up stays up");
        assert!(frame(&[], [0.0, 0.0, -1.0], 70.0, 1.0).is_none());
        assert!(frame(&pts, [0.0, 0.0, -1.0], 70.0, f64::NAN).is_none());
        assert!(frame(&[[f64::INFINITY, 0.0, 0.0]], [0.0, 0.0, -1.0], 70.0, 1.0).is_none());
    }
}
