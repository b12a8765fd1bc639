//! Unit tests of [`super`] (tools, brush settings, stroke JSON).

use super::*;

#[test]
fn names_round_trip() {
    for t in TOOLS {
        assert_eq!(Tool::from_name(t.name()), Some(t));
    }
    assert_eq!(Tool::from_name("bogus"), None);
}

#[test]
fn shift_inverts() {
    assert_eq!(Tool::Raise.inverted(), Tool::Lower);
    assert_eq!(Tool::Lower.inverted(), Tool::Raise);
    assert_eq!(Tool::Exclude.inverted(), Tool::Erase);
    assert_eq!(Tool::Flatten.inverted(), Tool::Smooth);
    assert_eq!(Tool::SetHeight.inverted(), Tool::Smooth);
    assert_eq!(Tool::Smooth.inverted(), Tool::Smooth);
    assert_eq!(Tool::Hole.inverted(), Tool::FillHole);
    assert_eq!(Tool::FillHole.inverted(), Tool::Hole);
}

#[test]
fn brush_clamps_and_steps() {
    let b = Brush {
        size: f64::NAN,
        strength: 7.0,
        falloff: -1.0,
        spacing: 0.0,
        target_height: 3.0,
        slope_min: -4.0,
        slope_max: 200.0,
        density: 3.0,
        water_depth: 20.0,
        water_level: 0.3,
    }
    .clamped();
    assert_eq!((b.water_depth, b.water_level), (8.0, 0.0));
    assert_eq!((b.slope_min, b.slope_max), (0.0, 90.0));
    assert_eq!(b.slope_band(), None);
    assert_eq!(b.size, Brush::default().size);
    assert_eq!(b.strength, 1.0);
    assert_eq!(b.falloff, 0.0);
    assert_eq!(b.spacing, 0.05);
    assert!((Brush::default().resized(true).size - 19.2).abs() < 1e-9);
    assert_eq!(Brush::default().restrengthened(true).strength, 0.55);
    let max = Brush {
        size: 2000.0,
        ..Brush::default()
    };
    assert_eq!(max.resized(true).size, 2000.0);
}

#[test]
fn inverting_keeps_the_layer_kind_and_a_target_layer_reaches_the_stroke() {
    for t in TOOLS {
        assert_eq!(t.inverted().layer_kind(), t.layer_kind(), "{t:?}");
    }
    let target = Target {
        layer: "roads".into(),
        ..Target::default()
    };
    let v = stroke_json(Tool::Raise, &Brush::default(), &target, &[[1.0, 2.0]]).expect("a stroke");
    assert_eq!(v["layer"], "roads");
    let v = stroke_json(
        Tool::Raise,
        &Brush::default(),
        &Target::default(),
        &[[1.0, 2.0]],
    )
    .expect("a stroke");
    assert!(
        v.get("layer").is_none(),
        "no target: the kind's first layer"
    );
}

#[test]
fn brush_json_round_trips_and_tolerates_junk() {
    let b = Brush {
        size: 30.0,
        strength: 0.25,
        falloff: 0.75,
        spacing: 0.5,
        target_height: -4.0,
        slope_min: 10.0,
        slope_max: 35.0,
        density: 0.25,
        water_depth: 3.5,
        water_level: 0.0,
    };
    assert_eq!(Brush::from_json(&b.to_json()), b);
    assert_eq!(Brush::from_json(&json!({"size": "big"})), Brush::default());
}

#[test]
fn strokes_carry_their_parameters() {
    let b = Brush::default();
    let pts = [[1.0, 2.0], [3.0, 4.0]];
    let v = stroke_json(Tool::Raise, &b, &Target::default(), &pts).expect("a stroke");
    assert_eq!(v["type"], "raise");
    assert_eq!(v["radius"], 8.0);
    assert_eq!(v["amount"], 16.0 * 0.05 * 0.5);
    let v = stroke_json(
        Tool::Flatten,
        &b,
        &Target {
            height: 12.5,
            ..Target::default()
        },
        &pts,
    )
    .expect("a stroke");
    assert_eq!(v["target_height"], 12.5);
    assert_eq!(v["points"], json!([[1.0, 2.0], [3.0, 4.0]]));
    assert!(stroke_json(Tool::None, &b, &Target::default(), &pts).is_none());
    let v = stroke_json(Tool::Hole, &b, &Target::default(), &pts).expect("a stroke");
    assert_eq!(
        (v["type"].as_str(), v["mode"].as_str()),
        (Some("hole"), Some("paint"))
    );
    let v = stroke_json(Tool::FillHole, &b, &Target::default(), &pts).expect("a stroke");
    assert_eq!(
        (v["type"].as_str(), v["mode"].as_str()),
        (Some("hole"), Some("erase"))
    );
    assert_eq!(Tool::Hole.group(), Group::Holes);
    assert!(stroke_json(Tool::Ramp, &b, &Target::default(), &pts).is_none());
    let paint = Target {
        biome: "rock".into(),
        ..Target::default()
    };
    let v = stroke_json(Tool::BiomePaint, &b, &paint, &pts).expect("a stroke");
    assert_eq!(
        (v["type"].as_str(), v["biome"].as_str()),
        (Some("region"), Some("rock"))
    );
    let square = Target {
        mask: "square".into(),
        ..Target::default()
    };
    let v = stroke_json(Tool::Raise, &b, &square, &pts).expect("a stroke");
    assert_eq!(v["mask"], "square");
    let v = stroke_json(Tool::Protect, &b, &Target::default(), &pts).expect("a stroke");
    assert!(v.get("mask").is_none(), "circle is the default");
    assert_eq!(v["type"], "protect");
    assert!(v.get("heights").is_none(), "the terrain takes the snapshot");
}

#[test]
fn slope_limits_reach_every_stroke_but_holes() {
    let b = Brush {
        slope_min: 40.0,
        slope_max: 20.0,
        ..Brush::default()
    };
    assert_eq!(b.slope_band(), Some([20.0, 40.0]));
    let pts = [[1.0, 2.0]];
    let v = stroke_json(Tool::Raise, &b, &Target::default(), &pts).expect("a stroke");
    assert_eq!(
        (v["slope_min"].as_f64(), v["slope_max"].as_f64()),
        (Some(20.0), Some(40.0))
    );
    let v = stroke_json(Tool::Hole, &b, &Target::default(), &pts).expect("a stroke");
    assert!(v.get("slope_min").is_none());
    let v =
        stroke_json(Tool::Raise, &Brush::default(), &Target::default(), &pts).expect("a stroke");
    assert!(v.get("slope_min").is_none(), "no limits by default");
}

#[test]
fn ramps_and_their_grade() {
    let v = ramp_json(&Brush::default(), [0.0, 0.0, 10.0], [30.0, 40.0, 20.0]);
    assert_eq!(v["type"], "ramp");
    assert_eq!(v["from"], json!([0.0, 0.0, 10.0]));
    assert_eq!(v["to"], json!([30.0, 40.0, 20.0]));
    assert!(v.get("points").is_none());
    let (pct, deg) = grade([0.0, 0.0, 10.0], [30.0, 40.0, 20.0]).expect("a grade");
    assert!((pct - 20.0).abs() < 1e-9 && (deg - 0.2f64.atan().to_degrees()).abs() < 1e-9);
    assert!(grade([1.0, 1.0, 0.0], [1.0, 1.0, 5.0]).is_none());
}

#[test]
fn hotkeys_name_distinct_tools() {
    for t in &TOOLS[1..] {
        let k = t.hotkey().chars().next().expect("a key");
        assert_eq!(Tool::from_hotkey(k), Some(*t), "{t:?}");
    }
    assert_eq!(Tool::from_hotkey('p'), Some(Tool::Protect));
    assert_eq!(Tool::from_hotkey('F'), None, "F frames the terrain");
    let groups: std::collections::HashSet<_> = TOOLS[1..].iter().map(|t| t.group()).collect();
    assert_eq!(groups.len(), GROUPS.len());
}

#[test]
fn foliage_paints_the_brush_density_and_shift_restores() {
    assert_eq!(Tool::FoliagePaint.inverted(), Tool::FoliageRestore);
    assert_eq!(Tool::FoliageRestore.inverted(), Tool::FoliagePaint);
    assert_eq!(
        Tool::from_name("foliage_restore"),
        Some(Tool::FoliageRestore)
    );
    assert_eq!(Tool::from_hotkey('g'), Some(Tool::FoliagePaint));
    assert_eq!(Tool::FoliagePaint.layer_kind(), None);
    let b = Brush {
        density: 0.25,
        slope_max: 30.0,
        ..Brush::default()
    };
    let target = Target {
        foliage: "grass".into(),
        ..Target::default()
    };
    let v = stroke_json(Tool::FoliagePaint, &b, &target, &[[1.0, 2.0]]).expect("a stroke");
    assert_eq!(v["type"], "foliage_density");
    assert_eq!(v["foliage"], "grass");
    assert_eq!(v["density"], 0.25);
    assert!(
        v.get("slope_max").is_none(),
        "no brush slope limits on foliage"
    );
    let v = stroke_json(Tool::FoliageRestore, &b, &target, &[[1.0, 2.0]]).expect("a stroke");
    assert_eq!(v["density"], 1.0);
}

#[test]
fn the_water_tool_paints_a_level_pond_and_shift_removes_water() {
    assert_eq!(Tool::Water.inverted(), Tool::WaterRemove);
    assert_eq!(Tool::from_hotkey('l'), Some(Tool::Water));
    assert!(Tool::Water.picks_height() && !Tool::WaterRemove.picks_height());
    let brush = Brush {
        water_depth: 1.5,
        target_height: 12.0,
        slope_min: 10.0,
        ..Brush::default()
    };
    assert_eq!(brush.water_level, 1.0, "level mode is on by default");
    let target = Target {
        height: brush.target_height,
        ..Target::default()
    };
    let v = stroke_json(Tool::Water, &brush, &target, &[[4.0, 5.0]]).expect("a stroke");
    assert_eq!(v["type"], "paint_water");
    assert_eq!(v["depth"], 1.5);
    assert_eq!(v["level"], 12.0);
    assert!(
        v.get("slope_min").is_none(),
        "painted water takes no slope limits"
    );
    let off = Brush {
        water_level: 0.0,
        ..brush
    };
    let v = stroke_json(Tool::Water, &off, &target, &[[4.0, 5.0]]).expect("a stroke");
    assert!(v.get("level").is_none(), "level mode off");
    let v = stroke_json(Tool::WaterRemove, &brush, &target, &[[4.0, 5.0]]).expect("a stroke");
    assert_eq!(v["depth"], 0.0);
    assert!(v.get("level").is_none(), "removing moves no surface");
    assert!(label(Tool::Water, &brush, None, None).contains("level 12.0 m"));
}

#[test]
fn the_dock_shows_the_fields_a_tool_reads() {
    const KEYS: &str = "size strength falloff spacing target_height slope_min slope_max density water_depth water_level";
    let shown = |t: Tool| -> String {
        let keys: Vec<&str> = KEYS.split(' ').filter(|k| t.reads(k)).collect();
        keys.join(" ")
    };
    let common = "size strength falloff spacing slope_min slope_max";
    assert_eq!(shown(Tool::Raise), common);
    assert_eq!(shown(Tool::None), common);
    assert_eq!(
        shown(Tool::SetHeight),
        "size strength falloff spacing target_height slope_min slope_max"
    );
    assert_eq!(
        shown(Tool::Water),
        "size strength falloff spacing target_height water_depth water_level"
    );
    assert_eq!(
        shown(Tool::FoliagePaint),
        "size strength falloff spacing density"
    );
    assert_eq!(shown(Tool::Hole), "size strength falloff spacing");
    assert_eq!(
        shown(Tool::Ramp),
        "size strength falloff slope_min slope_max"
    );
    assert_eq!(shown(Tool::ConvertObject), "size");
    // Shift's inverted tools keep their base tool's rows: the dock does not jump.
    assert_eq!(shown(Tool::WaterRemove), shown(Tool::Water));
    assert_eq!(shown(Tool::FoliageRestore), shown(Tool::FoliagePaint));
    // Every field a stroke carries is shown for its tool (slope limits set, so they are written).
    let brush = Brush {
        slope_min: 10.0,
        slope_max: 80.0,
        ..Brush::default()
    };
    let mut checked = 0;
    for t in TOOLS {
        let Some(v) = stroke_json(t, &brush, &Target::default(), &[[0.0, 0.0]]) else {
            continue;
        };
        for key in ["slope_min", "density"] {
            if v.get(key).is_some() {
                assert!(t.reads(key), "{t:?} writes {key} but hides its row");
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 8,
        "slope limits and density reached {checked} strokes"
    );
}
