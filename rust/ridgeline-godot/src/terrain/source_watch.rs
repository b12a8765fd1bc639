//! Watching the files a terrain's graph reads (heightmaps): their modification times and sizes
//! are recorded when a generation starts, and [method Terrain3D.regenerate_if_sources_changed]
//! regenerates when one differs — the editor calls it about once a second, so re-exporting a
//! heightmap from another tool updates the terrain in the viewport (strokes kept).

use super::Terrain3D;
use godot::classes::ProjectSettings;
use godot::prelude::*;
use ridgeline_core::recipe::Recipe;
use std::path::PathBuf;
use std::time::SystemTime;

/// One watched file: where it is and what it looked like (`None`: missing or unreadable).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct SourceStamps(Vec<(PathBuf, Option<(SystemTime, u64)>)>);

fn stamp(path: &std::path::Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

impl SourceStamps {
    /// The files `recipe`'s graph output depends on, as they are now.
    pub(super) fn capture(recipe: &Recipe) -> Self {
        Self(
            ridgeline_core::pipeline::files::referenced_files(recipe)
                .into_iter()
                .map(|f| {
                    let s = stamp(&f.path);
                    (f.path, s)
                })
                .collect(),
        )
    }

    /// True when a recorded file changed, appeared or disappeared since [`Self::capture`].
    pub(super) fn changed(&self) -> bool {
        self.0.iter().any(|(p, s)| stamp(p) != *s)
    }
}

#[godot_api(secondary)]
impl Terrain3D {
    /// The files the terrain's graph reads (heightmaps), as `res://` paths where they are
    /// inside the project, recorded when the last generation started. Empty for the
    /// conventional pipeline and cooked payloads.
    #[func]
    pub fn get_source_files(&self) -> PackedStringArray {
        let ps = ProjectSettings::singleton();
        self.source_stamps
            .0
            .iter()
            .map(|(p, _)| ps.localize_path(&p.display().to_string()))
            .collect()
    }

    /// Regenerates (keeping every stroke) when a file of [method get_source_files] changed on
    /// disk since the last generation started; returns whether it started one. Does nothing
    /// while a generation runs. The editor calls this about once a second for every terrain
    /// in the edited scene; a game that hot-reloads heightmaps may call it too.
    #[func]
    pub fn regenerate_if_sources_changed(&mut self) -> bool {
        if self.job.is_some() || !self.source_stamps.changed() {
            return false;
        }
        // Record the new state first: a failing file does not retrigger every second.
        self.source_stamps = SourceStamps(
            self.source_stamps
                .0
                .iter()
                .map(|(p, _)| (p.clone(), stamp(p)))
                .collect(),
        );
        self.generate()
    }
}
