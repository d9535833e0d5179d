// Shared by the store kernels (included after common.glsl): where each store lands and what
// it stores; mirrored on the CPU by src/families/writes.rs. Defined by the template:
// KIND (0 float, 1 UNORM8, 2 uint) and, optionally, STORE_ELEMENTS (1024 unless set).
//
// Each thread stores 256 times. Element of thread t at iteration i, by PATTERN:
//   uniform (0): i — every thread stores the same element, and each element is stored at
//                one iteration only;
//   linear  (1): (t + 256 i) mod STORE_ELEMENTS — a group stores 256 consecutive elements per
//                iteration, and each element has one writer in the group;
//   random  (2): as linear with t replaced by (t * 0x3504f333) mod 256, a permutation of the
//                group's threads: scattered over the group's 256 elements, one writer each.
// Every group stores the same values at the same elements, so an element's final value is
// its last store's, whatever order the threads and groups run in: --verify checks it.
// 2-D kernels (16×16 threads, 16×16 iterations over a 32×32 image) do the same per axis.

#ifndef KIND
#error "KIND must be defined"
#endif
#ifndef STORE_ELEMENTS
#define STORE_ELEMENTS 1024u
#endif

#if PATTERN == 0
#define STORE_STRIDE 1u
#else
#define STORE_STRIDE 256u
#endif

// Start element of a 1-D store kernel thread (also its value seed).
uint storeStart1D(uint localIndex) {
#if PATTERN == 0
    return 0u;
#elif PATTERN == 1
    return localIndex;
#else
    return (localIndex * 0x3504f333u) & 255u;
#endif
}

// Element stored at iteration i; elementsMask (0) keeps neighbouring stores from being fused.
#define STORE_ELEMENT(start, i) ((((start) + (i) * STORE_STRIDE) & (STORE_ELEMENTS - 1u)) | pc.elementsMask)

// Start texel of a 2-D store kernel thread.
uvec2 storeStart2D(uvec2 localId) {
#if PATTERN == 0
    return uvec2(0u);
#elif PATTERN == 1
    return localId;
#else
    uint p = ((localId.y * 16u + localId.x) * 0x3504f333u) & 255u;
    return uvec2(p & 15u, p >> 4u);
#endif
}

#if PATTERN == 0
#define STORE_STRIDE_2D 1u
#else
#define STORE_STRIDE_2D 16u
#endif
#define STORE_TEXEL(start, x, y) ivec2((((start) + uvec2(x, y) * STORE_STRIDE_2D) & 31u) | pc.elementsMask)

// The value stored at iteration i from a seed (the start element, or y * 16 + x in 2-D): one
// step per iteration, so it depends on the iteration at the cost of one add.
// KIND 0, float: odd multiples of 1/16 in [-32, 64), exact in half and float, never 0.
// KIND 1, UNORM8: four bytes in one uint (stepping by 0x01010101), unpacked to [0, 1].
// KIND 2, uint: odd, so never 0.
#if KIND == 0
#define VALUE_TYPE vec4
#define VALUE_INIT(seed) (vec4(float((seed) & 63u) - 32.0) + vec4(0.0625, 0.3125, 0.5625, 0.8125))
#define VALUE_STEP(v) ((v) + 0.125)
#define VALUE_OUT(v) (v)
#elif KIND == 1
#define VALUE_TYPE uint
#define VALUE_INIT(seed) ((seed) * 0x01030507u + 0x80604020u)
#define VALUE_STEP(v) ((v) + 0x01010101u)
#define VALUE_OUT(v) unpackUnorm4x8(v)
#else
#define VALUE_TYPE uvec4
#define VALUE_INIT(seed) ((uvec4(seed) * uvec4(0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu)) | 1u)
#define VALUE_STEP(v) ((v) + uvec4(0x20002u, 0x40004u, 0x60006u, 0x80008u))
#define VALUE_OUT(v) (v)
#endif
