//! The biome id and surface role of every sample, packed.
//!
//! A classified surface keeps two values per sample: a biome id (`u16`, an index into the
//! biome table) and a role id (`u8`, [`super::Role`] 0..=8). Real surfaces use few distinct
//! (biome, role) pairs — a recipe's biomes times nine roles at most — so [`SampleClasses`]
//! stores **one byte per sample** indexing a table of the pairs that occur, as long as at most
//! 256 pairs occur (three bytes per sample otherwise: the plain biome and role arrays). A
//! 1025² surface takes 1.0 MB instead of 3.2 MB; reading a sample is one byte load plus a
//! lookup in a table that stays in cache.
//!
//! The form is an implementation detail: equality compares the pairs sample by sample, and a
//! write that would need a 257th pair widens the store once to the plain arrays.

/// A (biome id, role id) pair.
pub type Pair = (u16, u8);

/// Per-sample pairs at most this many distinct pairs are stored as one byte per sample.
pub const MAX_PAIRS: usize = 256;

/// Biome id and role id per sample (row-major on the terrain grid).
#[derive(Clone, Debug, Default)]
pub struct SampleClasses {
    store: Store,
}

#[derive(Clone, Debug)]
enum Store {
    /// `pairs[codes[i]]` is sample `i`'s (biome, role); `pairs.len() <= MAX_PAIRS`.
    Paired {
        pairs: Vec<(u16, u8)>,
        codes: Vec<u8>,
    },
    /// The plain arrays, when more than [`MAX_PAIRS`] pairs occur.
    Split { biomes: Vec<u16>, roles: Vec<u8> },
}

impl Default for Store {
    fn default() -> Self {
        Store::Paired {
            pairs: Vec::new(),
            codes: Vec::new(),
        }
    }
}

impl SampleClasses {
    /// Classes from the pairs of every sample, in sample order.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u16, u8)>) -> Self {
        let mut table = PairTable::default();
        let mut codes = Vec::new();
        let mut it = pairs.into_iter();
        codes.reserve(it.size_hint().0);
        for pair in it.by_ref() {
            match table.code(pair) {
                Some(c) => codes.push(c),
                None => {
                    // A 257th pair: the plain arrays from here on.
                    let pairs = table.pairs;
                    let mut biomes: Vec<u16> = codes.iter().map(|&c| pairs[c as usize].0).collect();
                    let mut roles: Vec<u8> = codes.iter().map(|&c| pairs[c as usize].1).collect();
                    biomes.push(pair.0);
                    roles.push(pair.1);
                    for (b, r) in it {
                        biomes.push(b);
                        roles.push(r);
                    }
                    return Self {
                        store: Store::Split { biomes, roles },
                    };
                }
            }
        }
        let mut pairs = table.pairs;
        pairs.shrink_to_fit();
        Self {
            store: Store::Paired { pairs, codes },
        }
    }

    /// Classes of `n` samples whose pairs `pair(i)` gives, computed on rayon's threads: the
    /// same classes as [`Self::from_pairs`] over `(0..n).map(pair)`, codes included (a pair's
    /// code is the order of its first occurrence). Blocks of samples find their own pairs in
    /// parallel; the blocks' pair lists are merged in sample order and each block's codes
    /// renumbered. Falls back to the serial path when more than [`MAX_PAIRS`] pairs occur.
    pub fn from_indexed(n: usize, pair: impl Fn(usize) -> (u16, u8) + Sync) -> Self {
        use rayon::prelude::*;
        const BLOCK: usize = 1 << 16;
        if n < 2 * BLOCK {
            return Self::from_pairs((0..n).map(pair));
        }
        let mut codes = vec![0u8; n];
        // Each block's pairs in order of first occurrence, or `None` past MAX_PAIRS.
        let locals: Vec<Option<Vec<(u16, u8)>>> = codes
            .par_chunks_mut(BLOCK)
            .enumerate()
            .map(|(b, out)| {
                let mut table = PairTable::default();
                for (k, c) in out.iter_mut().enumerate() {
                    *c = table.code(pair(b * BLOCK + k))?;
                }
                Some(table.pairs)
            })
            .collect();
        let mut global = PairTable::default();
        let mut renumber: Vec<Option<Vec<u8>>> = Vec::with_capacity(locals.len());
        for local in &locals {
            let Some(local) = local else {
                return Self::from_pairs((0..n).map(pair));
            };
            let mut map = Vec::with_capacity(local.len());
            for &p in local {
                match global.code(p) {
                    Some(c) => map.push(c),
                    None => return Self::from_pairs((0..n).map(pair)),
                }
            }
            let identity = map.iter().enumerate().all(|(i, &c)| c as usize == i);
            renumber.push((!identity).then_some(map));
        }
        codes
            .par_chunks_mut(BLOCK)
            .zip(renumber.par_iter())
            .for_each(|(out, map)| {
                if let Some(map) = map {
                    for c in out {
                        *c = map[*c as usize];
                    }
                }
            });
        let mut pairs = global.pairs;
        pairs.shrink_to_fit();
        Self {
            store: Store::Paired { pairs, codes },
        }
    }

    /// Classes from a pair table and one code per sample (sample `i` is `pairs[codes[i]]`), as
    /// [`Self::packed`] gives them. `Err(i)`: sample `i` is the first whose code has no pair,
    /// or `Err(usize::MAX)` when the table holds more than [`MAX_PAIRS`] pairs.
    pub fn from_packed(pairs: Vec<(u16, u8)>, codes: Vec<u8>) -> Result<Self, usize> {
        use rayon::prelude::*;
        const BLOCK: usize = 1 << 16;
        if pairs.len() > MAX_PAIRS {
            return Err(usize::MAX);
        }
        let bad = codes
            .par_chunks(BLOCK)
            .enumerate()
            .find_map_first(|(k, block)| {
                let at = block.iter().position(|&c| c as usize >= pairs.len())?;
                Some(k * BLOCK + at)
            });
        match bad {
            Some(i) => Err(i),
            None => Ok(Self {
                store: Store::Paired { pairs, codes },
            }),
        }
    }

    /// The pair table and one code per sample, while stored packed (see the module docs).
    pub fn packed(&self) -> Option<(&[Pair], &[u8])> {
        match &self.store {
            Store::Paired { pairs, codes } => Some((pairs, codes)),
            Store::Split { .. } => None,
        }
    }

    /// Classes from a biome id and a role id per sample. Samples past the shorter slice are
    /// dropped (callers pass equal lengths).
    pub fn from_ids(biomes: &[u16], roles: &[u8]) -> Self {
        Self::from_pairs(biomes.iter().copied().zip(roles.iter().copied()))
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Paired { codes, .. } => codes.len(),
            Store::Split { roles, .. } => roles.len(),
        }
    }

    /// True when no sample is classified.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (biome id, role id) of sample `i`; `None` out of range.
    #[inline]
    pub fn get(&self, i: usize) -> Option<(u16, u8)> {
        match &self.store {
            Store::Paired { pairs, codes } => codes.get(i).map(|&c| pairs[c as usize]),
            Store::Split { biomes, roles } => Some((*biomes.get(i)?, *roles.get(i)?)),
        }
    }

    /// Biome id of sample `i`; `None` out of range.
    #[inline]
    pub fn biome(&self, i: usize) -> Option<u16> {
        self.get(i).map(|p| p.0)
    }

    /// Role id of sample `i`; `None` out of range.
    #[inline]
    pub fn role(&self, i: usize) -> Option<u8> {
        self.get(i).map(|p| p.1)
    }

    /// Every sample's (biome id, role id), in sample order.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (u16, u8)> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Every sample's biome id, in sample order.
    pub fn biomes(&self) -> impl ExactSizeIterator<Item = u16> + '_ {
        self.pairs().map(|p| p.0)
    }

    /// Every sample's role id, in sample order.
    pub fn roles(&self) -> impl ExactSizeIterator<Item = u8> + '_ {
        self.pairs().map(|p| p.1)
    }

    /// Every sample's biome id clamped to 255 and role id, one byte each, as two vectors (what
    /// the control map encodes), filled on rayon's threads.
    pub fn byte_ids(&self) -> (Vec<u8>, Vec<u8>) {
        use rayon::prelude::*;
        const BLOCK: usize = 1 << 16;
        let n = self.len();
        let (mut biomes, mut roles) = (vec![0u8; n], vec![0u8; n]);
        let split = biomes
            .par_chunks_mut(BLOCK)
            .zip(roles.par_chunks_mut(BLOCK))
            .enumerate();
        match &self.store {
            Store::Paired { pairs, codes } => {
                let biome: Vec<u8> = pairs.iter().map(|p| p.0.min(255) as u8).collect();
                let role: Vec<u8> = pairs.iter().map(|p| p.1).collect();
                split.for_each(|(k, (b, r))| {
                    let codes = &codes[k * BLOCK..k * BLOCK + b.len()];
                    for ((b, r), &c) in b.iter_mut().zip(r.iter_mut()).zip(codes) {
                        (*b, *r) = (biome[c as usize], role[c as usize]);
                    }
                });
            }
            Store::Split {
                biomes: ids,
                roles: rs,
            } => split.for_each(|(k, (b, r))| {
                let at = k * BLOCK..k * BLOCK + b.len();
                for (b, &id) in b.iter_mut().zip(&ids[at.clone()]) {
                    *b = id.min(255) as u8;
                }
                r.copy_from_slice(&rs[at]);
            }),
        }
        (biomes, roles)
    }

    /// The biome ids as a vector (exports, tests).
    pub fn biome_vec(&self) -> Vec<u16> {
        self.biomes().collect()
    }

    /// The role ids as a vector (exports, tests).
    pub fn role_vec(&self) -> Vec<u8> {
        self.roles().collect()
    }

    /// Sets sample `i` to (`biome`, `role`); ignored out of range. Returns true when the
    /// sample changed.
    pub fn set(&mut self, i: usize, biome: u16, role: u8) -> bool {
        if self.get(i).is_none_or(|p| p == (biome, role)) {
            return false;
        }
        match &mut self.store {
            Store::Paired { pairs, codes } => {
                let code = match pairs.iter().position(|&p| p == (biome, role)) {
                    Some(c) => c,
                    None if pairs.len() < MAX_PAIRS => {
                        pairs.push((biome, role));
                        pairs.len() - 1
                    }
                    None => {
                        self.widen();
                        return self.set(i, biome, role);
                    }
                };
                codes[i] = code as u8;
            }
            Store::Split { biomes, roles } => {
                biomes[i] = biome;
                roles[i] = role;
            }
        }
        true
    }

    /// Sets the role of sample `i`, keeping its biome. Returns true when it changed.
    pub fn set_role(&mut self, i: usize, role: u8) -> bool {
        match self.get(i) {
            Some((b, _)) => self.set(i, b, role),
            None => false,
        }
    }

    /// Copies samples `range` from `other` (same length; ignored otherwise).
    pub fn copy_range(&mut self, other: &SampleClasses, range: std::ops::Range<usize>) {
        if other.len() != self.len() || range.end > self.len() {
            return;
        }
        for i in range {
            if let Some((b, r)) = other.get(i) {
                self.set(i, b, r);
            }
        }
    }

    /// Bytes held on the heap (memory reports).
    pub fn heap_bytes(&self) -> usize {
        match &self.store {
            Store::Paired { pairs, codes } => {
                pairs.capacity() * std::mem::size_of::<(u16, u8)>() + codes.capacity()
            }
            Store::Split { biomes, roles } => biomes.capacity() * 2 + roles.capacity(),
        }
    }

    /// True while stored as one byte per sample (tests, reports).
    pub fn is_packed(&self) -> bool {
        matches!(self.store, Store::Paired { .. })
    }

    fn widen(&mut self) {
        if let Store::Paired { .. } = self.store {
            let (biomes, roles) = (self.biome_vec(), self.role_vec());
            self.store = Store::Split { biomes, roles };
        }
    }
}

impl PartialEq for SampleClasses {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.pairs().eq(other.pairs())
    }
}

impl Eq for SampleClasses {}

/// The pairs met so far and their codes.
#[derive(Default)]
struct PairTable {
    pairs: Vec<(u16, u8)>,
    /// Code + 1 of each pair met with a role below 16, by `biome << 4 | role` (0: not met);
    /// grown to the largest biome id met.
    by_key: Vec<u16>,
    /// Codes of pairs with larger role ids (never from a classification; kept for any input).
    other: std::collections::HashMap<(u16, u8), u8>,
    /// The pair met last and its code (neighbouring samples mostly share theirs).
    last: Option<((u16, u8), u8)>,
}

impl PairTable {
    /// The code of `pair`, adding it; `None` when it would be the 257th.
    #[inline]
    fn code(&mut self, pair: (u16, u8)) -> Option<u8> {
        if let Some((p, c)) = self.last
            && p == pair
        {
            return Some(c);
        }
        let key = (pair.1 < 16).then_some((pair.0 as usize) << 4 | pair.1 as usize);
        let known = match key {
            Some(k) => match self.by_key.get(k) {
                Some(&c) if c > 0 => Some((c - 1) as u8),
                _ => None,
            },
            None => self.other.get(&pair).copied(),
        };
        let code = match known {
            Some(c) => c,
            None if self.pairs.len() >= MAX_PAIRS => return None,
            None => {
                let c = self.pairs.len() as u8;
                self.pairs.push(pair);
                match key {
                    Some(k) => {
                        if k >= self.by_key.len() {
                            self.by_key.resize((k | 15) + 1, 0);
                        }
                        self.by_key[k] = u16::from(c) + 1;
                    }
                    None => {
                        self.other.insert(pair, c);
                    }
                }
                c
            }
        };
        self.last = Some((pair, code));
        Some(code)
    }
}

#[cfg(test)]
#[path = "sample_classes_tests.rs"]
mod tests;
