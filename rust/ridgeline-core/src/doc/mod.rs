//! Reading JSON documents: strict parsing with located errors.

pub mod strict_json;
