//! Statistics that the self-play tools report, shared by their example
//! binaries (`examples/selfplay.rs`, `examples/tune.rs`).

/// The mean of `values` and its standard error (0 for a single value).
pub fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}
