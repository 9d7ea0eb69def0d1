//! The instruction set of the pipeline's byte work (cutting records,
//! reading cells, writing rows), chosen at run time: the release build
//! targets plain x86-64 (SSE2), and on a CPU with AVX2 the same code,
//! compiled again with AVX2 enabled, runs instead: wider or three-operand
//! vector steps for the grids' 81 cells, zeroing and copies of known size
//! inlined rather than library calls. The bytes made are the same either
//! way (the same source); only the machine code differs.

/// Whether this CPU has AVX2 (detected once per process by the standard
/// library, a load and a test after that).
#[inline]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `work`, compiled with AVX2 enabled where this CPU has it (as the
/// standard library detects it, once per process), as it is otherwise. Only what is inlined into the AVX2
/// copy is compiled at that width: mark the closure `#[inline(always)]`
/// (the compiler leaves a large one out of line, at the base width), and
/// the functions it calls too.
#[inline(always)]
pub fn widest<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: `with_avx2` only needs the CPU to have AVX2, checked
        // just above.
        return unsafe { with_avx2(work) };
    }
    work()
}

/// `work()` in a function compiled with AVX2 enabled, into which it is
/// inlined.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn with_avx2<R>(work: impl FnOnce() -> R) -> R {
    work()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_runs_once_and_its_value_comes_back() {
        let digits = || (0u8..81).map(|b| u32::from(b.wrapping_mul(7) % 10));
        let mut runs = 0;
        let value = widest(|| {
            runs += 1;
            digits().sum::<u32>()
        });
        assert_eq!((runs, value), (1, digits().sum()));
    }
}
