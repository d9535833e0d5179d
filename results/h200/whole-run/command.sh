# results/h200/whole-run/: the `verify` then the `run1` step of results/h100/whole-run/command.sh
# (same commands, same output names), in one call on one freshly started H200 (the machine the
# device tool gave; driver 580.159.04), with nothing else on it. The binary was built from the
# tree committed as eea2299 (issue 35: the one-minute --verify); its rows say 49f97e447028,
# the commit before, because the build script reads the commit only when .git changes.
# before/: the verify step at 49f97e4 (committed), the trace that found where its time went.
# Rerun: scripts/reproduce.sh results/h200/whole-run OUTDIR verify; … OUTDIR run1
. "$root/results/h100/whole-run/command.sh"
# The terminal output all-run1.txt is committed gzipped (all-run1.txt.gz), to keep the tree small.
# The terminal output all-verify.txt is committed gzipped (all-verify.txt.gz), to keep the tree small.
