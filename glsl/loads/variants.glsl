// Kernel shapes beyond the original's loop, for the family templates that include this file
// (in place of their own main) when WAVE_LOAD or CEILING is defined. Before including it, a
// template defines, with LOAD_TYPE (common.glsl: float, vec2, vec3 or vec4 for WIDTH 1–4):
//   LOAD_TYPE loadIteration(START start, ITER it)  the load of iteration `it`, addressed
//                                                  exactly as the template's own loop does it
//   CEILING_BASE ceilingBase(START start)          (CEILING) what every load's address is a
//                                                  constant offset from, elementsMask OR-ed in
//   LOAD_TYPE loadFromBase(CEILING_BASE b, ITER it) (CEILING) iteration `it`'s load from there
// where START and ITER are uint for the 1-D kernels, and uvec2 for the 16×16 texture kernels,
// which define ITERATIONS_2D (iteration k is texel (k & 15, k >> 4) from the start: the order
// of the original's nested loops). Every shape sums the same 256 values in the same order
// as the original loop, so the CPU reference of the base pattern checks it.
//
// WAVE_LOAD 1, `uniform (wave-wide load + shuffle)` — the uniform-address trick PerfTest's
//   author describes: per block of n iterations (n = the subgroup's active lanes), lane l
//   loads iteration block + l once, and iteration block + j takes lane j's value with
//   subgroupShuffle: n times fewer loads than the plain uniform loop.
// WAVE_LOAD 2, `uniform (wave-wide load + unrolled broadcast)` — the same, with each block's
//   n iterations unrolled in the source so that each takes its lane's value with
//   subgroupBroadcast of a constant lane; one unrolled block for each subgroup size from 4
//   to 128, of which the driver compiles only the one of the SUBGROUP_SIZE specialization
//   constant (common.glsl).
// Fallbacks, both correct for any subgroup: WAVE_LOAD 1 takes the plain loop (every lane
//   loads every iteration) when the active lanes are not lanes 0 .. n-1, and a partial
//   subgroup whose n does not divide 256 ends with a short block whose surplus lanes load
//   in-bounds elements that no iteration uses; WAVE_LOAD 2 takes the plain loop in any
//   subgroup that is not full, or of a size it has no block for.
// CEILING 1, `… (unrolled ceiling)` — the loads unrolled in the source, 32 per iteration of
//   an 8-iteration loop, each at a constant offset from one base address per iteration
//   (elementsMask OR-ed into it, so the compiler still cannot prove any load's alignment and
//   fuse neighbours), summed at the load's own width with one add per load: no per-load
//   address arithmetic, and the loop's counter and branch shared by 32 loads.

#ifdef ITERATIONS_2D
#define START uvec2
#define ITER uvec2
#define THREAD_START() startIndex2D(gl_LocalInvocationID.xy)
#define AT(k) uvec2((k) & 15u, (k) >> 4u)
#else
#define START uint
#define ITER uint
#define THREAD_START() startIndex1D(gl_LocalInvocationIndex)
#define AT(k) (k)
#endif

#if defined(WAVE_LOAD)
#if PATTERN != 0
#error "WAVE_LOAD kernels read the uniform pattern"
#endif

#if WAVE_LOAD == 2
// Iteration block + j takes lane j's value, j a constant.
#define TAKE1(j) value += WIDEN(subgroupBroadcast(mine, j));
#define TAKE2(j) TAKE1(j) TAKE1((j) + 1u)
#define TAKE4(j) TAKE2(j) TAKE2((j) + 2u)
#define TAKE8(j) TAKE4(j) TAKE4((j) + 4u)
#define TAKE16(j) TAKE8(j) TAKE8((j) + 8u)
#define TAKE32(j) TAKE16(j) TAKE16((j) + 16u)
#define TAKE64(j) TAKE32(j) TAKE32((j) + 32u)
#define TAKE128(j) TAKE64(j) TAKE64((j) + 64u)
// 256 / N blocks of N iterations, for a subgroup of N active lanes.
#define BLOCKS(N, TAKE_N) \
    [[dont_unroll]] for (uint block = 0u; block < 256u; block += N) { \
        LOAD_TYPE mine = loadIteration(start, AT(block + lane)); \
        TAKE_N(0u) \
    }
#endif

void main() {
    START start = THREAD_START();
    vec4 value = vec4(0.0);
    // The subgroup's active lanes (all of them in a full subgroup).
    uint n = subgroupBallotBitCount(subgroupBallot(true));
    uint lane = gl_SubgroupInvocationID;
#if WAVE_LOAD == 1
    // The trick needs the active lanes to be lanes 0 .. n-1 (iteration block + j is loaded
    // by lane j), which is how drivers fill a partial subgroup; anything else takes the
    // plain loop below.
    bool packed = subgroupBallotBitCount(subgroupBallot(lane < n)) == n;
    if (packed) {
        [[dont_unroll]] for (uint block = 0u; block < 256u; block += n) {
            LOAD_TYPE mine = loadIteration(start, AT(block + lane));
            uint count = min(n, 256u - block);
            [[dont_unroll]] for (uint j = 0u; j < count; ++j) {
                value += WIDEN(subgroupShuffle(mine, j));
            }
        }
    } else
#else
    // Full subgroups only. SUBGROUP_SIZE is a specialization constant, the device's subgroup
    // size: the driver compiles only that block.
    bool full = n == gl_SubgroupSize;
    if (SUBGROUP_SIZE == 4u && gl_SubgroupSize == 4u && full) {
        BLOCKS(4u, TAKE4)
    } else if (SUBGROUP_SIZE == 8u && gl_SubgroupSize == 8u && full) {
        BLOCKS(8u, TAKE8)
    } else if (SUBGROUP_SIZE == 16u && gl_SubgroupSize == 16u && full) {
        BLOCKS(16u, TAKE16)
    } else if (SUBGROUP_SIZE == 32u && gl_SubgroupSize == 32u && full) {
        BLOCKS(32u, TAKE32)
    } else if (SUBGROUP_SIZE == 64u && gl_SubgroupSize == 64u && full) {
        BLOCKS(64u, TAKE64)
    } else if (SUBGROUP_SIZE == 128u && gl_SubgroupSize == 128u && full) {
        BLOCKS(128u, TAKE128)
    } else
#endif
    {
        [[dont_unroll]] for (uint k = 0u; k < 256u; ++k) {
            value += WIDEN(loadIteration(start, AT(k)));
        }
    }
    writeOut(value);
}

#elif defined(CEILING)
#define LOAD1(k) sum += loadFromBase(base, AT(k));
#define LOAD2(k) LOAD1(k) LOAD1((k) + 1u)
#define LOAD4(k) LOAD2(k) LOAD2((k) + 2u)
#define LOAD8(k) LOAD4(k) LOAD4((k) + 4u)
#define LOAD16(k) LOAD8(k) LOAD8((k) + 8u)
#define LOAD32(k) LOAD16(k) LOAD16((k) + 16u)

void main() {
    START start = THREAD_START();
    LOAD_TYPE sum = LOAD_TYPE(0.0);
    // 8 × 32 loads: the loop's cost is spread over 32 loads (and a 256-load body takes a
    // CPU driver's compiler minutes for the 4-word raw loads).
    [[dont_unroll]] for (uint block = 0u; block < 256u; block += 32u) {
        CEILING_BASE base = ceilingBase(start + AT(block));
        LOAD32(0u)
    }
    writeOut(WIDEN(sum));
}

#else
#error "variants.glsl needs WAVE_LOAD or CEILING"
#endif
