//! Substrate: what the ground is made of at a sample — soil, rock, sand or wet — derived from
//! the surface rather than painted. Rules may require it (`substrate: ["rock", …]`).
//!
//! The first that applies wins:
//!
//! 1. **wet** — the sample is covered by water (see [`super::coverage`]), or it lies on a
//!    concentrated flow path (catchment ≥ `river_area`, when drainage is connected);
//! 2. **rock** — slope ≥ `rock_slope`, or erosion removed at least `cut_depth` there (cuts
//!    expose rock);
//! 3. **sand** — slope ≤ `loose_max_slope` and either a dry shore (water distance in
//!    `(0, shore_width]`) or net deposition ≥ `deposit_depth`;
//! 4. **soil** — everything else.

use super::context::{SampleContext, SurfaceParams};

/// What the ground is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Substrate {
    /// Ordinary ground.
    Soil = 0,
    /// Bare rock: steep or eroded.
    Rock = 1,
    /// Loose deposits: shores and sediment.
    Sand = 2,
    /// Under water or on a stream.
    Wet = 3,
}

impl Substrate {
    /// Every substrate, in id order.
    pub const ALL: [Substrate; 4] = [
        Substrate::Soil,
        Substrate::Rock,
        Substrate::Sand,
        Substrate::Wet,
    ];

    /// Lower-case name, as recipes write it.
    pub fn name(self) -> &'static str {
        match self {
            Substrate::Soil => "soil",
            Substrate::Rock => "rock",
            Substrate::Sand => "sand",
            Substrate::Wet => "wet",
        }
    }

    /// The substrate named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The substrate of a sample whose other context values are known (`ctx.substrate` is
    /// ignored).
    #[inline(always)]
    pub fn of(ctx: &SampleContext, p: &SurfaceParams) -> Self {
        Substrate::ALL[substrate_code(
            ctx.covered | ctx.river,
            ctx.slope,
            ctx.erosion,
            ctx.water_distance,
            p,
        ) as usize]
    }
}

/// The substrate id of a sample (`wet` = covered or on a stream): the one definition
/// [`Substrate::of`] and the row pass share. Branch-free selects, last rule first, like
/// [`super::roles::Role::of`].
#[inline(always)]
pub(crate) fn substrate_code(
    wet: bool,
    slope: f32,
    erosion: f32,
    water_distance: f32,
    p: &SurfaceParams,
) -> u8 {
    let sand =
        (slope <= p.loose_max_slope) & (p.is_shore(water_distance) | (erosion >= p.deposit_depth));
    let rock = (slope >= p.rock_slope) | (erosion <= -p.cut_depth);
    let mut s = Substrate::Soil as u8;
    s = if sand { Substrate::Sand as u8 } else { s };
    s = if rock { Substrate::Rock as u8 } else { s };
    if wet { Substrate::Wet as u8 } else { s }
}

/// A set of substrates (a rule's `substrate` list). Empty means any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SubstrateSet(u8);

impl SubstrateSet {
    /// The empty set (a rule without a substrate condition).
    pub const ANY: SubstrateSet = SubstrateSet(0);

    /// The set of `items`.
    pub fn of(items: &[Substrate]) -> Self {
        Self(items.iter().fold(0, |m, &s| m | 1 << s as u8))
    }
    /// True when no substrate is listed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// True when `s` is listed.
    pub fn contains(self, s: Substrate) -> bool {
        self.0 & (1 << s as u8) != 0
    }
    /// Listed substrates, in id order.
    pub fn iter(self) -> impl Iterator<Item = Substrate> {
        Substrate::ALL
            .into_iter()
            .filter(move |&s| self.contains(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> SampleContext {
        SampleContext {
            height: 10.0,
            slope: 5.0,
            moisture: 0.5,
            water_distance: f32::INFINITY,
            covered: false,
            river: false,
            erosion: 0.0,
            substrate: Substrate::Soil,
        }
    }

    #[test]
    fn order_is_wet_rock_sand_soil() {
        let p = SurfaceParams::default();
        assert_eq!(Substrate::of(&ctx(), &p), Substrate::Soil);
        let wet = SampleContext {
            covered: true,
            slope: 60.0,
            ..ctx()
        };
        assert_eq!(Substrate::of(&wet, &p), Substrate::Wet);
        let stream = SampleContext {
            river: true,
            ..ctx()
        };
        assert_eq!(Substrate::of(&stream, &p), Substrate::Wet);
        let steep = SampleContext {
            slope: p.rock_slope,
            water_distance: 1.0,
            ..ctx()
        };
        assert_eq!(Substrate::of(&steep, &p), Substrate::Rock);
        let cut = SampleContext {
            erosion: -p.cut_depth,
            ..ctx()
        };
        assert_eq!(Substrate::of(&cut, &p), Substrate::Rock);
        let shore = SampleContext {
            water_distance: 2.0,
            ..ctx()
        };
        assert_eq!(Substrate::of(&shore, &p), Substrate::Sand);
        let deposit = SampleContext {
            erosion: p.deposit_depth,
            ..ctx()
        };
        assert_eq!(Substrate::of(&deposit, &p), Substrate::Sand);
        let steep_shore = SampleContext {
            water_distance: 2.0,
            slope: 25.0,
            ..ctx()
        };
        assert_eq!(Substrate::of(&steep_shore, &p), Substrate::Soil);
    }

    #[test]
    fn names_and_sets() {
        for s in Substrate::ALL {
            assert_eq!(Substrate::parse(s.name()), Some(s));
        }
        assert_eq!(Substrate::parse("mud"), None);
        let set = SubstrateSet::of(&[Substrate::Wet, Substrate::Rock]);
        assert!(set.contains(Substrate::Rock) && !set.contains(Substrate::Soil));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Substrate::Rock, Substrate::Wet]
        );
        assert!(SubstrateSet::ANY.is_empty());
    }
}
