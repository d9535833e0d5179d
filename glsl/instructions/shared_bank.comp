// Instruction timings of shared-memory loads (see src/families/shared_bank.rs): 32-bit loads
// whose addresses are STRIDE words apart between neighbouring invocations (stride 1: every
// lane a different bank; stride 32: every lane of a 32-lane subgroup the same bank), and
// 16-byte (uvec4) loads at stride 1.
// Throughput (shared_bank_*): the group copies 8 KB of the input into shared memory, then each
// invocation runs ITER iterations of 16 loads from (lane·STRIDE + 16·i + k) | elementsMask,
// wrapped to the table, summed into 4 accumulators. The runtime OR keeps the compiler from
// merging the 16 consecutive loads into wide ones.
// Latency (shared_bank_latency_s*): the table holds (j + 32) mod 2048 at j, and the first
// subgroup follows it from lane·STRIDE, one dependent load after the other (same bank, same
// conflicts as the throughput kernel), for `pc.elementsMask` iterations of 16 loads between
// two reads of the subgroup clock.
// Kernels built from this template (see build.rs):
// @kernels shared_bank_s{STRIDE}: STRIDE=1,2,4,8,16,32 VEC4=0 LATENCY=0 WIDTH=4 PATTERN=1
// @kernels shared_bank_vec4: STRIDE=1 VEC4=1 LATENCY=0 WIDTH=4 PATTERN=1
// @kernels shared_bank_latency_s{STRIDE}: STRIDE=1,2,4,8,16,32 VEC4=0 LATENCY=1 WIDTH=4 PATTERN=1
#version 450
#if LATENCY
#extension GL_ARB_shader_clock : require
#extension GL_KHR_shader_subgroup_basic : require
#endif
#include "common.glsl"
#include "instructions.glsl"

#if LATENCY
#define GROUP 64u
#else
#define GROUP 256u
#endif
layout(local_size_x = GROUP) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

#define ITER 256u
// 8 KB of table (plus 16 elements, so that a run of 16 loads never wraps), beside the 4 KB
// of common.glsl: within the 16 KB every device offers.
#if VEC4
#define ELEMENTS 512u
shared uvec4 table[ELEMENTS + 16u];
#else
#define ELEMENTS 2048u
shared uint table[ELEMENTS + 16u];
#endif

void main() {
    uint lane = gl_LocalInvocationIndex;
    [[dont_unroll]] for (uint j = lane; j < ELEMENTS + 16u; j += GROUP) {
#if LATENCY
        table[j] = (j + 32u) & (ELEMENTS - 1u);
#elif VEC4
        table[j] = uvec4(words[4u * j], words[4u * j + 1u], words[4u * j + 2u], words[4u * j + 3u]);
#else
        table[j] = words[j];
#endif
    }
    memoryBarrierShared();
    barrier();
    uint start = (lane * STRIDE) & (ELEMENTS - 1u);
#if LATENCY
    if (gl_SubgroupID != 0u) {
        return;
    }
    uint at = start;
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < pc.elementsMask; ++i) {
        at = table[at]; at = table[at]; at = table[at]; at = table[at];
        at = table[at]; at = table[at]; at = table[at]; at = table[at];
        at = table[at]; at = table[at]; at = table[at]; at = table[at];
        at = table[at]; at = table[at]; at = table[at]; at = table[at];
    }
    uvec2 t1 = clock2x32ARB();
    outData[lane] = pieces(at, start);
    if (lane == 0u) {
        uint lo = t1.x - t0.x;
        uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
        outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
        // The width this subgroup runs at: the lanes the runner compares (Latency::reports_subgroup_size).
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#else
#if VEC4
    uvec4 s0 = uvec4(0u), s1 = uvec4(0u), s2 = uvec4(0u), s3 = uvec4(0u);
#else
    uint s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u;
#endif
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        uint at = ((start + 16u * i) | pc.elementsMask) & (ELEMENTS - 1u);
        s0 += table[at];       s1 += table[at + 1u];  s2 += table[at + 2u];  s3 += table[at + 3u];
        s0 += table[at + 4u];  s1 += table[at + 5u];  s2 += table[at + 6u];  s3 += table[at + 7u];
        s0 += table[at + 8u];  s1 += table[at + 9u];  s2 += table[at + 10u]; s3 += table[at + 11u];
        s0 += table[at + 12u]; s1 += table[at + 13u]; s2 += table[at + 14u]; s3 += table[at + 15u];
    }
#if VEC4
    writeOut(encode32(s0.x, s0.y, s0.z, s0.w, s1.x, s1.y, s1.z, s1.w,
                      s2.x, s2.y, s2.z, s2.w, s3.x, s3.y, s3.z, s3.w));
#else
    writeOut(pieces(s0 * 31u + s1, s2 * 31u + s3));
#endif
#endif
}
