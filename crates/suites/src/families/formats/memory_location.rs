//! Where the data lives ("upload heap"): the original's raw, structured, typed and constant
//! buffer loads, with the same kernels, reading the input from a buffer of the family's own
//! in device-local memory, in host-visible system memory, or in device-local host-visible
//! (BAR) memory. The memory type chosen is recorded in the `memory` column.

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::format::Format;
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{
    describe_memory_type, record_copy, Buffer, BufferView, Memory, Residence,
};
use std::collections::HashMap;

/// The original's buffer loads, from a 16 KB buffer in each kind of memory.
pub struct MemoryLocation;

/// Which load, as in the original suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Load {
    /// `ByteAddressBuffer.Load{,2,4}`: words per load.
    Raw(u32),
    /// `StructuredBuffer<float|float4>`: floats per element.
    Structured(u32),
    /// `Buffer<F>.Load`.
    Typed(Format),
    /// `cbuffer{float4} load`.
    Constant,
}

const LOADS: [Load; 10] = [
    Load::Raw(1),
    Load::Raw(2),
    Load::Raw(4),
    Load::Structured(1),
    Load::Structured(4),
    Load::Typed(Format::R8),
    Load::Typed(Format::Rgba8),
    Load::Typed(Format::R32f),
    Load::Typed(Format::Rgba32f),
    Load::Constant,
];

const RESIDENCES: [Residence; 3] = [Residence::Device, Residence::Host, Residence::DeviceHost];

fn residence_name(r: Residence) -> &'static str {
    match r {
        Residence::Device => "device-local",
        Residence::Host => "host-visible",
        Residence::DeviceHost => "device-local+host-visible",
        Residence::HostCached => "host-cached",
    }
}

/// One input buffer per kind of memory the device offers, with its typed views.
pub struct Resources<'g> {
    buffers: HashMap<Residence, Placed<'g>>,
    /// Why there is no buffer of a kind, where there is none.
    missing: HashMap<Residence, String>,
}

/// A buffer in one kind of memory and its typed views.
pub struct Placed<'g> {
    buffer: Buffer<'g>,
    views: HashMap<Format, BufferView<'g>>,
}

/// The input in a buffer of kind `r`, with its typed views.
fn place<'g>(shared: &Shared<'g>, r: Residence, usage: vk::BufferUsageFlags) -> Result<Placed<'g>> {
    let name = format!("input ({})", residence_name(r));
    let size = shared.data.len() as u64;
    let mut buffer = Buffer::new(shared.gpu, &name, size, usage, Memory::In(r))?;
    if r != Residence::Device {
        // Host-visible and coherent: written here, visible to the first submission.
        buffer.write(&shared.data)?;
    }
    let mut views = HashMap::new();
    for l in LOADS {
        if let Load::Typed(f) = l {
            if shared
                .format_properties(f)
                .buffer_features
                .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
            {
                let range = 1024 * f.bytes() as u64;
                views.insert(f, BufferView::new(shared.gpu, &buffer, f.vk(), range)?);
            }
        }
    }
    Ok(Placed { buffer, views })
}

impl Spec for MemoryLocation {
    type Variant = (Load, Residence);
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, (Load, Residence), Pattern)> {
        let variants = LOADS
            .into_iter()
            .flat_map(|l| RESIDENCES.into_iter().map(move |r| (l, r)));
        each(Suite::Formats, variants, &Pattern::ALL)
    }

    fn name(&self, (l, r): (Load, Residence)) -> String {
        let load = match l {
            Load::Raw(1) => "ByteAddressBuffer.Load".to_string(),
            Load::Raw(w) => format!("ByteAddressBuffer.Load{w}"),
            Load::Structured(1) => "StructuredBuffer<float>.Load".into(),
            Load::Structured(w) => format!("StructuredBuffer<float{w}>.Load"),
            Load::Typed(f) => format!("Buffer<{}>.Load", f.buffer_name()),
            Load::Constant => "cbuffer{float4} load".into(),
        };
        format!("{load} ({})", residence_name(r))
    }

    /// Loads from system memory cross the host link, which every GPU of the host shares.
    fn shares_host(&self, (_, r): (Load, Residence)) -> bool {
        matches!(r, Residence::Host | Residence::HostCached)
    }

    fn over_host_link(&self, (_, r): (Load, Residence)) -> bool {
        matches!(r, Residence::Host | Residence::HostCached)
    }

    fn columns(&self, (l, r): (Load, Residence)) -> Columns {
        let family = match r {
            Residence::Device => "memory_device_local",
            Residence::Host => "memory_host_visible",
            Residence::DeviceHost => "memory_device_local_host_visible",
            Residence::HostCached => "memory_host_cached",
        };
        let (resource, format) = match l {
            Load::Raw(1) => ("STORAGE_BUFFER", "uint".into()),
            Load::Raw(w) => ("STORAGE_BUFFER", format!("uint x{w}")),
            Load::Structured(1) => ("STORAGE_BUFFER", "float".into()),
            Load::Structured(w) => ("STORAGE_BUFFER", format!("vec{w}")),
            Load::Typed(f) => ("UNIFORM_TEXEL_BUFFER", f.vk_name().into()),
            Load::Constant => ("UNIFORM_BUFFER", "vec4".into()),
        };
        Columns {
            family,
            resource,
            format,
        }
    }

    fn bytes_per_load(&self, (l, _): (Load, Residence)) -> Option<u32> {
        Some(match l {
            Load::Raw(w) | Load::Structured(w) => 4 * w,
            Load::Typed(f) => f.bytes(),
            Load::Constant => 16,
        })
    }

    fn kernel(&self, (l, _): (Load, Residence), p: Pattern) -> KernelId {
        kernel_of(l, p)
    }

    fn reference(&self, (l, _): (Load, Residence), p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // Every buffer holds the shared input.
        data::sum_1d(p, |i| match l {
            Load::Raw(w) | Load::Structured(w) => {
                data::widen(data::words(input, (i * w) as usize, w), w)
            }
            Load::Typed(f) => {
                data::widen(f.decode(&input[(i * f.bytes()) as usize..]), f.channels())
            }
            Load::Constant => data::words(input, 4 * i as usize, 4),
        })
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let usage = vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST;
        let mut buffers = HashMap::new();
        let mut missing = HashMap::new();
        for r in RESIDENCES {
            // A kind the device lacks, or cannot place this buffer in, is an unsupported row,
            // not a failure of the device's whole run.
            match r
                .memory_type(shared.gpu, !0)
                .map_err(anyhow::Error::msg)
                .and_then(|_| place(shared, r, usage))
            {
                Ok(placed) => {
                    buffers.insert(r, placed);
                }
                Err(e) => {
                    missing.insert(r, format!("{e:#}"));
                }
            }
        }
        Ok(Resources { buffers, missing })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        if let Some(p) = res.buffers.get(&Residence::Device) {
            record_copy(d, cmd, &shared.input, &p.buffer, p.buffer.size);
        }
    }

    fn unsupported(
        &self,
        res: &Resources<'_>,
        _: &Shared<'_>,
        (l, r): (Load, Residence),
    ) -> Option<String> {
        if let Some(why) = res.missing.get(&r) {
            return Some(why.clone());
        }
        match l {
            Load::Typed(f) if !res.buffers[&r].views.contains_key(&f) => Some(format!(
                "{} lacks UNIFORM_TEXEL_BUFFER in bufferFeatures",
                f.vk_name()
            )),
            _ => None,
        }
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        (l, r): (Load, Residence),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let p = &res.buffers[&r];
        let b = &p.buffer;
        vec![(
            0,
            match l {
                Load::Raw(_) => Binding::StorageBuffer(b, b.size),
                Load::Structured(w) => Binding::StorageBuffer(b, 1024 * 4 * w as u64),
                Load::Typed(f) => Binding::TexelBuffer(&p.views[&f]),
                Load::Constant => Binding::UniformBuffer(b, b.size),
            },
        )]
    }

    fn memory(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        (_, r): (Load, Residence),
    ) -> Option<String> {
        let index = res.buffers.get(&r)?.buffer.memory_type?;
        Some(describe_memory_type(shared.gpu, index))
    }
}

/// The kernel of load `l` and pattern `p`, wherever its data lives.
const fn kernel_of(l: Load, p: Pattern) -> KernelId {
    // The original families' kernels: the very same loads.
    let (kind, w) = match l {
        Load::Raw(w) => ("raw_buffer_w", w),
        Load::Structured(w) => ("structured_buffer_w", w),
        Load::Typed(f) => ("typed_buffer_w", f.channels()),
        Load::Constant => ("constant_buffer_w", 4),
    };
    named(&[Text(kind), Number(w), Text("_"), Text(p.ident())])
}
check_built!(kernel_of; LOADS, Pattern::ALL);
