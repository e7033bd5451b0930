//! The value types: square and move text (FromStr / Display round trips, rejected input),
//! files and ranks.

use horizon::{Board, File, Move, MoveKind, Rank, Square};

#[test]
fn square_names_round_trip() {
    for i in 0..64 {
        let sq = Square::from_index(i);
        let name = sq.to_string();
        assert_eq!(name.parse::<Square>(), Ok(sq), "{name}");
        assert_eq!(Square::new(sq.file(), sq.rank()), sq);
        assert_eq!(sq.file().index(), i % 8);
        assert_eq!(sq.rank().index(), i / 8);
    }
    assert_eq!("e4".parse::<Square>().unwrap(), Square::new(File::E, Rank::Fourth));
}

#[test]
fn bad_square_names_are_errors() {
    for bad in ["", "e", "i1", "a0", "a9", "E4", "e44", "4e", " e4"] {
        let err = bad.parse::<Square>().expect_err(bad);
        assert!(err.to_string().contains("is not a square"), "{bad}: {err}");
    }
}

#[test]
fn files_and_ranks() {
    assert_eq!(File::ALL.map(File::char).iter().collect::<String>(), "abcdefgh");
    assert_eq!(Rank::ALL.map(Rank::char).iter().collect::<String>(), "12345678");
    assert_eq!(File::from_char('c'), Some(File::C));
    assert_eq!(File::from_char('i'), None);
    assert_eq!(Rank::from_char('0'), None);
    assert_eq!(Rank::First.relative(horizon::Color::Black), Rank::Eighth);
    assert_eq!(Rank::Third.relative(horizon::Color::Black), Rank::Sixth);
    assert_eq!(Square::new(File::E, Rank::Sixth).ep_victim(), Square::new(File::E, Rank::Fifth));
    assert_eq!(Square::new(File::B, Rank::Third).ep_victim(), Square::new(File::B, Rank::Fourth));
}

/// Every legal move of a few positions reads back from its UCI text: normal moves and
/// promotions exactly; en passant and castling (whose kind only the board knows) as a
/// normal move with the same squares.
#[test]
fn move_text_round_trips() {
    let fens = [
        horizon::board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    let mut kinds = [0; 4];
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        for &m in board.legal_moves().iter() {
            let text = m.uci(true).to_string();
            let parsed: Move = text.parse().unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
            assert_eq!((parsed.from(), parsed.to()), (m.from(), m.to()), "{text}");
            match m.kind() {
                MoveKind::Normal | MoveKind::Promotion => assert_eq!(parsed, m, "{text}"),
                MoveKind::EnPassant | MoveKind::Castle => assert_eq!(parsed.kind(), MoveKind::Normal, "{text}"),
            }
            kinds[m.kind() as usize] += 1;
            assert_eq!(board.parse_uci_move(&text), Ok(m), "{fen} {text}");
        }
    }
    assert!(kinds.iter().all(|&n| n > 0), "every kind of move was checked: {kinds:?}");
    assert_eq!("0000".parse::<Move>(), Ok(Move::NULL));
}

#[test]
fn bad_move_text_is_an_error() {
    for bad in ["", "e2", "e2e", "e2e2", "e2e4x", "e7e8k", "e7e8Q", "e2-e4", "i2i4", "e2e4 "] {
        let err = bad.parse::<Move>().expect_err(bad);
        assert!(err.to_string().contains("not a move in UCI notation"), "{bad}: {err}");
    }
}
