// StructuredBuffer<float|float2|float4>.Load: one std430 element per iteration from a storage buffer.
#version 450
#include "common.glsl"

#if WIDTH == 1
#define ELEMENT float
#elif WIDTH == 2
#define ELEMENT vec2
#else
#define ELEMENT vec4
#endif

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
};

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        value += WIDEN(elements[element]);
    }
    writeOut(value);
}
