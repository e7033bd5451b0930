//! A table file's bytes, memory-mapped where the platform allows it, and bounds-checked
//! reads from them.
//!
//! Mapping (on Unix) lets a user's 5-7 piece set (hundreds of gigabytes) be opened without
//! reading it: the operating system pages in only the blocks that probes touch, and shares
//! them between the search threads and with other programs reading the same files. Where
//! mapping is not available, or fails, the file is read into memory once instead.
//!
//! Every read from the bytes goes through the `Option`-returning helpers below, so a
//! truncated or garbled file yields "unknown" at worst, never an out-of-bounds access.
//! (A file that another program truncates *while it is mapped* is outside what a reader
//! can guard against: the operating system then signals on access. Do not rewrite table
//! files while an engine uses them.)

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The whole content of one table file.
pub struct TableBytes {
    inner: Inner,
}

enum Inner {
    Owned(Vec<u8>),
    #[cfg(unix)]
    Mapped(Mapping),
}

impl TableBytes {
    /// Opens `path`, mapping it if possible and reading it otherwise.
    pub fn open(path: &Path) -> std::io::Result<TableBytes> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        #[cfg(unix)]
        if len > 0 {
            if let Ok(len) = usize::try_from(len) {
                if let Some(m) = Mapping::new(&file, len) {
                    return Ok(TableBytes { inner: Inner::Mapped(m) });
                }
            }
        }
        let mut data = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.read_to_end(&mut data)?;
        Ok(TableBytes { inner: Inner::Owned(data) })
    }

    /// Bytes held in memory (tests build damaged tables this way).
    pub fn from_vec(data: Vec<u8>) -> TableBytes {
        TableBytes { inner: Inner::Owned(data) }
    }

    /// The file's bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match &self.inner {
            Inner::Owned(v) => v,
            #[cfg(unix)]
            Inner::Mapped(m) => m.as_slice(),
        }
    }

    /// Is the file memory-mapped (rather than read into memory)?
    pub fn is_mapped(&self) -> bool {
        !matches!(self.inner, Inner::Owned(_))
    }
}

/// A read-only private mapping of a whole file.
#[cfg(unix)]
struct Mapping {
    ptr: *const u8,
    len: usize,
}

#[cfg(unix)]
// SAFETY: the mapped memory is immutable for the mapping's lifetime (PROT_READ).
unsafe impl Send for Mapping {}
#[cfg(unix)]
// SAFETY: as above; concurrent reads of immutable memory are sound.
unsafe impl Sync for Mapping {}

#[cfg(unix)]
impl Mapping {
    fn new(file: &File, len: usize) -> Option<Mapping> {
        use std::os::unix::io::AsRawFd;
        // SAFETY: mmap with a null hint, a positive length, read-only protection and a
        // valid open descriptor; the result is checked against MAP_FAILED before use.
        let ptr =
            unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0) };
        if ptr == libc::MAP_FAILED || ptr.is_null() {
            return None;
        }
        Some(Mapping { ptr: ptr as *const u8, len })
    }

    fn as_slice(&self) -> &[u8] {
        // SAFETY: `ptr` points to a live mapping of exactly `len` readable bytes, which
        // stays mapped until `drop`, and `&self` borrows keep it alive meanwhile.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

#[cfg(unix)]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the region `mmap` returned; no slice of it outlives
        // `self` (every slice borrows the owning `TableBytes`).
        unsafe {
            libc::munmap(self.ptr as *mut libc::c_void, self.len);
        }
    }
}

/// The byte at `off`.
#[inline(always)]
pub fn u8_at(b: &[u8], off: usize) -> Option<u8> {
    b.get(off).copied()
}

/// A little-endian u16 at `off`.
#[inline(always)]
pub fn u16_le(b: &[u8], off: usize) -> Option<u16> {
    let s = b.get(off..off.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

/// A little-endian u32 at `off`.
#[inline(always)]
pub fn u32_le(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// A big-endian u32 at `off`.
#[inline(always)]
pub fn u32_be(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}
