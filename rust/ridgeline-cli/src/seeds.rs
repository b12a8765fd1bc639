//! `ridgeline seeds`.

use crate::Format;
use ridgeline_core::seed::{CHANNELS, sub_seed};

/// Prints every channel's sub-seed.
pub fn run(seed: u64, format: Format) {
    match format {
        Format::Text => {
            println!("seed {seed}");
            for c in CHANNELS {
                println!("{c:<16} {}", sub_seed(seed, c));
            }
        }
        Format::Json => {
            let channels: serde_json::Map<String, serde_json::Value> = CHANNELS
                .iter()
                .map(|c| (c.to_string(), serde_json::Value::from(sub_seed(seed, c))))
                .collect();
            let v = serde_json::json!({ "seed": seed, "channels": channels });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
}
