//! The PostgreSQL store between several servers (`triboard::server::postgres`, `docs/design.md`
//! §Several instances): two stores on one database never store a ply twice, a batch is whole or
//! nothing (its notifications with it), what one publishes the other's listener hears, one leads
//! at a time and the lead passes on, the schema is made once however many start at once, a lost
//! connection is made again, and TLS is verified against `sslrootcert` (`prefer` falling back to
//! plaintext when it cannot be). Each test on a fresh database of the throwaway cluster
//! (`server::throwaway_pg`); skipped when PostgreSQL is not installed, outside CI.

#![cfg(feature = "server")]

#[path = "common/db.rs"]
mod db;

use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::json;
use triboard::server::postgres::{Heard, PgStore, listen};
use triboard::server::postgres_schema::SCHEMA_VERSION;
use triboard::server::store::{GameSetup, MAX_PUBLISH_BYTES, NewSeat, RequestKey, Store, StoreError};
use triboard::server::throwaway_pg::{self, Cluster};

/// A fresh database's URL, or `None` (the test is skipped) without PostgreSQL.
fn database(name: &str) -> Option<String> {
    if !db::postgres_here() {
        return None;
    }
    throwaway_pg::test_database(name)
}

/// A connection of the test's own (no TLS: the throwaway cluster has none).
fn admin(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap()
}

/// Ends every other session on the database that is in a transaction (`idle in transaction`), or
/// with `listening`, every session listening: as if its server's connection broke.
fn terminate(url: &str, listening: bool) -> u64 {
    let state = if listening { "query LIKE 'LISTEN%'" } else { "state = 'idle in transaction'" };
    let sql = format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND {state}"
    );
    admin(url).query(&sql, &[]).unwrap().len() as u64
}

/// A two-seat Trike game with both seats taken.
fn setup(id: &str) -> GameSetup {
    GameSetup {
        id: id.into(),
        game: "trike".into(),
        options: json!({"size": 7}),
        clock: None,
        days_per_move: None,
        allow_tools: false,
        code: format!("C{id}").to_uppercase(),
        seats: vec![Some(format!("{id}-t0")), Some(format!("{id}-t1"))],
        rematch_of: None,
        players: vec![None, None],
        rated: false,
        lobby: false,
        request: None,
    }
}

/// What a listener hears within `wait` (stopping early once `until` is heard).
fn heard(rx: &mpsc::Receiver<Heard>, wait: Duration, until: Option<&Heard>) -> Vec<Heard> {
    let end = Instant::now() + wait;
    let mut got = Vec::new();
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(h) => {
                let done = until == Some(&h);
                got.push(h);
                if done {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    got
}

fn payload(text: &str) -> Heard {
    Heard::Payload(text.into())
}

#[test]
fn two_stores_appending_the_same_ply_store_it_once_and_the_second_gets_a_conflict() {
    let Some(url) = database("same_ply") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    let b = PgStore::connect(&url).unwrap();
    // A holds the game's row in an open batch; B's append waits for it, then sees A's move.
    a.begin_batch().unwrap();
    a.append_moves("g1", 0, &["d4".into()], 1).unwrap();
    let waiting = std::thread::spawn(move || {
        let mut b = b;
        let result = b.append_moves("g1", 0, &["e5".into()], 2);
        (b, result)
    });
    std::thread::sleep(Duration::from_millis(300));
    assert!(!waiting.is_finished(), "B waits on the game's row");
    a.commit_batch().unwrap();
    let (b, result) = waiting.join().unwrap();
    assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
    assert_eq!(b.load_game("g1").unwrap().unwrap().moves, ["d4"]);
    // Many rounds of both racing for each ply: one wins each, nothing stored twice.
    let start = Arc::new(Barrier::new(2));
    let racers: Vec<_> = [a, b]
        .into_iter()
        .enumerate()
        .map(|(k, mut store)| {
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                let mut won = 0;
                for ply in 1..41u32 {
                    start.wait();
                    match store.append_moves("g1", ply, &[format!("m{ply}-{k}")], 3) {
                        Ok(()) => won += 1,
                        Err(StoreError::Conflict(_)) => {}
                        Err(e) => panic!("{e}"),
                    }
                    start.wait();
                }
                won
            })
        })
        .collect();
    let wins: Vec<u32> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    assert_eq!(wins.iter().sum::<u32>(), 40, "one append per ply: {wins:?}");
    let game = PgStore::connect(&url).unwrap().load_game("g1").unwrap().unwrap();
    assert_eq!(game.moves.len(), 41);
    // The key itself refuses a second row for a ply, whoever writes it.
    let err = admin(&url).execute("INSERT INTO moves (game_id, ply, text, at_ms) VALUES ('g1', 3, 'x', 0)", &[]);
    assert_eq!(err.unwrap_err().code(), Some(&postgres::error::SqlState::UNIQUE_VIOLATION));
}

#[test]
fn a_key_written_first_by_another_server_is_a_conflict_and_its_batch_goes_on() {
    let Some(url) = database("same_id") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    let mut b = PgStore::connect(&url).unwrap();
    a.begin_batch().unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    // B cannot see A's game yet: its insert waits on the key, then finds it taken.
    let waiting = std::thread::spawn(move || {
        b.begin_batch().unwrap();
        let result = b.create_game(&setup("g1"), 0);
        b.create_game(&setup("g2"), 0).unwrap();
        b.commit_batch().unwrap();
        (b, result)
    });
    std::thread::sleep(Duration::from_millis(300));
    a.commit_batch().unwrap();
    let (b, result) = waiting.join().unwrap();
    assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
    assert!(b.load_game("g2").unwrap().is_some(), "the batch went on past the refused write");
}

/// What one batch of [`opposite_order`] got: its second write's answer, its commit's.
type Outcome = (Result<(), StoreError>, Result<(), StoreError>);

/// Two batches, each holding the row of one of games `g1` and `g2` (their first writes done):
/// each, on a thread of its own, then writes the other game with `second` and commits, both at
/// once, so that each waits for the other's row — the deadlock of `docs/design.md` §Several
/// instances, which PostgreSQL breaks by failing one of the two statements. Returns each
/// batch's (second write, commit), and how many deadlocks the database counted meanwhile.
fn opposite_order(
    url: &str,
    a: PgStore,
    b: PgStore,
    second: fn(&mut PgStore, &str) -> Result<(), StoreError>,
) -> (Vec<Outcome>, i64) {
    let deadlocks = || -> i64 {
        admin(url)
            .query_one("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()", &[])
            .unwrap()
            .get(0)
    };
    let before = deadlocks();
    let start = Arc::new(Barrier::new(2));
    let batches: Vec<_> = [(a, "g2"), (b, "g1")]
        .into_iter()
        .map(|(mut store, other)| {
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                start.wait();
                let written = second(&mut store, other);
                (written, store.commit_batch())
            })
        })
        .collect();
    let results = batches.into_iter().map(|t| t.join().unwrap()).collect();
    // The statistics reach the view once the sessions end (the stores were dropped).
    let started = Instant::now();
    let mut seen = deadlocks() - before;
    while seen == 0 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(100));
        seen = deadlocks() - before;
    }
    (results, seen)
}

/// `id` with a third seat, free.
fn three_seats(id: &str) -> GameSetup {
    let mut game = setup(id);
    game.seats.push(None);
    game.players.push(None);
    game
}

#[test]
fn two_batches_writing_two_games_in_opposite_order_deadlock_and_the_failed_one_is_run_again() {
    let Some(url) = database("deadlock") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    let mut b = PgStore::connect(&url).unwrap();
    a.create_game(&three_seats("g1"), 0).unwrap();
    a.create_game(&three_seats("g2"), 0).unwrap();
    // A moves in g1 and B in g2; then A takes g2's free seat, and B g1's.
    a.begin_batch().unwrap();
    a.append_moves("g1", 0, &["a1".into()], 1).unwrap();
    b.begin_batch().unwrap();
    b.append_moves("g2", 0, &["b1".into()], 1).unwrap();
    let join = |store: &mut PgStore, game: &str| {
        let token = format!("{game}-t2");
        store.add_seat(game, NewSeat { seat: 2, token: &token, account: None, request: None }, 2)
    };
    let (results, deadlocks) = opposite_order(&url, a, b, join);
    assert!(deadlocks >= 1, "PostgreSQL saw no deadlock: the test did not provoke it");
    // The batch that lost the deadlock was rolled back and run again: every write of both was
    // acknowledged, and each is stored once.
    for (written, committed) in &results {
        assert_eq!((written, committed), (&Ok(()), &Ok(())), "{results:?}");
    }
    let store = PgStore::connect(&url).unwrap();
    for (game, mover) in [("g1", "a1"), ("g2", "b1")] {
        let stored = store.load_game(game).unwrap().unwrap();
        assert_eq!(stored.moves, [mover]);
        assert_eq!(stored.setup.seats[2].as_deref(), Some(format!("{game}-t2").as_str()));
    }
    let rows: i64 = admin(&url).query_one("SELECT COUNT(*) FROM moves", &[]).unwrap().get(0);
    assert_eq!(rows, 2);
}

#[test]
fn a_batch_run_again_after_a_deadlock_whose_write_is_answered_otherwise_fails_whole() {
    let Some(url) = database("deadlock_lost") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    let mut b = PgStore::connect(&url).unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    a.create_game(&setup("g2"), 0).unwrap();
    // Both batches play the first move of both games: whichever wins the deadlock stores its
    // two; the other, run again, finds its first move's ply taken, so nothing of it may stand.
    a.begin_batch().unwrap();
    a.append_moves("g1", 0, &["a1".into()], 1).unwrap();
    b.begin_batch().unwrap();
    b.append_moves("g2", 0, &["b2".into()], 1).unwrap();
    let second = |store: &mut PgStore, game: &str| {
        let text = if game == "g2" { "a2" } else { "b1" };
        store.append_moves(game, 0, &[text.into()], 2)
    };
    let (results, deadlocks) = opposite_order(&url, a, b, second);
    assert!(deadlocks >= 1, "PostgreSQL saw no deadlock: the test did not provoke it");
    let won: Vec<bool> = results.iter().map(|(w, c)| w.is_ok() && c.is_ok()).collect();
    assert_eq!(won.iter().filter(|&&w| w).count(), 1, "{results:?}");
    // The loser's commit fails: its messages are answered `storage`, and its clients resend.
    let (lost_write, lost_commit) = &results[usize::from(won[0])];
    assert!(lost_write.is_err() && matches!(lost_commit, Err(StoreError::Failed(_))), "{results:?}");
    let store = PgStore::connect(&url).unwrap();
    let moves = [store.load_game("g1").unwrap().unwrap().moves, store.load_game("g2").unwrap().unwrap().moves];
    let expected = if won[0] { [["a1"], ["a2"]] } else { [["b1"], ["b2"]] };
    assert_eq!(moves, expected, "the winner's two moves, each once");
}

#[test]
fn a_batch_that_fails_stores_nothing_and_its_notification_is_never_delivered() {
    let Some(url) = database("rollback") else { return };
    let (tx, rx) = mpsc::channel();
    listen(&url, move |h| tx.send(h).is_ok()).unwrap();
    let mut a = PgStore::connect(&url).unwrap();
    a.begin_batch().unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    a.publish("lost").unwrap();
    // A's connection breaks mid-batch (its server killed): the commit fails.
    assert_eq!(terminate(&url, false), 1);
    assert!(matches!(a.commit_batch(), Err(StoreError::Failed(_))));
    let mut b = PgStore::connect(&url).unwrap();
    assert_eq!(b.load_game("g1").unwrap(), None, "nothing stored");
    b.publish("marker").unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("marker"))), [payload("marker")]);
    // A connects again at its next call, and its writes count again.
    a.create_game(&setup("g2"), 0).unwrap();
    assert!(b.load_game("g2").unwrap().is_some());
}

#[test]
fn what_a_committed_batch_publishes_is_heard_at_its_commit_in_order() {
    let Some(url) = database("publish") else { return };
    let (tx, rx) = mpsc::channel();
    listen(&url, move |h| tx.send(h).is_ok()).unwrap();
    let mut a = PgStore::connect(&url).unwrap();
    assert!(a.shared());
    a.begin_batch().unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    a.publish("first").unwrap();
    a.publish("second").unwrap();
    assert!(heard(&rx, Duration::from_millis(300), None).is_empty(), "not before the commit");
    a.commit_batch().unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("second"))), [payload("first"), payload("second")]);
    // Outside a batch, at once; too long a payload is refused.
    a.publish("now").unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("now"))), [payload("now")]);
    assert!(matches!(a.publish(&"x".repeat(MAX_PUBLISH_BYTES + 1)), Err(StoreError::Conflict(_))));
    a.publish(&"y".repeat(MAX_PUBLISH_BYTES)).unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), None).len(), 1);
}

#[test]
fn a_listener_whose_connection_breaks_listens_again_and_says_so() {
    let Some(url) = database("relisten") else { return };
    let (tx, rx) = mpsc::channel();
    listen(&url, move |h| tx.send(h).is_ok()).unwrap();
    let mut a = PgStore::connect(&url).unwrap();
    a.publish("before").unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("before"))), [payload("before")]);
    assert_eq!(terminate(&url, true), 1);
    let started = Instant::now();
    assert_eq!(heard(&rx, Duration::from_secs(10), Some(&Heard::Reconnected)), [Heard::Reconnected]);
    eprintln!("listening again after {:?}", started.elapsed());
    a.publish("after").unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("after"))), [payload("after")]);
}

#[test]
fn a_listener_stops_when_its_callback_says_so() {
    let Some(url) = database("stop") else { return };
    let thread = listen(&url, |h| h != payload("stop")).unwrap();
    let mut a = PgStore::connect(&url).unwrap();
    a.publish("go on").unwrap();
    a.publish("stop").unwrap();
    thread.join().unwrap();
}

#[test]
fn one_store_leads_at_a_time_and_the_lead_passes_on_when_it_goes() {
    let Some(url) = database("lead") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    let mut b = PgStore::connect(&url).unwrap();
    assert_eq!(a.try_lead(), Ok(true));
    assert_eq!(b.try_lead(), Ok(false));
    assert_eq!(a.try_lead(), Ok(true), "still");
    assert_eq!(b.try_lead(), Ok(false));
    drop(a);
    let started = Instant::now();
    while b.try_lead() != Ok(true) {
        assert!(started.elapsed() < Duration::from_secs(10), "the lead never passed");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A leader whose connection broke leads no more: the other takes the lead.
    let mut c = PgStore::connect(&url).unwrap();
    assert_eq!(c.try_lead(), Ok(false));
    admin(&url)
        .query(
            "SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
             WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()
             AND l.pid <> pg_backend_pid()",
            &[],
        )
        .unwrap();
    let started = Instant::now();
    while c.try_lead() != Ok(true) {
        assert!(started.elapsed() < Duration::from_secs(10), "the lead never passed");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(b.try_lead().ok(), Some(false), "B connects again, and follows");
}

#[test]
fn servers_starting_at_once_make_the_schema_once_and_another_schema_is_refused() {
    let Some(url) = database("schema") else { return };
    let start = Arc::new(Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (url, start) = (url.clone(), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                PgStore::connect(&url).map(drop)
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap().unwrap_or_else(|e| panic!("a server could not start: {e}"));
    }
    let mut conn = admin(&url);
    let versions: Vec<i64> =
        conn.query("SELECT version FROM schema_version", &[]).unwrap().iter().map(|r| r.get(0)).collect();
    assert_eq!(versions, [SCHEMA_VERSION]);
    // A version 1 database (before request ids were bound and the limits shared) is migrated.
    conn.batch_execute(
        "ALTER TABLE seats DROP COLUMN request_of; DROP TABLE limit_hits;
         ALTER TABLE games DROP COLUMN outs, DROP COLUMN days_per_move; UPDATE schema_version SET version = 1",
    )
    .unwrap();
    PgStore::connect(&url).unwrap();
    let migrated: i64 = conn.query_one("SELECT COUNT(*) FROM limit_hits", &[]).unwrap().get(0);
    assert_eq!(migrated, 0, "the table is back");
    conn.query_one("SELECT COUNT(request_of) FROM seats", &[]).unwrap();
    // And version 3's columns (seats out, days per move) are there.
    conn.query_one("SELECT COUNT(outs), COUNT(days_per_move) FROM games", &[]).unwrap();
    conn.execute("UPDATE schema_version SET version = 99", &[]).unwrap();
    let err = PgStore::connect(&url).unwrap_err();
    assert!(err.to_string().contains("newer"), "{err}");
    let Some(other) = throwaway_pg::test_database("not_ours") else { return };
    admin(&other).batch_execute("CREATE TABLE notes (text TEXT)").unwrap();
    let err = PgStore::connect(&other).unwrap_err();
    assert!(err.to_string().contains("not a triboard"), "{err}");
}

#[test]
fn sslmode_require_refuses_a_server_without_tls_and_prefer_falls_back() {
    let Some(url) = database("tls") else { return };
    let err = PgStore::connect(&format!("{url}?sslmode=require")).unwrap_err();
    assert!(matches!(err, StoreError::Failed(_)), "{err}");
    let err = PgStore::connect(&format!("{url}?sslmode=verify-full&sslrootcert=/nonexistent.pem")).unwrap_err();
    assert!(err.to_string().contains("sslrootcert"), "{err}");
    PgStore::connect(&format!("{url}?sslmode=prefer")).unwrap();
    PgStore::connect(&format!("{url}?sslmode=disable")).unwrap();
}

#[test]
fn text_postgres_cannot_hold_is_found_nowhere_and_refused_as_a_conflict() {
    let Some(url) = database("nul") else { return };
    let mut a = PgStore::connect(&url).unwrap();
    a.begin_batch().unwrap();
    a.create_game(&setup("g1"), 0).unwrap();
    assert_eq!(a.load_game("g\0").unwrap(), None);
    assert_eq!(a.game_of_code("A\0").unwrap(), None);
    assert!(a.games_of_token("t\0").unwrap().is_empty());
    let key = RequestKey { id: "r\0".into(), of: "o".into() };
    let bad = GameSetup { request: Some((0, key)), ..setup("g2") };
    assert!(matches!(a.create_game(&bad, 0), Err(StoreError::Conflict(_))));
    a.commit_batch().unwrap();
    assert!(a.load_game("g1").unwrap().is_some(), "the batch was not spoilt");
}

/// Runs `openssl` with `args` in `dir`.
fn openssl(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("openssl").args(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Whether the session named `name` on the database at `url` uses TLS.
fn uses_tls(url: &str, name: &str) -> bool {
    let row = admin(url)
        .query_one(
            "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid WHERE a.application_name = $1",
            &[&name],
        )
        .unwrap();
    row.get(0)
}

#[test]
fn a_server_with_tls_is_verified_against_sslrootcert_and_prefer_falls_back_when_it_cannot_be() {
    if !db::postgres_here() {
        return;
    }
    if std::process::Command::new("openssl").arg("version").output().is_err() {
        eprintln!("skipped: no openssl to make the test's certificates");
        return;
    }
    // A cluster of its own, with a certificate for 127.0.0.1 from a CA of the test's.
    let cluster = Cluster::start().unwrap();
    let dir = cluster.dir();
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-subj",
            "/CN=triboard test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "server.ext",
        ],
    );
    use std::os::unix::fs::MetadataExt as _;
    let owner = std::fs::metadata(dir).unwrap();
    for file in ["server.key", "server.pem"] {
        std::os::unix::fs::chown(dir.join(file), Some(owner.uid()), Some(owner.gid())).unwrap();
    }
    let base = cluster.url("postgres");
    let mut conn = admin(&base);
    let key = dir.join("server.key");
    let cert = dir.join("server.pem");
    conn.batch_execute(&format!("ALTER SYSTEM SET ssl_cert_file = '{}'", cert.display())).unwrap();
    conn.batch_execute(&format!("ALTER SYSTEM SET ssl_key_file = '{}'", key.display())).unwrap();
    conn.batch_execute("ALTER SYSTEM SET ssl = on").unwrap();
    conn.batch_execute("SELECT pg_reload_conf()").unwrap();
    let started = Instant::now();
    while admin(&base).query_one("SHOW ssl", &[]).unwrap().get::<_, String>(0) != "on" {
        assert!(started.elapsed() < Duration::from_secs(10), "ssl never came on");
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = cluster.new_database("tls").unwrap();
    let ca = dir.join("ca.pem");
    // require, verified against the test's CA: TLS; the store and its listener work over it.
    let verified = format!("{url}?sslmode=require&sslrootcert={}&application_name=verified", ca.display());
    let mut store = PgStore::connect(&verified).unwrap();
    assert!(uses_tls(&url, "verified"));
    let (tx, rx) = mpsc::channel();
    listen(&verified, move |h| tx.send(h).is_ok()).unwrap();
    store.create_game(&setup("g1"), 0).unwrap();
    store.publish("over tls").unwrap();
    assert_eq!(heard(&rx, Duration::from_secs(5), Some(&payload("over tls"))), [payload("over tls")]);
    // Without the CA, the certificate does not verify: require refuses, prefer goes plaintext.
    let err = PgStore::connect(&format!("{url}?sslmode=require")).unwrap_err();
    assert!(matches!(err, StoreError::Failed(_)), "{err}");
    let prefer = PgStore::connect(&format!("{url}?application_name=fell_back")).unwrap();
    assert!(!uses_tls(&url, "fell_back"));
    assert!(prefer.load_game("g1").unwrap().is_some());
}
