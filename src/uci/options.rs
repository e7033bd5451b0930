//! The UCI options, declared once with their types and limits.

use crate::error::OptionError;
use crate::eval::nnue::network::INTERNAL_NAME;
use crate::search::strength::{ELO_MAX, ELO_MIN, SKILL_MAX};
use crate::search::{Options as SearchOptions, Strength};

/// Hash table size.
pub const HASH_DEFAULT: usize = 16;
pub const HASH_MAX: usize = 65536;
pub const THREADS_MAX: usize = crate::search::threads::MAX_THREADS;
pub const MULTIPV_MAX: usize = 256;
pub const OVERHEAD_DEFAULT: u64 = 20;
pub const OVERHEAD_MAX: u64 = 5000;
/// `SyzygyProbeDepth`: probe inside the search from this remaining depth on.
pub const SYZYGY_DEPTH_MAX: u64 = 100;

#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    pub chess960: bool,
    /// Options handed to the search as they are (`QSearchSEE`: prune SEE-losing captures
    /// in quiescence). Stored only here; the searcher gets a copy at each `go`.
    pub search: SearchOptions,
    /// `UseNNUE`: evaluate with the network instead of the classical evaluation.
    pub use_nnue: bool,
    /// `EvalFile`: the network file in use (`<internal>`: the embedded network). Set only
    /// once the file has loaded.
    pub eval_file: String,
    /// `SyzygyPath`: directories of Syzygy tables (`<empty>`: none).
    pub syzygy_path: String,
    /// `UCI_ShowWDL`: every `info … score` line carries `wdl W D L` (per mille).
    pub show_wdl: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`: play at that Elo.
    pub limit_strength: bool,
    pub elo: u32,
    /// `Skill Level` 0–20 (20: full strength); `UCI_LimitStrength` takes precedence.
    pub skill: u32,
}

impl EngineOptions {
    /// The strength limit the options ask for, if any (`seed` for its random choice).
    pub fn strength(&self, seed: u64) -> Option<Strength> {
        if self.limit_strength {
            Some(Strength::from_elo(self.elo, seed))
        } else {
            Strength::from_skill(self.skill, seed)
        }
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH_DEFAULT,
            threads: 1,
            multipv: 1,
            move_overhead: OVERHEAD_DEFAULT,
            ponder: false,
            chess960: false,
            search: SearchOptions::default(),
            use_nnue: crate::eval::USE_NNUE_BY_DEFAULT,
            eval_file: INTERNAL_NAME.to_string(),
            syzygy_path: crate::syzygy::EMPTY_PATH.to_string(),
            show_wdl: false,
            limit_strength: false,
            elo: ELO_MIN,
            skill: SKILL_MAX,
        }
    }
}

/// The `option …` lines printed in answer to `uci`.
pub fn declarations() -> Vec<String> {
    #[allow(unused_mut)] // only a `--features spsa` build adds to the list
    let mut list = vec![
        format!("option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}"),
        format!("option name Threads type spin default 1 min 1 max {THREADS_MAX}"),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        format!("option name Move Overhead type spin default {OVERHEAD_DEFAULT} min 0 max {OVERHEAD_MAX}"),
        "option name Clear Hash type button".to_string(),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}"),
        format!("option name Skill Level type spin default {SKILL_MAX} min 0 max {SKILL_MAX}"),
        // For experiments: off = quiescence orders captures by MVV/LVA but prunes none by SEE.
        "option name QSearchSEE type check default true".to_string(),
        // The network evaluation (off: the classical evaluation), and the network file.
        format!("option name UseNNUE type check default {}", crate::eval::USE_NNUE_BY_DEFAULT),
        format!("option name EvalFile type string default {INTERNAL_NAME}"),
        format!("option name SyzygyPath type string default {}", crate::syzygy::EMPTY_PATH),
        format!("option name SyzygyProbeDepth type spin default 1 min 1 max {SYZYGY_DEPTH_MAX}"),
        "option name Syzygy50MoveRule type check default true".to_string(),
        format!("option name SyzygyProbeLimit type spin default {0} min 0 max {0}", crate::syzygy::MAX_PIECES),
    ];
    // A tuning build also offers every search margin SPSA may tune.
    #[cfg(feature = "spsa")]
    list.extend(crate::search::params::TUNABLES.iter().map(|t| t.uci_option()));
    list
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    Hash,
    Threads,
    ClearHash,
    /// `UseNNUE` changed: the evaluation the next search uses.
    Evaluation,
    /// `EvalFile` given: the engine loads the file (this value), and sets `eval_file` only
    /// if it loads.
    EvalFile(String),
    /// `SyzygyPath`: find the tables again.
    Syzygy,
    Other,
}

/// An integer as a GUI writes it. Digits beyond `i64`'s range read as its largest (or, with a
/// minus sign, smallest) value, so `movetime 99999999999999999999` means "as long as it
/// takes", not "no number". `None` for anything that is not an optionally signed run of digits.
pub(crate) fn saturating_integer(t: &str) -> Option<i64> {
    if let Ok(v) = t.parse() {
        return Some(v);
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if t.starts_with('-') { i64::MIN } else { i64::MAX })
}

/// A spin option's value, checked against its range.
fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, OptionError> {
    let v = value.ok_or_else(|| OptionError::MissingValue(name.to_string()))?.trim();
    let n = saturating_integer(v).ok_or_else(|| OptionError::NotANumber(name.to_string(), v.to_string()))?;
    if !(min as i128..=max as i128).contains(&(n as i128)) {
        return Err(OptionError::OutOfRange { name: name.to_string(), value: v.to_string(), min, max });
    }
    Ok(n as u64)
}

/// A check option's value (`true` or `false`, any case).
fn check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()) {
        Some(v) if v == "true" => Ok(true),
        Some(v) if v == "false" => Ok(false),
        _ => Err(OptionError::NotABool(name.to_string())),
    }
}

impl EngineOptions {
    /// Applies `setoption`; names are case-insensitive as the protocol asks.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mb = spin(name, value, 1, HASH_MAX as u64)? as usize;
                Ok(Change::Hash)
            }
            "threads" => {
                self.threads = spin(name, value, 1, THREADS_MAX as u64)? as usize;
                Ok(Change::Threads)
            }
            "multipv" => {
                self.multipv = spin(name, value, 1, MULTIPV_MAX as u64)? as usize;
                Ok(Change::Other)
            }
            "move overhead" => {
                self.move_overhead = spin(name, value, 0, OVERHEAD_MAX)?;
                Ok(Change::Other)
            }
            "clear hash" => Ok(Change::ClearHash),
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(Change::Other)
            }
            "uci_limitstrength" => {
                self.limit_strength = check(name, value)?;
                Ok(Change::Other)
            }
            "uci_elo" => {
                self.elo = spin(name, value, ELO_MIN as u64, ELO_MAX as u64)? as u32;
                Ok(Change::Other)
            }
            "skill level" => {
                self.skill = spin(name, value, 0, SKILL_MAX as u64)? as u32;
                Ok(Change::Other)
            }
            "uci_showwdl" => {
                self.show_wdl = check(name, value)?;
                Ok(Change::Other)
            }
            "uci_chess960" => {
                self.chess960 = check(name, value)?;
                Ok(Change::Other)
            }
            "qsearchsee" => {
                self.search.qsearch_see = check(name, value)?;
                Ok(Change::Other)
            }
            "usennue" => {
                let on = check(name, value)?;
                let changed = on != self.use_nnue;
                self.use_nnue = on;
                Ok(if changed { Change::Evaluation } else { Change::Other })
            }
            "evalfile" => {
                let v = value.map(str::trim).unwrap_or("");
                Ok(Change::EvalFile(if v.is_empty() { INTERNAL_NAME.to_string() } else { v.to_string() }))
            }
            "syzygypath" => {
                // A path may contain spaces; an empty value means no tables.
                self.syzygy_path =
                    value.map(str::trim).filter(|v| !v.is_empty()).unwrap_or(crate::syzygy::EMPTY_PATH).to_string();
                Ok(Change::Syzygy)
            }
            "syzygyprobedepth" => {
                self.search.tb_probe_depth = spin(name, value, 1, SYZYGY_DEPTH_MAX)? as i32;
                Ok(Change::Other)
            }
            "syzygy50moverule" => {
                self.search.tb_rule50 = check(name, value)?;
                Ok(Change::Other)
            }
            "syzygyprobelimit" => {
                self.search.tb_probe_limit = spin(name, value, 0, crate::syzygy::MAX_PIECES as u64)? as usize;
                Ok(Change::Other)
            }
            _ => {
                // A tuning build's search margins.
                #[cfg(feature = "spsa")]
                if let Some(t) = crate::search::params::find_tunable(name) {
                    // Every tunable's range is non-negative (checked by a test).
                    let (min, max) = (t.min as u64, t.max as u64);
                    let v = spin(name, value, min, max)?;
                    t.set(v as i32).map_err(|_| OptionError::OutOfRange {
                        name: name.to_string(),
                        value: v.to_string(),
                        min,
                        max,
                    })?;
                    crate::search::rebuild_lmr();
                    return Ok(Change::Other);
                }
                Err(OptionError::Unknown(name.to_string()))
            }
        }
    }
}
