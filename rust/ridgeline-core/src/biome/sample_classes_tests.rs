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
