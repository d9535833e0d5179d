// RWStructuredBuffer<uint|uint2|uint4|float|float2|float4>.Store: 256 stores per thread into a
// storage buffer of 1024 std430 elements (see write.glsl for where and what).
// Kernels built from this template (see build.rs):
// @kernels buffer_store_uint_w{WIDTH}_{PATTERN}: KIND=2 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels buffer_store_float_w{WIDTH}_{PATTERN}: KIND=0 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
#version 450
#include "common.glsl"
#include "write.glsl"

#if KIND == 2
#if WIDTH == 1
#define ELEMENT uint
#elif WIDTH == 2
#define ELEMENT uvec2
#else
#define ELEMENT uvec4
#endif
#else
#if WIDTH == 1
#define ELEMENT float
#elif WIDTH == 2
#define ELEMENT vec2
#else
#define ELEMENT vec4
#endif
#endif

#if WIDTH == 1
#define NARROW(v) ((v).x)
#elif WIDTH == 2
#define NARROW(v) ((v).xy)
#else
#define NARROW(v) (v)
#endif

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) writeonly buffer Target {
    ELEMENT elements[];
};

void main() {
    uint start = storeStart1D(gl_LocalInvocationIndex);
    VALUE_TYPE value = VALUE_INIT(start);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        elements[STORE_ELEMENT(start, i)] = NARROW(VALUE_OUT(value));
        value = VALUE_STEP(value);
    }
}
