// Instruction timings of subgroup operations, OP (see src/families/subgroup_ops.rs).
// Throughput (subgroup_ops_<op>): as glsl/alu.comp, 16 independent chains per thread, ITER
// iterations of 16 rounds, one operation on every chain per round. Where the operation's
// result is the same in every lane (broadcast, ballot, add), the next operation's input is
// made per-lane again by one cheap operation (an xor, or a bit test), so that no compiler can
// treat the chain as uniform and fold it.
// Latency (subgroup_ops_latency_<op>): the first subgroup runs chain x0 alone between two
// reads of the subgroup clock, for `pc.elementsMask` iterations (see glsl/alu.comp).
// Invocations are assumed to fill subgroups in local-index order, as every implementation does.
// Every dispatch's invocation 0 of group 0 writes the width it runs at (gl_SubgroupSize, as a
// float) into the output's last vec4: the runner replays subgroups of that width, which need
// not be the width the device reports (see SubgroupOps::reports_subgroup_size).
// Kernels built from this template (see build.rs):
// @kernels subgroup_ops_{OP}: OP=shuffle:1,broadcast:2,ballot:3,add:4 LATENCY=0 WIDTH=4 PATTERN=1
// @kernels subgroup_ops_latency_{OP}: OP=shuffle:1,broadcast:2,ballot:3,add:4 LATENCY=1 WIDTH=4 PATTERN=1
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#if OP == 1
#extension GL_KHR_shader_subgroup_shuffle : require
#elif OP == 2 || OP == 3
#extension GL_KHR_shader_subgroup_ballot : require
#else
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#if LATENCY
#extension GL_ARB_shader_clock : require
#endif
#include "common.glsl"
#include "instructions.glsl"

#if LATENCY
layout(local_size_x = 64) in;
#else
layout(local_size_x = 256) in;
#endif
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

#define ITER 16

#if OP == 1 // shuffle: swap with the neighbouring lane (partner = lane ^ 1, from a runtime 1)
#define UPD(v) v = subgroupShuffle(v, partner);
#elif OP == 2 // broadcast lane 0, then a per-lane xor
#define UPD(v) v = subgroupBroadcast(v, 0u) ^ salt;
#elif OP == 3 // ballot of each lane's own bit (a per-lane test of a uniform mask)
#define UPD(v) v = subgroupBallot((v & laneBit) != 0u).x;
#else // add-reduction, then a per-lane xor
#define UPD(v) v = subgroupAdd(v) ^ salt;
#endif

#define ROUND UPD(x0) UPD(x1) UPD(x2) UPD(x3) UPD(x4) UPD(x5) UPD(x6) UPD(x7) \
              UPD(x8) UPD(x9) UPD(x10) UPD(x11) UPD(x12) UPD(x13) UPD(x14) UPD(x15)
#define LATENCY_ROUND UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) \
                      UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0)

#define DECLARE(j) uint x##j = words[(gl_LocalInvocationIndex * 16u + (j)) & 4095u];

void main() {
    uint lane = gl_SubgroupInvocationID;
    uint partner = lane ^ (1u | pc.elementsMask);
    uint salt = (lane + 1u) * (words[4064u] | 1u);
    uint laneBit = 1u << (lane & 31u);
    DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7)
    DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11) DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
#if LATENCY
    if (gl_SubgroupID != 0u) {
        return;
    }
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < pc.elementsMask; ++i) {
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
    }
    uvec2 t1 = clock2x32ARB();
    outData[gl_LocalInvocationIndex] =
        encode32(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
    if (gl_LocalInvocationIndex == 0u) {
        uint lo = t1.x - t0.x;
        uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
        outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#else
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        ROUND ROUND ROUND ROUND ROUND ROUND ROUND ROUND
        ROUND ROUND ROUND ROUND ROUND ROUND ROUND ROUND
    }
    writeOut(encode32(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15));
    if (gl_LocalInvocationIndex == 0u && gl_WorkGroupID.x == 0u) {
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#endif
}
