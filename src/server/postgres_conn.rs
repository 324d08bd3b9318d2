//! The PostgreSQL store's connection: how a URL is read ([`Target`]: `sslmode`, `sslrootcert`),
//! the TLS connector (rustls with ring, the Mozilla roots compiled in, plus any `sslrootcert`),
//! the connection with its cache of prepared statements ([`Conn`]) and PostgreSQL's errors as
//! [`StoreError`]s. The store ([`super::postgres`]), its listener ([`super::postgres_listen`]) and
//! the throwaway test cluster connect through it.
//!
//! TLS, by `sslmode` in the URL: `disable`, plaintext; `prefer` (PostgreSQL's default), TLS when
//! the server offers it and its certificate verifies, else plaintext (a local cluster without SSL,
//! or Debian's with its self-signed certificate); `require` (and libpq's `verify-ca` and
//! `verify-full`, which mean the same here), TLS with a certificate that verifies against the
//! Mozilla roots or the PEM file `sslrootcert=FILE` names, for the host named, or no connection.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use postgres::config::SslMode;
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, Config, Row, Statement};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::store_error::StoreError;

impl From<postgres::Error> for StoreError {
    /// A unique key violated (another server wrote the same key first) is a
    /// [`StoreError::Conflict`]; everything else [`StoreError::Failed`].
    fn from(e: postgres::Error) -> StoreError {
        let why = e.as_db_error().map_or_else(|| e.to_string(), |db| db.message().to_string());
        if e.code() == Some(&SqlState::UNIQUE_VIOLATION) { StoreError::Conflict(why) } else { StoreError::Failed(why) }
    }
}

/// A database to connect to: the URL read, and its TLS.
#[derive(Clone)]
pub(super) struct Target {
    config: Config,
    tls: MakeRustlsConnect,
}

impl Target {
    /// Reads a `postgres://` URL (or libpq's `key=value` form) with triboard's defaults: the
    /// application name `triboard`, a connection timeout of 10 s.
    ///
    /// # Errors
    /// [`StoreError::Failed`]: the URL cannot be read, or its `sslrootcert` file.
    pub(super) fn parse(url: &str) -> Result<Target, StoreError> {
        let (url, root_file, verify) = own_options(url);
        let mut config: Config = url.parse().map_err(|e| StoreError::Failed(format!("the database URL: {e}")))?;
        if verify {
            config.ssl_mode(SslMode::Require);
        }
        if config.get_application_name().is_none() {
            config.application_name("triboard");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        if let Some(file) = root_file {
            let fail = |e: &dyn std::fmt::Display| StoreError::Failed(format!("sslrootcert {file}: {e}"));
            for cert in CertificateDer::pem_file_iter(&file).map_err(|e| fail(&e))? {
                roots.add(cert.map_err(|e| fail(&e))?).map_err(|e| fail(&e))?;
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| StoreError::Failed(format!("TLS: {e}")))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Target { config, tls: MakeRustlsConnect::new(tls) })
    }

    /// A new connection. With `sslmode=prefer`, a server whose certificate does not verify is
    /// connected to again in plaintext, as to a server without TLS.
    ///
    /// # Errors
    /// [`StoreError::Failed`]: the server cannot be reached, refuses the login, or (`require`)
    /// offers no TLS or a certificate that does not verify.
    pub(super) fn connect(&self) -> Result<Client, StoreError> {
        match self.config.connect(self.tls.clone()) {
            Err(e) if self.config.get_ssl_mode() == SslMode::Prefer && is_tls_failure(&e) => {
                let mut plain = self.config.clone();
                plain.ssl_mode(SslMode::Disable);
                Ok(plain.connect(self.tls.clone())?)
            }
            other => Ok(other?),
        }
    }

    /// Where it connects, for messages: hosts, port and database, never the password.
    pub(super) fn describe(&self) -> String {
        let hosts: Vec<String> = self
            .config
            .get_hosts()
            .iter()
            .map(|h| match h {
                postgres::config::Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                postgres::config::Host::Unix(path) => path.display().to_string(),
            })
            .collect();
        let ports: Vec<String> = self.config.get_ports().iter().map(u16::to_string).collect();
        format!("{}:{} database {}", hosts.join(","), ports.join(","), self.config.get_dbname().unwrap_or("(default)"))
    }
}

/// Takes out of a URL's query what tokio-postgres does not read: `sslrootcert=FILE`, and
/// `sslmode=verify-ca|verify-full` (read as `require`, which verifies here). Returns the URL
/// left, the file, and whether verification was asked for.
fn own_options(url: &str) -> (String, Option<String>, bool) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None, false);
    };
    let (mut file, mut verify) = (None, false);
    let mut kept = Vec::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("sslrootcert", value)) => file = Some(value.to_string()),
            Some(("sslmode", "verify-ca" | "verify-full")) => verify = true,
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) };
    (url, file, verify)
}

/// Whether a connection failed in the TLS handshake (rustls refused the server's certificate).
fn is_tls_failure(e: &postgres::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        let inner = err.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref());
        if err.is::<rustls::Error>() || inner.is_some_and(|i| i.is::<rustls::Error>()) {
            return true;
        }
        source = err.source();
    }
    false
}

/// How many times a batch is run again after a deadlock ([`Conn::replay`]) before it is given up.
const MAX_REPLAYS: usize = 3;

/// One write of an open batch, run again by [`Conn::replay`]: whether it gave the same answer.
pub(super) type Replay = Box<dyn FnMut(&mut Conn) -> bool + Send>;

/// A write's statements, run again as they were first run.
pub(super) type Write<T> = Arc<dyn Fn(&mut Conn) -> Result<T, StoreError> + Send + Sync>;

/// A connection with its prepared statements, whether a statement failed in the open
/// transaction (which PostgreSQL then refuses to go on with, until it is rolled back), and the
/// open batch's writes so far, to run them again after a deadlock.
pub(super) struct Conn {
    /// The connection.
    pub(super) client: Client,
    /// Statements prepared on it, by their text.
    statements: HashMap<&'static str, Statement>,
    /// A statement failed since the transaction began (or its last savepoint was rolled back to).
    pub(super) broken: bool,
    /// A statement failed as a deadlock's victim (or a serialization failure) since last asked
    /// ([`Conn::take_deadlock`]).
    deadlocked: bool,
    /// The open batch's writes, in order ([`Conn::note`]).
    pub(super) journal: Vec<Replay>,
}

impl Conn {
    /// `client`, with no statement prepared yet.
    pub(super) fn new(client: Client) -> Conn {
        Conn { client, statements: HashMap::new(), broken: false, deadlocked: false, journal: Vec::new() }
    }

    /// Notes a failed statement, and gives its error.
    fn failed(&mut self, e: postgres::Error) -> StoreError {
        self.broken = true;
        let code = e.code();
        self.deadlocked |=
            code == Some(&SqlState::T_R_DEADLOCK_DETECTED) || code == Some(&SqlState::T_R_SERIALIZATION_FAILURE);
        e.into()
    }

    /// Whether a statement failed as a deadlock's victim since last asked.
    pub(super) fn take_deadlock(&mut self) -> bool {
        std::mem::take(&mut self.deadlocked)
    }

    /// Runs `f` inside a savepoint of the open transaction: released if it succeeds, rolled back
    /// to if it fails, so that the transaction goes on either way.
    ///
    /// # Errors
    /// `f`'s; the savepoint's own statements' (the transaction is then spoiled).
    pub(super) fn savepoint<T>(&mut self, f: &dyn Fn(&mut Conn) -> Result<T, StoreError>) -> Result<T, StoreError> {
        self.simple("SAVEPOINT write")?;
        match f(self) {
            Ok(value) => {
                self.simple("RELEASE SAVEPOINT write")?;
                Ok(value)
            }
            Err(e) => {
                self.simple("ROLLBACK TO SAVEPOINT write; RELEASE SAVEPOINT write")?;
                self.broken = false;
                Err(e)
            }
        }
    }

    /// Notes a write of the open batch and the answer it gave, to run it again in a replay.
    pub(super) fn note<T: PartialEq + Send + 'static>(&mut self, f: Write<T>, answer: Result<T, StoreError>) {
        self.journal.push(Box::new(move |conn: &mut Conn| conn.savepoint(&*f) == answer));
    }

    /// After this batch's statement failed as a deadlock's victim: rolls the batch back (its
    /// locks released, so the other batch goes on), begins it again and runs its writes again,
    /// each of which must give the answer it first gave (a deadlock in the replay starts it
    /// over, at most [`MAX_REPLAYS`] times). The transaction then stands as if the deadlock had
    /// not happened, and the failed write can be run again.
    ///
    /// # Errors
    /// A write answered otherwise (another server's write came between), deadlocks again and
    /// again, or the database failed: the batch is then spoiled (its commit rolls it back, and
    /// its messages are answered `storage`).
    pub(super) fn replay(&mut self) -> Result<(), StoreError> {
        let mut journal = std::mem::take(&mut self.journal);
        let mut result = Err(StoreError::Failed("the batch deadlocked again each time it was run again".into()));
        for _ in 0..MAX_REPLAYS {
            self.deadlocked = false;
            if let Err(e) = self.simple("ROLLBACK; BEGIN") {
                result = Err(e);
                break;
            }
            self.broken = false;
            if journal.iter_mut().all(|write| write(self)) {
                result = Ok(());
                break;
            }
            if !self.take_deadlock() {
                result = Err(StoreError::Failed(
                    "the batch deadlocked with another server's, and run again one of its writes was answered \
                     otherwise"
                        .into(),
                ));
                break;
            }
        }
        self.journal = journal;
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    /// `sql`, prepared once per connection.
    fn statement(&mut self, sql: &'static str) -> Result<Statement, StoreError> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql).map_err(|e| self.failed(e))?;
        self.statements.insert(sql, statement.clone());
        Ok(statement)
    }

    /// Runs statements without parameters (`BEGIN`, `SAVEPOINT w`, …) in one round trip.
    pub(super) fn simple(&mut self, sql: &str) -> Result<(), StoreError> {
        self.client.batch_execute(sql).map_err(|e| self.failed(e))
    }

    /// The rows of a query.
    pub(super) fn query(&mut self, sql: &'static str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, StoreError> {
        let statement = self.statement(sql)?;
        self.client.query(&statement, params).map_err(|e| self.failed(e))
    }

    /// The row of a query that gives at most one.
    pub(super) fn query_opt(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, StoreError> {
        let statement = self.statement(sql)?;
        self.client.query_opt(&statement, params).map_err(|e| self.failed(e))
    }

    /// The row of a query that gives exactly one.
    pub(super) fn query_one(&mut self, sql: &'static str, params: &[&(dyn ToSql + Sync)]) -> Result<Row, StoreError> {
        let statement = self.statement(sql)?;
        self.client.query_one(&statement, params).map_err(|e| self.failed(e))
    }

    /// Runs a statement; returns how many rows it changed.
    pub(super) fn execute(&mut self, sql: &'static str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, StoreError> {
        let statement = self.statement(sql)?;
        self.client.execute(&statement, params).map_err(|e| self.failed(e))
    }
}

/// Column `at` of `row`, as `T`.
///
/// # Errors
/// [`StoreError::Failed`] if the column is not of that type.
pub(super) fn get<'a, T: postgres::types::FromSql<'a>>(row: &'a Row, at: usize) -> Result<T, StoreError> {
    row.try_get(at).map_err(|e| StoreError::Failed(e.to_string()))
}

/// A time in ms as PostgreSQL's `BIGINT`.
pub(super) fn ms_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A `BIGINT` time in ms (0 if negative).
pub(super) fn ms_of(ms: i64) -> u64 {
    u64::try_from(ms).unwrap_or(0)
}

/// A seat number read from an `INTEGER` column.
///
/// # Errors
/// [`StoreError::Failed`] if it is no seat number.
pub(super) fn seat_of(seat: i32) -> Result<u8, StoreError> {
    u8::try_from(seat).map_err(|_| StoreError::Failed(format!("{seat} is no seat number")))
}

/// Whether text can be stored and so looked up: PostgreSQL's text holds no NUL character (a
/// lookup of one finds nothing, without asking the database, which would refuse it).
pub(super) fn storable(text: &str) -> bool {
    !text.contains('\0')
}

#[cfg(test)]
mod tests {
    use super::own_options;

    #[test]
    fn own_options_are_taken_out_of_the_url() {
        let (url, file, verify) = own_options("postgres://u@h/db?sslmode=verify-full&sslrootcert=/ca.pem&x=1");
        assert_eq!((url.as_str(), file.as_deref(), verify), ("postgres://u@h/db?x=1", Some("/ca.pem"), true));
        let (url, file, verify) = own_options("postgres://u@h/db?sslmode=require");
        assert_eq!((url.as_str(), file, verify), ("postgres://u@h/db?sslmode=require", None, false));
        assert_eq!(own_options("host=h dbname=d").0, "host=h dbname=d");
    }
}
