// Control: loop 1D — the buffer kernels' loop, address arithmetic and accumulation, with the
// load replaced by a conversion of the address: what the 1-D loop costs by itself.
// Kernels built from this template (see build.rs):
// @kernels control_1d_w{WIDTH}_{PATTERN}: WIDTH=4 PATTERN=linear:1
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        value += vec4(float(element));
    }
    writeOut(value);
}
