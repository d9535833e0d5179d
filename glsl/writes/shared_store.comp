// groupshared{float4} store: 256 stores per thread into a shared vec4[512] (see write.glsl for
// where and what). The table is cleared first; only --verify (writeIndex = 0) has group 0
// copy it out, which the compiler cannot rule out, so no store is dead.
// Kernels built from this template (see build.rs):
// @kernels shared_store_w{WIDTH}_{PATTERN}: KIND=0 WIDTH=4 STORE_ELEMENTS=512u PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"
#include "write.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) writeonly buffer Result {
    vec4 result[];
};

// 8 KB, plus the 4 KB of common.glsl: within the 16 KB every device offers.
shared vec4 table[512];

void main() {
    [[dont_unroll]] for (uint j = gl_LocalInvocationIndex; j < 512u; j += 256u) {
        table[j] = vec4(0.0);
    }
    memoryBarrierShared();
    barrier();
    uint start = storeStart1D(gl_LocalInvocationIndex);
    VALUE_TYPE value = VALUE_INIT(start);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        table[STORE_ELEMENT(start, i)] = VALUE_OUT(value);
        value = VALUE_STEP(value);
    }
    memoryBarrierShared();
    barrier();
    if (gl_WorkGroupID.x == pc.writeIndex) {
        [[dont_unroll]] for (uint j = gl_LocalInvocationIndex; j < 512u; j += 256u) {
            result[j] = table[j];
        }
    }
}
