//! Setters that refuse what a physics or drawing property cannot hold: NaN, infinities and
//! values below the property's minimum are reported with the property's name and the value kept,
//! instead of reaching the physics server (where a NaN force corrupts the body for good); values
//! a drawing property clamps are clamped with a warning that names it.

use godot::global::{godot_error, godot_warn};
use godot::prelude::Vector3;

/// The lowest value a number property accepts.
#[derive(Clone, Copy, Debug)]
pub enum Min {
    /// `value ≥ m`.
    AtLeast(f32),
    /// `value > m`.
    Above(f32),
}

/// Stores `value` in `field` (property `what`, e.g. `"TerrainBuoyancy.half_height"`) when it is
/// finite and within `min`; otherwise an error names the property, the refused value and the one
/// kept.
pub fn set_number(field: &mut f32, what: &str, value: f32, min: Min) {
    match number_problem(value, min) {
        None => *field = value,
        Some(need) => godot_error!("{what} must be {need}, got {value}; keeping {field}"),
    }
}

/// What `value` should have been ("finite and ≥ 0"), or `None` when it is acceptable.
fn number_problem(value: f32, min: Min) -> Option<String> {
    let (ok, bound) = match min {
        Min::AtLeast(m) => (value >= m, format!("≥ {m}")),
        Min::Above(m) => (value > m, format!("> {m}")),
    };
    (!(value.is_finite() && ok)).then(|| format!("finite and {bound}"))
}

/// Stores `value` in `field` (property `what`) when every component is finite; otherwise an
/// error names the property and the vector kept.
pub fn set_vector(field: &mut Vector3, what: &str, value: Vector3) {
    if value.is_finite() {
        *field = value;
    } else {
        godot_error!("{what} must be finite, got {value}; keeping {field}");
    }
}

/// `value` clamped to `lo..=hi`, with a warning naming property `what` when it had to be (a
/// drawing property's inspector slider is the range; a script may set anything).
pub fn clamp_reporting<T: PartialOrd + Copy + std::fmt::Display>(
    what: &str,
    value: T,
    lo: T,
    hi: T,
) -> T {
    let clamped = if value < lo {
        lo
    } else if value > hi {
        hi
    } else {
        value
    };
    if clamped != value {
        godot_warn!("{what}: {value} is outside {lo}–{hi}; using {clamped}");
    }
    clamped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_outside_the_minimum_or_not_finite_are_refused() {
        assert_eq!(number_problem(0.0, Min::AtLeast(0.0)), None);
        assert_eq!(number_problem(0.5, Min::Above(0.0)), None);
        for (v, min) in [
            (f32::NAN, Min::AtLeast(0.0)),
            (f32::INFINITY, Min::AtLeast(0.0)),
            (f32::NEG_INFINITY, Min::AtLeast(-1.0)),
            (-1.0, Min::AtLeast(0.0)),
            (0.0, Min::Above(0.0)),
        ] {
            assert!(number_problem(v, min).is_some(), "{v} {min:?}");
        }
        assert_eq!(
            number_problem(-1.0, Min::Above(0.0)).as_deref(),
            Some("finite and > 0")
        );
    }
}
