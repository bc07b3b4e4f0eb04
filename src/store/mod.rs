//! Saved tables on disk: the identity key, and each table's session and transcript,
//! written atomically after every message.
//!
//! Layout of the data directory (the platform's, or `--data-dir`):
//! `identity.key` (the ed25519 secret, 64 bytes, owner-only), and per table
//! `tables/<table id>.session` (the session's `save_state` snapshot: the sea battle's
//! with its secrets, Archimedes' with none to keep; the frames counted but not
//! copied), `tables/<table id>.armada` (the transcript, as `armada verify` reads it,
//! and the snapshot's frames) and `tables/<table id>.meta` (seat, the other side, who
//! plays, and the game when it is not the sea battle); for a game against the
//! computer in the window also `tables/<table id>.computer` (the computer side's key
//! and snapshot, owner-only) and `tables/<table id>.computer.transcript` (its frames,
//! in the transcript format).
//!
//! A save appends the frames taken in since the last one to the transcript, then
//! writes the snapshot through a temporary file renamed over the old one: a save costs
//! the new frames and the small snapshot, not the whole table, and a process killed at
//! any moment leaves a snapshot whose frames are all in the transcript (frames past
//! those it counts, and a frame cut short, were never sent; restoring drops them).
//! The first save of a table in a process writes its whole transcript the same
//! atomic way.
//!
//! Every file but the transcript (whose frames are signed) ends with a check:
//! SHA-256 over a label and the file's body. A disk that flipped a byte gives a
//! [`Damaged`] table, named with how much of its transcript is still intact, and no
//! session is restored from it: secrets that do not open what this side signed would
//! make it sign false answers.
//!
//! `totals.json` keeps the totals across games ([`Totals`]), with the same check; a
//! damaged one is set aside and the totals start again from zero.
//!
//! `archimedes.game` keeps the game of Archimedes against the computer
//! ([`ArchimedesGame`]: its moves, with the same check), replayed through that
//! game's engine when read: a file that does not replay is named damaged.
//! `icehouse.game` keeps the game of Icehouse Armada against the computer
//! ([`IcehouseGame`]: fleets, placements and actions) the same way.
//!
//! Architecture invariant: files only; no game logic, no network.

mod archimedes;
mod icehouse;
mod totals;

pub use archimedes::ArchimedesGame;
pub use icehouse::IcehouseGame;
pub use totals::{
    Against, ArchimedesAgainst, ArchimedesKind, IcehouseAgainst, IcehouseKind, Kind, Outcome,
    Tally, Totals,
};

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use sha2::Digest as _;

use crate::ai::Level;
use crate::fair::sign::Identity;
use crate::session::{EachGame, Session, TableGame, TableSession};

/// The game of Archimedes against the computer.
const ARCHIMEDES_FILE: &str = "archimedes.game";
/// The game of Icehouse Armada against the computer.
const ICEHOUSE_FILE: &str = "icehouse.game";
/// The window's preferences (language, motion, the choices last made).
const WINDOW_FILE: &str = "window.json";

/// The label of a saved file's check.
const CHECK_LABEL: &[u8] = b"armada/store/check/v1";
const CHECK_LEN: usize = 32;

/// The check of a saved file's body.
fn check(body: &[u8]) -> [u8; CHECK_LEN] {
    let mut hasher = sha2::Sha256::new();
    hasher.update(CHECK_LABEL);
    hasher.update(body);
    hasher.finalize().into()
}

/// `body` with its check appended.
fn sealed(mut body: Vec<u8>) -> Vec<u8> {
    let check = check(&body);
    body.extend_from_slice(&check);
    body
}

/// The body of a saved file, if its check holds.
fn unsealed(bytes: &[u8]) -> Option<&[u8]> {
    let split = bytes.len().checked_sub(CHECK_LEN)?;
    let (body, tail) = bytes.split_at(split);
    (check(body) == tail).then_some(body)
}

/// A saved table that cannot be trusted to go on: a file of it is damaged.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "the saved table {id} is damaged ({what}); nothing was signed from it. Its transcript's first {intact} frames are intact; `armada verify {transcript}` checks it",
    id = hex::encode(.table),
    transcript = .transcript.display()
)]
pub struct Damaged {
    pub table: [u8; 32],
    /// Which file, and what is wrong with it.
    pub what: String,
    /// How many frames of the transcript file a table takes in, from the first.
    pub intact: usize,
    pub transcript: PathBuf,
}

/// A totals file that could not be read; no table is touched. Moved aside to `kept`,
/// the totals start again from zero; left in place (`kept` is `None`), saving totals
/// would write over it.
#[derive(Debug, thiserror::Error)]
#[error(
    "{path} cannot be read: the totals start again from zero (the saved games are untouched)",
    path = .path.display()
)]
pub struct TotalsLost {
    pub path: PathBuf,
    pub kept: Option<PathBuf>,
}

/// Who a saved table is played with and by, and how to reach the other player again.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableMeta {
    /// This side's seat.
    pub seat: SavedSeat,
    /// The other side.
    pub other: Other,
    /// Who plays this side.
    pub by: PlayedBy,
    /// Games to play at the table (0: as many as the player likes).
    pub games: u32,
    /// The game the table plays (the sea battle unless it says otherwise, as every
    /// table saved before Archimedes does).
    #[serde(default, skip_serializing_if = "TableGame::is_sea")]
    pub game: TableGame,
    /// Where the host last saw the guest listen: a resumed host tells it there that
    /// it is back (a hint; a wrong one only fails to dial).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knock: Vec<String>,
    /// Why the other player said it cannot go on at this table, once it did (its
    /// save was damaged): a resumed side has nobody to wait for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<String>,
}

/// A seat, as saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SavedSeat {
    Host,
    Guest,
}

impl From<crate::rules::Seat> for SavedSeat {
    fn from(seat: crate::rules::Seat) -> Self {
        match seat {
            crate::rules::Seat::Host => Self::Host,
            crate::rules::Seat::Guest => Self::Guest,
        }
    }
}

impl From<SavedSeat> for crate::rules::Seat {
    fn from(seat: SavedSeat) -> Self {
        match seat {
            SavedSeat::Host => Self::Host,
            SavedSeat::Guest => Self::Guest,
        }
    }
}

/// The other side of a saved table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Other {
    /// The computer at this level, in this process (a window's game; its side is
    /// saved too).
    Computer {
        #[serde(with = "level_name")]
        level: Level,
    },
    /// Another peer: its id, and where to find the table (the host's own listen
    /// addresses, or the guest's copy of the invite's).
    Peer { id: String, addrs: Vec<String> },
}

/// Who plays this side of a saved table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayedBy {
    /// A person at the terminal.
    Person,
    /// A person in the window.
    Window,
    /// A computer level, at a network table.
    Computer(#[serde(with = "level_name")] Level),
    /// A computer level at an Archimedes table between peers.
    #[serde(rename = "archimedes-computer")]
    ArchimedesComputer(#[serde(with = "level_name")] crate::archimedes::Level),
    /// A computer captain at an Icehouse Armada table between peers.
    #[serde(rename = "icehouse-computer")]
    IcehouseComputer(#[serde(with = "level_name")] crate::icehouse::Level),
}

/// A level saved by its name.
mod level_name {
    pub fn serialize<T: std::fmt::Display, S: serde::Serializer>(
        level: &T,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(&level.to_string())
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: std::str::FromStr<Err: std::fmt::Display>,
        D: serde::Deserializer<'de>,
    {
        let name = <String as serde::Deserialize>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl TableMeta {
    /// Whether the table is a game against the computer in the window.
    pub fn is_computer(&self) -> bool {
        matches!(self.other, Other::Computer { .. })
    }
}

/// A table's meta as saved, with its check (over the meta's compact JSON).
#[derive(serde::Serialize, serde::Deserialize)]
struct SealedMeta {
    meta: TableMeta,
    check: String,
}

/// The computer's side of a table played in the window.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct ComputerSide {
    key: Vec<u8>,
    session: Vec<u8>,
}

/// A data directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    /// Per transcript file, how many frames this process has written to it.
    written: Arc<Mutex<HashMap<PathBuf, usize>>>,
}

impl Store {
    /// The store in `dir`, or in the platform's data directory; created if missing.
    pub fn open(dir: Option<&Path>) -> anyhow::Result<Self> {
        let dir = match dir {
            Some(dir) => dir.to_path_buf(),
            None => directories::ProjectDirs::from("", "", "armada")
                .context("this system has no home directory for Armada's data; pass --data-dir")?
                .data_dir()
                .to_path_buf(),
        };
        std::fs::create_dir_all(dir.join("tables"))
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Self {
            dir,
            written: Arc::default(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// This player's identity: loaded, or made once and kept.
    pub fn identity(&self) -> anyhow::Result<Identity> {
        let path = self.dir.join("identity.key");
        match read_saved(&path, MAX_SMALL_FILE) {
            Ok(bytes) => {
                let bytes: [u8; 64] = bytes
                    .try_into()
                    .map_err(|_| anyhow::anyhow!("{} is not an identity key", path.display()))?;
                Identity::from_secret_bytes(&bytes)
                    .with_context(|| format!("{} is not an identity key", path.display()))
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let identity = Identity::generate();
                write_atomic(&path, &identity.to_secret_bytes(), true)?;
                Ok(identity)
            }
            Err(error) => Err(error).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// The window's preferences as last kept, if any could be read.
    pub fn window_prefs(&self) -> Option<Vec<u8>> {
        read_saved(&self.dir.join(WINDOW_FILE), MAX_SMALL_FILE).ok()
    }

    /// Keeps the window's preferences (a convenience: failing changes no game).
    pub fn save_window_prefs(&self, json: &[u8]) -> anyhow::Result<()> {
        write_atomic(&self.dir.join(WINDOW_FILE), json, false)
    }

    /// Where a table's snapshot lives.
    pub fn session_path(&self, table: &[u8; 32]) -> PathBuf {
        self.dir
            .join("tables")
            .join(format!("{}.session", hex::encode(table)))
    }

    /// Where a table's transcript lives.
    pub fn transcript_path(&self, table: &[u8; 32]) -> PathBuf {
        self.dir
            .join("tables")
            .join(format!("{}.armada", hex::encode(table)))
    }

    /// Saves the session: the frames new since the last save are appended to its
    /// transcript, then its snapshot is written atomically.
    pub fn save<S: TableSession>(&self, session: &S) -> anyhow::Result<()> {
        let table = session.table_id();
        self.append_frames(session, &self.transcript_path(&table))?;
        write_atomic(
            &self.session_path(&table),
            &sealed(session.save_state()),
            true,
        )
    }

    /// The table's saved files are damaged: what, and how much of the transcript holds.
    fn damaged(&self, table: &[u8; 32], what: String) -> Damaged {
        let transcript = self.transcript_path(table);
        let intact = read_saved(&transcript, MAX_TRANSCRIPT_FILE)
            .ok()
            .and_then(|bytes| armada_proto::decode_transcript_prefix(&bytes).ok())
            // Which game the table plays may be what is damaged: the longest run
            // any game's observer takes in.
            .map_or(0, |(saved, _)| {
                let mut longest = Intact {
                    table: *table,
                    frames: &saved.frames,
                    most: 0,
                };
                for game in TableGame::ALL {
                    game.ask(&mut longest);
                }
                longest.most
            });
        Damaged {
            table: *table,
            what,
            intact,
            transcript,
        }
    }

    /// Appends to the transcript file at `path` the frames of `session` it lacks (the
    /// whole transcript, atomically, the first time in this process).
    fn append_frames<S: TableSession>(&self, session: &S, path: &Path) -> anyhow::Result<()> {
        let total = session.transcript_len();
        let mut written = self
            .written
            .lock()
            .expect("no save panics while holding it");
        match written.get(path) {
            Some(&n) if n <= total => {
                let mut bytes = Vec::new();
                for (seat, frame) in session.transcript_from(n) {
                    bytes.extend(armada_proto::encode_saved_frame(
                        &armada_proto::SavedFrame {
                            from: crate::fair::wire::seat(seat),
                            bytes: frame,
                        },
                    ));
                }
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .and_then(|mut file| file.write_all(&bytes))
                    .with_context(|| format!("cannot save {}", path.display()))?;
            }
            _ => {
                anyhow::ensure!(
                    session.is_whole(),
                    "cannot save {}: its table was compacted before it was first saved",
                    path.display()
                );
                write_atomic(path, &session.transcript_file(), false)?;
            }
        }
        written.insert(path.to_path_buf(), total);
        Ok(())
    }

    /// The frames saved in the transcript file at `path` (none if there is no file),
    /// up to a frame cut short; the next save there writes the file anew.
    fn saved_frames(&self, path: &Path) -> anyhow::Result<Vec<armada_proto::SavedFrame>> {
        let frames = match read_saved(path, MAX_TRANSCRIPT_FILE) {
            Ok(bytes) => {
                armada_proto::decode_transcript_prefix(&bytes)
                    .with_context(|| format!("{} is damaged", path.display()))?
                    .0
                    .frames
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(error) => {
                return Err(error).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        self.written
            .lock()
            .expect("no save panics while holding it")
            .remove(path);
        Ok(frames)
    }

    /// The saved session of table `table`, for `identity`, at time `now` (`None` if
    /// there is none): its snapshot with the frames of its transcript.
    pub fn restore<S: TableSession>(
        &self,
        table: &[u8; 32],
        identity: Identity,
        now: crate::session::Millis,
    ) -> anyhow::Result<Option<S>> {
        let path = self.session_path(table);
        let Some(snapshot) = self
            .load(table)
            .map_err(|e| self.damaged(table, format!("{e:#}")))?
        else {
            return Ok(None);
        };
        let Some(snapshot) = unsealed(&snapshot) else {
            let what = format!("{} fails its check", path.display());
            return Err(self.damaged(table, what).into());
        };
        let frames = self
            .saved_frames(&self.transcript_path(table))
            .map_err(|e| self.damaged(table, format!("{e:#}")))?;
        let session = S::restore_with(identity, snapshot, &frames, now).map_err(|e| {
            // A frame that does not check out is the transcript's; the rest, the snapshot's.
            let file = match e {
                crate::session::RestoreError::Frame { .. } => self.transcript_path(table),
                _ => path.clone(),
            };
            self.damaged(table, format!("{}: {e}", file.display()))
        })?;
        Ok(Some(session))
    }

    /// Whether table `table`'s saved session passes its seal and its transcript reads
    /// (short of replaying the frames, which needs the game): what a stopped process
    /// may promise that `armada resume` continues.
    pub fn looks_intact(&self, table: &[u8; 32]) -> bool {
        matches!(self.load(table), Ok(Some(snapshot)) if unsealed(&snapshot).is_some())
            && self.saved_frames(&self.transcript_path(table)).is_ok()
    }

    /// Saves how to reach the table's other player again (written once, at the start).
    pub fn save_meta(&self, table: &[u8; 32], meta: &TableMeta) -> anyhow::Result<()> {
        let body = serde_json::to_string(meta).expect("a table's meta is plain data");
        let sealed = SealedMeta {
            check: hex::encode(check(body.as_bytes())),
            meta: meta.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&sealed).expect("a table's meta is plain data");
        write_atomic(&self.meta_path(table), &bytes, false)
    }

    /// Whether a table `table` was saved here (its meta file is there, read or not).
    pub fn has_table(&self, table: &[u8; 32]) -> bool {
        self.meta_path(table).exists()
    }

    /// How to reach a table's other player, as saved at its start.
    pub fn load_meta(&self, table: &[u8; 32]) -> anyhow::Result<TableMeta> {
        let path = self.meta_path(table);
        let bytes = read_saved(&path, MAX_SMALL_FILE)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let sealed: Option<SealedMeta> = serde_json::from_slice(&bytes).ok();
        match sealed {
            Some(sealed)
                if serde_json::to_string(&sealed.meta)
                    .is_ok_and(|body| hex::encode(check(body.as_bytes())) == sealed.check) =>
            {
                Ok(sealed.meta)
            }
            _ => {
                let what = format!("{} fails its check", path.display());
                Err(self.damaged(table, what).into())
            }
        }
    }

    /// A table's meta as its file reads, its check failed or not: only to tell the
    /// other player that a damaged table cannot go on. A wrong address in it costs a
    /// failed dial, nothing more (the peer is authenticated by its identity).
    pub fn meta_unchecked(&self, table: &[u8; 32]) -> Option<TableMeta> {
        let bytes = read_saved(&self.meta_path(table), MAX_SMALL_FILE).ok()?;
        serde_json::from_slice::<SealedMeta>(&bytes)
            .ok()
            .map(|sealed| sealed.meta)
    }

    fn meta_path(&self, table: &[u8; 32]) -> PathBuf {
        self.dir
            .join("tables")
            .join(format!("{}.meta", hex::encode(table)))
    }

    /// The saved snapshot of a table, if there is one.
    pub fn load(&self, table: &[u8; 32]) -> anyhow::Result<Option<Vec<u8>>> {
        let path = self.session_path(table);
        match read_saved(&path, MAX_SMALL_FILE) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// Saves the computer's side of a window table: its key and its session (its
    /// frames, in the order it took them in, appended to a transcript of its own).
    pub fn save_computer(&self, session: &Session) -> anyhow::Result<()> {
        let table = session.table().id();
        self.append_frames(session, &self.computer_transcript_path(&table))?;
        let side = ComputerSide {
            key: session.identity().to_secret_bytes().to_vec(),
            session: session.save_state(),
        };
        let bytes = postcard::to_stdvec(&side).context("cannot encode the computer's side")?;
        write_atomic(
            &self.computer_path(&session.table().id()),
            &sealed(bytes),
            true,
        )
    }

    /// The computer's side of a window table, as saved.
    pub fn load_computer(
        &self,
        table: &[u8; 32],
        now: crate::session::Millis,
    ) -> anyhow::Result<Session> {
        let path = self.computer_path(table);
        let bytes = read_saved(&path, MAX_SMALL_FILE)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let damaged = |what: &str| self.damaged(table, format!("{}: {what}", path.display()));
        let side: ComputerSide = unsealed(&bytes)
            .and_then(|body| postcard::from_bytes(body).ok())
            .ok_or_else(|| damaged("it fails its check"))?;
        let key = <[u8; 64]>::try_from(side.key.as_slice())
            .ok()
            .and_then(|k| Identity::from_secret_bytes(&k))
            .ok_or_else(|| damaged("a damaged key"))?;
        let frames = self
            .saved_frames(&self.computer_transcript_path(table))
            .map_err(|e| damaged(&format!("{e:#}")))?;
        Ok(Session::restore_with(key, &side.session, &frames, now)
            .map_err(|e| damaged(&e.to_string()))?)
    }

    fn computer_transcript_path(&self, table: &[u8; 32]) -> PathBuf {
        self.dir
            .join("tables")
            .join(format!("{}.computer.transcript", hex::encode(table)))
    }

    /// Whether `table` is a game against the computer (its side is saved beside it),
    /// whatever its meta says or whether it reads.
    pub fn is_computer_table(&self, table: &[u8; 32]) -> bool {
        self.computer_path(table).exists()
    }

    fn computer_path(&self, table: &[u8; 32]) -> PathBuf {
        self.dir
            .join("tables")
            .join(format!("{}.computer", hex::encode(table)))
    }

    /// The totals across games: none before the first is counted.
    pub fn totals(&self) -> Result<Totals, TotalsLost> {
        let path = self.dir.join("totals.json");
        let bytes = match read_saved(&path, MAX_SMALL_FILE) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Totals::default());
            }
            // Left where it is: whoever reads `kept: None` must not write over it.
            Err(_) => return Err(TotalsLost { path, kept: None }),
        };
        Totals::from_bytes(&bytes).ok_or_else(|| {
            // Kept for a person to look at, beside any kept before; the next save
            // starts a fresh file.
            let aside = (0..1000)
                .map(|n| match n {
                    0 => self.dir.join("totals.damaged.json"),
                    n => self.dir.join(format!("totals.damaged.{n}.json")),
                })
                .find(|aside| !aside.exists());
            let kept = aside.and_then(|aside| std::fs::rename(&path, &aside).ok().map(|()| aside));
            TotalsLost { path, kept }
        })
    }

    /// The saved game of Archimedes against the computer, if there is one; why it
    /// cannot be played on, if it is damaged.
    pub fn archimedes(&self) -> Result<Option<ArchimedesGame>, String> {
        let path = self.dir.join(ARCHIMEDES_FILE);
        match read_saved(&path, MAX_SMALL_FILE) {
            Ok(bytes) => ArchimedesGame::from_bytes(&bytes)
                .map(Some)
                .map_err(|why| format!("{} is damaged: {why}", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("{} cannot be read: {error}", path.display())),
        }
    }

    /// Saves the game of Archimedes against the computer atomically (after every move).
    pub fn save_archimedes(&self, game: &ArchimedesGame) -> anyhow::Result<()> {
        write_atomic(&self.dir.join(ARCHIMEDES_FILE), &game.to_bytes(), false)
    }

    /// The saved game of Icehouse Armada against the computer, if there is one; why
    /// it cannot be played on, if it is damaged.
    pub fn icehouse(&self) -> Result<Option<IcehouseGame>, String> {
        let path = self.dir.join(ICEHOUSE_FILE);
        match read_saved(&path, MAX_SMALL_FILE) {
            Ok(bytes) => IcehouseGame::from_bytes(&bytes)
                .map(Some)
                .map_err(|why| format!("{} is damaged: {why}", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("{} cannot be read: {error}", path.display())),
        }
    }

    /// Saves the game of Icehouse Armada against the computer atomically.
    pub fn save_icehouse(&self, game: &IcehouseGame) -> anyhow::Result<()> {
        write_atomic(&self.dir.join(ICEHOUSE_FILE), &game.to_bytes(), false)
    }

    /// Saves the totals atomically.
    pub fn save_totals(&self, totals: &Totals) -> anyhow::Result<()> {
        write_atomic(&self.dir.join("totals.json"), &totals.to_bytes(), false)
    }

    /// The ids of the tables with a saved snapshot, newest first.
    pub fn tables(&self) -> anyhow::Result<Vec<[u8; 32]>> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(self.dir.join("tables"))? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".session")) else {
                continue;
            };
            let Ok(id) = hex::decode(id) else { continue };
            let Ok(id) = <[u8; 32]>::try_from(id) else {
                continue;
            };
            let modified = entry.metadata()?.modified()?;
            found.push((modified, id));
        }
        found.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        Ok(found.into_iter().map(|(_, id)| id).collect())
    }
}

/// The longest run of a transcript's `frames` any game's observer takes in.
struct Intact<'a> {
    table: [u8; 32],
    frames: &'a [armada_proto::SavedFrame],
    most: usize,
}

impl EachGame for Intact<'_> {
    fn game<S: TableSession>(&mut self) {
        self.most = self.most.max(S::intact(self.table, self.frames));
    }
}

/// The most a saved file other than a transcript may hold: far more than any
/// snapshot, totals or game file grows to.
const MAX_SMALL_FILE: u64 = 16 * 1024 * 1024;

/// A transcript file's most: one byte short of what could never be a transcript.
pub(crate) const MAX_TRANSCRIPT_FILE: u64 = armada_proto::MAX_TRANSCRIPT as u64;

/// The bytes of the saved file at `path`, if it is a regular file of at most `most`
/// bytes: a damaged data folder (a file grown huge, a pipe, a link to a device)
/// gives an error, never a hang or all of memory. A missing file stays `NotFound`.
pub(crate) fn read_saved(path: &Path, most: u64) -> std::io::Result<Vec<u8>> {
    let refuse = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refuse("it is not a regular file".into()));
    }
    if meta.len() > most {
        return Err(refuse(format!("it holds more than {most} bytes")));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, most + 1), &mut bytes)?;
    if bytes.len() as u64 > most {
        return Err(refuse(format!("it holds more than {most} bytes")));
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a
/// rename; `private` files are readable by their owner only.
fn write_atomic(path: &Path, bytes: &[u8], private: bool) -> anyhow::Result<()> {
    let dir = path.parent().context("a file path without a directory")?;
    let mut file = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::PermissionsExt as _;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = private;
    file.write_all(bytes)?;
    file.persist(path)
        .with_context(|| format!("cannot save {}", path.display()))?;
    Ok(())
}
