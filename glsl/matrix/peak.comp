// vkpeak's scalar and vec4 arithmetic peaks that the instruction suite has no row for: vec4
// fma of fp32, fp16 and fp64, vec4 int32 multiply-add, and int16 and int8 multiply-add, scalar
// and vec4 (see src/families/peak.rs). Every thread runs 16 chains x = x·m + c (fma for
// floats) through ITER iterations of 16 rounds; m and c come from the input at run time. Float
// chains multiply by a runtime 1.0 (readStart is 0), so fused or not each step rounds x + c
// once, and are `precise`; integer chains wrap at their width (m odd).
// Latency (peak_<op>_latency): chain x0 alone, 256 dependent operations per iteration, between
// two reads of the subgroup clock, in the first subgroup of one 64-invocation group.
// Throughput with its own clock (peak_<op>_tc): a few workgroups also read the clock their
// chains run at (kernel_clock.glsl).
// @kernels peak_{OP}_{LAT}: OP=fp32x4:1,fp16x4:2,fp64x4:3,int32x4:4,int16:5,int16x4:6,int8:7,int8x4:8 LAT=t:0,latency:1,tc:2
#version 450
#if OP == 2
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#if OP == 5 || OP == 6
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
#if OP == 7 || OP == 8
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#endif
#if LAT
#extension GL_ARB_shader_clock : require
#extension GL_KHR_shader_subgroup_basic : require
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

#define C(k) words[4064u + (k)]
#define ITER 32

// 1.0, which the compiler cannot know (readStart is a runtime 0 for these kernels).
float one() { return uintBitsToFloat(0x3F800000u | pc.readStart); }
// [1, 2) with 10 mantissa bits (exact in a half), and a small addend [2^-10, 2^-9) with 10.
float unit10(uint w) { return uintBitsToFloat(0x3F800000u | (w & 0x007FE000u)); }
float small10(uint w) { return uintBitsToFloat(0x3A800000u | (w & 0x007FE000u)); }

#if OP == 1
#define T vec4
#define S float
#elif OP == 2
#define T f16vec4
#define S float16_t
#elif OP == 3
#define T dvec4
#define S double
#elif OP == 4
#define T uvec4
#define S uint
#elif OP == 5
#define T uint16_t
#define S uint16_t
#elif OP == 6
#define T u16vec4
#define S uint16_t
#elif OP == 7
#define T uint8_t
#define S uint8_t
#else
#define T u8vec4
#define S uint8_t
#endif

#if OP <= 3
#define FLOAT 1
#define PRECISE precise
// Chain j starts at four values of [1, 2) from words w..w+3; m = 1, c = small10(C(q)).
#define INIT(j) T(S(unit10(WORD(4u * (j)))), S(unit10(WORD(4u * (j) + 1u))), \
                  S(unit10(WORD(4u * (j) + 2u))), S(unit10(WORD(4u * (j) + 3u))))
#define UPD(v) v = fma(v, m, c);
#else
#define FLOAT 0
#define PRECISE
#if OP == 5 || OP == 7
#define INIT(j) T(WORD(4u * (j)))
#else
#define INIT(j) T(WORD(4u * (j)), WORD(4u * (j) + 1u), WORD(4u * (j) + 2u), WORD(4u * (j) + 3u))
#endif
#define UPD(v) v = v * m + c;
#endif

#define WORD(i) words[(gl_LocalInvocationIndex * 64u + (i)) & 4095u]
#define DECLARE(j) PRECISE T x##j = INIT(j);
#define ROUND UPD(x0) UPD(x1) UPD(x2) UPD(x3) UPD(x4) UPD(x5) UPD(x6) UPD(x7) UPD(x8) UPD(x9) UPD(x10) UPD(x11) UPD(x12) UPD(x13) UPD(x14) UPD(x15)
#define LATENCY_ROUND UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0) UPD(x0)

#if FLOAT
// Four sums of four chains (each chain's components left to right), in f32.
#define F(p) (((float((p).x) + float((p).y)) + float((p).z)) + float((p).w))
#define ENCODE() vec4(((F(x0) + F(x1)) + F(x2)) + F(x3), ((F(x4) + F(x5)) + F(x6)) + F(x7), \
                      ((F(x8) + F(x9)) + F(x10)) + F(x11), ((F(x12) + F(x13)) + F(x14)) + F(x15))
#else
// Each chain as one word: its components (or its value) folded with ·31.
#if OP == 5 || OP == 7
#define FOLD(p) uint(p)
#else
#define FOLD(p) (((uint((p).x) * 31u + uint((p).y)) * 31u + uint((p).z)) * 31u + uint((p).w))
#endif
#define ENCODE() encode32(FOLD(x0), FOLD(x1), FOLD(x2), FOLD(x3), FOLD(x4), FOLD(x5), FOLD(x6), FOLD(x7), \
                          FOLD(x8), FOLD(x9), FOLD(x10), FOLD(x11), FOLD(x12), FOLD(x13), FOLD(x14), FOLD(x15))
#endif

void main() {
#if FLOAT
    T m = T(S(one()));
    T c = T(S(small10(C(0))), S(small10(C(1))), S(small10(C(2))), S(small10(C(3))));
#elif OP == 5 || OP == 7
    T m = T(C(0) | 1u);
    T c = T(C(1));
#else
    T m = T(C(0) | 1u, C(1) | 1u, C(2) | 1u, C(3) | 1u);
    T c = T(C(4), C(5), C(6), C(7));
#endif
    DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7)
    DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11) DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
#if LAT == 1
    if (gl_SubgroupID != 0u) {
        return;
    }
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < (pc.elementsMask & 0xFFFFu); ++i) {
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
        LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND LATENCY_ROUND
    }
    uvec2 t1 = clock2x32ARB();
    PRECISE vec4 result = ENCODE();
    outData[gl_LocalInvocationIndex] = result;
    if (gl_LocalInvocationIndex == 0u) {
        uint lo = t1.x - t0.x;
        uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
        outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
        // The width this subgroup runs at: the lanes the runner compares (Latency::reports_subgroup_size).
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#else
#if LAT == 2
    uvec4 clock_begin = kernel_clock_begin();
#endif
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        ROUND ROUND ROUND ROUND ROUND ROUND ROUND ROUND
        ROUND ROUND ROUND ROUND ROUND ROUND ROUND ROUND
    }
#if LAT == 2
    kernel_clock_end(clock_begin);
#endif
    PRECISE vec4 result = ENCODE();
    writeOut(result);
#endif
}
