//! JSON document helpers shared by every parser: strict parsing with located errors
//! ([`strict_json`]), reading values with located diagnostics ([`reader`]), parameter specs
//! ([`params`]), the values read with them ([`param_values`]) and writing canonical numbers
//! ([`write`]).

pub mod param_values;
pub mod params;
pub mod reader;
pub mod strict_json;
pub mod write;
