//! Caught panics become errors, never success.
//!
//! gdext catches a panic that escapes a `#[func]`, but the caller then receives whatever the
//! return slot held (for a typed GDScript call, `0`, `false` or an empty value), which can read as
//! a valid answer. Every call that runs core code therefore goes through [`catch`] and turns a
//! panic into the method's documented failure value plus a `push_error`.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `f`; a panic becomes `Err("internal error: <panic message>")`.
///
/// Callers must not keep using state that `f` may have left half-updated: they drop it or
/// rebuild it (see `Terrain3D`'s edit session).
#[inline]
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!("internal error: {message}")
    })
}

/// Runs `f`, reporting a panic with `push_error` (prefixed with `context`) and answering
/// `failure` instead.
#[inline]
pub fn or_report<T>(context: &str, failure: T, f: impl FnOnce() -> T) -> T {
    match catch(f) {
        Ok(v) => v,
        Err(e) => {
            godot::global::godot_error!("{context}: {e}");
            failure
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_an_error_with_its_message() {
        let r: Result<(), String> = catch(|| panic!("boom {}", 3));
        assert_eq!(r, Err("internal error: boom 3".to_string()));
        assert_eq!(catch(|| 7), Ok(7));
    }
}
