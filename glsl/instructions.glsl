// Shared by the instruction suite's kernels (alu, subgroup_ops, shared_bank, occupancy):
// integer results leave in 16-bit pieces, which floats hold exactly.

// Two hashes of sixteen words, in 16-bit pieces: h = ((a0·31 + a1)·31 + …)·31 + a7, g the same
// of b0…b7 (src/families/instructions.rs recomputes them).
vec4 encode32(uint a0, uint a1, uint a2, uint a3, uint a4, uint a5, uint a6, uint a7,
              uint b0, uint b1, uint b2, uint b3, uint b4, uint b5, uint b6, uint b7) {
    uint h = ((((((a0 * 31u + a1) * 31u + a2) * 31u + a3) * 31u + a4) * 31u + a5) * 31u + a6) * 31u + a7;
    uint g = ((((((b0 * 31u + b1) * 31u + b2) * 31u + b3) * 31u + b4) * 31u + b5) * 31u + b6) * 31u + b7;
    return vec4(h & 0xFFFFu, h >> 16, g & 0xFFFFu, g >> 16);
}

// Two words in 16-bit pieces.
vec4 pieces(uint h, uint g) {
    return vec4(h & 0xFFFFu, h >> 16, g & 0xFFFFu, g >> 16);
}
