// Texture2D<F>.Sample: one sample per iteration at a texel centre, LOD 0; the bound sampler
// (nearest or linear, REPEAT) decides which test this is.
// Kernels built from this template (see build.rs):
// @kernels texture_sample_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
#version 450
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 1) uniform sampler textureSampler;

const float TEXTURE_SIZE = 32.0;

void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            uvec2 texel = (start + uvec2(x, y)) | pc.elementsMask;
            vec2 uv = (vec2(texel) + 0.5) / TEXTURE_SIZE;
            vec4 v = vec4(0.0);
            LOAD_INTO(v, textureLod(sampler2D(source, textureSampler), uv, 0.0));
            value += WIDEN(v);
        }
    }
    writeOut(value);
}
