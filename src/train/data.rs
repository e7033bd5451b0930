//! Reading binary training data: whole files of 32-byte records, validated one by one.

use crate::record::{RawRecord, Record, RECORD_SIZE};
use std::io::Read;

/// Records read per `read` call (4 MiB).
const CHUNK_RECORDS: usize = 1 << 17;

/// What loading found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Records kept.
    pub records: u64,
    /// Records that did not decode (counted, skipped).
    pub invalid: u64,
    /// The first few reasons, as `FILE record N: reason`.
    pub first_errors: Vec<String>,
}

/// How many invalid records are described in [`LoadStats::first_errors`].
pub const ERRORS_SHOWN: usize = 5;

/// Checks that `path` is a readable file of whole records; returns its record count.
pub fn record_count(path: &str) -> Result<u64, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{path}' is not a file"));
    }
    let len = meta.len();
    if len % RECORD_SIZE as u64 != 0 {
        return Err(format!(
            "'{path}' is not a training data file: its size {len} is not a multiple of {RECORD_SIZE} bytes"
        ));
    }
    Ok(len / RECORD_SIZE as u64)
}

/// Calls `each` with every valid record of the binary stream `input` (named `name` in
/// messages), counting invalid ones in `stats`. A trailing partial record is an error.
pub fn for_each_record(
    name: &str,
    mut input: impl Read,
    stats: &mut LoadStats,
    mut each: impl FnMut(&RawRecord, &Record),
) -> Result<(), String> {
    let mut buf = vec![0u8; CHUNK_RECORDS * RECORD_SIZE];
    let mut index: u64 = 0;
    loop {
        // Fill the buffer as far as the stream allows.
        let mut filled = 0;
        while filled < buf.len() {
            match input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read '{name}': {e}")),
            }
        }
        if filled % RECORD_SIZE != 0 && filled < buf.len() {
            return Err(format!(
                "'{name}' ends with a partial record ({} bytes after record {})",
                filled % RECORD_SIZE,
                index + (filled / RECORD_SIZE) as u64
            ));
        }
        for chunk in buf[..filled].chunks_exact(RECORD_SIZE) {
            let raw: &RawRecord = chunk.try_into().expect("chunks of RECORD_SIZE");
            index += 1;
            match Record::from_bytes(raw) {
                Ok(r) => {
                    stats.records += 1;
                    each(raw, &r);
                }
                Err(e) => {
                    stats.invalid += 1;
                    if stats.first_errors.len() < ERRORS_SHOWN {
                        stats.first_errors.push(format!("{name} record {index}: {e}"));
                    }
                }
            }
        }
        if filled < buf.len() {
            return Ok(());
        }
    }
}

/// Loads every valid record of the binary files `paths` into memory (32 bytes a record).
/// A file whose size is not a whole number of records is refused before anything is read.
pub fn load(paths: &[String]) -> Result<(Vec<RawRecord>, LoadStats), String> {
    let mut total = 0u64;
    for p in paths {
        total += record_count(p)?;
    }
    let mut records: Vec<RawRecord> = Vec::new();
    records.try_reserve_exact(total as usize).map_err(|_| format!("not enough memory for {total} records"))?;
    let mut stats = LoadStats::default();
    for p in paths {
        let file = std::fs::File::open(p).map_err(|e| format!("cannot read '{p}': {e}"))?;
        for_each_record(p, file, &mut stats, |raw, _| records.push(*raw))?;
    }
    Ok((records, stats))
}
