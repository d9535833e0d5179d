// Cooperative-matrix throughput and latency of one configuration M×N×K, A×B + C with element
// types TA, TB, TC (the result type is TC), subgroup scope, SAT: saturating accumulation
// (see src/families/coopmat.rs, whose CONFIGS table these lines follow).
// Type codes: 1 f16, 2 bf16, 3 e4m3, 4 e5m2, 5 f32, 6 s8, 7 u8, 8 s32, 9 u32.
//
// The matrices come from the input words, small integers that every type holds exactly:
// A and B1 in [-2, 2] (unsigned types [0, 2]), C in [-4, 4] ([0, 4]), and B2 = E - B1 where
// E has one 1 per column (E[k][j] = k == j % K), and accumulator j starts from rows j… of C
// ((M + ACC) × N words): a pair of multiply-adds c += A·B1;
// c += A·B2 adds A·E (one element of A, in [-2, 2]) to each element, so that after n pairs
// every partial sum in any order of accumulation stays an integer well inside the 11 bits of
// an f16 mantissa, and the result is exact. With an unsigned B there is no E - B1: B2 = B1.
// Throughput (coopmat_…): every subgroup loads A, B1, B2 once and runs ACC independent
// accumulators through ITER·gl_SubgroupSize/32 pairs of multiply-adds (a workgroup does the
// same work whatever its subgroup size), then stores each accumulator to shared memory, and
// each lane sums (and hashes) the elements lane, lane + gl_SubgroupSize, … of each.
// Latency (coopmat_latency_…): the first subgroup of one 64-invocation group runs one
// accumulator through pc.elementsMask iterations of UNROLL dependent pairs between two reads
// of the subgroup clock; lanes write their sums, lane 0 the ticks after them.
// Throughput with its own clock (coopmat_…_tc, what the runner times where the device has a
// real-time clock in shaders): the throughput kernel, a few of its workgroups reading the clock
// its multiply-adds run at (kernel_clock.glsl).
// @kernels coopmat_16x16x16_f16_f16_f16_{LAT}: M=16 N=16 K=16 TA=1 TB=1 TC=1 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_f16_f16_f32_{LAT}: M=16 N=16 K=16 TA=1 TB=1 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x16_f16_f16_f16_{LAT}: M=16 N=8 K=16 TA=1 TB=1 TC=1 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x16_f16_f16_f32_{LAT}: M=16 N=8 K=16 TA=1 TB=1 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x8_f16_f16_f16_{LAT}: M=16 N=8 K=8 TA=1 TB=1 TC=1 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x8_f16_f16_f32_{LAT}: M=16 N=8 K=8 TA=1 TB=1 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_8x8x16_f16_f16_f32_{LAT}: M=8 N=8 K=16 TA=1 TB=1 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_8x16x16_f16_f16_f32_{LAT}: M=8 N=16 K=16 TA=1 TB=1 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_bf16_bf16_f32_{LAT}: M=16 N=16 K=16 TA=2 TB=2 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x16_bf16_bf16_f32_{LAT}: M=16 N=8 K=16 TA=2 TB=2 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_e4m3_e4m3_f32_{LAT}: M=16 N=16 K=32 TA=3 TB=3 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_e4m3_e4m3_f16_{LAT}: M=16 N=16 K=32 TA=3 TB=3 TC=1 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_e5m2_e5m2_f32_{LAT}: M=16 N=16 K=32 TA=4 TB=4 TC=5 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_e5m2_e5m2_f16_{LAT}: M=16 N=16 K=32 TA=4 TB=4 TC=1 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_s8_s8_s32_{LAT}: M=16 N=16 K=32 TA=6 TB=6 TC=8 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x32_u8_u8_u32_{LAT}: M=16 N=16 K=32 TA=7 TB=7 TC=9 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x32_s8_s8_s32_{LAT}: M=16 N=8 K=32 TA=6 TB=6 TC=8 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x8x32_u8_u8_u32_{LAT}: M=16 N=8 K=32 TA=7 TB=7 TC=9 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_s8_s8_s32_{LAT}: M=16 N=16 K=16 TA=6 TB=6 TC=8 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_u8_u8_u32_{LAT}: M=16 N=16 K=16 TA=7 TB=7 TC=9 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_s8_s8_s32_sat_{LAT}: M=16 N=16 K=16 TA=6 TB=6 TC=8 SAT=1 LAT=t:0,latency:1,tc:2
// @kernels coopmat_16x16x16_u8_u8_u32_sat_{LAT}: M=16 N=16 K=16 TA=7 TB=7 TC=9 SAT=1 LAT=t:0,latency:1,tc:2
// @kernels coopmat_8x8x32_s8_s8_s32_{LAT}: M=8 N=8 K=32 TA=6 TB=6 TC=8 SAT=0 LAT=t:0,latency:1,tc:2
// @kernels coopmat_8x16x32_s8_s8_s32_{LAT}: M=8 N=16 K=32 TA=6 TB=6 TC=8 SAT=0 LAT=t:0,latency:1,tc:2
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#if TA == 2 || TB == 2
#extension GL_EXT_bfloat16 : require
#endif
#if TA == 3 || TB == 3
#extension GL_EXT_float_e4m3 : require
#endif
#if TA == 4 || TB == 4
#extension GL_EXT_float_e5m2 : require
#endif
#if LAT
#extension GL_ARB_shader_clock : require
#endif
#if LAT == 2
#extension GL_EXT_shader_realtime_clock : require
#endif
#define WIDTH 4
#define PATTERN 1
#include "common.glsl"
#include "instructions.glsl"
#if LAT == 2
#include "kernel_clock.glsl"
#endif

#if LAT == 1
layout(local_size_x = 64) in;
#else
layout(local_size_x = 256) in;
#endif
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

#define T_1 float16_t
#define T_2 bfloat16_t
#define T_3 floate4m3_t
#define T_4 floate5m2_t
#define T_5 float
#define T_6 int8_t
#define T_7 uint8_t
#define T_8 int
#define T_9 uint
#define TYPE_(c) T_##c
#define TYPE(c) TYPE_(c)
#define A_T TYPE(TA)
#define B_T TYPE(TB)
#define C_T TYPE(TC)
#define UNSIGNED(c) ((c) == 7 || (c) == 9)
// Bytes per element, for the 16-byte alignment of every load and store: B's rows are padded
// to BS elements where N elements are fewer than 16 bytes (16x8x32 int8), and accumulator j
// starts j rows into C (an element offset of j would misalign it: NVIDIA then loads the
// wrong elements).
#define SZ_1 2
#define SZ_2 2
#define SZ_3 1
#define SZ_4 1
#define SZ_5 4
#define SZ_6 1
#define SZ_7 1
#define SZ_8 4
#define SZ_9 4
#define SIZE_(c) SZ_##c
#define SIZE(c) SIZE_(c)
#define BS (N * SIZE(TB) >= 16 ? N : 16 / SIZE(TB))

// Independent accumulators per subgroup, pairs of multiply-adds per accumulator (times
// gl_SubgroupSize / 32), and dependent pairs per latency iteration.
#define ACC 8
#define ITER 128
#define UNROLL 4
// Result slots in shared memory: subgroups beyond 8 store in turns.
#define SLOTS 8u

#if SAT
#define MULADD(a, b, c) coopMatMulAdd(a, b, c, gl_MatrixOperandsSaturatingAccumulation)
#else
#define MULADD(a, b, c) coopMatMulAdd(a, b, c)
#endif

#define ROW gl_CooperativeMatrixLayoutRowMajor
#define MAT_A coopmat<A_T, gl_ScopeSubgroup, M, K, gl_MatrixUseA>
#define MAT_B coopmat<B_T, gl_ScopeSubgroup, K, N, gl_MatrixUseB>
#define MAT_C coopmat<C_T, gl_ScopeSubgroup, M, N, gl_MatrixUseAccumulator>

shared A_T sA[M * K];
shared B_T sB1[K * BS];
shared B_T sB2[K * BS];
shared C_T sC[(M + ACC) * N];
shared C_T sOut[SLOTS * M * N];

// An element in [-2, 2] ([0, 2] for an unsigned type), and one of C in [-4, 4] ([0, 4]).
int small(uint w, bool unsigned_) { return unsigned_ ? int(w % 3u) : int(w % 5u) - 2; }
int smallC(uint w, bool unsigned_) { return unsigned_ ? int(w % 5u) : int(w % 9u) - 4; }

// Word i of the input, wrapping at its 4096 words.
#define WORD(i) words[(i) & 4095u]

// The matrices, from the input (src/families/coopmat.rs computes the same).
void fill() {
    uint size = gl_WorkGroupSize.x;
    for (uint i = gl_LocalInvocationIndex; i < M * K; i += size) {
        sA[i] = A_T(small(WORD(i), UNSIGNED(TA)));
    }
    for (uint i = gl_LocalInvocationIndex; i < K * N; i += size) {
        int b = small(WORD(1024u + i), UNSIGNED(TB));
        uint k = i / N, j = i % N;
        sB1[k * BS + j] = B_T(b);
#if UNSIGNED(TB)
        sB2[k * BS + j] = B_T(b);
#else
        sB2[k * BS + j] = B_T((k == j % K ? 1 : 0) - b);
#endif
    }
    for (uint i = gl_LocalInvocationIndex; i < (M + ACC) * N; i += size) {
        sC[i] = C_T(smallC(WORD(2048u + i), UNSIGNED(TC)));
    }
    barrier();
}

// Adds the elements lane, lane + gl_SubgroupSize, … of `c` (stored in slot `slot`) to the
// lane's sum and hash.
void take(MAT_C c, uint slot, inout uint sum, inout uint hash) {
    coopMatStore(c, sOut, slot * M * N, N, ROW);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    for (uint e = gl_SubgroupInvocationID; e < M * N; e += gl_SubgroupSize) {
        uint x = uint(int(sOut[slot * M * N + e]));
        sum += x;
        hash = hash * 31u + x;
    }
    subgroupBarrier();
}

void main() {
    fill();
    MAT_A a;
    MAT_B b1;
    MAT_B b2;
    coopMatLoad(a, sA, 0, K, ROW);
    coopMatLoad(b1, sB1, 0, BS, ROW);
    coopMatLoad(b2, sB2, 0, BS, ROW);
    uint sum = 0u, hash = 0u;
#if LAT == 1
    if (gl_SubgroupID != 0u) {
        return;
    }
    MAT_C c;
    coopMatLoad(c, sC, 0, N, ROW);
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < (pc.elementsMask & 0xFFFFu); ++i) {
        [[unroll]] for (uint u = 0u; u < UNROLL; ++u) {
            c = MULADD(a, b1, c);
            c = MULADD(a, b2, c);
        }
    }
    uvec2 t1 = clock2x32ARB();
    take(c, 0u, sum, hash);
    outData[gl_LocalInvocationIndex] = pieces(sum, hash);
    if (gl_LocalInvocationIndex == 0u) {
        uint lo = t1.x - t0.x;
        uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
        outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
        // The width this subgroup runs at: the lanes the runner compares (Latency::reports_subgroup_size).
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#else
    MAT_C c[ACC];
    [[unroll]] for (uint j = 0u; j < ACC; ++j) {
        coopMatLoad(c[j], sC, j * N, N, ROW);
    }
    uint pairs = ITER * gl_SubgroupSize / 32u;
#if LAT == 2
    uvec4 clock_begin = kernel_clock_begin();
#endif
    [[dont_unroll]] for (uint i = 0u; i < pairs; ++i) {
        [[unroll]] for (uint j = 0u; j < ACC; ++j) {
            c[j] = MULADD(a, b1, c[j]);
        }
        [[unroll]] for (uint j = 0u; j < ACC; ++j) {
            c[j] = MULADD(a, b2, c[j]);
        }
    }
#if LAT == 2
    kernel_clock_end(clock_begin);
#endif
    // Subgroups beyond SLOTS take turns with the shared slots.
    uint turns = (gl_NumSubgroups + SLOTS - 1u) / SLOTS;
    for (uint r = 0u; r < turns; ++r) {
        if (gl_SubgroupID / SLOTS == r) {
            [[unroll]] for (uint j = 0u; j < ACC; ++j) {
                take(c[j], gl_SubgroupID % SLOTS, sum, hash);
            }
        }
        barrier();
    }
    writeOut(pieces(sum, hash));
#endif
}
