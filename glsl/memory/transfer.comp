// What a dispatch costs (see src/families/memory/transfer/): one group of 64 invocations.
// BODY 0, the empty kernel the dispatch-cost rows time: it touches no memory (a kernel that
// may store costs more per dependent dispatch on the H100: 1.8–1.9 µs against 1.4, a store
// behind a branch never taken included; results/h100/dispatch-barrier/).
// BODY 1, what --verify runs in its place, through the same recording: invocation 0 of each
// dispatch marks its own word (readStart = the dispatch's index), so that the CPU can count
// that every recorded dispatch ran (distinct words: no barrier needed between them).
// BODY 2, the dependent chain (timed and verified as it is): invocation 0 of dispatch i
// writes the word dispatch i - 1 wrote plus 1, so the words count 1, 2, 3 … only where each
// dispatch saw the one before it.
// Kernels built from this template (see build.rs):
// @kernels dispatch_{BODY}: BODY=empty:0,mark:1,chain:2 WIDTH=1 PATTERN=1
#version 450

layout(push_constant) uniform Constants {
    uint elementsMask;
    uint writeIndex;
    uint readStart;
    uint unused;
    uvec2 address;
} pc;

#if BODY != 0
layout(std430, set = 0, binding = 0) buffer Marks {
    uint mark[];
};
#endif

layout(local_size_x = 64) in;

void main() {
#if BODY == 1
    if (gl_LocalInvocationIndex == 0u) {
        mark[pc.readStart] = pc.readStart + 1u;
    }
#elif BODY == 2
    if (gl_LocalInvocationIndex == 0u) {
        mark[pc.readStart] = (pc.readStart == 0u ? 0u : mark[pc.readStart - 1u]) + 1u;
    }
#endif
}
