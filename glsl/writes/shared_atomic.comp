// groupshared{uint} InterlockedAdd: 256 atomicAdd per thread on a shared uint[512], with
// buffer_atomic.comp's elements and values. The table is cleared first; only --verify
// (writeIndex = 0) has group 0 copy it out, which the compiler cannot rule out.
// Kernels built from this template (see build.rs):
// @kernels shared_atomic_add_{PATTERN}: WIDTH=1 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) writeonly buffer Result {
    uint result[];
};

shared uint table[512];

void main() {
    [[dont_unroll]] for (uint j = gl_LocalInvocationIndex; j < 512u; j += 256u) {
        table[j] = 0u;
    }
    memoryBarrierShared();
    barrier();
    uint start = startIndex1D(gl_LocalInvocationIndex);
    uint v = (gl_LocalInvocationIndex & 7u) + 1u;
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        atomicAdd(table[element], v + i);
    }
    memoryBarrierShared();
    barrier();
    if (gl_WorkGroupID.x == pc.writeIndex) {
        [[dont_unroll]] for (uint j = gl_LocalInvocationIndex; j < 512u; j += 256u) {
            result[j] = table[j];
        }
    }
}
