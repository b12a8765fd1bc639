//! Ridgeline GDExtension: the Godot classes of the Ridgeline terrain addon.
//!
//! This crate only converts and owns engine resources; everything that computes lives in
//! `ridgeline-core`.

// gdext's entry point requires `unsafe impl ExtensionLibrary`; nothing else here is unsafe.
#![allow(unsafe_code)]

use godot::prelude::*;

mod terrain3d;

/// The extension library entry (`gdext_rust_init`).
struct RidgelineExtension;

#[gdextension]
unsafe impl ExtensionLibrary for RidgelineExtension {}
