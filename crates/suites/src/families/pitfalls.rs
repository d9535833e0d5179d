//! Shader pitfalls of a Metal optimisation talk, on Vulkan: sets of kernels that do the same
//! work in two or three ways, each timed beside the first of its set (the ratio column).

use super::{Columns, Shared, Spec};
use crate::data::{ThreadSum, TEXTURE_SIZE};
use crate::kernels::{
    check_built, id, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite, THREADS_PER_GROUP};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Image, Shape, Usage};

/// One way of doing one set's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A private array filled at run time and indexed dynamically (a "stack" array).
    StackArray,
    /// The same eight values in a constant array.
    ConstantArray,
    /// The same values in registers, picked by a chain of selects.
    SelectChain,
    /// Two adjacent fields of a 16-byte struct (one 8-byte load possible).
    FieldsAdjacent,
    /// Two fields of the struct with one between them (two loads).
    FieldsApart,
    /// Four neighbouring words at an `int` base offset.
    OffsetInt,
    /// The same at a `uint` base offset (which may wrap: base + 1 is not the address + 4).
    OffsetUint,
    /// The same at a 16-bit `uint16_t` base offset (needs `shaderInt16`).
    OffsetU16,
    /// A switch whose cases fall through, each adding one more word.
    SwitchFallThrough,
    /// The same as four separate cases.
    SwitchSeparate,
    /// 256 dependent texel reads in `chains` interleaved chains (reads in flight), at full
    /// occupancy or with one workgroup per compute unit.
    Reads { chains: u32, low_occupancy: bool },
    /// Four chains of `x = x * a + b`, contractible into fused multiply-adds.
    Contracted,
    /// The same, `precise`: a multiply and an add, each rounded.
    Precise,
}

use Variant::*;

/// Every test, in run order: each set's first variant is what the others' ratios divide.
const ALL: [Variant; 18] = [
    StackArray,
    ConstantArray,
    SelectChain,
    FieldsAdjacent,
    FieldsApart,
    OffsetInt,
    OffsetUint,
    OffsetU16,
    SwitchFallThrough,
    SwitchSeparate,
    Reads {
        chains: 1,
        low_occupancy: false,
    },
    Reads {
        chains: 2,
        low_occupancy: false,
    },
    Reads {
        chains: 4,
        low_occupancy: false,
    },
    Reads {
        chains: 1,
        low_occupancy: true,
    },
    Reads {
        chains: 2,
        low_occupancy: true,
    },
    Reads {
        chains: 4,
        low_occupancy: true,
    },
    // (the fp16 side of the fast-math question is the instruction suite's)
    Contracted,
    Precise,
];

/// The R32_UINT texture of the dependent reads: the input's first 4 KB.
pub struct Resources<'g> {
    table: Image<'g>,
}

/// `Pitfall: …` tests.
pub struct Pitfalls;

/// The 8 values of the private-array set (the kernel's `TABLE`).
const TABLE: [u32; 8] = [3, 141, 59, 26, 535, 89, 79, 323];
/// Iterations per thread.
const ITERATIONS: u32 = 256;

impl Variant {
    /// The set, as the name prints it, and the variant.
    fn parts(self) -> (&'static str, String) {
        match self {
            StackArray => (
                "private array",
                "stack array (filled at run time, indexed)".into(),
            ),
            ConstantArray => ("private array", "constant array".into()),
            SelectChain => ("private array", "select chain".into()),
            FieldsAdjacent => ("struct fields", "adjacent".into()),
            FieldsApart => ("struct fields", "apart".into()),
            OffsetInt => ("buffer offsets", "int".into()),
            OffsetUint => ("buffer offsets", "uint".into()),
            OffsetU16 => ("buffer offsets", "uint16_t".into()),
            SwitchFallThrough => ("switch", "fall-through".into()),
            SwitchSeparate => ("switch", "separate cases".into()),
            Reads {
                chains,
                low_occupancy,
            } => (
                if low_occupancy {
                    "reads in flight, one group per compute unit"
                } else {
                    "reads in flight"
                },
                format!("{chains} chain{}", if chains == 1 { "" } else { "s" }),
            ),
            Contracted => ("fp32 math", "contracted (fast math)".into()),
            Precise => ("fp32 math", "precise".into()),
        }
    }

    /// The first variant of this one's set.
    fn first_of_set(self) -> Variant {
        match self {
            StackArray | ConstantArray | SelectChain => StackArray,
            FieldsAdjacent | FieldsApart => FieldsAdjacent,
            OffsetInt | OffsetUint | OffsetU16 => OffsetInt,
            SwitchFallThrough | SwitchSeparate => SwitchFallThrough,
            Reads { low_occupancy, .. } => Reads {
                chains: 1,
                low_occupancy,
            },
            Contracted | Precise => Contracted,
        }
    }

    /// What thread `idx` of any workgroup writes.
    fn thread(self, words: &[u32], table: &[u32], idx: u32) -> ThreadSum {
        let w = |i: u32| words[i as usize];
        let mut acc = 0u32;
        let mut out = ThreadSum::default();
        match self {
            StackArray | ConstantArray | SelectChain => {
                for i in 0..ITERATIONS {
                    let j = (idx + i * 3 + (acc & 1)) & 7;
                    acc = acc.wrapping_add(TABLE[j as usize].wrapping_mul(i + 1));
                }
            }
            FieldsAdjacent | FieldsApart => {
                let second = if self == FieldsAdjacent { 1 } else { 2 };
                for i in 0..ITERATIONS {
                    let s = (idx + i * 7) & 1023;
                    acc = acc.wrapping_add(w(4 * s)).wrapping_add(w(4 * s + second));
                }
            }
            OffsetInt | OffsetUint | OffsetU16 | SwitchFallThrough | SwitchSeparate => {
                for i in 0..ITERATIONS {
                    let b = (idx * 5 + i * 3) & 4091;
                    let first = match self {
                        SwitchFallThrough | SwitchSeparate => (idx + i) & 3,
                        _ => 0,
                    };
                    for k in first..4 {
                        acc = acc.wrapping_add(w(b + k));
                    }
                }
            }
            Reads { chains, .. } => {
                let mut chain: Vec<u32> = (0..chains).map(|c| (idx + c * 257) & 1023).collect();
                for i in 0..ITERATIONS / chains {
                    for (c, t) in chain.iter_mut().enumerate() {
                        *t = table[*t as usize].wrapping_add(c as u32 + i) & 1023;
                    }
                }
                for (c, t) in chain.iter().enumerate() {
                    acc = acc.wrapping_add(t << (8 * c));
                }
            }
            Contracted | Precise => {
                // Either rounding (fused or not) is within the tolerance of this sum in f64.
                for c in 0..4 {
                    let mut x = (w(4 * idx + c as u32) & 255) as f64 / 256.0;
                    for _ in 0..ITERATIONS {
                        x = x * 0.999f32 as f64 + 0.25;
                    }
                    out.sum[c] = x as f32;
                    out.magnitude[c] = x.abs() as f32;
                }
                return out;
            }
        }
        out.sum = [(acc & 0xFFFF) as f32, (acc >> 16) as f32, 0.0, 0.0];
        out
    }
}

impl Spec for Pitfalls {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        ALL.iter()
            .map(|&v| (Suite::Pitfalls, v, Pattern::Linear))
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        let (set, variant) = v.parts();
        format!("Pitfall {set}: {variant}")
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        let (resource, format) = match v {
            Reads { .. } => ("SAMPLED_IMAGE", "R32_UINT"),
            StackArray | ConstantArray | SelectChain | Contracted | Precise => ("none", "uint"),
            _ => ("STORAGE_BUFFER", "uint"),
        };
        Columns {
            family: "pitfalls",
            resource,
            format: format.into(),
        }
    }

    fn bytes_per_load(&self, v: Variant) -> Option<u32> {
        match v {
            StackArray | ConstantArray | SelectChain | Contracted | Precise => None,
            _ => Some(4),
        }
    }

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        kernel_of(v)
    }

    /// Iterations per thread (each set's unit of work: a pick, two or four words, a read, a
    /// multiply-add of four chains).
    fn ops_per_thread(&self, _: Variant) -> u64 {
        ITERATIONS as u64
    }

    fn ratio_reference(&self, v: Variant) -> Option<Variant> {
        Some(v.first_of_set())
    }

    fn dispatch_groups(
        &self,
        v: Variant,
        _: Pattern,
        calibrated: u32,
        compute_units: Option<u32>,
    ) -> u32 {
        match v {
            Reads {
                low_occupancy: true,
                ..
            } => compute_units.unwrap_or(calibrated).min(calibrated),
            _ => calibrated,
        }
    }

    /// The low-occupancy reads mean one group per compute unit; a device that reports no
    /// compute-unit count (lavapipe) runs them at the common size, and the row says so.
    fn device_note(&self, _res: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let low = matches!(
            v,
            Reads {
                low_occupancy: true,
                ..
            }
        );
        (low && shared.gpu.info.compute_units.is_none()).then(|| {
            "the device reports no compute-unit count: ran the common dispatch size, not one \
             group per compute unit"
                .to_string()
        })
    }

    fn tolerance(&self, v: Variant) -> f32 {
        match v {
            Contracted | Precise => 1e-4,
            _ => 0.0,
        }
    }

    fn reference(&self, v: Variant, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let words: Vec<u32> = input
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let table = &words[..(TEXTURE_SIZE * TEXTURE_SIZE) as usize];
        (0..THREADS_PER_GROUP as u32)
            .map(|idx| v.thread(&words, table, idx))
            .collect()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            table: Image::new(
                shared.gpu,
                "R32_UINT",
                vk::Format::R32_UINT,
                Shape::square(TEXTURE_SIZE),
                Usage::Sampled,
            )?,
        })
    }

    fn record_upload(
        &self,
        r: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        r.table.record_fill(d, cmd, &shared.input);
    }

    fn unsupported(&self, _: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        (v == OffsetU16 && !shared.gpu.info.features.shader_int16)
            .then(|| "the device lacks shaderInt16 (16-bit integers in shaders)".into())
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        shared: &'a Shared<'g>,
        _: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![
            (0, Binding::StorageBuffer(&shared.input, shared.input.size)),
            (1, Binding::SampledImage(&r.table)),
        ]
    }
}

/// The kernel of variant `v`.
const fn kernel_of(v: Variant) -> KernelId {
    match v {
        StackArray => id::PITFALLS_ARRAY_STACK,
        ConstantArray => id::PITFALLS_ARRAY_CONSTANT,
        SelectChain => id::PITFALLS_ARRAY_SELECT,
        FieldsAdjacent => id::PITFALLS_FIELDS_ADJACENT,
        FieldsApart => id::PITFALLS_FIELDS_APART,
        OffsetInt => id::PITFALLS_OFFSET_INT,
        OffsetUint => id::PITFALLS_OFFSET_UINT,
        OffsetU16 => id::PITFALLS_OFFSET_UINT16,
        SwitchFallThrough => id::PITFALLS_SWITCH_FALLTHROUGH,
        SwitchSeparate => id::PITFALLS_SWITCH_SEPARATE,
        Reads { chains, .. } => named(&[Text("pitfalls_reads_chains"), Number(chains)]),
        Contracted => id::PITFALLS_MATH_CONTRACTED,
        Precise => id::PITFALLS_MATH_PRECISE,
    }
}
check_built!(kernel_of; ALL);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_set_does_the_same_work_every_way() {
        let input = crate::data::input();
        let same = |a: Variant, b: Variant| {
            Pitfalls.reference(a, Pattern::Linear, &input)
                == Pitfalls.reference(b, Pattern::Linear, &input)
        };
        assert!(same(StackArray, ConstantArray) && same(StackArray, SelectChain));
        assert!(same(OffsetInt, OffsetUint) && same(OffsetInt, OffsetU16));
        assert!(same(SwitchFallThrough, SwitchSeparate));
        assert!(same(Contracted, Precise));
        // Different fields and different chain counts read different words.
        assert!(!same(FieldsAdjacent, FieldsApart));
        let reads = |chains| Reads {
            chains,
            low_occupancy: false,
        };
        assert!(!same(reads(1), reads(4)));
        // A switch that added every word whatever the case would not match.
        assert!(!same(SwitchFallThrough, OffsetInt));
    }

    #[test]
    fn names_are_derived_and_unique() {
        let names: Vec<String> = Pitfalls
            .tests()
            .iter()
            .map(|(_, v, p)| Pitfalls.test_name(*v, *p))
            .collect();
        assert_eq!(names.len(), 18);
        assert_eq!(
            names[0],
            "Pitfall private array: stack array (filled at run time, indexed)"
        );
        assert_eq!(
            names[13],
            "Pitfall reads in flight, one group per compute unit: 1 chain"
        );
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
    }
}
