//! Surface roles: which of nine material slots a sample shows.
//!
//! A material set binds each role to a material; the classification picks the role from the
//! sample's context. The first that applies wins:
//!
//! 1. **underwater** — covered by resolved water (each body's own coverage, or the inferred
//!    sea), so raised lakes and rivers get beds at their own level;
//! 2. **cliff** — slope ≥ `cliff_slope`;
//! 3. **snow** — the biome's `allow_snow`, height ≥ `snow_line` and slope ≤ `snow_max_slope`;
//! 4. **rock** — substrate rock: slope ≥ `rock_slope`, or erosion cut ≥ `cut_depth`;
//! 5. **sediment** — slope ≤ `loose_max_slope` and net deposition ≥ `deposit_depth`, or a
//!    concentrated flow path (stream bed);
//! 6. **wet_ground** / **sand** — a dry shore (water distance in `(0, shore_width]`, slope ≤
//!    `loose_max_slope`): wet ground when moisture ≥ `wet_shore_moisture`, else sand;
//! 7. **grass** — slope ≤ `grass_max_slope` and moisture ≥ `grass_moisture`;
//! 8. **ground** — everything else.
//!
//! **Triangles** take the majority role of their three vertices; when all three differ, the
//! first vertex decides. Vertex order follows the grid triangulation: the lower triangle of
//! cell (x, z) is `(x,z) (x+1,z) (x,z+1)`, the upper `(x+1,z) (x+1,z+1) (x,z+1)`.

use super::context::{SampleContext, SurfaceParams};
use super::substrate::Substrate;
use crate::grid::Grid;

/// A surface role. The discriminant is the stable id stored in payloads and control maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Plain ground (soil).
    Ground = 0,
    /// Flat, moist soil.
    Grass = 1,
    /// Bare rock: steep or eroded.
    Rock = 2,
    /// Very steep rock faces.
    Cliff = 3,
    /// Deposits and stream beds.
    Sediment = 4,
    /// Dry shores.
    Sand = 5,
    /// High ground where the biome allows snow.
    Snow = 6,
    /// Moist shores.
    WetGround = 7,
    /// Submerged beds.
    Underwater = 8,
}

impl Role {
    /// Every role, in id order.
    pub const ALL: [Role; 9] = [
        Role::Ground,
        Role::Grass,
        Role::Rock,
        Role::Cliff,
        Role::Sediment,
        Role::Sand,
        Role::Snow,
        Role::WetGround,
        Role::Underwater,
    ];

    /// The name a material set uses.
    pub fn name(self) -> &'static str {
        match self {
            Role::Ground => "ground",
            Role::Grass => "grass",
            Role::Rock => "rock",
            Role::Cliff => "cliff",
            Role::Sediment => "sediment",
            Role::Sand => "sand",
            Role::Snow => "snow",
            Role::WetGround => "wet_ground",
            Role::Underwater => "underwater",
        }
    }

    /// The role named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The role with stable id `id`.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.get(id as usize).copied()
    }

    /// The role of a sample (see the module docs); `allow_snow` is its biome's setting.
    #[inline(always)]
    pub fn of(ctx: &SampleContext, allow_snow: bool, p: &SurfaceParams) -> Self {
        Role::ALL[role_code(
            RoleInputs {
                covered: ctx.covered,
                slope: ctx.slope,
                allow_snow,
                height: ctx.height,
                rock: ctx.substrate == Substrate::Rock,
                erosion: ctx.erosion,
                river: ctx.river,
                water_distance: ctx.water_distance,
                moisture: ctx.moisture,
            },
            p,
        ) as usize]
    }
}

/// What [`role_code`] reads: the sample's context, flattened.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoleInputs {
    pub covered: bool,
    pub slope: f32,
    pub allow_snow: bool,
    pub height: f32,
    /// Substrate rock.
    pub rock: bool,
    pub erosion: f32,
    pub river: bool,
    pub water_distance: f32,
    pub moisture: f32,
}

/// The role id of a sample: the one definition [`Role::of`] and the row pass share.
///
/// Branch-free: every condition is evaluated and the first that holds (in the documented
/// order) is selected by a chain of selects written from the last rule to the first, which the
/// compiler turns into vector blends over a row. An `if` chain would mispredict on rough
/// terrain, and this runs for every sample.
#[inline(always)]
pub(crate) fn role_code(v: RoleInputs, p: &SurfaceParams) -> u8 {
    let loose = v.slope <= p.loose_max_slope;
    let shore = loose & p.is_shore(v.water_distance);
    let mut r = Role::Ground as u8;
    r = pick(
        (v.slope <= p.grass_max_slope) & (v.moisture >= p.grass_moisture),
        Role::Grass,
        r,
    );
    r = pick(shore, Role::Sand, r);
    r = pick(
        shore & (v.moisture >= p.wet_shore_moisture),
        Role::WetGround,
        r,
    );
    r = pick(
        loose & ((v.erosion >= p.deposit_depth) | v.river),
        Role::Sediment,
        r,
    );
    r = pick(v.rock, Role::Rock, r);
    r = pick(
        v.allow_snow & (v.height >= p.snow_line) & (v.slope <= p.snow_max_slope),
        Role::Snow,
        r,
    );
    r = pick(v.slope >= p.cliff_slope, Role::Cliff, r);
    pick(v.covered, Role::Underwater, r)
}

#[inline(always)]
fn pick(c: bool, role: Role, otherwise: u8) -> u8 {
    if c { role as u8 } else { otherwise }
}

/// The majority of three roles; the first when all differ.
#[inline]
pub fn majority(a: Role, b: Role, c: Role) -> Role {
    if b == c { b } else { a }
}

/// The role of triangle `upper` (false: lower) of cell (x, z), from per-sample `roles`.
#[inline]
pub fn triangle_role(grid: &Grid, roles: &[Role], x: usize, z: usize, upper: bool) -> Role {
    let at = |x, z| roles[grid.index(x, z)];
    if upper {
        majority(at(x + 1, z), at(x + 1, z + 1), at(x, z + 1))
    } else {
        majority(at(x, z), at(x + 1, z), at(x, z + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> SampleContext {
        SampleContext {
            height: 10.0,
            slope: 5.0,
            moisture: 0.3,
            water_distance: f32::INFINITY,
            covered: false,
            river: false,
            erosion: 0.0,
            substrate: Substrate::Soil,
        }
    }

    fn role(c: SampleContext, snow: bool, p: &SurfaceParams) -> Role {
        let c = SampleContext {
            substrate: Substrate::of(&c, p),
            ..c
        };
        Role::of(&c, snow, p)
    }

    #[test]
    fn each_role_from_its_context() {
        let p = SurfaceParams {
            snow_line: 100.0,
            ..Default::default()
        };
        let cases = [
            (ctx(), Role::Ground),
            (
                SampleContext {
                    moisture: 0.6,
                    ..ctx()
                },
                Role::Grass,
            ),
            (
                SampleContext {
                    slope: 40.0,
                    ..ctx()
                },
                Role::Rock,
            ),
            (
                SampleContext {
                    erosion: -1.0,
                    ..ctx()
                },
                Role::Rock,
            ),
            (
                SampleContext {
                    slope: 60.0,
                    ..ctx()
                },
                Role::Cliff,
            ),
            (
                SampleContext {
                    erosion: 0.5,
                    ..ctx()
                },
                Role::Sediment,
            ),
            (
                SampleContext {
                    river: true,
                    ..ctx()
                },
                Role::Sediment,
            ),
            (
                SampleContext {
                    water_distance: 2.0,
                    ..ctx()
                },
                Role::Sand,
            ),
            (
                SampleContext {
                    water_distance: 2.0,
                    moisture: 0.7,
                    ..ctx()
                },
                Role::WetGround,
            ),
            (
                SampleContext {
                    height: 120.0,
                    ..ctx()
                },
                Role::Snow,
            ),
            (
                SampleContext {
                    covered: true,
                    slope: 70.0,
                    ..ctx()
                },
                Role::Underwater,
            ),
        ];
        for (c, want) in cases {
            assert_eq!(role(c, true, &p), want, "{c:?}");
        }
        // Snow only where allowed; a steep high face stays rock.
        let high = SampleContext {
            height: 120.0,
            ..ctx()
        };
        assert_eq!(role(high, false, &p), Role::Ground);
        let steep_high = SampleContext {
            height: 120.0,
            slope: 45.0,
            ..ctx()
        };
        assert_eq!(role(steep_high, true, &p), Role::Rock);
    }

    #[test]
    fn names_ids_and_triangle_majority() {
        for (i, r) in Role::ALL.into_iter().enumerate() {
            assert_eq!(r as u8 as usize, i);
            assert_eq!(Role::from_id(i as u8), Some(r));
            assert_eq!(Role::parse(r.name()), Some(r));
        }
        assert_eq!(Role::from_id(9), None);
        use Role::*;
        assert_eq!(majority(Rock, Grass, Grass), Grass);
        assert_eq!(majority(Grass, Rock, Grass), Grass);
        assert_eq!(majority(Grass, Grass, Rock), Grass);
        assert_eq!(
            majority(Sand, Rock, Grass),
            Sand,
            "three-way tie: first vertex"
        );
        let g = Grid::new([2.0, 2.0], [2, 2], 2).unwrap();
        // Samples row-major: (0,0) (1,0) (2,0) / (0,1) (1,1) (2,1) / …
        let roles = [
            Rock, Sand, Ground, Grass, Cliff, Ground, Ground, Ground, Ground,
        ];
        assert_eq!(
            triangle_role(&g, &roles, 0, 0, false),
            Rock,
            "Rock, Sand, Grass"
        );
        assert_eq!(
            triangle_role(&g, &roles, 0, 0, true),
            Sand,
            "Sand, Cliff, Grass"
        );
        assert_eq!(
            triangle_role(&g, &roles, 1, 0, true),
            Ground,
            "Ground, Ground, Cliff"
        );
    }
}
