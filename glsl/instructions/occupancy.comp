// Occupancy (see src/families/occupancy.rs): the same 32-bit storage-buffer load loop
// (`StructuredBuffer<uint>` linear: 256 loads from the thread's index on, summed) with 16·BLOCKS
// more values held in registers across it, so that the driver's register count — and with it
// how many groups fit on a compute unit — grows from kernel to kernel while the loop stays the
// same. The values are hashes of the input computed before the loop; a branch that the data
// never takes (no input word is 0xFFFFFFFF, a NaN) updates them all inside the loop, so none can
// be recomputed, sunk after the loop or dropped: all are live on every iteration.
// Kernels built from this template (see build.rs):
// @kernels occupancy_r{REGS}: REGS=32:1,64:3,128:7,255:15 WIDTH=4 PATTERN=1
#version 450
#include "common.glsl"
#include "instructions.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

uint keep(uint w) {
    return (w * 0x9E3779B1u) ^ (w >> 15);
}

// Sixteen values of block b: declared, updated, folded into the output.
#define K16(M, b) M(b, 0) M(b, 1) M(b, 2) M(b, 3) M(b, 4) M(b, 5) M(b, 6) M(b, 7) \
                  M(b, 8) M(b, 9) M(b, 10) M(b, 11) M(b, 12) M(b, 13) M(b, 14) M(b, 15)
#if REGS == 1
#define EACH(M) K16(M, 0)
#elif REGS == 3
#define EACH(M) K16(M, 0) K16(M, 1) K16(M, 2)
#elif REGS == 7
#define EACH(M) K16(M, 0) K16(M, 1) K16(M, 2) K16(M, 3) K16(M, 4) K16(M, 5) K16(M, 6)
#else
#define EACH(M) K16(M, 0) K16(M, 1) K16(M, 2) K16(M, 3) K16(M, 4) K16(M, 5) K16(M, 6) K16(M, 7) \
                K16(M, 8) K16(M, 9) K16(M, 10) K16(M, 11) K16(M, 12) K16(M, 13) K16(M, 14)
#endif
#define DECLARE(b, j) uint k##b##_##j = keep(words[(gl_LocalInvocationIndex * 16u + (b) * 16u + (j)) & 4095u]);
#define UPDATE(b, j) k##b##_##j = k##b##_##j * k##b##_##j + w;
#define FOLD(b, j) g = g * 31u + k##b##_##j;

void main() {
    EACH(DECLARE)
    uint start = gl_LocalInvocationIndex;
    uint sum = 0u;
    uint never = pc.elementsMask ^ 0xFFFFFFFFu;
    [[dont_unroll]] for (uint i = 0u; i < 256u; ++i) {
        uint w = words[(start + i) | pc.elementsMask];
        sum += w;
        if (w == never) {
            EACH(UPDATE)
        }
    }
    uint g = 0u;
    EACH(FOLD)
    writeOut(pieces(sum, g));
}
