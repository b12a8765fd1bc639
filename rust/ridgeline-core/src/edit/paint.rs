//! Painted per-sample layers: the four **user channels** and the **surface paint** weights.
//! Both are written only by strokes in the recipe's `regions` list (`user_channel`,
//! `paint_surface` and `paint_patch`), so they replay on regeneration, undo exactly and save as
//! stroke data. One value per grid sample (the same texel grid as the control texture), in
//! evaluation order on top of an all-default start.
//!
//! **User channels** (`user`, 4 bytes per sample, channel-interleaved like seed 004's
//! `user.png`): what a channel means is game data. A `value` channel blends (0–1, stored in
//! 1/255 steps); an `id` channel paints crisp ids 0–255.
//!
//! **Surface paint** (`weights`, [`WEIGHT_SLOTS`] bytes per sample): the weight of each of the
//! nine surface roles plus slot [`GENERATED`], the weight of whatever the classification says
//! (the generated role). Every sample's weights sum to exactly 255; unpainted samples are all
//! generated (`[0, …, 0, 255]`). The effective weight of role `r` is `w[r]`, plus `w[GENERATED]`
//! when `r` is the classified role; the sample's surface is the strongest effective role (ties:
//! the classified role, then the smaller id).
//!
//! - `"mode": "dither"` (the faceted look): a sample takes the role outright (`w[r] = 255`)
//!   where `coverage = strength · fade` exceeds the 4 × 4 ordered-dither (Bayer) threshold at
//!   its global sample coordinates, `(B[z mod 4][x mod 4] + 0.5) / 16`. The threshold depends
//!   on the sample, never on what was painted, so repeated paints at one strength cover the
//!   same samples: coverage does not creep.
//! - `"mode": "blend"` (the realistic look): `w[r]` moves toward 255 by `strength · fade`
//!   (rounded), the other nine slots are scaled to keep the sum at 255 (largest remainders,
//!   ties to the smaller slot).

use super::brush::Brush;
use super::rect::Rect;
use super::stroke::Stroke;
use crate::grid::Grid;

/// Number of user channels.
pub const USER_CHANNELS: usize = 4;
/// Number of surface roles that can be painted (role ids 0–8).
pub const SURFACES: usize = 9;
/// Weight slots per sample: the nine roles, then [`GENERATED`].
pub const WEIGHT_SLOTS: usize = SURFACES + 1;
/// The slot holding the classified (generated) role's weight.
pub const GENERATED: usize = SURFACES;

/// The 4 × 4 Bayer matrix (row = z mod 4, column = x mod 4).
pub const BAYER4: [[u8; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

/// The ordered-dither threshold of sample (x, z), in (0, 1).
#[inline]
pub fn dither_threshold(x: usize, z: usize) -> f32 {
    (BAYER4[z % 4][x % 4] as f32 + 0.5) / 16.0
}

/// A `user_channel` stroke: writes `value` into `channel`.
#[derive(Clone, Debug, PartialEq)]
pub struct UserChannelOp {
    /// Channel 0–3.
    pub channel: u8,
    /// `value` mode: 0–1; `id` mode: a whole number 0–255.
    pub value: f32,
    /// `id` mode (crisp ids) instead of `value` (blends).
    pub id: bool,
}

impl UserChannelOp {
    /// True when `channel` names a user channel (a whole number 0..[`USER_CHANNELS`]).
    pub fn channel_ok(channel: f64) -> bool {
        channel.fract() == 0.0 && (0.0..USER_CHANNELS as f64).contains(&channel)
    }

    /// True when a stroke can write `value`: a whole id 0..=255 in `id` mode, else 0..=1.
    pub fn value_ok(value: f64, id: bool) -> bool {
        if id {
            value.fract() == 0.0 && (0.0..=255.0).contains(&value)
        } else {
            (0.0..=1.0).contains(&value)
        }
    }
}

/// A `paint_surface` stroke: paints surface role `surface`.
#[derive(Clone, Debug, PartialEq)]
pub struct PaintSurfaceOp {
    /// Role id 0–8 (`crate::biome::roles::Role`).
    pub surface: u8,
    /// `blend` mode (weights) instead of `dither` (crisp, ordered dither).
    pub blend: bool,
}

/// A `paint_patch` stroke: absolute per-sample layer bytes over a sample rectangle (what
/// `Terrain3D.set_cells` records).
#[derive(Clone, Debug, PartialEq)]
pub struct PaintPatch {
    /// Cells `[x, z]` of the grid the rectangle refers to.
    pub grid: [u32; 2],
    /// The sample rectangle (half-open).
    pub rect: Rect,
    /// User channel bytes, [`USER_CHANNELS`] per sample row-major, or empty (unchanged).
    pub user: Vec<u8>,
    /// Surface weights, [`WEIGHT_SLOTS`] per sample row-major (each sample sums to 255), or
    /// empty (unchanged).
    pub weights: Vec<u8>,
}

/// The painted layers of a grid (both start unallocated: all default). Equality compares
/// values, not allocation: an unallocated layer equals an allocated one at its defaults.
#[derive(Clone, Debug, Default)]
pub struct PaintLayers {
    samples: usize,
    user: Vec<u8>,
    weights: Vec<u8>,
}

impl PartialEq for PaintLayers {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &[u8], b: &[u8], default: &dyn Fn(usize) -> u8| match (
            a.is_empty(),
            b.is_empty(),
        ) {
            (true, true) => true,
            (false, false) => a == b,
            (true, false) => b.iter().enumerate().all(|(i, &v)| v == default(i)),
            (false, true) => a.iter().enumerate().all(|(i, &v)| v == default(i)),
        };
        self.samples == other.samples
            && same(&self.user, &other.user, &|_| 0)
            && same(&self.weights, &other.weights, &|i| {
                if i % WEIGHT_SLOTS == GENERATED {
                    255
                } else {
                    0
                }
            })
    }
}

impl Eq for PaintLayers {}

impl PaintLayers {
    /// Default layers for `samples` grid samples.
    pub fn new(samples: usize) -> Self {
        Self {
            samples,
            user: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// Layers of `samples` samples from their raw bytes (as [`Self::user_bytes`] and
    /// [`Self::weight_bytes`] give them; empty = default). Errors name what is wrong: a length
    /// that does not fit the grid, or a sample whose weights do not sum to 255.
    pub fn from_bytes(
        samples: usize,
        user: Vec<u8>,
        weights: Vec<u8>,
    ) -> std::result::Result<Self, String> {
        if !user.is_empty() && user.len() != samples * USER_CHANNELS {
            return Err(format!(
                "user channels hold {} bytes, the grid needs {} ({USER_CHANNELS} per sample)",
                user.len(),
                samples * USER_CHANNELS
            ));
        }
        if !weights.is_empty() && weights.len() != samples * WEIGHT_SLOTS {
            return Err(format!(
                "surface weights hold {} bytes, the grid needs {} ({WEIGHT_SLOTS} per sample)",
                weights.len(),
                samples * WEIGHT_SLOTS
            ));
        }
        if let Some(i) = weights
            .chunks_exact(WEIGHT_SLOTS)
            .position(|w| w.iter().map(|&b| b as u32).sum::<u32>() != 255)
        {
            return Err(format!(
                "the surface weights of sample {i} do not sum to 255"
            ));
        }
        Ok(Self {
            samples,
            user,
            weights,
        })
    }

    /// The number of grid samples the layers cover.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// True when no sample was ever painted (both layers at their defaults, unallocated).
    pub fn is_empty(&self) -> bool {
        self.user.is_empty() && self.weights.is_empty()
    }

    /// The raw user bytes (4 per sample) or empty when never written.
    pub fn user_bytes(&self) -> &[u8] {
        &self.user
    }

    /// The raw weight bytes ([`WEIGHT_SLOTS`] per sample) or empty when never painted.
    pub fn weight_bytes(&self) -> &[u8] {
        &self.weights
    }

    /// The stored byte of `channel` at sample `i` (0 where never written).
    #[inline]
    pub fn user(&self, i: usize, channel: usize) -> u8 {
        self.user
            .get(i * USER_CHANNELS + channel)
            .copied()
            .unwrap_or(0)
    }

    /// The stored weights of sample `i`.
    #[inline]
    pub fn weights(&self, i: usize) -> [u8; WEIGHT_SLOTS] {
        let mut w = [0u8; WEIGHT_SLOTS];
        match self.weights.get(i * WEIGHT_SLOTS..(i + 1) * WEIGHT_SLOTS) {
            Some(s) => w.copy_from_slice(s),
            None => w[GENERATED] = 255,
        }
        w
    }

    /// True when sample `i` carries paint (not all generated).
    #[inline]
    pub fn is_painted(&self, i: usize) -> bool {
        self.weights
            .get(i * WEIGHT_SLOTS + GENERATED)
            .is_some_and(|&g| g != 255)
    }

    /// The effective weight (0–255) of role `role` at sample `i` whose classified role is
    /// `classified`.
    #[inline]
    pub fn effective_weight(&self, i: usize, role: usize, classified: u8) -> u8 {
        let w = self.weights(i);
        let own = w.get(role).copied().unwrap_or(0) as u32;
        let generated = if role == classified as usize {
            w[GENERATED] as u32
        } else {
            0
        };
        (own + generated).min(255) as u8
    }

    /// The surface role of sample `i` whose classified role is `classified`: the strongest
    /// effective role (ties: the classified role, then the smaller id).
    #[inline]
    pub fn role(&self, i: usize, classified: u8) -> u8 {
        if !self.is_painted(i) {
            return classified;
        }
        let w = self.weights(i);
        let mut best = classified;
        let mut best_w = self.effective_weight(i, classified as usize, classified);
        for (r, &wr) in w[..SURFACES].iter().enumerate() {
            if r != classified as usize && wr > best_w {
                best = r as u8;
                best_w = wr;
            }
        }
        best
    }

    fn user_mut(&mut self) -> &mut Vec<u8> {
        if self.user.is_empty() {
            self.user = vec![0; self.samples * USER_CHANNELS];
        }
        &mut self.user
    }

    fn weights_mut(&mut self) -> &mut Vec<u8> {
        if self.weights.is_empty() {
            let mut w = vec![0; self.samples * WEIGHT_SLOTS];
            for s in w.chunks_exact_mut(WEIGHT_SLOTS) {
                s[GENERATED] = 255;
            }
            self.weights = w;
        }
        &mut self.weights
    }

    /// Resets `rect` (samples of a `w`-column grid) to the defaults.
    pub fn clear(&mut self, rect: Rect, w: usize) {
        for z in rect.z0..rect.z1 {
            let (a, b) = (z * w + rect.x0, z * w + rect.x1);
            if !self.user.is_empty() {
                self.user[a * USER_CHANNELS..b * USER_CHANNELS].fill(0);
            }
            if !self.weights.is_empty() {
                for s in
                    self.weights[a * WEIGHT_SLOTS..b * WEIGHT_SLOTS].chunks_exact_mut(WEIGHT_SLOTS)
                {
                    s.fill(0);
                    s[GENERATED] = 255;
                }
            }
        }
    }

    /// Copies `rect` of `other` (same grid) into these layers.
    pub fn copy_rect(&mut self, other: &PaintLayers, rect: Rect, w: usize) {
        if !other.user.is_empty() || !self.user.is_empty() {
            let src = other.user_or_default(rect, w);
            let dst = self.user_mut();
            write_rows(dst, &src, rect, w, USER_CHANNELS);
        }
        if !other.weights.is_empty() || !self.weights.is_empty() {
            let src = other.weights_or_default(rect, w);
            let dst = self.weights_mut();
            write_rows(dst, &src, rect, w, WEIGHT_SLOTS);
        }
    }

    /// The user bytes of `rect` (4 per sample, row-major).
    pub fn user_or_default(&self, rect: Rect, w: usize) -> Vec<u8> {
        if self.user.is_empty() {
            return vec![0; rect.area() * USER_CHANNELS];
        }
        read_rows(&self.user, rect, w, USER_CHANNELS)
    }

    /// The weight bytes of `rect` ([`WEIGHT_SLOTS`] per sample, row-major).
    pub fn weights_or_default(&self, rect: Rect, w: usize) -> Vec<u8> {
        if self.weights.is_empty() {
            let mut v = vec![0; rect.area() * WEIGHT_SLOTS];
            for s in v.chunks_exact_mut(WEIGHT_SLOTS) {
                s[GENERATED] = 255;
            }
            return v;
        }
        read_rows(&self.weights, rect, w, WEIGHT_SLOTS)
    }

    /// Applies one stroke (its every stamp, or its patch) inside `rect`.
    pub fn apply(&mut self, stroke: &Stroke, grid: &Grid, rect: Rect) {
        use super::stroke::Op;
        match &stroke.op {
            Op::PaintPatch(p) => self.apply_patch(p, grid, rect),
            Op::UserChannel(_) | Op::PaintSurface(_) => {
                for c in stroke.stamps() {
                    self.apply_stamp(stroke, grid, c, rect);
                }
            }
            _ => {}
        }
    }

    /// Applies the stamp of `stroke` centred at `c`, inside `rect`.
    pub fn apply_stamp(&mut self, stroke: &Stroke, grid: &Grid, c: [f32; 2], rect: Rect) {
        use super::stroke::Op;
        let r = stroke.stamp_rect(grid, c).intersect(&rect);
        if r.is_empty() {
            return;
        }
        let [w, _] = grid.samples();
        let b: &Brush = &stroke.brush;
        match &stroke.op {
            Op::UserChannel(u) => {
                let ch = u.channel as usize;
                let threshold = (1.0 - b.strength).max(0.05);
                let target = u.value;
                let user = self.user_mut();
                for z in r.z0..r.z1 {
                    for x in r.x0..r.x1 {
                        let [px, pz] = grid.sample_position(x, z);
                        let fade = b.fade(px - c[0], pz - c[1]);
                        if fade <= 0.0 {
                            continue;
                        }
                        let slot = &mut user[(z * w + x) * USER_CHANNELS + ch];
                        if u.id {
                            if fade >= threshold {
                                *slot = target as u8;
                            }
                        } else {
                            let t = b.strength * fade;
                            let v = *slot as f32 / 255.0;
                            let nv = v + (target - v) * t;
                            *slot = (nv * 255.0).round().clamp(0.0, 255.0) as u8;
                        }
                    }
                }
            }
            Op::PaintSurface(p) => {
                let role = p.surface as usize;
                let weights = self.weights_mut();
                for z in r.z0..r.z1 {
                    for x in r.x0..r.x1 {
                        let [px, pz] = grid.sample_position(x, z);
                        let fade = b.fade(px - c[0], pz - c[1]);
                        if fade <= 0.0 {
                            continue;
                        }
                        let i = (z * w + x) * WEIGHT_SLOTS;
                        let s = &mut weights[i..i + WEIGHT_SLOTS];
                        let coverage = b.strength * fade;
                        if p.blend {
                            blend_toward(s, role, coverage);
                        } else if coverage > dither_threshold(x, z) {
                            s.fill(0);
                            s[role] = 255;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn apply_patch(&mut self, p: &PaintPatch, grid: &Grid, rect: Rect) {
        let [w, _] = grid.samples();
        let r = p.rect.intersect(&rect);
        if r.is_empty() {
            return;
        }
        let pw = p.rect.width();
        let copy = |dst: &mut [u8], src: &[u8], k: usize| {
            for z in r.z0..r.z1 {
                let s = ((z - p.rect.z0) * pw + (r.x0 - p.rect.x0)) * k;
                let d = (z * w + r.x0) * k;
                let n = r.width() * k;
                dst[d..d + n].copy_from_slice(&src[s..s + n]);
            }
        };
        if !p.user.is_empty() {
            let dst = self.user_mut();
            copy(dst, &p.user, USER_CHANNELS);
        }
        if !p.weights.is_empty() {
            let dst = self.weights_mut();
            copy(dst, &p.weights, WEIGHT_SLOTS);
        }
    }
}

/// Moves slot `role` of `s` (summing to 255) toward 255 by `t` (0–1) and rescales the other
/// slots so the sum stays exactly 255.
pub fn blend_toward(s: &mut [u8], role: usize, t: f32) {
    let old = s[role] as u32;
    // Rounded up (less a hair for float error), so repeated blends reach 255 instead of
    // stalling one short.
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let add = if t > 0.0 {
        (((255 - old) as f32 * t) - 1e-3).ceil().max(0.0) as u32
    } else {
        0
    };
    let new = (old + add).min(255);
    if new == old {
        return;
    }
    let rest_old: u32 = 255 - old;
    let rest_new: u32 = 255 - new;
    // Scale the others by rest_new / rest_old (rest_old > 0 since old < new ≤ 255).
    let mut order = [(0u32, 0usize); WEIGHT_SLOTS];
    let mut n = 0;
    let mut total = 0u32;
    for (k, v) in s.iter_mut().enumerate() {
        if k == role {
            continue;
        }
        let num = *v as u32 * rest_new;
        *v = (num / rest_old) as u8;
        total += num / rest_old;
        if n < WEIGHT_SLOTS {
            order[n] = (num % rest_old, k);
            n += 1;
        }
    }
    s[role] = new as u8;
    // Largest remainder first, ties to the smaller slot.
    let order = &mut order[..n];
    order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let left = (rest_new - total) as usize;
    for &(_, k) in order.iter().take(left) {
        s[k] += 1;
    }
}

fn read_rows(src: &[u8], rect: Rect, w: usize, k: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(rect.area() * k);
    for z in rect.z0..rect.z1 {
        out.extend_from_slice(&src[(z * w + rect.x0) * k..(z * w + rect.x1) * k]);
    }
    out
}

fn write_rows(dst: &mut [u8], src: &[u8], rect: Rect, w: usize, k: usize) {
    let n = rect.width() * k;
    for (row, z) in (rect.z0..rect.z1).enumerate() {
        let d = (z * w + rect.x0) * k;
        dst[d..d + n].copy_from_slice(&src[row * n..row * n + n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_keeps_the_sum_and_converges() {
        let mut s = [0u8; WEIGHT_SLOTS];
        s[GENERATED] = 255;
        for step in 0..40 {
            blend_toward(&mut s, 2, 0.3);
            assert_eq!(s.iter().map(|&v| v as u32).sum::<u32>(), 255, "step {step}");
        }
        assert_eq!(s[2], 255);
        blend_toward(&mut s, 5, 0.5);
        assert_eq!(s.iter().map(|&v| v as u32).sum::<u32>(), 255);
        assert_eq!(s[5], 128);
        assert_eq!(s[2], 127);
        // Three-way split.
        blend_toward(&mut s, 0, 1.0 / 3.0);
        assert_eq!(s.iter().map(|&v| v as u32).sum::<u32>(), 255);
    }

    #[test]
    fn dither_thresholds_cover_their_share() {
        for k in 0..=16 {
            let strength = k as f32 / 16.0;
            let n = (0..4)
                .flat_map(|z| (0..4).map(move |x| (x, z)))
                .filter(|&(x, z)| strength > dither_threshold(x, z))
                .count();
            assert_eq!(n, k);
        }
    }

    #[test]
    fn roles_follow_effective_weights() {
        let mut p = PaintLayers::new(2);
        assert_eq!(p.role(0, 3), 3);
        assert_eq!(p.effective_weight(0, 3, 3), 255);
        let w = p.weights_mut();
        w[..WEIGHT_SLOTS].copy_from_slice(&[0, 100, 0, 0, 0, 0, 0, 0, 0, 155]);
        assert_eq!(p.role(0, 3), 3, "generated 155 beats grass 100");
        assert_eq!(p.role(0, 1), 1, "classified grass: 255");
        assert_eq!(p.effective_weight(0, 1, 1), 255);
        assert_eq!(p.effective_weight(0, 1, 3), 100);
        let w = p.weights_mut();
        w[..WEIGHT_SLOTS].copy_from_slice(&[0, 200, 0, 0, 0, 0, 0, 0, 0, 55]);
        assert_eq!(p.role(0, 3), 1);
        assert!(!p.is_painted(1));
    }
}
