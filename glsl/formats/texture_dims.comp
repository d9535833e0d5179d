// Texture1D<F>, Texture2DArray<F>, Texture3D<F> .Load / .Sample: one texel per iteration.
// DIM=1: a 1024-texel 1-D image, read like Buffer<F> (256 threads × 256 texels from
// startIndex1D). DIM=3 (16×16×8 3-D image) and DIM=4 (16×16 2-D array of 8 layers): groups
// of 8×8×4 threads, each reading an 8×8×4 block of texels (x fastest, then y, then z / layer)
// from startIndex3D. SAMPLE=1 samples at texel centres (array layers are not filtered),
// LOD 0, through the bound sampler (nearest or linear, REPEAT); SAMPLE=0 uses texelFetch.
// Kernels built from this template (see build.rs):
// @kernels texture_dims_1d_load_w{WIDTH}_{PATTERN}: DIM=1 SAMPLE=0 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_dims_1d_sample_w{WIDTH}_{PATTERN}: DIM=1 SAMPLE=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_dims_array_load_w{WIDTH}_{PATTERN}: DIM=4 SAMPLE=0 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_dims_array_sample_w{WIDTH}_{PATTERN}: DIM=4 SAMPLE=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_dims_3d_load_w{WIDTH}_{PATTERN}: DIM=3 SAMPLE=0 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels texture_dims_3d_sample_w{WIDTH}_{PATTERN}: DIM=3 SAMPLE=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

#if DIM == 1
#define TEXTURE texture1D
#define SAMPLER sampler1D
layout(local_size_x = 256) in;
#elif DIM == 3
#define TEXTURE texture3D
#define SAMPLER sampler3D
layout(local_size_x = 8, local_size_y = 8, local_size_z = 4) in;
#else
#define TEXTURE texture2DArray
#define SAMPLER sampler2DArray
layout(local_size_x = 8, local_size_y = 8, local_size_z = 4) in;
#endif

layout(set = 0, binding = 0) uniform TEXTURE source;
#if SAMPLE
layout(set = 0, binding = 1) uniform sampler textureSampler;
#endif

// Start texel of a thread of an 8×8×4 group: the patterns of startIndex2D, per axis.
uvec3 startIndex3D(uvec3 localId) {
#if PATTERN == 0
    return uvec3(0u);
#elif PATTERN == 1
    return localId;
#else
    return (localId * 0x3504f333u) & 4u;
#endif
}

void main() {
    vec4 value = vec4(0.0);
#if DIM == 1
    uint start = startIndex1D(gl_LocalInvocationIndex);
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint texel = (start + i) | pc.elementsMask;
        vec4 v = vec4(0.0);
#if SAMPLE
        LOAD_INTO(v, textureLod(SAMPLER(source, textureSampler), (float(texel) + 0.5) / 1024.0, 0.0));
#else
        LOAD_INTO(v, texelFetch(source, int(texel), 0));
#endif
        value += WIDEN(v);
    }
#else
    uvec3 start = startIndex3D(gl_LocalInvocationID);
    [[dont_unroll]] for (uint z = 0u; z < 4u; ++z) {
        [[dont_unroll]] for (uint y = 0u; y < 8u; ++y) {
            [[dont_unroll]] for (uint x = 0u; x < 8u; ++x) {
                uvec3 texel = (start + uvec3(x, y, z)) | pc.elementsMask;
                vec4 v = vec4(0.0);
#if SAMPLE && DIM == 3
                vec3 uvw = (vec3(texel) + 0.5) / vec3(16.0, 16.0, 8.0);
                LOAD_INTO(v, textureLod(SAMPLER(source, textureSampler), uvw, 0.0));
#elif SAMPLE
                vec3 uvl = vec3((vec2(texel.xy) + 0.5) / 16.0, float(texel.z));
                LOAD_INTO(v, textureLod(SAMPLER(source, textureSampler), uvl, 0.0));
#else
                LOAD_INTO(v, texelFetch(source, ivec3(texel), 0));
#endif
                value += WIDEN(v);
            }
        }
    }
#endif
    writeOut(value);
}
