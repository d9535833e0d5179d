// Texture2D<F>.Sample: one sample per iteration at a texel centre, LOD 0; the bound sampler
// (nearest or linear; REPEAT or CLAMP_TO_EDGE; in the layout or not) decides which test this is.
// COMBINED reads a combined image-sampler descriptor (sampler2D) instead of a texture2D and a
// sampler; UNNORMALIZED passes texel coordinates (texel + 0.5) for a sampler with
// unnormalizedCoordinates.
// Kernels built from this template (see build.rs):
// @kernels texture_sample_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
// @kernels texture_sample_w{WIDTH}_{WAVE_LOAD}: WIDTH=1,2,4 PATTERN=0 WAVE_LOAD=waveshuffle:1,wavebroadcast:2
// @kernels texture_sample_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 CEILING=1 PATTERN=ceiling_linear:1
// @kernels texture_sample_combined_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 COMBINED=1 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_sample_unnormalized_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 UNNORMALIZED=1 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
#ifdef COMBINED
layout(set = 0, binding = 0) uniform sampler2D source;
#define SAMPLED source
#else
layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 1) uniform sampler textureSampler;
#define SAMPLED sampler2D(source, textureSampler)
#endif

const float TEXTURE_SIZE = 32.0;

// The coordinates of a texel's centre.
#ifdef UNNORMALIZED
#define CENTRE(texel) (vec2(texel) + 0.5)
#else
#define CENTRE(texel) (vec2(texel) + 0.5) / TEXTURE_SIZE
#endif

#if defined(WAVE_LOAD) || defined(CEILING)
#define ITERATIONS_2D
LOAD_TYPE loadIteration(uvec2 start, uvec2 xy) {
    vec2 uv = CENTRE((start + xy) | pc.elementsMask);
    return NARROW(textureLod(SAMPLED, uv, 0.0));
}
// The first sample's coordinates; sample (x, y) is at (x, y) / 32 from them.
#define CEILING_BASE vec2
vec2 ceilingBase(uvec2 start) {
    return CENTRE(start | pc.elementsMask);
}
LOAD_TYPE loadFromBase(vec2 base, uvec2 xy) {
    return NARROW(textureLod(SAMPLED, base + vec2(xy) / TEXTURE_SIZE, 0.0));
}
#include "variants.glsl"
#else
void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            uvec2 texel = (start + uvec2(x, y)) | pc.elementsMask;
            vec2 uv = CENTRE(texel);
            vec4 v = vec4(0.0);
            LOAD_INTO(v, textureLod(SAMPLED, uv, 0.0));
            value += WIDEN(v);
        }
    }
    writeOut(value);
}
#endif
