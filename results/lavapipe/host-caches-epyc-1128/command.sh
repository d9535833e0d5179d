# results/lavapipe/host-caches-epyc-1128/ (session of 2026-11-28, issue 62): lavapipe's device is
# this session's host CPU (a two-core KVM AMD EPYC, family 25 model 17; sysfs.txt: L1d 32 KB, L2 1 MB, L3 32 MB):
# the storage-buffer chase's sweep to 16 MB in three passes, each in an order of its own, as
# tests/host_caches.rs runs it (which runs two); summary.txt reads the three together (each size's fastest
# pass) and holds the curve's steps against the caches the rows' host_caches column names.
# Run here, not on a GPU machine; CSVs gzipped afterwards.
# Rerun: scripts/reproduce.sh results/lavapipe/host-caches-epyc-1128 OUTDIR
for i in /sys/devices/system/cpu/cpu0/cache/index*; do
  echo "$(basename "$i"): level $(cat "$i/level") $(cat "$i/type") $(cat "$i/size"), $(cat "$i/coherency_line_size") B lines, $(cat "$i/ways_of_associativity")-way"
done > "$out/sysfs.txt"
F=()
while read -r name; do F+=(--filter "$name"); done < <("$B" --list-tests --suite latency |
  awk '$1 == "latency:" && $2 == "ByteAddressBuffer" && NF == 4 && $3 ~ /^[0-9.]+$/ && ($4 == "KB" || ($4 == "MB" && $3 <= 16))')
for i in 1 2 3; do
  wall "$B" --device cpu "${X[@]}" --suite latency --shuffle --seed "$i" "${F[@]}" --csv "$out/pass$i.csv" > "$out/pass$i.txt" 2>&1
done
"$B" summary "$out/pass1.csv" "$out/pass2.csv" "$out/pass3.csv" > "$out/summary.txt"
"$B" summary --json "$out/summary.json" "$out/pass1.csv" "$out/pass2.csv" "$out/pass3.csv"
