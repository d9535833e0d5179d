//! The bandwidth suite's working sets: their sizes, the data's words and texels, the 8x8 blocks of an image set, and where each group reads (the CPU's mirror of the kernels' access).

use crate::model::{quarter_octave_kb, THREADS_PER_GROUP};
use ash::vk;

use super::{LOADS_PER_THREAD, SIZES, SMALL_POOL_BYTES};

/// How many sizes the small pool holds.
pub(super) fn small_sizes() -> usize {
    (0..SIZES)
        .take_while(|&s| size_bytes(s) <= SMALL_POOL_BYTES)
        .count()
}

pub(super) fn size_bytes(size: usize) -> u64 {
    (quarter_octave_kb(size) as u64) << 10
}

/// Word `i` of the data: a float in [1, 2) (every view reads it as a number), its mantissa a
/// hash of `i` (splitmix64's finaliser), so that every load reads a value of its own.
pub(super) fn word(i: u64) -> u32 {
    0x3F80_0000 | (hash32(i) & 0x007F_FFFF)
}

/// The bytes of `f(i)` for every `i` of `range` (4 little-endian bytes per 32-bit word, or a
/// texel's bytes), computed on all the host's cores: a gigabyte of data is otherwise seconds
/// of one core's time on every run.
pub(super) fn bytes_of<const N: usize>(
    range: std::ops::Range<u64>,
    f: impl Fn(u64) -> [u8; N] + Sync,
) -> Vec<u8> {
    let mut out = vec![0u8; (range.end - range.start) as usize * N];
    fill_with(&mut out, range.start, f);
    out
}

/// Writes the bytes of `f(first + j)` to the `j`th `N` bytes of `out` (e.g. mapped memory,
/// in place), on all the host's cores.
pub(in crate::families) fn fill_with<const N: usize>(
    out: &mut [u8],
    first: u64,
    f: impl Fn(u64) -> [u8; N] + Sync,
) {
    let len = out.len() / N;
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let per = len.div_ceil(threads).max(1 << 16);
    std::thread::scope(|s| {
        for (k, part) in out.chunks_mut(per * N).enumerate() {
            let (f, first) = (&f, first + (k * per) as u64);
            s.spawn(move || {
                for (j, bytes) in part.chunks_exact_mut(N).enumerate() {
                    bytes.copy_from_slice(&f(first + j as u64));
                }
            });
        }
    });
}

/// What the kernels sum for element `e` of `words` 32-bit [`word`]s: their wrapping sum.
pub(super) fn element_sum(e: u64, words: u64) -> u32 {
    (0..words).fold(0u32, |s, w| s.wrapping_add(word(e * words + w)))
}

/// 32 bits of splitmix64's finaliser of `i` (an RGBA8 texel's four bytes).
pub(super) fn hash32(i: u64) -> u32 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// The images' texel formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Texels {
    Rgba32f,
    Rgba8,
}

impl Texels {
    pub(super) fn format(self) -> vk::Format {
        match self {
            Texels::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
            Texels::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        }
    }

    pub(super) fn bytes(self) -> u64 {
        match self {
            Texels::Rgba32f => 16,
            Texels::Rgba8 => 4,
        }
    }

    /// What the kernel sums for texel `t`: the four float words, or the four bytes.
    pub(super) fn sum(self, t: u64) -> u32 {
        match self {
            Texels::Rgba32f => element_sum(t, 4),
            Texels::Rgba8 => hash32(t).to_le_bytes().iter().map(|b| *b as u32).sum(),
        }
    }
}

/// How the `n / 64` blocks of 8×8 texels of a set of `n` lie in an image: `wb` blocks wide,
/// `wb` the power of two at or above √(n / 64) unless it does not divide n / 64, then the
/// largest that does; returns (wb, blocks / wb) (mirrors `glsl/memory/bandwidth.comp`).
pub(super) fn blocks(n: u32) -> (u32, u32) {
    let blocks = n >> 6;
    let msb = 31 - blocks.leading_zeros();
    let half = if blocks.is_power_of_two() {
        msb.div_ceil(2)
    } else {
        msb / 2 + 1
    };
    let shift = half.min(blocks.trailing_zeros());
    (1 << shift, blocks >> shift)
}

/// The texel element `e` of a set of `n` is: (x, y) (mirrors `glsl/memory/bandwidth.comp`).
pub(super) fn texel_of(e: u32, n: u32) -> (u32, u32) {
    let (wb, _) = blocks(n);
    let b = e >> 6;
    ((b & (wb - 1)) * 8 + (e & 7), (b / wb) * 8 + ((e >> 3) & 7))
}

/// Where group `g` starts in a set of `n` loads: a hash of `g`, a multiple of 8 (128 bytes of
/// 16-byte loads) below `n` (mirrors `glsl/memory/bandwidth.comp`).
pub(super) fn group_start(g: u32, n: u32) -> u32 {
    let mut h = g.wrapping_mul(0x9E37_79B1);
    h = (h ^ (h >> 15)).wrapping_mul(0x85EB_CA77);
    h ^= h >> 13;
    h % (n >> 3) * 8
}

/// What group `g` sums over a set of `n` elements, `element(e)` for element e (mirrors the
/// access of `glsl/memory/bandwidth.comp` and `glsl/memory/bandwidth_write.comp`): the tests' reference for
/// [`sums_of_groups`].
#[cfg(test)]
pub(super) fn sum_of_group(n: u32, g: u32, element: &impl Fn(u32) -> u32) -> u32 {
    let mut sum = 0u32;
    for t in 0..THREADS_PER_GROUP as u32 {
        let mut idx = group_start(g, n) + t;
        if idx >= n {
            idx -= n;
        }
        for _ in 0..LOADS_PER_THREAD {
            sum = sum.wrapping_add(element(idx));
            idx += 256;
            if idx >= n {
                idx -= n;
            }
        }
    }
    sum
}

/// Every group's sum as [`sum_of_group`] gives it, for groups `0..groups`, from one pass over
/// the set on all the host's cores instead of 65536 loads per group: a group reads the 65536
/// elements from its start on, wrapping (every element `65536 / n` times, and the first
/// `65536 % n` once more), so its sum is that many whole sets plus a window of prefix sums.
pub(super) fn sums_of_groups(
    n: u32,
    groups: u32,
    element: &(impl Fn(u32) -> u32 + Sync),
) -> Vec<u32> {
    let window = THREADS_PER_GROUP * LOADS_PER_THREAD;
    let (whole, rest) = ((window / n as u64) as u32, (window % n as u64) as u32);
    let starts: Vec<u32> = (0..groups).map(|g| group_start(g, n)).collect();
    // The prefix sums (of the elements before p) needed: at each start and rest past it.
    let mut points: Vec<u32> = starts
        .iter()
        .flat_map(|&s| {
            [
                s,
                if s + rest <= n {
                    s + rest
                } else {
                    s + rest - n
                },
            ]
        })
        .chain([n])
        .collect();
    points.sort_unstable();
    points.dedup();
    let prefix = prefix_sums(n, &points, element);
    let at = |p: u32| prefix[points.binary_search(&p).expect("a point asked for")];
    let total = at(n);
    starts
        .iter()
        .map(|&s| {
            let part = if s + rest <= n {
                at(s + rest).wrapping_sub(at(s))
            } else {
                total.wrapping_sub(at(s)).wrapping_add(at(s + rest - n))
            };
            whole.wrapping_mul(total).wrapping_add(part)
        })
        .collect()
}

/// The wrapping sum of `element(e)` for e < p, at every p of `points` (sorted, each ≤ n):
/// the set split among the host's cores, each summing its part and noting its points.
fn prefix_sums(n: u32, points: &[u32], element: &(impl Fn(u32) -> u32 + Sync)) -> Vec<u32> {
    // Each part's total and, for the points inside it (its end included), the sum from the
    // part's start.
    let parts = crate::data::in_parts(n as usize, |range| {
        let (lo, hi) = (range.start as u32, range.end as u32);
        let mine = points.partition_point(|&p| p < lo)..points.partition_point(|&p| p <= hi);
        let mut local = Vec::with_capacity(mine.len());
        let mut want = points[mine].iter().peekable();
        let mut sum = 0u32;
        for e in lo..hi {
            while want.next_if(|&&p| p == e).is_some() {
                local.push(sum);
            }
            sum = sum.wrapping_add(element(e));
        }
        while want.next_if(|&&p| p == hi).is_some() {
            local.push(sum);
        }
        (lo, sum, local)
    });
    // A point on a part's end is noted by that part and the next (as its start): keep one.
    let mut out = Vec::with_capacity(points.len());
    let mut before = 0u32;
    for (k, (lo, total, local)) in parts.iter().enumerate() {
        let skip = usize::from(k > 0 && points.binary_search(lo).is_ok());
        out.extend(local.iter().skip(skip).map(|l| before.wrapping_add(*l)));
        before = before.wrapping_add(*total);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::memory::bandwidth::SIZES;

    #[test]
    fn one_pass_sums_are_the_groups_own() {
        // Sets smaller and larger than a group's 65536 loads, split among threads or not.
        let element = |e: u32| hash32(e as u64).wrapping_mul(3);
        for n in [256u32, 320, 1000, 65536, 70_000, 300_000, 1 << 20] {
            let groups = 37;
            let fast = sums_of_groups(n, groups, &element);
            let slow: Vec<u32> = (0..groups).map(|g| sum_of_group(n, g, &element)).collect();
            assert_eq!(fast, slow, "{n} elements");
        }
    }

    #[test]
    fn an_image_set_is_whole_blocks_each_texel_once() {
        // Every size of the sweep, in 16- and 4-byte texels: whole 8x8 blocks, a power of two
        // wide, at most 4 times as wide as high (unless the count's odd factor keeps it low).
        for size in 0..SIZES {
            for texel in [16, 4] {
                let n = (size_bytes(size) / texel) as u32;
                let (w, h) = blocks(n);
                assert!(
                    w.is_power_of_two() && 64 * w * h == n,
                    "{n}: {w}x{h} blocks"
                );
                assert!(w <= 4 * h || h < 8, "{n}: {w}x{h} blocks");
            }
        }
        assert_eq!(blocks(256), (2, 2));
        assert_eq!(blocks(320), (1, 5));
        assert_eq!(blocks(1 << 26), (1024, 1024));
        // Every element of a set is its own texel of the region.
        for n in [256u32, 320, 384, 448, 1024] {
            let (w, h) = blocks(n);
            let mut seen = vec![false; n as usize];
            for e in 0..n {
                let (x, y) = texel_of(e, n);
                assert!(x < 8 * w && y < 8 * h, "{n}: {e} at ({x}, {y})");
                let at = (y * 8 * w + x) as usize;
                assert!(!seen[at], "{n}: texel ({x}, {y}) twice");
                seen[at] = true;
            }
        }
        // 256 consecutive elements from a block's start: 4 blocks side by side, 32x8 texels.
        let n = 1 << 20;
        let patch: Vec<(u32, u32)> = (0..256).map(|e| texel_of(e, n)).collect();
        assert!(patch.iter().all(|&(x, y)| x < 32 && y < 8));
    }
}
