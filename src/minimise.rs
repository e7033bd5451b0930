//! One-dimensional minimisation: the golden-section search that fits a score-to-result
//! scale, for the evaluation tuner and for the network trainer.

/// The minimum of `f` over `[lo, hi]` by golden-section search, assuming `f` has a single
/// minimum there: each of the `steps` shrinks the bracket to 0.618 of its width, and the
/// final bracket's midpoint is returned.
pub fn golden_section(f: impl Fn(f64) -> f64, lo: f64, hi: f64, steps: usize) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..steps {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::golden_section;

    #[test]
    fn finds_the_minimum_of_a_parabola_anywhere_in_the_bracket() {
        for m in [-3.0, 0.25, 4.9] {
            let x = golden_section(|x| (x - m) * (x - m) + 1.0, -5.0, 5.0, 60);
            assert!((x - m).abs() < 1e-6, "{x} for a minimum at {m}");
        }
    }
}
