//! A compute pipeline, its layout and one descriptor set, built from a kernel's SPIR-V.

use crate::resources::{Buffer, BufferView, Image, Sampler};
use crate::Gpu;
use anyhow::{Context as _, Result};
use ash::vk;

/// Bytes pushed to every kernel: the 32-byte header and the 96-byte array of
/// the kernels' `PUSH_ARRAY` in `glsl/common.glsl` (128 = the smallest `maxPushConstantsSize`).
pub const PUSH_CONSTANT_BYTES: usize = 128;

/// The runtime constants every kernel reads (see `glsl/common.glsl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushConstants {
    /// OR-ed into every address; always 0.
    pub elements_mask: u32,
    /// 0xFFFFFFFF while timing (nothing written); 0 for `--verify` (each thread writes its sum).
    pub write_index: u32,
    /// Byte offset of raw loads (4 for the unaligned tests).
    pub read_start: u32,
    /// Device address of the input (buffer-reference kernels), else 0.
    pub address: u64,
    /// The push-constant array kernel's data: the first 96 bytes of the input.
    pub array: [u8; 96],
}

impl Default for PushConstants {
    fn default() -> Self {
        PushConstants {
            elements_mask: 0,
            write_index: Self::NO_WRITE,
            read_start: 0,
            address: 0,
            array: [0; 96],
        }
    }
}

impl PushConstants {
    /// The value of `write_index` that disables the output write.
    pub const NO_WRITE: u32 = 0xFFFF_FFFF;

    fn bytes(&self) -> [u8; PUSH_CONSTANT_BYTES] {
        let mut b = [0u8; PUSH_CONSTANT_BYTES];
        b[0..4].copy_from_slice(&self.elements_mask.to_le_bytes());
        b[4..8].copy_from_slice(&self.write_index.to_le_bytes());
        b[8..12].copy_from_slice(&self.read_start.to_le_bytes());
        b[16..24].copy_from_slice(&self.address.to_le_bytes());
        b[32..128].copy_from_slice(&self.array);
        b
    }
}

/// What a descriptor binding points at.
pub enum Binding<'a, 'g> {
    /// A uniform texel buffer.
    TexelBuffer(&'a BufferView<'g>),
    /// A storage texel buffer.
    StorageTexelBuffer(&'a BufferView<'g>),
    /// A storage image in `GENERAL` layout.
    StorageImage(&'a Image<'g>),
    /// A storage buffer, whole range `range` bytes from offset 0.
    StorageBuffer(&'a Buffer<'g>, u64),
    /// A uniform buffer, `range` bytes from offset 0.
    UniformBuffer(&'a Buffer<'g>, u64),
    /// A storage buffer, `range` bytes from `offset` (a multiple of
    /// minStorageBufferOffsetAlignment).
    StorageBufferSlice(&'a Buffer<'g>, u64, u64),
    /// A uniform buffer, `range` bytes from `offset` (a multiple of
    /// minUniformBufferOffsetAlignment).
    UniformBufferSlice(&'a Buffer<'g>, u64, u64),
    /// A sampled image in `SHADER_READ_ONLY_OPTIMAL`.
    SampledImage(&'a Image<'g>),
    /// A sampler.
    Sampler(&'a Sampler<'g>),
    /// A sampler baked into the descriptor-set layout (`pImmutableSamplers`), so that the
    /// driver knows its state when it builds the pipeline; nothing is written to the set.
    ImmutableSampler(&'a Sampler<'g>),
    /// A sampled image and a sampler in one descriptor (`sampler2D`); with `immutable`, the
    /// sampler is baked into the set layout as for [`Binding::ImmutableSampler`].
    CombinedImageSampler {
        image: &'a Image<'g>,
        sampler: &'a Sampler<'g>,
        immutable: bool,
    },
}

impl Binding<'_, '_> {
    fn descriptor_type(&self) -> vk::DescriptorType {
        match self {
            Binding::TexelBuffer(_) => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            Binding::StorageTexelBuffer(_) => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
            Binding::StorageImage(_) => vk::DescriptorType::STORAGE_IMAGE,
            Binding::StorageBuffer(..) | Binding::StorageBufferSlice(..) => {
                vk::DescriptorType::STORAGE_BUFFER
            }
            Binding::UniformBuffer(..) | Binding::UniformBufferSlice(..) => {
                vk::DescriptorType::UNIFORM_BUFFER
            }
            Binding::SampledImage(_) => vk::DescriptorType::SAMPLED_IMAGE,
            Binding::Sampler(_) | Binding::ImmutableSampler(_) => vk::DescriptorType::SAMPLER,
            Binding::CombinedImageSampler { .. } => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        }
    }

    /// The sampler baked into the set layout, if any.
    fn immutable_sampler(&self) -> Option<vk::Sampler> {
        match self {
            Binding::ImmutableSampler(s)
            | Binding::CombinedImageSampler {
                sampler: s,
                immutable: true,
                ..
            } => Some(s.handle),
            _ => None,
        }
    }
}

/// A compute pipeline with its descriptor set already written.
pub struct Pipeline<'g> {
    gpu: &'g Gpu<'g>,
    module: vk::ShaderModule,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    /// The driver's statistics for this kernel (`VK_KHR_pipeline_executable_properties`):
    /// (executable, statistic, value); empty where the extension is absent.
    pub statistics: Vec<ShaderStatistic>,
}

/// One driver statistic of a compiled kernel, e.g. ("SM", "Register Count", "32").
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderStatistic {
    pub executable: String,
    pub name: String,
    pub value: String,
}

impl<'g> Pipeline<'g> {
    /// Builds the pipeline for `spirv` with `bindings` (binding number, resource).
    // Long on purpose: one creation sequence (module, layouts, pipeline, pool, set), each
    // handle stored in `p` as it exists so that Drop releases it on any error.
    pub fn new(
        gpu: &'g Gpu<'g>,
        spirv: &[u8],
        bindings: &[(u32, Binding<'_, 'g>)],
    ) -> Result<Self> {
        let d = gpu.device();
        let mut p = Pipeline {
            gpu,
            module: vk::ShaderModule::null(),
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
            statistics: Vec::new(),
        };
        let capture = gpu.info.features.pipeline_executable_info;
        let words =
            ash::util::read_spv(&mut std::io::Cursor::new(spirv)).context("reading SPIR-V")?;
        // SAFETY: valid device; every create info refers to locals; handles are stored in `p`
        // as soon as they exist so that Drop releases them on any error.
        unsafe {
            p.module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                .context("vkCreateShaderModule")?;
            let immutable: Vec<[vk::Sampler; 1]> = bindings
                .iter()
                .map(|(_, b)| [b.immutable_sampler().unwrap_or_default()])
                .collect();
            let layout_bindings: Vec<_> = bindings
                .iter()
                .zip(&immutable)
                .map(|((n, b), sampler)| {
                    let binding = vk::DescriptorSetLayoutBinding::default()
                        .binding(*n)
                        .descriptor_type(b.descriptor_type())
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE);
                    if b.immutable_sampler().is_some() {
                        binding.immutable_samplers(sampler)
                    } else {
                        binding
                    }
                })
                .collect();
            p.set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                    None,
                )
                .context("vkCreateDescriptorSetLayout")?;
            let ranges = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .size(PUSH_CONSTANT_BYTES as u32)];
            let set_layouts = [p.set_layout];
            p.layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&set_layouts)
                        .push_constant_ranges(&ranges),
                    None,
                )
                .context("vkCreatePipelineLayout")?;
            // Specialization constant 0 of every kernel is the device's subgroup size (the
            // `SUBGROUP_SIZE` of glsl/common.glsl; kernels that do not declare it ignore it).
            let subgroup_size = gpu.info.subgroup_size.to_le_bytes();
            let entries = [vk::SpecializationMapEntry::default()
                .constant_id(0)
                .offset(0)
                .size(4)];
            let specialization = vk::SpecializationInfo::default()
                .map_entries(&entries)
                .data(&subgroup_size);
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(p.module)
                .name(c"main")
                .specialization_info(&specialization);
            let flags = if capture {
                vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
            } else {
                vk::PipelineCreateFlags::empty()
            };
            let info = [vk::ComputePipelineCreateInfo::default()
                .flags(flags)
                .stage(stage)
                .layout(p.layout)];
            p.pipeline = d
                .create_compute_pipelines(gpu.pipeline_cache(), &info, None)
                .map_err(|(_, e)| e)
                .context("vkCreateComputePipelines")?[0];
            let sizes: Vec<_> = bindings
                .iter()
                .map(|(_, b)| {
                    vk::DescriptorPoolSize::default()
                        .ty(b.descriptor_type())
                        .descriptor_count(1)
                })
                .collect();
            p.pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )
                .context("vkCreateDescriptorPool")?;
            p.set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(p.pool)
                        .set_layouts(&set_layouts),
                )
                .context("vkAllocateDescriptorSets")?[0];

            write_set(d, p.set, bindings);
            if capture {
                p.statistics = statistics(gpu, p.pipeline)?;
            }
        }
        Ok(p)
    }

    /// Records binding this pipeline and its set, the push constants, and one dispatch.
    pub fn record_dispatch(
        &self,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        constants: &PushConstants,
        groups: u32,
    ) {
        // SAFETY: the command buffer is recording; the pipeline and set are alive until
        // the submission is waited for (the runner holds `self` across submit()).
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            d.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                self.layout,
                0,
                &[self.set],
                &[],
            );
            d.cmd_push_constants(
                cmd,
                self.layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &constants.bytes(),
            );
            d.cmd_dispatch(cmd, groups, 1, 1);
        }
    }
}

impl Drop for Pipeline<'_> {
    fn drop(&mut self) {
        let d = self.gpu.device();
        // SAFETY: idle GPU (every submission is waited for); null handles are skipped.
        unsafe {
            if self.pool != vk::DescriptorPool::null() {
                d.destroy_descriptor_pool(self.pool, None);
            }
            if self.pipeline != vk::Pipeline::null() {
                d.destroy_pipeline(self.pipeline, None);
            }
            if self.layout != vk::PipelineLayout::null() {
                d.destroy_pipeline_layout(self.layout, None);
            }
            if self.set_layout != vk::DescriptorSetLayout::null() {
                d.destroy_descriptor_set_layout(self.set_layout, None);
            }
            if self.module != vk::ShaderModule::null() {
                d.destroy_shader_module(self.module, None);
            }
        }
    }
}

/// Reads the driver's statistics of every executable of `pipeline`.
fn statistics(gpu: &Gpu<'_>, pipeline: vk::Pipeline) -> Result<Vec<ShaderStatistic>> {
    let ext =
        ash::khr::pipeline_executable_properties::Device::new(gpu.ash_instance(), gpu.device());
    let text = |c: &[std::ffi::c_char]| {
        // SAFETY: the driver fills these fixed-size arrays with NUL-terminated strings.
        unsafe { std::ffi::CStr::from_ptr(c.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    };
    let mut out = Vec::new();
    // SAFETY: the pipeline was created with CAPTURE_STATISTICS on a device with the feature.
    let executables = unsafe {
        ext.get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline))
    }
    .context("vkGetPipelineExecutablePropertiesKHR")?;
    for (index, exe) in executables.iter().enumerate() {
        let info = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index as u32);
        // SAFETY: a live pipeline created with CAPTURE_STATISTICS, and an executable index
        // the driver listed for it.
        let stats = unsafe { ext.get_pipeline_executable_statistics(&info) }
            .context("vkGetPipelineExecutableStatisticsKHR")?;
        for st in stats {
            // SAFETY: `format` says which member of the union the driver wrote.
            let value = unsafe {
                match st.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                        (st.value.b32 != 0).to_string()
                    }
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => st.value.i64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => st.value.u64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => st.value.f64.to_string(),
                    _ => continue,
                }
            };
            out.push(ShaderStatistic {
                executable: text(&exe.name),
                name: text(&st.name),
                value,
            });
        }
    }
    Ok(out)
}

/// Records the barrier between dependent dispatches: shader writes before the next
/// dispatch's shader reads and writes, and nothing more (the host's and the next
/// submission's view comes from the barrier that ends every submission, see `Gpu::submit`).
pub fn record_compute_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    crate::resources::record_memory_barrier(
        d,
        cmd,
        (S::COMPUTE_SHADER, A::SHADER_WRITE),
        (S::COMPUTE_SHADER, A::SHADER_READ | A::SHADER_WRITE),
    );
}

/// Records the barrier a chain of dependent dispatches needs and nothing more: the earlier
/// dispatches' storage writes made visible to the later ones' storage reads, compute stage to
/// compute stage (no host, texture or uniform caches). With `synchronization2` it names
/// storage accesses alone (`SHADER_STORAGE_WRITE` → `SHADER_STORAGE_READ`); without, shader
/// writes → shader reads.
pub fn record_dependency_barrier(d: &ash::Device, cmd: vk::CommandBuffer, synchronization2: bool) {
    if !synchronization2 {
        use vk::{AccessFlags as A, PipelineStageFlags as S};
        crate::resources::record_memory_barrier(
            d,
            cmd,
            (S::COMPUTE_SHADER, A::SHADER_WRITE),
            (S::COMPUTE_SHADER, A::SHADER_READ),
        );
        return;
    }
    use vk::{AccessFlags2 as A, PipelineStageFlags2 as S};
    let barrier = [vk::MemoryBarrier2::default()
        .src_stage_mask(S::COMPUTE_SHADER)
        .src_access_mask(A::SHADER_STORAGE_WRITE)
        .dst_stage_mask(S::COMPUTE_SHADER)
        .dst_access_mask(A::SHADER_STORAGE_READ)];
    let dependency = vk::DependencyInfo::default().memory_barriers(&barrier);
    // SAFETY: the command buffer is recording, outside a render pass; the device was created
    // with synchronization2 enabled (the caller's flag is the device's feature).
    unsafe { d.cmd_pipeline_barrier2(cmd, &dependency) };
}

/// Records a barrier whose access mask does not fit its stage: harmless to the driver, but
/// invalid, so the validation layer must report it (hidden `--fault invalid-barrier`).
pub fn record_invalid_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::SHADER_READ);
    // SAFETY: the command buffer is recording; the barrier's only effect is a wider wait.
    unsafe {
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
    }
}

/// Points each descriptor of `set` at its binding's resource (an immutable sampler is the
/// layout's: nothing to write).
fn write_set(d: &ash::Device, set: vk::DescriptorSet, bindings: &[(u32, Binding<'_, '_>)]) {
    // Build every descriptor info first so the writes can point at them.
    let mut buffer_infos = Vec::new();
    let mut image_infos = Vec::new();
    let mut views = Vec::new();
    for (_, b) in bindings {
        match b {
            Binding::StorageBuffer(buf, range) | Binding::UniformBuffer(buf, range) => buffer_infos
                .push([vk::DescriptorBufferInfo::default()
                    .buffer(buf.handle)
                    .range(*range)]),
            Binding::StorageBufferSlice(buf, offset, range)
            | Binding::UniformBufferSlice(buf, offset, range) => {
                buffer_infos.push([vk::DescriptorBufferInfo::default()
                    .buffer(buf.handle)
                    .offset(*offset)
                    .range(*range)])
            }
            Binding::SampledImage(img) | Binding::StorageImage(img) => {
                image_infos.push([vk::DescriptorImageInfo::default()
                    .image_view(img.view)
                    .image_layout(img.layout)])
            }
            Binding::Sampler(s) => {
                image_infos.push([vk::DescriptorImageInfo::default().sampler(s.handle)])
            }
            Binding::CombinedImageSampler { image, sampler, .. } => {
                image_infos.push([vk::DescriptorImageInfo::default()
                    .image_view(image.view)
                    .image_layout(image.layout)
                    .sampler(sampler.handle)])
            }
            Binding::ImmutableSampler(_) => {}
            Binding::TexelBuffer(v) | Binding::StorageTexelBuffer(v) => views.push([v.handle]),
        }
    }
    let (mut bi, mut ii, mut vi) = (0, 0, 0);
    let writes: Vec<_> = bindings
        .iter()
        // An immutable sampler is the layout's: there is nothing to write.
        .filter(|(_, b)| !matches!(b, Binding::ImmutableSampler(_)))
        .map(|(n, b)| {
            let w = vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(*n)
                .descriptor_type(b.descriptor_type());
            match b {
                Binding::StorageBuffer(..)
                | Binding::UniformBuffer(..)
                | Binding::StorageBufferSlice(..)
                | Binding::UniformBufferSlice(..) => {
                    bi += 1;
                    w.buffer_info(&buffer_infos[bi - 1])
                }
                Binding::SampledImage(_)
                | Binding::StorageImage(_)
                | Binding::Sampler(_)
                | Binding::CombinedImageSampler { .. } => {
                    ii += 1;
                    w.image_info(&image_infos[ii - 1])
                }
                Binding::ImmutableSampler(_) => unreachable!("filtered out above"),
                Binding::TexelBuffer(_) | Binding::StorageTexelBuffer(_) => {
                    vi += 1;
                    w.texel_buffer_view(&views[vi - 1])
                }
            }
        })
        .collect();
    // SAFETY: `set` was allocated with the layout of `bindings` from a live pool; every write
    // points at the infos above, which live through the call, and at live resources.
    unsafe { d.update_descriptor_sets(&writes, &[]) };
}
