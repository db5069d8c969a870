//! The network's tools end to end: `datagen` writes and resumes a data
//! file, `train` fits a network to it, and `bench` searches with it.

use std::process::Command;

fn tensorchess(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn datagen_then_train_then_bench_with_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("c.data");
    let net = dir.path().join("c.nnue");
    let (data_s, net_s) = (data.to_str().unwrap(), net.to_str().unwrap());
    let gen = |games: &str| {
        tensorchess(&[
            "datagen",
            "--variant",
            "chess",
            "--nodes",
            "200",
            "--games",
            games,
            "--out",
            data_s,
            "--seed",
            "4",
        ])
    };
    let out = gen("2");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = gen("3");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("1 games played (2 already in the file)"),
        "{text}"
    );
    let out = tensorchess(&[
        "train",
        "--variant",
        "chess",
        "--data",
        data_s,
        "--out",
        net_s,
        "--epochs",
        "2",
        "--hidden",
        "16",
    ]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("epoch 2: train loss"), "{text}");
    let out = tensorchess(&[
        "bench",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--quiet",
        "--eval-file",
        net_s,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("chess: evaluation: network (from the file, 16 hidden)"),
        "{text}"
    );
    // The wrong game's data, and a network for another game, are refused.
    let out = tensorchess(&[
        "train",
        "--variant",
        "tensor",
        "--data",
        data_s,
        "--out",
        net_s,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = tensorchess(&[
        "bench",
        "--variant",
        "tensor",
        "--depth",
        "1",
        "--eval-file",
        net_s,
    ]);
    assert_eq!(out.status.code(), Some(2));
    // The next round's data comes from the network: datagen plays with it,
    // and refuses a network of another game.
    let next = dir.path().join("next.data");
    let next_s = next.to_str().unwrap();
    let datagen_with = |variant: &str| {
        tensorchess(&[
            "datagen",
            "--variant",
            variant,
            "--nodes",
            "200",
            "--games",
            "1",
            "--out",
            next_s,
            "--eval-file",
            net_s,
        ])
    };
    let out = datagen_with("chess");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 games played"), "{text}");
    let out = datagen_with("tensor");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("network file"));
}
