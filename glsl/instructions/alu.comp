// Instruction timings of one arithmetic operation, OP (see src/families/alu.rs for the table).
// Throughput (alu_<op>): every thread runs 16 chains x0..x15 side by side (16 independent
// operations in flight per thread), ITER iterations of 16 rounds, each round one operation
// UPD on every chain: 256 operations per iteration in a loop the compiler may not unroll.
// "Self" operations update a chain from itself and runtime constants (x = x + c); "ring"
// operations combine each chain with another (x0 = x0 + x1, …, x15 = x15 + x0; the distance
// changes by round, see RING_ROUND), for integer operations whose chain on itself a compiler
// could fold (x + c + c = x + 2c). Every input
// comes from the input buffer at run time, float chains are `precise` (no reassociation, no
// contraction), and every chain reaches the output through writeOut.
// Latency (alu_latency_<op>): the first subgroup of one 64-invocation group runs one
// dependent chain (self: x0 alone; ring: x0 = x0 + x15, x1 = x1 + x0, … each from the one
// before) for `pc.elementsMask` iterations of 256 operations between two reads of the
// subgroup clock; each lane writes its chains, lane 0 the ticks after them. Each group of 16
// operations of the chain takes the round index 0…15 in turn, as a throughput chain does over
// a loop iteration, so that no operation follows an identical one (16 × min(x, hi) in a row
// would be one, 16 × xor in a row could be re-associated into a tree).
// Kernels built from this template (see build.rs):
// @kernels alu_{OP}: OP=fp32_add:1,fp32_mul:2,fp32_fma:3,fp32_minmax:4,fp16_add:5,fp16_fma:6,fp16x2_add:7,fp16x2_fma:8,int32_add:9,int32_mul:10,int32_mad:11,int32_bitops:12,int32_xorshift:13,int32_minmax:14,cvt_f32_i32:15,cvt_f32_f16:16,sqrt:17,rsqrt:18,rcp:19,exp2:20,log2:21,sin:22,cos:23,fp64_add:24,fp64_fma:25,int64_add:26,int64_mul:27,fp16x2_muladd:28 LATENCY=0 WIDTH=4 PATTERN=1
// @kernels alu_latency_{OP}: OP=fp32_add:1,fp32_mul:2,fp32_fma:3,fp32_minmax:4,fp16_add:5,fp16_fma:6,fp16x2_add:7,fp16x2_fma:8,int32_add:9,int32_mul:10,int32_mad:11,int32_bitops:12,int32_xorshift:13,int32_minmax:14,cvt_f32_i32:15,cvt_f32_f16:16,sqrt:17,rsqrt:18,rcp:19,exp2:20,log2:21,sin:22,cos:23,fp64_add:24,fp64_fma:25,int64_add:26,int64_mul:27,fp16x2_muladd:28 LATENCY=1 WIDTH=4 PATTERN=1
#version 450
#if (OP >= 5 && OP <= 8) || OP == 16 || OP == 28
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#if OP == 26 || OP == 27
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#if LATENCY
#extension GL_ARB_shader_clock : require
#extension GL_KHR_shader_subgroup_basic : require
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

// Runtime constants: the input's last 32 words.
#define C(k) words[4064u + (k)]

// [1, 2) with the word's 23 mantissa bits.
float unit32(uint w) { return uintBitsToFloat(0x3F800000u | (w & 0x007FFFFFu)); }
// [1, 2) with 10 mantissa bits: exact in a half float.
float unit10(uint w) { return uintBitsToFloat(0x3F800000u | (w & 0x007FE000u)); }
// [2^-10, 2^-9): a small addend.
float small32(uint w) { return uintBitsToFloat(0x3A800000u | (w & 0x007FFFFFu)); }
// [1 - 2^-12, 1): a multiplier near 1.
float near1(uint w) { return uintBitsToFloat(0x3F7FF000u | (w & 0x00000FFFu)); }
// 1.0, which the compiler cannot know: readStart is a runtime 0 for every instruction kernel
// (elementsMask is not: the latency kernels take their iteration count from it).
float one() { return uintBitsToFloat(0x3F800000u | pc.readStart); }

// ---- The operations. Per OP: T, INIT(w, v) (v: a second word, for 64-bit types),
// ---- CONSTS (runtime constants), UPD(x, y, r) (round r of chain x; y its ring neighbour),
// ---- RING (1: ring operation), ITER, ENCODE (the output vec4) and PRECISE.
#if OP == 1 // fp32 add
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float c0 = small32(C(0));
#define UPD(x, y, r) x = x + c0;
#define ITER 64
#elif OP == 2 // fp32 mul
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float m0 = near1(C(0));
#define UPD(x, y, r) x = x * m0;
#define ITER 64
#elif OP == 3 // fp32 fma
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float m0 = near1(C(0)); float c0 = small32(C(1));
#define UPD(x, y, r) x = fma(x, m0, c0);
#define ITER 64
#elif OP == 4 // fp32 min/max: min with hi[k], max with lo[k], alternating by round
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float hi[4] = float[4](unit32(C(0)), unit32(C(1)), unit32(C(2)), unit32(C(3))); \
    float lo[4] = float[4](unit32(C(4)), unit32(C(5)), unit32(C(6)), unit32(C(7)));
#define UPD(x, y, r) x = (((r) & 1) == 0) ? min(x, hi[((r) >> 1) & 3]) : max(x, lo[((r) >> 1) & 3]);
#define ITER 64
#elif OP == 5 // fp16 add
#define T float16_t
#define INIT(w, v) float16_t(unit10(w))
#define CONSTS float16_t c0 = float16_t(small32(C(0) & 0xFFFFE000u));
#define UPD(x, y, r) x = x + c0;
#define ITER 64
#define HALF 1
#elif OP == 6 // fp16 fma by a runtime 1.0: with a multiplier below 1, the fused and the split
// chain part by up to 20 % over 1024 steps at half precision (and a driver may split an fma).
#define T float16_t
#define INIT(w, v) float16_t(unit10(w))
#define CONSTS float16_t m0 = float16_t(one()); float16_t c0 = float16_t(small32(C(1) & 0xFFFFE000u));
#define UPD(x, y, r) x = fma(x, m0, c0);
#define ITER 64
#define HALF 1
#elif OP == 7 // fp16x2 add (packed)
#define T f16vec2
#define INIT(w, v) f16vec2(unit10(w), unit10(v))
#define CONSTS f16vec2 c0 = f16vec2(small32(C(0) & 0xFFFFE000u), small32(C(1) & 0xFFFFE000u));
#define UPD(x, y, r) x = x + c0;
#define ITER 64
#define HALF 2
#elif OP == 8 // fp16x2 fma (packed)
#define T f16vec2
#define INIT(w, v) f16vec2(unit10(w), unit10(v))
#define CONSTS f16vec2 m0 = f16vec2(one()); \
    f16vec2 c0 = f16vec2(small32(C(2) & 0xFFFFE000u), small32(C(3) & 0xFFFFE000u));
#define UPD(x, y, r) x = fma(x, m0, c0);
#define ITER 64
#define HALF 2
#elif OP == 9 // int32 add (ring)
#define T uint
#define INIT(w, v) (w)
#define CONSTS
#define UPD(x, y, r) x = x + y;
#define ITER 64
#define RING 1
#elif OP == 10 // int32 mul (ring; odd values stay odd)
#define T uint
#define INIT(w, v) ((w) | 1u)
#define CONSTS
#define UPD(x, y, r) x = x * y;
#define ITER 32
#define RING 1
#elif OP == 11 // int32 mad (ring)
#define T uint
#define INIT(w, v) (w)
#define CONSTS uint c0 = C(0) | 1u;
#define UPD(x, y, r) x = x * y + c0;
#define ITER 32
#define RING 1
#elif OP == 12 // int32 xor, and, xor, or by round (ring). An xor always stands between an and
// and an or: x & (x | y) = x would let a compiler drop operations.
#define T uint
#define INIT(w, v) (w)
#define CONSTS
#define UPD(x, y, r) x = ((r) % 4 == 1) ? (x & y) : ((r) % 4 == 3) ? (x | y) : (x ^ y);
#define ITER 64
#define RING 1
#elif OP == 13 // int32 xorshift: x ^= x << 13, x ^= x >> 17, x ^= x << 5 by round
#define T uint
#define INIT(w, v) ((w) | 1u)
#define CONSTS
#define UPD(x, y, r) x = ((r) % 3 == 0) ? (x ^ (x << 13)) : ((r) % 3 == 1) ? (x ^ (x >> 17)) : (x ^ (x << 5));
#define ITER 32
#elif OP == 14 // int32 min/max (unsigned)
#define T uint
#define INIT(w, v) (w)
#define CONSTS uint hi[4] = uint[4](C(0) | 0xC0000000u, C(1) | 0xC0000000u, C(2) | 0xC0000000u, C(3) | 0xC0000000u); \
    uint lo[4] = uint[4](C(4) & 0x3FFFFFFFu, C(5) & 0x3FFFFFFFu, C(6) & 0x3FFFFFFFu, C(7) & 0x3FFFFFFFu);
#define UPD(x, y, r) x = (((r) & 1) == 0) ? min(x, hi[((r) >> 1) & 3]) : max(x, lo[((r) >> 1) & 3]);
#define ITER 64
#elif OP == 15 // f32 -> i32, xor, -> f32, add. A compiler may take int(float(i)) for i and
// float(int(x)) for trunc(x): an integer and a float operation between the conversions keep
// both from folding (the added fraction, under 2^-9, is truncated by the next conversion).
#define T float
#define INIT(w, v) (unit32(w) * 1024.0)
#define CONSTS int k0 = int(C(0) & 0xFFu); float c0 = small32(C(1));
#define UPD(x, y, r) x = float(int(x) ^ k0) + c0;
#define ITER 32
#elif OP == 16 // f32 -> f16, whose bits get +k0 (even rounds) or -k0 (odd rounds), k0 1..4 units
// of the last mantissa bit, -> f32, * a runtime 1.0. Each piece keeps both conversions real:
// a float(float16_t(x)) whose result is used as a float may be taken for x (NVIDIA's compiler
// does: a chain without the bits ran at 244 "ops"/clk/SM and, multiplied by a runtime 1.0 + a
// few ULP, ended on values no half holds), so the half goes out as bits (packFloat2x16), which
// only a real conversion produces. float16_t(float(h)) is h exactly, so a float operation the
// compiler cannot see through (the multiply) stands between f16 -> f32 and the next f32 -> f16.
// Every value stays a half (the multiplier is 1.0), so Vulkan's choice of rounding for the
// conversion does not matter; the add and subtract by rounds keep it within one binade.
#define T float
#define INIT(w, v) unit10(w)
#define CONSTS uint k0 = (C(0) & 3u) + 1u; float m0 = one();
#define HALF_BITS(x) packFloat2x16(f16vec2(float16_t(x), float16_t(0.0)))
#define FROM_BITS(b) float(unpackFloat2x16(b).x)
#define UPD(x, y, r) x = FROM_BITS((((r) & 1) == 0) ? HALF_BITS(x) + k0 : HALF_BITS(x) - k0) * m0;
#define ITER 32
#elif OP == 17 // sqrt
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS
#define UPD(x, y, r) x = sqrt(x);
#define ITER 16
#elif OP == 18 // inversesqrt
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS
#define UPD(x, y, r) x = inversesqrt(x);
#define ITER 16
#elif OP == 19 // 1/x + c, c in [0.5, 0.502): contracts to about 1.28. Not 1/x alone: two
// reciprocals cancel, and NVIDIA's compiler folds them in pairs (452 "ops"/clk/SM).
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float c0 = uintBitsToFloat(0x3F000000u | (C(0) & 0xFFFFu));
#define UPD(x, y, r) x = 1.0 / x + c0;
#define ITER 16
#elif OP == 20 // exp2(-x): contracts to 0.641…
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS
#define UPD(x, y, r) x = exp2(-x);
#define ITER 16
#elif OP == 21 // log2(x) + c, c in [2, 2.008): contracts to about 4
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float c0 = uintBitsToFloat(0x40000000u | (C(0) & 0xFFFFu));
#define UPD(x, y, r) x = log2(x) + c0;
#define ITER 16
#elif OP == 22 // sin(x) + c, c in [1, 1.008): contracts to about 1.93
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS float c0 = uintBitsToFloat(0x3F800000u | (C(0) & 0xFFFFu));
#define UPD(x, y, r) x = sin(x) + c0;
#define ITER 16
#elif OP == 23 // cos(x): contracts to 0.739…
#define T float
#define INIT(w, v) unit32(w)
#define CONSTS
#define UPD(x, y, r) x = cos(x);
#define ITER 16
#elif OP == 24 // fp64 add
#define T double
#define INIT(w, v) packDouble2x32(uvec2(v, 0x3FF00000u | ((w) & 0x000FFFFFu)))
#define CONSTS double c0 = double(small32(C(0)));
#define UPD(x, y, r) x = x + c0;
#define ITER 32
#elif OP == 25 // fp64 fma
#define T double
#define INIT(w, v) packDouble2x32(uvec2(v, 0x3FF00000u | ((w) & 0x000FFFFFu)))
#define CONSTS double m0 = double(near1(C(0))); double c0 = double(small32(C(1)));
#define UPD(x, y, r) x = fma(x, m0, c0);
#define ITER 32
#elif OP == 26 // int64 add (ring)
#define T uint64_t
#define INIT(w, v) ((uint64_t(w) << 32) | uint64_t(v))
#define CONSTS
#define UPD(x, y, r) x = x + y;
#define ITER 32
#define RING 1
#elif OP == 27 // int64 mul (ring; odd values stay odd)
#define T uint64_t
#define INIT(w, v) ((uint64_t(w) << 32) | uint64_t(v) | 1ul)
#define CONSTS
#define UPD(x, y, r) x = x * y;
#define ITER 16
#define RING 1
#elif OP == 28 // fp16x2 x * m + c (packed), m a runtime 1.0, not `precise`: a driver may
// contract it into one fma of its own choosing; beside OP 8, it shows whether that form runs
// at another rate than a packed fma() (on the H100 it does not).
#define T f16vec2
#define INIT(w, v) f16vec2(unit10(w), unit10(v))
#define CONSTS f16vec2 m0 = f16vec2(one()); \
    f16vec2 c0 = f16vec2(small32(C(2) & 0xFFFFE000u), small32(C(3) & 0xFFFFE000u));
#define UPD(x, y, r) x = x * m0 + c0;
#define ITER 64
#define HALF 2
#else
#error "unknown OP"
#endif

#ifndef RING
#define RING 0
#endif

// Float chains are precise: no reassociation (x + c + c is not x + 2c) and no contraction.
#if OP <= 8 || (OP >= 15 && OP <= 25)
#define PRECISE precise
#else
#define PRECISE
#endif

// ---- The output: 16 chains into one vec4, exactly as src/families/alu.rs recomputes it.
#if OP >= 24 && OP <= 25
// Doubles: four sums of four, rounded to float (fma: compared within a tolerance), or
// (add) the sum of all sixteen, whose 64 bits go out in 16-bit pieces (compared exactly).
#define F(x) x
#elif defined(HALF) && HALF == 2
// A function (not a macro) so that the chain variables are read whole: component access to
// them keeps spirv-opt from turning them into SSA values in the latency kernels.
float sum2(f16vec2 v) { return float(v.x) + float(v.y); }
#define F(v) sum2(v)
#else
#define F(x) float(x)
#endif

#if OP == 24
#define ENCODE() encodeBits64(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 + x12 + x13 + x14 + x15)
#elif OP == 25
#define ENCODE() vec4(float(F(x0) + F(x1) + F(x2) + F(x3)), float(F(x4) + F(x5) + F(x6) + F(x7)), \
                      float(F(x8) + F(x9) + F(x10) + F(x11)), float(F(x12) + F(x13) + F(x14) + F(x15)))
#elif OP == 26 || OP == 27
#define FOLD(x) (uint(x) ^ uint((x) >> 32))
#define ENCODE() encode32(FOLD(x0), FOLD(x1), FOLD(x2), FOLD(x3), FOLD(x4), FOLD(x5), FOLD(x6), FOLD(x7), \
                          FOLD(x8), FOLD(x9), FOLD(x10), FOLD(x11), FOLD(x12), FOLD(x13), FOLD(x14), FOLD(x15))
#elif OP >= 9 && OP <= 14
#define ENCODE() encode32(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)
#else
#define ENCODE() vec4(F(x0) + F(x1) + F(x2) + F(x3), F(x4) + F(x5) + F(x6) + F(x7), \
                      F(x8) + F(x9) + F(x10) + F(x11), F(x12) + F(x13) + F(x14) + F(x15))
#endif

#if OP == 24
vec4 encodeBits64(double d) {
    uvec2 b = unpackDouble2x32(d);
    return pieces(b.x, b.y);
}
#endif

#if RING
// Round r combines each chain with the one 1, 2, 4 or 3 further on (by r & 3). With the
// same neighbour in every round, two rounds of a chain would depend on three values only, and
// a 3-input instruction (NVIDIA's LOP3: any function of three words) does both at once (the
// bitwise row read 117 ops/clk/SM that way). Not 8: x8 = x8 ^ (x0 ^ x8) would be x0.
#define RING1(r) UPD(x0, x1, r) UPD(x1, x2, r) UPD(x2, x3, r) UPD(x3, x4, r) UPD(x4, x5, r) UPD(x5, x6, r) UPD(x6, x7, r) UPD(x7, x8, r) UPD(x8, x9, r) UPD(x9, x10, r) UPD(x10, x11, r) UPD(x11, x12, r) UPD(x12, x13, r) UPD(x13, x14, r) UPD(x14, x15, r) UPD(x15, x0, r)
#define RING2(r) UPD(x0, x2, r) UPD(x1, x3, r) UPD(x2, x4, r) UPD(x3, x5, r) UPD(x4, x6, r) UPD(x5, x7, r) UPD(x6, x8, r) UPD(x7, x9, r) UPD(x8, x10, r) UPD(x9, x11, r) UPD(x10, x12, r) UPD(x11, x13, r) UPD(x12, x14, r) UPD(x13, x15, r) UPD(x14, x0, r) UPD(x15, x1, r)
#define RING4(r) UPD(x0, x4, r) UPD(x1, x5, r) UPD(x2, x6, r) UPD(x3, x7, r) UPD(x4, x8, r) UPD(x5, x9, r) UPD(x6, x10, r) UPD(x7, x11, r) UPD(x8, x12, r) UPD(x9, x13, r) UPD(x10, x14, r) UPD(x11, x15, r) UPD(x12, x0, r) UPD(x13, x1, r) UPD(x14, x2, r) UPD(x15, x3, r)
#define RING3(r) UPD(x0, x3, r) UPD(x1, x4, r) UPD(x2, x5, r) UPD(x3, x6, r) UPD(x4, x7, r) UPD(x5, x8, r) UPD(x6, x9, r) UPD(x7, x10, r) UPD(x8, x11, r) UPD(x9, x12, r) UPD(x10, x13, r) UPD(x11, x14, r) UPD(x12, x15, r) UPD(x13, x0, r) UPD(x14, x1, r) UPD(x15, x2, r)
#define RING_ROUND_0 RING1
#define RING_ROUND_1 RING2
#define RING_ROUND_2 RING4
#define RING_ROUND_3 RING3
#define RING_ROUND_4 RING1
#define RING_ROUND_5 RING2
#define RING_ROUND_6 RING4
#define RING_ROUND_7 RING3
#define RING_ROUND_8 RING1
#define RING_ROUND_9 RING2
#define RING_ROUND_10 RING4
#define RING_ROUND_11 RING3
#define RING_ROUND_12 RING1
#define RING_ROUND_13 RING2
#define RING_ROUND_14 RING4
#define RING_ROUND_15 RING3
#define ROUND(r) RING_ROUND_##r(r)
#define LATENCY_ROUND(r) UPD(x0, x15, 0) UPD(x1, x0, 1) UPD(x2, x1, 2) UPD(x3, x2, 3) UPD(x4, x3, 4) UPD(x5, x4, 5) UPD(x6, x5, 6) UPD(x7, x6, 7) UPD(x8, x7, 8) UPD(x9, x8, 9) UPD(x10, x9, 10) UPD(x11, x10, 11) UPD(x12, x11, 12) UPD(x13, x12, 13) UPD(x14, x13, 14) UPD(x15, x14, 15)
#else
#define ROUND(r) UPD(x0, x0, r) UPD(x1, x1, r) UPD(x2, x2, r) UPD(x3, x3, r) UPD(x4, x4, r) UPD(x5, x5, r) UPD(x6, x6, r) UPD(x7, x7, r) UPD(x8, x8, r) UPD(x9, x9, r) UPD(x10, x10, r) UPD(x11, x11, r) UPD(x12, x12, r) UPD(x13, x13, r) UPD(x14, x14, r) UPD(x15, x15, r)
#define LATENCY_ROUND(r) UPD(x0, x0, 0) UPD(x0, x0, 1) UPD(x0, x0, 2) UPD(x0, x0, 3) UPD(x0, x0, 4) UPD(x0, x0, 5) UPD(x0, x0, 6) UPD(x0, x0, 7) UPD(x0, x0, 8) UPD(x0, x0, 9) UPD(x0, x0, 10) UPD(x0, x0, 11) UPD(x0, x0, 12) UPD(x0, x0, 13) UPD(x0, x0, 14) UPD(x0, x0, 15)
#endif

#define WORD(j) words[(gl_LocalInvocationIndex * 16u + (j)) & 4095u]
#define WORD2(j) words[(gl_LocalInvocationIndex * 16u + (j) + 2048u) & 4095u]
#define DECLARE(j) PRECISE T x##j = INIT(WORD(j), WORD2(j));

void main() {
    CONSTS
    DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7)
    DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11) DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
#if LATENCY
    if (gl_SubgroupID != 0u) {
        return;
    }
    uvec2 t0 = clock2x32ARB();
    [[dont_unroll]] for (uint i = 0u; i < pc.elementsMask; ++i) {
        LATENCY_ROUND(0) LATENCY_ROUND(1) LATENCY_ROUND(2) LATENCY_ROUND(3)
        LATENCY_ROUND(4) LATENCY_ROUND(5) LATENCY_ROUND(6) LATENCY_ROUND(7)
        LATENCY_ROUND(8) LATENCY_ROUND(9) LATENCY_ROUND(10) LATENCY_ROUND(11)
        LATENCY_ROUND(12) LATENCY_ROUND(13) LATENCY_ROUND(14) LATENCY_ROUND(15)
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
    [[dont_unroll]] for (uint i = 0u; i < ITER; ++i) {
        ROUND(0) ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6) ROUND(7)
        ROUND(8) ROUND(9) ROUND(10) ROUND(11) ROUND(12) ROUND(13) ROUND(14) ROUND(15)
    }
    PRECISE vec4 result = ENCODE();
    writeOut(result);
#endif
}
