/* For the Windows check under wine only (scripts/windows-check.sh): Rust's standard library on
 * Windows draws random numbers with ProcessPrng from bcryptprimitives.dll, which Windows 10
 * and later have and wine 8.0 does not. This stand-in exports it on top of advapi32's
 * RtlGenRandom (SystemFunction036). Never shipped: a real Windows has the real one. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
