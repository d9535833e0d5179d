//! Deterministic input data, format decoding, and the CPU references that `--verify` compares with.

use crate::format::Format;
use crate::model::Pattern;

/// Size of the input every test reads from (the original's 16 KB working set).
pub const INPUT_BYTES: usize = 16 * 1024;
/// Width and height of the test textures.
pub const TEXTURE_SIZE: u32 = 32;

/// The 16 KB of input, identical on every run and machine.
///
/// Every 32-bit word is a normal float in ±[2^-6, 16); its upper and lower 16-bit halves are
/// normal half floats in ±[1, 4) and ±[2^-3, 16), so every view of the same bytes (R8 … RGBA32F,
/// raw words) reads finite, non-zero, non-denormal values, and neighbouring channels differ, so
/// a swapped or dropped channel changes the sums.
pub fn input() -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::with_capacity(INPUT_BYTES);
    for _ in 0..INPUT_BYTES / 4 {
        let r = splitmix64(&mut state);
        let sign = (r & 1) as u32;
        let exp32 = 121 + ((r >> 1) % 10) as u32; // 2^-6 .. 2^3
        let mant7 = ((r >> 8) & 0x7F) as u32;
        let half_sign = ((r >> 16) & 1) as u32;
        let half_exp = 12 + ((r >> 17) % 7) as u32; // 2^-3 .. 2^3
        let half_mant = ((r >> 24) & 0x3FF) as u32;
        let low = (half_sign << 15) | (half_exp << 10) | half_mant;
        let word = (sign << 31) | (exp32 << 23) | (mant7 << 16) | low;
        out.extend_from_slice(&word.to_le_bytes());
    }
    out
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn word_bytes(bytes: &[u8], at: usize) -> [u8; 4] {
    [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
}

/// A random cycle through `0..n` (Sattolo's shuffle), from a splitmix64 stream started at
/// `state`: `next[i]` follows `i`, and walking it from any point visits every element once
/// before it returns. The chases' chains (each family seeds it from the input, the size and
/// the chain, so that `--fault reference` changes them).
pub fn random_cycle(mut state: u64, n: u32) -> Vec<u32> {
    let mut next: Vec<u32> = (0..n).collect();
    for i in (1..n as usize).rev() {
        let j = (splitmix64(&mut state) % i as u64) as usize;
        next.swap(i, j);
    }
    next
}

/// The 32-bit float at word `index` of `input`.
pub fn word(input: &[u8], index: usize) -> f32 {
    f32::from_le_bytes(word_bytes(input, 4 * index))
}

/// Widens a load of `width` channels to four the way the kernels do (.xxxx, .xyxy, .xyzx, .xyzw).
pub fn widen(v: [f32; 4], width: u32) -> [f32; 4] {
    match width {
        1 => [v[0]; 4],
        2 => [v[0], v[1], v[0], v[1]],
        3 => [v[0], v[1], v[2], v[0]],
        _ => v,
    }
}

/// Start element of thread `local` in a 1-D kernel (mirrors `glsl/common.glsl`).
pub fn start_1d(pattern: Pattern, local: u32) -> u32 {
    match pattern.start() {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 15,
        _ => 0,
    }
}

/// Start texel of thread `(x, y)` in a 2-D kernel (mirrors `glsl/common.glsl`).
pub fn start_2d(pattern: Pattern, x: u32, y: u32) -> (u32, u32) {
    match pattern.start() {
        Pattern::Linear => (x, y),
        Pattern::Random => (
            x.wrapping_mul(0x3504_f333) & 4,
            y.wrapping_mul(0x3504_f333) & 4,
        ),
        _ => (0, 0),
    }
}

/// What one thread of the reference computes: its sum, and the sum of absolute terms
/// (the scale that tolerances are relative to).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThreadSum {
    /// The vec4 the kernel writes.
    pub sum: [f32; 4],
    /// Σ|term| per component.
    pub magnitude: [f32; 4],
}

impl ThreadSum {
    /// Adds one loaded (widened) value.
    pub fn add(&mut self, v: [f32; 4]) {
        for ((sum, magnitude), x) in self.sum.iter_mut().zip(&mut self.magnitude).zip(v) {
            *sum += x;
            *magnitude += x.abs();
        }
    }
}

/// `words` consecutive 32-bit floats of `input` from word `first` (the rest 0).
pub fn words(input: &[u8], first: usize, words: u32) -> [f32; 4] {
    let mut v = [0.0; 4];
    for (w, out) in v.iter_mut().enumerate().take(words as usize) {
        *out = word(input, first + w);
    }
    v
}

/// The texel at `(x, y)` of the test texture of `format` (REPEAT addressing).
pub fn texel(format: Format, input: &[u8], x: u32, y: u32) -> [f32; 4] {
    let (x, y) = (x % TEXTURE_SIZE, y % TEXTURE_SIZE);
    let offset = ((y * TEXTURE_SIZE + x) * format.bytes()) as usize;
    format.decode(&input[offset..])
}

/// The reference of a 2-D kernel that reads the test texture of `format` texel by texel
/// ([`sum_2d`] of [`texel`], widened to the channels the kernel adds).
pub fn sum_texels(format: Format, pattern: Pattern, input: &[u8]) -> Vec<ThreadSum> {
    sum_2d(pattern, |x, y| {
        widen(texel(format, input, x, y), format.channels())
    })
}

/// The reference of a 1-D kernel: each of the 256 threads of a group sums `load(start + i)`
/// for i in 0..256 (every group is alike: start addresses depend only on the thread's index
/// in its group).
pub fn sum_1d(pattern: Pattern, load: impl Fn(u32) -> [f32; 4]) -> Vec<ThreadSum> {
    (0..256u32)
        .map(|local| {
            let start = start_1d(pattern, local);
            let mut acc = ThreadSum::default();
            for i in 0..256 {
                acc.add(load(start + i));
            }
            acc
        })
        .collect()
}

/// The reference of a 2-D kernel: each thread `(x, y)` of a 16×16 group sums
/// `load(start + (i, j))` over a 16×16 block of texels.
pub fn sum_2d(pattern: Pattern, load: impl Fn(u32, u32) -> [f32; 4]) -> Vec<ThreadSum> {
    (0..256u32)
        .map(|local| {
            let (sx, sy) = start_2d(pattern, local % 16, local / 16);
            let mut acc = ThreadSum::default();
            for y in 0..16 {
                for x in 0..16 {
                    acc.add(load(sx + x, sy + y));
                }
            }
            acc
        })
        .collect()
}

/// The first place and component where what the GPU produced differs from the reference:
/// a thread's output, or an element of memory a write test wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// What `index` counts: `thread` (each thread's output) or `element`, `texel` (written memory).
    pub unit: &'static str,
    /// Index of the thread in the dispatch, or of the element in the written memory.
    pub index: usize,
    /// Component (0 = x … 3 = w).
    pub component: usize,
    /// The reference value, as text (exact for integers of any width).
    pub expected: String,
    /// What the GPU produced.
    pub got: String,
    /// How many threads (elements) differ.
    pub count: usize,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} .{}: expected {}, got {} ({} {}s differ)",
            self.unit,
            self.index,
            ["x", "y", "z", "w"][self.component],
            self.expected,
            self.got,
            self.count,
            self.unit
        )
    }
}

/// The first of `pairs` (expected, got) of 32-bit words that differ, as a mismatch counting
/// `unit`s (a group's checksum, a word of written memory): exact comparison.
pub fn compare_exact(
    unit: &'static str,
    pairs: impl Iterator<Item = (u32, u32)>,
) -> Result<(), Mismatch> {
    let (count, first) = first_difference(pairs.enumerate());
    exact_mismatch(unit, count, first)
}

/// As [`compare_exact`], over the `len` pairs `pair(i)` gives, on all the host's cores: a
/// gigabyte of written memory is 256M words, seconds of one core's time.
pub fn compare_exact_par(
    unit: &'static str,
    len: usize,
    pair: impl Fn(usize) -> (u32, u32) + Sync,
) -> Result<(), Mismatch> {
    let parts = in_parts(len, |range| first_difference(range.map(|i| (i, pair(i)))));
    let count = parts.iter().map(|p| p.0).sum();
    exact_mismatch(unit, count, parts.iter().find_map(|p| p.1))
}

/// How many of the indexed (expected, got) pairs differ, and the first that does.
fn first_difference(
    pairs: impl Iterator<Item = (usize, (u32, u32))>,
) -> (usize, Option<(usize, u32, u32)>) {
    let (mut count, mut first) = (0, None);
    for (i, (want, got)) in pairs {
        if want != got {
            count += 1;
            first.get_or_insert((i, want, got));
        }
    }
    (count, first)
}

/// The mismatch of `count` differing words, the first at `first` (index, expected, got).
fn exact_mismatch(
    unit: &'static str,
    count: usize,
    first: Option<(usize, u32, u32)>,
) -> Result<(), Mismatch> {
    match first {
        None => Ok(()),
        Some((index, want, got)) => Err(Mismatch {
            unit,
            index,
            component: 0,
            expected: format!("{want:#010x}"),
            got: format!("{got:#010x}"),
            count,
        }),
    }
}

/// `part(range)` for consecutive ranges that split `0..len` among the host's cores (none
/// shorter than 65536, so small inputs stay on one thread), in order.
pub fn in_parts<R: Send>(len: usize, part: impl Fn(std::ops::Range<usize>) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let per = len.div_ceil(threads).max(1 << 16);
    let part = &part;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..len.div_ceil(per))
            .map(|k| s.spawn(move || part(k * per..((k + 1) * per).min(len))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker thread"))
            .collect()
    })
}

/// Fills `out` in consecutive parts on the host's cores, each through the same part of
/// `scratch` (host memory as long as `out`): the part zeroed, `fill(first, part)`, then copied
/// into `out` in one pass — `out` may be write-combined memory, which the fills' scattered
/// word writes would crawl through. `first` is the index of the part's first `unit` of bytes;
/// every part is whole units, and none shorter than a MB unless a unit is (small data stays
/// on one thread).
pub fn fill_in_parts(
    scratch: &mut [u8],
    out: &mut [u8],
    unit: usize,
    fill: impl Fn(usize, &mut [u8]) + Sync,
) {
    assert_eq!(scratch.len(), out.len(), "a scratch part for every part");
    let units = out.len() / unit;
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let per = units.div_ceil(threads).max((1 << 20) / unit).max(1) * unit;
    let fill = &fill;
    std::thread::scope(|s| {
        for (k, (part, to)) in scratch.chunks_mut(per).zip(out.chunks_mut(per)).enumerate() {
            s.spawn(move || {
                part.fill(0);
                fill(k * per / unit, part);
                to.copy_from_slice(part);
            });
        }
    });
}

/// `f` of every item, in order, on all the host's cores: each thread takes the next item when
/// it is done with its last (items may differ much in cost).
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_on(usize::MAX, items, f)
}

/// As [`par_map`], on at most `most` threads.
pub fn par_map_on<T: Sync, R: Send>(
    most: usize,
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(most)
        .min(items.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (f, next) = (&f, &next);
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The little-endian 32-bit words of `bytes`.
pub fn le_words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Compares a dispatch's output (one vec4 per thread) with the per-group reference.
/// `rel` is the tolerance as a fraction of each component's Σ|term|.
pub fn compare(rel: f32, reference: &[ThreadSum], output: &[[f32; 4]]) -> Result<(), Mismatch> {
    compare_with(rel, reference, output.len(), |i| output[i])
}

/// As [`compare`], over the `len` threads whose output `got(thread)` reads (e.g. straight
/// from mapped memory), on all the host's cores: a verify of millions of threads per test,
/// thousands of tests.
pub fn compare_with(
    rel: f32,
    reference: &[ThreadSum],
    len: usize,
    got: impl Fn(usize) -> [f32; 4] + Sync,
) -> Result<(), Mismatch> {
    let parts = in_parts(len, |range| {
        let mut first: Option<Mismatch> = None;
        let mut count = 0;
        for thread in range {
            let got = got(thread);
            let want = &reference[thread % reference.len()];
            let bad = (0..4).find(|&c| {
                let tol = rel * want.magnitude[c].max(1.0);
                // Written so that a NaN from the GPU counts as a mismatch.
                #[allow(clippy::neg_cmp_op_on_partial_ord)]
                let bad = !((got[c] - want.sum[c]).abs() <= tol);
                bad
            });
            if let Some(c) = bad {
                count += 1;
                first.get_or_insert(Mismatch {
                    unit: "thread",
                    index: thread,
                    component: c,
                    expected: want.sum[c].to_string(),
                    got: got[c].to_string(),
                    count: 0,
                });
            }
        }
        (count, first)
    });
    let count = parts.iter().map(|p| p.0).sum();
    match parts.into_iter().find_map(|p| p.1) {
        None => Ok(()),
        Some(m) => Err(Mismatch { count, ..m }),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn par_map_gives_every_items_result_once_in_order() {
        // Items of very different cost, so that threads finish out of order.
        let items: Vec<u64> = (0..200)
            .map(|i| if i % 7 == 0 { 200_000 } else { i })
            .collect();
        let f = |&n: &u64| (0..n).fold(n, |a, k| a.wrapping_mul(31).wrapping_add(k));
        let want: Vec<u64> = items.iter().map(f).collect();
        assert_eq!(par_map(&items, f), want);
        assert_eq!(par_map_on(3, &items, f), want);
        assert_eq!(par_map(&[] as &[u64], f), Vec::<u64>::new());
    }

    #[test]
    fn a_fill_in_parts_is_the_fill_in_one_pass() {
        // Every unit's first half from its index, its second half left to the zeroing, over
        // enough units for several parts (and a tail shorter than a part), and for one.
        let unit = 16;
        let serial = |units: usize| -> Vec<u8> {
            (0..units as u64)
                .flat_map(|u| {
                    let mut bytes = [0u8; 16];
                    bytes[..8]
                        .copy_from_slice(&u.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes());
                    bytes
                })
                .collect()
        };
        for units in [0usize, 3, (1 << 16) + 1, 5 << 16] {
            // Stale bytes in both, as a reused band leaves them.
            let mut scratch = vec![0xAAu8; units * unit];
            let mut out = vec![0x55u8; units * unit];
            let parts = std::sync::Mutex::new(Vec::new());
            fill_in_parts(&mut scratch, &mut out, unit, |first, part| {
                parts.lock().unwrap().push((first, part.len() / unit));
                for (k, bytes) in part.chunks_exact_mut(unit).enumerate() {
                    let u = (first + k) as u64;
                    bytes[..8]
                        .copy_from_slice(&u.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes());
                }
            });
            assert!(out == serial(units), "{units} units");
            let mut parts = parts.into_inner().unwrap();
            parts.sort();
            // Consecutive, whole and covering every unit.
            let mut next = 0;
            for (first, len) in &parts {
                assert_eq!(*first, next, "{parts:?}");
                next += len;
            }
            assert_eq!(next, units, "{parts:?}");
            if units > 1 << 17 && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1) {
                assert!(parts.len() > 1, "{units} units in one part");
            }
        }
        // Units larger than a MB (an image's rows) still split over the cores.
        let (unit, units) = (3 << 20, 4);
        let (mut scratch, mut out) = (vec![1u8; unit * units], vec![2u8; unit * units]);
        let parts = std::sync::Mutex::new(0);
        fill_in_parts(&mut scratch, &mut out, unit, |first, part| {
            *parts.lock().unwrap() += 1;
            for (k, u) in part.chunks_exact_mut(unit).enumerate() {
                u[0] = (first + k) as u8 + 1;
            }
        });
        assert!(out
            .chunks(unit)
            .enumerate()
            .all(|(k, u)| u[0] == k as u8 + 1 && u[1..].iter().all(|&b| b == 0)));
        if std::thread::available_parallelism().is_ok_and(|n| n.get() > 1) {
            assert!(parts.into_inner().unwrap() > 1, "large units on one thread");
        }
    }

    use super::*;
    use crate::format::ChannelType;

    #[test]
    fn the_parallel_comparison_finds_what_the_serial_one_does() {
        for len in [0usize, 5, 70_000, 1 << 20] {
            let pair = |i: usize| (i as u32, if i % 99_991 == 7 { 1 } else { i as u32 });
            let serial = compare_exact("word", (0..len).map(pair));
            let parallel = compare_exact_par("word", len, pair);
            assert_eq!(format!("{serial:?}"), format!("{parallel:?}"), "{len}");
        }
    }

    #[test]
    fn every_view_of_the_input_is_finite_and_normal() {
        let data = input();
        assert_eq!(data.len(), INPUT_BYTES);
        for f in Format::ALL {
            for e in 0..INPUT_BYTES / f.bytes() as usize {
                for (c, v) in f.decode(&data[e * f.bytes() as usize..]).iter().enumerate() {
                    if c < f.channels() as usize && f.channel_type() != ChannelType::Unorm8 {
                        assert!(v.is_normal(), "{f:?} element {e} channel {c} = {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn channels_differ_so_swaps_are_visible() {
        let data = input();
        let t = Format::Rgba8.decode(&data[..]);
        assert!(t[0] != t[1] && t[1] != t[2]);
        let t = Format::Rgba16f.decode(&data[8..]);
        assert!(t[0] != t[1] && t[2] != t[3]);
    }

    #[test]
    fn patterns_follow_the_spec() {
        assert_eq!(start_1d(Pattern::Uniform, 7), 0);
        assert_eq!(start_1d(Pattern::Linear, 7), 7);
        assert!((0..256).all(|i| start_1d(Pattern::Random, i) < 16));
        assert_eq!(start_1d(Pattern::Random, 1), 0x3504_f333 & 15);
        assert_eq!(start_2d(Pattern::Random, 1, 0), (0x3504_f333 & 4, 0));
    }

    #[test]
    fn references_differ_between_patterns() {
        // A kernel that ignored its start pattern would pass a reference that does too.
        let data = input();
        let lin = sum_1d(Pattern::Linear, |i| [word(&data, i as usize); 4]);
        let rnd = sum_1d(Pattern::Random, |i| [word(&data, i as usize); 4]);
        assert_ne!(lin[5].sum, rnd[5].sum);
    }
}
