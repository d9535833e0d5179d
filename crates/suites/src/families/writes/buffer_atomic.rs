//! `RWByteAddressBuffer.Interlocked*` and `RWStructuredBuffer<float>.InterlockedAdd`: 256
//! atomics per thread on a storage buffer, at three levels of contention.

use crate::data::ThreadSum;
use crate::families::writes::{self, Atomic, StorageTarget, ELEMENTS};
use crate::families::{each, lacks_feature, Checked, Columns, Dispatch, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Fault;
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;

/// Atomics on a storage buffer.
pub struct BufferAtomic;

impl Spec for BufferAtomic {
    type Variant = Atomic;
    /// The target (zeroed once, then accumulating while timing) and its read-back buffer.
    type Resources<'g> = StorageTarget<'g>;

    fn tests(&self) -> Vec<(Suite, Atomic, Pattern)> {
        let ops = [
            Atomic::Add,
            Atomic::AddReturn,
            Atomic::CompSwap,
            Atomic::Add64,
            Atomic::FloatAdd,
        ];
        each(Suite::Write, ops, &Pattern::ALL)
    }

    fn name(&self, op: Atomic) -> String {
        match op {
            Atomic::Add => "RWByteAddressBuffer.InterlockedAdd",
            Atomic::AddReturn => "RWByteAddressBuffer.InterlockedAdd(original)",
            Atomic::CompSwap => "RWByteAddressBuffer.InterlockedCompareExchange",
            Atomic::Add64 => "RWByteAddressBuffer.InterlockedAdd64",
            Atomic::FloatAdd => "RWStructuredBuffer<float>.InterlockedAdd",
        }
        .into()
    }

    fn columns(&self, op: Atomic) -> Columns {
        let format = match op {
            Atomic::Add64 => "uint64_t",
            Atomic::FloatAdd => "float",
            _ => "uint",
        };
        Columns {
            family: "buffer_atomic",
            resource: "STORAGE_BUFFER",
            format: format.into(),
        }
    }

    fn bytes_per_load(&self, op: Atomic) -> Option<u32> {
        Some(op.layout().bytes() as u32)
    }

    fn kernel(&self, op: Atomic, p: Pattern) -> KernelId {
        kernel_of(op, p)
    }

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: Atomic, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    /// On one address, a fixed size per compute unit (see [`writes::atomic_groups`]).
    fn dispatch_groups(&self, _: Atomic, p: Pattern, calibrated: u32, cus: Option<u32>) -> u32 {
        writes::atomic_groups(p, calibrated, cus)
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<StorageTarget<'g>> {
        StorageTarget::new(shared)
    }

    fn record_upload(
        &self,
        res: &StorageTarget<'_>,
        _: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        res.record_clear(d, cmd);
    }

    fn unsupported(
        &self,
        _: &StorageTarget<'_>,
        shared: &Shared<'_>,
        op: Atomic,
    ) -> Option<String> {
        let f = shared.gpu.info.features;
        // --fault no-atomic-features: as on a device without the optional atomics.
        let hidden = shared.fault == Some(Fault::NoAtomicFeatures);
        match op {
            Atomic::Add64 => lacks_feature(f.shader_int64, "shaderInt64").or_else(|| {
                lacks_feature(
                    f.buffer_int64_atomics && !hidden,
                    "shaderBufferInt64Atomics",
                )
            }),
            Atomic::FloatAdd => lacks_feature(
                f.buffer_float32_atomic_add && !hidden,
                "shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float)",
            ),
            _ => None,
        }
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a StorageTarget<'g>,
        _: &'a Shared<'g>,
        _: Atomic,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        res.bindings()
    }

    fn verify_writes(
        &self,
        res: &StorageTarget<'_>,
        shared: &Shared<'_>,
        op: Atomic,
        p: Pattern,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let expected = writes::atomics(op, p, groups, ELEMENTS);
        Some(res.verify(shared, op.layout(), expected, dispatch))
    }
}

/// The kernel of atomic `op` and pattern `p`.
const fn kernel_of(op: Atomic, p: Pattern) -> KernelId {
    let name = match op {
        Atomic::Add => "add",
        Atomic::AddReturn => "add_return",
        Atomic::CompSwap => "cas",
        Atomic::Add64 => "add64",
        Atomic::FloatAdd => "fadd",
    };
    named(&[
        Text("buffer_atomic_"),
        Text(name),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; [Atomic::Add, Atomic::AddReturn, Atomic::CompSwap, Atomic::Add64, Atomic::FloatAdd], Pattern::ALL);
