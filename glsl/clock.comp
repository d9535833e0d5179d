// Shader-clock calibration: each workgroup's first thread records how many subgroup-clock
// ticks a long dependent arithmetic chain takes; timestamps around the dispatch give the time.
// Kernels built from this template (see build.rs):
// @kernels clock_w{WIDTH}_{PATTERN}: WIDTH=1 PATTERN=uniform:0
#version 450
#extension GL_ARB_shader_clock : require

layout(local_size_x = 64) in;
layout(push_constant) uniform Constants {
    uint iterations;
    uint seed;
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer Ticks {
    uvec2 ticks[];
};

void main() {
    uvec2 t0 = clock2x32ARB();
    float x = float(gl_LocalInvocationIndex + pc.seed);
    for (uint i = 0u; i < pc.iterations; ++i) {
        x = x * 0.9999f + 0.5f;
    }
    uvec2 t1 = clock2x32ARB();
    uint lo = t1.x - t0.x;
    uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
    if (gl_LocalInvocationIndex == 0u) {
        ticks[gl_WorkGroupID.x] = uvec2(lo, hi);
    }
    // Keeps the chain alive; the data never produces this value.
    if (x == -1.0f) {
        ticks[0] = uvec2(0u);
    }
}
