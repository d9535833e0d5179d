// StructuredBuffer<float|float2|float3|float4>.Load: one element per iteration from a storage
// buffer, std430 (vec3: 16-byte stride) or, with SCALAR_LAYOUT, scalar (vec3: 12-byte stride).
// Kernels built from this template (see build.rs):
// @kernels structured_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels structured_buffer_w{WIDTH}_{PATTERN}: WIDTH=3 PATTERN=uniform:0,linear:1,random:2
// @kernels scalar_buffer_w{WIDTH}_{PATTERN}: WIDTH=3 SCALAR_LAYOUT=1 PATTERN=uniform:0,linear:1,random:2
// @kernels structured_buffer_w{WIDTH}_{WAVE_LOAD}: WIDTH=1,2,4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels structured_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 CEILING=1 PATTERN=ceiling_linear:1
#version 450
#ifdef SCALAR_LAYOUT
#extension GL_EXT_scalar_block_layout : require
#define BLOCK_LAYOUT scalar
#else
#define BLOCK_LAYOUT std430
#endif
#include "common.glsl"

#if WIDTH == 1
#define ELEMENT float
#elif WIDTH == 2
#define ELEMENT vec2
#elif WIDTH == 3
#define ELEMENT vec3
#else
#define ELEMENT vec4
#endif

layout(local_size_x = 256) in;
layout(BLOCK_LAYOUT, set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
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
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        ELEMENT v = ELEMENT(0.0);
        LOAD_INTO(v, elements[element]);
        value += WIDEN(v);
    }
    writeOut(value);
}
#endif
