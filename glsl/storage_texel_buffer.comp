// RWBuffer<F>.Load: one element per iteration through a storage texel buffer (imageLoad).
#version 450
#include "common.glsl"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0, FORMAT) uniform readonly imageBuffer source;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, imageLoad(source, int(element)));
        value += WIDEN(v);
    }
    writeOut(value);
}
