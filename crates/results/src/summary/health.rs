//! The health profile (`--suite health`): the rows the summary's items are read from, the cache curves thinned to two sizes per octave, so that a fleet check measures every subsystem in seconds.

use super::derive;

/// Whether the health profile runs `test`, whose working set is `working_set` where it is a
/// point of a sweep (the suites' `Spec::working_set`; `None` reads the size its name
/// ends with): a size of the latency or bandwidth curve that is a power of two or one and a
/// half times one (two points per octave: the plateaus and the edges between them, at half
/// the whole sweep's resolution), a host-link copy each way, an arithmetic or matrix peak, a dispatch
/// cost. The original's baseline is added by the catalog (it is the drift check's
/// reference).
///
/// Tests are chosen by name, as the summary's items read them: a name is the one key the
/// suites and the summary share for a test. No column says the same: the family, resource,
/// format and pattern of the bandwidth curve's rows are also those of its host-memory and
/// grid-stride variants, and an item's rows (`fp32 fma`, a dispatch cost) are one test each,
/// named. The size on a curve is the typed working set, as the summary places its rows
/// ([`crate::size::on_curve`]).
pub fn in_profile(test: &str, working_set: Option<u64>) -> bool {
    if let Some(bytes) = [derive::LATENCY, derive::BANDWIDTH]
        .iter()
        .find_map(|curve| crate::size::on_curve(test, curve, working_set))
    {
        return two_per_octave(bytes);
    }
    [true, false]
        .into_iter()
        .any(|to_device| derive::profile_host_copy(to_device) == test)
        || derive::RATES
            .iter()
            .any(|(_, tests, _, _, _)| tests.iter().any(|(t, _)| *t == test))
        || derive::matrix_type(test).is_some()
        || derive::DISPATCH.iter().any(|(_, t)| *t == test)
        || super::units::in_profile(test, working_set)
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
        // Tests as a file before the working-set column names them: sizes from the names.
        let named = |test: &str| in_profile(test, None);
        assert!(named("latency: ByteAddressBuffer 16 KB"));
        assert!(named("latency: ByteAddressBuffer 24 KB"));
        assert!(!named("latency: ByteAddressBuffer 20 KB"));
        assert!(named("bandwidth: ByteAddressBuffer.Load4 1.5 MB"));
        assert!(!named("bandwidth: ByteAddressBuffer.Load4 1.25 MB"));
        assert!(named("bandwidth: ByteAddressBuffer.Load4 1 GB"));
        // The curve's own rows only, not the host-memory or shared-memory variants.
        assert!(!named(
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory 16 KB"
        ));
        // One host copy each way: the item's fastest of the rows present.
        assert!(named(
            "transfer: vkCmdCopyBuffer device to host-coherent 1 GB"
        ));
        assert!(named(
            "transfer: vkCmdCopyBuffer host-coherent to device 1 GB"
        ));
        assert!(!named(
            "transfer: vkCmdCopyBuffer device to host-cached 1 GB"
        ));
        assert!(!named(
            "transfer: vkCmdCopyBuffer host-coherent to device 1 GB on the transfer queue"
        ));
        assert!(!named("transfer: vkCmdCopyBuffer device to device 1 GB"));
        assert!(named("fp32 fma"));
        assert!(named("matrix: coopmat 16x16x16 f16*f16+f16 subgroup"));
        assert!(named("dispatch: submit and wait, one empty dispatch each"));
        assert!(!named("Buffer<RGBA8>.Load random"));
        // The catalog's working set places a curve's test, not the size its name ends with.
        assert!(in_profile(
            "latency: ByteAddressBuffer 20 KB",
            Some(16 << 10)
        ));
        assert!(!in_profile(
            "latency: ByteAddressBuffer 16 KB",
            Some(20 << 10)
        ));
        assert!(!in_profile(
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory 16 KB",
            Some(16 << 10)
        ));
    }
}
