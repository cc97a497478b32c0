//! `base` to a real power, in plain arithmetic.
//!
//! The rewards of the evaluation are powers with fractional exponents.
//! `f64::powf` comes from the system's maths library, whose last bit
//! differs from one C library to another, so the player's values (and, at a
//! tie, its move) could differ between machines; and the library is the
//! only reason the program loads `libm` at all, which costs a third of a
//! megabyte of memory and a sixth of the start-up time of `clines -v`. The
//! series below use only `+ - * /` and integer conversions, which are the
//! same everywhere, and are exact to a few units in the last place.

use std::f64::consts::{LN_2, SQRT_2};

/// `base` raised to `exponent`, for a finite `base > 0` and a finite
/// `exponent` whose result is a normal number.
pub(super) fn power(base: f64, exponent: f64) -> f64 {
    debug_assert!(base > 0.0 && base.is_finite() && exponent.is_finite());
    exp(exponent * ln(base))
}

/// The natural logarithm of a positive normal number.
pub(super) fn ln(x: f64) -> f64 {
    // x = m · 2^k with m in [√½, √2), so that the series below converges
    // fast: |s| ≤ 0.172, and each term is 34 times smaller than the last.
    let bits = x.to_bits();
    let mut k = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    if m >= SQRT_2 {
        m /= 2.0;
        k += 1;
    }
    // ln m = 2 atanh s = 2 (s + s³/3 + s⁵/5 + …), s = (m − 1)/(m + 1).
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    for odd in (1..=23).step_by(2) {
        sum += term / odd as f64;
        term *= s2;
    }
    k as f64 * LN_2 + 2.0 * sum
}

/// `e` to the power `y`, for a result in the normal range.
fn exp(y: f64) -> f64 {
    // y = k ln 2 + r with |r| ≤ ½ ln 2; rounding by conversion, because
    // `f64::round` may itself be a call into the maths library.
    let half = if y < 0.0 { -0.5 } else { 0.5 };
    let k = (y / LN_2 + half) as i64;
    let r = y - k as f64 * LN_2;
    // e^r by its Taylor series: 1/20! is below the last place of e^r.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=20 {
        term *= r / n as f64;
        sum += term;
    }
    sum * f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::power;

    /// Relative distance, in units of `f64::EPSILON`.
    fn epsilons_apart(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs() / f64::EPSILON
    }

    #[test]
    fn powers_agree_with_the_system_library_to_a_few_last_places() {
        for base_tenths in 1..=200 {
            let base = f64::from(base_tenths) / 10.0 + 0.013;
            for exponent_hundredths in -800..=800 {
                let exponent = f64::from(exponent_hundredths) / 100.0;
                // The logarithm's last place is scaled by the exponent:
                // the error may grow with |exponent · ln base|.
                let allowed = 4.0 * (1.0 + (exponent * base.ln()).abs());
                let apart = epsilons_apart(power(base, exponent), base.powf(exponent));
                assert!(
                    apart <= allowed,
                    "{base}^{exponent}: {apart} epsilons apart, {allowed} allowed"
                );
            }
        }
    }

    #[test]
    fn exact_powers_come_out_exact_or_next_to_it() {
        for (base, exponent, expected) in [
            (4.0, 0.0, 1.0),
            (4.0, 0.5, 2.0),
            (4.0, 5.0, 1024.0),
            (2.0, 10.0, 1024.0),
            (10.0, -2.0, 0.01),
            (9.0, 1.5, 27.0),
        ] {
            let got = power(base, exponent);
            assert!(
                epsilons_apart(got, expected) <= 4.0,
                "{base}^{exponent} = {got}, not {expected}"
            );
        }
    }
}
