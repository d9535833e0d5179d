//! The health profile (`--suite health`): the rows the summary's items are read from, the cache curves thinned to two sizes per octave, so that a fleet check measures every subsystem in seconds.

use super::{curve, derive};

/// Whether the health profile runs `test`: a size of the latency or bandwidth curve that
/// is a power of two or one and a half times one (two points per octave: the plateaus and
/// the edges between them, at half the whole sweep's resolution), a host-link copy, an
/// arithmetic or matrix peak, a dispatch cost. The original's baseline is added by the
/// catalog (it is the drift check's reference).
pub fn in_profile(test: &str) -> bool {
    if let Some(bytes) = [derive::LATENCY, derive::BANDWIDTH]
        .iter()
        .find_map(|prefix| curve::size_after(test, prefix))
    {
        return two_per_octave(bytes);
    }
    derive::host_copies(true)
        .iter()
        .chain(&derive::host_copies(false))
        .any(|t| t == test)
        || derive::RATES
            .iter()
            .any(|(_, tests, _, _, _)| tests.iter().any(|(t, _)| *t == test))
        || derive::matrix_type(test).is_some()
        || derive::DISPATCH.iter().any(|(_, t)| *t == test)
        || super::units::in_profile(test)
}

/// 2^k or 3·2^(k-1) bytes.
fn two_per_octave(bytes: u64) -> bool {
    bytes.is_power_of_two() || (bytes.is_multiple_of(3) && (bytes / 3).is_power_of_two())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_takes_every_item_and_two_sizes_per_octave() {
        assert!(in_profile("latency: ByteAddressBuffer 16 KB"));
        assert!(in_profile("latency: ByteAddressBuffer 24 KB"));
        assert!(!in_profile("latency: ByteAddressBuffer 20 KB"));
        assert!(in_profile("bandwidth: ByteAddressBuffer.Load4 1.5 MB"));
        assert!(!in_profile("bandwidth: ByteAddressBuffer.Load4 1.25 MB"));
        assert!(in_profile("bandwidth: ByteAddressBuffer.Load4 1 GB"));
        // The curve's own rows only, not the host-memory or shared-memory variants.
        assert!(!in_profile(
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory 16 KB"
        ));
        assert!(in_profile(
            "transfer: vkCmdCopyBuffer device to host-cached 1 GB"
        ));
        assert!(!in_profile(
            "transfer: vkCmdCopyBuffer device to device 1 GB"
        ));
        assert!(in_profile("fp32 fma"));
        assert!(in_profile("matrix: coopmat 16x16x16 f16*f16+f16 subgroup"));
        assert!(in_profile(
            "dispatch: submit and wait, one empty dispatch each"
        ));
        assert!(!in_profile("Buffer<RGBA8>.Load random"));
    }
}
