//! Latency of a dependent chain: a test's latency kernel runs one subgroup through a chain of
//! operations between two reads of the subgroup clock, and writes the ticks and its results.

use super::{Fault, Mode, PipelineRef, Runner};
use anyhow::{Context as _, Result};
use perftest_gpu::pipeline::PushConstants;
use perftest_gpu::pipeline::{Binding, Pipeline};
use perftest_gpu::resources::record_fill_last_vec4;
use perftest_gpu::DeviceType;
use perftest_suites::catalog::TestCase;
use perftest_suites::data;
pub use perftest_suites::model::LATENCY_GROUP_SIZE;

/// Iterations of the shorter timed run; the longer one runs twice as many, and the latency is
/// the difference over the extra operations (which cancels the clock reads and the start).
const TIMED_ITERATIONS: u32 = 8;
/// Runs of each length; the fewest ticks count (anything else only adds).
const TIMED_RUNS: usize = 3;
/// Most iterations of one untimed warm-up dispatch (see [`Latency::warm_ops`]): 32768 steps of a
/// pointer chase, well under the watchdog budget at a microsecond per step.
const WARM_CHUNK: u64 = 2048;
/// Iterations of the `--verify` run of a latency kernel.
pub const VERIFY_ITERATIONS: u32 = 2;
/// Iterations of the shorter timestamped run (the longer runs twice as many): 65536 steps of
/// a chase, so that the difference (about a millisecond where every step hits lavapipe's
/// fastest level) stands above the jitter of a dispatch's own cost (tens of µs on lavapipe,
/// whose chains still spread 10 % and more on a busy two-core machine).
const TIMESTAMPED_ITERATIONS: u32 = 4096;
/// Dispatches of each length; the fewest nanoseconds count (more than the clock's
/// [`TIMED_RUNS`]: a dispatch's own cost jitters more than a clock read).
const TIMESTAMPED_RUNS: u32 = 5;

/// A dependent operation's latency, as the device lets it be timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// Shader clocks per operation (the subgroup clock), and the chains' spread (%).
    Clk { clk: f64, spread: Option<f64> },
    /// Nanoseconds per operation (timestamps around dispatches), and the chains' spread (%).
    Ns { ns: f64, spread: Option<f64> },
}

impl<'g> Runner<'g> {
    /// Whether latency kernels can run here at all (they read the subgroup clock).
    fn has_clock(&self) -> bool {
        self.gpu.info.features.shader_subgroup_clock
    }

    /// The supported tests of `tests` that have a latency kernel, where those can run here:
    /// their latency pipelines are built up front with the tests' own.
    pub(super) fn latency_tests(&self, tests: &[TestCase]) -> Vec<TestCase> {
        if !self.has_clock() {
            return Vec::new();
        }
        tests
            .iter()
            .filter(|t| self.unsupported_reason(t).is_none() && t.latency().is_some())
            .copied()
            .collect()
    }

    pub(super) fn latency_pipeline_now(&self, test: &TestCase) -> Result<Pipeline<'g>> {
        let Some(kernel) = test.latency_kernel() else {
            anyhow::bail!("{} has no latency kernel", test.name());
        };
        let kernel = kernel.kernel();
        let mut bindings = self.bound[test.family_index()].bindings(&self.shared, test.index());
        bindings.push((2, Binding::StorageBuffer(&self.output, self.output.size)));
        Pipeline::new(self.gpu, kernel.spirv, &bindings)
            .with_context(|| format!("building the latency pipeline for {}", test.name()))
    }

    fn latency_pipeline(&self, test: &TestCase) -> Result<PipelineRef<'_, 'g>> {
        match self.latency_pipelines.get(test) {
            Some(Ok(p)) => Ok(PipelineRef::Cached(p)),
            Some(Err(e)) => anyhow::bail!("{e}"),
            None => Ok(PipelineRef::Built(self.latency_pipeline_now(test)?)),
        }
    }

    /// One dispatch of the latency kernel with `iterations`, from `readStart = start`;
    /// returns its ticks.
    fn latency_run(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        iterations: u32,
        start: u32,
    ) -> Result<u64> {
        let mut constants = self.constants(test, 0);
        constants.elements_mask = iterations;
        constants.read_start = start;
        self.dispatches(pipeline, &constants, 1, 1, 0)?;
        // Lane 0 writes the ticks, as two 32-bit words, into the vec4 after the lanes' results.
        let words = self.output.read_u32(4 * (LATENCY_GROUP_SIZE + 1))?;
        let at = 4 * LATENCY_GROUP_SIZE;
        Ok(words[at] as u64 | (words[at + 1] as u64) << 32)
    }

    /// The latency of a dependent operation, where the test has a latency kernel: in clocks
    /// where the device has a subgroup clock that counts shader-core clocks (not on a CPU
    /// device, as for the clock), else in nanoseconds by timestamps where the test's own
    /// kernel walks a given number of steps ([`Latency::timestamped`]). The median over the
    /// test's chains, and their spread (max − min over the median, %) where it has several.
    pub(super) fn latency(&self, test: &TestCase) -> Result<Option<Figure>> {
        let Some(latency) = test.latency() else {
            return Ok(None);
        };
        if !self.clock_counts_clocks() {
            if !latency.timestamped {
                return Ok(None);
            }
            let pipeline = self.pipeline_for(test)?;
            return Ok(self
                .latency_by_timestamps(test, &pipeline, latency, test.read_start())?
                .map(|(ns, spread)| Figure::Ns { ns, spread }));
        }
        let pipeline = self.latency_pipeline(test)?;
        self.chains_latency(test, &pipeline, latency, test.read_start())
    }

    /// Whether the subgroup clock counts shader-core clocks here (not on a CPU device).
    fn clock_counts_clocks(&self) -> bool {
        self.has_clock() && self.gpu.info.device_type != DeviceType::Cpu
    }

    /// The latency in clocks of the chains `own` and `latency.chains` walked by `pipeline`
    /// (the test's latency kernel, or a probe's): each warmed, then timed at two lengths.
    fn chains_latency(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        latency: &perftest_suites::families::Latency,
        own: u32,
    ) -> Result<Option<Figure>> {
        // Untimed first, where the test asks: a chase walks its working set into the caches.
        let warm = latency
            .warm_ops
            .div_ceil(latency.ops_per_iteration.max(1) as u64);
        let iterations = match latency.timed_iterations {
            0 => TIMED_ITERATIONS,
            n => n,
        };
        anyhow::ensure!(
            2 * iterations <= 0xFFFF && latency.warm_iterations <= 0xFFFF,
            "the latency kernel takes at most 65535 iterations of each kind"
        );
        let in_dispatch = latency.warm_iterations << 16;
        let ops = iterations as f64 * latency.ops_per_iteration as f64;
        let mut clocks = Vec::with_capacity(1 + latency.chains.len());
        // Where the family asks, the caches emptied instead of the walk (see
        // `Latency::evict_first`); the walk where no buffer to fill can be had.
        let evict = latency
            .evict_first
            .then(|| self.evict_buffer().ok())
            .flatten();
        for start in std::iter::once(own).chain(latency.chains.iter().copied()) {
            if let Some(evict) = evict {
                self.gpu
                    .submit(|d, cmd| Self::record_evict(d, cmd, evict, 0))
                    .context("emptying the caches before a chain")?;
            } else {
                let mut left = warm;
                while left > 0 {
                    let n = left.min(WARM_CHUNK);
                    self.latency_run(test, pipeline, n as u32, start)?;
                    left -= n;
                }
            }
            let fewest = |iterations: u32| -> Result<u64> {
                (0..TIMED_RUNS)
                    .map(|_| self.latency_run(test, pipeline, in_dispatch | iterations, start))
                    .try_fold(u64::MAX, |a, t| Ok(a.min(t?)))
            };
            let short = fewest(iterations)?;
            let long = fewest(2 * iterations)?;
            let c = (long as f64 - short as f64) / ops;
            if !(c.is_finite() && c > 0.0) {
                return Ok(None);
            }
            clocks.push(c);
        }
        Ok(median_and_spread(&clocks).map(|(clk, spread)| Figure::Clk { clk, spread }))
    }

    /// Nanoseconds per step of the test's chains, timed with timestamps around one-group
    /// dispatches of its own kernel: each chain walked first (its working set into the
    /// caches), then the fewest nanoseconds of [`TIMED_RUNS`] dispatches of
    /// [`TIMESTAMPED_ITERATIONS`] and of twice as many; the latency is the difference over the
    /// extra steps, which cancels the dispatch's own cost. The median over the chains, and
    /// their spread.
    fn latency_by_timestamps(
        &self,
        test: &TestCase,
        pipeline: &Pipeline<'g>,
        latency: &perftest_suites::families::Latency,
        own: u32,
    ) -> Result<Option<(f64, Option<f64>)>> {
        let ops_per_iteration = latency.ops_per_iteration.max(1) as u64;
        let warm = latency.warm_ops.div_ceil(ops_per_iteration);
        let mut ns = Vec::with_capacity(1 + latency.chains.len());
        for start in std::iter::once(own).chain(latency.chains.iter().copied()) {
            let mut constants = self.constants(test, PushConstants::NO_WRITE);
            constants.read_start = start;
            let mut left = warm;
            while left > 0 {
                let n = left.min(WARM_CHUNK);
                constants.elements_mask = n as u32;
                self.dispatches(pipeline, &constants, 1, 1, 0)?;
                left -= n;
            }
            let mut fewest = |iterations: u32| -> Result<f64> {
                constants.elements_mask = iterations;
                let times = self.dispatches(pipeline, &constants, 1, 0, TIMESTAMPED_RUNS)?;
                Ok(times.into_iter().fold(f64::INFINITY, f64::min))
            };
            let short = fewest(TIMESTAMPED_ITERATIONS)?;
            let long = fewest(2 * TIMESTAMPED_ITERATIONS)?;
            let steps = TIMESTAMPED_ITERATIONS as f64 * ops_per_iteration as f64;
            ns.push((long - short) * 1e6 / steps);
        }
        // A chain whose longer run was not the slower (a CPU device interrupted in its shorter
        // run's every dispatch) has no figure; the others still do.
        ns.retain(|n| n.is_finite() && *n > 0.0);
        Ok(median_and_spread(&ns))
    }

    /// Test `test`'s chase at the working set `bytes`, which none of its family's tests has
    /// (see [`perftest_suites::families::Spec::probe`]): each of its chains verified (lane 0's
    /// line after [`VERIFY_ITERATIONS`] iterations from line 0, against the CPU's walk), then
    /// its latency timed as the test's. `None` where the family makes no such probe; the
    /// probe's row name beside its figure.
    pub(super) fn probe_latency(
        &self,
        test: &TestCase,
        bytes: u64,
    ) -> Result<Option<(String, Figure)>> {
        let Some(probe) = self.bound[test.family_index()].probe(&self.shared, test.index(), bytes)
        else {
            return Ok(None);
        };
        let probe = probe.with_context(|| format!("making {}'s probe", test.name()))?;
        let clocked = self.clock_counts_clocks();
        if !clocked && !probe.latency.timestamped {
            return Ok(None);
        }
        let kernel = if clocked {
            probe.latency.kernel.kernel()
        } else {
            test.kernel().kernel()
        };
        let mut bindings = probe.bindings();
        bindings.push((2, Binding::StorageBuffer(&self.output, self.output.size)));
        let pipeline = Pipeline::new(self.gpu, kernel.spirv, &bindings)
            .with_context(|| format!("building the pipeline of {}", probe.name))?;
        let steps = VERIFY_ITERATIONS as u64 * probe.latency.ops_per_iteration as u64;
        for c in 0..probe.next.len() {
            let start = probe.read_start + c as u32;
            let mut constants = self.constants(test, 0);
            constants.read_start = start;
            constants.elements_mask = VERIFY_ITERATIONS;
            self.dispatches(&pipeline, &constants, 1, 1, 0)?;
            let reached = self.output.read_vec4(1)?[0][0];
            let expected = probe.reached(c, steps);
            anyhow::ensure!(
                reached == expected as f32,
                "{}: chain {} reached line {reached} after {steps} steps, the CPU's walk {expected}",
                probe.name,
                c + 1
            );
        }
        let figure = if clocked {
            self.chains_latency(test, &pipeline, &probe.latency, probe.read_start)?
        } else {
            self.latency_by_timestamps(test, &pipeline, &probe.latency, probe.read_start)?
                .map(|(ns, spread)| Figure::Ns { ns, spread })
        };
        Ok(figure.map(|f| (probe.name.clone(), f)))
    }

    /// `--verify` of the latency kernel: its lanes' chain results against the CPU reference,
    /// for each of the test's chains; a mismatch as the row's reason.
    pub(super) fn verify_latency(&self, test: &TestCase) -> Result<Result<(), String>> {
        debug_assert_eq!(self.settings.mode, Mode::Verify);
        let Some(latency) = test.latency() else {
            return Ok(Ok(()));
        };
        if !self.has_clock() {
            return Ok(Ok(()));
        }
        let pipeline = self.latency_pipeline(test)?;
        let mut input = self.shared.data.clone();
        if self.settings.fault == Some(Fault::Reference) {
            input.iter_mut().step_by(7).for_each(|b| *b ^= 0x5A);
        }
        // The test's own chain continues from its verify dispatch; each further chain gets a
        // verify dispatch of the test's kernel from its own start first, as the first did.
        let own = test.read_start();
        for (i, start) in std::iter::once(own)
            .chain(latency.chains.iter().copied())
            .enumerate()
        {
            if start != own {
                let main = self.pipeline_for(test)?;
                let mut constants = self.constants(test, 0);
                constants.read_start = start;
                let groups = self.full_groups(test);
                self.dispatches(&main, &constants, groups, 1, 0)?;
            }
            // The width the latency kernel ran at where it says (its slot cleared first, so
            // that no earlier kernel's width is read), else the device's.
            let reports = latency.reports_subgroup_size || test.reports_subgroup_size();
            if reports {
                self.gpu
                    .submit(|d, cmd| record_fill_last_vec4(d, cmd, &self.output, 0xFFFF_FFFF))
                    .context("clearing the output's width slot")?;
            }
            self.latency_run(test, &pipeline, VERIFY_ITERATIONS, start)?;
            let width = if reports {
                self.output_subgroup_size()?
            } else {
                None
            }
            .unwrap_or_else(|| self.device_subgroup_size());
            let lanes = perftest_suites::model::latency_lanes(width);
            let output = self.output.read_vec4(lanes)?;
            let reference = test.latency_reference(&input, VERIFY_ITERATIONS, width, start);
            if let Err(mismatch) = data::compare(test.tolerance(), &reference, &output) {
                return Ok(Err(match i {
                    0 => format!("latency kernel: {mismatch}"),
                    _ => format!(
                        "latency kernel, chain {} (readStart {start}): {mismatch}",
                        i + 1
                    ),
                }));
            }
        }
        Ok(Ok(()))
    }
}

/// The median of `values` and, where there are several, their spread: (max − min) / median,
/// in %.
pub(crate) fn median_and_spread(values: &[f64]) -> Option<(f64, Option<f64>)> {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    let median = perftest_suites::model::median(v.iter().copied());
    let (min, max) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(*x), hi.max(*x))
        });
    let spread = (v.len() > 1).then(|| 100.0 * (max - min) / median);
    Some((median, spread))
}

#[cfg(test)]
mod tests {
    use super::median_and_spread;

    #[test]
    fn median_and_spread_of_chains() {
        assert_eq!(median_and_spread(&[]), None);
        assert_eq!(median_and_spread(&[300.0]), Some((300.0, None)));
        let (m, s) = median_and_spread(&[310.0, 290.0, 300.0, 330.0]).unwrap();
        assert_eq!(m, 305.0);
        assert!((s.unwrap() - 100.0 * 40.0 / 305.0).abs() < 1e-9);
    }
}
