# results/h200/stability/: the write and latency parts of results/h100/stability/command.sh,
# same build (commit 25e2a60), on an H200 (results/README.md, *Figures that hold*); of their
# files, the CSVs, latency-verify.txt and devices.txt were kept.
# Rerun: scripts/reproduce.sh results/h200/stability OUTDIR
ONLY=${ONLY:-write latency}
. results/h100/stability/command.sh
