// BufferReference<float|float2|float4>.Load: one element per iteration through a device
// address (GL_EXT_buffer_reference) passed in the push constants.
// Kernels built from this template (see build.rs):
// @kernels buffer_reference_w{WIDTH}_{PATTERN}: WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"

#if WIDTH == 1
#define ELEMENT float
#elif WIDTH == 2
#define ELEMENT vec2
#else
#define ELEMENT vec4
#endif

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Source {
    ELEMENT elements[];
};

layout(local_size_x = 256) in;

void main() {
    Source source = Source(pc.address);
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        ELEMENT v = ELEMENT(0.0);
        LOAD_INTO(v, source.elements[element]);
        value += WIDEN(v);
    }
    writeOut(value);
}
