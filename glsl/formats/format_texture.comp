// Texture2D<F>.Load / .Sample for the extended and block-compressed formats: one texel per
// iteration, 16×16 per thread, from a 32×32 sampled image read as float, int or uint (KIND
// 0, 1, 2; integers converted to float for the sum). SAMPLE=1 samples at the texel centre,
// LOD 0, through the bound sampler (nearest or linear, REPEAT); SAMPLE=0 uses texelFetch.
// Kernels built from this template (see build.rs):
// @kernels format_texture_load_float_w{WIDTH}_{PATTERN}: SAMPLE=0 KIND=0 WIDTH=1,2,3,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_texture_load_int_w{WIDTH}_{PATTERN}: SAMPLE=0 KIND=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_texture_load_uint_w{WIDTH}_{PATTERN}: SAMPLE=0 KIND=2 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_texture_sample_float_w{WIDTH}_{PATTERN}: SAMPLE=1 KIND=0 WIDTH=1,2,3,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_texture_sample_int_w{WIDTH}_{PATTERN}: SAMPLE=1 KIND=1 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
// @kernels format_texture_sample_uint_w{WIDTH}_{PATTERN}: SAMPLE=1 KIND=2 WIDTH=1,2,4 PATTERN=uniform:0,linear:1,random:2
#version 450
#extension GL_EXT_samplerless_texture_functions : require
#include "common.glsl"

#if KIND == 1
#define TEXTURE itexture2D
#define SAMPLER2D isampler2D
#elif KIND == 2
#define TEXTURE utexture2D
#define SAMPLER2D usampler2D
#else
#define TEXTURE texture2D
#define SAMPLER2D sampler2D
#endif

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform TEXTURE source;
#if SAMPLE
layout(set = 0, binding = 1) uniform sampler textureSampler;
#endif

const float TEXTURE_SIZE = 32.0;

void main() {
    uvec2 start = startIndex2D(gl_LocalInvocationID.xy);
    vec4 value = vec4(0.0);
    [[dont_unroll]] for (uint y = 0u; y < 16u; ++y) {
        [[dont_unroll]] for (uint x = 0u; x < 16u; ++x) {
            uvec2 texel = (start + uvec2(x, y)) | pc.elementsMask;
            vec4 v = vec4(0.0);
#if SAMPLE
            vec2 uv = (vec2(texel) + 0.5) / TEXTURE_SIZE;
            LOAD_INTO(v, vec4(textureLod(SAMPLER2D(source, textureSampler), uv, 0.0)));
#else
            LOAD_INTO(v, vec4(texelFetch(source, ivec2(texel), 0)));
#endif
            value += WIDEN(v);
        }
    }
    writeOut(value);
}
