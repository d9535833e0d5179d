// The clock probe: each workgroup's first thread records how many subgroup-clock ticks a
// long dependent arithmetic chain takes (timestamps around the dispatch give the time); with
// REALTIME, also the device's real-time clock over the same interval, so the clock is
// measured inside the shader (launch, drain and time slices of other processes left out).
// The interval starts and ends where the real-time clock steps (32 ns on an H100, a µs on
// some GPUs), the subgroup clock read right after each: a whole number of its steps, both
// ends read alike.
// Kernels built from this template (see build.rs):
// @kernels clock_w{WIDTH}_{PATTERN}: WIDTH=1 PATTERN=uniform:0 REALTIME=0
// @kernels clock_realtime_w{WIDTH}_{PATTERN}: WIDTH=1 PATTERN=uniform:0 REALTIME=1
#version 450
#extension GL_ARB_shader_clock : require
#if REALTIME
#extension GL_EXT_shader_realtime_clock : require
#endif

layout(local_size_x = 64) in;
layout(push_constant) uniform Constants {
    uint iterations;
    uint seed;
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer Ticks {
    uvec2 ticks[];
};

#include "shader_clock.glsl"

void main() {
#if REALTIME
    uvec2 r0 = real_time_step();
#endif
    uvec2 t0 = clock2x32ARB();
    float x = float(gl_LocalInvocationIndex + pc.seed);
    for (uint i = 0u; i < pc.iterations; ++i) {
        x = x * 0.9999f + 0.5f;
    }
#if REALTIME
    uvec2 r1 = real_time_step();
#endif
    uvec2 t1 = clock2x32ARB();
#if REALTIME
    if (gl_LocalInvocationIndex == 0u) {
        ticks[2u * gl_WorkGroupID.x] = ticks_between(t0, t1);
        ticks[2u * gl_WorkGroupID.x + 1u] = ticks_between(r0, r1);
    }
#else
    if (gl_LocalInvocationIndex == 0u) {
        ticks[gl_WorkGroupID.x] = ticks_between(t0, t1);
    }
#endif
    // Keeps the chain alive; the data never produces this value.
    if (x == -1.0f) {
        ticks[0] = uvec2(0u);
    }
}
