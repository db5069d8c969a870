//! Caps on what is held open at once (a stream, a socket), per key: a
//! [`Slot`] counts while it lives and frees its place when dropped, so a
//! stream's slot goes with its connection however that ends.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// Counts of what each key holds now, each at most the cap.
pub struct Slots<K: Eq + Hash + Clone> {
    cap: usize,
    held: Mutex<HashMap<K, usize>>,
}

/// One place of a key in its [`Slots`], freed on drop.
pub struct Slot<K: Eq + Hash + Clone> {
    slots: Arc<Slots<K>>,
    key: K,
}

impl<K: Eq + Hash + Clone> Slots<K> {
    /// At most `cap` held at once per key.
    pub fn new(cap: usize) -> Arc<Slots<K>> {
        Arc::new(Slots {
            cap,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// The cap per key.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// A place for `key`, or `None` when it holds its cap already.
    pub fn take(self: &Arc<Self>, key: K) -> Option<Slot<K>> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(key.clone()).or_insert(0);
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            slots: self.clone(),
            key,
        })
    }

    /// What `key` holds now.
    pub fn held(&self, key: &K) -> usize {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.get(key).copied().unwrap_or(0)
    }
}

impl<K: Eq + Hash + Clone> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_holds_at_most_its_cap_and_a_dropped_slot_frees_its_place() {
        let slots = Slots::new(2);
        let a = slots.take("a").unwrap();
        let _b = slots.take("a").unwrap();
        assert!(slots.take("a").is_none());
        assert!(slots.take("other").is_some(), "keys apart");
        drop(a);
        assert_eq!(slots.held(&"a"), 1);
        assert!(slots.take("a").is_some());
        assert_eq!(slots.held(&"other"), 0, "a dropped slot is forgotten");
    }
}
