//! Every integration test of the app in one binary (one link; nextest runs
//! each test in a process of its own): each file of this folder is a
//! module, and `common` holds what they share.

mod admin_cli;
mod api;
mod api_moves;
mod bench_signature;
mod bots;
mod bots_bridge;
mod bots_claim;
mod bots_games;
mod bots_tls;
mod challenges;
mod chat;
mod cli;
mod common;
mod correspondence;
mod hardening;
mod hardening_sockets;
mod instances;
mod instances_accounts;
mod instances_kill;
mod learning;
mod limits;
mod lobby;
mod match_games;
mod move_events;
mod nnue_cli;
mod online;
mod online_clocks;
mod players;
mod postgres;
mod puzzle_files;
mod review_cli;
mod scheduled;
mod selfplay_puzzles;
mod tournaments;
mod tournaments_days;
mod tournaments_large;
mod trust_caps;
mod trust_inbox;
mod trust_names;
mod tune_texel;
mod uci_binary;
mod uci_protocol;
mod ws_compression;
