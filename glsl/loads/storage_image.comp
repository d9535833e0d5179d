// RWTexture2D<F>.Load: one texel per iteration, 16×16 per thread, through a storage image.
// Kernels built from this template (see build.rs):
// @kernels storage_image_r8_{PATTERN}: FORMAT=r8 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rg8_{PATTERN}: FORMAT=rg8 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rgba8_{PATTERN}: FORMAT=rgba8 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_r16f_{PATTERN}: FORMAT=r16f WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rg16f_{PATTERN}: FORMAT=rg16f WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rgba16f_{PATTERN}: FORMAT=rgba16f WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_r32f_{PATTERN}: FORMAT=r32f WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rg32f_{PATTERN}: FORMAT=rg32f WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_image_rgba32f_{PATTERN}: FORMAT=rgba32f WIDTH=4 PATTERN=uniform:0,linear:1,random:2
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
