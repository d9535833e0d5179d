# results/h200x4/node12-1129/ (session of 2026-11-29, issue 57): PREPARED, NOT YET RUN: no
# machine of several GPUs was lent in the session that wrote it; the next one that has one
# runs it (renaming the folder to its date) and commits the outputs beside it. On every GPU
# of one machine (`--device all`: four on nvidia-h200-x4, two on -x2), the build of b7a72cc
# or later (the copies' host memory imported in 2 MB pages; one 1 GB copy each way; a row
# held alone timed again for its spread inside its hold; a check's own clock dip leaving the
# rows standing; since 80fbfd2 also a spreading row's samples held to its median's 0.15 % and
# a device's tests held alone one after another taking the node once, `hold alone` in its
# trace — one GPU alone 7.3–7.9 s on an H200, `results/h200/final3-1129`): the profile once on GPU 0 to warm the driver's shader cache, then GPU 0
# alone and all GPUs at once, in turn, twice, traced; the fleet over the four files. Read
# each 1 GB copy row's `memory` (imported on every GPU?) and each device's `prepare` phase
# (`results/h200/huge-1129/phases.py`, `results/h200x4/node10-1128/waits.py`); `node.py OUTDIR` beside
# this file reads all of it back (each run's time and ratio, flags, phases per device, copies).
# Rerun: scripts/reproduce.sh results/h200x4/node12-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/first.csv" > "$out/first.txt" 2>&1
for i in 1 2; do
  for d in 0 all; do
    PERFTEST_TRACE=$out/trace-$d-$i.tsv wall "$B" "${X[@]}" --device $d --suite health --csv "$out/health-$d-$i.csv" > "$out/health-$d-$i.txt" 2>&1
  done
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
# Run on two H200s with 81363c0 (2026-11-29) as results/h200x2/node6-1129 (1.13×, 1.12×);
# on four GPUs not yet.
