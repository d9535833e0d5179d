// RWBuffer<F>.Load: one element per iteration through a storage texel buffer (imageLoad).
// Kernels built from this template (see build.rs):
// @kernels storage_texel_buffer_r8_{PATTERN}: FORMAT=r8 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rg8_{PATTERN}: FORMAT=rg8 WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rgba8_{PATTERN}: FORMAT=rgba8 WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_r16f_{PATTERN}: FORMAT=r16f WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rg16f_{PATTERN}: FORMAT=rg16f WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rgba16f_{PATTERN}: FORMAT=rgba16f WIDTH=4 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_r32f_{PATTERN}: FORMAT=r32f WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rg32f_{PATTERN}: FORMAT=rg32f WIDTH=2 PATTERN=uniform:0,linear:1,random:2
// @kernels storage_texel_buffer_rgba32f_{PATTERN}: FORMAT=rgba32f WIDTH=4 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0, FORMAT) uniform readonly imageBuffer source;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, imageLoad(source, int(element)));
        value += WIDEN(v);
    }
    writeOut(value);
}
