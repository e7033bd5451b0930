//! Search parameters that SPSA may tune (`scripts/spsa.py`, OpenBench's SPSA).
//!
//! Each is a [`Tunable`] declared with `tunables!` in [`super::params`]: a name, a default,
//! a range and SPSA's final step. In a normal build `get()` returns the default, a constant
//! the compiler folds into the code, so the search is exactly what it is with plain
//! constants. Built with `--features spsa`, each value lives in an atomic that the UCI option
//! of the same name sets (`setoption name RFP_MARGIN value 64`), and the options appear in
//! the `uci` list; `horizon tunables` prints them in OpenBench's SPSA input format.

#[cfg(feature = "spsa")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable search parameter.
pub struct Tunable {
    /// The UCI option's name (the constant's name).
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's `c_end`), in the parameter's own
    /// unit: about a tenth of the range a value could sensibly move.
    pub c_end: f64,
    #[cfg(feature = "spsa")]
    value: AtomicI32,
}

/// OpenBench's usual `r_end`: the learning rate at the end of a run, relative to `c_end²`.
pub const R_END: f64 = 0.002;

impl Tunable {
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32, c_end: f64) -> Tunable {
        assert!(min <= default && default <= max, "a tunable's default lies outside its range");
        Tunable {
            name,
            default,
            min,
            max,
            c_end,
            #[cfg(feature = "spsa")]
            value: AtomicI32::new(default),
        }
    }

    /// The value the search uses.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "spsa")]
        {
            self.value.load(Ordering::Relaxed)
        }
        #[cfg(not(feature = "spsa"))]
        {
            self.default
        }
    }

    /// Sets the value (`--features spsa` only), refusing one outside the range.
    #[cfg(feature = "spsa")]
    pub fn set(&self, v: i32) -> Result<(), String> {
        if v < self.min || v > self.max {
            return Err(format!("{} must be from {} to {}, got {v}", self.name, self.min, self.max));
        }
        self.value.store(v, Ordering::Relaxed);
        Ok(())
    }

    /// The UCI option declaring it.
    pub fn uci_option(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name, self.get(), self.min, self.max)
    }

    /// Its line of OpenBench's SPSA input: `NAME, int, default, min, max, c_end, r_end`.
    pub fn openbench_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name, self.default, self.min, self.max, self.c_end, R_END)
    }
}

/// Declares tunables and the list [`TUNABLES`](super::params::TUNABLES) of them all:
/// `NAME = default, min..=max, c_end;` with doc comments above each.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = $default:expr, $min:literal ..= $max:literal, $c_end:expr;)*) => {
        $(
            $(#[$doc])*
            pub static $name: Tunable = Tunable::new(stringify!($name), $default, $min, $max, $c_end);
        )*
        /// Every tunable, in declaration order.
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}
pub(crate) use tunables;
