# results/h100/review-bandwidth/ run at commit 5b4eed8 (a refactor of the barriers, comparisons and data
# upload, measuring nothing new): the copies and dispatch costs, the stores, copies and host
# reads at three sizes, and the write suite verified again under the validation layer.
# Rerun: scripts/reproduce.sh results/h100/review-bandwidth OUTDIR
{ "$B" "${X[@]}" --suite bandwidth --filter transfer: --filter dispatch: --verify --validation \
    --csv "$out/transfer.csv"; echo "exit $?"; } > "$out/transfer.txt" 2>&1
{ "$B" "${X[@]}" --suite bandwidth --filter " 64 KB" --filter " 16 MB" --filter " 1 GB" --verify \
    --validation --groups 32 --csv "$out/bandwidth.csv"; echo "exit $?"; } > "$out/bandwidth.txt" 2>&1
{ "$B" "${X[@]}" --suite write --verify --validation --csv "$out/write.csv"; echo "exit $?"; } \
  > "$out/write.txt" 2>&1
