// RWBuffer<F>.Store: 256 stores per thread through a storage texel buffer of 1024 texels
// (imageStore; see write.glsl for where and what).
// Kernels built from this template (see build.rs):
// @kernels texel_buffer_store_r8_{PATTERN}: FORMAT=r8 KIND=1 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rg8_{PATTERN}: FORMAT=rg8 KIND=1 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rgba8_{PATTERN}: FORMAT=rgba8 KIND=1 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_r16f_{PATTERN}: FORMAT=r16f KIND=0 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rg16f_{PATTERN}: FORMAT=rg16f KIND=0 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rgba16f_{PATTERN}: FORMAT=rgba16f KIND=0 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_r32f_{PATTERN}: FORMAT=r32f KIND=0 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rg32f_{PATTERN}: FORMAT=rg32f KIND=0 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels texel_buffer_store_rgba32f_{PATTERN}: FORMAT=rgba32f KIND=0 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"
#include "write.glsl"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0, FORMAT) uniform writeonly imageBuffer target;

void main() {
    uint start = storeStart1D(gl_LocalInvocationIndex);
    VALUE_TYPE value = VALUE_INIT(start);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        imageStore(target, int(STORE_ELEMENT(start, i)), VALUE_OUT(value));
        value = VALUE_STEP(value);
    }
}
