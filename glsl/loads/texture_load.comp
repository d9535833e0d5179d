// Texture2D<F>.Load: one texel of mip 0 per iteration, 16×16 texels per thread, from a sampled image.
// Kernels built from this template (see build.rs):
// @kernels texture_load_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels texture_load_w{WIDTH}_{WAVE_LOAD}: WIDTH=1,2,4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels texture_load_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 CEILING=1 PATTERN=ceiling_linear:1
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform texture2D source;

#if defined(WAVE_LOAD) || defined(CEILING)
#define ITERATIONS_2D
LOAD_TYPE loadIteration(uvec2 start, uvec2 xy) {
    return NARROW(texelFetch(source, ivec2((start + xy) | pc.elementsMask), 0));
}
#define CEILING_BASE uvec2
uvec2 ceilingBase(uvec2 start) {
    return start | pc.elementsMask;
}
LOAD_TYPE loadFromBase(uvec2 base, uvec2 xy) {
    return NARROW(texelFetch(source, ivec2(base + xy), 0));
}
#include "variants.glsl"
#else
void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            ivec2 texel = ivec2((start + uvec2(x, y)) | pc.elementsMask);
            vec4 v = vec4(0.0);
            LOAD_INTO(v, texelFetch(source, texel, 0));
            value += WIDEN(v);
        }
    }
    writeOut(value);
}
#endif
