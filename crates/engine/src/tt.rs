//! Transposition table shared by all search threads, lock-free.
//!
//! Each slot is two `AtomicU64`: the data, and the key XOR the data, so a
//! torn write from another thread is detected as a miss (Hyatt's lockless
//! hashing).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use tensorchess_rules::Move;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

impl Bound {
    /// Whether a stored score `s` with this bound settles a search of the
    /// window (`alpha`, `beta`).
    pub fn cuts(self, s: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i16,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The transposition table: search results by position hash, shared by every thread of a search.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = 16;

impl TranspositionTable {
    /// A table of about `mb` mebibytes, or of the largest size that can be
    /// allocated when that much memory is not available (halving down to 1 MiB).
    pub fn new(mb: usize) -> Self {
        let mut mb = mb.max(1);
        loop {
            match Self::try_new(mb) {
                Some(t) => return t,
                None if mb > 1 => mb /= 2,
                None => {
                    return TranspositionTable {
                        slots: Vec::new(),
                        generation: AtomicU8::new(0),
                    };
                }
            }
        }
    }

    /// A table of `mb` mebibytes, or `None` when the memory cannot be had.
    pub fn try_new(mb: usize) -> Option<Self> {
        let n = (mb.max(1) << 20) / SLOT_BYTES;
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).ok()?;
        slots.resize_with(n, || Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        Some(TranspositionTable {
            slots,
            generation: AtomicU8::new(0),
        })
    }

    /// The size in MiB.
    pub fn size_mb(&self) -> usize {
        (self.slots.len() * SLOT_BYTES) >> 20
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search, so old entries give way.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    fn slot(&self, key: u64) -> Option<&Slot> {
        self.slots.get(self.index(key))
    }

    /// Asks the processor to fetch `key`'s slot into cache, so that the
    /// probe a little later does not wait for memory (as Stockfish does
    /// after each move).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slot(key) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: SSE is part of every x86_64 processor, and a prefetch
            // is a hint that reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((slot as *const Slot).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if its slot holds one.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key)?;
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key || data == 0 {
            return None;
        }
        Some(unpack(data))
    }

    /// Stores a result for `key`, unless the slot holds a deeper entry of this search for another position.
    pub fn store(&self, key: u64, mv: Move, score: i16, depth: i32, bound: Bound) {
        let Some(slot) = self.slot(key) else { return };
        let age = self.generation.load(Ordering::Relaxed);
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        if old != 0 {
            let o = unpack(old);
            let old_gen = (old >> 56) as u8 & 0x3f;
            let same = old_key == key;
            // Keep a deeper entry of this search for another position.
            if !same && old_gen == age & 0x3f && o.depth > depth + 2 && bound != Bound::Exact {
                return;
            }
            // Keep the old move when the new entry has none.
            if same && mv.is_null() {
                let data = pack(o.mv, score, depth, bound, age);
                slot.data.store(data, Ordering::Relaxed);
                slot.check.store(key ^ data, Ordering::Relaxed);
                return;
            }
        }
        let data = pack(mv, score, depth, bound, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of slots used by this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.generation.load(Ordering::Relaxed) & 0x3f;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 56) as u8 & 0x3f == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Slot data: bits 0–26 the move, 27–42 the score, 43–50 depth + 1,
/// 51–52 the bound, 56–61 the search generation.
fn pack(mv: Move, score: i16, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.to_u32() as u64 & ((1 << 27) - 1);
    let s = score as u16 as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    m | s << 27 | d << 43 | (bound as u64) << 51 | ((age & 0x3f) as u64) << 56
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: Move::from_u32((data & ((1 << 27) - 1)) as u32),
        score: (data >> 27 & 0xffff) as u16 as i16,
        depth: ((data >> 43) & 0xff) as i32 - 1,
        bound: match data >> 51 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        Self::new(16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::Square;

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        let m = Move::propel(Square::new(2), Square::new(24), Square::new(79));
        tt.store(0xdead_beef, m, -300, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -300);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0xdead_bef0).is_none());
    }
}
