// Shader pitfalls (after a Metal shader-optimisation talk): small sets of kernels that do the
// same work in two or three ways. PITFALL selects the set, VARIANT the way:
//  1 private array: a runtime-filled private array indexed dynamically (0), the same data in
//    a constant array (1), or held in registers and picked by a select chain (2);
//  2 struct fields: two fields of a 16-byte struct read adjacent (0: one 8-byte load
//    possible) or apart (1: two loads);
//  3 offsets: four neighbouring words at a base offset computed in int (0), uint (1) or
//    16-bit uint (2) (an unsigned offset may wrap, so base + 1 cannot become the same
//    address plus 4);
//  4 switch: four cases that add one more word each, written with fall-through (0) or as
//    four separate cases that each add their words (1);
//  5 reads in flight: 256 texel reads per thread in VARIANT independent dependent chains
//    (each read's coordinates come from the previous read of its chain);
//  6 fast math: four chains of x = x * a + b, contractible into fused multiply-adds (0) or
//    `precise` (1: a multiply and an add, each rounded).
// Kernels built from this template (see build.rs):
// @kernels pitfalls_array_{VARIANT}: PITFALL=1 VARIANT=stack:0,constant:1,select:2
// @kernels pitfalls_fields_{VARIANT}: PITFALL=2 VARIANT=adjacent:0,apart:1
// @kernels pitfalls_offset_{VARIANT}: PITFALL=3 VARIANT=int:0,uint:1,uint16:2
// @kernels pitfalls_switch_{VARIANT}: PITFALL=4 VARIANT=fallthrough:0,separate:1
// @kernels pitfalls_reads_{VARIANT}: PITFALL=5 VARIANT=chains1:1,chains2:2,chains4:4
// @kernels pitfalls_math_{VARIANT}: PITFALL=6 VARIANT=contracted:0,precise:1
#version 450
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_samplerless_texture_functions : require
#if PITFALL == 3 && VARIANT == 2
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif

layout(local_size_x = 256) in;
layout(push_constant) uniform Constants {
    uint elementsMask;
    uint writeIndex;
    uint readStart;
    uint unused;
    uvec2 address;
} pc;
// The 16 KB input as 4096 words.
layout(std430, set = 0, binding = 0) readonly buffer Input {
    uint words[];
};
// The input's first 4 KB as a 32x32 R32_UINT texture (set 5).
layout(set = 0, binding = 1) uniform utexture2D table;
layout(std430, set = 0, binding = 2) writeonly buffer Output {
    vec4 outData[];
};

#define ITERATIONS 256u

const uint TABLE[8] = uint[8](3u, 141u, 59u, 26u, 535u, 89u, 79u, 323u);

// Keeps the result alive: stored to shared memory (where another invocation may read it)
// and a barrier, so no compiler can sink the work into the write below, which happens only
// in --verify (writeIndex 0: each thread writes its own slot).
shared vec4 keep[256];
void writeOut(vec4 value) {
    keep[gl_LocalInvocationIndex] = value;
    memoryBarrierShared();
    barrier();
    if (pc.writeIndex != 0xFFFFFFFFu) {
        outData[gl_GlobalInvocationID.x] = keep[(gl_LocalInvocationIndex + pc.writeIndex) & 255u];
    }
}

void main() {
    uint idx = gl_LocalInvocationIndex;
    uint acc = 0u;
    vec4 result;
#if PITFALL == 1
#if VARIANT == 0
    uint arr[8];
    [[unroll]] for (uint k = 0u; k < 8u; ++k) {
        arr[k] = TABLE[k] | pc.elementsMask;
    }
#elif VARIANT == 2
    uint v0 = TABLE[0] | pc.elementsMask, v1 = TABLE[1] | pc.elementsMask;
    uint v2 = TABLE[2] | pc.elementsMask, v3 = TABLE[3] | pc.elementsMask;
    uint v4 = TABLE[4] | pc.elementsMask, v5 = TABLE[5] | pc.elementsMask;
    uint v6 = TABLE[6] | pc.elementsMask, v7 = TABLE[7] | pc.elementsMask;
#endif
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
        // The index depends on the sum so far: no iteration's pick can be computed ahead.
        uint j = (idx + i * 3u + (acc & 1u)) & 7u;
#if VARIANT == 0
        uint v = arr[j];
#elif VARIANT == 1
        uint v = TABLE[j | pc.elementsMask];
#else
        uint v = j == 0u ? v0 : j == 1u ? v1 : j == 2u ? v2 : j == 3u ? v3
               : j == 4u ? v4 : j == 5u ? v5 : j == 6u ? v6 : v7;
#endif
        acc += v * (i + 1u);
    }
#elif PITFALL == 2
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
        uint s = ((idx + i * 7u) & 1023u) | pc.elementsMask;
#if VARIANT == 0
        acc += words[4u * s] + words[4u * s + 1u];
#else
        acc += words[4u * s] + words[4u * s + 2u];
#endif
    }
#elif PITFALL == 3
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
#if VARIANT == 0
        int b = (int(idx) * 5 + int(i) * 3) & 4091;
        acc += words[b] + words[b + 1] + words[b + 2] + words[b + 3];
#elif VARIANT == 1
        uint b = (idx * 5u + i * 3u) & 4091u;
        acc += words[b] + words[b + 1u] + words[b + 2u] + words[b + 3u];
#else
        uint16_t b = uint16_t((idx * 5u + i * 3u) & 4091u);
        acc += words[b] + words[b + 1us] + words[b + 2us] + words[b + 3us];
#endif
    }
#elif PITFALL == 4
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
        uint a = (idx * 5u + i * 3u) & 4091u;
        switch ((idx + i) & 3u) {
#if VARIANT == 0
        case 0u: acc += words[a];
        case 1u: acc += words[a + 1u];
        case 2u: acc += words[a + 2u];
        default: acc += words[a + 3u];
#else
        case 0u: acc += words[a] + words[a + 1u] + words[a + 2u] + words[a + 3u]; break;
        case 1u: acc += words[a + 1u] + words[a + 2u] + words[a + 3u]; break;
        case 2u: acc += words[a + 2u] + words[a + 3u]; break;
        default: acc += words[a + 3u]; break;
#endif
        }
    }
#elif PITFALL == 5
    uint chain[VARIANT];
    [[unroll]] for (uint c = 0u; c < VARIANT; ++c) {
        chain[c] = (idx + c * 257u) & 1023u;
    }
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS / VARIANT; ++i) {
        [[unroll]] for (uint c = 0u; c < VARIANT; ++c) {
            uint t = chain[c] | pc.elementsMask;
            chain[c] = (texelFetch(table, ivec2(t & 31u, t >> 5u), 0).x + c + i) & 1023u;
        }
    }
    [[unroll]] for (uint c = 0u; c < VARIANT; ++c) {
        acc += chain[c] << (8u * c);
    }
#elif PITFALL == 6
#if VARIANT == 1
    precise vec4 x;
#else
    vec4 x;
#endif
    x = vec4(uvec4(words[4u * idx], words[4u * idx + 1u], words[4u * idx + 2u],
                   words[4u * idx + 3u]) & 255u) / 256.0;
    float a = 0.999 + float(pc.elementsMask);
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
        x = x * a + 0.25;
    }
#endif
#if PITFALL == 6
    result = x;
#else
    result = vec4(float(acc & 0xFFFFu), float(acc >> 16u), 0.0, 0.0);
#endif
    writeOut(result);
}
