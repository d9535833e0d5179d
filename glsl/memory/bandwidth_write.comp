// The bandwidth suite's writes, copies and reads of host memory
// (crates/suites/src/families/memory/bandwidth/write.rs): the access of
// glsl/memory/bandwidth.comp — every workgroup makes 65536 coalesced accesses,
// invocation t of group g to element (base_g + t + 256 k) mod N for k = 0 .. 255, base_g a
// hash of g on an 8-element boundary, 8 per unrolled step — with other operations:
// OP 1: store uvec4(4e + 1, 4e + 2, 4e + 3, 4e + 4) to element e of a storage buffer;
// OP 2: copy element e of one storage buffer of uvec4 into another (a load and a store);
// OP 3: load element e of a storage buffer in host-visible memory, summed into a per-group
//       checksum as glsl/bandwidth.comp's loads (written only for verify);
// OP 4: store vec4(4e + 1 …) mod 2^24 (exact floats) to element e of an RGBA32F storage image,
//       element e at texel (e mod 64) of 8x8 block e / 64, as glsl/bandwidth.comp lays them.
// OP 5: OP 2's copy with a grid-stride access instead: invocation i of the T = 256 × groups
//       takes elements (i + k T) mod N for k = 0 .. 255, so at each step the whole grid
//       streams one contiguous window of T elements (the loop a shader author writes);
// OP 6: OP 4's image stores with OP 5's grid-stride access;
// OP 7: OP 4's image stores with element e at texel (e mod W, e / W) of the W-wide image (rows,
//       not 8x8 blocks: consecutive invocations write consecutive texels of a row);
// OP 8: OP 7's rows with OP 5's grid-stride access;
// OP 9: OP 3's loads with OP 5's grid-stride access (the host reads each element once where
//       the grid is N / 65536 groups; the runner empties the caches before each dispatch).
// Groups that touch the same element write the same value, so the written memory is defined.
// @kernels bandwidth_{OP}: OP=store_buffer:1,copy_buffer:2,read_host:3,store_image:4,copy_grid_stride:5,store_image_grid_stride:6,store_image_rows:7,store_image_rows_grid_stride:8,read_host_cold:9 WIDTH=4 PATTERN=1
#version 450
#include "common.glsl"

#define GRID (OP == 5 || OP == 6 || OP == 8 || OP == 9)
#define READ_HOST (OP == 3 || OP == 9)
#define ROWS (OP == 7 || OP == 8)

layout(local_size_x = 256) in;

#if OP == 2 || READ_HOST || OP == 5
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uvec4 source[];
};
#endif
#if OP == 1 || OP == 2 || OP == 5
layout(std430, set = 0, binding = 1) writeonly buffer Destination {
    uvec4 destination[];
};
#elif READ_HOST
layout(std430, set = 0, binding = 1) writeonly buffer Check {
    uint groupSums[];
} check;
#else
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D texels;
#if ROWS
#define AT(i) ivec2((i) & (rw - 1u), (i) >> rwShift)
#else
#define AT(i) ivec2(((((i) >> 6u) & (wb - 1u)) << 3u) | ((i) & 7u), \
                    ((((i) >> 6u) >> wbShift) << 3u) | (((i) >> 3u) & 7u))
#endif
#endif

shared uint keep[256];

void main() {
    uint n = pc.readStart;
    uint t = gl_LocalInvocationIndex;
#if ROWS
    // The image's width, a power of two.
    uint rw = uint(imageSize(texels).x);
    uint rwShift = uint(findLSB(rw));
#elif OP == 4 || OP == 6
    uint blocks = n >> 6u;
    uint msb = uint(findMSB(blocks));
    uint half_ = (blocks & (blocks - 1u)) == 0u ? (msb + 1u) / 2u : msb / 2u + 1u;
    uint wbShift = min(half_, uint(findLSB(blocks)));
    uint wb = 1u << wbShift;
#endif
#if GRID
    // The grid's stride, reduced mod N once (the grid may be larger than a small set).
    uint stride = gl_NumWorkGroups.x * 256u % n;
    uint idx = (gl_WorkGroupID.x * 256u + t) % n;
#define STEP stride
#else
    uint h = gl_WorkGroupID.x * 0x9E3779B1u;
    h = (h ^ (h >> 15u)) * 0x85EBCA77u;
    h ^= h >> 13u;
    uint idx = h % (n >> 3u) * 8u + t;
    if (idx >= n) {
        idx -= n;
    }
#define STEP 256u
#endif
    uvec4 acc = uvec4(0u);
    [[dont_unroll]] for (uint k = 0u; k < 32u; ++k) {
        [[unroll]] for (uint u = 0u; u < 8u; ++u) {
            uint e = idx | pc.elementsMask;
#if OP == 1
            destination[e] = uvec4(4u * e) + uvec4(1u, 2u, 3u, 4u);
#elif OP == 2 || OP == 5
            destination[e] = source[e];
#elif READ_HOST
            acc += source[e];
#else
            imageStore(texels, AT(e), vec4((uvec4(4u * e) + uvec4(1u, 2u, 3u, 4u)) & 0xFFFFFFu));
#endif
            idx += STEP;
            if (idx >= n) {
                idx -= n;
            }
        }
    }
#if READ_HOST
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
#endif
}
