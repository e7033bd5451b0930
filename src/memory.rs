//! Large zeroed arrays taken from the operating system, for the hash tables (the search's
//! transposition table and perft's).
//!
//! On Linux the memory is an anonymous mapping aligned to 2 MiB and advised to use
//! transparent huge pages: a table probed at random addresses then needs one TLB entry per
//! 2 MiB instead of one per 4 KiB page, and a large table costs a few hundred page faults
//! instead of hundreds of thousands. The pages are zero and faulted in on first touch. On
//! kernels with transparent huge pages turned off the advice is ignored and the table works
//! as before. Elsewhere the memory comes from the global allocator, zeroed.

use std::marker::PhantomData;
use std::ops::Deref;

/// Size of a transparent huge page on x86-64 and on aarch64 with 4 KiB pages; regions start
/// on this boundary so that the kernel can back them with huge pages from the first byte.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// A type whose all-zero bit pattern is a valid value (atomics and integers, and arrays and
/// structs of them), so a [`ZeroedSlice`] of it is ready to use as the kernel hands it out.
///
/// # Safety
/// All-zero bytes must be a valid `Self`, and `Self` must need no drop and be aligned to at
/// most 4096 bytes (the page size the memory is aligned to).
pub unsafe trait Zeroable: Sync {}

/// `len` values of `T`, all zero, in memory of their own (freed on drop).
pub struct ZeroedSlice<T: Zeroable> {
    region: Region,
    len: usize,
    _items: PhantomData<T>,
}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zeroed values (at least one), or `None` if the memory cannot be had.
    pub fn new(len: usize) -> Option<ZeroedSlice<T>> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let region = Region::zeroed(bytes, std::mem::align_of::<T>())?;
        Some(ZeroedSlice { region, len, _items: PhantomData })
    }
}

impl<T: Zeroable> Deref for ZeroedSlice<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the region holds `len * size_of::<T>()` zeroed bytes aligned for `T`
        // (`Region::zeroed`), all-zero bytes are a valid `T` (`Zeroable`), and the region
        // lives as long as `self`. Only shared references are ever made (`T: Sync` types
        // such as atomics are written through them).
        unsafe { std::slice::from_raw_parts(self.region.ptr as *const T, self.len) }
    }
}

/// Zero-initialised memory obtained from the operating system, freed on drop.
struct Region {
    /// The first usable byte.
    ptr: *mut u8,
    /// What was mapped or allocated (`base` and `size` are what is given back).
    base: *mut u8,
    size: usize,
    /// The allocation's alignment (the allocator needs it back).
    #[cfg(not(target_os = "linux"))]
    align: usize,
}

// SAFETY: `Region` owns its memory exclusively and hands it out only as shared slices of
// `Zeroable` (hence `Sync`) values, so it may be sent to and shared between threads.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    /// At least `len` zeroed bytes (at least one), aligned to `align` (at most a page).
    #[cfg(target_os = "linux")]
    fn zeroed(len: usize, align: usize) -> Option<Region> {
        use libc::{MADV_HUGEPAGE, MAP_ANONYMOUS, MAP_FAILED, MAP_PRIVATE, PROT_READ, PROT_WRITE};
        debug_assert!(align <= 4096);
        let len = len.max(1);
        // Map a huge page more than asked, so that a 2 MiB boundary falls at most that far in.
        let size = len.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping at an address the kernel chooses touches no
        // existing memory; the result is checked against MAP_FAILED.
        let base = unsafe {
            libc::mmap(std::ptr::null_mut(), size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        };
        if base == MAP_FAILED || base.is_null() {
            return None;
        }
        let base = base as *mut u8;
        let offset = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so `ptr..ptr + len` lies inside the `size` bytes mapped.
        let ptr = unsafe { base.add(offset) };
        // SAFETY: `ptr..ptr + len` is part of the mapping just created. The advice is a hint;
        // if the kernel has transparent huge pages turned off it fails harmlessly.
        unsafe { libc::madvise(ptr as *mut libc::c_void, len, MADV_HUGEPAGE) };
        Some(Region { ptr, base, size })
    }

    /// At least `len` zeroed bytes (at least one), aligned to `align` (at most a page).
    #[cfg(not(target_os = "linux"))]
    fn zeroed(len: usize, align: usize) -> Option<Region> {
        let layout = std::alloc::Layout::from_size_align(len.max(1), align.max(64)).ok()?;
        // SAFETY: the layout's size is at least one byte; the null result is checked.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        (!ptr.is_null()).then_some(Region { ptr, base: ptr, size: layout.size(), align: layout.align() })
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: `base`/`size` are the mapping made in `zeroed`, and no slice of it outlives
        // the `ZeroedSlice` that owns this region.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.size);
        }
        #[cfg(not(target_os = "linux"))]
        // SAFETY: allocated in `zeroed` with exactly this size and alignment.
        unsafe {
            std::alloc::dealloc(self.base, std::alloc::Layout::from_size_align_unchecked(self.size, self.align))
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // SAFETY: an all-zero AtomicU64 is 0; it needs no drop and is 8-byte aligned.
    unsafe impl Zeroable for AtomicU64 {}

    #[test]
    fn a_slice_starts_zeroed_and_keeps_what_is_written() {
        let n = 3 * (1 << 20) / 8 + 5; // more than a huge page, not a multiple of one
        let s = ZeroedSlice::<AtomicU64>::new(n).unwrap();
        assert_eq!(s.len(), n);
        assert!(s.iter().all(|x| x.load(Ordering::Relaxed) == 0));
        for (i, x) in s.iter().enumerate().step_by(4099) {
            x.store(i as u64 + 1, Ordering::Relaxed);
        }
        for (i, x) in s.iter().enumerate() {
            let want = if i % 4099 == 0 { i as u64 + 1 } else { 0 };
            assert_eq!(x.load(Ordering::Relaxed), want, "item {i}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn large_regions_start_on_a_huge_page_boundary() {
        let s = ZeroedSlice::<AtomicU64>::new(HUGE_PAGE).unwrap();
        assert_eq!(s.as_ptr() as usize % HUGE_PAGE, 0);
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(ZeroedSlice::<AtomicU64>::new(usize::MAX / 4).is_none(), "the byte count overflows");
        assert!(ZeroedSlice::<AtomicU64>::new(1 << 57).is_none(), "an exabyte is more than any machine has");
    }
}
