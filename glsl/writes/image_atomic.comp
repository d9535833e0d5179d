// RWTexture2D<uint>.InterlockedAdd: 256 imageAtomicAdd per thread on a 32×32 R32_UINT storage
// image, with buffer_atomic.comp's elements and values (element e is texel (e % 32, e / 32)).
// Kernels built from this template (see build.rs):
// @kernels image_atomic_add_{PATTERN}: WIDTH=1 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D target;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    uint v = (gl_LocalInvocationIndex & 7u) + 1u;
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        imageAtomicAdd(target, ivec2(element & 31u, element >> 5u), v + i);
    }
}
