//! The branch benchmark of a PerfTest fork: two texture samples behind a branch taken by whole
//! workgroups (coherent) or by alternate lanes of each subgroup (divergent), beside N units of
//! ALU work that never reads the samples; ratios relative to `NX Coherent branch baseline`.

use super::{Columns, Shared, Spec};
use crate::data::{self, ThreadSum, TEXTURE_SIZE};
use crate::format::Format;
use crate::kernels::{
    named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite, LOADS_PER_THREAD, THREADS_PER_GROUP};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Image, Sampler, Shape as ImageShape, Usage};

/// Units (X) of independent ALU work per iteration, as published: 0X to 128X in steps of 4,
/// then to 256X in steps of 8 (where the baseline starts to slow down on a GPU whose ALUs
/// outrun its samplers by far, such as the H100).
fn work_units() -> impl Iterator<Item = u32> {
    (0..=128).step_by(4).chain((136..=256).step_by(8))
}

/// Who takes the branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coherence {
    /// Whole workgroups (so whole subgroups), on alternate iterations.
    Coherent,
    /// Alternate lanes of every subgroup (lane + iteration even), whatever its size.
    Divergent,
}

/// How much of the work sits inside the branch (every thread does its N units of ALU work on
/// every iteration in each shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No branch: every iteration samples twice and does its ALU work.
    Baseline,
    /// All of the work inside the branch: the taken side samples and works, the other side
    /// does the same work with another multiplier (so no compiler merges the two copies).
    Long,
    /// Only the two samples inside the branch; the ALU work after it.
    Short,
}

impl Coherence {
    const ALL: [Coherence; 2] = [Coherence::Coherent, Coherence::Divergent];

    fn name(self) -> &'static str {
        match self {
            Coherence::Coherent => "Coherent",
            Coherence::Divergent => "Divergent",
        }
    }

    /// As kernel names spell it.
    const fn ident(self) -> &'static str {
        match self {
            Coherence::Coherent => "coherent",
            Coherence::Divergent => "divergent",
        }
    }
}

impl Shape {
    const ALL: [Shape; 3] = [Shape::Baseline, Shape::Long, Shape::Short];

    const fn name(self) -> &'static str {
        match self {
            Shape::Baseline => "baseline",
            Shape::Long => "long",
            Shape::Short => "short",
        }
    }
}

/// One test: N units of work, who takes the branch, and what it holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    work: u32,
    coherence: Coherence,
    shape: Shape,
}

/// The sampled RGBA8 image every kernel samples, and its nearest sampler.
pub struct Resources<'g> {
    image: Image<'g>,
    sampler: Sampler<'g>,
}

/// `NX <Coherent|Divergent> branch <baseline|long|short>`.
pub struct Branch;

/// The texture the kernels sample.
const FORMAT: Format = Format::Rgba8;

/// The multipliers of the ALU work: the taken side's (and the baseline's and short's), and
/// the other side's of a long branch.
const TAKEN: u32 = 0x9E37_79B1;
const OTHER: u32 = 0x85EB_CA6B;

/// One step of ALU work on one chain (the kernel's `WORK_STEPS`).
fn work_step(x: u32, multiplier: u32) -> u32 {
    (x ^ (x >> 13)).wrapping_mul(multiplier)
}

/// The texel at index `t` (0..1023) of the 32×32 texture.
fn texel(input: &[u8], t: u32) -> [f32; 4] {
    data::texel(FORMAT, input, t % TEXTURE_SIZE, t / TEXTURE_SIZE)
}

impl Branch {
    /// What thread `index` of a workgroup with id parity `odd_group` writes, on a device whose
    /// subgroups hold `subgroup_size` consecutive invocations.
    fn thread(v: Variant, input: &[u8], index: u32, odd_group: bool, subgroup: u32) -> ThreadSum {
        let mut out = ThreadSum::default();
        let mut acc = [index, index + 256, index + 512, index + 768];
        let lane = index % subgroup.max(1);
        for i in 0..LOADS_PER_THREAD as u32 {
            let taken = match v.coherence {
                Coherence::Coherent => (u32::from(odd_group) + i) & 1 == 0,
                Coherence::Divergent => (lane + i) & 1 == 0,
            };
            let (a, b) = ((index + i) & 1023, (index * 5 + i * 7 + 3) & 1023);
            if v.shape == Shape::Baseline || taken {
                out.add(texel(input, a));
                out.add(texel(input, b));
            }
            let multiplier = if v.shape == Shape::Long && !taken {
                OTHER
            } else {
                TAKEN
            };
            for _ in 0..v.work / 4 {
                acc = acc.map(|x| work_step(x, multiplier));
            }
        }
        let folded = acc.map(|x| x ^ (x >> 16));
        let work = (folded[0] ^ folded[1] ^ folded[2] ^ folded[3]) & 0xFFFF;
        out.sum[3] = work as f32;
        out.magnitude[3] = 0.0;
        out
    }
}

impl Spec for Branch {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        let mut t = Vec::new();
        for work in work_units() {
            for coherence in Coherence::ALL {
                for shape in Shape::ALL {
                    let v = Variant {
                        work,
                        coherence,
                        shape,
                    };
                    // The pattern is not part of the name; the samples' addresses are fixed.
                    t.push((Suite::Branch, v, Pattern::Linear));
                }
            }
        }
        t
    }

    fn name(&self, v: Variant) -> String {
        format!(
            "{}X {} branch {}",
            v.work,
            v.coherence.name(),
            v.shape.name()
        )
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, _: Variant) -> Columns {
        Columns {
            family: "branch",
            resource: "SAMPLED_IMAGE",
            format: FORMAT.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        Some(FORMAT.bytes())
    }

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        kernel_of(v.coherence, v.shape, v.work)
    }

    /// Samples taken per thread: two per iteration, on every iteration (baseline) or on the
    /// half of them where the thread takes the branch.
    fn ops_per_thread(&self, v: Variant) -> u64 {
        match v.shape {
            Shape::Baseline => 2 * LOADS_PER_THREAD,
            _ => LOADS_PER_THREAD,
        }
    }

    fn ratio_reference(&self, v: Variant) -> Option<Variant> {
        Some(Variant {
            coherence: Coherence::Coherent,
            shape: Shape::Baseline,
            ..v
        })
    }

    fn reference(&self, v: Variant, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // Only the divergent kernels depend on the subgroup size; 32 stands for any here.
        self.reference_for(v, p, input, 32)
    }

    /// Two workgroups' threads (even and odd group ids: the coherent branch alternates with
    /// the group's parity), for subgroups of `subgroup_size` consecutive invocations.
    fn reference_for(
        &self,
        v: Variant,
        _: Pattern,
        input: &[u8],
        subgroup_size: u32,
    ) -> Vec<ThreadSum> {
        [false, true]
            .into_iter()
            .flat_map(|odd| {
                (0..THREADS_PER_GROUP as u32)
                    .map(move |t| Branch::thread(v, input, t, odd, subgroup_size))
            })
            .collect()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            image: Image::new(
                shared.gpu,
                FORMAT.vk_name(),
                FORMAT.vk(),
                ImageShape::square(TEXTURE_SIZE),
                Usage::Sampled,
            )?,
            sampler: Sampler::new(shared.gpu, vk::Filter::NEAREST)?,
        })
    }

    fn record_upload(
        &self,
        r: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        r.image.record_fill(d, cmd, &shared.input);
    }

    fn unsupported(&self, _: &Resources<'_>, shared: &Shared<'_>, _: Variant) -> Option<String> {
        let f = &shared.gpu.info.features;
        (!f.subgroup_basic).then(|| {
            "subgroup BASIC operations (gl_SubgroupInvocationID) are not supported in compute \
             shaders"
                .into()
        })
    }

    /// The divergence pattern on this device, stated in every divergent row.
    fn device_note(&self, _: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        (v.coherence == Coherence::Divergent && v.shape != Shape::Baseline).then(|| {
            format!(
                "divergent: alternate lanes of each {}-lane subgroup take the branch",
                shared.gpu.info.subgroup_size
            )
        })
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &'a Shared<'g>,
        _: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![
            (0, Binding::SampledImage(&r.image)),
            (1, Binding::Sampler(&r.sampler)),
        ]
    }
}

/// The kernel of `coherence`, `shape` and `work` units of ALU work.
const fn kernel_of(coherence: Coherence, shape: Shape, work: u32) -> KernelId {
    named(&[
        Text("branch_"),
        Text(coherence.ident()),
        Text("_"),
        Text(shape.name()),
        Text("_n"),
        Number(work),
    ])
}

// Fails the build where a test's kernel is not built: every amount of work of
// [`work_units`], each coherence and shape.
const _: () = {
    let mut work = 0;
    while work <= 256 {
        let (mut c, mut s) = (0, 0);
        while c < Coherence::ALL.len() {
            while s < Shape::ALL.len() {
                kernel_of(Coherence::ALL[c], Shape::ALL[s], work);
                s += 1;
            }
            (c, s) = (c + 1, 0);
        }
        work += if work < 128 { 4 } else { 8 };
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_kernels_follow_the_published_list() {
        let tests = Branch.tests();
        assert_eq!(tests.len(), 49 * 6);
        let names: Vec<String> = tests
            .iter()
            .map(|(_, v, p)| Branch.test_name(*v, *p))
            .collect();
        assert_eq!(names[0], "0X Coherent branch baseline");
        assert_eq!(names[5], "0X Divergent branch short");
        assert_eq!(names[6 * 32 + 4], "128X Divergent branch long");
        assert_eq!(names[6 * 33], "136X Coherent branch baseline");
        assert_eq!(names.last().unwrap(), "256X Divergent branch short");
        assert_eq!(
            Branch.kernel(tests[4].1, tests[4].2).name(),
            "branch_divergent_long_n0"
        );
    }

    #[test]
    fn the_divergent_branch_splits_every_subgroup_and_the_coherent_none() {
        let input = crate::data::input();
        let v = |coherence, shape| Variant {
            work: 8,
            coherence,
            shape,
        };
        for size in [4, 8, 32, 64] {
            let div = Branch.reference_for(
                v(Coherence::Divergent, Shape::Short),
                Pattern::Linear,
                &input,
                size,
            );
            let coh = Branch.reference_for(
                v(Coherence::Coherent, Shape::Short),
                Pattern::Linear,
                &input,
                size,
            );
            // Neighbouring lanes of a divergent subgroup sample different texels…
            assert_ne!(div[0].sum, div[1].sum, "subgroups of {size}");
            // …and the coherent kernel's even and odd groups take the branch on other iterations.
            assert_ne!(coh[0].sum, coh[256].sum);
        }
        // The ALU work is there, and a long branch's other side does it differently.
        let base = Branch.reference(
            v(Coherence::Coherent, Shape::Baseline),
            Pattern::Linear,
            &input,
        );
        let long = Branch.reference(v(Coherence::Coherent, Shape::Long), Pattern::Linear, &input);
        let none = Branch.reference(
            Variant {
                work: 0,
                ..v(Coherence::Coherent, Shape::Baseline)
            },
            Pattern::Linear,
            &input,
        );
        assert_ne!(base[0].sum[3], long[0].sum[3]);
        assert_ne!(base[0].sum[3], none[0].sum[3]);
    }
}
