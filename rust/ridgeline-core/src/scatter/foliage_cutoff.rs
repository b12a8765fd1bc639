//! A foliage type's `channel_cutoff` against the terrain's user channels (seed 004's
//! `ChannelCutoff`: "absent where a user channel is at or above the value — cut grass").
//!
//! The palette names the channel (`{"channel": "cut_grass", "value": 0.5}`); the terrain says
//! which of its four user channels carries that name and whether it holds values or ids
//! ([`UserChannel`], from `Terrain3D.user_channel_types`). [`cutoff_channel`] resolves the name
//! and returns the per-sample values the cutoff compares ([`ChannelValues`]): a value channel
//! reads 0–1 (its byte / 255), an id channel the id itself. It reads the painted bytes in
//! place — nothing is copied — so a foliage chunk build costs no more with a cutoff than
//! without. A name no channel carries (or two channels share) is a located error.

use crate::edit::paint::USER_CHANNELS;
use crate::error::{Error, Result};
use crate::scatter::foliage::FoliageType;

/// One of the terrain's user channels as placement sees it: its name and kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserChannel {
    /// The channel's name (game data: `"cut_grass"`); empty for an unnamed channel.
    pub name: String,
    /// An id channel (crisp ids 0–255) rather than a value channel (0–1).
    pub id: bool,
}

/// Per-sample values a cutoff compares against its `value`, by sample index (row-major on the
/// terrain grid).
#[derive(Clone, Copy, Debug)]
pub enum ChannelValues<'a> {
    /// One value per sample.
    Samples(&'a [f32]),
    /// Channel `channel` of the interleaved user-channel bytes (4 per sample; empty: never
    /// painted, every value 0), each byte times `scale`.
    User {
        /// The user bytes (`crate::edit::paint::PaintLayers::user_bytes`).
        bytes: &'a [u8],
        /// Channel 0–3.
        channel: usize,
        /// 1/255 for a value channel, 1 for an id channel.
        scale: f32,
    },
}

impl ChannelValues<'_> {
    /// The value at sample `i` (0 outside the data).
    #[inline]
    pub fn at(&self, i: usize) -> f32 {
        match *self {
            ChannelValues::Samples(v) => v.get(i).copied().unwrap_or(0.0),
            ChannelValues::User {
                bytes,
                channel,
                scale,
            } => bytes
                .get(i * USER_CHANNELS + channel)
                .map_or(0.0, |&b| b as f32 * scale),
        }
    }
}

/// The values `t`'s `channel_cutoff` compares, from the user channel its name refers to among
/// `channels` (index = channel, at most four) and the painted user bytes `user` (4 per sample;
/// empty when nothing is painted). `Ok(None)` when `t` has no cutoff. An unknown or ambiguous
/// name is an error located at `{palette}.foliage["id"].channel_cutoff.channel` (`palette` is
/// the palette's path, usually `palette`).
pub fn cutoff_channel<'a>(
    t: &FoliageType,
    channels: &[UserChannel],
    user: &'a [u8],
    palette: &str,
) -> Result<Option<ChannelValues<'a>>> {
    let Some(c) = &t.channel_cutoff else {
        return Ok(None);
    };
    let path = format!("{palette}.foliage[\"{}\"].channel_cutoff.channel", t.id);
    let channels = &channels[..channels.len().min(USER_CHANNELS)];
    let hits: Vec<usize> = (0..channels.len())
        .filter(|&k| channels[k].name == c.channel)
        .collect();
    match hits.as_slice() {
        [k] => Ok(Some(ChannelValues::User {
            bytes: user,
            channel: *k,
            scale: if channels[*k].id { 1.0 } else { 1.0 / 255.0 },
        })),
        [] => {
            let names: Vec<String> = (0..USER_CHANNELS)
                .map(|k| match channels.get(k) {
                    Some(ch) if !ch.name.is_empty() => format!("{k}: `{}`", ch.name),
                    _ => format!("{k}: unnamed"),
                })
                .collect();
            Err(Error::invalid(
                path,
                format!(
                    "names user channel `{}`, which the terrain does not define (its channels are {}); name a channel so in Terrain3D.user_channel_types or change the cutoff",
                    c.channel,
                    names.join(", ")
                ),
            ))
        }
        many => Err(Error::invalid(
            path,
            format!(
                "names user channel `{}`, which channels {} share; give the terrain's channels different names",
                c.channel,
                many.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::Palette;
    use serde_json::json;

    fn grass(cutoff: serde_json::Value) -> FoliageType {
        let mut t = json!({"model": "res://grass.tres"});
        if !cutoff.is_null() {
            t["channel_cutoff"] = cutoff;
        }
        Palette::parse(
            &json!({"format_version": 3, "name": "m", "foliage": {"grass": t}}),
            "palette",
        )
        .unwrap()
        .foliage[0]
            .clone()
    }

    fn named(names: &[(&str, bool)]) -> Vec<UserChannel> {
        names
            .iter()
            .map(|&(n, id)| UserChannel { name: n.into(), id })
            .collect()
    }

    #[test]
    fn the_name_picks_the_channel_and_its_kind_scales_the_bytes() {
        let t = grass(json!({"channel": "cut", "value": 0.5}));
        // Two samples: channel 1 holds 255 then 51; channel 2 holds 7 then 0.
        let user = [0, 255, 7, 0, 0, 51, 0, 0];
        let chans = named(&[("wet", false), ("cut", false), ("zone", true)]);
        let v = cutoff_channel(&t, &chans, &user, "palette")
            .unwrap()
            .unwrap();
        assert_eq!(v.at(0), 1.0);
        assert!((v.at(1) - 0.2).abs() < 1e-6, "{}", v.at(1));
        assert_eq!(v.at(2), 0.0, "outside the data");
        let t = grass(json!({"channel": "zone", "value": 7}));
        let v = cutoff_channel(&t, &chans, &user, "palette")
            .unwrap()
            .unwrap();
        assert_eq!((v.at(0), v.at(1)), (7.0, 0.0), "ids are read as ids");
        // Never painted: every value 0.
        let v = cutoff_channel(&t, &chans, &[], "palette").unwrap().unwrap();
        assert_eq!(v.at(5), 0.0);
        assert!(
            cutoff_channel(&grass(json!(null)), &chans, &user, "palette")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn unknown_and_shared_names_are_located_errors() {
        let t = grass(json!({"channel": "cut", "value": 0.5}));
        let e = cutoff_channel(&t, &named(&[("wet", false)]), &[], "palette")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("palette.foliage[\"grass\"].channel_cutoff.channel: names user channel `cut`, which the terrain does not define (its channels are 0: `wet`, 1: unnamed, 2: unnamed, 3: unnamed)"),
            "{e}"
        );
        let e = cutoff_channel(
            &t,
            &named(&[("cut", false), ("x", false), ("cut", true)]),
            &[],
            "palette",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("which channels 0 and 2 share"), "{e}");
        // A fifth entry is never a channel.
        let five = named(&[
            ("a", false),
            ("b", false),
            ("c", false),
            ("d", false),
            ("cut", false),
        ]);
        assert!(cutoff_channel(&t, &five, &[], "palette").is_err());
    }
}
