//! The Texel tuner lowers the prediction error and moves weights the way the
//! results point.

use tensorchess::tune::texel::{self, TuneConfig};
use tensorchess_engine::eval::{Evaluate, Layout};
use tensorchess_rules::{Chess, Role};

fn data() -> String {
    // White a queen up wins, the mirrored positions lose, equal ones draw.
    let mut s = String::new();
    for (fen, result) in [
        ("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1", "1-0"),
        ("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", "0-1"),
        ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", "1/2-1/2"),
        ("3qk3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1", "1/2-1/2"),
        ("4k3/pppp1ppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1", "1-0"),
        ("3qk3/pppppppp/8/8/8/8/PPP1PPPP/4K3 b - - 0 1", "0-1"),
    ] {
        for _ in 0..20 {
            s.push_str(&format!("{fen};{result}\n"));
        }
    }
    s.push_str("not a fen;1-0\n8/8/8/8/8/8/8/8 w - - 0 1;1-0\nbad line\n");
    s
}

#[test]
fn tuning_reduces_the_error_and_skips_bad_lines() {
    let (samples, bad) = texel::load::<Chess>(std::io::Cursor::new(data()), 1.0, 1.0).unwrap();
    assert_eq!(samples.len(), 120);
    assert_eq!(bad, 3);
    // Start from a queen worth almost nothing.
    let mut w: Vec<[f64; 2]> = vec![[0.0, 0.0]; Chess::LAYOUT.len()];
    w[Layout::MATERIAL + Role::Queen.index()] = [10.0, 10.0];
    let k = 1.0;
    let before = texel::error(&samples, &w, k);
    texel::tune(
        &samples,
        &[],
        &mut w,
        k,
        &TuneConfig {
            epochs: 200,
            learning_rate: 2.0,
            frozen: vec![Layout::MATERIAL + Role::King.index()],
            l2: 0.0,
        },
        |_, _, _| {},
    );
    let after = texel::error(&samples, &w, k);
    assert!(after < before * 0.5, "error {before} -> {after}");
    assert!(w[Layout::MATERIAL + Role::Queen.index()][0] > 100.0);
    assert_eq!(w[Layout::MATERIAL + Role::King.index()], [0.0, 0.0]);
}

#[test]
fn the_rust_table_lists_every_term() {
    let w = Chess::default_weights().to_vec();
    let table = texel::rust_table::<Chess>("CHESS", &w);
    assert_eq!(table.matches("], //").count(), Chess::LAYOUT.len());
    assert!(table.contains("material_queen"));
}

#[test]
fn a_recorded_score_blends_into_the_target() {
    let line = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;-400\n";
    let zero = vec![[0.0, 0.0]; Chess::LAYOUT.len()];
    // Result only: target 1, prediction 0.5.
    let (s, _) = texel::load::<Chess>(std::io::Cursor::new(line), 1.0, 1.0).unwrap();
    assert!((texel::error(&s, &zero, 1.0) - 0.25).abs() < 1e-9);
    // Score only: target 1 / (1 + 10^(400/400)) = 1/11.
    let (s, _) = texel::load::<Chess>(std::io::Cursor::new(line), 0.0, 1.0).unwrap();
    let t = 1.0 / 11.0;
    assert!((texel::error(&s, &zero, 1.0) - (t - 0.5) * (t - 0.5)).abs() < 1e-9);
}
