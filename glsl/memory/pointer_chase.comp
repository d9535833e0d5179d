// The latency suite (src/families/pointer_chase.rs): a dependent pointer chase through one
// resource. The chain data is one table of 128-byte lines (32 words each, one cache line on
// every current GPU). Chain c of size s of the sweep (pc.readStart = c * 65 + s: four chains
// of different seeds per size) is in word state.place[readStart].x of lines
// place[readStart].y .. place[readStart].y + n: each such word holds the line (counted from
// place.y) that follows its own in a random cycle over the n lines of the working set, so one
// table holds every size of the sweep (32 chains side by side in a line, several chains one
// after another in a word; a size's four chains share its lines, in four words) and each
// size's chains touch only its own lines, one word per line. Buffers are bound from the size's first line (a descriptor offset), so their
// indices start at 0; images have no offset and add place[s].y themselves; the buffer device
// address of the size's first line is place[s].zw.
// Only invocation 0 of the workgroup chases (one subgroup with one active lane: a
// single load per step, which no neighbouring lane can coalesce with or hide), 16 steps per
// iteration of a loop that may not unroll, each load's address computed from the value the
// one before returned. The chase continues where the previous dispatch of the same test
// left it (the state buffer), so successive dispatches walk the whole cycle instead of
// re-reading a warm prefix; only the verify dispatch (writeIndex != ~0, elementsMask 0)
// starts at line 0, so that the CPU can walk the same chain.
// Iterations: pc.elementsMask, or 16 when it is 0 (256 steps: the timed dispatch), and 17 for
// the verify dispatch: no size's line count divides 17 * 16 (the family's tests check it), so
// the chase cannot end where it started whatever the chain.
// CLOCK 1 (the latency kernel): the subgroup clock is read around the loop; lane 0 writes
// the ticks into outData[64]. Its elementsMask holds the timed iterations in the low 16 bits
// and, in the high 16, iterations walked first, untimed, in the same dispatch: each dispatch
// starts with a cold L1 on an H100 (a walk in an earlier dispatch leaves only L2 warm).
// RESOURCE: 1 uniform texel buffer, 2 storage buffer of uint, 3 storage buffer of structs,
// 4 uniform buffer, 5 storage texel buffer, 6 storage image, 7 sampled image (texelFetch),
// 8 sampled image (nearest), 9 sampled image (bilinear), 10 buffer device address,
// 11 shared memory (SHARED_KB: the size's SHARED_KB KB, copied in by the group),
// 12 registers: no load, the same index arithmetic (k: a key from the input, in the last slot)
// followed by a multiply and a shift
// (the loop's own cost),
// 13 load-to-use: a chase whose next address is the loaded value (p = *p, through
// VK_KHR_buffer_device_address): a second table of 256-byte lines whose 8-byte slot `word` of
// line L holds the device address of the same slot of L's successor line; its base address is
// place[PTR_SLOT].zw. Nothing but the conversion of the loaded uvec2 to a reference stands
// between two loads; the node of line 0 is found, and the line reached is read back, outside
// the chase. Its state takes two slots (14, 15: the address's low and high words).
// Kernels built from this template (see build.rs):
// @kernels pointer_chase_{RESOURCE}{CLOCK}: RESOURCE=texel_buffer:1,raw_buffer:2,structured_buffer:3,uniform_buffer:4,storage_texel_buffer:5,storage_image:6,texel_fetch:7,sample_nearest:8,sample_bilinear:9,device_address:10,registers:12,load_to_use:13 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// @kernels pointer_chase_shared_{SHARED_KB}k{CLOCK}: RESOURCE=11 SHARED_KB=4,8,16,32,64 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// CHAIN (with RESOURCE 13): how the loaded value becomes the next address. 0: a uvec2 member,
// bitcast to the reference (the chase on any device with buffer device addresses); 1: a
// uint64_t member (shaderInt64), converted to the reference; 2: the member is itself a
// reference (`p = p.next`: no conversion in the source). ROLLED 1: the same steps in one loop
// of one step each (no 16-step unrolled body): the loop form's cost. docs/latency.md gives
// what each costs on an H100.
// @kernels pointer_chase_load_to_use_{CHAIN}{ROLLED}{CLOCK}: RESOURCE=13 CHAIN=u64:1,ref:2 ROLLED=:0,_rolled:1 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// @kernels pointer_chase_load_to_use_uint2_rolled{CLOCK}: RESOURCE=13 CHAIN=0 ROLLED=1 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// CYCLE 1 (with the uint64_t chain): a plain random cycle in a table of its own, its nodes
// 2^place.x bytes apart over the whole table, node 0 at place.zw; the verify output is the
// node reached, in two floats of 16 bits (a cycle of 8-byte nodes has 2^25 of them).
// @kernels pointer_chase_cycle{CLOCK}: RESOURCE=13 CHAIN=1 CYCLE=1 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// PAD_KB (with RESOURCE 2): the workgroup also declares and uses PAD_KB KB of shared memory that
// the chase never reads, to show whether the driver's split of the SM's L1 and shared memory
// (and so the L1 the chase sees) depends on the pipeline's shared memory.
// @kernels pointer_chase_raw_buffer_pad{PAD_KB}k{CLOCK}: RESOURCE=2 PAD_KB=32 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
// BESIDE_KB (with RESOURCE 7): each step of the texture chase is paired with a step of the
// storage-buffer chase of BESIDE_KB KB (chain 0 of sweep size BESIDE_SIZE, bound at binding 3
// from its first line), each load's address waiting for the other's value through an AND with
// pc.unused (always zero): the pair's time is the two loads' latencies, and where the L1 and
// the texture cache are one storage, the texture's lines evict the buffer's (and so the pair
// steps up earlier than the texture alone). The clock kernel walks the buffer's whole cycle
// first, untimed, so that it starts in the L1.
// @kernels pointer_chase_texel_fetch_beside{BESIDE_KB}k{CLOCK}: RESOURCE=7 BESIDE_KB=128 BESIDE_SIZE=20 CLOCK=:0,_clock:1 WIDTH=1 PATTERN=1
#version 450
#extension GL_EXT_control_flow_attributes : require
#if CLOCK
#extension GL_ARB_shader_clock : require
#endif
#if RESOURCE == 1
#extension GL_EXT_samplerless_texture_functions : require
#endif
#if RESOURCE == 10 || RESOURCE == 13
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#endif
#ifndef CHAIN
#define CHAIN 0
#endif
#ifndef ROLLED
#define ROLLED 0
#endif
#ifndef CYCLE
#define CYCLE 0
#endif
#if RESOURCE == 13 && CHAIN == 1
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "common.glsl"

layout(local_size_x = 256) in;

// Where each chain lies (word, first line, device address of the first line), and where
// each test's chase stands (one slot per resource and chain). MAX_SIZES: the family's
// PLACE_SLOTS.
#define MAX_SIZES 320u
layout(std430, set = 0, binding = 1) buffer State {
    uvec4 place[MAX_SIZES];
    uint next[];
} state;

#if RESOURCE == 1
layout(set = 0, binding = 0) uniform utextureBuffer table;
#define LOAD(i) texelFetch(table, int(i)).x
#elif RESOURCE == 2 || RESOURCE == 11
layout(std430, set = 0, binding = 0) readonly buffer Table {
    uint words[];
};
#if RESOURCE == 2
#define LOAD(i) words[i]
#endif
#elif RESOURCE == 3
struct Line {
    uint next[32];
};
layout(std430, set = 0, binding = 0) readonly buffer Table {
    Line lines[];
};
#elif RESOURCE == 4
// 64 KB, the largest maxUniformBufferRange of current GPUs; a smaller limit makes the larger
// sizes unsupported, and the bound range never holds less than the chain reads.
layout(std140, set = 0, binding = 0) uniform Table {
    uvec4 quads[4096];
};
#define LOAD(i) quads[(i) >> 2u][(i) & 3u]
#elif RESOURCE == 5
layout(set = 0, binding = 0, r32ui) uniform readonly uimageBuffer table;
#define LOAD(i) imageLoad(table, int(i)).x
#elif RESOURCE == 6
layout(set = 0, binding = 0, r32f) uniform readonly image2D table;
#elif RESOURCE >= 7 && RESOURCE <= 9
layout(set = 0, binding = 0) uniform sampler2D table;
#elif RESOURCE == 10
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words {
    uint words[];
};
#elif RESOURCE == 13
// PTR: the chase's variable; TO_PTR / FROM_PTR: from and to the address's two words.
#if CHAIN == 1
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Node {
    uint64_t next;
};
#define PTR uint64_t
#define TO_PTR(u) packUint2x32(u)
#define FROM_PTR(p) unpackUint2x32(p)
#elif CHAIN == 2
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Node {
    Node next;
};
#define PTR Node
#define TO_PTR(u) Node(u)
#define FROM_PTR(p) uvec2(p)
#else
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Node {
    uvec2 next;
};
#define PTR uvec2
#define TO_PTR(u) (u)
#define FROM_PTR(p) (p)
#endif
// The place slot that holds the pointer table's base address (the family's PTR_SLOT).
#define PTR_SLOT (MAX_SIZES - 2u)
// The 64-bit sum of an address and a 32-bit offset, as two words.
uvec2 offsetAddress(uvec2 a, uint offset) {
    uint lo = a.x + offset;
    return uvec2(lo, a.y + (lo < a.x ? 1u : 0u));
}
// The line node `end` lies at from line 0's node `start`, in 256-byte lines (a chain spans
// less than 4 GB: the low words' difference is the distance). Components are read here,
// from copies: the chase's own variable is only ever read and written whole, so that the
// optimizer keeps it in a register (a component access kept it in memory, a load and a
// store around every step).
uint lineOf(uvec2 end, uvec2 start) {
    return (end.x - start.x) >> 8u;
}
#endif

#ifndef BESIDE_KB
#define BESIDE_KB 0
#endif
#if BESIDE_KB
layout(std430, set = 0, binding = 3) readonly buffer Beside {
    uint besideWords[];
};
#endif

#if RESOURCE == 11
shared uint chain[SHARED_KB * 256];
#endif
#ifndef PAD_KB
#define PAD_KB 0
#endif
#if PAD_KB
shared uint pad[PAD_KB * 256];
#endif

void main() {
    uvec4 place = state.place[pc.readStart];
    // Line L's word is at index (L << 5) + k.
    uint k = place.x;
    // The chase beside shared memory has slots of its own, after the 12 resources'.
    // The texture chase beside a buffer's has slots of its own too (16: after the
    // load-to-use chase's two).
    uint slot = (PAD_KB != 0 ? 13u : (BESIDE_KB != 0 ? 16u : RESOURCE)) * MAX_SIZES + pc.readStart;
    bool verifyStart = pc.writeIndex != 0xFFFFFFFFu && pc.elementsMask == 0u;
    uint iterations = pc.elementsMask != 0u ? pc.elementsMask : (verifyStart ? 17u : 16u);
#if CLOCK
    // The latency kernel's elementsMask: timed iterations in the low 16 bits, untimed ones
    // before them in the high 16 (the same dispatch: a dispatch starts with a cold L1).
    uint warmIterations = iterations >> 16u;
    iterations &= 0xFFFFu;
#endif
#if PAD_KB
    // Indexed by the invocation, so the whole array is allocated; zeros, read back after the
    // chase so that it is live.
    pad[gl_LocalInvocationIndex * PAD_KB] = 0u;
    barrier();
#endif
#if RESOURCE == 11
    for (uint j = gl_LocalInvocationIndex; j < SHARED_KB * 256u; j += 256u) {
        chain[j] = words[j];
    }
    barrier();
#define LOAD(i) chain[i]
#endif
#if RESOURCE >= 6 && RESOURCE <= 9
    // Images hold the whole table from its line 0: the size's lines start at place.y.
    k += place.y << 5u;
#endif
#if RESOURCE == 6
    // Images are 2^s texels wide: texel i is (i & (width - 1), i >> s).
    uint widthMask = uint(imageSize(table).x) - 1u;
    uint shift = uint(findMSB(imageSize(table).x));
#define LOAD(i) uint(imageLoad(table, ivec2((i) & widthMask, (i) >> shift)).x)
#elif RESOURCE == 7
    uint widthMask = uint(textureSize(table, 0).x) - 1u;
    uint shift = uint(findMSB(textureSize(table, 0).x));
#define LOAD(i) uint(texelFetch(table, ivec2((i) & widthMask, (i) >> shift), 0).x)
#elif RESOURCE == 8 || RESOURCE == 9
    // Texel centres in normalised coordinates; a power-of-two size makes them exact, so the
    // bilinear weights are exactly 1 and 0.
    uint widthMask = uint(textureSize(table, 0).x) - 1u;
    uint shift = uint(findMSB(textureSize(table, 0).x));
    vec2 texelSize = 1.0 / vec2(textureSize(table, 0));
#define LOAD(i) uint(textureLod(table, (vec2(uvec2((i) & widthMask, (i) >> shift)) + 0.5) * texelSize, 0.0).x)
#elif RESOURCE == 10
    Words table = Words(place.zw);
#define LOAD(i) table.words[i]
#endif
#if RESOURCE == 13 && CHAIN == 2
#define NEXT(cur) (cur).next
#elif RESOURCE == 13
#define NEXT(cur) Node(cur).next
#elif RESOURCE == 3
#define NEXT(cur) lines[cur].next[k]
#elif RESOURCE == 12
// A 24-bit value, so that the verify output (a float) holds it exactly.
#define NEXT(cur) (((((cur) << 5u) + k) * 0x9E3779B1u) >> 8u)
#else
#define NEXT(cur) LOAD(((cur) << 5u) + k)
#endif
#if BESIDE_KB
    // The buffer's chain: its word and where it stands (line 0 at every dispatch).
    uint besideK = state.place[BESIDE_SIZE].x;
    uint beside = 0u;
    uint zero = pc.unused;
#define STEP(cur) beside = besideWords[((beside + ((cur) & zero)) << 5u) + besideK]; \
    cur = NEXT((cur) + (beside & zero))
#else
#define STEP(cur) cur = NEXT(cur)
#endif
    if (gl_LocalInvocationIndex == 0u) {
#if RESOURCE == 13
        // The chain's node of line 0 (256-byte lines, 8-byte slots); a chase not yet started
        // (its state still zero) starts there too.
#if CYCLE
        uvec2 first = place.zw;
#else
        uvec2 first = offsetAddress(state.place[PTR_SLOT].zw, (place.y << 8u) + (k << 3u));
#endif
        uint lo = 14u * MAX_SIZES + pc.readStart;
        uint hi = 15u * MAX_SIZES + pc.readStart;
        uvec2 saved = uvec2(state.next[lo], state.next[hi]);
        bool fresh = verifyStart || saved == uvec2(0u);
        PTR cur = TO_PTR(fresh ? first : saved);
#else
        uint cur = verifyStart ? 0u : state.next[slot];
#endif
#if CLOCK
#if BESIDE_KB
        // The buffer's whole cycle (BESIDE_KB KB of 128-byte lines), into the L1.
        [[dont_unroll]] for (uint i = 0u; i < BESIDE_KB * 8u; ++i) {
            beside = besideWords[(beside << 5u) + besideK];
        }
#endif
        [[dont_unroll]] for (uint i = 0u; i < warmIterations; ++i) {
            [[unroll]] for (uint s = 0u; s < 16u; ++s) {
                STEP(cur);
            }
        }
        uvec2 t0 = clock2x32ARB();
#endif
#if ROLLED
        [[dont_unroll]] for (uint i = 0u; i < iterations * 16u; ++i) {
            STEP(cur);
        }
#else
        [[dont_unroll]] for (uint i = 0u; i < iterations; ++i) {
            [[unroll]] for (uint s = 0u; s < 16u; ++s) {
                STEP(cur);
            }
        }
#endif
#if CLOCK
        uvec2 t1 = clock2x32ARB();
#endif
#if PAD_KB
        cur += pad[(cur & 255u) * PAD_KB];
#endif
#if BESIDE_KB
        // The buffer's chase stays live (and adds nothing).
        cur += beside & zero;
#endif
        // Keeps the chase alive, and where the next dispatch of this test continues.
#if RESOURCE == 13
        uvec2 end = FROM_PTR(cur);
        state.next[lo] = end.x;
        state.next[hi] = end.y;
#define REACHED lineOf(FROM_PTR(cur), first)
#else
        state.next[slot] = cur;
#define REACHED cur
#endif
        if (pc.writeIndex != 0xFFFFFFFFu) {
#if CYCLE
            uint node = (end.x - first.x) >> k;
            outData[gl_WorkGroupID.x * 256u] = vec4(float(node & 0xFFFFu), float(node >> 16u), 0.0, 0.0);
#else
            outData[gl_WorkGroupID.x * 256u] = vec4(float(REACHED), 0.0, 0.0, 0.0);
#endif
#if CLOCK
            uint lo = t1.x - t0.x;
            uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
            outData[64] = uintBitsToFloat(uvec4(lo, hi, 0u, 0u));
#endif
        }
    } else if (pc.writeIndex != 0xFFFFFFFFu && (pc.elementsMask == 0u || gl_LocalInvocationIndex < 64u)) {
        // The other invocations write zeros, so the whole output is defined (the latency
        // kernel leaves outData[64] to the ticks).
        outData[gl_WorkGroupID.x * 256u + gl_LocalInvocationIndex] = vec4(0.0);
    }
}
