// Texture2D<F>.Load: one texel of mip 0 per iteration, 16×16 texels per thread, from a sampled image.
// Kernels built from this template (see build.rs):
// @kernels texture_load_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2,broadcast:3
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform texture2D source;

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
