//! Back to a saved network table: which one, resuming it as its seat, and telling the other player when the save is damaged.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The saved network table `table` (its id in hex), or the newest one, and the
/// game it plays: what [`resume`] needs to be called with.
pub fn saved_table(store: &Store, table: Option<&str>) -> anyhow::Result<([u8; 32], TableGame)> {
    let id = if let Some(text) = table {
        hex::decode(text.trim())
            .ok()
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .ok_or_else(|| {
                anyhow::anyhow!("{text:?} is not a table id: one is 64 hex digits (0–9, a–f)")
            })?
    } else {
        newest_network_table(store)?
    };
    if !store.has_table(&id) {
        anyhow::bail!("there is no saved table {} here", hex::encode(id));
    }
    let meta = store.load_meta(&id)?;
    anyhow::ensure!(
        !meta.is_computer(),
        "that table is a game against the computer: open the window (`armada`) to resume it"
    );
    Ok((id, meta.game))
}

/// The newest network table; a damaged one is named, not passed over for an older
/// one (a game against the computer is the window's to resume).
fn newest_network_table(store: &Store) -> anyhow::Result<[u8; 32]> {
    for id in store.tables()? {
        match store.load_meta(&id) {
            Ok(meta) if meta.is_computer() => {}
            Ok(_) => return Ok(id),
            Err(error) if !store.is_computer_table(&id) => return Err(error),
            Err(_) => {}
        }
    }
    anyhow::bail!("there is no saved network table to resume")
}

/// Continues the saved table `id` of game `G` ([`saved_table`] finds it): the
/// session as it was saved, the other player found again where the table's meta says.
pub async fn resume<G: Game>(
    mut seating: Seating<G>,
    id: [u8; 32],
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    let meta = seating.store.load_meta(&id)?;
    anyhow::ensure!(
        meta.game == G::GAME,
        "that table plays {:?}, not {:?}",
        meta.game,
        G::GAME
    );
    let identity = seating.store.identity()?;
    let Other::Peer { id: peer, addrs } = &meta.other else {
        anyhow::bail!(
            "that table is a game against the computer: open the window (`armada`) to resume it"
        );
    };
    let peer: PeerId = peer.parse().context("the saved peer id is damaged")?;
    let addrs = addrs
        .iter()
        .map(|a| a.parse::<Multiaddr>())
        .collect::<Result<Vec<_>, _>>()
        .context("a saved address is damaged")?;
    let session = match seating.store.restore::<G>(&id, identity.clone(), 0) {
        Ok(session) => session.context("the table has no saved session")?,
        Err(error) => {
            if let Some(damaged) = error.downcast_ref::<crate::store::Damaged>() {
                // Nothing can be signed from a damaged save: tell the other player
                // the table cannot go on, so that it need not wait out the grace.
                let host = meta.seat == SavedSeat::Host;
                say(&format!(
                    "this table's save is damaged: telling the other player that it cannot go on (at most {} s)",
                    TELL_GONE_MS / 1000
                ));
                let told = tokio::time::timeout(
                    Duration::from_millis(TELL_GONE_MS),
                    tell_gone(&seating.config, &identity, host, peer, addrs, damaged),
                )
                .await;
                say(match told {
                    Ok(Ok(())) => "the other player was told that this table cannot go on",
                    _ => "could not reach the other player to tell it that this table cannot go on",
                });
            }
            return Err(error);
        }
    };
    // The computer level saved with the table plays on, unless another is asked for.
    if let (Player::Human(_), Some(bot)) = (&seating.player, G::saved_bot(meta.by, meta.games)) {
        seating.player = Player::Bot(bot);
    }
    let me = Seat::from(meta.seat);
    let session = match over_already(session, &meta, &seating, id, say) {
        Ok(session) => session,
        Err(outcome) => return Ok(*outcome),
    };
    say(&format!("resuming table {} as the {me}", hex::encode(id)));
    let host = meta.seat == SavedSeat::Host;
    let (node, reach) = reseat(&seating.config, &identity, host, addrs).await?;
    let table = Table { node, peer, reach };
    let knock: Vec<Multiaddr> = meta.knock.iter().filter_map(|a| a.parse().ok()).collect();
    if host && !knock.is_empty() {
        // The guest may still hold this side's old connection, which QUIC finds
        // dead only after its idle timeout: told, it dials again at once.
        let node = table.node.clone();
        tokio::spawn(async move {
            let told = tokio::time::timeout(KNOCK_MS, node.knock(peer, knock)).await;
            tracing::info!(?told, "told the guest that the host is back");
        });
    }
    if session.left(me) {
        // This side's leave may not have reached the other player: it is delivered
        // if the other side is still there, and the wait is bounded.
        say(&format!(
            "you left this table; telling the other player (at most {} s)",
            LEAVE_AGAIN_MS / 1000
        ));
        let kept = session.clone();
        let finished = kept.settled();
        let run = run(session, table, None, seating, say);
        return match tokio::time::timeout(Duration::from_millis(LEAVE_AGAIN_MS), run).await {
            Ok(outcome) => outcome,
            Err(_) => Ok(TableOutcome {
                session: kept,
                finished,
            }),
        };
    }
    match session.poll_timeout() {
        // The person's own clock runs: the status below says for how long.
        _ if session.move_deadline().is_some() => say(
            "waiting for the other player to come back; your move meanwhile (Ctrl-C stops, the table stays saved)",
        ),
        Some(at) => say(&format!(
            "waiting for the other player to come back (the table's next deadline is in {} s; Ctrl-C stops, the table stays saved)",
            at.div_ceil(1000)
        )),
        None => say(
            "waiting for the other player to come back (no deadline runs; Ctrl-C stops, the table stays saved)",
        ),
    }
    // Where the game was left, before anything new arrives.
    if let Some(status) = &seating.status {
        status(&session);
    }
    run(session, table, None, seating, say).await
}

/// A resumed table with nobody to wait for — the other player left it, or said it
/// cannot go on and no deadline of this side's waits on it — is told as over and
/// shown so (`Err`); any other goes on (`Ok`), recalling what the other player said.
fn over_already<G: Game>(
    mut session: G,
    meta: &TableMeta,
    seating: &Seating<G>,
    id: [u8; 32],
    say: Say<'_>,
) -> Result<G, Box<TableOutcome<G>>> {
    let me = Seat::from(meta.seat);
    let mut over = None;
    if let Some(reason) = &meta.gone {
        session.recall_peer_gone(reason.clone());
        // Nothing waits on a player who cannot go on once this side's forfeit claim
        // stands or no deadline runs, as when it was first told.
        let claimed = session.claimant() == Some(me);
        if claimed || session.poll_timeout().is_none() {
            let stands = if claimed {
                "; your forfeit claim stands on the record"
            } else {
                ""
            };
            let why = format!("the other player said it cannot go on ({reason}){stands}");
            over = Some((why, crate::driver::Link::Gone { claimed }));
        } else {
            say(&format!(
                "the other player said it cannot go on at this table ({reason}): the table's clock runs out now"
            ));
        }
    }
    if over.is_none() && session.left(me.other()) {
        over = Some(("the other player left it".into(), crate::driver::Link::Left));
    }
    let Some((why, link)) = over else {
        return Ok(session);
    };
    say(&format!(
        "table {} is over: {why}, so there is nothing to resume",
        hex::encode(id)
    ));
    seating.tell(crate::driver::Update::Snapshot(
        Box::new(session.clone()),
        0,
    ));
    seating.tell(crate::driver::Update::Link(link));
    let finished = session.settled();
    Err(Box::new(TableOutcome { session, finished }))
}

/// How long a resumed host tries to tell the guest where it last listened.
const KNOCK_MS: Duration = Duration::from_secs(5);

/// How long a resumed side that had left the table tries to tell the other player.
const LEAVE_AGAIN_MS: u64 = 20_000;

/// The node of a saved table's seat and how it reaches the other player again: the
/// host listens where it did (the guest redials the addresses it knows) and wherever
/// else was asked, and takes streams; the guest dials the host's `addrs`.
async fn reseat(
    config: &Config,
    identity: &crate::fair::sign::Identity,
    host: bool,
    addrs: Vec<Multiaddr>,
) -> anyhow::Result<(Node, Reach)> {
    let mut config = config.clone();
    if host {
        let mut listen = addrs.clone();
        listen.append(&mut config.listen);
        config.listen = listen;
    }
    let node = Node::start(&identity.keypair(), config).await?;
    let reach = if host {
        Reach::Host(
            node.control()
                .accept(GAME_PROTOCOL)
                .map_err(|e| anyhow::anyhow!("cannot accept game streams: {e}"))?,
        )
    } else {
        Reach::Guest(addrs)
    };
    Ok((node, reach))
}

/// This side's seat and the other side's signing key, as the saved session of the
/// first game the table restores as has them.
struct SignedSeat<'a> {
    store: &'a Store,
    id: [u8; 32],
    identity: &'a crate::fair::sign::Identity,
    found: Option<(Seat, Option<crate::fair::hash::Hash>)>,
}

impl EachGame for SignedSeat<'_> {
    fn game<S: TableSession>(&mut self) {
        if self.found.is_some() {
            return;
        }
        let restored = self.store.restore::<S>(&self.id, self.identity.clone(), 0);
        if let Ok(Some(session)) = restored {
            let seat = session.seat();
            self.found = Some((seat, session.key(seat.other())));
        }
    }
}

/// A saved table whose meta is `damaged`: tells the other player at once that the
/// table cannot go on (at most `TELL_GONE_MS`), as a damaged session does. The seat and
/// the other player come from the signed frames when the session still restores,
/// the addresses from the meta as it reads (a wrong one only fails to dial).
pub async fn tell_damaged(
    config: &Config,
    store: &Store,
    damaged: &crate::store::Damaged,
    say: Say<'_>,
) -> anyhow::Result<()> {
    let id = damaged.table;
    let identity = store.identity()?;
    let hint = store.meta_unchecked(&id);
    // Whichever game the table plays: the session that restores says who sits where.
    let mut restored = SignedSeat {
        store,
        id,
        identity: &identity,
        found: None,
    };
    for game in TableGame::ALL {
        game.ask(&mut restored);
    }
    let signed = restored.found;
    let seat = signed
        .map(|(seat, _)| seat)
        .or_else(|| hint.as_ref().map(|m| Seat::from(m.seat)));
    let peer = match signed.and_then(|(_, key)| key) {
        Some(key) => libp2p::identity::ed25519::PublicKey::try_from_bytes(&key)
            .ok()
            .map(|k| libp2p::identity::PublicKey::from(k).to_peer_id()),
        None => match hint.as_ref().map(|m| &m.other) {
            Some(Other::Peer { id, .. }) => id.parse().ok(),
            _ => None,
        },
    };
    let addrs: Vec<Multiaddr> = match hint.as_ref().map(|m| &m.other) {
        Some(Other::Peer { addrs, .. }) => addrs.iter().filter_map(|a| a.parse().ok()).collect(),
        _ => Vec::new(),
    };
    let (Some(seat), Some(peer)) = (seat, peer) else {
        say("could not tell the other player: the damaged table does not say who it is");
        return Ok(());
    };
    say(&format!(
        "telling the other player that this table cannot go on (at most {} s)",
        TELL_GONE_MS / 1000
    ));
    let host = seat == Seat::Host;
    let told = tokio::time::timeout(
        Duration::from_millis(TELL_GONE_MS),
        tell_gone(config, &identity, host, peer, addrs, damaged),
    )
    .await;
    say(match told {
        Ok(Ok(())) => "the other player was told that this table cannot go on",
        _ => "could not reach the other player to tell it that this table cannot go on",
    });
    Ok(())
}

/// How long a side whose save is damaged tries to tell the other player so.
const TELL_GONE_MS: u64 = 30_000;

/// Reaches the other player as the table's seat would (the host listens where it
/// did, the guest dials) and sends it [`proto::Wire::Gone`], until the other side
/// shows it heard: it played the stream (its sync came) and then closed it.
async fn tell_gone(
    config: &Config,
    identity: &crate::fair::sign::Identity,
    host: bool,
    peer: PeerId,
    addrs: Vec<Multiaddr>,
    damaged: &crate::store::Damaged,
) -> anyhow::Result<()> {
    use futures::SinkExt;
    let (node, mut reach) = reseat(config, identity, host, addrs).await?;
    let gone = Bytes::from(Session::gone_wire(
        damaged.table,
        "its saved table is damaged",
    ));
    loop {
        let stream = match &mut reach {
            Reach::Host(incoming) => {
                let (from, stream) = incoming.next().await.context("the network stopped")?;
                if from != peer {
                    continue;
                }
                stream
            }
            Reach::Guest(addrs) => {
                let Ok(stream) = connect(&node, peer, addrs, false, &mut |_: &str| {}).await else {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                };
                stream
            }
        };
        let mut framed = framed(stream);
        if framed.send(gone.clone()).await.is_err() {
            continue;
        }
        // Heard: the other side played this stream (anything came) and closed it.
        let mut played = false;
        while let Some(Ok(_)) = framed.next().await {
            played = true;
        }
        if played {
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}
