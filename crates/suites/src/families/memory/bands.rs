//! Uploads in bands through one staging buffer: each band filled on the host's cores, then copied to the device.

use anyhow::Result;
use ash::vk;
use perftest_gpu::resources::{Buffer, Memory};
use perftest_gpu::Gpu;

/// Uploads through one staging buffer, band by band.
pub(in crate::families) struct Bands<'g> {
    gpu: &'g Gpu<'g>,
    staging: Buffer<'g>,
    /// The band on the host, where it is filled on the host's cores before one copy into the
    /// staging buffer (which may be write-combined: scattered word writes crawl there), kept
    /// from band to band: a fresh band's pages fault in one at a time, and a node's devices
    /// setting up in one process take turns at those faults.
    host: Vec<u8>,
}

/// The largest band a [`Bands`] stages.
pub(in crate::families) const BAND_BYTES: u64 = 64 << 20;

impl<'g> Bands<'g> {
    /// A staging buffer of `bytes` (the largest band), named `name`. The size is the caller's:
    /// the staging memory may be device-local (host-visible), and what is made before a
    /// test's memory moves where that lies.
    pub(in crate::families) fn new(gpu: &'g Gpu<'g>, name: &str, bytes: u64) -> Result<Self> {
        let staging = Buffer::new(
            gpu,
            name,
            bytes,
            vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::Upload,
        )?;
        Ok(Bands {
            gpu,
            staging,
            host: Vec::new(),
        })
    }

    /// `total` bytes of units of `unit` bytes (whole units in every band): `fill(at, part)`
    /// writes the bytes from `at` on into `part` (zeroed, whole units), on the host's cores; then
    /// `record(d, cmd, staging, at, len)` records the band's copy to bytes `at..at + len`.
    pub(in crate::families) fn upload(
        &mut self,
        total: usize,
        unit: usize,
        fill: impl Fn(usize, &mut [u8]) + Sync,
        record: impl Fn(&ash::Device, vk::CommandBuffer, &Buffer<'g>, u64, u64),
    ) -> Result<()> {
        let staged = self.staging.size as usize;
        let band = (staged / unit).max(1) * unit;
        anyhow::ensure!(band <= staged, "a unit of {unit} bytes is over a band");
        let mut at = 0;
        while at < total {
            let len = band.min(total - at);
            self.host.resize(len, 0);
            let staged = &mut self.staging.mapped_mut()?[..len];
            crate::data::fill_in_parts(&mut self.host[..len], staged, unit, |first, part| {
                fill(at + first * unit, part)
            });
            let staging = &self.staging;
            self.gpu
                .submit(|d, cmd| record(d, cmd, staging, at as u64, len as u64))?;
            at += len;
        }
        Ok(())
    }
}

/// Writes `word(first + j)`'s four bytes into the `j`th four bytes of `part`: a band of
/// 32-bit words from byte `at` on (`first = at / 4`).
pub(in crate::families) fn words(at: usize, part: &mut [u8], word: impl Fn(u64) -> u32) {
    let first = (at / 4) as u64;
    for (j, w) in part.chunks_exact_mut(4).enumerate() {
        w.copy_from_slice(&word(first + j as u64).to_le_bytes());
    }
}
