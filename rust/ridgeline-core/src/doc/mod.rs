//! JSON document helpers shared by every parser: strict parsing with located errors
//! ([`strict_json`]), reading values with located diagnostics ([`reader`]), parameter specs
//! ([`params`]) and writing canonical numbers ([`write`]).

pub mod params;
pub mod reader;
pub mod strict_json;
pub mod write;
