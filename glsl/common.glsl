// Shared by every kernel: runtime constants, start patterns, widening, and the write-out
// that keeps the loads alive. Specialised by WIDTH (1..4) and PATTERN (0 uniform, 1 linear,
// 2 random, 3 uniform with an elected lane loading on every iteration and a subgroup
// broadcast); WAVE_LOAD and CEILING select the kernel shapes of variants.glsl.
#extension GL_EXT_control_flow_attributes : require
#if PATTERN == 3
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#ifdef WAVE_LOAD
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#if WAVE_LOAD == 1
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#endif

#ifndef WIDTH
#error "WIDTH must be defined"
#endif
#ifndef PATTERN
#error "PATTERN must be defined"
#endif

// Runtime values the compiler cannot constant-fold. At timing time elementsMask = 0,
// writeIndex = 0xFFFFFFFF (nothing is written) and readStart = 0 or 4 (unaligned raw loads).
layout(push_constant) uniform Constants {
    uint elementsMask;
    uint writeIndex;
    uint readStart;
    uint unused;
    uvec2 address;      // device address of the input (buffer-reference kernels)
#ifdef PUSH_ARRAY
    vec4 data[6];       // at byte 32: 128 bytes in all, the smallest maxPushConstantsSize
#endif
} pc;

// One vec4 per thread of the dispatch; written only when writeIndex != 0xFFFFFFFF (--verify).
layout(std430, set = 0, binding = 2) writeonly buffer Output {
    vec4 outData[];
};

shared vec4 dummyLDS[256];

// Widen a load of WIDTH channels to vec4 the way the original did
// (.xxxx, .xyxy, .xyzx, .xyzw) so that every loaded channel reaches the sum.
#if WIDTH == 1
#define WIDEN(v) vec4((v).x)
#elif WIDTH == 2
#define WIDEN(v) ((v).xyxy)
#elif WIDTH == 3
#define WIDEN(v) ((v).xyzx)
#else
#define WIDEN(v) ((v).xyzw)
#endif

#ifdef WAVE_LOAD
// The device's subgroup size, set by the runner (src/pipeline.rs) when it builds the
// pipeline, so that the driver compiles only the code for its own subgroup size.
layout(constant_id = 0) const uint SUBGROUP_SIZE = 32u;
#endif

#if defined(WAVE_LOAD) || defined(CEILING)
// What one load of WIDTH channels returns, and the channels of a vec4 fetch that it keeps.
#if WIDTH == 1
#define LOAD_TYPE float
#define NARROW(v) ((v).x)
#elif WIDTH == 2
#define LOAD_TYPE vec2
#define NARROW(v) ((v).xy)
#elif WIDTH == 3
#define LOAD_TYPE vec3
#define NARROW(v) ((v).xyz)
#else
#define LOAD_TYPE vec4
#define NARROW(v) (v)
#endif
#endif

// dst = expr, loaded by every thread; for PATTERN 3 only one lane loads and the value is
// broadcast to the subgroup (what a driver's uniform-address fast path would do).
#if PATTERN == 3
#define LOAD_INTO(dst, expr) { if (subgroupElect()) { dst = (expr); } dst = subgroupBroadcastFirst(dst); }
#else
#define LOAD_INTO(dst, expr) { dst = (expr); }
#endif

// Start element of a 1-D kernel thread.
uint startIndex1D(uint localIndex) {
#if PATTERN == 0 || PATTERN == 3
    return 0u;
#elif PATTERN == 1
    return localIndex;
#else
    return (localIndex * 0x3504f333u) & 15u;
#endif
}

// Start texel of a 2-D kernel thread.
uvec2 startIndex2D(uvec2 localId) {
#if PATTERN == 0 || PATTERN == 3
    return uvec2(0u);
#elif PATTERN == 1
    return localId;
#else
    return (localId * 0x3504f333u) & 4u;
#endif
}

// Keep the sum alive: through shared memory and a barrier, then (never, while timing)
// to the output buffer. With writeIndex = 0 every thread writes its own sum.
void writeOut(vec4 value) {
    dummyLDS[gl_LocalInvocationIndex] = value;
    memoryBarrierShared();
    barrier();
    if (pc.writeIndex != 0xFFFFFFFFu) {
        uint slot = (gl_LocalInvocationIndex + pc.writeIndex) & 255u;
        outData[gl_WorkGroupID.x * 256u + gl_LocalInvocationIndex] = dummyLDS[slot];
    }
}
