// cbuffer{float4} load: one vec4 of a 16 KB uniform-buffer array per iteration.
// Kernels built from this template (see build.rs):
// @kernels constant_buffer_w{WIDTH}_{PATTERN}: WIDTH=4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels constant_buffer_w{WIDTH}_{WAVE_LOAD}: WIDTH=4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels constant_buffer_w{WIDTH}_{PATTERN}: WIDTH=4 CEILING=1 PATTERN=ceiling_uniform:0,ceiling_linear:1
// SPREAD: the random pattern over SPREAD distinct addresses per 32 lanes (start = (local index
// * 0x3504f333) & (SPREAD - 1); 16 is the original random pattern's start).
// @kernels constant_buffer_w{WIDTH}_spread{SPREAD}: WIDTH=4 PATTERN=2 SPREAD=1,2,4,8,16,32
// WITHIN_MASK: the index wrapped to the first WITHIN_MASK + 1 elements (31: 512 bytes), so that
// the loads stay in a small constant cache (the family's WITHIN_MASK).
// @kernels constant_buffer_w{WIDTH}_{PATTERN}_within512: WIDTH=4 WITHIN_MASK=31 PATTERN=linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
// 1024 × 16 bytes = 16384, the smallest maxUniformBufferRange Vulkan allows.
layout(std140, set = 0, binding = 0) uniform Source {
    vec4 elements[1024];
};

#if defined(WAVE_LOAD) || defined(CEILING)
LOAD_TYPE loadIteration(uint start, uint i) {
    return elements[(start + i) | pc.elementsMask];
}
#define CEILING_BASE uint
uint ceilingBase(uint start) {
    return start | pc.elementsMask;
}
LOAD_TYPE loadFromBase(uint base, uint i) {
    return elements[base + i];
}
#include "variants.glsl"
#else
void main() {
#ifdef SPREAD
    uint start = (gl_LocalInvocationIndex * 0x3504f333u) & (SPREAD - 1u);
#else
    uint start = startIndex1D(gl_LocalInvocationIndex);
#endif
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
#ifdef WITHIN_MASK
        uint element = ((start + i) & WITHIN_MASK) | pc.elementsMask;
#else
        uint element = (start + i) | pc.elementsMask;
#endif
        vec4 v = vec4(0.0);
        LOAD_INTO(v, elements[element]);
        value += WIDEN(v);
    }
    writeOut(value);
}
#endif
