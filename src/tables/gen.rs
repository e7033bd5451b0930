//! Pure table-generation code, shared by `build.rs` (included by path) and by the crate's
//! tests. Everything here works on raw `u64` bitboards and `usize` square indices
//! (a1 = 0, b1 = 1, …, h8 = 63) so that it compiles without the rest of the crate.

#![allow(dead_code)]

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const KNIGHT_STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn bit(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

fn leaper(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps.iter().filter(|(df, dr)| on_board(f + df, r + dr)).fold(0, |acc, (df, dr)| acc | bit(f + df, r + dr))
}

/// Squares a knight on `sq` attacks.
pub fn knight_attacks(sq: usize) -> u64 {
    leaper(sq, &KNIGHT_STEPS)
}

/// Squares a king on `sq` attacks.
pub fn king_attacks(sq: usize) -> u64 {
    leaper(sq, &KING_STEPS)
}

/// Squares a pawn of colour `color` (0 = white, 1 = black) on `sq` attacks.
pub fn pawn_attacks(color: usize, sq: usize) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    leaper(sq, &[(1, dr), (-1, dr)])
}

/// Slider attacks from `sq` along `dirs`, stopping at (and including) the first blocker in `occ`.
/// The slow reference every fast lookup is verified against.
pub fn slider_attacks(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut nf, mut nr) = (f + df, r + dr);
        while on_board(nf, nr) {
            attacks |= bit(nf, nr);
            if occ & bit(nf, nr) != 0 {
                break;
            }
            nf += df;
            nr += dr;
        }
    }
    attacks
}

/// The relevant-occupancy mask of a slider: its empty-board rays without the last square
/// of each ray (a piece on the board edge never blocks anything behind it).
pub fn slider_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut nf, mut nr) = (f + df, r + dr);
        while on_board(nf + df, nr + dr) {
            mask |= bit(nf, nr);
            nf += df;
            nr += dr;
        }
    }
    mask
}

/// Every subset of `mask`, by the carry-rippler trick (starts and ends with 0).
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// A small deterministic PRNG (xorshift64*) so that the magic search is reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A random number with few bits set: good magic candidates.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// Index of `occ` in a magic table.
pub fn magic_index(occ: u64, mask: u64, magic: u64, shift: u32) -> usize {
    ((occ & mask).wrapping_mul(magic) >> shift) as usize
}

/// Finds a magic for `sq` with the given mask and directions: a multiplier that maps every
/// blocker subset to a slot holding its attack set (constructive collisions allowed).
/// Returns (magic, shift, table).
pub fn find_magic(sq: usize, dirs: &[(i32, i32); 4], rng: &mut Rng) -> (u64, u32, Vec<u64>) {
    let mask = slider_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occs = subsets(mask);
    let refs: Vec<u64> = occs.iter().map(|&o| slider_attacks(sq, o, dirs)).collect();
    let mut table = vec![0u64; 1 << bits];
    let mut epoch = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        // Quick reject: the top byte of mask * magic needs enough bits to spread indices.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occs.iter().zip(&refs) {
            let idx = magic_index(occ, mask, magic, shift);
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                table[idx] = att;
            } else if table[idx] != att {
                ok = false;
                break;
            }
        }
        if ok {
            return (magic, shift, table);
        }
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; else 0.
pub fn between(a: usize, b: usize) -> u64 {
    let (fa, ra, fb, rb) = ((a % 8) as i32, (a / 8) as i32, (b % 8) as i32, (b / 8) as i32);
    let (df, dr) = (fb - fa, rb - ra);
    if a == b || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return 0;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut out = 0;
    let (mut f, mut r) = (fa + sf, ra + sr);
    while (f, r) != (fb, rb) {
        out |= bit(f, r);
        f += sf;
        r += sr;
    }
    out
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank, file or
/// diagonal, including both squares; else 0.
pub fn line(a: usize, b: usize) -> u64 {
    if a == b {
        return 0;
    }
    for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
        if slider_attacks(a, 0, dirs) & (1u64 << b) != 0 {
            return (slider_attacks(a, 0, dirs) & slider_attacks(b, 0, dirs)) | (1u64 << a) | (1u64 << b);
        }
    }
    0
}
