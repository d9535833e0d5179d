// What a dispatch costs (see src/families/transfer/): a kernel that does nothing while
// timed. For --verify the runner passes a device address, and invocation 0 of each dispatch
// marks its own word there (readStart = the dispatch's index), so the CPU can count that
// every recorded dispatch ran. The word is reached through a device address, not a
// descriptor: the dispatches are recorded back to back without barriers, and distinct
// words need none.
// Kernels built from this template (see build.rs):
// @kernels dispatch_empty: WIDTH=1 PATTERN=1
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(push_constant) uniform Constants {
    uint elementsMask;
    uint writeIndex;
    uint readStart;
    uint unused;
    uvec2 address;
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Marks {
    uint mark[];
};

layout(local_size_x = 64) in;

void main() {
    if (pc.address != uvec2(0u) && gl_LocalInvocationIndex == 0u) {
        Marks(pc.address).mark[pc.readStart] = pc.readStart + 1u;
    }
}
