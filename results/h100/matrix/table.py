#!/usr/bin/env python3
"""The matrix suite's H100 tables for results/README.md, from two timed runs' CSVs and the
instruction-suite rows timed with them.

Usage: results/h100/matrix/table.py run1.csv run2.csv instructions.csv
Prints Markdown: per type, the best per-clock cooperative-matrix row beside the dense tensor
peak of NVIDIA's H100 whitepaper (per clock per SM), and the dot products beside the scalar
rates. Where the two runs differ, the table shows run 1 and the spread between the runs.
"""
import csv
import sys

# Dense tensor-core peaks of the H100 SXM5 (NVIDIA H100 Tensor Core GPU Architecture
# whitepaper, table 3), per clock per SM: TFLOPS / (132 SMs x 1830 MHz, the clock the tensor
# peaks are quoted at). FP16 and BF16 989.4 -> 4096; FP8 and INT8 1979 -> 8192; TF32 494.7 -> 2048.
PEAK_TFLOPS = {"fp16": 989.4, "bf16": 989.4, "int8": 1978.9, "fp8": 1978.9}
SMS, PEAK_MHZ = 132, 1830


def per_clock(tflops):
    return tflops * 1e12 / (SMS * PEAK_MHZ * 1e6)


def rows(path):
    with open(path, newline="") as f:
        return {r["test"]: r for r in csv.DictReader(f)}


def kind(test):
    t = test.split(" ")[3] if test.startswith("matrix: coopmat") else ""
    a = t.split("*")[0]
    return {"f16": "fp16", "bf16": "bf16", "s8": "int8", "u8": "int8", "e4m3": "fp8", "e5m2": "fp8"}.get(a)


def main():
    run1, run2, instr = rows(sys.argv[1]), rows(sys.argv[2]), rows(sys.argv[3])
    ok = {t: r for t, r in run1.items() if r["status"] != "unsupported" and r["loads_per_clk_per_cu"]}

    def rate(r):
        return float(r["loads_per_clk_per_cu"])

    def spread(t):
        a, b = rate(run1[t]), rate(run2[t]) if t in run2 and run2[t]["loads_per_clk_per_cu"] else None
        return "" if b is None else f"{100 * abs(a - b) / a:.1f} %"

    print("| type | best row | per clk per SM | whitepaper dense peak per clk per SM | reached | TFLOP/s (TOP/s) at the row's clock | latency clk | runs apart |")
    print("|---|---|---|---|---|---|---|---|")
    for k in ["fp16", "bf16", "int8", "fp8"]:
        cands = [t for t in ok if kind(t) == k]
        peak = per_clock(PEAK_TFLOPS[k])
        if not cands:
            print(f"| {k} | (no row the driver lists) | – | {peak:.0f} | – | – | – | – |")
            continue
        best = max(cands, key=lambda t: rate(ok[t]))
        r = ok[best]
        lat = r["latency_clk"] or "–"
        print(
            f"| {k} | `{best}` | {rate(r):.0f} | {peak:.0f} | {100 * rate(r) / peak:.1f} % | "
            f"{float(r['gloads_per_s']) / 1000:.0f} | {lat} | {spread(best)} |"
        )
    print()
    print("| cooperative-matrix row | unit | per clk per SM | of the dense peak | latency clk | clock MHz | runs apart |")
    print("|---|---|---|---|---|---|---|")
    for t, r in ok.items():
        if not t.startswith("matrix: coopmat"):
            continue
        peak = per_clock(PEAK_TFLOPS[kind(t)])
        lat = r["latency_clk"] or "–"
        print(
            f"| `{t[8:]}` | {r['unit']} | {rate(r):.0f} | {100 * rate(r) / peak:.1f} % | {lat} | "
            f"{float(r['clock_mhz']):.0f} | {spread(t)} |"
        )
    print()
    print("| dot product | unit | per clk per SM | dot products per clk per SM | latency clk | runs apart | conditions |")
    print("|---|---|---|---|---|---|---|")
    for t, r in ok.items():
        if not t.startswith("matrix: dot"):
            continue
        per_dot = 8 if "4x8-bit" in t else 4
        print(
            f"| `{t[8:]}` | {r['unit']} | {rate(r):.1f} | {rate(r) / per_dot:.1f} | "
            f"{r['latency_clk'] or '–'} | {spread(t)} | {r['conditions']} |"
        )
    print()
    print("| instruction-suite row (an fma counts one) | ops per clk per SM | as flops/ops (a multiply-add two) | latency clk |")
    print("|---|---|---|---|")
    for t, r in instr.items():
        if r["status"] == "unsupported":
            continue
        print(f"| `{t}` | {rate(r):.1f} | {2 * rate(r):.1f} | {r['latency_clk']} |")


if __name__ == "__main__":
    main()
