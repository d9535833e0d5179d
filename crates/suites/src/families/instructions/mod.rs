//! What the four families of the instruction suite (`alu`, `subgroup_ops`, `shared_bank`,
//! `occupancy`) share: the input as 32-bit words, the exact 16-bit encoding of integer
//! results, tolerances given per thread, and whole waves of compute units.

// The families of this group.
pub(super) mod alu;
pub(super) mod occupancy;
pub(super) mod shared_bank;
pub(super) mod subgroup_ops;

use crate::data::ThreadSum;

/// The unit of the instruction families' tolerances: their [`crate::families::Spec::tolerance`]
/// is this (or 0, for results compared exactly), and each reference component's `magnitude`
/// is its absolute tolerance divided by it, so that `tolerance × magnitude` — what
/// [`crate::data::compare`] allows — is that absolute tolerance, thread by thread.
pub const TOLERANCE_UNIT: f32 = 1.0 / (1u64 << 40) as f32;

/// Word `i` of the input (the kernels read it as `uint words[]`).
pub fn word(input: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([
        input[4 * i],
        input[4 * i + 1],
        input[4 * i + 2],
        input[4 * i + 3],
    ])
}

/// A reference compared exactly (with a tolerance of 0).
pub fn exact(sum: [f32; 4]) -> ThreadSum {
    ThreadSum {
        sum,
        magnitude: [1.0; 4],
    }
}

/// A reference compared within `tolerance` (absolute, per component).
pub fn within(sum: [f32; 4], tolerance: [f64; 4]) -> ThreadSum {
    ThreadSum {
        sum,
        magnitude: tolerance.map(|t| (t / TOLERANCE_UNIT as f64) as f32),
    }
}

/// Two 32-bit results in 16-bit pieces, as the kernels' `encode32` writes them.
pub fn pieces(h: u32, g: u32) -> [f32; 4] {
    [
        (h & 0xFFFF) as f32,
        (h >> 16) as f32,
        (g & 0xFFFF) as f32,
        (g >> 16) as f32,
    ]
}

/// `((a0·31 + a1)·31 + …)·31 + a7`, wrapping, as the kernels' `encode32` hashes.
pub fn hash8(a: &[u32]) -> u32 {
    a.iter()
        .fold(0u32, |h, &x| h.wrapping_mul(31).wrapping_add(x))
}

/// The kernels' `encode32` of sixteen words.
pub fn encode32(x: &[u32; 16]) -> [f32; 4] {
    pieces(hash8(&x[..8]), hash8(&x[8..]))
}

/// The calibrated dispatch rounded down to a multiple of the compute units, where known: every
/// unit then runs the same number of groups, and no unit works alone at the end while the
/// others idle (4096 groups on 132 SMs would leave 4 SMs a 32nd group: 3 % of the time).
pub fn whole_waves(calibrated: u32, compute_units: Option<u32>) -> u32 {
    match compute_units {
        Some(n) if n > 0 && calibrated >= n => calibrated / n * n,
        _ => calibrated,
    }
}

/// The unit in the last place of `x` (an f32), as f64.
pub fn ulp32(x: f64) -> f64 {
    let x = (x.abs() as f32).max(f32::MIN_POSITIVE);
    (f32::from_bits(x.to_bits() + 1) - x) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_survive_the_encoding() {
        let t = within([1.0; 4], [1e-3, 2f64.powi(-20), 0.0, 1.0]);
        for (m, want) in t.magnitude.iter().zip([1e-3, 2f64.powi(-20), 0.0, 1.0]) {
            let back = *m as f64 * TOLERANCE_UNIT as f64;
            assert!((back - want).abs() <= want * 1e-6, "{back} vs {want}");
        }
    }

    #[test]
    fn whole_waves_only_rounds_down() {
        assert_eq!(whole_waves(4096, Some(132)), 4092);
        assert_eq!(whole_waves(4096, None), 4096);
        assert_eq!(whole_waves(100, Some(132)), 100);
        assert_eq!(ulp32(1.0), f32::EPSILON as f64);
    }
}
