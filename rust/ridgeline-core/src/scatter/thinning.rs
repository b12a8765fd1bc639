//! Distance thinning: how many of a chunk's evenly ordered placements to draw at a distance.

/// A rule's thinning curve: full density up to `full_distance`, falling linearly to `floor`
/// (a fraction of the placements) at `max_distance`, nothing beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thinning {
    /// Distance (units) up to which every placement is drawn.
    pub full_distance: f32,
    /// Distance beyond which nothing is drawn.
    pub max_distance: f32,
    /// Fraction (0–1) still drawn at `max_distance`.
    pub floor: f32,
}

impl Thinning {
    /// The fraction drawn at `distance` (0 beyond `max_distance`).
    pub fn fraction(&self, distance: f32) -> f32 {
        if distance.is_nan() || distance > self.max_distance {
            return 0.0;
        }
        if distance <= self.full_distance || self.max_distance <= self.full_distance {
            return 1.0;
        }
        let t = (distance - self.full_distance) / (self.max_distance - self.full_distance);
        let floor = self.floor.clamp(0.0, 1.0);
        1.0 - t * (1.0 - floor)
    }

    /// How many of `count` placements to draw at `distance`: at least one when any is drawn.
    pub fn visible(&self, count: usize, distance: f32) -> usize {
        let f = self.fraction(distance);
        if f <= 0.0 || count == 0 {
            return 0;
        }
        ((count as f32 * f).ceil() as usize).clamp(1, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_then_linear_to_the_floor_then_nothing() {
        let t = Thinning {
            full_distance: 50.0,
            max_distance: 150.0,
            floor: 0.2,
        };
        assert_eq!(t.visible(1000, 0.0), 1000);
        assert_eq!(t.visible(1000, 50.0), 1000);
        assert_eq!(t.visible(1000, 100.0), 600);
        assert_eq!(t.visible(1000, 150.0), 200);
        assert_eq!(t.visible(1000, 150.1), 0);
        assert_eq!(t.visible(1000, f32::NAN), 0);
        assert_eq!(t.visible(3, 149.0), 1);
        let mut last = usize::MAX;
        for d in 0..160 {
            let v = t.visible(4096, d as f32);
            assert!(v <= last, "never rises with distance");
            last = v;
        }
    }
}
