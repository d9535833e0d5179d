# Another process using the GPU for the neighbour test (results/h100/whole-run): bf16 matrix
# products through PyTorch for argv[1] seconds.
import sys, time, torch
end = time.time() + float(sys.argv[1])
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn_like(a)
n = 0
while time.time() < end:
    for _ in range(4):
        c = a @ b
    torch.cuda.synchronize()
    n += 4
print(f"neighbour: {n} products of 8192^3 in {sys.argv[1]} s", file=sys.stderr)
