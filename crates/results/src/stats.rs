//! Statistics shared by the runner and the readers of results.

/// The median of `values` (the mean of the middle two for an even count); NaN when there are
/// none. The one median of the runner's, the report's and the summary's figures.
pub fn median(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.into_iter().collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
