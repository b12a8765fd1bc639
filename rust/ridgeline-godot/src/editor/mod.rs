//! The editor side of the addon: the editor plugin and the export cooker. Editor-only code calls
//! the same runtime API a game uses.

pub mod export_plugin;
pub mod plugin;
