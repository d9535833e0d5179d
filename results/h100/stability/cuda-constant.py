#!/usr/bin/env python3
"""CUDA `.const` (LDC) counterpart of `cbuffer{float4} load {uniform,linear,random}`.

Needs only the NVIDIA driver (libcuda.so.1): hand-written PTX is JIT-compiled with
cuModuleLoadDataEx and timed with cuEvents; no nvcc, no toolkit, standard library only.

Every kernel mirrors glsl/loads/constant_buffer.comp + common.glsl: 256 threads per block, 4096
blocks, 256 loads per thread in a loop marked `.pragma "nounroll"` (the `[[dont_unroll]]`);
iteration i reads element `(start + i) | elementsMask` of a 16 KB array (`.const .align 16 .b8
cdata[16384]`, 1024 vec4s) with `ld.const.v4.f32` (ptxas 12.9 makes that two `LDC.64
c[0x3][R]`); the floats are summed, the sum goes to shared memory, bar.sync, and to the
output only if writeIndex != 0xFFFFFFFF (slot (tid + writeIndex) & 255, as writeOut does).
elementsMask (0) and writeIndex (0xFFFFFFFF while timing) are kernel parameters.

Tests (start is per thread; tid = local index, lane = tid & 31):
  const_uniform / const_linear / const_random   start = 0 / tid / (tid*0x3504f333) & 15
      (random: lanes l and l+16 share one of exactly 16 consecutive vec4s)
  const_dD      start = lane % D: D distinct consecutive vec4s per warp load, the same set in
                every warp (d16 has random's address set; d32 is linear within a warp, with a
                4.6 KB footprint per block instead of linear's 8 KB)
  const_dD_line start = (lane % D) * 4: D distinct addresses, each in its own 64-B line
  const_*_wrap32    element = ((start + i) & 31) | mask: same D per load, 512-B footprint
  const_*_unrollU   the loop body repeated U times by hand (nvcc unrolls a plain loop 4x)
  const_*_f32x4     four ld.const.f32 of word (4*element + c) | mask: four 32-bit LDC per vec4
  global_nc_*       ld.global.nc.v4.f32 (LDG.E.128.CONSTANT) from a 16 KB buffer, "readonly SSBO"
Per-distinct-address serialisation predicts time ~ D and dD_line == dD; a per-64-B-line cost
predicts dD flat up to D=4 and dD_line ~ D; a constant-cache capacity limit (2 KB L1 on H100
per mt4g) predicts wrap32 much faster than unwrapped and linear slower per load than d32;
an issue/latency limit predicts unroll4/8 faster; per-LDC-instruction cost predicts f32x4
about 2x slower than the v4 kernels.

loads_per_clk_per_sm = 4096*256*256 / seconds / (clock_mhz * 1e6) / SMs, as perftest counts.
clock_mhz is measured: a probe kernel (one warp per block, 4 blocks per SM) spins 2e7 cycles
of %clock64 and divides by the %globaltimer nanoseconds elapsed; the median over blocks, taken
right before and right after each test's timed launches, is averaged (--clock-mhz overrides).
Each test's time is the median of >= 20 single-launch cuEvent samples after a warm-up. Every
kernel then runs once with writeIndex = 0 and blocks 0 and 4095 are compared exactly with a
CPU reference (all data are k/64, so every float sum is exact).

Usage: python3 results/h100/stability/cuda-constant.py [--ptx-only] [--only REGEX] [--samples N] [--verbose]
"""
import argparse
import ctypes as C
import functools
import re
import statistics
import sys

THREADS, BLOCKS, LOADS, ELEMS = 256, 4096, 256, 1024
NO_WRITE = 0xFFFFFFFF


def value(e, c):  # element e, component c: k/64 with k in 1..997, exact in f32
    return ((e * 4 + c) * 7919 % 997 + 1) / 64.0


def start_of(start, tid, d=0):
    lane = tid & 31
    return {"uniform": 0, "linear": tid, "random": (tid * 0x3504F333) & 15,
            "d": lane % d if d else 0, "dline": (lane % d) * 4 if d else 0}[start]


def T(name, start, d=0, wrap=None, unroll=1, split=False, space="const"):
    return dict(name=name, start=start, d=d, wrap=wrap, unroll=unroll, split=split, space=space)


TESTS = [T(f"const_{p}", p) for p in ("uniform", "linear", "random")]
TESTS += [T(f"const_d{d}", "d", d) for d in (1, 2, 4, 8, 16, 32)]
TESTS += [T(f"const_d{d}_line", "dline", d) for d in (2, 4, 8, 16, 32)]
TESTS += [T(f"const_{p}_wrap32", p, wrap=31) for p in ("random", "linear")]
TESTS += [T(f"const_{p}_unroll{u}", p, unroll=u) for p in ("random", "linear") for u in (4, 8)]
TESTS += [T(f"const_{p}_f32x4", p, split=True) for p in ("uniform", "random", "linear")]
TESTS += [T(f"global_nc_{p}", p, space="global") for p in ("uniform", "linear", "random")]


def start_ptx(start, d):
    if start == "uniform":
        return "mov.u32 %r4, 0;"
    if start == "linear":
        return "mov.u32 %r4, %r3;"
    if start == "random":
        return "mul.lo.u32 %r4, %r3, 0x3504f333;\n\tand.b32 %r4, %r4, 15;"
    ptx = f"and.b32 %r4, %r3, {d - 1};"  # lane % d == tid & (d-1) for d | 32
    return ptx + ("\n\tshl.b32 %r4, %r4, 2;" if start == "dline" else "")


def kernel_ptx(name, start, d, wrap, unroll, split, space):
    base = "mov.u64 %rd3, cdata;" if space == "const" else "cvta.to.global.u64 %rd3, %rd2;"
    ld = "ld.const" if space == "const" else "ld.global.nc"
    if split:  # 4 scalar loads, word (4*element + c) | mask: ptxas cannot pair them into LDC.64
        load = [f"mad.lo.u32 %r7, %r6, 4, {c};\n\tor.b32 %r7, %r7, %r1;\n\tmul.wide.u32 %rd6, %r7, 4;\n\t"
                f"add.s64 %rd7, %rd3, %rd6;\n\t{ld}.f32 %f{5 + c}, [%rd7];" for c in range(4)]
    else:
        load = [f"{ld}.v4.f32 {{%f5, %f6, %f7, %f8}}, [%rd5];"]
    body = []
    for k in range(unroll):
        body.append("add.u32 %r6, %r4, %r5;" + (f"\n\tadd.u32 %r6, %r6, {k};" if k else ""))
        if wrap is not None:
            body.append(f"and.b32 %r6, %r6, {wrap};")
        body += ["or.b32 %r6, %r6, %r1;", "mul.wide.u32 %rd4, %r6, 16;", "add.s64 %rd5, %rd3, %rd4;", *load,
                 "add.f32 %f1, %f1, %f5;", "add.f32 %f2, %f2, %f6;", "add.f32 %f3, %f3, %f7;", "add.f32 %f4, %f4, %f8;"]
    body = "\n\t".join(body)
    return f"""
.visible .entry {name}(.param .u64 p_out, .param .u64 p_src, .param .u32 p_mask, .param .u32 p_write)
{{
\t.reg .pred %p<3>;
\t.reg .b32 %r<16>;
\t.reg .b64 %rd<10>;
\t.reg .f32 %f<13>;
\tld.param.u64 %rd1, [p_out];
\tld.param.u64 %rd2, [p_src];
\tld.param.u32 %r1, [p_mask];
\tld.param.u32 %r2, [p_write];
\tmov.u32 %r3, %tid.x;
\t{start_ptx(start, d)}
\t{base}
\tmov.f32 %f1, 0f00000000;
\tmov.f32 %f2, 0f00000000;
\tmov.f32 %f3, 0f00000000;
\tmov.f32 %f4, 0f00000000;
\tmov.u32 %r5, 0;
$L_loop:
\t.pragma "nounroll";
\t{body}
\tadd.u32 %r5, %r5, {unroll};
\tsetp.lt.u32 %p1, %r5, {LOADS};
\t@%p1 bra $L_loop;
\tmov.u32 %r7, lds;
\tshl.b32 %r8, %r3, 4;
\tadd.u32 %r8, %r7, %r8;
\tst.shared.v4.f32 [%r8], {{%f1, %f2, %f3, %f4}};
\tbar.sync 0;
\tsetp.eq.s32 %p2, %r2, -1;
\t@%p2 bra $L_done;
\tadd.u32 %r9, %r3, %r2;
\tand.b32 %r9, %r9, 255;
\tshl.b32 %r9, %r9, 4;
\tadd.u32 %r9, %r7, %r9;
\tld.shared.v4.f32 {{%f9, %f10, %f11, %f12}}, [%r9];
\tmov.u32 %r10, %ctaid.x;
\tshl.b32 %r10, %r10, 8;
\tadd.u32 %r10, %r10, %r3;
\tmul.wide.u32 %rd6, %r10, 16;
\tcvta.to.global.u64 %rd7, %rd1;
\tadd.s64 %rd8, %rd7, %rd6;
\tst.global.v4.f32 [%rd8], {{%f9, %f10, %f11, %f12}};
$L_done:
\tret;
}}
"""


CLOCK_PTX = """
.visible .entry clock_probe(.param .u64 p_res, .param .u64 p_cycles)
{
\t.reg .pred %p<3>;
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<12>;
\tld.param.u64 %rd1, [p_res];
\tld.param.u64 %rd2, [p_cycles];
\tmov.u32 %r1, %tid.x;
\tsetp.ne.u32 %p1, %r1, 0;
\t@%p1 bra $C_done;
\tmov.u64 %rd3, %globaltimer;
\tmov.u64 %rd4, %clock64;
$C_spin:
\tmov.u64 %rd5, %clock64;
\tsub.s64 %rd6, %rd5, %rd4;
\tsetp.lt.u64 %p2, %rd6, %rd2;
\t@%p2 bra $C_spin;
\tmov.u64 %rd7, %globaltimer;
\tsub.s64 %rd8, %rd7, %rd3;
\tmov.u32 %r2, %ctaid.x;
\tmul.wide.u32 %rd9, %r2, 16;
\tcvta.to.global.u64 %rd10, %rd1;
\tadd.s64 %rd11, %rd10, %rd9;
\tst.global.v2.u64 [%rd11], {%rd6, %rd8};
$C_done:
\tret;
}
"""


def module_ptx():
    head = (".version 7.8\n.target sm_90\n.address_size 64\n\n"
            f".const .align 16 .b8 cdata[{ELEMS * 16}];\n.shared .align 16 .b8 lds[{THREADS * 16}];\n")
    return head + "".join(kernel_ptx(**t) for t in TESTS) + CLOCK_PTX


class Cuda:
    def __init__(self, device):
        try:
            self.lib = C.CDLL("libcuda.so.1")
        except OSError as e:
            sys.exit(f"cuda-constant.py: libcuda.so.1 not found ({e}); this needs a machine with the "
                     "NVIDIA driver installed (no CUDA toolkit needed). Use --ptx-only to just print the PTX.")
        self.check(self.lib.cuInit(0), "cuInit")
        self.dev = C.c_int()
        self.check(self.lib.cuDeviceGet(C.byref(self.dev), device), "cuDeviceGet")
        self.ctx = C.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(C.byref(self.ctx), self.dev), "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")

    def check(self, err, what):
        if err:
            s = C.c_char_p()
            self.lib.cuGetErrorString(err, C.byref(s))
            sys.exit(f"{what} failed: error {err} ({(s.value or b'?').decode()})")

    def attr(self, a):
        v = C.c_int()
        self.check(self.lib.cuDeviceGetAttribute(C.byref(v), a, self.dev), f"cuDeviceGetAttribute({a})")
        return v.value

    def name(self):
        b = C.create_string_buffer(256)
        self.check(self.lib.cuDeviceGetName(b, 256, self.dev), "cuDeviceGetName")
        return b.value.decode()

    def load(self, ptx, verbose):
        log, info = C.create_string_buffer(1 << 16), C.create_string_buffer(1 << 16)
        opts = (C.c_int * 5)(5, 6, 3, 4, 12)  # ERROR_LOG_BUFFER(+SIZE), INFO_LOG_BUFFER(+SIZE), LOG_VERBOSE
        vals = (C.c_void_p * 5)(C.cast(log, C.c_void_p), 1 << 16, C.cast(info, C.c_void_p), 1 << 16, 1)
        mod = C.c_void_p()
        err = self.lib.cuModuleLoadDataEx(C.byref(mod), C.c_char_p(ptx.encode()), 5, opts, vals)
        if err:
            print(log.value.decode(errors="replace"), file=sys.stderr)
        self.check(err, "cuModuleLoadDataEx (PTX JIT)")
        if verbose:
            print(info.value.decode(errors="replace"), file=sys.stderr)
        return mod

    def function(self, mod, name):
        f = C.c_void_p()
        self.check(self.lib.cuModuleGetFunction(C.byref(f), mod, name.encode()), f"cuModuleGetFunction({name})")
        return f

    def alloc(self, nbytes):
        p = C.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(C.byref(p), C.c_size_t(nbytes)), "cuMemAlloc")
        return p.value

    def htod(self, dst, data):
        self.check(self.lib.cuMemcpyHtoD_v2(C.c_uint64(dst), data, C.c_size_t(C.sizeof(data))), "cuMemcpyHtoD")

    def dtoh(self, data, src):
        self.check(self.lib.cuMemcpyDtoH_v2(data, C.c_uint64(src), C.c_size_t(C.sizeof(data))), "cuMemcpyDtoH")

    def launch(self, f, grid, block, args):  # args: ctypes values in the kernel's parameter order
        params = (C.c_void_p * len(args))(*[C.cast(C.byref(v), C.c_void_p) for v in args])
        self.check(self.lib.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, None, params, None), "cuLaunchKernel")

    def event(self):
        e = C.c_void_p()
        self.check(self.lib.cuEventCreate(C.byref(e), 0), "cuEventCreate")
        return e

    def timed(self, f, grid, block, args):
        e0, e1 = self.events
        self.check(self.lib.cuEventRecord(e0, None), "cuEventRecord")
        self.launch(f, grid, block, args)
        self.check(self.lib.cuEventRecord(e1, None), "cuEventRecord")
        self.check(self.lib.cuEventSynchronize(e1), "cuEventSynchronize")
        ms = C.c_float()
        self.check(self.lib.cuEventElapsedTime(C.byref(ms), e0, e1), "cuEventElapsedTime")
        return ms.value


def measure_clock(cu, probe, res, sms, cycles=20_000_000):
    blocks = 4 * sms
    cu.launch(probe, blocks, 32, [C.c_uint64(res), C.c_uint64(cycles)])
    cu.check(cu.lib.cuCtxSynchronize(), "cuCtxSynchronize")
    out = (C.c_uint64 * (2 * blocks))()
    cu.dtoh(out, res)
    return statistics.median(out[2 * b] / out[2 * b + 1] * 1e3 for b in range(blocks) if out[2 * b + 1])


@functools.lru_cache(maxsize=None)
def sums(s, wrap):
    acc = [0.0] * 4
    for i in range(LOADS):
        e = (s + i) if wrap is None else ((s + i) & wrap)
        for c in range(4):
            acc[c] += value(e, c)
    return acc


def reference(t, tid):
    return sums(start_of(t["start"], tid, t["d"]), t["wrap"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptx-only", action="store_true", help="print the PTX module and exit")
    ap.add_argument("--only", default="", help="regex: run only the tests whose names match")
    ap.add_argument("--samples", type=int, default=30, help="timed single-launch samples per test (>= 20)")
    ap.add_argument("--warmup-ms", type=float, default=200.0, help="warm-up time per test")
    ap.add_argument("--clock-mhz", type=float, help="use this SM clock instead of measuring it")
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--no-verify", action="store_true", help="skip the CPU comparison")
    ap.add_argument("--verbose", action="store_true", help="print the JIT info log (registers per kernel)")
    a = ap.parse_args()
    ptx = module_ptx()
    if a.ptx_only:
        print(ptx)
        return
    tests = [t for t in TESTS if re.search(a.only, t["name"])]
    cu = Cuda(a.device)
    sms, khz = cu.attr(16), cu.attr(13)  # MULTIPROCESSOR_COUNT, CLOCK_RATE (kHz)
    ver = C.c_int()
    cu.lib.cuDriverGetVersion(C.byref(ver))
    print(f"# {cu.name()}: sm_{cu.attr(75)}{cu.attr(76)}, {sms} SMs, max SM clock {khz / 1e3:.0f} MHz, "
          f"CUDA driver API {ver.value}", file=sys.stderr)
    mod = cu.load(ptx, a.verbose)
    cbuf, cbytes = C.c_uint64(), C.c_size_t()
    cu.check(cu.lib.cuModuleGetGlobal_v2(C.byref(cbuf), C.byref(cbytes), mod, b"cdata"), "cuModuleGetGlobal")
    data = (C.c_float * (ELEMS * 4))(*[value(e, c) for e in range(ELEMS) for c in range(4)])
    assert cbytes.value == C.sizeof(data)
    cu.htod(cbuf.value, data)
    gsrc, out, res = cu.alloc(C.sizeof(data)), cu.alloc(BLOCKS * THREADS * 16), cu.alloc(4 * sms * 16)
    cu.htod(gsrc, data)
    probe = cu.function(mod, "clock_probe")
    cu.events = (cu.event(), cu.event())
    loads = BLOCKS * THREADS * LOADS
    print("test,ms,loads_per_clk_per_sm,clock_mhz")
    failures = 0
    for t in tests:
        f = cu.function(mod, t["name"])
        regs, occ = C.c_int(), C.c_int()
        cu.lib.cuFuncGetAttribute(C.byref(regs), 4, f)  # CU_FUNC_ATTRIBUTE_NUM_REGS
        cu.lib.cuOccupancyMaxActiveBlocksPerMultiprocessor(C.byref(occ), f, THREADS, C.c_size_t(0))
        run = lambda write: cu.timed(f, BLOCKS, THREADS, [C.c_uint64(out), C.c_uint64(gsrc),  # noqa: E731
                                                          C.c_uint32(0), C.c_uint32(write)])
        spent, n = 0.0, 0
        while spent < a.warmup_ms or n < 3:
            spent, n = spent + run(NO_WRITE), n + 1
        mhz0 = a.clock_mhz or measure_clock(cu, probe, res, sms)
        ms = statistics.median(run(NO_WRITE) for _ in range(max(a.samples, 20)))
        mhz1 = a.clock_mhz or measure_clock(cu, probe, res, sms)
        mhz = (mhz0 + mhz1) / 2
        note = f" (clock {mhz0:.0f} -> {mhz1:.0f} MHz)" if abs(mhz1 / mhz0 - 1) > 0.01 else ""
        print(f"{t['name']},{ms:.6f},{loads / (ms * 1e-3) / (mhz * 1e6) / sms:.4f},{mhz:.1f}", flush=True)
        status = "not verified"
        if not a.no_verify:
            run(0)
            host = (C.c_float * (BLOCKS * THREADS * 4))()
            cu.dtoh(host, out)
            bad = [(b, tid) for b in (0, BLOCKS - 1) for tid in range(THREADS)
                   if list(host[(b * THREADS + tid) * 4:(b * THREADS + tid) * 4 + 4]) != reference(t, tid)]
            status = f"{len(bad)} of {2 * THREADS} sums WRONG, first {bad[0]}" if bad else "verified"
            failures += bool(bad)
        print(f"#   {t['name']}: {regs.value} regs, {occ.value} blocks/SM, {status}{note}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
