// The branch benchmark of a PerfTest fork ("Branch with 2 samples + independent ALU workload"):
// per iteration, two nearest samples of a 32x32 RGBA8 texture, guarded by a branch that is
// taken by whole workgroups on alternate iterations (COHERENCE 0: coherent) or by alternate
// lanes of every subgroup (COHERENCE 1: divergent), beside WORK steps of ALU work on four
// integer chains that never read the samples. Every thread does the WORK steps on every
// iteration; where they sit differs. SHAPE 0 (baseline): no branch, every iteration samples;
// 1 (long): the whole work inside the branch: the taken side samples and works, the other
// side works with another multiplier (so that no compiler can merge the two sides' work into
// one copy after the branch); 2 (short): only the samples inside, the work after it.
// Kernels built from this template (see build.rs):
// @kernels branch_{COHERENCE}_{SHAPE}_n{WORK}: COHERENCE=coherent:0,divergent:1 SHAPE=baseline:0,long:1,short:2 WORK=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,248,256
#version 450
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x = 256) in;
layout(push_constant) uniform Constants {
    uint elementsMask;
    uint writeIndex;
    uint readStart;
    uint unused;
    uvec2 address;
} pc;
layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 1) uniform sampler nearest;
layout(std430, set = 0, binding = 2) writeonly buffer Output {
    vec4 outData[];
};

// Iterations per thread, as every kernel of the suite.
#define ITERATIONS 256u

// The centre of texel `t` (0..1023) of the 32x32 texture, in normalised coordinates.
vec2 centre(uint t) {
    return (vec2(t & 31u, t >> 5u) + 0.5) / 32.0;
}

// WORK units (1X = one step of one chain) of ALU work on four chains: a xorshift and a
// multiply by M, which no compiler folds across steps (an affine step would fold into one).
#define WORK_STEPS(acc, M) \
    [[unroll]] for (uint k = 0u; k < WORK / 4u; ++k) { \
        acc = (acc ^ (acc >> 13u)) * M; \
    }

#define SAMPLES(sum, a, b) \
    sum += textureLod(sampler2D(source, nearest), centre(a), 0.0) + \
           textureLod(sampler2D(source, nearest), centre(b), 0.0);

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
    uint index = gl_LocalInvocationIndex;
    vec4 sum = vec4(0.0);
    // elementsMask (0) keeps the chains' start a runtime value.
    uvec4 acc = uvec4(index, index + 256u, index + 512u, index + 768u) | pc.elementsMask;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
#if COHERENCE == 0
        bool taken = ((gl_WorkGroupID.x + i) & 1u) == 0u;
#else
        bool taken = ((gl_SubgroupInvocationID + i) & 1u) == 0u;
#endif
        uint a = ((index + i) & 1023u) | pc.elementsMask;
        uint b = (index * 5u + i * 7u + 3u) & 1023u;
#if SHAPE == 0
        SAMPLES(sum, a, b)
        WORK_STEPS(acc, 0x9E3779B1u)
#elif SHAPE == 1
        if (taken) {
            SAMPLES(sum, a, b)
            WORK_STEPS(acc, 0x9E3779B1u)
        } else {
            WORK_STEPS(acc, 0x85EBCA6Bu)
        }
#else
        if (taken) {
            SAMPLES(sum, a, b)
        }
        WORK_STEPS(acc, 0x9E3779B1u)
#endif
    }
    uvec4 folded = acc ^ (acc >> 16u);
    uint work = (folded.x ^ folded.y ^ folded.z ^ folded.w) & 0xFFFFu;
    writeOut(vec4(sum.xyz, float(work)));
}
