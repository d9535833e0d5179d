// The latency suite's stride sweep (src/families/memory/stride_chase.rs): one lane walks a
// working set in blocks of 16 nodes STRIDE bytes apart, the blocks in a random cycle, every
// load's address depending on the load before it. A block's first load finds the block cold
// (a random block of a set larger than the cache), the next ones hit what the first fetched
// while they stay within it: a step costs a miss once in every FETCH / STRIDE steps below the
// granularity FETCH a level is filled in, and on every step from it up, so the latency per
// step rises with the stride until the stride reaches that granularity and is flat after it.
// Every stride walks the same number of loads per block with the same arithmetic, so only
// how many of them miss changes.
// The table: a size's region (bound from its first byte) holds chain c of stride s in the
// word at byte s × (16 × block + p) of each block, p = 15 − 8c (the block's last node in the
// chain's order): the index of the block that follows. p is odd, so the strides' words (odd
// multiples of each power of two) and the two chains' (p = 15 and 7) never share a word; every
// other load of a block reads whatever lies there and adds nothing (its value AND the
// push-constant word `unused`, which is always 0 but unknown to the compiler, so that the next
// address still waits for it).
// Chain c (pc.readStart % CHAINS) visits a block's nodes p + 7, p + 14 … p + 112 (mod 16); its
// chase continues where the previous dispatch of the same test left it (state.next[readStart],
// a block index), except the verify dispatch (writeIndex != ~0, elementsMask 0), which starts
// at block 0 so that the CPU can walk the same cycle. An iteration is one block (16 steps).
// Iterations: pc.elementsMask, or 16 when it is 0 (the timed dispatch), and 17 for the verify
// dispatch (no size's block count divides 17: the family's tests check it).
// CLOCK 1 (the latency kernel): the subgroup clock is read around the timed iterations; lane
// 0 writes the ticks into outData[64]; elementsMask holds the timed iterations in the low 16
// bits and, in the high 16, iterations walked first, untimed, in the same dispatch.
// Kernels built from this template (see build.rs):
// @kernels stride_chase_{STRIDE}b{CLOCK}: STRIDE=4,8,16,32,64,128,256,512 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
#version 450
#extension GL_EXT_control_flow_attributes : require
#if CLOCK
#extension GL_ARB_shader_clock : require
#endif
#include "common.glsl"

layout(local_size_x = 256) in;

// Chains per test (the family's CHAINS).
#define CHAINS 2u
// Words from one node to the next, and per block.
#define SW (STRIDE / 4u)
#define BW (16u * SW)

layout(std430, set = 0, binding = 0) readonly buffer Table {
    uint words[];
};
// Where each test's chains stand: a block index per readStart.
layout(std430, set = 0, binding = 1) buffer State {
    uint next[];
} state;

void main() {
    bool verifyStart = pc.writeIndex != 0xFFFFFFFFu && pc.elementsMask == 0u;
    uint iterations = pc.elementsMask != 0u ? pc.elementsMask : (verifyStart ? 17u : 16u);
#if CLOCK
    uint warmIterations = iterations >> 16u;
    iterations &= 0xFFFFu;
#endif
    if (gl_LocalInvocationIndex == 0u) {
        // Step u of a block loads node p + 7 (u + 1) (mod 16): every node once, the last
        // (u = 15) node p, in an order that no stream prefetcher follows (a CPU's under
        // lavapipe would fetch ahead of a walk in address order; a GPU's caches see the same
        // sectors either way).
        uint first = (pc.readStart % CHAINS) == 0u ? 6u : 14u;
        uint zero = pc.unused;
        uint cur = verifyStart ? 0u : state.next[pc.readStart];
        // One block: 15 loads whose values add nothing but their wait, then the one that
        // holds the next block.
#define BLOCK()                                                                  \
        {                                                                        \
            uint b = cur * BW;                                                   \
            [[unroll]] for (uint u = 0u; u < 15u; ++u) {                         \
                b += words[b + ((first + 7u * u) & 15u) * SW] & zero;                 \
            }                                                                    \
            cur = words[b + ((first + 7u * 15u) & 15u) * SW];                         \
        }
#if CLOCK
        [[dont_unroll]] for (uint i = 0u; i < warmIterations; ++i) {
            BLOCK()
        }
        uvec2 t0 = clock2x32ARB();
#endif
        [[dont_unroll]] for (uint i = 0u; i < iterations; ++i) {
            BLOCK()
        }
#if CLOCK
        uvec2 t1 = clock2x32ARB();
#endif
        state.next[pc.readStart] = cur;
        if (pc.writeIndex != 0xFFFFFFFFu) {
            outData[gl_WorkGroupID.x * 256u] = vec4(float(cur), 0.0, 0.0, 0.0);
#if CLOCK
            uint lo = t1.x - t0.x;
            uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
            outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
#endif
        }
    } else if (pc.writeIndex != 0xFFFFFFFFu && (pc.elementsMask == 0u || gl_LocalInvocationIndex < 64u)) {
        // The other invocations write zeros, so the whole output is defined (the latency
        // kernel leaves outData[64] to the ticks).
        outData[gl_WorkGroupID.x * 256u + gl_LocalInvocationIndex] = vec4(0.0);
    }
}
