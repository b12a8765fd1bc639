//! Keeping every placement of a shared `TerrainAsset` in step with it.
//!
//! In the editor every stroke is written into the asset, which all placements of it share. A
//! placement whose surface and edit session were built from an older revision of the asset
//! must not write its stale stroke list back over the newer one (that would drop the other
//! placement's strokes). So each placement records the asset revision its surface reflects;
//! when the asset changes under it (`changed`, connected deferred) it regenerates from the
//! asset's strokes, and an edit that arrives before that regeneration finished is refused with
//! a message instead of overwriting anything.

use super::Terrain3D;
use godot::classes::object::ConnectFlags;
use godot::prelude::*;

/// The asset revisions a placement knows about.
#[derive(Default)]
pub struct AssetSync {
    /// The revision the current surface and its edit session were built from, or last wrote.
    shown: Option<u64>,
    /// The revision the running generation reads.
    generating: Option<u64>,
    /// The asset whose `changed` signal is connected.
    connected: Option<Gd<Resource>>,
}

#[godot_api(secondary)]
impl Terrain3D {
    /// Handler of [member asset]'s `changed` signal (connected deferred): regenerates from the
    /// asset when it holds a revision this placement does not show yet (another placement's
    /// stroke, [method TerrainAsset.set_source_json], [method TerrainAsset.resize]).
    #[func]
    fn _on_asset_changed(&mut self) {
        let Some(revision) = self.asset_revision() else {
            return;
        };
        let sync = &self.asset_sync;
        if sync.shown == Some(revision) || sync.generating == Some(revision) {
            return;
        }
        self.source_replaced = true;
        if self.base().is_inside_tree() {
            self.generate();
        }
    }
}

impl Terrain3D {
    /// The revision of [member asset], if one is set.
    fn asset_revision(&self) -> Option<u64> {
        self.asset.as_ref().map(|a| a.bind().revision())
    }

    /// Listens (deferred) to the current asset's `changed` signal, and to no other asset's.
    pub(super) fn listen_to_asset(&mut self) {
        let callable = Callable::from_object_method(&self.to_gd(), "_on_asset_changed");
        let wanted: Option<Gd<Resource>> = self.asset.clone().map(|a| a.upcast());
        if let Some(mut old) = self.asset_sync.connected.take()
            && Some(&old) != wanted.as_ref()
            && old.is_connected("changed", &callable)
        {
            old.disconnect("changed", &callable);
        }
        if let Some(mut r) = wanted.clone()
            && !r.is_connected("changed", &callable)
        {
            r.connect_flags("changed", &callable, ConnectFlags::DEFERRED);
        }
        self.asset_sync.connected = wanted;
        self.asset_sync.shown = None;
    }

    /// A generation reading the asset's current revision starts.
    pub(super) fn asset_generation_started(&mut self) {
        self.asset_sync.generating = self.asset_revision();
    }

    /// The running generation finished and its surface is shown.
    pub(super) fn asset_generation_finished(&mut self) {
        self.asset_sync.shown = self.asset_sync.generating.take();
    }

    /// The running generation failed or was cancelled: the shown revision stays.
    pub(super) fn asset_sync_generation_failed(&mut self) {
        self.asset_sync.generating = None;
    }

    /// This placement wrote its strokes into the asset: the new revision is its own.
    pub(super) fn asset_written(&mut self) {
        self.asset_sync.shown = self.asset_revision();
    }

    /// `Err` when the asset holds a revision this placement's session was not built from: the
    /// placement regenerates (once) and the edit must not go ahead.
    pub(super) fn check_asset_current(&mut self) -> Result<(), String> {
        let Some(revision) = self.asset_revision() else {
            return Ok(());
        };
        match self.asset_sync.shown {
            Some(shown) if shown != revision => {
                if self.asset_sync.generating != Some(revision) {
                    self.source_replaced = true;
                    self.generate();
                }
                Err(
                    "Terrain3D: the asset changed (another placement of it was edited, or its \
                     source was replaced); regenerating from it — repeat the edit when the \
                     terrain has updated"
                        .into(),
                )
            }
            _ => Ok(()),
        }
    }
}
