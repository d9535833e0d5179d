// groupshared{float4} load: the group copies 512 vec4 of the input into shared memory once,
// then every thread runs the same loop over shared memory: the in-core reference point.
// Kernels built from this template (see build.rs):
// @kernels shared_memory_w{WIDTH}_{PATTERN}: WIDTH=4 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    vec4 elements[];
};

// 8 KB, plus the 4 KB of common.glsl: within the 16 KB every device offers.
shared vec4 table[512];

void main() {
    [[dont_unroll]] for (uint j = gl_LocalInvocationIndex; j < 512u; j += 256u) {
        table[j] = elements[j];
    }
    memoryBarrierShared();
    barrier();
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, table[element]);
        value += WIDEN(v);
    }
    writeOut(value);
}
