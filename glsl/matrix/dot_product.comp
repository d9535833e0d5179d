// Dot-product instruction timings of one operation, OP (see src/families/dot_product.rs).
// Throughput (dot_<op>_t): every thread runs 16 independent chains x0..x15 through ITER
// iterations of 16 rounds, each round one dot product on every chain: the chain's own value
// is one operand (its four bytes, two 16-bit halves or two halves), a runtime constant of the
// round (K(r)) the other, so that no dot product can be hoisted out of the loop.
// Integer dots accumulate into the chain (x = dot(x, k) + x, or the accumulating-saturating
// instruction); the half and bfloat16 dots average the pair (x = (dot(x, (½, ½)), x.x)),
// which rounds once whatever the order of the two products (both exact): the result is exact.
// Latency (dot_<op>_latency): the first subgroup of one 64-invocation group runs chain x0
// alone, 256 dependent dot products per iteration, between two reads of the subgroup clock.
// @kernels dot_{OP}_{LAT}: OP=s8x4:1,u8x4:2,s8u8x4:3,s8x4_sat:4,u8x4_sat:5,s8u8x4_sat:6,s16x2:7,u16x2:8,f16x2:9,bf16x2:10 LAT=t:0,latency:1
#version 450
#extension GL_EXT_integer_dot_product : require
#if OP == 7 || OP == 8
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
#if OP == 9
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#if OP == 10
#extension GL_EXT_bfloat16 : require
#endif
#if LAT
#extension GL_ARB_shader_clock : require
#extension GL_KHR_shader_subgroup_basic : require
#endif
#define WIDTH 4
#define PATTERN 1
#include "common.glsl"
#include "instructions.glsl"

#if LAT
layout(local_size_x = 64) in;
#else
layout(local_size_x = 256) in;
#endif
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

// Runtime constants: the input's last 32 words.
#define C(k) words[4064u + (k)]
#define ITER 64

#if OP == 1 || OP == 3 || OP == 4 || OP == 6 || OP == 7
#define T int
#define INIT(w, v) int(w)
#elif OP == 2 || OP == 5 || OP == 8
#define T uint
#define INIT(w, v) (w)
#elif OP == 9
#define T f16vec2
#define INIT(w, v) f16vec2(uintBitsToFloat(0x3F800000u | ((w) & 0x007FE000u)), uintBitsToFloat(0x3F800000u | ((v) & 0x007FE000u)))
#else
#define T bf16vec2
#define INIT(w, v) bf16vec2(uintBitsToFloat(0x3F800000u | ((w) & 0x007F0000u)), uintBitsToFloat(0x3F800000u | ((v) & 0x007F0000u)))
#endif

// The round's constant: one of four words.
#if OP == 1 || OP == 4
#define K(r) int(k[(r) & 3])
#elif OP == 7
#define K(r) unpack16(int(k[(r) & 3]))
#elif OP == 8
#define K(r) unpack16(k[(r) & 3])
#else
#define K(r) k[(r) & 3]
#endif

#if OP <= 3
#define UPD(v, r) v = dotPacked4x8EXT(v, K(r)) + v;
#elif OP <= 6
#define UPD(v, r) v = dotPacked4x8AccSatEXT(v, K(r), v);
#elif OP <= 8
#define UPD(v, r) v = dotEXT(unpack16(v), K(r)) + v;
#else
#define UPD(v, r) v = T(v.y, dot(v, h));
#endif

#define ROUND(r) UPD(x0, r) UPD(x1, r) UPD(x2, r) UPD(x3, r) UPD(x4, r) UPD(x5, r) UPD(x6, r) UPD(x7, r) UPD(x8, r) UPD(x9, r) UPD(x10, r) UPD(x11, r) UPD(x12, r) UPD(x13, r) UPD(x14, r) UPD(x15, r)
// The float chains take one dot product per round: lavapipe (LLVM 15) returns inf from 256
// dependent half dot products in a row, and the right result from 16.
#if OP >= 9
#define LATENCY_ROUND(r) UPD(x0, r)
#else
#define LATENCY_ROUND(r) UPD(x0, 0) UPD(x0, 1) UPD(x0, 2) UPD(x0, 3) UPD(x0, 4) UPD(x0, 5) UPD(x0, 6) UPD(x0, 7) UPD(x0, 8) UPD(x0, 9) UPD(x0, 10) UPD(x0, 11) UPD(x0, 12) UPD(x0, 13) UPD(x0, 14) UPD(x0, 15)
#endif

#if OP >= 9
#define F(p) (float((p).x) + float((p).y))
#define ENCODE() vec4(F(x0) + F(x1) + F(x2) + F(x3), F(x4) + F(x5) + F(x6) + F(x7), \
                      F(x8) + F(x9) + F(x10) + F(x11), F(x12) + F(x13) + F(x14) + F(x15))
#else
#define ENCODE() encode32(uint(x0), uint(x1), uint(x2), uint(x3), uint(x4), uint(x5), uint(x6), uint(x7), \
                          uint(x8), uint(x9), uint(x10), uint(x11), uint(x12), uint(x13), uint(x14), uint(x15))
#endif

#define WORD(j) words[(gl_LocalInvocationIndex * 16u + (j)) & 4095u]
#define WORD2(j) words[(gl_LocalInvocationIndex * 16u + (j) + 2048u) & 4095u]
#if OP >= 9
#define PRECISE precise
#else
#define PRECISE
#endif
#define DECLARE(j) PRECISE T x##j = INIT(WORD(j), WORD2(j));

void main() {
    uint k[4] = uint[4](C(0), C(1), C(2), C(3));
#if OP >= 9
    // (½, ½), which the compiler cannot know: ½ plus bits below half a unit in the last
    // place of a half (and of a bfloat16), which the conversion drops (truncating or rounding).
    float hf = uintBitsToFloat(0x3F000000u | (C(4) & 0x0FFFu));
    T h = T(hf, hf);
#endif
    DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7)
    DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11) DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
#if LAT
    if (gl_SubgroupID != 0u) {
        return;
    }
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < (pc.elementsMask & 0xFFFFu); ++i) {
        LATENCY_ROUND(0) LATENCY_ROUND(1) LATENCY_ROUND(2) LATENCY_ROUND(3)
        LATENCY_ROUND(4) LATENCY_ROUND(5) LATENCY_ROUND(6) LATENCY_ROUND(7)
        LATENCY_ROUND(8) LATENCY_ROUND(9) LATENCY_ROUND(10) LATENCY_ROUND(11)
        LATENCY_ROUND(12) LATENCY_ROUND(13) LATENCY_ROUND(14) LATENCY_ROUND(15)
    }
    uvec2 t1 = clock2x32ARB();
    outData[gl_LocalInvocationIndex] = ENCODE();
    if (gl_LocalInvocationIndex == 0u) {
        uint lo = t1.x - t0.x;
        uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
        outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
        // The width this subgroup runs at: the lanes the runner compares (Latency::reports_subgroup_size).
        outData[outData.length() - 1] = vec4(float(gl_SubgroupSize), 0.0, 0.0, 0.0);
    }
#else
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        ROUND(0) ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6) ROUND(7)
        ROUND(8) ROUND(9) ROUND(10) ROUND(11) ROUND(12) ROUND(13) ROUND(14) ROUND(15)
    }
    writeOut(ENCODE());
#endif
}
