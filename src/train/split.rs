//! The validation split, by game: whole games go to validation, so that no game has
//! positions on both sides (positions of one game share its result and much of its
//! evaluation, and a split by position lets the validation loss see the training games).
//!
//! # Finding the games
//! A data file is a plain concatenation of records with no game number, but `datagen` writes
//! each game's kept positions together and in the order they were played (one write per
//! game), and `convert` keeps that order. The next record continues the game of the one
//! before it ([`continues`]) only if it could: the same result byte, a later ply (from the
//! fullmove number and the side to move), and for each colour no more pieces and no more
//! pawns. Every file starts a game. A game never fails these tests, so one game is never
//! cut in two; two games are joined only when the second's first kept position looks like a
//! continuation of the first's last (same result, a later move, no extra material), which a
//! fresh game after a random opening almost never does, and a join only makes one larger
//! unit on one side. Data whose records are not in game order (shuffled, or without move
//! numbers) falls apart into small units: a split close to one by position.
//!
//! # Choosing the validation games
//! A game is in validation when the hash of its first record mixed with the seed
//! ([`game_key`]) falls in the lowest `share` of the 64-bit range: the same data and seed
//! give the same split whatever else changes (threads, epochs, a resumed run), each game
//! independently of the others.

use crate::data::record::{RawRecord, MAX_PIECES};
use crate::hash::{fnv1a64, mix64};
use std::collections::HashSet;
use std::ops::Range;

/// What a record says about where it stands in a game: its result byte, its ply, and each
/// colour's pieces and pawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GameState {
    result: u8,
    ply: u32,
    pieces: [u32; 2],
    pawns: [u32; 2],
}

/// The nibble value of a pawn (colour × 8 + piece, pawn 0).
const PAWN: u8 = 0;

impl GameState {
    /// Reads a record that decoded (the trainer loads only those).
    fn of(raw: &RawRecord) -> GameState {
        let occupancy = u64::from_le_bytes(raw[..8].try_into().expect("8 bytes"));
        let (mut pieces, mut pawns) = ([0u32; 2], [0u32; 2]);
        for i in 0..(occupancy.count_ones() as usize).min(MAX_PIECES) {
            let nibble = (raw[8 + i / 2] >> (4 * (i % 2))) & 0xF;
            let color = usize::from(nibble >= 8);
            pieces[color] += 1;
            pawns[color] += u32::from(nibble & 7 == PAWN);
        }
        let fullmove = u16::from_le_bytes([raw[30], raw[31]]) as u32;
        GameState { result: raw[28], ply: 2 * fullmove + u32::from(raw[24]), pieces, pawns }
    }
}

/// Whether the record `next` can continue the game of the record `prev` just before it: the
/// same result, a later ply, and no colour with more pieces or more pawns.
pub fn continues(prev: &RawRecord, next: &RawRecord) -> bool {
    let (a, b) = (GameState::of(prev), GameState::of(next));
    b.result == a.result && b.ply > a.ply && (0..2).all(|c| b.pieces[c] <= a.pieces[c] && b.pawns[c] <= a.pawns[c])
}

/// The games of `records`, which are the records of files of `per_file` records each, in
/// order: each file starts a game, and a record that cannot continue the game before it
/// ([`continues`]) starts another.
pub fn games(records: &[RawRecord], per_file: &[u64]) -> Vec<Range<usize>> {
    let mut starts: Vec<usize> = Vec::new();
    let mut file_start = 0usize;
    for &count in per_file {
        let file = file_start..(file_start + count as usize).min(records.len());
        for i in file.clone() {
            if i == file.start || !continues(&records[i - 1], &records[i]) {
                starts.push(i);
            }
        }
        file_start = file.end;
    }
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(file_start));
    starts.iter().zip(ends).map(|(&s, e)| s..e).collect()
}

/// The game's key under `seed`: a 64-bit hash of its first record mixed with the seed.
pub fn game_key(first: &RawRecord, seed: u64) -> u64 {
    mix64(fnv1a64(first) ^ mix64(seed))
}

/// Which games go to validation: those whose [`game_key`] is below `share` of the 64-bit
/// range. When `share` is above 0 but picks none of two or more games, the game with the
/// lowest key goes, so that there is a validation set.
pub fn validation_games(records: &[RawRecord], games: &[Range<usize>], seed: u64, share: f32) -> Vec<bool> {
    // `share` is at most 0.5 (the command line's range), far from the cast's saturation.
    let threshold = (share.clamp(0.0, 1.0) as f64 * 2f64.powi(64)) as u64;
    let keys: Vec<u64> = games.iter().map(|g| game_key(&records[g.start], seed)).collect();
    let mut chosen: Vec<bool> = keys.iter().map(|&k| k < threshold).collect();
    if share > 0.0 && games.len() > 1 && !chosen.contains(&true) {
        let lowest = (0..keys.len()).min_by_key(|&i| keys[i]).expect("two games or more");
        chosen[lowest] = true;
    }
    chosen
}

/// How [`split`] divided the records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// The validation records, now at the front.
    pub validation: usize,
    /// The training records, after them.
    pub training: usize,
    /// Games found, and how many of them went to validation.
    pub games: usize,
    pub validation_games: usize,
    /// Training records dropped because their position is in `exclude` (a holdout file).
    pub excluded: usize,
}

/// Divides `records` (the records of files of `per_file` records each, in file order) in
/// place: the validation games' records first (in their order), then the training records;
/// training records whose position key ([`crate::data::record::raw_dedup_key`]) is in
/// `exclude` are dropped. Deterministic: the same records, seed and share give the same
/// arrangement.
pub fn split(records: &mut Vec<RawRecord>, per_file: &[u64], seed: u64, share: f32, exclude: &HashSet<u64>) -> Split {
    use crate::data::record::raw_dedup_key;
    // 1. Every record's side, from its game's.
    let games = games(records, per_file);
    let chosen = validation_games(records, &games, seed, share);
    let mut in_validation = vec![false; records.len()];
    for (g, &v) in games.iter().zip(&chosen) {
        in_validation[g.clone()].fill(v);
    }
    // 2. Validation records to the front, keeping their order (the records they pass over
    // are training records, moved back).
    let mut validation = 0;
    for i in 0..records.len() {
        if in_validation[i] {
            records.swap(validation, i);
            in_validation.swap(validation, i);
            validation += 1;
        }
    }
    // 3. The training records after them, without the excluded positions.
    let mut kept = validation;
    for i in validation..records.len() {
        if !exclude.contains(&raw_dedup_key(&records[i])) {
            records[kept] = records[i];
            kept += 1;
        }
    }
    let excluded = records.len() - kept;
    records.truncate(kept);
    Split {
        validation,
        training: kept - validation,
        games: games.len(),
        validation_games: chosen.iter().filter(|&&v| v).count(),
        excluded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::data::record::Record;

    fn record(fen: &str, result: u8) -> RawRecord {
        Record::from_board(&Board::from_fen(fen).unwrap(), 0, result).to_bytes()
    }

    #[test]
    fn a_game_continues_only_forward_with_no_new_material() {
        let start = record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 1);
        let later = record("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2", 1);
        let capture = record("rnbqkbnr/pppp1ppp/8/4N3/4P3/8/PPPP1PPP/RNBQKB1R b - - 0 3", 1);
        assert!(continues(&start, &later) && continues(&later, &capture) && continues(&start, &capture));
        // Backwards in moves, the same ply, more material, another result: a new game.
        assert!(!continues(&later, &start) && !continues(&later, &later));
        assert!(!continues(&capture, &later));
        assert!(!continues(&later, &record("rnbqkbnr/pppp1ppp/8/4N3/4P3/8/PPPP1PPP/RNBQKB1R b - - 0 3", 2)));
        // A promotion keeps the count of pieces and lowers the pawns': it continues.
        let before = record("4k3/P7/8/8/8/8/8/4K3 w - - 0 40", 2);
        let promoted = record("Q3k3/8/8/8/8/8/8/4K3 b - - 0 40", 2);
        assert!(continues(&before, &promoted) && !continues(&promoted, &before));
    }

    #[test]
    fn files_start_games_and_the_split_keeps_games_whole() {
        let a = record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 1);
        let b = record("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2", 1);
        // Two files of one game each, the second continuing the first by the rule: a file
        // starts a game all the same.
        assert_eq!(games(&[a, b, b], &[1, 2]), [0..1, 1..2, 2..3]);
        assert_eq!(games(&[a, b, b], &[3]), [0..2, 2..3]);
        assert!(games(&[], &[0]).is_empty());
        // Twenty games of two records, told apart by their scores (bytes 26-27).
        let game = |k: u8| {
            let (mut x, mut y) = (a, b);
            x[26] = k;
            y[26] = k;
            [x, y]
        };
        let all: Vec<RawRecord> = (0..20).flat_map(game).collect();
        let mut records = all.clone();
        let s = split(&mut records, &[40], 7, 0.5, &HashSet::new());
        assert_eq!((s.games, s.validation + s.training, s.excluded), (20, 40, 0));
        assert!(s.validation_games > 0 && s.validation_games < 20, "{s:?}");
        assert_eq!(s.validation, 2 * s.validation_games);
        // Validation holds whole games, in order; training the others, whole.
        assert!(records[..s.validation].chunks(2).all(|g| g[0][26] == g[1][26] && g[0] == game(g[0][26])[0]));
        let mut training: Vec<u8> = records[s.validation..].iter().map(|r| r[26]).collect();
        training.sort();
        assert!(training.chunks(2).all(|g| g[0] == g[1]), "{training:?}");
        // The same seed, the same split; another seed, another.
        let mut again = all.clone();
        assert_eq!(split(&mut again, &[40], 7, 0.5, &HashSet::new()), s);
        assert_eq!(again, records);
        let mut other = all.clone();
        split(&mut other, &[40], 8, 0.5, &HashSet::new());
        assert_ne!(other[..s.validation], records[..s.validation]);
        // An excluded position (every game's first: the key is the placement and the side
        // to move) leaves training only.
        let mut records = all.clone();
        let key = crate::data::record::raw_dedup_key(&all[0]);
        let e = split(&mut records, &[40], 7, 0.5, &[key].into());
        assert_eq!((e.validation, e.training, e.excluded), (s.validation, s.training / 2, s.training / 2));
        assert!(records[e.validation..].iter().all(|r| crate::data::record::raw_dedup_key(r) != key));
        // A share above 0 puts one game in validation at least; 0 none.
        let mut records = all.clone();
        assert_eq!(split(&mut records, &[40], 7, 1e-9, &HashSet::new()).validation_games, 1);
        assert_eq!(split(&mut records, &[40], 7, 0.0, &HashSet::new()).validation, 0);
    }
}
