//! One logical device: its queue, command buffer, fence and memory allocator.

use super::{DeviceInfo, Instance};
use anyhow::{bail, Context as _, Result};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::mem::ManuallyDrop;
use std::sync::Mutex;

/// A logical device on one physical device: queue, command buffer, fence and allocator.
pub struct Gpu<'i> {
    /// The physical device.
    pub info: &'i DeviceInfo,
    instance: &'i Instance,
    pub(crate) device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
    /// Timestamp bits the queue family writes.
    pub timestamp_valid_bits: u32,
    pub(crate) allocator: ManuallyDrop<Mutex<Allocator>>,
}

/// How long one submission may take before we call the device hung.
const SUBMIT_TIMEOUT_NS: u64 = 20_000_000_000;

impl<'i> Gpu<'i> {
    /// Creates the logical device with one compute queue whose timestamps are valid.
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
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
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
        let mut create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&core);
        if is_12 {
            create = create.push_next(&mut v11).push_next(&mut v12);
        } else {
            create = create.push_next(&mut storage16);
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
        create = create.enabled_extension_names(&ext_names);
        // SAFETY: valid physical device and create info referring to locals.
        let device = unsafe { instance.instance.create_device(info.handle, &create, None) }
            .with_context(|| format!("vkCreateDevice on {}", info.name))?;
        // From here on, `Gpu`'s Drop cleans up whatever has been created.
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
                unsafe { device.destroy_device(None) };
                bail!("creating the memory allocator: {e}");
            }
        };
        let mut gpu = Gpu {
            info,
            instance,
            device,
            queue,
            pool: vk::CommandPool::null(),
            cmd: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            timestamp_valid_bits: valid_bits,
            allocator: ManuallyDrop::new(Mutex::new(allocator)),
        };
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        gpu.pool = unsafe { gpu.device.create_command_pool(&pool_info, None) }
            .context("vkCreateCommandPool")?;
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(gpu.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        gpu.cmd = unsafe { gpu.device.allocate_command_buffers(&alloc) }
            .context("vkAllocateCommandBuffers")?[0];
        gpu.fence = unsafe {
            gpu.device
                .create_fence(&vk::FenceCreateInfo::default(), None)
        }
        .context("vkCreateFence")?;
        Ok(gpu)
    }

    /// The raw instance, for extension loaders in the other GPU-layer modules.
    pub(crate) fn ash_instance(&self) -> &ash::Instance {
        &self.instance.instance
    }

    /// The raw device, for the other GPU-layer modules.
    pub(crate) fn device(&self) -> &ash::Device {
        &self.device
    }

    /// Records commands with `record`, submits them and waits for completion.
    pub fn submit(&self, record: impl FnOnce(&ash::Device, vk::CommandBuffer)) -> Result<()> {
        let d = &self.device;
        // SAFETY: the command buffer is idle (every submit waits for its fence) and is
        // used only from this thread.
        unsafe {
            d.reset_command_buffer(self.cmd, vk::CommandBufferResetFlags::empty())
                .context("vkResetCommandBuffer")?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(self.cmd, &begin)
                .context("vkBeginCommandBuffer")?;
            record(d, self.cmd);
            d.end_command_buffer(self.cmd)
                .context("vkEndCommandBuffer")?;
            let cmds = [self.cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            d.queue_submit(self.queue, &submit, self.fence)
                .context("vkQueueSubmit")?;
            let waited = d.wait_for_fences(&[self.fence], true, SUBMIT_TIMEOUT_NS);
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
            d.reset_fences(&[self.fence]).context("vkResetFences")?;
        }
        Ok(())
    }
}

impl Drop for Gpu<'_> {
    fn drop(&mut self) {
        // SAFETY: resources borrow the Gpu, so they are all gone; wait for the queue, then
        // destroy in reverse order of creation. The allocator frees its memory blocks
        // before the device goes.
        unsafe {
            let _ = self.device.device_wait_idle();
            if self.fence != vk::Fence::null() {
                self.device.destroy_fence(self.fence, None);
            }
            if self.pool != vk::CommandPool::null() {
                self.device.destroy_command_pool(self.pool, None);
            }
            ManuallyDrop::drop(&mut self.allocator);
            self.device.destroy_device(None);
        }
    }
}
