//! How freed memory goes back to the kernel: kept in the process, so that a
//! run's large buffers are reused rather than faulted in again.
//!
//! glibc's allocator, by default, serves an allocation of 128 KiB or more
//! (more, once such blocks are freed: up to 32 MiB) with a fresh `mmap`,
//! and hands the top of a heap back to the kernel once 128 KiB or more of
//! it is free. A Parquet run allocates and frees pages of that size all the
//! time (the `parquet` crate reads every column chunk into a new buffer;
//! the workers build every chunk's output pages), so the same memory went
//! back and forth: a million-row Parquet -> Parquet run took 26,000 to
//! 31,000 page faults, Parquet -> `/dev/null` 15,000 to 18,000 (a CSV run
//! about 1,300). [`keep_freed_memory`] sets both thresholds high: 11,000
//! and 1,600 (about the first touch of the run's peak memory); the run's
//! memory stays bounded by its own design (a few chunks in flight, one row
//! group), not by the allocator.

/// Allocations served by `mmap` from this size up: glibc's own largest
/// dynamic threshold on 64-bit systems.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Free memory at the top of a heap that is handed back to the kernel, at
/// least: more than a chunk's buffers (8 MiB gave the same page faults as
/// 256 MiB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 16 << 20;

/// Keeps freed memory in the process for reuse (glibc's `M_MMAP_THRESHOLD`
/// and `M_TRIM_THRESHOLD`, unless the environment sets them:
/// `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`). Call it first thing
/// in `main`, before other threads start. Elsewhere than glibc on Linux it
/// does nothing.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    for (option, value, variable) in [
        (
            libc::M_MMAP_THRESHOLD,
            MMAP_THRESHOLD,
            "MALLOC_MMAP_THRESHOLD_",
        ),
        (
            libc::M_TRIM_THRESHOLD,
            TRIM_THRESHOLD,
            "MALLOC_TRIM_THRESHOLD_",
        ),
    ] {
        if std::env::var_os(variable).is_none() {
            // SAFETY: `mallopt` only sets the allocator's thresholds (under
            // its own lock); a value it refuses leaves them as they were.
            unsafe { libc::mallopt(option, value) };
        }
    }
}
