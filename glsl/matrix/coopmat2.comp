// Cooperative-matrix throughput at workgroup scope (GL_NV_cooperative_matrix2's flexible
// dimensions): one M×N×K multiply-add shared by the W invocations of a workgroup, types TA,
// TB, TC as in coopmat.comp (see src/families/coopmat2.rs, whose table these lines follow).
// The same exact small-integer inputs as coopmat.comp (A, B1, B2 = E - B1, C); the workgroup
// loads A, B1, B2 once and runs ACC accumulators through ITER pairs of multiply-adds, stores
// each to shared memory, and slot s (0…255, whatever W) sums and hashes the elements
// s, s + 256, … of each; invocation t writes slots t, t + W, … .
// With CLK (coopmat2_…_tc, what the runner times where the device has a real-time clock in
// shaders), a few workgroups also read the clock their multiply-adds run at (kernel_clock.glsl).
// GL_NV_cooperative_matrix2 compiles only for SPIR-V 1.6:
// @target vulkan1.3
// @kernels coopmat2_64x64x16_f16_f16_f32_w{W}{CLK}: M=64 N=64 K=16 TA=1 TB=1 TC=5 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x64x32_f16_f16_f32_w{W}{CLK}: M=64 N=64 K=32 TA=1 TB=1 TC=5 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x128x16_f16_f16_f32_w{W}{CLK}: M=64 N=128 K=16 TA=1 TB=1 TC=5 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x64x16_f16_f16_f16_w{W}{CLK}: M=64 N=64 K=16 TA=1 TB=1 TC=1 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x128x16_f16_f16_f16_w{W}{CLK}: M=64 N=128 K=16 TA=1 TB=1 TC=1 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x64x16_bf16_bf16_f32_w{W}{CLK}: M=64 N=64 K=16 TA=2 TB=2 TC=5 W=128,256 CLK=:0,_tc:1
// @kernels coopmat2_64x64x32_s8_s8_s32_w{W}{CLK}: M=64 N=64 K=32 TA=6 TB=6 TC=8 W=128,256 CLK=:0,_tc:1
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#if TA == 2 || TB == 2
#extension GL_EXT_bfloat16 : require
#endif
#if CLK
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_KHR_shader_subgroup_basic : require
#endif
#define WIDTH 4
#define PATTERN 1
#include "common.glsl"
#include "instructions.glsl"
#if CLK
#include "kernel_clock.glsl"
#endif

layout(local_size_x = W) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

#define T_1 float16_t
#define T_2 bfloat16_t
#define T_5 float
#define T_6 int8_t
#define T_8 int
#define TYPE_(c) T_##c
#define TYPE(c) TYPE_(c)
#define A_T TYPE(TA)
#define B_T TYPE(TB)
#define C_T TYPE(TC)

#define ACC 4
#define ITER 64

#define ROW gl_CooperativeMatrixLayoutRowMajor
#define MAT_A coopmat<A_T, gl_ScopeWorkgroup, M, K, gl_MatrixUseA>
#define MAT_B coopmat<B_T, gl_ScopeWorkgroup, K, N, gl_MatrixUseB>
#define MAT_C coopmat<C_T, gl_ScopeWorkgroup, M, N, gl_MatrixUseAccumulator>

shared A_T sA[M * K];
shared B_T sB1[K * N];
shared B_T sB2[K * N];
// C on the way in (accumulator j from row j on, 16-byte aligned), each accumulator on the
// way out.
shared C_T sC[(M + ACC) * N];
// Word i of the input, wrapping at its 4096 words.
#define WORD(i) words[(i) & 4095u]

int small(uint w) { return int(w % 5u) - 2; }
int smallC(uint w) { return int(w % 9u) - 4; }

void main() {
    uint t = gl_LocalInvocationIndex;
    for (uint i = t; i < M * K; i += W) {
        sA[i] = A_T(small(WORD(i)));
    }
    for (uint i = t; i < K * N; i += W) {
        int b = small(WORD(1024u + i));
        uint k = i / N, j = i % N;
        sB1[i] = B_T(b);
        sB2[i] = B_T((k == j % K ? 1 : 0) - b);
    }
    for (uint i = t; i < (M + ACC) * N; i += W) {
        sC[i] = C_T(smallC(WORD(2048u + i)));
    }
    barrier();
    MAT_A a;
    MAT_B b1;
    MAT_B b2;
    MAT_C c[ACC];
    coopMatLoad(a, sA, 0, K, ROW);
    coopMatLoad(b1, sB1, 0, N, ROW);
    coopMatLoad(b2, sB2, 0, N, ROW);
    [[unroll]] for (uint j = 0u; j < ACC; ++j) {
        coopMatLoad(c[j], sC, j * N, N, ROW);
    }
#if CLK
    uvec4 clock_begin = kernel_clock_begin();
#endif
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        [[unroll]] for (uint j = 0u; j < ACC; ++j) {
            c[j] = coopMatMulAdd(a, b1, c[j]);
        }
        [[unroll]] for (uint j = 0u; j < ACC; ++j) {
            c[j] = coopMatMulAdd(a, b2, c[j]);
        }
    }
#if CLK
    kernel_clock_end(clock_begin);
#endif
    uint sum[256 / W];
    uint hash[256 / W];
    [[unroll]] for (uint q = 0u; q < 256 / W; ++q) {
        sum[q] = 0u;
        hash[q] = 0u;
    }
    [[unroll]] for (uint j = 0u; j < ACC; ++j) {
        barrier();
        coopMatStore(c[j], sC, 0, N, ROW);
        barrier();
        [[unroll]] for (uint q = 0u; q < 256 / W; ++q) {
            for (uint e = t + q * W; e < M * N; e += 256u) {
                uint x = uint(int(sC[e]));
                sum[q] += x;
                hash[q] = hash[q] * 31u + x;
            }
        }
    }
    if (pc.writeIndex != 0xFFFFFFFFu) {
        [[unroll]] for (uint q = 0u; q < 256 / W; ++q) {
            outData[gl_WorkGroupID.x * 256u + t + q * W] = pieces(sum[q], hash[q]);
        }
    }
}
