// Buffer<F>.Load: one typed element per iteration from a uniform texel buffer.
// Kernels built from this template (see build.rs):
// @kernels typed_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels typed_buffer_w{WIDTH}_{WAVE_LOAD}: WIDTH=1,2,4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels typed_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 CEILING=1 PATTERN=ceiling_linear:1
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform textureBuffer source;

#if defined(WAVE_LOAD) || defined(CEILING)
LOAD_TYPE loadIteration(uint start, uint i) {
    return NARROW(texelFetch(source, int((start + i) | pc.elementsMask)));
}
#define CEILING_BASE uint
uint ceilingBase(uint start) {
    return start | pc.elementsMask;
}
LOAD_TYPE loadFromBase(uint base, uint i) {
    return NARROW(texelFetch(source, int(base + i)));
}
#include "variants.glsl"
#else
void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, texelFetch(source, int(element)));
        value += WIDEN(v);
    }
    writeOut(value);
}
#endif
