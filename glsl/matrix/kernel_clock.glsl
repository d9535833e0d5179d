// The clock a kernel's own work runs at, read inside it (the `_tc` and `_clk` kernels of the
// matrix suite: a batch of tensor-core work runs at a clock the light probe around it does not
// see). In up to KERNEL_CLOCK_SLOTS workgroups spread evenly over the dispatch, the first
// subgroup reads the subgroup clock right after a step of the real-time clock before the work
// and again after it; the first invocation writes both intervals to output vec4 `slot` (ticks
// low and high words, real-time ticks low and high words), only where nothing else is written
// (timed dispatches: writeIndex = 0xFFFFFFFF). The runner clears the slots before a batch and
// reads what its last dispatch wrote. The kernel enables GL_ARB_shader_clock,
// GL_EXT_shader_realtime_clock and GL_KHR_shader_subgroup_basic, and includes common.glsl.
#define REALTIME 1
#include "shader_clock.glsl"

#define KERNEL_CLOCK_SLOTS 8u

// The slot this workgroup writes, or KERNEL_CLOCK_SLOTS where it records nothing: the middle
// workgroup of each eighth of the dispatch (so none of them runs while the GPU fills or
// drains), or every workgroup of a dispatch of fewer than eight.
uint kernel_clock_slot() {
    uint step = max(gl_NumWorkGroups.x / KERNEL_CLOCK_SLOTS, 1u);
    uint id = gl_WorkGroupID.x;
    bool records = gl_SubgroupID == 0u && id % step == step / 2u && id / step < KERNEL_CLOCK_SLOTS;
    return records ? id / step : KERNEL_CLOCK_SLOTS;
}

// Before the work: the subgroup clock and the real-time clock (zero where not recording).
uvec4 kernel_clock_begin() {
    if (kernel_clock_slot() == KERNEL_CLOCK_SLOTS) {
        return uvec4(0u);
    }
    uvec2 r = real_time_step();
    uvec2 t = clock2x32ARB();
    return uvec4(t, r);
}

// After the work: both intervals since `begin`, to the workgroup's slot.
void kernel_clock_end(uvec4 begin) {
    uint slot = kernel_clock_slot();
    if (slot == KERNEL_CLOCK_SLOTS) {
        return;
    }
    uvec2 r = real_time_step();
    uvec2 t = clock2x32ARB();
    if (gl_SubgroupInvocationID == 0u && pc.writeIndex == 0xFFFFFFFFu) {
        outData[slot] = uintBitsToFloat(uvec4(ticks_between(begin.xy, t), ticks_between(begin.zw, r)));
    }
}
