use super::*;
use std::fs;

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Names in `d`, sorted (to see that no temporary was left behind).
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn writes_a_new_file_and_replaces_an_old_one_leaving_no_temporary() {
    let d = dir();
    let f = d.path().join("x.terrain.json");
    write_atomic(&f, b"one").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"one");
    write_atomic(&f, b"two").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"two");
    assert_eq!(names(d.path()), ["x.terrain.json"]);
}

#[cfg(unix)]
#[test]
fn a_link_planted_at_the_old_temporary_name_is_never_followed() {
    // The reproducer of issue 11: `ln -s ../victim x.terrain.json.tmp`.
    let d = dir();
    let project = d.path().join("project");
    fs::create_dir(&project).unwrap();
    let victim = d.path().join("victim");
    fs::write(&victim, b"precious").unwrap();
    let f = project.join("x.terrain.json");
    fs::write(&f, b"old").unwrap();
    for planted in ["x.terrain.json.tmp", ".x.terrain.json.tmp", "x.tmp"] {
        std::os::unix::fs::symlink("../victim", project.join(planted)).unwrap();
    }
    write_atomic(&f, b"new").unwrap();
    assert_eq!(
        fs::read(&victim).unwrap(),
        b"precious",
        "the victim is untouched"
    );
    assert_eq!(fs::read(&f).unwrap(), b"new");
    assert!(!fs::symlink_metadata(&f).unwrap().file_type().is_symlink());
    assert_eq!(
        names(&project),
        [
            ".x.terrain.json.tmp",
            "x.terrain.json",
            "x.terrain.json.tmp",
            "x.tmp"
        ],
        "only the planted links and the target remain"
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_target_has_its_destination_updated_and_stays_a_link() {
    let d = dir();
    let real_dir = d.path().join("real");
    fs::create_dir(&real_dir).unwrap();
    let real = real_dir.join("valley.terrain.json");
    fs::write(&real, b"old").unwrap();
    let link = d.path().join("valley.terrain.json");
    std::os::unix::fs::symlink("real/valley.terrain.json", &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&real).unwrap(), b"new");
    assert_eq!(names(&real_dir), ["valley.terrain.json"]);
    assert_eq!(names(d.path()), ["real", "valley.terrain.json"]);
}

#[cfg(unix)]
#[test]
fn a_read_only_target_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir();
    let f = d.path().join("locked.terrain.json");
    fs::write(&f, b"keep me").unwrap();
    fs::set_permissions(&f, fs::Permissions::from_mode(0o444)).unwrap();
    let e = write_atomic(&f, b"overwritten").unwrap_err().to_string();
    assert!(
        e.contains("locked.terrain.json") && e.contains("read-only"),
        "{e}"
    );
    assert_eq!(fs::read(&f).unwrap(), b"keep me");
    assert_eq!(names(d.path()), ["locked.terrain.json"]);
}

#[cfg(unix)]
#[test]
fn the_target_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir();
    let f = d.path().join("shared.terrain.json");
    fs::write(&f, b"a").unwrap();
    for mode in [0o640, 0o604, 0o755] {
        fs::set_permissions(&f, fs::Permissions::from_mode(mode)).unwrap();
        write_atomic(&f, b"b").unwrap();
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o7777,
            mode
        );
    }
    // A new file is not left with the temporary's private 0600 mode when the umask allows more.
    let g = d.path().join("fresh.bin");
    write_atomic(&g, b"x").unwrap();
    let plain = d.path().join("plain.bin");
    fs::write(&plain, b"x").unwrap();
    assert_eq!(
        fs::metadata(&g).unwrap().permissions().mode(),
        fs::metadata(&plain).unwrap().permissions().mode(),
        "a new file gets the mode std::fs::write gives"
    );
}

#[test]
fn a_failed_write_leaves_the_old_file_intact() {
    let d = dir();
    let f = d.path().join("x.terrain.bin");
    fs::write(&f, b"old contents").unwrap();
    let e = write_atomic_with(&f, |file| {
        file.write_all(b"half")?;
        Err(io::Error::other("disk full"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("x.terrain.bin") && e.contains("disk full"),
        "{e}"
    );
    assert_eq!(fs::read(&f).unwrap(), b"old contents");
    assert_eq!(names(d.path()), ["x.terrain.bin"]);
    // A directory in the way and a missing folder are errors that change nothing.
    fs::create_dir(d.path().join("sub")).unwrap();
    assert!(write_atomic(&d.path().join("sub"), b"x").is_err());
    assert!(d.path().join("sub").is_dir());
    assert!(write_atomic(&d.path().join("missing/x.bin"), b"x").is_err());
}

#[cfg(unix)]
#[test]
fn reads_refuse_fifos_devices_and_directories_without_blocking() {
    let d = dir();
    let fifo = d.path().join("pipe.png");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let e = read_bounded(&fifo, FileKind::Mask).unwrap_err().to_string();
        assert!(
            e.contains("pipe.png") && e.contains("not a regular file"),
            "{e}"
        );
    }
    let e = read_bounded(Path::new("/dev/zero"), FileKind::Mask)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/dev/zero") && e.contains("not a regular file"),
        "{e}"
    );
    let e = read_bounded(d.path(), FileKind::Document)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn reads_refuse_files_over_their_limit_before_reading() {
    let d = dir();
    let f = d.path().join("big.png");
    fs::write(&f, vec![7u8; 100]).unwrap();
    assert_eq!(read_limited(&f, FileKind::Mask, 100).unwrap().len(), 100);
    let e = read_limited(&f, FileKind::Mask, 99)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("big.png")
            && e.contains("100 bytes is larger than a brush mask may be (99 bytes)"),
        "{e}"
    );
    let e = read_bounded(&d.path().join("nope.png"), FileKind::Mask)
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope.png") && e.contains("cannot read"), "{e}");
    assert!(FileKind::Mask.limit() < FileKind::Document.limit());
}

#[test]
fn text_reads_name_invalid_utf8() {
    let d = dir();
    let f = d.path().join("t.terrain.json");
    fs::write(&f, b"{\"a\": \"\xff\"}").unwrap();
    let e = read_text_bounded(&f, FileKind::Document)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not UTF-8") && e.contains("offset 7"), "{e}");
}

/// A project with `project.godot`, an asset folder and a file outside.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let d = dir();
    let root = d.path().join("game");
    let assets = root.join("terrain").join("valley");
    fs::create_dir_all(&assets).unwrap();
    fs::write(root.join("project.godot"), b"").unwrap();
    fs::write(assets.join("brush.png"), b"png").unwrap();
    fs::create_dir_all(root.join("brushes")).unwrap();
    fs::write(root.join("brushes/rock.png"), b"png").unwrap();
    fs::write(d.path().join("secret.png"), b"secret").unwrap();
    let root = fs::canonicalize(root).unwrap();
    let assets = fs::canonicalize(assets).unwrap();
    (d, root, assets)
}

#[test]
fn the_project_root_is_the_nearest_folder_with_project_godot() {
    let (d, root, assets) = project();
    assert_eq!(project_root(&assets), root);
    assert_eq!(project_root(&root), root);
    let loose = d.path().join("loose");
    fs::create_dir(&loose).unwrap();
    assert_eq!(project_root(&loose), fs::canonicalize(&loose).unwrap());
}

#[test]
fn references_resolve_inside_the_project_only() {
    let (d, root, assets) = project();
    let r = |s: &str| resolve_reference(&assets, &root, s);
    assert_eq!(r("brush.png").unwrap(), assets.join("brush.png"));
    assert_eq!(r("./brush.png").unwrap(), assets.join("brush.png"));
    assert_eq!(
        r("../../brushes/rock.png").unwrap(),
        root.join("brushes/rock.png")
    );
    assert_eq!(
        r("res://brushes/rock.png").unwrap(),
        root.join("brushes/rock.png")
    );
    let secret = d.path().join("secret.png");
    for bad in [
        "../../../secret.png".to_string(),
        "res://../secret.png".to_string(),
        secret.display().to_string(),
        "/dev/zero".to_string(),
        "/etc/passwd".to_string(),
        "C:\\Windows\\win.ini".to_string(),
        "\\\\server\\share\\x.png".to_string(),
        "user://x.png".to_string(),
        "http://example.invalid/x.png".to_string(),
        String::new(),
        "a\0b".to_string(),
    ] {
        let e = r(&bad).expect_err(&bad).to_string();
        assert!(
            e.contains("outside the project")
                || e.contains("absolute paths are not allowed")
                || e.contains("only paths relative")
                || e.contains("is empty")
                || e.contains("NUL"),
            "{bad}: {e}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_project_cannot_lead_out_of_it() {
    let (d, root, assets) = project();
    std::os::unix::fs::symlink(d.path().join("secret.png"), assets.join("sneaky.png")).unwrap();
    std::os::unix::fs::symlink(root.join("brushes/rock.png"), assets.join("fine.png")).unwrap();
    let e = resolve_reference(&assets, &root, "sneaky.png")
        .unwrap_err()
        .to_string();
    assert!(e.contains("sneaky.png: points outside the project"), "{e}");
    assert!(resolve_reference(&assets, &root, "fine.png").is_ok());
}
