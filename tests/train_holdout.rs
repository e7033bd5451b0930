//! The trainer's validation split by game, holdout files (never trained on, their loss
//! reported after every epoch and by `horizon net-loss`), and bad holdout files refused with
//! one line.

use horizon::data::datagen::Player;
use horizon::data::record::{raw_dedup_key, RawRecord, RECORD_SIZE};
use horizon::train::holdout::{self, net_loss, NetLossConfig};
use horizon::train::network::LossSpec;
use horizon::train::split;
use horizon::train::{self, Config, Output};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

/// A fresh path in the temp directory, unique to this test process and `name`.
fn temp_path(name: &str) -> String {
    let p: PathBuf = std::env::temp_dir().join(format!("horizon-holdout-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p.to_str().unwrap().to_string()
}

/// The records of `count` short self-play games (seed `seed`), one vector per game.
fn games(count: u64, seed: u64) -> Vec<Vec<RawRecord>> {
    let mut p = Player::new(1, 150).unwrap();
    (0..count)
        .map(|i| {
            let bytes = p.play(seed, i, &[], 8).records();
            bytes.chunks_exact(RECORD_SIZE).map(|c| c.try_into().unwrap()).collect()
        })
        .collect::<Vec<Vec<RawRecord>>>()
        .into_iter()
        .filter(|g| !g.is_empty())
        .collect()
}

fn write(path: &str, games: &[Vec<RawRecord>]) {
    std::fs::write(path, games.concat().concat()).unwrap();
}

fn horizon(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().unwrap()
}

#[test]
fn the_validation_split_keeps_every_game_whole_and_follows_the_seed() {
    let (first, second) = (games(24, 3), games(16, 4));
    let all: Vec<Vec<RawRecord>> = first.iter().chain(&second).cloned().collect();
    let records: Vec<RawRecord> = all.concat();
    let per_file = [first.concat().len() as u64, second.concat().len() as u64];
    // Which game each record came from.
    let owner: Vec<usize> = all.iter().enumerate().flat_map(|(g, recs)| std::iter::repeat_n(g, recs.len())).collect();

    // The games found are the games played: never one cut in two (and here none joined).
    let found = split::games(&records, &per_file);
    for g in &found {
        assert!(owner[g.clone()].iter().all(|&o| o == owner[g.start]), "a found game spans two games: {g:?}");
    }
    assert_eq!(found.len(), all.len());

    // For several seeds and shares, each game lies wholly on one side, and the split is
    // the same every time for a seed.
    let mut validation_sets = HashSet::new();
    for (seed, share) in [(1, 0.2), (2, 0.2), (3, 0.5), (1, 0.02)] {
        let chosen = split::validation_games(&records, &found, seed, share);
        let mut side = vec![false; records.len()];
        for (g, &v) in found.iter().zip(&chosen) {
            side[g.clone()].fill(v);
        }
        for (g, recs) in all.iter().enumerate() {
            let sides: HashSet<bool> = (0..records.len()).filter(|&i| owner[i] == g).map(|i| side[i]).collect();
            assert_eq!(sides.len(), 1, "seed {seed}: game {g} ({} positions) on both sides", recs.len());
        }
        let mut arranged = records.clone();
        let s = split::split(&mut arranged, &per_file, seed, share, &HashSet::new());
        assert!(s.validation_games >= 1 && s.validation_games < all.len(), "{s:?}");
        let expected: Vec<RawRecord> =
            found.iter().zip(&chosen).filter(|(_, &v)| v).flat_map(|(g, _)| records[g.clone()].to_vec()).collect();
        assert_eq!(arranged[..s.validation], expected[..], "seed {seed}");
        let mut again = records.clone();
        assert_eq!(split::split(&mut again, &per_file, seed, share, &HashSet::new()), s);
        assert!(again == arranged, "seed {seed}: another arrangement the second time");
        if share == 0.2 {
            validation_sets.insert(expected);
        }
    }
    assert_eq!(validation_sets.len(), 2, "seeds 1 and 2 chose the same games");

    // A training run reports the games and splits the same way for the same seed, also
    // when resumed.
    let (a, b) = (temp_path("split-a.bin"), temp_path("split-b.bin"));
    write(&a, &first);
    write(&b, &second);
    let net = temp_path("split.nnue");
    let mut cfg = Config::new(vec![a.clone(), b.clone()], net.clone());
    (cfg.hidden, cfg.epochs, cfg.threads, cfg.val, cfg.seed) = (Some(16), 1, 1, Some(0.2), Some(1));
    let loaded = |cfg: &Config| {
        let mut lines = Vec::new();
        train::run(cfg, &mut Output { line: &mut |s| lines.push(s.to_string()), progress: &mut |_| {} }).unwrap();
        lines.into_iter().find(|l| l.starts_with("loaded ")).unwrap()
    };
    let chosen = split::validation_games(&records, &found, 1, 0.2).iter().filter(|&&v| v).count();
    let line = loaded(&cfg);
    assert!(line.ends_with(&format!("validation ({chosen} of {} games)", all.len())), "{line}");
    cfg.epochs = 2;
    cfg.resume = Some(cfg.checkpoint.clone());
    cfg.seed = None;
    assert_eq!(loaded(&cfg).split(": ").nth(1), line.split(": ").nth(1));
    for p in [a, b, net.clone(), format!("{net}.ckpt")] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn holdout_positions_are_never_trained_on_and_their_loss_is_reported() {
    let data_games = games(30, 5);
    // The holdout: five of the data's own games (so the run must drop their positions from
    // training) and five games of its own.
    let extra = games(5, 6);
    let held: Vec<Vec<RawRecord>> = data_games[..5].iter().chain(&extra).cloned().collect();
    let (data, hold, net) = (temp_path("data.bin"), temp_path("hold.bin"), temp_path("hold.nnue"));
    write(&data, &data_games);
    write(&hold, &held);

    // The library: no training record is a holdout position.
    let mut records = data_games.concat();
    let keys = holdout::keys(&held.concat());
    let per_file = [records.len() as u64];
    let s = split::split(&mut records, &per_file, 1, 0.1, &keys);
    assert!(s.excluded > 0, "{s:?}");
    assert!(records[s.validation..].iter().all(|r| !keys.contains(&raw_dedup_key(r))));

    // A run: the exclusion reported, the holdout loss after every epoch, and the loss of
    // the written network exactly what net-loss measures, with the same lambda and scale.
    let mut cfg = Config::new(vec![data.clone()], net.clone());
    (cfg.hidden, cfg.epochs, cfg.threads, cfg.val, cfg.batch, cfg.lambda) = (Some(16), 3, 2, Some(0.1), 256, 0.3);
    cfg.wdl_scale = train::WdlScale::Fixed(250.0);
    cfg.holdout = vec![hold.clone()];
    let mut lines = Vec::new();
    let reports =
        train::run(&cfg, &mut Output { line: &mut |s| lines.push(s.to_string()), progress: &mut |_| {} }).unwrap();
    let want = format!(
        "holdout: {} positions from 1 file(s), never trained on ({} training positions excluded)",
        held.concat().len(),
        s.excluded
    );
    assert!(lines.contains(&want), "{lines:?}");
    assert!(reports.iter().all(|r| r.holdout_loss.is_some_and(|h| h > 0.0 && h < 0.25)), "{reports:?}");
    let epochs: Vec<&String> = lines.iter().filter(|l| l.starts_with("epoch ")).collect();
    assert_eq!(epochs.len(), 3);
    assert!(epochs
        .iter()
        .zip(&reports)
        .all(|(l, r)| l.contains(&format!("  holdout {:.6}  ", r.holdout_loss.unwrap()))));
    let spec = LossSpec { lambda: 0.3, wdl_scale: 250.0 };
    let measured = net_loss(&NetLossConfig { net: net.clone(), data: vec![hold.clone()], spec, threads: 2 }).unwrap();
    assert_eq!(measured.positions, held.concat().len());
    assert_eq!(Some(measured.loss), reports[2].holdout_loss, "net-loss differs from the run's holdout loss");
    let other = LossSpec { lambda: 0.0, wdl_scale: 400.0 };
    let default = net_loss(&NetLossConfig { net: net.clone(), data: vec![hold.clone()], spec: other, threads: 1 });
    assert!(default.unwrap().loss != measured.loss, "lambda and scale are part of the loss");

    // The same through the command line: the summary line and net-loss agree.
    let o = horizon(&[
        "train",
        &data,
        "--out",
        &net,
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--threads",
        "1",
        "--holdout",
        &hold,
        "--holdout",
        &hold,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let last = out.lines().last().unwrap();
    let loss = last.split("holdout loss ").nth(1).unwrap_or_else(|| panic!("{last}"));
    assert!(last.contains(": validation loss "), "{last}");
    let o = horizon(&["net-loss", &net, &hold, &hold, "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = String::from_utf8_lossy(&o.stdout);
    assert!(
        line.starts_with(&format!("loss {loss} of '{net}' on {} positions from 2 file(s)", 2 * held.concat().len())),
        "{line}"
    );
    for p in [data, hold, net.clone(), format!("{net}.ckpt")] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_holdout_files_and_networks_are_one_line_errors() {
    let (data, net) = (temp_path("bad-data.bin"), temp_path("bad.nnue"));
    write(&data, &games(4, 7));
    let o = horizon(&["train", &data, "--out", &net, "--hidden", "16", "--epochs", "1", "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (odd, empty, garbled, text) =
        (temp_path("odd.bin"), temp_path("empty.bin"), temp_path("garbled.bin"), temp_path("garbled.nnue"));
    std::fs::write(&odd, [0u8; 33]).unwrap();
    std::fs::write(&empty, []).unwrap();
    // Two records: the first sound, the second with result byte 9.
    let mut bytes = std::fs::read(&data).unwrap()[..64].to_vec();
    bytes[32 + 28] = 9;
    std::fs::write(&garbled, &bytes).unwrap();
    std::fs::write(&text, "not a network\n").unwrap();
    let missing = "/nonexistent/holdout.bin";
    let cases = [
        (missing, format!("holdout: cannot read '{missing}': ")),
        (&odd, format!("holdout: '{odd}' is not a training data file: its size 33 is not a multiple of 32 bytes")),
        (&empty, format!("holdout: '{empty}' holds no records")),
        (
            &garbled,
            format!("holdout: {garbled} record 2: result 9 (0, 1 or 2); a holdout file must be valid throughout"),
        ),
    ];
    for (file, want) in &cases {
        let train = ["train", &data, "--out", &temp_path("never.nnue"), "--hidden", "16", "--holdout", file];
        for args in [&train[..], &["net-loss", &net, file][..]] {
            let o = horizon(args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with(&format!("error: {want}")), "{args:?}: {err}");
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    // A network that is not one, or is missing; net-loss without data.
    for (args, want) in [
        (
            vec!["net-loss", &text, &data],
            format!("error: network file: truncated header (14 bytes, a header is 40) ('{text}')"),
        ),
        (vec!["net-loss", missing, &data], format!("error: network file: cannot read {missing}: ")),
        (vec!["net-loss", &net], "error: usage: horizon net-loss NET.nnue DATA.bin...".to_string()),
        (
            vec!["net-loss", &net, &data, "--wdl-scale", "fit"],
            "error: --wdl-scale must be a number from 1 to 10000, got 'fit'".to_string(),
        ),
    ] {
        let o = horizon(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!((o.status.code(), err.lines().count()), (Some(2), 1), "{args:?}: {err}");
        assert!(err.starts_with(&want), "{args:?}: {err}");
    }
    for p in [data, net.clone(), format!("{net}.ckpt"), odd, empty, garbled, text] {
        let _ = std::fs::remove_file(p);
    }
}
