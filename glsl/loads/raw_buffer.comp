// ByteAddressBuffer.Load{,2,3,4}: WIDTH consecutive 32-bit words per iteration, bit-cast to float.
// Kernels built from this template (see build.rs):
// @kernels raw_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,3,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels raw_buffer_w{WIDTH}_{WAVE_LOAD}: WIDTH=1,2,3,4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels raw_buffer_w{WIDTH}_{PATTERN}: WIDTH=1,2,3,4 CEILING=1 PATTERN=ceiling_linear:1
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

#if defined(WAVE_LOAD) || defined(CEILING)
// WIDTH words from word w.
LOAD_TYPE loadWords(uint w) {
#if WIDTH == 1
    return uintBitsToFloat(words[w]);
#elif WIDTH == 2
    return uintBitsToFloat(uvec2(words[w], words[w + 1u]));
#elif WIDTH == 3
    return uintBitsToFloat(uvec3(words[w], words[w + 1u], words[w + 2u]));
#else
    return uintBitsToFloat(uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]));
#endif
}
LOAD_TYPE loadIteration(uint start, uint i) {
    const uint stride = 4u * WIDTH;
    return loadWords(((start * stride + pc.readStart + i * stride) | pc.elementsMask) >> 2);
}
// The first word read; load i reads from word base + i * WIDTH.
#define CEILING_BASE uint
uint ceilingBase(uint start) {
    return ((start * 4u * WIDTH + pc.readStart) | pc.elementsMask) >> 2;
}
LOAD_TYPE loadFromBase(uint base, uint i) {
    return loadWords(base + i * WIDTH);
}
#include "variants.glsl"
#else
void main() {
    const uint stride = 4u * WIDTH;  // bytes per load; Load3 has a 12-byte stride
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint address = (start * stride + pc.readStart + i * stride) | pc.elementsMask;
        uint w = address >> 2;
#if WIDTH == 1
        float v = 0.0;
        LOAD_INTO(v, uintBitsToFloat(words[w]));
#elif WIDTH == 2
        vec2 v = vec2(0.0);
        LOAD_INTO(v, uintBitsToFloat(uvec2(words[w], words[w + 1u])));
#elif WIDTH == 3
        vec3 v = vec3(0.0);
        LOAD_INTO(v, uintBitsToFloat(uvec3(words[w], words[w + 1u], words[w + 2u])));
#else
        vec4 v = vec4(0.0);
        LOAD_INTO(v, uintBitsToFloat(uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u])));
#endif
        value += WIDEN(v);
    }
    writeOut(value);
}
#endif
