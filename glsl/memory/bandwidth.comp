// The bandwidth suite (crates/suites/src/families/memory/bandwidth/read.rs): how fast each
// resource delivers a working set of N loads (pc.readStart) from wherever it lives — L1, L2 or memory.
// Every workgroup reads 65536 loads (256 per invocation), coalesced: invocation t of group g
// reads element (base_g + t + 256 k) mod N for k = 0 .. 255, where base_g is a hash of g, a
// multiple of 8 below N. A set of at most 65536 loads is read by every group whole, again and
// again (from L1 where it fits); a larger one is a chunk per group from a random start, each
// line read once by that group, and other groups at unrelated times read the same lines (from
// L2 where the set fits there, else from memory). (Starts at g * 65536 mod N made groups
// running side by side read the same lines for sets of a few chunks: L1 hits at L2 sizes.)
// The loads go 8 per unrolled step into a sum, so 8 are in flight per invocation.
// Each invocation sums its loads' words (uint, wrapping); the 256 sums go to shared memory and,
// only when writeIndex != ~0 (verify), invocation 0 writes the group's total into
// check.groupSums[g] — which also keeps every load alive.
// RESOURCE: 1 storage buffer of uvec4 (raw), 2 storage buffer of vec4 (structured),
// 3 storage buffer of float (scalar), 4 buffer device address (uvec4), 5 uniform buffer
// (uvec4[4096], 64 KB), 6 uniform texel buffer RGBA32F, 7 uniform texel buffer R32F,
// 8 storage texel buffer RGBA32F; images (the set is N / 64 blocks of 8x8 texels, element e
// texel e mod 64 of block e / 64, row by row; the blocks lie wb blocks wide from the image's
// top-left corner, wb the power of two at or above sqrt(N / 64) unless it does not divide
// N / 64, then the largest that does; so 256 invocations read 4 blocks side by side, a 32x8
// patch, as a block-linear image stores them): 9 storage image
// RGBA32F (imageLoad), 10 sampled image RGBA32F (texelFetch), 11 sampled image RGBA8
// (texelFetch), 12 sampled image RGBA8, bilinear sample at the texel's centre (weights 1 and 0).
// RGBA8 texels are summed as their four bytes (round(v * 255)), float ones as their bits.
// @kernels bandwidth_{RESOURCE}: RESOURCE=raw_buffer:1,structured_buffer:2,scalar_buffer:3,device_address:4,uniform_buffer:5,texel_buffer_rgba32f:6,texel_buffer_r32f:7,storage_texel_buffer:8,storage_image_rgba32f:9,texel_fetch_rgba32f:10,texel_fetch_rgba8:11,sample_bilinear_rgba8:12 WIDTH=4 PATTERN=1
#version 450
#if RESOURCE == 4
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#endif
#if RESOURCE == 6 || RESOURCE == 7 || RESOURCE == 10 || RESOURCE == 11
#extension GL_EXT_samplerless_texture_functions : require
#endif
#include "common.glsl"

layout(local_size_x = 256) in;

// The device addresses of the family's two pools of data (RESOURCE 4: working sets up to
// 64 MB are in the small one, the larger in the large one), and each group's checksum (verify).
layout(std430, set = 0, binding = 1) buffer Check {
    uvec2 smallPool;
    uvec2 largePool;
    uint groupSums[];
} check;
// The small pool's size in 16-byte loads (the family's SMALL_POOL_BYTES / 16).
#define SMALL_POOL_LOADS 4194304u

#if RESOURCE == 1
layout(std430, set = 0, binding = 0) readonly buffer Data {
    uvec4 words[];
};
#define LOAD(i) words[i]
#elif RESOURCE == 2
layout(std430, set = 0, binding = 0) readonly buffer Data {
    vec4 elements[];
};
#define LOAD(i) floatBitsToUint(elements[i])
#elif RESOURCE == 3
layout(std430, set = 0, binding = 0) readonly buffer Data {
    float scalars[];
};
#define LOAD(i) uvec4(floatBitsToUint(scalars[i]), 0u, 0u, 0u)
#elif RESOURCE == 4
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Words {
    uvec4 words[];
};
#elif RESOURCE == 5
// 64 KB, the largest maxUniformBufferRange of current GPUs (larger sets are unsupported).
layout(std140, set = 0, binding = 0) uniform Data {
    uvec4 quads[4096];
};
#define LOAD(i) quads[i]
#elif RESOURCE == 6
layout(set = 0, binding = 0) uniform textureBuffer texels;
#define LOAD(i) floatBitsToUint(texelFetch(texels, int(i)))
#elif RESOURCE == 7
layout(set = 0, binding = 0) uniform textureBuffer texels;
#define LOAD(i) uvec4(floatBitsToUint(texelFetch(texels, int(i)).x), 0u, 0u, 0u)
#elif RESOURCE == 8
layout(set = 0, binding = 0, rgba32f) uniform readonly imageBuffer texels;
#define LOAD(i) floatBitsToUint(imageLoad(texels, int(i)))
#elif RESOURCE == 9
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D texels;
#define LOAD(i) floatBitsToUint(imageLoad(texels, AT(i)))
#elif RESOURCE == 10
layout(set = 0, binding = 0) uniform texture2D texels;
#define LOAD(i) floatBitsToUint(texelFetch(texels, AT(i), 0))
#elif RESOURCE == 11
layout(set = 0, binding = 0) uniform texture2D texels;
#define LOAD(i) uvec4(round(texelFetch(texels, AT(i), 0) * 255.0))
#elif RESOURCE == 12
layout(set = 0, binding = 0) uniform sampler2D texels;
#define LOAD(i) uvec4(round(textureLod(texels, (vec2(AT(i)) + 0.5) * texelSize, 0.0) * 255.0))
#endif
#if RESOURCE >= 9
// Element e of the set: texel (e & 7, (e >> 3) & 7) of block b = e >> 6, at block
// (b mod wb, b / wb), wb = 1 << wbShift.
#define AT(i) ivec2(((((i) >> 6u) & (wb - 1u)) << 3u) | ((i) & 7u), \
                    ((((i) >> 6u) >> wbShift) << 3u) | (((i) >> 3u) & 7u))
#endif

shared uint keep[256];

void main() {
#if RESOURCE == 4
    Words table = Words(pc.readStart > SMALL_POOL_LOADS ? check.largePool : check.smallPool);
#define LOAD(i) table.words[i]
#endif
    uint n = pc.readStart;
    uint t = gl_LocalInvocationIndex;
#if RESOURCE >= 9
    // wb: 2^ceil(log2(blocks) / 2), at most the largest power of two that divides blocks.
    uint blocks = n >> 6u;
    uint msb = uint(findMSB(blocks));
    uint half_ = (blocks & (blocks - 1u)) == 0u ? (msb + 1u) / 2u : msb / 2u + 1u;
    uint wbShift = min(half_, uint(findLSB(blocks)));
    uint wb = 1u << wbShift;
#endif
#if RESOURCE == 12
    vec2 texelSize = 1.0 / vec2(textureSize(texels, 0));
#endif
    // The group's start: a hash of its index, on an 8-load (128-byte) boundary, so that the
    // groups running at once on an SM, and across the GPU, read unrelated parts of the set.
    uint h = gl_WorkGroupID.x * 0x9E3779B1u;
    h = (h ^ (h >> 15u)) * 0x85EBCA77u;
    h ^= h >> 13u;
    uint idx = h % (n >> 3u) * 8u + t;
    if (idx >= n) {
        idx -= n;
    }
    uvec4 acc = uvec4(0u);
    [[dont_unroll]] for (uint k = 0u; k < 32u; ++k) {
        [[unroll]] for (uint u = 0u; u < 8u; ++u) {
            acc += LOAD(idx | pc.elementsMask);
            idx += 256u;
            if (idx >= n) {
                idx -= n;
            }
        }
    }
    keep[t] = acc.x + acc.y + acc.z + acc.w;
    memoryBarrierShared();
    barrier();
    if (pc.writeIndex != 0xFFFFFFFFu && t == 0u) {
        uint sum = 0u;
        for (uint j = 0u; j < 256u; ++j) {
            sum += keep[j];
        }
        check.groupSums[gl_WorkGroupID.x] = sum;
    }
}
