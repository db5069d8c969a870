//! Zobrist keys, generated at compile time from a fixed seed (SplitMix64).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub(crate) struct Keys {
    pub piece_square: [[u64; 128]; 16],
    pub castling: [u64; 16],
    pub ep_file: [u64; 16],
    pub hand: [[u64; 16]; 2],
    pub black_to_move: u64,
}

const fn build() -> Keys {
    let mut k = Keys {
        piece_square: [[0; 128]; 16],
        castling: [0; 16],
        ep_file: [0; 16],
        hand: [[0; 16]; 2],
        black_to_move: 0,
    };
    let mut state = 0x7E25_0C4E_55AA_1234u64;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 128 {
            let (ns, v) = splitmix(state);
            state = ns;
            k.piece_square[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut i = 0;
    while i < 16 {
        let (ns, v) = splitmix(state);
        state = ns;
        k.castling[i] = v;
        let (ns, v) = splitmix(state);
        state = ns;
        k.ep_file[i] = v;
        let (ns, v) = splitmix(state);
        state = ns;
        k.hand[0][i] = v;
        let (ns, v) = splitmix(state);
        state = ns;
        k.hand[1][i] = v;
        i += 1;
    }
    // No castling rights and an empty hand hash to zero, as in most engines.
    k.castling[0] = 0;
    k.hand[0][0] = 0;
    k.hand[1][0] = 0;
    let (_, v) = splitmix(state);
    k.black_to_move = v;
    k
}

pub(crate) static KEYS: Keys = build();
