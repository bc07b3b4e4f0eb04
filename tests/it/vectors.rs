//! PROTOCOL.md's test vectors, recomputed straight from the spec with `sha2` and
//! `ed25519-dalek` — never through `armada::fair` — and then checked against the
//! implementation too, so the spec, the primitives and the code all agree.

use std::collections::HashMap;

use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

fn vectors() -> HashMap<String, HashMap<String, String>> {
    let spec = include_str!("../../proto/PROTOCOL.md");
    let mut all = HashMap::new();
    let mut blocks = spec.split("```vector ").skip(1);
    while let Some(block) = blocks.next() {
        let (name, rest) = block.split_once('\n').unwrap();
        let body = rest.split("```").next().unwrap();
        let fields = body
            .lines()
            .filter_map(|l| l.split_once(": "))
            .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
            .collect();
        all.insert(name.trim().to_owned(), fields);
    }
    all
}

fn bytes(hex_text: &str) -> Vec<u8> {
    hex::decode(hex_text.replace(' ', "")).unwrap()
}

fn labelled(label: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    h.update([0]);
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// The spec's unbiased draw below `m` from a seed's byte stream.
struct Stream {
    seed: [u8; 32],
    block: Vec<u8>,
    counter: u32,
}

impl Stream {
    fn new(seed: [u8; 32]) -> Self {
        Self {
            seed,
            block: Vec::new(),
            counter: 0,
        }
    }

    fn below(&mut self, m: u16) -> u16 {
        loop {
            if self.block.is_empty() {
                let mut h = Sha256::new();
                h.update(self.seed);
                h.update(self.counter.to_be_bytes());
                self.counter += 1;
                let block: [u8; 32] = h.finalize().into();
                self.block = block.iter().rev().copied().collect();
            }
            let b = u16::from(self.block.pop().unwrap());
            if b < 256 - 256 % m {
                return b % m;
            }
        }
    }
}

#[test]
fn leaf_pad_and_root() {
    let v = vectors();
    let leaf = &v["leaf"];
    let computed = labelled(
        "armada/1/leaf",
        &[
            &bytes(&leaf["game"]),
            &bytes(&leaf["seat"]),
            &bytes(&leaf["cell"]),
            &bytes(&leaf["content"]),
            &bytes(&leaf["salt"]),
        ],
    );
    assert_eq!(hex::encode(computed), leaf["leaf"]);

    let pad = &v["pad"];
    assert_eq!(
        hex::encode(labelled("armada/1/pad", &[&bytes(&pad["index"])])),
        pad["pad"]
    );

    let root = &v["root"];
    let game = bytes(&root["game"]);
    let seat = bytes(&root["seat"]);
    let decks = bytes(&root["decks"]);
    let mut level: Vec<[u8; 32]> = (0..128u16)
        .map(|i| {
            if i < 100 {
                let cell = i as u8;
                let content = [u8::from(decks.contains(&cell))];
                labelled(
                    "armada/1/leaf",
                    &[&game, &seat, &[cell], &content, &[cell; 16]],
                )
            } else {
                labelled("armada/1/pad", &[&i.to_be_bytes()])
            }
        })
        .collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| labelled("armada/1/node", &[&p[0], &p[1]]))
            .collect();
    }
    assert_eq!(hex::encode(level[0]), root["root"]);
}

#[test]
fn contribution_shells_and_timeout() {
    let v = vectors();
    let c = &v["contribution"];
    let computed = labelled(
        "armada/1/contribution",
        &[
            &bytes(&c["game"]),
            &bytes(&c["seat"]),
            &bytes(&c["key"]),
            &bytes(&c["strike"]),
            &bytes(&c["contribution"]),
        ],
    );
    assert_eq!(hex::encode(computed), c["commitment"]);

    let s = &v["shells"];
    let seed = labelled(
        "armada/1/shells",
        &[
            &bytes(&s["game"]),
            &bytes(&s["strike"]),
            &bytes(&s["host"]),
            &bytes(&s["guest"]),
        ],
    );
    let mut stream = Stream::new(seed);
    let mut left: Vec<u8> = (0..9).collect();
    let order: Vec<u8> = (0..5)
        .map(|_| left.remove(stream.below(left.len() as u16) as usize))
        .collect();
    assert_eq!(order, bytes(&s["order"]));

    let t = &v["timeout"];
    let seed = labelled(
        "armada/1/timeout",
        &[&bytes(&t["game"]), &bytes(&t["prev"]), &bytes(&t["number"])],
    );
    let k = Stream::new(seed).below(t["unmarked"].parse().unwrap());
    assert_eq!(
        vec![k as u8],
        bytes(&t["cell"]),
        "all cells unmarked: the k-th is cell k"
    );
}

#[test]
fn table_join_and_game_id() {
    let v = vectors();
    let t = &v["table"];
    assert_eq!(
        hex::encode(labelled("armada/1/table", &[&bytes(&t["secret"])])),
        t["table"]
    );
    assert_eq!(
        hex::encode(labelled(
            "armada/1/join",
            &[&bytes(&t["secret"]), &bytes(&t["key"])]
        )),
        t["join"]
    );

    let g = &v["game"];
    let settings = labelled("armada/1/settings", &[&bytes(&g["settings"])]);
    let id = labelled(
        "armada/1/game",
        &[
            &bytes(&g["table"]),
            &settings,
            &bytes(&g["number"]),
            &bytes(&g["host_nonce"]),
            &bytes(&g["guest_nonce"]),
            &bytes(&g["host_key"]),
            &bytes(&g["guest_key"]),
        ],
    );
    assert_eq!(hex::encode(id), g["id"]);
}

#[test]
fn a_signed_frame() {
    let v = vectors();
    let f = &v["frame"];
    let key = SigningKey::from_bytes(&bytes(&f["secret_key"]).try_into().unwrap());
    assert_eq!(hex::encode(key.verifying_key().to_bytes()), f["public_key"]);
    let body = bytes(&f["body"]);
    let mut signed = b"armada/1/signature\0".to_vec();
    signed.extend_from_slice(&body);
    let signature = key.sign(&signed).to_bytes();
    assert_eq!(hex::encode(signature), f["signature"]);
    let mut frame = body.clone();
    frame.extend_from_slice(&signature);
    assert_eq!(
        hex::encode(labelled("armada/1/message", &[&frame])),
        f["message_hash"]
    );
}

/// The implementation gives the spec's values too.
#[test]
fn the_implementation_matches_the_vectors() {
    use armada::fair::commit::{Binding, leaf, root_of};
    use armada::fair::shared::{contribution_commitment, shell_order, timeout_cell};
    use armada::fair::sign::frame_hash;
    use armada::fair::table::{game_id, join_proof, table_id};
    use armada::rules::{BoardSize, CellSet, Coord, Seat};

    let v = vectors();
    let arr = |s: &str| -> [u8; 32] { bytes(s).try_into().unwrap() };
    let game = arr(&v["leaf"]["game"]);
    let binding = Binding {
        game,
        seat: Seat::Guest,
        size: BoardSize::STANDARD,
    };
    let e5 = Coord::new(4, 4).unwrap();
    assert_eq!(
        hex::encode(leaf(&binding, e5, true, &[0x22; 16])),
        v["leaf"]["leaf"]
    );
    let decks: CellSet = [e5, Coord::new(5, 4).unwrap()].into_iter().collect();
    let salts: Vec<[u8; 16]> = (0..100u8).map(|i| [i; 16]).collect();
    assert_eq!(
        hex::encode(root_of(&binding, decks, &salts).unwrap()),
        v["root"]["root"]
    );
    let c = &v["contribution"];
    assert_eq!(
        hex::encode(contribution_commitment(
            &game,
            Seat::Host,
            &arr(&c["key"]),
            1,
            &arr(&c["contribution"])
        )),
        c["commitment"]
    );
    let s = &v["shells"];
    assert_eq!(
        shell_order(&game, 2, &arr(&s["host"]), &arr(&s["guest"]))
            .positions()
            .to_vec(),
        bytes(&s["order"])
    );
    let open: CellSet = BoardSize::STANDARD.cells().collect();
    assert_eq!(
        timeout_cell(&game, &arr(&v["timeout"]["prev"]), 9, open).map(|c| c.to_string()),
        Some("E1".into())
    );
    let t = &v["table"];
    assert_eq!(hex::encode(table_id(&arr(&t["secret"]))), t["table"]);
    assert_eq!(
        hex::encode(join_proof(&arr(&t["secret"]), &arr(&t["key"]))),
        t["join"]
    );
    let g = &v["game"];
    let settings = armada_proto::Settings {
        game: armada_proto::GameKind::Armada,
        timer: true,
        move_ms: 15_000,
        answer_ms: 10_000,
        reveal_ms: 30_000,
        grace_ms: 30_000,
    };
    assert_eq!(
        hex::encode(armada_proto::encode_settings(&settings)),
        g["settings"]
    );
    let id = game_id(
        &arr(&g["table"]),
        &settings,
        0,
        &arr(&g["host_nonce"]),
        &arr(&g["guest_nonce"]),
        &arr(&g["host_key"]),
        &arr(&g["guest_key"]),
    );
    assert_eq!(hex::encode(id), g["id"]);
    let f = &v["frame"];
    let mut frame = bytes(&f["body"]);
    frame.extend_from_slice(&bytes(&f["signature"]));
    assert_eq!(hex::encode(frame_hash(&frame)), f["message_hash"]);
    let decoded = armada_proto::Frame::decode(&frame).unwrap();
    assert_eq!(
        decoded.body.payload,
        armada_proto::Payload::Hello {
            key: arr(&f["public_key"]),
            join: Some([0xee; 32])
        }
    );
}
