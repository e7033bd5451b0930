//! Syzygy endgame tablebases: finding the files, loading each table on first use, and
//! probing WDL (win/draw/loss under the fifty-move rule) and DTZ (plies to the next
//! capture or pawn move) for positions of Horizon's own [`Board`].
//!
//! - `encoding`: the fixed tables of the position index;
//! - `bytes`: a file's bytes (memory-mapped) and bounds-checked reads;
//! - `pairs`: one compressed value array and its decoder;
//! - `table`: a file's header and the index of a position;
//! - [`error`]: why a file is refused ([`error::TableError`], one line each);
//! - `material`: table names and material signatures;
//! - `probe`: WDL with captures resolved, DTZ, and the ranking of root moves.
//!
//! Bad files are input like any other: a directory that does not exist, a WDL table
//! without its DTZ table, an empty, truncated or garbled file or one with a wrong magic
//! number is reported once as a one-line message and the table is left out. Problems
//! found when a table is first loaded (during a search) are queued; the caller drains
//! them with [`Tablebases::take_errors`]. Every read from a file is bounds-checked, so a
//! damaged table yields "unknown", never a panic.
//!
//! A [`Tablebases`] is shared between search threads by `Arc`: tables load once (the
//! first thread to need one loads it, others wait for it) and are read-only afterwards.

mod bytes;
mod encoding;
pub mod error;
mod material;
mod pairs;
mod probe;
mod table;

pub use material::{Material, MAX_PIECES};
pub use probe::{RootMove, RootRanking, Wdl};
pub use table::Kind;

use crate::board::Board;
use bytes::TableBytes;
use error::TableError;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use table::Table;

/// What separates directories in `SyzygyPath`.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };
/// The value of an unset `SyzygyPath`.
pub const EMPTY_PATH: &str = "<empty>";

/// One table file, loaded on first use.
struct Slot {
    path: PathBuf,
    table: OnceLock<Option<Table>>,
}

/// The WDL and DTZ files of one material balance.
struct Entry {
    material: Material,
    wdl: Option<Slot>,
    dtz: Option<Slot>,
}

/// The tables found on a path.
pub struct Tablebases {
    entries: Vec<Entry>,
    /// Material key (as counted on a board, either colour first) -> entry.
    by_key: HashMap<u64, usize>,
    max_pieces: usize,
    /// Problems found while loading tables, not yet reported.
    errors: Mutex<Vec<String>>,
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases { entries: Vec::new(), by_key: HashMap::new(), max_pieces: 0, errors: Mutex::new(Vec::new()) }
    }
}

/// Reads the first bytes of a file: `Err` with the reason it cannot be a table of `kind`.
fn check_magic(path: &Path, kind: Kind) -> Result<(), TableError> {
    let mut head = [0u8; 5];
    let mut file = std::fs::File::open(path).map_err(TableError::Open)?;
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(TableError::Read(e)),
        }
    }
    if got == 0 {
        return Err(TableError::Empty);
    }
    if got < 4 || head[..4] != kind.magic() {
        return Err(TableError::WrongMagic { extension: kind.extension() });
    }
    if got < 5 {
        return Err(TableError::Short(got));
    }
    Ok(())
}

impl Tablebases {
    /// Finds the tables in the directories of `path` (separated by [`PATH_SEPARATOR`];
    /// empty or `<empty>`: none). Returns them with one message per problem found.
    /// The files are only checked for their magic number here; each is loaded when a
    /// probe first needs it.
    pub fn open(path: &str) -> (Tablebases, Vec<String>) {
        let mut tb = Tablebases::default();
        let mut errors = Vec::new();
        let path = path.trim();
        if path.is_empty() || path == EMPTY_PATH {
            return (tb, errors);
        }
        // 1. Collect candidate files: `<material>.rtbw` / `.rtbz`, the first of each
        //    name on the path wins.
        let mut found: HashMap<(u64, bool), (Material, PathBuf)> = HashMap::new();
        for dir in path.split(PATH_SEPARATOR).map(str::trim).filter(|d| !d.is_empty()) {
            let listing = match std::fs::read_dir(dir) {
                Ok(l) => l,
                Err(e) => {
                    errors.push(format!("syzygy: cannot read directory '{dir}': {e}"));
                    continue;
                }
            };
            let mut names: Vec<PathBuf> = listing.filter_map(|e| e.ok().map(|e| e.path())).collect();
            names.sort();
            for p in names {
                let (Some(stem), Some(ext)) =
                    (p.file_stem().and_then(|s| s.to_str()), p.extension().and_then(|s| s.to_str()))
                else {
                    continue;
                };
                let is_wdl = match ext {
                    "rtbw" => true,
                    "rtbz" => false,
                    _ => continue,
                };
                let Some(m) = Material::parse(stem) else { continue };
                found.entry((m.key(), is_wdl)).or_insert((m, p));
            }
        }
        // 2. Check each file's magic number; pair WDL with DTZ.
        let mut keys: Vec<u64> = found.keys().map(|&(k, _)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        for key in keys {
            let mut slot = |is_wdl: bool| -> Option<(Material, Slot)> {
                let (m, p) = found.get(&(key, is_wdl))?;
                let kind = if is_wdl { Kind::Wdl } else { Kind::Dtz };
                match check_magic(p, kind) {
                    Ok(()) => Some((*m, Slot { path: p.clone(), table: OnceLock::new() })),
                    Err(e) => {
                        errors.push(format!("syzygy: {}: {e}", p.display()));
                        None
                    }
                }
            };
            let wdl = slot(true);
            let dtz = slot(false);
            let material = match (&wdl, &dtz) {
                (Some((m, _)), _) | (None, Some((m, _))) => *m,
                (None, None) => continue,
            };
            let name = material.name();
            match (&wdl, &dtz) {
                (Some(_), None) if !found.contains_key(&(key, false)) => {
                    errors.push(format!("syzygy: {name}.rtbw has no {name}.rtbz beside it: WDL only for this table"))
                }
                (None, Some(_)) if !found.contains_key(&(key, true)) => {
                    errors.push(format!("syzygy: {name}.rtbz has no {name}.rtbw beside it: table not used"))
                }
                _ => {}
            }
            let Some((_, wdl)) = wdl else { continue };
            tb.max_pieces = tb.max_pieces.max(material.total());
            let index = tb.entries.len();
            tb.by_key.insert(material.key(), index);
            tb.by_key.insert(material.flipped().key(), index);
            tb.entries.push(Entry { material, wdl: Some(wdl), dtz: dtz.map(|(_, s)| s) });
        }
        (tb, errors)
    }

    /// Tables usable for WDL (each with or without its DTZ file).
    pub fn count(&self) -> usize {
        self.entries.len()
    }

    /// Tables that also have a DTZ file.
    pub fn dtz_count(&self) -> usize {
        self.entries.iter().filter(|e| e.dtz.is_some()).count()
    }

    /// Pieces (kings included) of the largest table found; 0 without tables.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// One line for the user: how many tables were found and the largest.
    pub fn summary(&self) -> String {
        format!(
            "syzygy: {} tables found ({} with DTZ), largest {} pieces",
            self.count(),
            self.dtz_count(),
            self.max_pieces
        )
    }

    /// Problems found while loading tables since the last call (each reported once).
    pub fn take_errors(&self) -> Vec<String> {
        match self.errors.lock() {
            Ok(mut e) => std::mem::take(&mut *e),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }

    /// Is `board` within the tables: few enough pieces and no castling rights?
    pub fn covers(&self, board: &Board) -> bool {
        board.castle_rights() == 0 && (board.occupied().count() as usize) <= self.max_pieces
    }

    /// The loaded table of `kind` for `material` (as on the board), and whether its
    /// colours are swapped relative to the file; loads it on first use.
    fn table(&self, material: &Material, kind: Kind) -> Option<(&Table, bool)> {
        let entry = &self.entries[*self.by_key.get(&material.key())?];
        let slot = match kind {
            Kind::Wdl => entry.wdl.as_ref()?,
            Kind::Dtz => entry.dtz.as_ref()?,
        };
        let table = slot.table.get_or_init(|| {
            let loaded = TableBytes::open(&slot.path)
                .map_err(TableError::Read)
                .and_then(|b| Table::parse(b, kind, entry.material));
            match loaded {
                Ok(t) => Some(t),
                Err(e) => {
                    let msg = format!("syzygy: {}: {e}; table not used", slot.path.display());
                    match self.errors.lock() {
                        Ok(mut v) => v.push(msg),
                        Err(p) => p.into_inner().push(msg),
                    }
                    None
                }
            }
        });
        Some((table.as_ref()?, entry.material != *material))
    }

    /// Loads every table now (instead of on first use); returns how many loaded. Any
    /// problem is queued for [`Tablebases::take_errors`].
    pub fn load_all(&self) -> usize {
        let mut ok = 0;
        for e in &self.entries {
            ok += self.table(&e.material, Kind::Wdl).is_some() as usize;
            ok += self.table(&e.material, Kind::Dtz).is_some() as usize;
        }
        ok
    }

    /// Are the loaded tables memory-mapped (for the documentation of a run)?
    pub fn mapped(&self) -> bool {
        self.entries.iter().filter_map(|e| e.wdl.as_ref()?.table.get()?.as_ref()).any(|t| t.is_mapped())
    }

    /// Builds a set holding one table from bytes in memory (tests of damaged files).
    pub fn from_bytes(material: Material, wdl: Vec<u8>, dtz: Option<Vec<u8>>) -> (Tablebases, Vec<String>) {
        let mut tb = Tablebases::default();
        let mut errors = Vec::new();
        let mut load = |bytes: Vec<u8>, kind: Kind| {
            let slot = Slot {
                path: PathBuf::from(format!("{}.{}", material.name(), kind.extension())),
                table: OnceLock::new(),
            };
            let t = Table::parse(TableBytes::from_vec(bytes), kind, material);
            match t {
                Ok(t) => {
                    let _ = slot.table.set(Some(t));
                }
                Err(e) => {
                    errors.push(format!("syzygy: {}: {e}; table not used", slot.path.display()));
                    let _ = slot.table.set(None);
                }
            }
            slot
        };
        let wdl = load(wdl, Kind::Wdl);
        let dtz = dtz.map(|d| load(d, Kind::Dtz));
        tb.max_pieces = material.total();
        tb.by_key.insert(material.key(), 0);
        tb.by_key.insert(material.flipped().key(), 0);
        tb.entries.push(Entry { material, wdl: Some(wdl), dtz });
        (tb, errors)
    }
}
