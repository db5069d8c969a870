//! WebSocket compression (permessage-deflate, RFC 7692, issue 26): a
//! client that offers it, as browsers do, gets it, without context
//! takeover either way; large messages (a game's snapshot, the side to
//! move's events) arrive compressed and inflate to the same JSON; small
//! ones go plain; a client that does not offer it gets plain frames.
//!
//! The client here is written out by hand (a handshake and frames over a
//! TCP stream), so that the test sees the frames as they are on the wire:
//! their bits and sizes.

use crate::common::online::*;
use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The offer Chromium makes.
const BROWSER_OFFER: &str = "permessage-deflate; client_max_window_bits";

/// A WebSocket client that keeps the frames' wire form.
struct RawSocket {
    tcp: TcpStream,
    read: Vec<u8>,
}

/// One frame as it came: whether it was compressed (RSV1), its opcode,
/// its payload as sent, and its size on the wire with its header.
struct WireFrame {
    compressed: bool,
    opcode: u8,
    payload: Vec<u8>,
    wire_bytes: usize,
}

impl WireFrame {
    /// The message's text: inflated when it was compressed (a raw deflate
    /// stream whose final empty block the sender left out).
    fn text(&self) -> String {
        if !self.compressed {
            return String::from_utf8(self.payload.clone()).unwrap();
        }
        let mut input = self.payload.clone();
        input.extend_from_slice(&[0, 0, 0xff, 0xff]);
        let mut out = Vec::with_capacity(64 * 1024);
        Decompress::new(false)
            .decompress_vec(&input, &mut out, FlushDecompress::Sync)
            .unwrap();
        String::from_utf8(out).unwrap()
    }
}

/// Opens `/api/ws` offering `extensions`; the socket and the answer's
/// `Sec-WebSocket-Extensions` (if any).
async fn connect(
    addr: SocketAddr,
    cookie: Option<&str>,
    extensions: Option<&str>,
) -> (RawSocket, Option<String>) {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "GET /api/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    );
    if let Some(c) = cookie {
        request += &format!("Cookie: {c}\r\n");
    }
    if let Some(e) = extensions {
        request += &format!("Sec-WebSocket-Extensions: {e}\r\n");
    }
    request += "\r\n";
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut read = Vec::new();
    let head_end = loop {
        if let Some(i) = read.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 4096];
        let n = tcp.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the server closed during the handshake");
        read.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(read[..head_end].to_vec()).unwrap();
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let agreed = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("sec-websocket-extensions")
            .then(|| value.trim().to_string())
    });
    read.drain(..head_end);
    (RawSocket { tcp, read }, agreed)
}

impl RawSocket {
    /// Sends `v` as one masked, uncompressed text frame.
    async fn send(&mut self, v: Value) {
        let payload = v.to_string().into_bytes();
        assert!(payload.len() < 126);
        let mask = [0x12, 0x34, 0x56, 0x78];
        let mut frame = vec![0x81, 0x80 | payload.len() as u8];
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.tcp.write_all(&frame).await.unwrap();
    }

    /// Sends `text` as one masked text frame compressed (RSV1), as a
    /// browser's are.
    async fn send_compressed(&mut self, text: &[u8]) {
        let mut payload = Vec::with_capacity(text.len() + 64);
        Compress::new(Compression::fast(), false)
            .compress_vec(text, &mut payload, FlushCompress::Sync)
            .unwrap();
        // The message ends without the sync flush's empty block.
        assert!(payload.ends_with(&[0, 0, 0xff, 0xff]));
        payload.truncate(payload.len() - 4);
        let mask = [0x9a, 0xbc, 0xde, 0xf0];
        let mut frame = vec![0xC1];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.tcp.write_all(&frame).await.unwrap();
    }

    /// Whether the server closes the connection (a close frame, or the
    /// end of the stream) before sending any more text.
    async fn closes(&mut self) -> bool {
        loop {
            if self.read.len() < 2 {
                let mut chunk = [0u8; 4096];
                let got = tokio::time::timeout(Duration::from_secs(10), self.tcp.read(&mut chunk))
                    .await
                    .expect("an answer within 10 s");
                match got {
                    Ok(0) | Err(_) => return true,
                    Ok(n) => self.read.extend_from_slice(&chunk[..n]),
                }
                continue;
            }
            let frame = self.frame().await;
            match frame.opcode {
                8 => return true,
                1 => return false,
                _ => {}
            }
        }
    }

    async fn fill(&mut self, n: usize) {
        while self.read.len() < n {
            let mut chunk = [0u8; 16 * 1024];
            let got = tokio::time::timeout(Duration::from_secs(10), self.tcp.read(&mut chunk))
                .await
                .expect("a frame within 10 s")
                .unwrap();
            assert!(got > 0, "the server closed the socket");
            self.read.extend_from_slice(&chunk[..got]);
        }
    }

    /// The next frame (the server's are unmasked and unfragmented).
    async fn frame(&mut self) -> WireFrame {
        self.fill(2).await;
        let (b0, b1) = (self.read[0], self.read[1]);
        assert_eq!(b1 & 0x80, 0, "a server's frames are not masked");
        assert_eq!(b0 & 0x80, 0x80, "a server's messages are one frame");
        let (len, header) = match b1 & 0x7f {
            126 => {
                self.fill(4).await;
                (u16::from_be_bytes([self.read[2], self.read[3]]) as usize, 4)
            }
            127 => {
                self.fill(10).await;
                let bytes: [u8; 8] = self.read[2..10].try_into().unwrap();
                (u64::from_be_bytes(bytes) as usize, 10)
            }
            n => (n as usize, 2),
        };
        self.fill(header + len).await;
        let payload = self.read[header..header + len].to_vec();
        self.read.drain(..header + len);
        WireFrame {
            compressed: b0 & 0x40 != 0,
            opcode: b0 & 0x0f,
            payload,
            wire_bytes: header + len,
        }
    }

    /// The next text message of type `kind`, with its frame.
    async fn next_of(&mut self, kind: &str) -> (Value, WireFrame) {
        loop {
            let frame = self.frame().await;
            if frame.opcode != 1 {
                continue;
            }
            let v: Value = serde_json::from_str(&frame.text()).unwrap();
            if v["type"] == kind {
                return (v, frame);
            }
        }
    }
}

fn median(mut xs: Vec<usize>) -> usize {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

#[tokio::test]
async fn sockets_compress_for_clients_that_offer_it_and_only_for_them() {
    let t = TestApp::new();
    let clock = json!({ "base_seconds": 300, "increment_seconds": 3 });
    let (id, white, black) = t.started(clock).await;
    let (addr, _stop) = t.serve().await;

    // No offer, no compression.
    let (mut plain, agreed) = connect(addr, None, None).await;
    assert_eq!(agreed, None);
    plain
        .send(json!({ "type": "subscribe", "topic": format!("game:{id}") }))
        .await;
    let (_, snapshot) = plain.next_of("game").await;
    assert!(!snapshot.compressed);

    // A browser's offer: agreed, without context takeover either way.
    let (mut black_socket, agreed) = connect(addr, Some(&black), Some(BROWSER_OFFER)).await;
    let agreed = agreed.expect("the extension is agreed");
    assert!(agreed.starts_with("permessage-deflate"), "{agreed}");
    assert!(agreed.contains("server_no_context_takeover"), "{agreed}");
    assert!(agreed.contains("client_no_context_takeover"), "{agreed}");
    let (mut watcher, _) = connect(addr, None, Some(BROWSER_OFFER)).await;
    for socket in [&mut black_socket, &mut watcher] {
        socket
            .send(json!({ "type": "subscribe", "topic": format!("game:{id}") }))
            .await;
        let (subscribed, frame) = socket.next_of("subscribed").await;
        assert_eq!(subscribed["topic"], format!("game:{id}"));
        assert!(!frame.compressed, "a short message goes plain");
        let (snapshot, frame) = socket.next_of("game").await;
        assert!(frame.compressed, "a snapshot is compressed");
        assert!(
            frame.wire_bytes * 3 < frame.text().len(),
            "deflate shrinks a snapshot"
        );
        assert_eq!(snapshot["event"], "snapshot");
    }

    // Moves: Black's events (with the legal moves on White's moves)
    // compressed and whole; what each frame weighs on the wire.
    let (mut to_move, mut to_move_text, mut watching) = (Vec::new(), Vec::new(), Vec::new());
    let mut game = t.game(&id).await;
    for ply in 0..20 {
        let cookie = if ply % 2 == 0 { &white } else { &black };
        let legal = game["position"]["legal"].as_array().unwrap();
        let mv = legal[(ply * 7 + 3) % legal.len()]["uci"]
            .as_str()
            .unwrap()
            .to_string();
        let r = t.play(&id, cookie, &mv, ply).await;
        assert_eq!(r.status, 200, "ply {ply} {mv}: {}", r.text);
        let (event, frame) = black_socket.next_of("move").await;
        assert_eq!(event["move"]["uci"], mv.as_str());
        assert_eq!(event["rev"], r.body["rev"]);
        if ply % 2 == 0 {
            // Black is to move: its event carries the legal moves.
            assert_eq!(
                compact_legal_count(&event),
                r.body["position"]["legal"].as_array().unwrap().len()
            );
            assert!(frame.compressed);
            to_move.push(frame.wire_bytes);
            to_move_text.push(frame.text().len());
        }
        let (seen, frame) = watcher.next_of("move").await;
        assert_eq!(seen["move"]["uci"], mv.as_str());
        assert!(seen.get("legal").is_none());
        assert_eq!(frame.compressed, frame.text().len() >= 128);
        watching.push(frame.wire_bytes);
        game = r.body;
    }
    let (wire, text) = (median(to_move), median(to_move_text));
    eprintln!(
        "move event to the side to move: {wire} B on the wire for {text} B of JSON; \
         to a spectator {} B (medians)",
        median(watching)
    );
    assert!(wire < text, "{wire} B compressed against {text} B");
}

#[tokio::test]
async fn compressed_client_messages_are_read_and_a_deflate_bomb_closes_the_socket() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let (mut socket, agreed) = connect(addr, None, Some(BROWSER_OFFER)).await;
    assert!(agreed.is_some());
    socket.send_compressed(br#"{"type":"ping"}"#).await;
    let (pong, _) = socket.next_of("pong").await;
    assert_eq!(pong["type"], "pong");

    // A megabyte of spaces deflates to about a kilobyte: the server stops
    // inflating at its limit (16 KiB) and closes the socket.
    let bomb = format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", " ".repeat(1 << 20));
    socket.send_compressed(bomb.as_bytes()).await;
    assert!(socket.closes().await, "the socket is closed, not answered");

    // The server goes on serving others.
    let (mut next, _) = connect(addr, None, Some(BROWSER_OFFER)).await;
    next.send_compressed(br#"{"type":"ping"}"#).await;
    next.next_of("pong").await;
}
