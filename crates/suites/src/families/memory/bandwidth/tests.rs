//! Unit tests of the reads' names, data and group starts.

use super::*;

#[test]
fn names_and_sizes_derive_from_the_enums() {
    let tests = Bandwidth.tests();
    assert_eq!(tests.len(), Resource::ALL.len() * SIZES);
    assert_eq!(
        Bandwidth.test_name(tests[9 * SIZES].1, tests[9 * SIZES].2),
        "bandwidth: Texture2D<RGBA32F>.Load 4 KB"
    );
    let name = |i: usize| Bandwidth.test_name(tests[i].1, tests[i].2);
    assert_eq!(name(0), "bandwidth: ByteAddressBuffer.Load4 4 KB");
    assert_eq!(name(SIZES - 1), "bandwidth: ByteAddressBuffer.Load4 1 GB");
    assert_eq!(
        name(SIZES + 64),
        "bandwidth: StructuredBuffer<float4>.Load 256 MB"
    );
    assert_eq!(LARGE_POOL_BYTES, 1 << 30);
    // The kernel's SMALL_POOL_LOADS.
    assert_eq!(SMALL_POOL_BYTES / 16, 4_194_304);
    let mut names: Vec<String> = (0..tests.len()).map(name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), tests.len());
}

#[test]
fn the_data_is_floats_of_their_own() {
    let words: Vec<u32> = (0..4096).map(word).collect();
    assert!(words
        .iter()
        .all(|w| (1.0..2.0).contains(&f32::from_bits(*w))));
    let mut distinct = words.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 4000);
}

#[test]
fn each_group_reads_its_own_part_of_a_large_set() {
    // A set of 4 KB of uvec4 (256 loads): every group reads it whole, the same sum.
    let small = Variant {
        resource: Resource::RawBuffer,
        size: 0,
    };
    let word = |e: u32| word(e as u64);
    assert_eq!(group_sum(small, 0, &word), group_sum(small, 7, &word));
    // 4 MB (262144 loads): each group reads its own chunk, from its own start.
    let large = Variant {
        resource: Resource::RawBuffer,
        size: 40,
    };
    assert_eq!(large.bytes(), 4 << 20);
    let sums: Vec<u32> = (0..8).map(|g| group_sum(large, g, &word)).collect();
    let mut distinct = sums.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), sums.len(), "{sums:?}");
    let starts: Vec<u32> = (0..1000).map(|g| group_start(g, large.loads())).collect();
    assert!(starts.iter().all(|s| s % 8 == 0 && *s < large.loads()));
    // Spread over the set: every eighth of it holds some starts.
    for part in 0..8 {
        let (lo, hi) = (part * large.loads() / 8, (part + 1) * large.loads() / 8);
        assert!(starts.iter().any(|s| (lo..hi).contains(s)), "part {part}");
    }
    // Another word anywhere changes the sum.
    let other = |e: u32| if e == 5 { word(e) ^ 1 } else { word(e) };
    assert_ne!(group_sum(small, 0, &word), group_sum(small, 0, &other));
}
