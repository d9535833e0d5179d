// The subgroup clock (GL_ARB_shader_clock) and, where REALTIME is 1, the device's real-time
// clock beside it (GL_EXT_shader_realtime_clock), both enabled by the kernel that includes
// this: shared by the clock probe (clock.comp) and the kernels that read the clock their own
// work runs at (matrix/kernel_clock.glsl).

// Ticks from t0 to t1 of a 64-bit counter read as two words.
uvec2 ticks_between(uvec2 t0, uvec2 t1) {
    uint lo = t1.x - t0.x;
    uint hi = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
    return uvec2(lo, hi);
}

#if REALTIME
// The real-time clock's value right after it next steps (spins until it changes; a clock
// that never steps ends the spin after 2^16 reads, a few ms at most, rather than hang the
// GPU: the interval then reads no real time, and the runner falls back to the probe's clock).
uvec2 real_time_step() {
    uvec2 start = clockRealtime2x32EXT();
    uvec2 now = start;
    for (uint n = 0u; n < 65536u && all(equal(now, start)); ++n) {
        now = clockRealtime2x32EXT();
    }
    return now;
}
#endif
