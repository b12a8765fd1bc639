//! Setters that refuse what a physics or drawing property cannot hold: NaN, infinities and
//! values below the property's minimum are reported with the property's name and the value kept,
//! instead of reaching the physics server (where a NaN force corrupts the body for good).

use godot::global::godot_error;
use godot::prelude::Vector3;

/// The lowest value a number property accepts.
#[derive(Clone, Copy, Debug)]
pub enum Min {
    /// `value ≥ m`.
    AtLeast(f32),
    /// `value > m`.
    Above(f32),
}

/// True when `value` may be stored in property `what` (finite and within `min`); otherwise an
/// error names the property, the refused value and the one `keeping`.
pub fn accept_number(what: &str, value: f32, min: Min, keeping: f32) -> bool {
    match number_problem(value, min) {
        None => true,
        Some(need) => {
            godot_error!("{what} must be {need}, got {value}; keeping {keeping}");
            false
        }
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

/// True when every component of `value` is finite; otherwise an error names property `what`.
pub fn accept_vector(what: &str, value: Vector3, keeping: Vector3) -> bool {
    if value.is_finite() {
        return true;
    }
    godot_error!("{what} must be finite, got {value}; keeping {keeping}");
    false
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
