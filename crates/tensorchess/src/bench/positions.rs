//! The bench positions. Orthodox chess: positions from Stockfish's bench
//! list (openings, middlegames, endgames). Tensor Chess and Chessence:
//! positions sampled from the engine's own games at several stages
//! (see `docs/match.md`, "Bench positions").

/// Orthodox chess's bench positions (FEN).
pub const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
];

/// Tensor Chess's bench positions (FEN).
pub const TENSOR: &[&str] = &[
    "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
    "r1qb1kb2r/ppp2ppp2/2n3n1pp/3pp2N2/1t1P2T2P/1BP1PPT1P1/PP4PP2/R1N1QKB1R1 w Qkq - 0 13",
    "1r1b1kb3/p1p2pppQ1/2p2T4/9p/2tPB1T2P/4PP2P1/Pn4PP2/R3K1B1R1 w - - 1 26",
    "1r2nkb3/2pQ1p4/2B3pp2/5Tb2p/3P5P/4PP2P1/P2TKBPP2/8R1 w - - 6 41",
    "rt1b1k1n1r/ppp1npp1pp/3p2tp2/4pb3q/9P/1BP1P1NPP1/PPTP1PP1T1/R1N1QKB1R1 w Qkq - 3 13",
    "rt3k3r/1pp2pp1pq/3p1b1pp1/2t1p5/Pp2P2PTP/2P3N1T1/3P1PP3/R3QKB1R1 w Qkq - 0 26",
    "1t1r3k1r/5p2pq/3pTp1ppT/1P1Q6/P2pPp1P1P/8R1/3P2P3/R4K4 w Q - 1 41",
    "r4r1k2/pp1p2p2p/2p2pBpp1/7t2/3p1T4/2P1PPKPP1/PP6TP/R8R w - - 0 24",
    "6r3/1p4p1k1/2p3T1p1/3p1p1p1p/3P3P1P/pP2PPT1P1/P4KR3/8tR w - - 4 39",
    "r1tbqkb2r/pppp1t1pQ1/3n1pp2p/4pT4/4PTn3/PP1N2NP2/2PP1PP1PP/R4KB2R b KQkq - 0 11",
    "2r2kb2r/1pt1pt1p2/2pp1p2pp/5Tp3/4P1P3/PN3P4/1PPP1QP2P/R2B1KTq2 b k - 1 24",
];

/// Chessence's bench positions (FEN).
pub const CHESSENCE: &[&str] = &[
    "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1",
    "k5/3m1*/1mmm*1/mm*1m1/1*2*1/3*2/1*MMM1/*MM2M/5K[MMm] w - - 0 10",
    "k5/2m2*/2mm*1/2*m2/1*2*1/3*2/1*1MM1/*1M3/3M1K[] w - - 4 20",
    "k5/2mm1*/mmm1*1/m1*3/1*2*1/2M*M1/1*1MM1/*1MM1M/5K[Mmm] w - - 1 10",
    "k5/2m2*/mm2*1/1m*m2/1*1M*1/3*M1/1*MM2/*2M2/5K[] w - - 1 20",
    "k1m3/1mm2*/1mm1*1/1m*3/1*2*1/1m1*M1/1*MMM1/*1M1MM/5K[Mmm] b - - 1 8",
    "k5/2mm1*/1mm1*1/1m*M2/1*2*1/3*MM/1*MM2/*5/3M1K[] b - - 0 18",
    "km4/1mm2*/1mmm*1/1M*3/1*2*1/3*M1/1*MMM1/*M2MM/5K[Mmm] b - - 2 8",
    "k5/mm3*/1mmm*1/2*3/1*2*1/2M*MM/1*MM2/*5/5K[] b - - 0 18",
    "k5/3m1*/1mmm*1/mm*1m1/1*2*1/1M1*M1/1*MM2/*2MM1/4MK[MMmm] w - - 3 8",
    "km4/3mm*/2mm*1/m1*3/1*2*1/2M*M1/1*1M2/*2MM1/4MK[] w - - 3 18",
];
