# Run on the H100 device machine from the repository root (commit in the CSVs' git_commit),
# after installing the Vulkan loader: for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
B=./target/release/perftest; o=$OUT/transfer; mkdir -p $o
F="--suite bandwidth --filter transfer: --filter dispatch:"
$B $F --verify --validation --csv $o/verify.csv > $o/verify.txt 2>&1
for i in 1 2; do $B $F --csv $o/run$i.csv --json $o/run$i.json > $o/run$i.txt 2>&1; done
nvidia-smi -q | grep -i -A3 "PCIe Generation\|Link Width" > $o/pcie.txt
