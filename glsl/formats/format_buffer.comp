// Buffer<F>.Load for the extended formats: one element per iteration from a uniform texel
// buffer read as float, int or uint (KIND 0, 1, 2; integers converted to float for the sum).
// Kernels built from this template (see build.rs):
// @kernels format_buffer_float_w{WIDTH}_{PATTERN}: KIND=0 WIDTH=1,2,3,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_buffer_int_w{WIDTH}_{PATTERN}: KIND=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_buffer_uint_w{WIDTH}_{PATTERN}: KIND=2 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

#if KIND == 1
#define TEXTURE_BUFFER itextureBuffer
#elif KIND == 2
#define TEXTURE_BUFFER utextureBuffer
#else
#define TEXTURE_BUFFER textureBuffer
#endif

layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform TEXTURE_BUFFER source;

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
        LOAD_INTO(v, vec4(texelFetch(source, int(element))));
        value += WIDEN(v);
    }
    writeOut(value);
}
