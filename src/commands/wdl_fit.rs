//! `horizon wdl-fit DATA.bin... [--holdout F]`: fits the win/draw/loss model behind
//! `UCI_ShowWDL` to the results of self-play games (the library is `crate::tune::wdl`),
//! prints how well it predicts held-out games, and the coefficients as Rust constants
//! for `src/eval/wdl.rs`.

use super::args::Args;
use super::output::say;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::eval::wdl::{centre_and_width, MATERIAL_MAX, MATERIAL_MIN};
use crate::tune::wdl::{fit_files, model_probabilities};

pub const COMMAND: Subcommand = Subcommand {
    name: "wdl-fit",
    help: "  wdl-fit DATA.bin...              fit the UCI_ShowWDL model to self-play results [--holdout F]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon wdl-fit DATA.bin... [--holdout F]";
/// The share of each file held out when `--holdout` is not given.
const DEFAULT_HOLDOUT: f64 = 0.1;

fn run(argv: &[String]) -> Outcome {
    let args = Args::parse(argv, &["--holdout"], &[])?;
    let paths: Vec<String> = args.positional(1, usize::MAX, USAGE)?.iter().map(|s| s.to_string()).collect();
    let holdout = args.real("--holdout", 0.01..=0.5)?.unwrap_or(DEFAULT_HOLDOUT);
    let fit = fit_files(&paths, holdout).map_err(Failure::input)?;
    let [w, d, l] = fit.frequencies;
    say!(
        "positions: {} fitted, {} held out (the last {:.0}% of each file); white won {:.1}%, drew {:.1}%, lost {:.1}%",
        fit.train_positions,
        fit.holdout_positions,
        holdout * 100.0,
        w * 100.0,
        d * 100.0,
        l * 100.0
    );
    say!("fitted:   log loss {:.5}, Brier {:.5}", fit.train.log_loss, fit.train.brier);
    say!("held out: log loss {:.5}, Brier {:.5} (model)", fit.holdout.log_loss, fit.holdout.brier);
    say!(
        "held out: log loss {:.5}, Brier {:.5} (constant: the fitted set's frequencies)",
        fit.holdout_constant.log_loss,
        fit.holdout_constant.brier
    );
    say!("material  a(cp)  b(cp)  win/draw/loss at +100 cp");
    for m in [MATERIAL_MIN, 30, 40, 50, 60, 70, MATERIAL_MAX] {
        let (a, b) = centre_and_width(&fit.a, &fit.b, m);
        let p = model_probabilities(&fit.a, &fit.b, m, 100.0);
        say!("{m:8} {a:6.1} {b:6.1}  {:.3} / {:.3} / {:.3}", p[0], p[1], p[2]);
    }
    say!("pub const WDL_A: [f64; 3] = [{:.3}, {:.3}, {:.3}];", fit.a[0], fit.a[1], fit.a[2]);
    say!("pub const WDL_B: [f64; 3] = [{:.3}, {:.3}, {:.3}];", fit.b[0], fit.b[1], fit.b[2]);
    Ok(Exit::Ok)
}
