//! The network's two hot loops: a ply's accumulator made from its
//! parent's (copy, add and subtract weight rows in one pass over the
//! lanes, Stockfish's way) and the output layer's SCReLU dot product.
//!
//! AVX-512BW or AVX2 (`std::arch`) where the CPU has it, chosen at run
//! time (a constant where the build targets the feature, as the project's
//! `target-cpu=native` does; a cached flag in a build for any x86-64, such
//! as a Python wheel), and plain loops everywhere else. All compute the
//! same integers exactly: the tests below compare each path the CPU has
//! with the plain loops on random and extreme rows, with and without
//! lanes past the last full register.

/// `dst = src + Σ adds − Σ subs`, lane by lane, wrapping as `i16` does.
///
/// Every row has `dst`'s length.
#[inline]
pub(super) fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    {
        // Each check is a constant where the build targets the feature, a
        // cached flag otherwise.
        if is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has AVX-512BW.
            return unsafe { avx512::update(dst, src, adds, subs) };
        }
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { avx2::update(dst, src, adds, subs) };
        }
    }
    scalar::update(dst, src, adds, subs)
}

/// `Σ clamp(x, 0, QA)² × w` over the lanes: the output layer's half for
/// one perspective, in units of `QA² × QB`.
///
/// `weights` has `values`' length and every weight is within ±127 (the
/// network file's reader refuses others), so `clamp(x) × w` fits an `i16`.
#[inline]
pub(super) fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has AVX-512BW.
            return unsafe { avx512::screlu_dot(values, weights) };
        }
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { avx2::screlu_dot(values, weights) };
        }
    }
    scalar::screlu_dot(values, weights)
}

/// The reference: plain loops (the compiler vectorises them for the
/// baseline target).
pub(super) mod scalar {
    use super::super::network::QA;

    /// Output terms summed in `i32` before widening: each is below `2^23`
    /// (`QA² × 127`), so 128 of them fit.
    const CHUNK: usize = 128;

    /// See [`super::update`].
    #[inline(always)]
    pub(in super::super) fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        dst.copy_from_slice(src);
        for row in adds {
            for (a, &w) in dst.iter_mut().zip(*row) {
                *a = a.wrapping_add(w);
            }
        }
        for row in subs {
            for (a, &w) in dst.iter_mut().zip(*row) {
                *a = a.wrapping_sub(w);
            }
        }
    }

    /// See [`super::screlu_dot`].
    #[inline(always)]
    pub(in super::super) fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
        let mut total = 0i64;
        for (xs, ws) in values.chunks(CHUNK).zip(weights.chunks(CHUNK)) {
            let mut sum = 0i32;
            for (&x, &w) in xs.iter().zip(ws) {
                let v = (x as i32).clamp(0, QA);
                sum += v * w as i32 * v;
            }
            total += sum as i64;
        }
        total
    }
}

/// One SIMD path: the same two loops for a register width and its
/// instructions (AVX2's 256 bits, AVX-512BW's 512).
macro_rules! simd_path {
    (
        $(#[$doc:meta])* mod $name:ident, feature $feature:literal, lanes $lanes:literal, $reg:ident,
        $load:ident, $store:ident, $zero:ident, $set1:ident, $add16:ident, $sub16:ident,
        $min16:ident, $max16:ident, $mullo16:ident, $add32:ident, $madd16:ident $(,)?
    ) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::super::network::QA;
            use std::arch::x86_64::*;

            /// `i16` lanes in a register.
            const LANES: usize = $lanes;
            /// Registers summed in `i32` lanes before widening: each `madd` lane
            /// adds two terms below `2^23`, so 64 rounds stay below `2^31`.
            const ROUNDS: usize = 64;

            /// See [`super::update`].
            ///
            /// # Safety
            /// The CPU has the feature.
            #[target_feature(enable = $feature)]
            pub(in super::super) unsafe fn update(
                dst: &mut [i16],
                src: &[i16],
                adds: &[&[i16]],
                subs: &[&[i16]],
            ) {
                let n = dst.len();
                // The loads below read `n` lanes of each: checked once here.
                assert!(src.len() == n && adds.iter().chain(subs).all(|r| r.len() == n));
                let full = n - n % LANES;
                let mut i = 0;
                while i < full {
                    // SAFETY: `i + LANES <= full <= n`, the length of every slice
                    // read or written (asserted above); unaligned loads and stores.
                    unsafe {
                        let mut v = $load(src.as_ptr().add(i).cast());
                        for row in adds {
                            v = $add16(v, $load(row.as_ptr().add(i).cast()));
                        }
                        for row in subs {
                            v = $sub16(v, $load(row.as_ptr().add(i).cast()));
                        }
                        $store(dst.as_mut_ptr().add(i).cast(), v);
                    }
                    i += LANES;
                }
                for j in full..n {
                    let mut x = src[j];
                    for row in adds {
                        x = x.wrapping_add(row[j]);
                    }
                    for row in subs {
                        x = x.wrapping_sub(row[j]);
                    }
                    dst[j] = x;
                }
            }

            /// See [`super::screlu_dot`]: `clamp(x) × w` in `i16` lanes
            /// (`mullo`), then `× clamp(x)` and pairs summed into `i32` (`madd`).
            ///
            /// # Safety
            /// The CPU has the feature.
            #[target_feature(enable = $feature)]
            pub(in super::super) unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
                let n = values.len();
                assert_eq!(weights.len(), n);
                let full = n - n % LANES;
                let mut total = 0i64;
                let mut i = 0;
                while i < full {
                    let end = full.min(i + ROUNDS * LANES);
                    // SAFETY: `i + LANES <= end <= n`, both slices' length
                    // (asserted above); unaligned loads.
                    let lanes: [i32; $lanes / 2] = unsafe {
                        let zero = $zero();
                        let top = $set1(QA as i16);
                        let mut sum = $zero();
                        while i < end {
                            let x = $load(values.as_ptr().add(i).cast());
                            let w = $load(weights.as_ptr().add(i).cast());
                            let v = $min16($max16(x, zero), top);
                            let vw = $mullo16(v, w);
                            sum = $add32(sum, $madd16(vw, v));
                            i += LANES;
                        }
                        std::mem::transmute::<$reg, [i32; $lanes / 2]>(sum)
                    };
                    total += lanes.iter().map(|&l| l as i64).sum::<i64>();
                }
                total + super::scalar::screlu_dot(&values[full..], &weights[full..])
            }
        }
    };
}

simd_path! {
    /// 16 lanes of `i16` a register.
    mod avx2, feature "avx2", lanes 16, __m256i,
    _mm256_loadu_si256, _mm256_storeu_si256, _mm256_setzero_si256, _mm256_set1_epi16,
    _mm256_add_epi16, _mm256_sub_epi16, _mm256_min_epi16, _mm256_max_epi16,
    _mm256_mullo_epi16, _mm256_add_epi32, _mm256_madd_epi16,
}

simd_path! {
    /// 32 lanes of `i16` a register (AVX-512BW).
    mod avx512, feature "avx512bw", lanes 32, __m512i,
    _mm512_loadu_si512, _mm512_storeu_si512, _mm512_setzero_si512, _mm512_set1_epi16,
    _mm512_add_epi16, _mm512_sub_epi16, _mm512_min_epi16, _mm512_max_epi16,
    _mm512_mullo_epi16, _mm512_add_epi32, _mm512_madd_epi16,
}

#[cfg(test)]
mod tests {
    use super::scalar;

    type Update = fn(&mut [i16], &[i16], &[&[i16]], &[&[i16]]);
    type Dot = fn(&[i16], &[i16]) -> i64;

    /// The SIMD paths this CPU has, each compared with the plain loops.
    fn paths() -> Vec<(&'static str, Update, Dot)> {
        #[allow(unused_mut)]
        let mut paths: Vec<(&'static str, Update, Dot)> = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY (each closure): only where the CPU has the feature.
            if is_x86_feature_detected!("avx2") {
                paths.push((
                    "AVX2",
                    |d, s, a, b| unsafe { super::avx2::update(d, s, a, b) },
                    |v, w| unsafe { super::avx2::screlu_dot(v, w) },
                ));
            }
            if is_x86_feature_detected!("avx512bw") {
                paths.push((
                    "AVX-512BW",
                    |d, s, a, b| unsafe { super::avx512::update(d, s, a, b) },
                    |v, w| unsafe { super::avx512::screlu_dot(v, w) },
                ));
            }
        }
        if paths.is_empty() {
            eprintln!("SKIPPED: this CPU has no SIMD path; the plain loops are the only one");
        }
        paths
    }

    /// Pseudo-random `i16`s (xorshift), with the extremes mixed in.
    fn words(n: usize, seed: u64, span: i16) -> Vec<i16> {
        let mut x = seed | 1;
        (0..n)
            .map(|k| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match k % 23 {
                    0 => span,
                    1 => -span,
                    _ => ((x % (2 * span as u64 + 1)) as i64 - span as i64) as i16,
                }
            })
            .collect()
    }

    /// Sizes with and without lanes past the last full register.
    const SIZES: [usize; 8] = [1, 15, 16, 33, 64, 200, 1024, 4200];

    #[test]
    fn the_fused_update_equals_the_plain_loops() {
        for (name, update, _) in paths() {
            for (s, &n) in SIZES.iter().enumerate() {
                for rows in 0..=6 {
                    let seed = 1 + 97 * s as u64 + rows as u64;
                    // Full-range sums so that wrapping is exercised too.
                    let src = words(n, seed, i16::MAX);
                    let table: Vec<Vec<i16>> = (0..rows)
                        .map(|r| words(n, seed * 31 + r as u64, i16::MAX))
                        .collect();
                    let refs: Vec<&[i16]> = table.iter().map(Vec::as_slice).collect();
                    let (adds, subs) = refs.split_at(rows / 2);
                    let mut fast = vec![0; n];
                    let mut plain = vec![0; n];
                    update(&mut fast, &src, adds, subs);
                    scalar::update(&mut plain, &src, adds, subs);
                    assert_eq!(fast, plain, "{name}: {n} lanes, {rows} rows");
                }
            }
        }
    }

    #[test]
    fn the_output_dot_product_equals_the_plain_loop() {
        for (name, _, dot) in paths() {
            for (s, &n) in SIZES.iter().enumerate() {
                let values = words(n, 7 + s as u64, i16::MAX);
                let weights = words(n, 1000 + s as u64, 127);
                assert_eq!(
                    dot(&values, &weights),
                    scalar::screlu_dot(&values, &weights),
                    "{name}: {n} lanes"
                );
                // Every value at the clamp's top and every weight at ±127:
                // the largest sums the integer widths must hold (4200 lanes
                // pass the 64 rounds summed in `i32`).
                let top = vec![i16::MAX; n];
                for w in [127i16, -127] {
                    let weights = vec![w; n];
                    let expected = n as i64 * 255 * 255 * w as i64;
                    assert_eq!(dot(&top, &weights), expected, "{name}: {n} lanes of {w}");
                    assert_eq!(scalar::screlu_dot(&top, &weights), expected);
                }
            }
        }
    }
}
