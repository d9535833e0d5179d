// Control: loop 2D — the texture kernels' nested loops, coordinate arithmetic and
// accumulation, with the fetch replaced by arithmetic on the texel coordinates.
// Kernels built from this template (see build.rs):
// @kernels control_2d_w{WIDTH}_{PATTERN}: WIDTH=4 PATTERN=linear:1
#version 450
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            uvec2 texel = (start + uvec2(x, y)) | pc.elementsMask;
            value += vec4(float(texel.x + 32u * texel.y));
        }
    }
    writeOut(value);
}
