//! JSON document helpers shared by every parser: reading values with located diagnostics
//! ([`reader`]) and writing canonical numbers ([`write`]).

pub mod params;
pub mod reader;
pub mod write;
