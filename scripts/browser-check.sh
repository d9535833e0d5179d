#!/usr/bin/env bash
# The HTML report in a real browser (headless Chromium): reports made from (a) a fresh small
# lavapipe run of every charted suite, (b) the committed H100 results of every suite, and
# (c) a lavapipe run with unsupported rows and a failed one (--fault out-of-memory), read from
# its JSON. For each report it checks, from the DOM Chromium rendered (a harness page loads
# the report in a frame and measures it):
#   - every <svg> chart was laid out at a readable size (>= 300 x 80 px) and drew its data:
#     at least one point or line with a non-empty bounding box, and its axis and legend text;
#   - the page needs no horizontal scrolling in a 1366 px wide window (a laptop's width);
#   - no request left the page: the report's Performance API lists no resource, Chromium's
#     network log (--log-net-log) shows no request a page started (only the browser's own
#     update checks, which the page cannot cause), and the HTML has no
#     script, src=, <link>, url( or http(s) address (its CSP allows none either);
# then takes a full-page screenshot. Report (c) must show its failed row.
#
# Usage: scripts/browser-check.sh OUT_DIR       (reports, screenshots and logs go to OUT_DIR)
#        scripts/browser-check.sh --sections DIR (only the H100 report: one screenshot per
#                                                 section into DIR, as results/h100/report)
# Environment: PERFTEST (default target/release/perftest), CHROMIUM (default: chromium,
# chromium-browser or google-chrome on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

sections=""
if [ "${1:-}" = "--sections" ]; then
  sections=1
  shift
fi
[ $# -eq 1 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)

perftest=${PERFTEST:-$root/target/release/perftest}
[ -x "$perftest" ] || { echo "browser-check: no $perftest (cargo build --release)" >&2; exit 2; }
chromium=${CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
  [ -n "$chromium" ] && break
  command -v "$c" >/dev/null 2>&1 && chromium=$c
done
[ -n "$chromium" ] || { echo "browser-check: no Chromium (apt-get install chromium)" >&2; exit 2; }

# Runs Chromium headless (no sandbox: CI runs as root), every host name unresolvable, and
# stops it after 120 s (a watchdog loop, so nothing is left behind when it ends in time).
browse() {
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$out/profile" "$@" \
    2>>"$out/chromium.log" &
  local pid=$! i
  (for i in $(seq 240); do sleep 0.5; kill -0 "$pid" 2>/dev/null || exit 0; done
   echo "browser-check: Chromium ran over 120 s; stopped" >&2; kill -9 "$pid") &
  local watchdog=$!
  local rc=0
  wait "$pid" || rc=$?
  wait "$watchdog" 2>/dev/null || true
  return $rc
}

h100_inputs=()
while read -r f; do
  f=${f%%#*}
  [ -n "${f// /}" ] && h100_inputs+=("$root/$f")
done <results/h100/report/inputs.txt

# check NAME REPORT.html: the DOM checks above, then the screenshot NAME.png.
check() {
  local name=$1 html=$2
  # Static: nothing in the file could fetch anything.
  if grep -Eiq '<script|<link|<img|<iframe|src=|url\(|@import|https?:' "$html"; then
    echo "browser-check: $name: the HTML holds a script, a link or an address:" >&2
    grep -Eio '.{0,40}(<script|<link|<img|<iframe|src=|url\(|@import|https?:).{0,40}' "$html" | head -3 >&2
    return 1
  fi
  grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$html" ||
    { echo "browser-check: $name: no Content-Security-Policy" >&2; return 1; }
  cp "$html" "$out/$name.html"
  sed "s/REPORT/$name.html/" >"$out/$name-harness.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="out">not measured</pre>
<iframe id="f" src="REPORT" style="width:1366px;height:900px;border:0"></iframe>
<script>
const f = document.getElementById('f');
f.onload = () => {
  const out = document.getElementById('out');
  try {
    const d = f.contentDocument, w = f.contentWindow;
    const size = e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; };
    const charts = [...d.querySelectorAll('svg')].map(s => {
      const r = s.getBoundingClientRect();
      return {
        title: (s.querySelector('title') || {}).textContent || '',
        width: r.width, height: r.height,
        marks: [...s.querySelectorAll('circle, path')].filter(size).length,
        texts: [...s.querySelectorAll('text')].filter(size).length,
      };
    });
    out.textContent = JSON.stringify({
      charts,
      scrollWidth: d.documentElement.scrollWidth,
      scrollHeight: d.documentElement.scrollHeight,
      sections: [...d.querySelectorAll('section')].map(s => { const r = s.getBoundingClientRect(); return [s.id, r.top + w.scrollY, r.height]; }),
      resources: w.performance.getEntriesByType('resource').map(e => e.name),
      failedRows: d.querySelectorAll('td.failed').length,
    });
  } catch (e) { out.textContent = 'error: ' + e; }
};
</script></body></html>
EOF
  browse --allow-file-access-from-files --virtual-time-budget=20000 \
    --log-net-log="$out/$name-netlog.json" \
    --dump-dom "file://$out/$name-harness.html" >"$out/$name-dom.html"
  python3 - "$out" "$name" "$(grep -o '<svg' "$html" | wc -l)" <<'EOF'
import html, json, re, sys
out, name, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
dom = open(f"{out}/{name}-dom.html", encoding="utf-8").read()
m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
text = html.unescape(m.group(1)) if m else "no harness output"
if not text.startswith("{"):
    sys.exit(f"browser-check: {name}: the harness could not measure the page: {text}")
r = json.loads(text)
bad = []
if len(r["charts"]) != expected:
    bad.append(f"{len(r['charts'])} charts rendered, {expected} in the HTML")
if expected == 0:
    bad.append("no chart at all")
for c in r["charts"]:
    if c["width"] < 300 or c["height"] < 80 or c["marks"] < 1 or c["texts"] < 3:
        bad.append(f"chart {c['title']!r} not drawn: {c}")
if r["scrollWidth"] > 1366:
    bad.append(f"the page is {r['scrollWidth']} px wide in a 1366 px window")
if r["resources"]:
    bad.append(f"the page loaded {r['resources']}")
# Every request Chromium's network stack started for a page (the browser's own, such as
# its update checks, have no initiator: "not an origin"; a file page's are "null").
net = open(f"{out}/{name}-netlog.json", encoding="utf-8", errors="replace").read()
try:
    log = json.loads(net)
except ValueError:  # a log cut short: close it
    log = json.loads(net.rstrip().rstrip(",") + "]}")
start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
requests = [e["params"] for e in log["events"]
            if e["type"] == start and "url" in e.get("params", {})]
page = sorted(r["url"] for r in requests if r.get("initiator") != "not an origin")
if page:
    bad.append(f"requests left the page: {page[:5]}")
if bad:
    sys.exit(f"browser-check: {name}:\n  " + "\n  ".join(bad))
with open(f"{out}/{name}-measured.json", "w") as f:
    json.dump(r, f, indent=1)
print(f"browser-check: {name}: {len(r['charts'])} charts drawn "
      f"(smallest {min(c['width'] for c in r['charts']):.0f} x "
      f"{min(c['height'] for c in r['charts']):.0f} px, "
      f"{sum(c['marks'] for c in r['charts'])} marks), "
      f"{r['scrollWidth']} x {r['scrollHeight']} px, no request, "
      f"{r['failedRows']} failed row cells")
EOF
  local height
  height=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['scrollHeight'])" \
    "$out/$name-measured.json")
  browse --window-size="1366,$height" --screenshot="$out/$name.png" "file://$out/$name.html" \
    >/dev/null
  [ -s "$out/$name.png" ] || { echo "browser-check: $name: no screenshot" >&2; return 1; }
}

if [ -n "$sections" ]; then
  "$perftest" report "${h100_inputs[@]}" --reference ampere -o "$out/h100-report.html"
  check h100 "$out/h100-report.html"
  # One picture per section, cut from the full-page screenshot (Pillow: `pip install pillow`;
  # only this option needs it).
  python3 - "$out" <<'EOF2'
import json, sys
from PIL import Image
out = sys.argv[1]
page = Image.open(f"{out}/h100.png")
for name, top, height in json.load(open(f"{out}/h100-measured.json"))["sections"]:
    top = max(0, round(top) - 8)
    part = page.convert("RGB").crop((0, top, page.width, min(page.height, top + round(height) + 16)))
    # 128 colours keep the text's anti-aliasing and a third of the bytes.
    part.quantize(128).save(f"{out}/h100-{name}.png", optimize=True)
EOF2
  rm -rf "$out/profile" "$out"/*-netlog.json "$out"/*-harness.html "$out"/*-dom.html \
    "$out/chromium.log" "$out/h100.png" "$out/h100-report.html" "$out/h100.html" \
    "$out/h100-measured.json"
  exit 0
fi

# (a) A fresh lavapipe run: a few tests of every suite the report draws (the curves at four
# sizes: a chart of the sweep, not the sweep: all 65 sizes to 1 GB took 30 s more).
"$perftest" --device llvmpipe \
  --suite original,instructions,branch,pitfalls,bandwidth,latency \
  --filter "Buffer<RGBA8>.Load random" --filter "Buffer<R8>.Load" --filter "cbuffer{float4} load" \
  --filter "fp32 add" --filter "fp32 mul" --filter "0X Coherent" --filter "16X" \
  --filter "Pitfall fp32" --filter "latency: groupshared" \
  --filter "bandwidth: ByteAddressBuffer.Load4 4 KB" --filter "bandwidth: ByteAddressBuffer.Load4 64 KB" \
  --filter "bandwidth: ByteAddressBuffer.Load4 1 MB" --filter "bandwidth: ByteAddressBuffer.Load4 16 MB" \
  --filter "latency: Buffer<uint> 4 KB" --filter "latency: Buffer<uint> 64 KB" \
  --filter "latency: Buffer<uint> 1 MB" --filter "latency: Buffer<uint> 16 MB" \
  --groups 4 --samples 5 --warmup 1 --csv "$out/lavapipe.csv" >"$out/lavapipe.txt" 2>&1
"$perftest" report "$out/lavapipe.csv" -o "$out/lavapipe-report.html"
check lavapipe "$out/lavapipe-report.html"

# (b) The committed H100 results, every suite, beside the RTX 3090's published ratios.
"$perftest" report "${h100_inputs[@]}" --reference ampere -o "$out/h100-report.html"
check h100 "$out/h100-report.html"

# (c) Unsupported rows (a 1 GB working set is beyond lavapipe's limits) and a failed one: the
# second test's dispatch fails (--fault out-of-memory); read from the run's JSON.
"$perftest" --device llvmpipe --suite original,bandwidth --fault out-of-memory \
  --filter "Buffer<RGBA8>.Load random" --filter "Buffer<R8>.Load" \
  --filter "bandwidth: ByteAddressBuffer.Load4 4 KB" --filter "bandwidth: ByteAddressBuffer.Load4 8 KB" \
  --filter "bandwidth: ByteAddressBuffer.Load4 1 GB" \
  --groups 4 --samples 5 --warmup 1 --json "$out/failed.json" >"$out/failed.txt" 2>&1 || true
python3 - "$out/failed.json" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
status = {r["status"] for r in rows}
if not {"unsupported", "error"} <= status:
    sys.exit(f"browser-check: the faulted run has statuses {sorted(status)}, not unsupported and error")
EOF
"$perftest" report "$out/failed.json" -o "$out/failed-report.html"
check failed "$out/failed-report.html"
grep -q "Rows that failed" "$out/failed-report.html" ||
  { echo "browser-check: failed: the report does not list the failed row" >&2; exit 1; }
rm -rf "$out/profile"
echo "browser-check: ok ($out)"
