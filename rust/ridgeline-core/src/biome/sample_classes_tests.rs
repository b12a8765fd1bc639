use super::*;

fn plain(n: usize, distinct: usize) -> (Vec<u16>, Vec<u8>) {
    let biomes = (0..n)
        .map(|i| ((i * 7 / 3) % distinct / 9) as u16)
        .collect();
    let roles = (0..n).map(|i| ((i * 7 / 3) % distinct % 9) as u8).collect();
    (biomes, roles)
}

#[test]
fn few_pairs_pack_to_one_byte_per_sample_and_read_back() {
    let (b, r) = plain(10_000, 40);
    let c = SampleClasses::from_ids(&b, &r);
    assert!(c.is_packed());
    assert_eq!(c.len(), 10_000);
    assert_eq!(c.biome_vec(), b);
    assert_eq!(c.role_vec(), r);
    assert_eq!(c.get(123), Some((b[123], r[123])));
    assert_eq!(c.get(10_000), None);
    assert!(c.heap_bytes() < 10_000 + 40 * 4 + 64, "{}", c.heap_bytes());
    // Large biome ids and out-of-range role ids (a classification never makes them) still pack.
    let odd = SampleClasses::from_ids(&[60_000, 60_000, 2, 2], &[20, 200, 20, 3]);
    assert!(odd.is_packed());
    assert_eq!(odd.biome_vec(), vec![60_000, 60_000, 2, 2]);
    assert_eq!(odd.role_vec(), vec![20, 200, 20, 3]);
}

#[test]
fn a_257th_pair_widens_to_plain_arrays_both_when_built_and_when_set() {
    let (b, r) = plain(5_000, 257);
    let built = SampleClasses::from_ids(&b, &r);
    assert!(!built.is_packed());
    assert_eq!(
        (built.biome_vec(), built.role_vec()),
        (b.clone(), r.clone())
    );

    let (b256, r256) = plain(5_000, 256);
    let mut c = SampleClasses::from_ids(&b256, &r256);
    assert!(c.is_packed());
    assert!(!c.set(0, b256[0], r256[0]), "same pair: no change");
    assert!(c.set(17, 900, 3), "a new pair");
    assert!(!c.is_packed());
    let mut expect = (b256, r256);
    expect.0[17] = 900;
    expect.1[17] = 3;
    assert_eq!((c.biome_vec(), c.role_vec()), expect);
}

#[test]
fn equality_compares_samples_not_the_table_order() {
    let a = SampleClasses::from_ids(&[1, 2, 1], &[0, 5, 0]);
    let mut b = SampleClasses::from_ids(&[2, 2, 1], &[5, 5, 0]);
    assert_ne!(a, b);
    assert!(b.set(0, 1, 0));
    assert_eq!(a, b, "(2,5) came first in b's table");
    let split = SampleClasses::from_ids(&(0..300).collect::<Vec<u16>>(), &[0; 300]);
    let mut packed = SampleClasses::from_ids(&[0; 300], &[0; 300]);
    for i in 0..256 {
        packed.set(i, i as u16, 0);
    }
    assert!(packed.is_packed());
    for i in 256..300 {
        packed.set(i, i as u16, 0);
    }
    assert_eq!(packed, split);
}

#[test]
fn set_role_and_copy_range_touch_only_what_they_name() {
    let mut a = SampleClasses::from_ids(&[0; 6], &[1; 6]);
    let b = SampleClasses::from_ids(&[3; 6], &[4; 6]);
    assert!(a.set_role(2, 7));
    assert!(!a.set_role(9, 7), "out of range");
    a.copy_range(&b, 4..6);
    assert_eq!(a.biome_vec(), vec![0, 0, 0, 0, 3, 3]);
    assert_eq!(a.role_vec(), vec![1, 1, 7, 1, 4, 4]);
    a.copy_range(&SampleClasses::default(), 0..1);
    assert_eq!(a.get(0), Some((0, 1)), "a different length is ignored");
}

#[test]
fn from_indexed_equals_from_pairs_code_for_code() {
    // Pairs that first occur in later blocks, in a different order per block, and blocks that
    // repeat earlier pairs: the parallel build must number them exactly as the serial one.
    let pair = |i: usize| {
        let block = i >> 16;
        let biome = ((i / 7 + block * 3) % (4 + block)) as u16;
        let role = ((i / 1000 + block) % 9) as u8;
        (biome, role)
    };
    for n in [10, (1 << 17) - 1, 5 * (1 << 16) + 123] {
        let serial = SampleClasses::from_pairs((0..n).map(pair));
        let parallel = SampleClasses::from_indexed(n, pair);
        match (&serial.store, &parallel.store) {
            (Store::Paired { pairs: a, codes: x }, Store::Paired { pairs: b, codes: y }) => {
                assert_eq!(a, b, "pair tables differ at n = {n}");
                assert!(x == y, "codes differ at n = {n}");
            }
            _ => panic!("both stay packed at n = {n}"),
        }
    }
}

#[test]
fn from_indexed_widens_past_256_pairs_like_from_pairs() {
    // 300 distinct pairs within every block: the serial path's plain arrays.
    let n = 4 * (1 << 16);
    let pair = |i: usize| ((i % 300) as u16, (i % 3) as u8);
    let serial = SampleClasses::from_pairs((0..n).map(pair));
    let parallel = SampleClasses::from_indexed(n, pair);
    assert!(!serial.is_packed() && !parallel.is_packed());
    assert_eq!(serial, parallel);
    // Few pairs per block but more than 256 over the whole grid: widened too.
    let pair = |i: usize| ((i >> 16) as u16 * 100 + (i % 100) as u16, 0u8);
    let serial = SampleClasses::from_pairs((0..n).map(pair));
    let parallel = SampleClasses::from_indexed(n, pair);
    assert!(!serial.is_packed() && !parallel.is_packed());
    assert_eq!(serial, parallel);
}

#[test]
fn byte_ids_clamp_biomes_and_copy_roles_in_both_stores() {
    let n = 3 * (1 << 16) + 77;
    // Packed: biome ids up to 300 (clamped to 255), few pairs.
    let packed = SampleClasses::from_indexed(n, |i| ((i % 5) as u16 * 75, (i % 9) as u8));
    assert!(packed.is_packed());
    // Plain arrays: more than 256 pairs.
    let split = SampleClasses::from_pairs((0..n).map(|i| ((i % 400) as u16, (i % 9) as u8)));
    assert!(!split.is_packed());
    for c in [&packed, &split] {
        let (b, r) = c.byte_ids();
        assert_eq!(b.len(), n);
        let want_b: Vec<u8> = c.biomes().map(|b| b.min(255) as u8).collect();
        assert!(b == want_b, "biome bytes differ");
        assert!(r == c.role_vec(), "role bytes differ");
    }
}

#[test]
fn from_packed_takes_back_what_packed_gives_and_locates_a_code_without_a_pair() {
    let n = 2 * (1 << 16) + 9;
    let c = SampleClasses::from_indexed(n, |i| ((i % 4) as u16, (i % 7) as u8));
    let (pairs, codes) = c.packed().expect("few pairs pack");
    let back = SampleClasses::from_packed(pairs.to_vec(), codes.to_vec()).unwrap();
    assert_eq!(back, c);
    assert_eq!(back.packed(), c.packed());
    let mut bad = codes.to_vec();
    bad[(1 << 16) + 3] = pairs.len() as u8;
    bad[(1 << 16) + 8] = 255;
    assert_eq!(
        SampleClasses::from_packed(pairs.to_vec(), bad).unwrap_err(),
        (1 << 16) + 3
    );
    let too_many = (0..300).map(|b| (b as u16, 0u8)).collect();
    assert_eq!(
        SampleClasses::from_packed(too_many, vec![0; 4]).unwrap_err(),
        usize::MAX
    );
    let wide = SampleClasses::from_pairs((0..300).map(|b| (b as u16, 0u8)));
    assert!(wide.packed().is_none());
}
