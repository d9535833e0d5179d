// RWByteAddressBuffer.Interlocked*, RWStructuredBuffer<float>.InterlockedAdd: 256 atomics per
// thread on a storage buffer. Thread t, iteration i: element start(t) + i with the load
// suite's start patterns (common.glsl: uniform — every thread hits one element; linear — no
// two threads share one; random — 16 threads of a group, 2 of a 32-wide subgroup, share one),
// value (t & 7) + 1 + i: different per lane, so no compiler can fold a subgroup's atomics.
// OP 0: atomicAdd, result unused; 1: atomicAdd, results summed and kept (writeOut);
// 2: atomicCompSwap(mem, 0, element | 0x80000000), results kept; 3: 64-bit atomicAdd of
// value * 0x1FFFFFFFF (carries between the halves); 4: float atomicAdd of 1.0 or 2.0.
// Kernels built from this template (see build.rs):
// @kernels buffer_atomic_add_{PATTERN}: OP=0 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels buffer_atomic_add_return_{PATTERN}: OP=1 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels buffer_atomic_cas_{PATTERN}: OP=2 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels buffer_atomic_add64_{PATTERN}: OP=3 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
// @kernels buffer_atomic_fadd_{PATTERN}: OP=4 WIDTH=1 PATTERN=uniform:0,linear:1,random:2
#version 450
#if OP == 3
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#elif OP == 4
#extension GL_EXT_shader_atomic_float : require
#endif
#include "common.glsl"

#if OP == 3
#define ELEMENT uint64_t
#elif OP == 4
#define ELEMENT float
#else
#define ELEMENT uint
#endif

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Target {
    ELEMENT elements[];
};

void main() {
    uint start = startIndex1D(gl_LocalInvocationIndex);
    uint v = (gl_LocalInvocationIndex & 7u) + 1u;
#if OP == 3
    uint64_t wide = uint64_t(v) * 0x1FFFFFFFFul;
#elif OP == 4
    float f = float(1u + (gl_LocalInvocationIndex & 1u));
#endif
    uint acc = 0u;
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint element = (start + i) | pc.elementsMask;
#if OP == 0
        atomicAdd(elements[element], v + i);
#elif OP == 1
        acc += atomicAdd(elements[element], v + i);
#elif OP == 2
        acc += atomicCompSwap(elements[element], 0u, (start + i) | 0x80000000u);
#elif OP == 3
        atomicAdd(elements[element], wide);
        wide += 0x1FFFFFFFFul;
#else
        atomicAdd(elements[element], f);
        f = 3.0 - f;
#endif
    }
#if OP == 1 || OP == 2
    writeOut(uintBitsToFloat(uvec4(acc)));
#endif
}
