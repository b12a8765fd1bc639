//! Brush masks: circle, square, and the greyscale PNGs of the project's `res://brush_masks/`
//! folder (with thumbnails), chosen per tool group in the dock and remembered per project.

use super::plugin::RidgelineEditorPlugin;
use super::settings;
use godot::classes::{DirAccess, Image, ImageTexture, OptionButton};
use godot::prelude::*;

/// The folder whose PNGs the dock offers as brush masks.
pub const MASK_DIR: &str = "res://brush_masks";

/// The masks the dock offers: `(reference, label)`; the reference goes into the stroke's
/// `mask` (empty: circle).
pub fn available() -> Vec<(String, String)> {
    let mut out = vec![
        (String::new(), "Circle".to_string()),
        ("square".to_string(), "Square".to_string()),
    ];
    let mut files: Vec<String> = DirAccess::get_files_at(MASK_DIR)
        .as_slice()
        .iter()
        .map(|f| f.to_string())
        .filter(|f| f.to_ascii_lowercase().ends_with(".png"))
        .collect();
    files.sort();
    for f in files {
        out.push((format!("{MASK_DIR}/{f}"), f));
    }
    out
}

/// Side of a mask thumbnail in the dock, in pixels.
const THUMBNAIL: usize = 24;

/// A 24 px thumbnail of a mask PNG (none for the built-in shapes or when it cannot be read).
/// The file is read as strokes read masks (a regular file within the mask size limits), so a
/// huge or hostile PNG in the folder costs no more than a valid mask.
fn thumbnail(reference: &str) -> Option<Gd<ImageTexture>> {
    if !reference.starts_with("res://") {
        return None;
    }
    let path = godot::classes::ProjectSettings::singleton()
        .globalize_path(reference)
        .to_string();
    let bytes = ridgeline_core::fsio::read_bounded(
        std::path::Path::new(&path),
        ridgeline_core::fsio::FileKind::Mask,
    )
    .ok()?;
    let mask = ridgeline_core::formats::mask::mask_from_png(&bytes, &path).ok()?;
    let side = THUMBNAIL as f32;
    let pixels: Vec<u8> = (0..THUMBNAIL * THUMBNAIL)
        .map(|i| {
            let (x, z) = ((i % THUMBNAIL) as f32, (i / THUMBNAIL) as f32);
            let v = mask.sample((x + 0.5) / side, (z + 0.5) / side);
            (v.clamp(0.0, 1.0) * 255.0).round() as u8
        })
        .collect();
    let img = Image::create_from_data(
        THUMBNAIL as i32,
        THUMBNAIL as i32,
        false,
        godot::classes::image::Format::L8,
        &PackedByteArray::from(pixels.as_slice()),
    )?;
    ImageTexture::create_from_image(&img)
}

/// Fills `option` with `masks` (thumbnails for PNGs) and selects `chosen`.
pub fn fill(option: &mut Gd<OptionButton>, masks: &[(String, String)], chosen: &str) {
    option.clear();
    for (i, (reference, label)) in masks.iter().enumerate() {
        match thumbnail(reference) {
            Some(icon) => option.add_icon_item(&icon, label.as_str()),
            None => option.add_item(label.as_str()),
        }
        option.set_item_tooltip(
            i as i32,
            if reference.is_empty() {
                "circle"
            } else {
                reference
            },
        );
    }
    let i = masks.iter().position(|(r, _)| r == chosen).unwrap_or(0);
    option.select(i as i32);
}

#[godot_api(secondary)]
impl RidgelineEditorPlugin {
    /// Sets the current tool group's brush mask: `""` or `"circle"`, `"square"`, or a
    /// greyscale PNG (`res://…`, as the dock lists those of `res://brush_masks/`). Remembered
    /// per project. Returns false for a PNG that does not exist.
    #[func]
    pub fn set_brush_mask(&mut self, reference: GString) -> bool {
        let mut r = reference.to_string();
        if r == "circle" {
            r.clear();
        }
        if !r.is_empty() && r != "square" && !godot::classes::FileAccess::file_exists(r.as_str()) {
            godot_error!("RidgelineEditorPlugin.set_brush_mask: no mask image `{r}`");
            return false;
        }
        let g = self.tool.group();
        settings::save_mask(g, &r);
        self.masks.insert(g, r);
        self.refresh_masks();
        true
    }

    /// The current tool group's brush mask (`""`: circle).
    #[func]
    pub fn get_brush_mask(&self) -> GString {
        self.mask().as_str().into()
    }

    /// Dock: a mask was chosen.
    #[func]
    fn _on_mask_selected(&mut self, index: i64) {
        let masks = available();
        if let Some((r, _)) = masks.get(index.max(0) as usize) {
            let r = r.clone();
            self.set_brush_mask(r.as_str().into());
        }
    }
}

impl RidgelineEditorPlugin {
    /// The current tool group's mask reference (empty: circle).
    pub(super) fn mask(&self) -> String {
        self.masks
            .get(&self.tool.group())
            .cloned()
            .unwrap_or_default()
    }

    /// Re-lists the masks and shows the current group's choice.
    pub(super) fn refresh_masks(&mut self) {
        let chosen = self.mask();
        let masks = available();
        if let Some(d) = &mut self.dock {
            fill(&mut d.mask_option, &masks, &chosen);
        }
    }
}
