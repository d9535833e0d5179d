//! One logical device: its queues (each with a command buffer and fence) and memory allocator.

use super::{DeviceInfo, Instance};
use anyhow::{bail, Context as _, Result};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::mem::ManuallyDrop;
use std::sync::Mutex;

/// A logical device on one physical device: queues, command buffers, fences and allocator.
pub struct Gpu<'i> {
    /// The physical device.
    pub info: &'i DeviceInfo,
    instance: &'i Instance,
    pub(crate) device: ash::Device,
    compute: Lane,
    /// The transfer-only queue, where the device has one with valid timestamps.
    transfer: Option<Lane>,
    /// Timestamp bits the compute queue family writes.
    pub timestamp_valid_bits: u32,
    pub(crate) allocator: ManuallyDrop<Mutex<Allocator>>,
    /// `VK_EXT_calibrated_timestamps`, where the device reads its timer and the host's
    /// monotonic clock together: what checks the timer's rate against the host's clock.
    calibrated: Option<ash::ext::calibrated_timestamps::Device>,
    /// The host clock the calibrated timestamps pair the device's timer with.
    host_domain: Option<vk::TimeDomainEXT>,
    /// `VK_EXT_external_memory_host`, where the device imports host memory the process
    /// allocated (see [`crate::resources::HostRegion`]), and the alignment it asks of it.
    external_host: Option<(ash::ext::external_memory_host::Device, u64)>,
    /// One cache for every pipeline this device builds: tests that run the same kernel with
    /// the same layout (sizes of one resource, a pattern's variants) compile it once.
    pipeline_cache: vk::PipelineCache,
    /// The submissions in flight (shared with a watch's thread, see [`Gpu::flight`]).
    flight: std::sync::Arc<crate::flight::Flight>,
}

/// The device's timer and the host's monotonic clock, read together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibrated {
    /// The device's timestamp, in ticks (masked to the compute queue's valid bits).
    pub device_ticks: u64,
    /// The host's CLOCK_MONOTONIC (Linux) or QueryPerformanceCounter (Windows), ns.
    pub host_ns: f64,
    /// How far apart the two reads may be, ns (the driver's bound).
    pub deviation_ns: f64,
}

/// Which of the device's queues a submission goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Queue {
    /// The compute queue every kernel runs on.
    Compute,
    /// A transfer-only queue (a copy engine), where the device has one.
    Transfer,
}

/// One queue with its own command pool, command buffer and fence.
struct Lane {
    queue: vk::Queue,
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
    valid_bits: u32,
    /// Held by each submission from recording to its wait: Vulkan wants the queue, the pool
    /// and the command buffer used by one thread at a time, and `Gpu` is shared between
    /// threads (the pipeline builders' may reach it: a family's bindings can make and upload
    /// its resources), so that this holds by construction rather than by convention.
    turn: std::sync::Mutex<()>,
}

impl Lane {
    /// A lane of `queue` whose handles are created by [`Lane::init`].
    fn new(queue: vk::Queue, valid_bits: u32) -> Lane {
        Lane {
            queue,
            pool: vk::CommandPool::null(),
            cmd: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            valid_bits,
            turn: std::sync::Mutex::new(()),
        }
    }

    /// The lane for this thread alone until the guard drops (a submission that panicked
    /// left its fence waited for or its error returned: the lane is taken on).
    fn turn(&self) -> std::sync::MutexGuard<'_, ()> {
        self.turn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Creates the pool, command buffer and fence; on error what exists is destroyed by
    /// [`Lane::destroy`] (the caller's Drop).
    fn init(&mut self, d: &ash::Device, family: u32) -> Result<()> {
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device; create infos refer to locals.
        unsafe {
            self.pool = d
                .create_command_pool(&pool_info, None)
                .context("vkCreateCommandPool")?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(self.pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            self.cmd = d
                .allocate_command_buffers(&alloc)
                .context("vkAllocateCommandBuffers")?[0];
            self.fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .context("vkCreateFence")?;
        }
        Ok(())
    }

    /// Destroys what [`Lane::init`] created (the device must be idle).
    fn destroy(&self, d: &ash::Device) {
        // SAFETY: the device is idle; null handles are skipped.
        unsafe {
            if self.fence != vk::Fence::null() {
                d.destroy_fence(self.fence, None);
            }
            if self.pool != vk::CommandPool::null() {
                d.destroy_command_pool(self.pool, None);
            }
        }
    }
}

/// How long one submission may take before we call the device hung.
const SUBMIT_TIMEOUT_NS: u64 = 20_000_000_000;

impl<'i> Gpu<'i> {
    /// Creates the logical device with one compute queue whose timestamps are valid.
    // Long on purpose: one ordered creation (features, queues, device, allocator, command
    // buffers), each handle handed to Drop as it exists; split, the partial context would
    // travel between functions.
    pub fn new(instance: &'i Instance, info: &'i DeviceInfo) -> Result<Self> {
        let Some((family, valid_bits)) = info.compute_queue else {
            bail!(
                "device {} ({}) has no compute queue with timestamp support \
                 (timestampValidBits = 0 on every compute queue family); it cannot be timed",
                info.index,
                info.name
            );
        };
        if info.api_version < vk::API_VERSION_1_1 {
            bail!(
                "device {} ({}) supports only Vulkan {}; perftest needs 1.1",
                info.index,
                info.name,
                info.api_version_string()
            );
        }
        let priorities = [1.0f32];
        let mut queues = vec![vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        if let Some((transfer, _)) = info.transfer_queue {
            queues.push(
                vk::DeviceQueueCreateInfo::default()
                    .queue_family_index(transfer)
                    .queue_priorities(&priorities),
            );
        }
        let f = info.features;
        let mut ext_names: Vec<*const i8> = Vec::new();
        let mut clock = vk::PhysicalDeviceShaderClockFeaturesKHR::default()
            .shader_subgroup_clock(f.shader_subgroup_clock)
            .shader_device_clock(f.shader_device_clock);
        let mut exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
            .pipeline_executable_info(f.pipeline_executable_info);
        let core = vk::PhysicalDeviceFeatures::default()
            .shader_storage_image_extended_formats(f.shader_storage_extended_formats)
            .shader_float64(f.shader_float64)
            .shader_int64(f.shader_int64)
            .shader_int16(f.shader_int16);
        let is_12 = info.api_version >= vk::API_VERSION_1_2;
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(f.storage_buffer_16bit);
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
            .storage_buffer8_bit_access(f.storage_buffer_8bit)
            .scalar_block_layout(f.scalar_block_layout)
            .buffer_device_address(f.buffer_device_address)
            .shader_buffer_int64_atomics(f.buffer_int64_atomics)
            .shader_float16(f.shader_float16)
            .shader_int8(f.shader_int8);
        let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default()
            .storage_buffer16_bit_access(f.storage_buffer_16bit);
        let mut sync2 =
            vk::PhysicalDeviceSynchronization2Features::default().synchronization2(true);
        let mut create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&core);
        if is_12 {
            create = create.push_next(&mut v11).push_next(&mut v12);
        } else {
            create = create.push_next(&mut storage16);
        }
        if f.synchronization2 {
            create = create.push_next(&mut sync2);
        }
        if f.shader_subgroup_clock {
            ext_names.push(ash::khr::shader_clock::NAME.as_ptr());
            create = create.push_next(&mut clock);
        }
        if f.pipeline_executable_info {
            ext_names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
            create = create.push_next(&mut exec);
        }
        let mut atomic_float = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default()
            .shader_buffer_float32_atomic_add(f.buffer_float32_atomic_add);
        if f.buffer_float32_atomic_add {
            ext_names.push(ash::ext::shader_atomic_float::NAME.as_ptr());
            create = create.push_next(&mut atomic_float);
        }
        // The matrix suite's features, where enabled (see gpu/matrix.rs).
        let m = &info.matrix;
        let mut matrix = m.enables();
        if m.coopmat {
            ext_names.push(ash::khr::cooperative_matrix::NAME.as_ptr());
            create = create.push_next(&mut matrix.coopmat);
        }
        if m.integer_dot {
            if info.api_version < vk::API_VERSION_1_3 {
                ext_names.push(ash::khr::shader_integer_dot_product::NAME.as_ptr());
            }
            create = create.push_next(&mut matrix.integer_dot);
        }
        if m.bfloat16.0 {
            ext_names.push(super::matrix::BFLOAT16_EXTENSION.as_ptr());
            create = create.push_next(&mut matrix.bfloat16);
        }
        if m.coopmat2.enabled {
            ext_names.push(super::matrix::COOPMAT2_EXTENSION.as_ptr());
            create = create.push_next(&mut matrix.coopmat2);
        }
        if m.float8.0 {
            ext_names.push(super::matrix::FLOAT8_EXTENSION.as_ptr());
            create = create.push_next(&mut matrix.float8);
        }
        let host_domain = calibration_domain(instance, info);
        if host_domain.is_some() {
            ext_names.push(ash::ext::calibrated_timestamps::NAME.as_ptr());
        }
        let host_import = host_import_alignment(instance, info);
        if host_import.is_some() {
            ext_names.push(ash::ext::external_memory_host::NAME.as_ptr());
        }
        create = create.enabled_extension_names(&ext_names);
        // SAFETY: valid physical device and create info referring to locals.
        let device = unsafe { instance.instance.create_device(info.handle, &create, None) }
            .with_context(|| format!("vkCreateDevice on {}", info.name))?;
        // From here on, `Gpu`'s Drop cleans up whatever has been created.
        // SAFETY: `family` is a queue family the device was created with, one queue each.
        let queue = unsafe { device.get_device_queue(family, 0) };
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.instance.clone(),
            device: device.clone(),
            physical_device: info.handle,
            debug_settings: Default::default(),
            buffer_device_address: f.buffer_device_address,
            allocation_sizes: Default::default(),
        });
        let allocator = match allocator {
            Ok(a) => a,
            Err(e) => {
                // SAFETY: nothing has been created on the device yet; it is not used again.
                unsafe { device.destroy_device(None) };
                bail!("creating the memory allocator: {e}");
            }
        };
        let transfer = info.transfer_queue.map(|(family, bits)| {
            // SAFETY: the device was created with one queue of this family.
            Lane::new(unsafe { device.get_device_queue(family, 0) }, bits)
        });
        let mut gpu = Gpu {
            info,
            instance,
            device,
            compute: Lane::new(queue, valid_bits),
            transfer,
            timestamp_valid_bits: valid_bits,
            allocator: ManuallyDrop::new(Mutex::new(allocator)),
            calibrated: None,
            host_domain: None,
            external_host: None,
            pipeline_cache: vk::PipelineCache::null(),
            flight: Default::default(),
        };
        // SAFETY: valid device; an empty cache (internally synchronized: the pipelines are
        // built on several threads).
        gpu.pipeline_cache = unsafe {
            gpu.device
                .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
        }
        .context("vkCreatePipelineCache")?;
        if host_domain.is_some() {
            gpu.calibrated = Some(ash::ext::calibrated_timestamps::Device::new(
                &instance.instance,
                &gpu.device,
            ));
        }
        gpu.host_domain = host_domain;
        gpu.external_host = host_import.map(|align| {
            (
                ash::ext::external_memory_host::Device::new(&instance.instance, &gpu.device),
                align,
            )
        });
        gpu.compute.init(&gpu.device, family)?;
        if let (Some(lane), Some((family, _))) = (gpu.transfer.as_mut(), info.transfer_queue) {
            lane.init(&gpu.device, family)?;
        }
        Ok(gpu)
    }

    /// `VK_EXT_external_memory_host` and the alignment of an imported host pointer and
    /// size, where the device has it.
    pub(crate) fn external_host(&self) -> Option<&(ash::ext::external_memory_host::Device, u64)> {
        self.external_host.as_ref()
    }

    /// The alignment the device asks of host memory it imports (pointer and size), where it
    /// can import host memory at all (`VK_EXT_external_memory_host`).
    pub fn host_import_alignment(&self) -> Option<u64> {
        self.external_host.as_ref().map(|(_, align)| *align)
    }

    /// The raw instance, for extension loaders in the other GPU-layer modules.
    pub(crate) fn ash_instance(&self) -> &ash::Instance {
        &self.instance.instance
    }

    /// The raw device, for the other GPU-layer modules.
    pub(crate) fn device(&self) -> &ash::Device {
        &self.device
    }

    /// The device's pipeline cache, shared by every pipeline built on it.
    pub(crate) fn pipeline_cache(&self) -> vk::PipelineCache {
        self.pipeline_cache
    }

    /// Records commands with `record` (then the barrier that makes what they wrote visible to
    /// the host and to later submissions), submits them to the compute queue and waits for
    /// completion.
    pub fn submit(&self, record: impl FnOnce(&ash::Device, vk::CommandBuffer)) -> Result<()> {
        self.submit_to(Queue::Compute, record)
    }

    /// Whether the device is running submitted work, and how long it has had none: every
    /// submission counts from `vkQueueSubmit` until its wait returns.
    pub fn flight(&self) -> &std::sync::Arc<crate::flight::Flight> {
        &self.flight
    }

    /// The device's timer and the host's clock read together, where the device can
    /// (`VK_EXT_calibrated_timestamps` with the device and a host time domain); `None` else.
    pub fn calibrated(&self) -> Option<Calibrated> {
        let (ext, host) = (self.calibrated.as_ref()?, self.host_domain?);
        let infos = [
            vk::CalibratedTimestampInfoEXT::default().time_domain(vk::TimeDomainEXT::DEVICE),
            vk::CalibratedTimestampInfoEXT::default().time_domain(host),
        ];
        // SAFETY: the extension is enabled and both domains were reported calibrateable.
        let (t, deviation) = unsafe { ext.get_calibrated_timestamps(&infos) }.ok()?;
        let mask = match self.timestamp_valid_bits {
            64 => u64::MAX,
            bits => (1u64 << bits) - 1,
        };
        // QueryPerformanceCounter ticks are not ns: scaled by its frequency on Windows.
        let host_ns = host_ticks_to_ns(host, t[1])?;
        Some(Calibrated {
            device_ticks: t[0] & mask,
            host_ns,
            deviation_ns: deviation as f64,
        })
    }

    /// Whether the device has `queue` (a transfer-only queue with valid timestamps is optional).
    pub fn has_queue(&self, queue: Queue) -> bool {
        self.lane(queue).is_ok()
    }

    /// Timestamp bits `queue`'s family writes.
    pub fn timestamp_bits(&self, queue: Queue) -> u32 {
        self.lane(queue).map_or(0, |l| l.valid_bits)
    }

    fn lane(&self, queue: Queue) -> Result<&Lane> {
        match queue {
            Queue::Compute => Ok(&self.compute),
            Queue::Transfer => self
                .transfer
                .as_ref()
                .context("the device has no transfer-only queue with timestamps"),
        }
    }

    /// As [`Gpu::submit`], on `queue`.
    pub fn submit_to(
        &self,
        queue: Queue,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<()> {
        let lane = self.lane(queue)?;
        let _turn = lane.turn();
        let d = &self.device;
        // SAFETY: the lane's command buffer is idle (every submit waits for its fence) and
        // this thread holds the lane's turn.
        unsafe {
            d.reset_command_buffer(lane.cmd, vk::CommandBufferResetFlags::empty())
                .context("vkResetCommandBuffer")?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(lane.cmd, &begin)
                .context("vkBeginCommandBuffer")?;
            record(d, lane.cmd);
            record_full_barrier(d, lane.cmd);
            d.end_command_buffer(lane.cmd)
                .context("vkEndCommandBuffer")?;
            let cmds = [lane.cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            d.queue_submit(lane.queue, &submit, lane.fence)
                .context("vkQueueSubmit")?;
        }
        let _running = self.flight.submitted();
        self.wait(lane)
    }

    /// Records `n` command buffers (`record(i, …)` for the i-th), submits each with its own
    /// `vkQueueSubmit`, back to back without waiting between them, then waits for the last:
    /// what one submission per piece of work costs.
    pub fn submit_each(
        &self,
        queue: Queue,
        n: u32,
        mut record: impl FnMut(u32, &ash::Device, vk::CommandBuffer),
    ) -> Result<()> {
        let lane = self.lane(queue)?;
        let _turn = lane.turn();
        let d = &self.device;
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(lane.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(n);
        // SAFETY: the pool belongs to this lane, whose turn this thread holds.
        let cmds =
            unsafe { d.allocate_command_buffers(&alloc) }.context("vkAllocateCommandBuffers")?;
        let recorded = (|| -> Result<()> {
            // In flight from the first submission until the wait for the last returns.
            let mut running = None;
            for (i, &cmd) in cmds.iter().enumerate() {
                let begin = vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
                // SAFETY: a freshly allocated command buffer, recorded once.
                unsafe {
                    d.begin_command_buffer(cmd, &begin)
                        .context("vkBeginCommandBuffer")?;
                    record(i as u32, d, cmd);
                    if i + 1 == cmds.len() {
                        record_full_barrier(d, cmd);
                    }
                    d.end_command_buffer(cmd).context("vkEndCommandBuffer")?;
                }
            }
            for (i, cmd) in cmds.iter().enumerate() {
                let one = [*cmd];
                let submit = [vk::SubmitInfo::default().command_buffers(&one)];
                let fence = if i + 1 == cmds.len() {
                    lane.fence
                } else {
                    vk::Fence::null()
                };
                // SAFETY: recorded above; submissions on one queue run in submission order.
                unsafe { d.queue_submit(lane.queue, &submit, fence) }.context("vkQueueSubmit")?;
                running.get_or_insert_with(|| self.flight.submitted());
            }
            self.wait(lane)
        })();
        if recorded.is_ok() {
            // SAFETY: the last submission is complete, so every earlier one is too.
            unsafe { d.free_command_buffers(lane.pool, &cmds) };
        }
        recorded
    }

    /// Waits for `lane`'s fence and resets it.
    fn wait(&self, lane: &Lane) -> Result<()> {
        let d = &self.device;
        // SAFETY: the fence belongs to this device and was just submitted with.
        let waited = unsafe { d.wait_for_fences(&[lane.fence], true, SUBMIT_TIMEOUT_NS) };
        match waited {
            Ok(()) => {}
            // A hung GPU: treat it as lost, so the runner abandons the device instead
            // of reusing a command buffer and fence that may still be in flight.
            Err(vk::Result::TIMEOUT) => {
                return Err(anyhow::Error::new(vk::Result::ERROR_DEVICE_LOST)).context(format!(
                    "the GPU did not finish a submission within {} s",
                    SUBMIT_TIMEOUT_NS / 1_000_000_000
                ))
            }
            Err(e) => return Err(e).context("vkWaitForFences"),
        }
        // SAFETY: the fence is signalled and no longer in use.
        unsafe { d.reset_fences(&[lane.fence]) }.context("vkResetFences")?;
        Ok(())
    }
}

/// The alignment `VK_EXT_external_memory_host` asks of an imported pointer and size, where
/// the device offers the extension.
fn host_import_alignment(instance: &Instance, info: &DeviceInfo) -> Option<u64> {
    let name = ash::ext::external_memory_host::NAME.to_string_lossy();
    if !info.extensions.iter().any(|e| *e == name) {
        return None;
    }
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: valid physical device of this instance, which offers the extension (its
    // properties struct may be chained).
    unsafe {
        instance
            .instance
            .get_physical_device_properties2(info.handle, &mut props)
    };
    let align = host.min_imported_host_pointer_alignment;
    (align > 0 && align.is_power_of_two()).then_some(align)
}

/// The host time domain this device's timer can be read together with, where the device
/// offers `VK_EXT_calibrated_timestamps` with its own domain and a host one.
fn calibration_domain(instance: &Instance, info: &DeviceInfo) -> Option<vk::TimeDomainEXT> {
    let name = ash::ext::calibrated_timestamps::NAME.to_string_lossy();
    if !info.extensions.iter().any(|e| *e == name) {
        return None;
    }
    let ext = ash::ext::calibrated_timestamps::Instance::new(&instance.entry, &instance.instance);
    // SAFETY: valid physical device of this instance, which offers the extension.
    let domains =
        unsafe { ext.get_physical_device_calibrateable_time_domains(info.handle) }.ok()?;
    if !domains.contains(&vk::TimeDomainEXT::DEVICE) {
        return None;
    }
    [
        vk::TimeDomainEXT::CLOCK_MONOTONIC,
        vk::TimeDomainEXT::QUERY_PERFORMANCE_COUNTER,
    ]
    .into_iter()
    .find(|d| domains.contains(d))
}

/// A host timestamp of `domain` in ns.
fn host_ticks_to_ns(domain: vk::TimeDomainEXT, ticks: u64) -> Option<f64> {
    if domain == vk::TimeDomainEXT::CLOCK_MONOTONIC {
        return Some(ticks as f64);
    }
    #[cfg(windows)]
    {
        let mut frequency = 0i64;
        // SAFETY: writes one i64.
        if unsafe { QueryPerformanceFrequency(&mut frequency) } != 0 && frequency > 0 {
            return Some(ticks as f64 * 1e9 / frequency as f64);
        }
    }
    None
}

#[cfg(windows)]
#[link(name = "kernel32")]
extern "system" {
    fn QueryPerformanceFrequency(frequency: *mut i64) -> i32;
}

/// Records a barrier that orders every earlier command (shaders, transfers) before every
/// later one and the host's reads. Every submission ends with it (after any timed interval
/// in it): whatever it wrote is visible to the host once the fence signals and to the next
/// submission's commands, so barriers between a submission's own commands can be as narrow
/// as what they order (a dispatch chain: shader writes before shader reads, nothing more).
pub fn record_full_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(A::MEMORY_WRITE)
        .dst_access_mask(A::MEMORY_READ | A::MEMORY_WRITE | A::HOST_READ);
    // SAFETY: the command buffer is recording, outside a render pass; ALL_COMMANDS and HOST
    // are valid stages on every queue.
    unsafe {
        d.cmd_pipeline_barrier(
            cmd,
            S::ALL_COMMANDS,
            S::ALL_COMMANDS | S::HOST,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
    }
}

impl Drop for Gpu<'_> {
    fn drop(&mut self) {
        // SAFETY: resources borrow the Gpu, so they are all gone; wait for the queue, then
        // destroy in reverse order of creation. The allocator frees its memory blocks
        // before the device goes.
        unsafe {
            let _ = self.device.device_wait_idle();
            if let Some(lane) = &self.transfer {
                lane.destroy(&self.device);
            }
            self.compute.destroy(&self.device);
            self.device
                .destroy_pipeline_cache(self.pipeline_cache, None);
            ManuallyDrop::drop(&mut self.allocator);
            self.device.destroy_device(None);
        }
    }
}
