//! PROTOCOL.md's test vectors, recomputed straight from the spec with `sha2` and
//! `ed25519-dalek` — never through `armada::fair` — and then checked against the
//! implementation too, so the spec, the primitives and the code all agree.

use std::collections::HashMap;

use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

fn vectors() -> HashMap<String, HashMap<String, String>> {
    let spec = include_str!("../../proto/PROTOCOL.md");
    let mut all = HashMap::new();
    for block in spec.split("```vector ").skip(1) {
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

/// Every level of a 10×10 board's tree, straight from the spec: level 0 is the 128
/// leaves (cell `i` with `salts[i]`, pads from 100 on), the last level the root alone.
fn levels(game: &[u8], seat: &[u8], decks: &[u8], salts: &[[u8; 16]]) -> Vec<Vec<[u8; 32]>> {
    let leaves: Vec<[u8; 32]> = (0..128u16)
        .map(|i| {
            if i < 100 {
                let cell = i as u8;
                let content = [u8::from(decks.contains(&cell))];
                labelled(
                    "armada/1/leaf",
                    &[game, seat, &[cell], &content, &salts[usize::from(i)]],
                )
            } else {
                labelled("armada/1/pad", &[&i.to_be_bytes()])
            }
        })
        .collect();
    let mut levels = vec![leaves];
    while let Some(top) = levels.last().filter(|level| level.len() > 1) {
        let up: Vec<[u8; 32]> = top
            .chunks(2)
            .map(|pair| labelled("armada/1/node", &[&pair[0], &pair[1]]))
            .collect();
        levels.push(up);
    }
    levels
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
    let vectors = vectors();
    let leaf = &vectors["leaf"];
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

    let pad = &vectors["pad"];
    assert_eq!(
        hex::encode(labelled("armada/1/pad", &[&bytes(&pad["index"])])),
        pad["pad"]
    );

    let root = &vectors["root"];
    let game = bytes(&root["game"]);
    let seat = bytes(&root["seat"]);
    let decks = bytes(&root["decks"]);
    let salts: Vec<[u8; 16]> = (0..100u8).map(|cell| [cell; 16]).collect();
    let level = levels(&game, &seat, &decks, &salts)
        .pop()
        .expect("a tree has a root");
    assert_eq!(hex::encode(level[0]), root["root"]);
}

#[test]
fn contribution_shells_and_timeout() {
    let vectors = vectors();
    let contrib = &vectors["contribution"];
    let computed = labelled(
        "armada/1/contribution",
        &[
            &bytes(&contrib["game"]),
            &bytes(&contrib["seat"]),
            &bytes(&contrib["key"]),
            &bytes(&contrib["strike"]),
            &bytes(&contrib["contribution"]),
        ],
    );
    assert_eq!(hex::encode(computed), contrib["commitment"]);

    let shells = &vectors["shells"];
    let seed = labelled(
        "armada/1/shells",
        &[
            &bytes(&shells["game"]),
            &bytes(&shells["strike"]),
            &bytes(&shells["host"]),
            &bytes(&shells["guest"]),
        ],
    );
    let mut stream = Stream::new(seed);
    let mut left: Vec<u8> = (0..9).collect();
    let order: Vec<u8> = (0..5)
        .map(|_| left.remove(stream.below(left.len() as u16) as usize))
        .collect();
    assert_eq!(order, bytes(&shells["order"]));

    let timeout = &vectors["timeout"];
    let seed = labelled(
        "armada/1/timeout",
        &[
            &bytes(&timeout["game"]),
            &bytes(&timeout["prev"]),
            &bytes(&timeout["number"]),
        ],
    );
    let k = Stream::new(seed).below(timeout["unmarked"].parse().unwrap());
    assert_eq!(
        vec![k as u8],
        bytes(&timeout["cell"]),
        "all cells unmarked: the k-th is cell k"
    );
}

#[test]
fn table_join_and_game_id() {
    let vectors = vectors();
    let tab = &vectors["table"];
    assert_eq!(
        hex::encode(labelled("armada/1/table", &[&bytes(&tab["secret"])])),
        tab["table"]
    );
    assert_eq!(
        hex::encode(labelled(
            "armada/1/join",
            &[&bytes(&tab["secret"]), &bytes(&tab["key"])]
        )),
        tab["join"]
    );

    let gid = &vectors["game"];
    let settings = labelled("armada/1/settings", &[&bytes(&gid["settings"])]);
    let id = labelled(
        "armada/1/game",
        &[
            &bytes(&gid["table"]),
            &settings,
            &bytes(&gid["number"]),
            &bytes(&gid["host_nonce"]),
            &bytes(&gid["guest_nonce"]),
            &bytes(&gid["host_key"]),
            &bytes(&gid["guest_key"]),
        ],
    );
    assert_eq!(hex::encode(id), gid["id"]);
}

#[test]
fn a_signed_frame() {
    let vectors = vectors();
    let frame_vector = &vectors["frame"];
    let key = SigningKey::from_bytes(&bytes(&frame_vector["secret_key"]).try_into().unwrap());
    assert_eq!(
        hex::encode(key.verifying_key().to_bytes()),
        frame_vector["public_key"]
    );
    let body = bytes(&frame_vector["body"]);
    let mut signed = b"armada/1/signature\0".to_vec();
    signed.extend_from_slice(&body);
    let signature = key.sign(&signed).to_bytes();
    assert_eq!(hex::encode(signature), frame_vector["signature"]);
    let mut frame = body.clone();
    frame.extend_from_slice(&signature);
    assert_eq!(
        hex::encode(labelled("armada/1/message", &[&frame])),
        frame_vector["message_hash"]
    );
}

/// A cell's opening: each sibling of the `path` vector found in a tree built here, the
/// path folded from the leaf by the index bits to the root; then the implementation
/// checks that opening and builds its own openings the same way.
#[test]
fn a_cell_opens_along_its_path() {
    use armada::fair::commit::{Binding, Opening, OpeningError, SealedBoard};
    use armada::rules::{BoardSize, CellSet, Coord, Seat};

    let vectors = vectors();
    let path = &vectors["path"];
    let board = &vectors["root"];
    let (game, seat) = (bytes(&path["game"]), bytes(&path["seat"]));
    let decks = bytes(&board["decks"]);
    let index = bytes(&path["cell"])[0];
    let content = bytes(&path["content"]);
    let salt = bytes(&path["salt"]);
    let siblings: Vec<[u8; 32]> = path["path"]
        .split_whitespace()
        .map(|h| bytes(h).try_into().unwrap())
        .collect();
    assert_eq!(
        (&path["game"], &path["seat"]),
        (&board["game"], &board["seat"]),
        "the root vector's board"
    );

    let salts: Vec<[u8; 16]> = (0..100u8).map(|i| [i; 16]).collect();
    let tree = levels(&game, &seat, &decks, &salts);
    assert_eq!(
        siblings.len(),
        7,
        "128 leaves: one sibling per level below the root"
    );
    assert_eq!(tree.len(), siblings.len() + 1);
    assert_eq!(salt, salts[usize::from(index)]);
    assert_eq!(content, [u8::from(decks.contains(&index))]);
    let mut running = labelled("armada/1/leaf", &[&game, &seat, &[index], &content, &salt]);
    assert_eq!(running, tree[0][usize::from(index)]);
    for (j, sibling) in siblings.iter().enumerate() {
        assert_eq!(
            *sibling,
            tree[j][(usize::from(index) >> j) ^ 1],
            "the sibling at level {j}"
        );
        running = if (index >> j) & 1 == 0 {
            labelled("armada/1/node", &[&running, sibling])
        } else {
            labelled("armada/1/node", &[sibling, &running])
        };
    }
    assert_eq!(hex::encode(running), path["root"]);
    assert_eq!(path["root"], board["root"]);

    // The implementation accepts exactly this path: not reordered, not cut, not padded.
    let side = bytes(&board["side"])[0];
    let at = |i: u8| Coord::new(i % side, i / side).unwrap();
    assert_eq!(seat, [1], "the guest's board");
    let binding = Binding {
        game: game.as_slice().try_into().unwrap(),
        seat: Seat::Guest,
        size: BoardSize::new(side).unwrap(),
    };
    let root: [u8; 32] = bytes(&path["root"]).try_into().unwrap();
    let opening = Opening {
        cell: at(index),
        deck: content == [1],
        salt: salt.as_slice().try_into().unwrap(),
        path: siblings.clone(),
    };
    assert_eq!(opening.check(&binding, &root), Ok(()));
    let mut reordered = opening.clone();
    reordered.path.reverse();
    assert_eq!(
        reordered.check(&binding, &root),
        Err(OpeningError::Mismatch(at(index)))
    );
    for got in [6, 8] {
        let mut wrong = opening.clone();
        wrong.path.resize(got, root);
        let want = OpeningError::PathLength {
            cell: at(index),
            got,
            want: 7,
        };
        assert_eq!(wrong.check(&binding, &root), Err(want), "{got} siblings");
    }

    // Its own opening of the cell is the same path in its own tree. The crate seals
    // only with fresh salts from the operating system, so the tree is rebuilt here
    // from the salts it reveals.
    let deck_cells: CellSet = decks.iter().map(|&i| at(i)).collect();
    let sealed = SealedBoard::seal(binding, deck_cells).unwrap();
    let fresh: Vec<[u8; 16]> = sealed.salts().copied().collect();
    let tree = levels(&game, &seat, &decks, &fresh);
    assert_eq!(sealed.root(), tree[tree.len() - 1][0]);
    let own = sealed.open(at(index));
    let expected: Vec<[u8; 32]> = (0..siblings.len())
        .map(|j| tree[j][(usize::from(index) >> j) ^ 1])
        .collect();
    assert_eq!(own.path, expected);
    assert_eq!((own.cell, own.deck), (at(index), true));
    assert_eq!(own.salt, fresh[usize::from(index)]);
    assert_eq!(own.check(&binding, &sealed.root()), Ok(()));
}

/// The implementation gives the spec's values too.
#[test]
fn the_implementation_matches_the_vectors() {
    use armada::fair::commit::{Binding, leaf, root_of};
    use armada::fair::shared::{contribution_commitment, shell_order, timeout_cell};
    use armada::fair::sign::frame_hash;
    use armada::fair::table::{game_id, join_proof, table_id};
    use armada::rules::{BoardSize, CellSet, Coord, Seat};

    let vectors = vectors();
    let arr = |s: &str| -> [u8; 32] { bytes(s).try_into().unwrap() };
    let game = arr(&vectors["leaf"]["game"]);
    let binding = Binding {
        game,
        seat: Seat::Guest,
        size: BoardSize::STANDARD,
    };
    let e5 = Coord::new(4, 4).unwrap();
    assert_eq!(
        hex::encode(leaf(&binding, e5, true, &[0x22; 16])),
        vectors["leaf"]["leaf"]
    );
    let decks: CellSet = [e5, Coord::new(5, 4).unwrap()].into_iter().collect();
    let salts: Vec<[u8; 16]> = (0..100u8).map(|i| [i; 16]).collect();
    assert_eq!(
        hex::encode(root_of(&binding, decks, &salts).unwrap()),
        vectors["root"]["root"]
    );
    let contrib = &vectors["contribution"];
    assert_eq!(
        hex::encode(contribution_commitment(
            &game,
            Seat::Host,
            &arr(&contrib["key"]),
            1,
            &arr(&contrib["contribution"])
        )),
        contrib["commitment"]
    );
    let shells = &vectors["shells"];
    assert_eq!(
        shell_order(&game, 2, &arr(&shells["host"]), &arr(&shells["guest"]))
            .positions()
            .to_vec(),
        bytes(&shells["order"])
    );
    let open: CellSet = BoardSize::STANDARD.cells().collect();
    assert_eq!(
        timeout_cell(&game, &arr(&vectors["timeout"]["prev"]), 9, open).map(|c| c.to_string()),
        Some("E1".into())
    );
    let tab = &vectors["table"];
    assert_eq!(hex::encode(table_id(&arr(&tab["secret"]))), tab["table"]);
    assert_eq!(
        hex::encode(join_proof(&arr(&tab["secret"]), &arr(&tab["key"]))),
        tab["join"]
    );
    let gid = &vectors["game"];
    let settings = armada_proto::Settings {
        game: armada_proto::GameKind::Armada,
        move_ms: 15_000,
        answer_ms: 10_000,
        reveal_ms: 30_000,
        grace_ms: 30_000,
    };
    assert_eq!(
        hex::encode(armada_proto::encode_settings(&settings)),
        gid["settings"]
    );
    let id = game_id(
        &arr(&gid["table"]),
        &settings,
        0,
        &arr(&gid["host_nonce"]),
        &arr(&gid["guest_nonce"]),
        &arr(&gid["host_key"]),
        &arr(&gid["guest_key"]),
    );
    assert_eq!(hex::encode(id), gid["id"]);
    let frame_vector = &vectors["frame"];
    let mut frame = bytes(&frame_vector["body"]);
    frame.extend_from_slice(&bytes(&frame_vector["signature"]));
    assert_eq!(
        hex::encode(frame_hash(&frame)),
        frame_vector["message_hash"]
    );
    let decoded = armada_proto::Frame::decode(&frame).unwrap();
    assert_eq!(
        decoded.body.payload,
        armada_proto::Payload::Hello {
            key: arr(&frame_vector["public_key"]),
            join: Some([0xee; 32])
        }
    );
}

/// A short code: its words' indices in the project's list, its DHT key (recomputed
/// here with SHA-256 and through the wire crate), and the hashes of the handshake.
#[test]
fn short_code_key_password_confirmations_and_proof() {
    let vectors = vectors();
    let code = &vectors["code"];
    let words: Vec<&str> = code["words"].split(' ').collect();
    let indices = bytes(&code["indices"].replace(' ', ""));
    for (word, index) in words.iter().zip(&indices) {
        assert_eq!(armada_proto::WORDS[usize::from(*index)], *word);
    }
    let rendezvous: u16 = code["rendezvous"].parse().unwrap();
    let mut dht = vec![0x12, 0x20];
    dht.extend(Sha256::digest(
        format!("armada/v1/table/{rendezvous:04}").as_bytes(),
    ));
    assert_eq!(hex::encode(&dht), code["dht_key"]);
    assert_eq!(
        hex::encode(armada_proto::ShortCode::rendezvous_key(rendezvous)),
        code["dht_key"]
    );
    let parsed =
        armada_proto::ShortCode::parse(&format!("{rendezvous}-{}-{}", words[0], words[1])).unwrap();
    let mut password = rendezvous.to_be_bytes().to_vec();
    password.extend(&indices);
    assert_eq!(parsed.password().to_vec(), password);
    assert_eq!(
        hex::encode(labelled("armada/1/code-password", &[&password])),
        code["password"]
    );
    let shared = bytes(&code["shared"]);
    assert_eq!(
        hex::encode(labelled("armada/1/code-host", &[&shared])),
        code["host_confirm"]
    );
    assert_eq!(
        hex::encode(labelled("armada/1/code-guest", &[&shared])),
        code["guest_confirm"]
    );
    let key = labelled("armada/1/code-key", &[&shared]);
    assert_eq!(hex::encode(key), code["code_key"]);
    assert_eq!(
        hex::encode(labelled(
            "armada/1/code-join",
            &[&bytes(&code["secret"]), &key, &bytes(&code["key"])]
        )),
        code["join"]
    );
}

/// PROTOCOL.md §9: an Archimedes table's settings and a `Move` frame, built byte by
/// byte from the spec's encoding, signed with `ed25519-dalek`, then encoded by the
/// implementation and checked by its Archimedes observer's rules of encoding.
#[test]
fn an_archimedes_move_frame() {
    let vectors = vectors();
    let v = &vectors["archimedes"];
    // Settings: GameKind 2 (Archimedes) side 8; move_ms 60,000 as a varint; 0; 0; 0.
    let settings = [&[0x02, 0x08][..], &[0xe0, 0xd4, 0x03], &[0, 0, 0]].concat();
    assert_eq!(hex::encode(&settings), v["settings"]);
    let mut body = vec![0x03]; // version 3
    body.extend([0x99; 32]); // table
    body.push(0x00); // from: Host
    body.push(0x04); // seq 4
    body.extend([0x77; 32]); // prev
    body.extend([0x66; 32]); // seen
    body.push(0x11); // Payload 17: Move
    body.extend([0x55; 32]); // game
    body.extend([0x02, 0x09, 0x1b]); // number 2, from 9 (B2), to 27 (D4)
    assert_eq!(hex::encode(&body), v["body"]);
    let key = SigningKey::from_bytes(&bytes(&v["secret_key"]).try_into().unwrap());
    let mut signed = b"armada/1/signature\0".to_vec();
    signed.extend_from_slice(&body);
    assert_eq!(hex::encode(key.sign(&signed).to_bytes()), v["signature"]);

    let ours = armada_proto::encode_settings(&armada_proto::Settings {
        game: armada_proto::GameKind::Archimedes { side: 8 },
        move_ms: 60_000,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms: 0,
    });
    assert_eq!(ours, settings);
    let ours = armada_proto::encode_body(&armada_proto::Body {
        version: 3,
        table: [0x99; 32],
        from: armada_proto::Seat::Host,
        seq: 4,
        prev: [0x77; 32],
        seen: [0x66; 32],
        payload: armada_proto::Payload::Move {
            game: [0x55; 32],
            number: 2,
            from: 9,
            to: 27,
        },
    });
    assert_eq!(ours, body);
    // B2 and D4 on 8×8 are the cells 9 and 27 of the spec's numbering.
    let size = armada::archimedes::Position::start(8).unwrap().size();
    let mv = armada::archimedes::Move::parse("B2-D4", size).unwrap();
    assert_eq!(
        (
            mv.from.row() * 8 + mv.from.col(),
            mv.to.row() * 8 + mv.to.col()
        ),
        (9, 27)
    );
}

/// Zigzag then LEB128, as postcard writes an `i32`.
fn zigzag(n: i32) -> Vec<u8> {
    let mut v = ((n << 1) ^ (n >> 31)) as u32;
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// PROTOCOL.md §10: an Icehouse table's settings, a placement commitment and a step
/// frame, built byte by byte from the spec with `sha2` and `ed25519-dalek`, then by
/// the implementation.
#[test]
fn an_icehouse_commitment_and_step_frame() {
    let vectors = vectors();
    let v = &vectors["icehouse"];
    // Icehouse (3), Basic (0), Flagship (1), host heavy; move_ms 90,000; 0; 0; 0.
    let settings = [
        &[0x03, 0x00, 0x01, 0x01][..],
        &[0x90, 0xbf, 0x05],
        &[0, 0, 0],
    ]
    .concat();
    assert_eq!(hex::encode(&settings), v["settings"]);
    // One large ship (size 2), stern (100 000, 100 000), bow (100 000, 146 229), flagship.
    let mut ships = vec![0x01, 0x02];
    for n in [100_000, 100_000, 100_000, 146_229] {
        ships.extend(zigzag(n));
    }
    ships.push(0x01);
    assert_eq!(hex::encode(&ships), v["ships"]);
    let commitment = labelled(
        "armada/1/icehouse",
        &[&[0x55; 32], &[0], &[0x22; 32], &ships],
    );
    assert_eq!(hex::encode(commitment), v["commitment"]);
    let mut body = vec![0x03];
    body.extend([0x99; 32]);
    body.push(0x00); // from: Host
    body.push(0x05); // seq 5
    body.extend([0x77; 32]);
    body.extend([0x66; 32]);
    body.push(0x12); // Payload 18: Ice
    body.extend([0x55; 32]);
    body.push(0x07); // step 7
    body.extend([0x03, 0x00, 0x01]); // Move, ship 0, one bow
    body.extend(zigzag(100_000));
    body.extend(zigzag(192_458));
    assert_eq!(hex::encode(&body), v["body"]);
    let key = SigningKey::from_bytes(&bytes(&v["secret_key"]).try_into().unwrap());
    let mut signed = b"armada/1/signature\0".to_vec();
    signed.extend_from_slice(&body);
    assert_eq!(hex::encode(key.sign(&signed).to_bytes()), v["signature"]);

    // The implementation: the same settings, commitment and body.
    let ours = armada_proto::encode_settings(&armada_proto::Settings {
        game: armada_proto::GameKind::Icehouse {
            setup: armada_proto::IceSetup::Basic,
            goal: armada_proto::IceGoal::Flagship,
            host_heavy: true,
        },
        move_ms: 90_000,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms: 0,
    });
    assert_eq!(ours, settings);
    let ship = armada::icehouse::Placed {
        size: armada::icehouse::Size::Large,
        pose: armada::icehouse::Pose::new(
            armada::icehouse::Point::new(100_000, 100_000),
            armada::icehouse::Point::new(100_000, 146_229),
        ),
        flagship: true,
    };
    assert_eq!(
        armada::fair::icehouse::commitment(
            &[0x55; 32],
            armada::rules::Seat::Host,
            &[0x22; 32],
            &[ship]
        ),
        commitment
    );
    let ours = armada_proto::encode_body(&armada_proto::Body {
        version: 3,
        table: [0x99; 32],
        from: armada_proto::Seat::Host,
        seq: 5,
        prev: [0x77; 32],
        seen: [0x66; 32],
        payload: armada_proto::Payload::Ice {
            game: [0x55; 32],
            number: 7,
            act: armada_proto::IceAct::Move {
                ship: 0,
                bows: vec![armada_proto::IcePoint {
                    x: 100_000,
                    y: 192_458,
                }],
            },
        },
    });
    assert_eq!(ours, body);
}
