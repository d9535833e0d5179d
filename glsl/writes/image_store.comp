// RWTexture2D<F>.Store: 16×16 stores per thread into a 32×32 storage image (imageStore; see
// write.glsl for where and what).
// Kernels built from this template (see build.rs):
// @kernels image_store_r8_{PATTERN}: FORMAT=r8 KIND=1 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rg8_{PATTERN}: FORMAT=rg8 KIND=1 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rgba8_{PATTERN}: FORMAT=rgba8 KIND=1 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_r16f_{PATTERN}: FORMAT=r16f KIND=0 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rg16f_{PATTERN}: FORMAT=rg16f KIND=0 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rgba16f_{PATTERN}: FORMAT=rgba16f KIND=0 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_r32f_{PATTERN}: FORMAT=r32f KIND=0 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rg32f_{PATTERN}: FORMAT=rg32f KIND=0 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels image_store_rgba32f_{PATTERN}: FORMAT=rgba32f KIND=0 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"
#include "write.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, FORMAT) uniform writeonly image2D target;

void main() {
    uvec2 start = storeStart2D(gl_LocalInvocationID.xy);
    VALUE_TYPE value = VALUE_INIT(start.y * 16u + start.x);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            imageStore(target, STORE_TEXEL(start, x, y), VALUE_OUT(value));
            value = VALUE_STEP(value);
        }
    }
}
