// RWTexture2D<F>.Load: one texel per iteration, 16×16 per thread, through a storage image.
#version 450
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, FORMAT) uniform readonly image2D source;

void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            ivec2 texel = ivec2((start + uvec2(x, y)) | pc.elementsMask);
            vec4 v = vec4(0.0);
            LOAD_INTO(v, imageLoad(source, texel));
            value += WIDEN(v);
        }
    }
    writeOut(value);
}
