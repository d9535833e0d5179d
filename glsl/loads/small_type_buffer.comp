// StructuredBuffer<uint8_t|float16_t>.Load: one 8- or 16-bit element per iteration, converted
// to float (storageBuffer8BitAccess / storageBuffer16BitAccess; no 8/16-bit arithmetic).
// Kernels built from this template (see build.rs):
// @kernels uint8_buffer_w{WIDTH}_{PATTERN}: WIDTH=1 ELEMENT_BITS=8 PATTERN=uniform:0,linear:1,random:2
// @kernels float16_buffer_w{WIDTH}_{PATTERN}: WIDTH=1 ELEMENT_BITS=16 PATTERN=uniform:0,linear:1,random:2
#version 450
#if ELEMENT_BITS == 8
#extension GL_EXT_shader_8bit_storage : require
#define ELEMENT uint8_t
#else
#extension GL_EXT_shader_16bit_storage : require
#define ELEMENT float16_t
#endif
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
};

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        float v = 0.0;
#if ELEMENT_BITS == 8
        LOAD_INTO(v, float(uint(elements[element])));
#else
        LOAD_INTO(v, float(elements[element]));
#endif
        value += WIDEN(v);
    }
    writeOut(value);
}
