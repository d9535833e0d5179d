// PushConstant{float4[6]} load: one vec4 of a push-constant array per iteration; the index
// wraps modulo 6 (6 vec4 + the 32-byte header = 128 bytes, the smallest maxPushConstantsSize).
// Kernels built from this template (see build.rs):
// @kernels push_constant_w{WIDTH}_{PATTERN}: WIDTH=4 PATTERN=uniform:0,linear:1,random:2
#version 450
#define PUSH_ARRAY
#include "common.glsl"

layout(local_size_x = 256) in;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = ((start + i) | pc.elementsMask) % 6u;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, pc.data[element]);
        value += WIDEN(v);
    }
    writeOut(value);
}
